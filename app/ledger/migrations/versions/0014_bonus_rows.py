"""The bonus and envy lines as rows of their own (issue 26): `bonus_settlements`, a row a
line in the order paid, written in the same transaction as the round's `settlements` rows
and chained as they are (table number 11 of a /2 link). Once a round's rows hold its lines,
its kept slip (`paigow.ledger-slip/1`) leaves them out and reads them back from the rows.

Like `settlements`, the rows are only ever added (the append-only triggers of 0002, and no
TRUNCATE on PostgreSQL); on PostgreSQL a station's login may add rows for its own table's
rounds only (the row-level security of 0011), and every station login setup-roles made
before this may add them at once, so a station does not stop mid-shift on upgrade.

Rounds settled before keep their lines in their slip, as they were written and signed: no
row is made for them here. A migration's row would carry no station's signature, so verify
would have to name its link or trust an unsigned one; and their slips cannot leave the
lines out (a settled round's row never changes), so the lines would be kept twice. Recall,
the slip and the floor read such a round's lines from its slip, as before.

Going down past this (to 0015_compact), as past 0013: refused once a round's lines are in
rows (a station older than this would find no bonus on those slips); an empty table is
dropped.

Revision ID: 0014_bonus_rows
Revises: 0015_compact (0015 was merged first; the ids are names, the chain is the order)
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import context, op

from app.ledger.columns import LedgerUuid

revision: str = "0014_bonus_rows"
down_revision: str | None = "0015_compact"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "bonus_settlements"
APPEND_ONLY = "the ledger only adds rows: bonus_settlements rows are never changed or deleted"
NO_DELETE = "the ledger only adds rows: bonus_settlements rows are never deleted"
OWN_ROUND = "paigow_writes_round(round_id)"

# every station login setup-roles made (a role that may insert into settlements; the owner
# owns it): as 0010_secrets finds them
STATION_LOGINS = """
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT DISTINCT pg_get_userbyid(a.grantee) AS who
             FROM pg_class c, aclexplode(c.relacl) a
             WHERE c.oid = 'public.settlements'::regclass AND a.privilege_type = 'INSERT'
               AND a.grantee <> 0 AND a.grantee <> c.relowner LOOP
        EXECUTE format('GRANT INSERT ON public.bonus_settlements TO %I', r.who);
    END LOOP;
END $$"""


def _migration(name: str) -> ModuleType:
    """An earlier migration, loaded from its file beside this one as Alembic loads it."""
    path = Path(__file__).with_name(f"{name}.py")
    spec = spec_from_file_location(f"paigow_ledger_{name}", path)
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", LedgerUuid(), nullable=False),  # 16 bytes, as 0015 keeps every id
        sa.Column("round_id", LedgerUuid(), nullable=False),
        sa.Column("line_no", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(5), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("from_position", sa.Integer(), nullable=True),
        sa.Column("category", sa.String(40), nullable=False),
        sa.Column("wager_cents", sa.BigInteger(), nullable=False),
        sa.Column("paid_cents", sa.BigInteger(), nullable=False),
        sa.Column("supervisor", sa.Boolean(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_bonus_settlements"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"],
                                name="fk_bonus_settlements_round_id_rounds"),
        sa.UniqueConstraint("round_id", "line_no", name="uq_bonus_settlements_round_id_line_no"),
        sa.CheckConstraint("kind IN ('bonus', 'envy')", name=op.f("ck_bonus_settlements_kind")),
    )
    dialect = op.get_context().dialect.name
    triggers = _migration("0002_append_only")
    triggers.create_trigger(dialect, TABLE, "append_only", ("UPDATE", "DELETE"), None,
                            APPEND_ONLY)
    if dialect != "postgresql":
        return
    op.execute(f"CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON {TABLE} FOR EACH "
               f"STATEMENT EXECUTE FUNCTION paigow_ledger_refuse('{NO_DELETE}')")
    for sql in _migration("0011_table_logins").policies(TABLE, OWN_ROUND, False):
        op.execute(sql)
    op.execute(STATION_LOGINS)


def downgrade() -> None:
    # An older station would read a kept slip without its bonus: the lines are in the rows.
    found = None if context.is_offline_mode() else op.get_bind().scalar(
        sa.text(f"SELECT 1 FROM {TABLE} LIMIT 1"))
    if found:
        raise RuntimeError("the ledger keeps the bonus and envy lines in rows of their own "
                           "(bonus_settlements): a station older than migration 0014 would "
                           "read those rounds' slips without them, so the ledger is not taken "
                           "back past it")
    op.drop_table(TABLE)  # its triggers and policies go with it
