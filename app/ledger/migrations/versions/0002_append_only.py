"""Append-only, in the database itself: a settled (or void) round cannot change; events,
hands, wagers, settlements and bank decisions are never updated or deleted; a closed shift
stays closed; nothing is deleted. Whoever writes - a station, a script, a DBA's console -
the database refuses. A correction is a new settlement row that reverses.

Revision ID: 0002_append_only
Revises: 0001_ledger
Create Date: 2024-06-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002_append_only"
down_revision: str | None = "0001_ledger"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SETTLED = "a settled round cannot change: record a correction (a new row that reverses)"
APPEND_ONLY = "the ledger only adds rows: {table} rows are never changed or deleted"
CLOSED = "a closed shift cannot change: open a new one"
NO_DELETE = "the ledger only adds rows: {table} rows are never deleted"

APPEND_ONLY_TABLES = ("events", "hands", "wagers", "settlements", "bank_decisions")
ALL_TABLES = ("stations", "shifts", "rounds", *APPEND_ONLY_TABLES)

# (table, name, operations, row condition or None, message)
RULES: tuple[tuple[str, str, tuple[str, ...], str | None, str], ...] = (
    ("rounds", "final", ("UPDATE",), "OLD.status IN ('settled', 'void')", SETTLED),
    ("rounds", "no_delete", ("DELETE",), None, NO_DELETE.format(table="rounds")),
    ("shifts", "closed", ("UPDATE",), "OLD.closed_at IS NOT NULL", CLOSED),
    ("shifts", "no_delete", ("DELETE",), None, NO_DELETE.format(table="shifts")),
    ("stations", "no_delete", ("DELETE",), None, NO_DELETE.format(table="stations")),
    *((t, "append_only", ("UPDATE", "DELETE"), None, APPEND_ONLY.format(table=t))
      for t in APPEND_ONLY_TABLES),
)


def _sqlite_name(table: str, name: str, operation: str) -> str:
    return f"ledger_{table}_{name}_{operation.lower()}"


def create_trigger(dialect: str, table: str, name: str, operations: tuple[str, ...],
                   when: str | None, message: str) -> None:
    """One rule of RULES as the database's trigger(s) (a later migration that must lift a
    rule for a moment puts it back with this, exactly as it was)."""
    if dialect == "postgresql":
        condition = f" WHEN ({when})" if when else ""
        op.execute(
            f"CREATE TRIGGER ledger_{name} BEFORE {' OR '.join(operations)} ON {table} "
            f"FOR EACH ROW{condition} EXECUTE FUNCTION paigow_ledger_refuse('{message}')")
        return
    for operation in operations:
        condition = f" WHEN {when}" if when else ""
        op.execute(
            f"CREATE TRIGGER {_sqlite_name(table, name, operation)} BEFORE {operation} "
            f"ON {table} FOR EACH ROW{condition} "
            f"BEGIN SELECT RAISE(ABORT, 'ledger: {message}'); END")


def drop_trigger(dialect: str, table: str, name: str, operations: tuple[str, ...]) -> None:
    if dialect == "postgresql":
        op.execute(f"DROP TRIGGER IF EXISTS ledger_{name} ON {table}")
        return
    for operation in operations:
        op.execute(f"DROP TRIGGER IF EXISTS {_sqlite_name(table, name, operation)}")


def upgrade() -> None:
    dialect = op.get_context().dialect.name
    if dialect == "postgresql":
        op.execute("""
            CREATE FUNCTION paigow_ledger_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'ledger: %', TG_ARGV[0]
                    USING ERRCODE = 'integrity_constraint_violation';
            END $$""")
        for rule in RULES:
            create_trigger(dialect, *rule)
        for table in ALL_TABLES:
            op.execute(
                f"CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON {table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION paigow_ledger_refuse("
                f"'{NO_DELETE.format(table=table)}')")
        return
    for rule in RULES:
        create_trigger(dialect, *rule)


def downgrade() -> None:
    dialect = op.get_context().dialect.name
    for table, name, operations, _, _ in RULES:
        drop_trigger(dialect, table, name, operations)
    if dialect == "postgresql":
        for table in ALL_TABLES:
            op.execute(f"DROP TRIGGER IF EXISTS ledger_no_truncate ON {table}")
        op.execute("DROP FUNCTION IF EXISTS paigow_ledger_refuse()")
