"""Rows signed where they are made (issue 23): each link of a chain carries the id of the
key that wrote it and its Ed25519 signature; `station_keys` holds the keys a supervisor
enrolled or revoked (append-only, chained in the people's chain); `chain_unsigned` records
how many links each chain held when signing began, the only links that may carry none.

Revision ID: 0008_signatures
Revises: 0007_floor_people
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0008_signatures"
down_revision: str | None = "0007_floor_people"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)
APPEND_ONLY = ("station_keys", "chain_unsigned")
REFUSE = "{table} only grows: rows are never changed or deleted"


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite's too): the chain's append-only triggers stay as they are.
    op.add_column("chain", sa.Column("key_id", sa.String(16), nullable=True))
    op.add_column("chain", sa.Column("signature", sa.String(128), nullable=True))
    op.create_table(
        "chain_unsigned",
        sa.Column("chain", sa.String(40), nullable=False),
        sa.Column("upto_seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("chain", name="pk_chain_unsigned"),
    )
    op.create_table(
        "station_keys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("key_id", sa.String(16), nullable=False),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("station_id", sa.Uuid(), nullable=True),
        sa.Column("table_name", sa.String(40), nullable=True),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("action", sa.String(10), nullable=False),
        sa.Column("by", sa.String(100), nullable=False),
        sa.Column("sign_in", sa.Uuid(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_station_keys"),
        sa.CheckConstraint("action IN ('enrolled', 'revoked')",
                           name="ck_station_keys_action"),
        sa.CheckConstraint("kind IN ('station', 'floor')", name="ck_station_keys_kind"),
    )
    op.create_index("ix_station_keys_key_id", "station_keys", ["key_id"])
    postgres = op.get_context().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        message = REFUSE.format(table=table)
        if postgres:  # paigow_ledger_refuse() is 0002's
            op.execute(f"CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON {table} "
                       f"FOR EACH ROW EXECUTE FUNCTION paigow_ledger_refuse('{message}')")
            op.execute(f"CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON {table} "
                       f"FOR EACH STATEMENT EXECUTE FUNCTION paigow_ledger_refuse("
                       f"'{message}')")
            continue
        for operation in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER ledger_{table}_append_only_{operation.lower()} "
                       f"BEFORE {operation} ON {table} FOR EACH ROW "
                       f"BEGIN SELECT RAISE(ABORT, 'ledger: {message}'); END")
    if not context.is_offline_mode():
        op.execute("INSERT INTO chain_unsigned (chain, upto_seq) "
                   "SELECT chain, MAX(seq) FROM chain GROUP BY chain")


def downgrade() -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS ledger_append_only ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS ledger_no_truncate ON {table}")
        else:
            for operation in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS ledger_{table}_append_only_{operation}")
    op.drop_index("ix_station_keys_key_id", "station_keys")
    op.drop_table("station_keys")
    op.drop_table("chain_unsigned")
    op.drop_column("chain", "signature")
    op.drop_column("chain", "key_id")
