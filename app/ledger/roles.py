"""PostgreSQL roles: the schema and its migrations belong to an owner role; the stations
connect as a role that may read, add rows, and fill in the round in play - nothing else.

What the station role may do, table by table (`grants`):

- SELECT on every table of the ledger (and on the tables later migrations add: default
  privileges of the owner);
- INSERT on the tables a station writes: stations, shifts, rounds, hands, wagers,
  settlements, bonus_settlements, bank_decisions, events, chain, sign_ins,
  progressive_moves;
- INSERT and UPDATE of `progressive_meters` (migration 0016: a linked progressive's meter,
  the one row every table writes; never deleted);
- UPDATE only of the columns a round is filled in with as it goes (never its id, station,
  shift, table, number, start, rules or rotation) and of a shift's `closed_at`; the
  triggers still refuse any change of a settled or void round and of a closed shift;
- nothing on `users` but SELECT of its columns other than `secret_hash`: people are added,
  disabled and reset with the owner's login (`paigow users ... --database-url
  postgresql://OWNER@...`), so a station's login cannot make anyone a supervisor, and it
  cannot read a hash to guess a secret offline;
- EXECUTE of `paigow_secret_salt` and `paigow_secret_matches` (migration 0010_secrets),
  which run as the owner: how a station checks a secret without reading its hash;
- all of it for its own table's rows only (`tables`): row-level security (migration
  0011_table_logins) refuses a row of another table, so one table's login can neither
  close another's round in play nor fake its tile on the floor. One login per table.

No DELETE, TRUNCATE, DROP or ALTER (so it cannot switch the triggers off): those belong to
the owner of the tables alone.
"""

from __future__ import annotations

import re

from sqlalchemy import Connection, select, text
from sqlalchemy.orm import Session

from app.core.table import TABLE_NAME_MAX

from .errors import LedgerError
from .models import RoundRow, StationLogin, User

STATION_INSERTS = ("stations", "shifts", "rounds", "hands", "wagers", "settlements",
                   "bonus_settlements", "bank_decisions", "events", "chain", "sign_ins",
                   "progressive_moves")
FIXED_ROUND_COLUMNS = frozenset({"id", "station_id", "shift_id", "table_name", "round_no",
                                 "started_at", "config", "house_way", "rotation"})
ROUND_FILLED_IN = tuple(c.name for c in RoundRow.__table__.columns
                        if c.name not in FIXED_ROUND_COLUMNS)
USERS_READABLE = tuple(c.name for c in User.__table__.columns if c.name != "secret_hash")
SECRET_CHECKS = ("paigow_secret_salt(text)", "paigow_secret_matches(text, text)")
ANY_TABLE = "*"  # what an upgraded ledger's logins keep (migration 0011_table_logins)
_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def role_name(name: str) -> str:
    """A role's name as SQL writes it; plain lower-case names only (no quoting games)."""
    if not _NAME.match(name):
        raise LedgerError(f"{name!r} is not a role name this command takes: lower-case "
                          f"letters, digits and _ (e.g. paigow_station)")
    return name


