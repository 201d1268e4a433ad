"""Trust: each table's hash chain (`chain`), the people who may do a supervisor's action
(`users`, a new row per change) and their tries (`sign_ins`); all three only ever grow, as
the ledger's other tables do. The rows already in the ledger are linked into their chains
here (sealed as they are at the upgrade).

Revision ID: 0004_trust
Revises: 0002_append_only (the lead chains it after 0003 at the merge)
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0004_trust"
down_revision: str | None = "0003_round_rules"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)
TABLES = ("chain", "users", "sign_ins")
REFUSE = "the ledger only adds rows: {table} rows are never changed or deleted"


def upgrade() -> None:
    op.create_table(
        "chain",
        sa.Column("chain", sa.String(40), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("row_table", sa.String(20), nullable=False),
        sa.Column("row_id", sa.String(36), nullable=False),
        sa.Column("row_hash", sa.String(64), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("entry_hash", sa.String(64), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("chain", "seq", name="pk_chain"),
    )
    op.create_index("ix_chain_row_table_row_id", "chain", ["row_table", "row_id"])
    op.create_table(
        "users",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("secret_hash", sa.Text(), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("change", sa.String(10), nullable=False),
        sa.Column("changed_by", sa.String(100), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name", "version", name="uq_users_name_version"),
        sa.CheckConstraint("role IN ('pit supervisor', 'supervisor', 'shift manager', "
                           "'auditor')", name="ck_users_role"),
    )
    op.create_table(
        "sign_ins",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("station", sa.String(100), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_sign_ins"),
    )
    op.create_index("ix_sign_ins_name_at", "sign_ins", ["name", "at"])
    postgres = op.get_context().dialect.name == "postgresql"
    for table in TABLES:
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
        from app.ledger.chain import seal_existing, stored_as_text

        # the rows as this ledger stores them until 0015 (ids as text on SQLite)
        seal_existing(op.get_bind(), stored_as_text())


def downgrade() -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    for table in TABLES:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS ledger_append_only ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS ledger_no_truncate ON {table}")
        else:
            for operation in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS ledger_{table}_append_only_{operation}")
    op.drop_index("ix_sign_ins_name_at", "sign_ins")
    op.drop_table("sign_ins")
    op.drop_table("users")
    op.drop_index("ix_chain_row_table_row_id", "chain")
    op.drop_table("chain")
