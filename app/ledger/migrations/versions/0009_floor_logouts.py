"""Floor sessions end (issue 23): `floor_logouts`, a row each time a person logs out of the
floor. A floor session remembers how many logouts its person had when it logged in; one
more ends it (and every other session of theirs, a copied cookie included), because the end
is kept here, not by the browser forgetting its cookie. The table only grows, as the
ledger's do: a logout deleted would bring its sessions back.

Revision ID: 0009_floor_logouts
Revises: 0008_signatures
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_floor_logouts"
down_revision: str | None = "0008_signatures"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)
TABLE = "floor_logouts"
REFUSE = "the ledger only adds rows: floor_logouts rows are never changed or deleted"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_floor_logouts"),
    )
    op.create_index("ix_floor_logouts_name", TABLE, ["name"])
    if op.get_context().dialect.name == "postgresql":  # paigow_ledger_refuse() is 0002's
        op.execute(f"CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
                   f"FOR EACH ROW EXECUTE FUNCTION paigow_ledger_refuse('{REFUSE}')")
        op.execute(f"CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON {TABLE} "
                   f"FOR EACH STATEMENT EXECUTE FUNCTION paigow_ledger_refuse('{REFUSE}')")
        return
    for operation in ("UPDATE", "DELETE"):
        op.execute(f"CREATE TRIGGER ledger_{TABLE}_append_only_{operation.lower()} "
                   f"BEFORE {operation} ON {TABLE} FOR EACH ROW "
                   f"BEGIN SELECT RAISE(ABORT, 'ledger: {REFUSE}'); END")


def downgrade() -> None:
    op.drop_index("ix_floor_logouts_name", TABLE)
    op.drop_table(TABLE)  # its triggers go with it
