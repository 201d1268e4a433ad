"""A station's login writes only its own table (issue 23, item 8): on PostgreSQL, row-level
security on every table a station writes. The attack it closes: with one table's login, an
UPDATE closed another table's round in play, and an INSERT or UPDATE of `station_status`
faked another table's tile on the floor.

`station_logins` names the table (or tables) each station login may write; the owner's
`paigow ledger setup-roles --station-role ROLE --table NAME` fills it in. The policies ask
it as the login they check (`current_user`):

- `stations`, `rounds`, `station_status`: the row's own `table_name`;
- `shifts`, `bank_decisions`, `events`, `floor_requests`: the station the row names (and
  the round, when it names one) is of that table;
- `hands`, `wagers`, `settlements`: the round they belong to is;
- `chain`: a link of that table's chain, or of the people's (sign-ins are the people's);
- `station_claims`: not another table's station (a station claims its identity at start,
  before its `stations` row may have left its journal).

Every row stays readable (a SELECT policy of `true`): the floor, recall and the export read
every table's. The owner of the tables is not bound by the policies (PostgreSQL's rule for
a table's owner), so the floor and `paigow users`, which run with the owner's login, are as
before. A refused INSERT is an error (42501, "row-level security"); an UPDATE of another
table's row matches no row.

On upgrade, every station login setup-roles made before (a role that may insert into
`sign_ins`) keeps writing any table ("*"), so no station stops mid-shift; setup-roles with
`--table` then narrows it (docs/ledger.md). SQLite: the table only (a file has no logins).

Revision ID: 0011_table_logins
Revises: 0010_secrets
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_table_logins"
down_revision: str | None = "0010_secrets"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ANY_TABLE = "*"

# Plain SQL functions, run as the caller (who may read these tables): the login checked is
# the one writing. Names are schema-qualified, so a caller's search_path changes nothing.
FUNCTIONS = f"""
CREATE FUNCTION paigow_writes_table(t text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM public.station_logins l
                   WHERE l.role = current_user AND l.table_name IN (t, '{ANY_TABLE}'))
$$;
CREATE FUNCTION paigow_writes_station(s uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM public.stations x
                   WHERE x.id = s AND public.paigow_writes_table(x.table_name))
$$;
CREATE FUNCTION paigow_writes_round(r uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM public.rounds x
                   WHERE x.id = r AND public.paigow_writes_table(x.table_name))
$$;
CREATE FUNCTION paigow_not_anothers_station(s uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (SELECT 1 FROM public.stations x
                       WHERE x.id = s AND NOT public.paigow_writes_table(x.table_name))
$$;
"""

BY_STATION_AND_ROUND = ("paigow_writes_station(station_id) AND (round_id IS NULL OR "
                        "paigow_writes_round(round_id))")
# table -> (the check of a row, whether the station also updates rows in place)
OWN_TABLE = {
    "stations": ("paigow_writes_table(table_name)", False),
    "shifts": ("paigow_writes_station(station_id)", True),
    "rounds": ("paigow_writes_table(table_name)", True),
    "hands": ("paigow_writes_round(round_id)", False),
    "wagers": ("paigow_writes_round(round_id)", False),
    "settlements": ("paigow_writes_round(round_id)", False),
    "bank_decisions": (BY_STATION_AND_ROUND, False),
    "events": (BY_STATION_AND_ROUND, False),
    "chain": ("chain = 'people' OR paigow_writes_table(chain)", False),
    "station_status": ("paigow_writes_table(table_name)", True),
    "floor_requests": ("paigow_writes_station(station_id)", True),
    "station_claims": ("paigow_not_anothers_station(station_id)", True),
}


def policies(table: str, check: str, updates: bool) -> list[str]:
    statements = [
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY paigow_reads ON {table} FOR SELECT USING (true)",
        f"CREATE POLICY paigow_own_table_adds ON {table} FOR INSERT WITH CHECK ({check})",
    ]
    if updates:
        statements.append(f"CREATE POLICY paigow_own_table_fills ON {table} FOR UPDATE "
                          f"USING ({check}) WITH CHECK ({check})")
    return statements


# every login setup-roles made before this (a role that may insert into sign_ins; the
# owner owns it) keeps what it had: any table
UPGRADED_LOGINS = f"""
INSERT INTO station_logins (role, table_name, granted_at)
SELECT DISTINCT pg_get_userbyid(a.grantee), '{ANY_TABLE}', now()
FROM pg_class c, aclexplode(c.relacl) a
WHERE c.oid = 'public.sign_ins'::regclass AND a.privilege_type = 'INSERT'
  AND a.grantee <> 0 AND a.grantee <> c.relowner
"""
GRANT_TO_UPGRADED = """
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT role FROM station_logins LOOP
        EXECUTE format('GRANT SELECT ON public.station_logins TO %I', r.role);
    END LOOP;
END $$"""


def upgrade() -> None:
    op.create_table(
        "station_logins",
        sa.Column("role", sa.String(63), nullable=False),
        sa.Column("table_name", sa.String(40), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("role", "table_name", name="pk_station_logins"),
    )
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(FUNCTIONS)
    for table, (check, updates) in OWN_TABLE.items():
        for sql in policies(table, check, updates):
            op.execute(sql)
    op.execute(UPGRADED_LOGINS)
    op.execute(GRANT_TO_UPGRADED)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        for table, (_check, updates) in OWN_TABLE.items():
            names = ["paigow_reads", "paigow_own_table_adds"]
            names += ["paigow_own_table_fills"] if updates else []
            for name in names:
                op.execute(f"DROP POLICY {name} ON {table}")
            op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
        op.execute("DROP FUNCTION paigow_not_anothers_station(uuid), "
                   "paigow_writes_round(uuid), paigow_writes_station(uuid), "
                   "paigow_writes_table(text)")
    op.drop_table("station_logins")