def table_names(tables: list[str]) -> list[str]:
    """The tables a login is given, checked: the names a station's config gives."""
    if not tables:
        raise LedgerError("give the table this login writes: --table PG-1 (one login per "
                          "table, so one table's login cannot write another's rows)")
    for name in tables:
        if not 1 <= len(name) <= TABLE_NAME_MAX or name == "*" or not name.isprintable():
            raise LedgerError(f"{name!r} is not a table's name: 1 to {TABLE_NAME_MAX} "
                              f"printable characters, as the station's [table] name")
    return sorted(set(tables))


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def grants(station: str, database: str, tables: list[str]) -> list[str]:
    """The statements, run by the owner of the ledger's tables, that give `station` its
    rights and nothing more: rows of `tables` only."""
    station = role_name(station)
    tables = table_names(tables)
    db = '"' + database.replace('"', '""') + '"'
    login = StationLogin.__tablename__
    listed = ", ".join(f"('{station}', {_literal(t)}, now())" for t in tables)
    return [
        f"GRANT CONNECT ON DATABASE {db} TO {station}",
        f"GRANT USAGE ON SCHEMA public TO {station}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {station}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {station}",
        # a secret's hash is never the station's to read (an offline guess of a PIN takes
        # hours); it checks a secret through the owner's functions instead
        f"REVOKE SELECT ON users FROM {station}",
        f"GRANT SELECT ({', '.join(USERS_READABLE)}) ON users TO {station}",
        f"GRANT EXECUTE ON FUNCTION {', '.join(SECRET_CHECKS)} TO {station}",
        f"GRANT INSERT ON {', '.join(STATION_INSERTS)} TO {station}",
        f"GRANT UPDATE ({', '.join(ROUND_FILLED_IN)}) ON rounds TO {station}",
        f"GRANT UPDATE (closed_at) ON shifts TO {station}",
        # The floor's live view: a station's heartbeat is written in place (not a record),
        # and it answers the floor's requests for its round in play (floor_status.py).
        f"GRANT INSERT, UPDATE ON station_status TO {station}",
        f"GRANT UPDATE (done_at, outcome) ON floor_requests TO {station}",
        # Who runs as each station now (its identity's live claim, written in place).
        f"GRANT INSERT, UPDATE ON station_claims TO {station}",
        # A linked progressive's meter: the one row every table writes, in place, under
        # its lock; the database takes only what its newest move left (migration 0016).
        f"GRANT INSERT, UPDATE ON progressive_meters TO {station}",
        "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO {station}",
        # the table(s) its rows may be of (the row-level security's policies ask this)
        f"DELETE FROM {login} WHERE role = '{station}'",
        f"INSERT INTO {login} (role, table_name, granted_at) VALUES {listed}",
    ]


def setup(conn: Connection, station: str, tables: list[str]) -> list[str]:
    """Give `station` its rights, connected as the owner of the ledger's tables (after the
    migrations); returns the statements run."""
    if conn.dialect.name != "postgresql":
        raise LedgerError("roles are PostgreSQL's: a SQLite ledger is a file, guarded by the "
                          "station user's own permissions (docs/install.md)")
    station = role_name(station)
    me = conn.scalar(text("SELECT current_user"))
    if me == station:
        raise LedgerError(f"connected as {station}: give the owner's login (--database-url "
                          f"postgresql://OWNER@...), not the station's")
    owner = conn.scalar(text("SELECT tableowner FROM pg_tables WHERE tablename = 'rounds' "
                             "AND schemaname = 'public'"))
    if owner != me:
        raise LedgerError(f"the ledger's tables belong to {owner}, not {me}: connect as "
                          f"{owner} (the owner runs the migrations and the grants)")
    if conn.scalar(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": station}) is None:
        raise LedgerError(f"there is no role {station}: a DBA makes it first: CREATE ROLE "
                          f"{station} LOGIN PASSWORD '...';")
    statements = grants(station, str(conn.scalar(text("SELECT current_database()"))), tables)
    for sql in statements:
        conn.execute(text(sql))
    return statements


def refusal(conn: Session, table: str) -> str | None:
    """Why this login may not write `table`'s rows, in words (None: it may): a station
    started with another table's login would keep every round in its journal, refused."""
    if conn.get_bind().dialect.name != "postgresql":
        return None
    me = conn.scalar(text("SELECT current_user"))
    owner = conn.scalar(text("SELECT tableowner FROM pg_tables WHERE tablename = 'rounds' "
                             "AND schemaname = 'public'"))
    if me == owner:
        return None  # the policies do not bind the tables' owner
    login = StationLogin.__table__
    mine = list(conn.scalars(select(login.c.table_name).where(login.c.role == me)))
    if table in mine or ANY_TABLE in mine:
        return None
    writes = f"writes table {', '.join(sorted(mine))} only" if mine else "writes no table"
    return (f"this station's database login ({me}) {writes}, and this station is table "
            f"{table}: its rounds would all be refused. Start it with table {table}'s "
            f"login, or have the ledger's owner run paigow ledger setup-roles "
            f"--station-role {me} --table {table}")
