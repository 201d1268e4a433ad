"""A table's chain takes one link per write transaction (format paigow.chain/2, issue 24):
the link's `rows` holds each row it covers, 49 bytes apiece (its table, id and SHA-256).
A plain ADD COLUMN (SQLite's too): the chain's append-only triggers and row-level policies
stay as they are, and every /1 link written before keeps verifying as it did; nothing
already written is rewritten.

Revision ID: 0012_chain_per_transaction
Revises: 0011_table_logins
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0012_chain_per_transaction"
down_revision: str | None = "0011_table_logins"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("chain", sa.Column("rows", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    # A /2 link without its rows proves nothing: going back would leave its rows unchained.
    found = None if context.is_offline_mode() else op.get_bind().scalar(
        sa.text("SELECT 1 FROM chain WHERE row_table = '*' LIMIT 1"))
    if found:
        raise RuntimeError("the ledger holds links of one transaction each (paigow.chain/2): "
                           "a station older than migration 0012 cannot check them, so the "
                           "ledger is not taken back past it")
    op.drop_column("chain", "rows")
