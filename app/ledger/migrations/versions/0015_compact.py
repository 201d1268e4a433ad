"""The ledger keeps ids and hashes as bytes (issue 24: at most 15 KB of ledger a round;
app/ledger/columns.py):

- SQLite: every UUID (SQLAlchemy's `Uuid`, 32 hex digits of text, declared CHAR(32))
  becomes its 16 bytes, and a chain link's row id (36 characters) too;
- both: a link's `row_hash`, `prev_hash`, `entry_hash` and `signature` become their bytes
  (a hash 32 bytes where its hex took 64, a signature 64 where it took 128). PostgreSQL
  already kept a UUID as 16 bytes.

What a row or a link means does not change: a row's hash is taken of its canonical text
(UUIDs as 36 characters) and a link's of the hex of the hashes, which is what the ledger
reads back (columns.py). So a ledger verified before verifies after, link for link,
signature for signature, and nothing is re-linked.

SQLite converts by rebuilding each table (its CREATE statement with the new types, the
rows copied, its indexes made again); the append-only triggers are lifted for it and put
back exactly as they were, in the migration's one transaction, so no other connection sees
the ledger without them. A value that is not what the ledger writes (not a UUID, not
lower-case hex: typed in by hand) is left as it was, and reads back as before: verify
names it as it did. PostgreSQL changes the columns' types in place (ALTER TABLE ... TYPE
fires no row trigger).

`migrate --sql` for SQLite leaves the types as they are (it has no rows to read to rebuild
a table): the station then keeps the bytes in the text columns, which SQLite allows; run
`paigow ledger migrate` on a ledger file instead.

Revision ID: 0015_compact
Revises: 0013_slip_once
Create Date: 2026-11-29
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0015_compact"
down_revision: str | None = "0013_slip_once"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HASHES = ("row_hash", "prev_hash", "entry_hash", "signature")
TEXT_WIDTH = {"row_hash": 64, "prev_hash": 64, "entry_hash": 64, "signature": 128}
OLD_UUID = "CHAR(32)"  # what SQLAlchemy's Uuid declares on SQLite
OLD = "_paigow_before_0015_"  # a table being converted, renamed aside


# --- the values, as SQL functions on SQLite (3.40 has no unhex) -------------------------------

def _uuid_bytes(value: object) -> object:
    """32 hex digits, as Uuid wrote them, to 16 bytes; anything else as it was."""
    if isinstance(value, str):
        try:
            parsed = uuid.UUID(value)
        except ValueError:
            return value
        if parsed.hex == value:
            return parsed.bytes
    return value


def _dashed_bytes(value: object) -> object:
    """A link's row id (36 characters) to 16 bytes; anything else as it was."""
    if isinstance(value, str):
        try:
            parsed = uuid.UUID(value)
        except ValueError:
            return value
        if str(parsed) == value:
            return parsed.bytes
    return value


def _hex_bytes(value: object) -> object:
    """Lower-case hex to its bytes; anything else as it was."""
    if isinstance(value, str):
        try:
            raw = bytes.fromhex(value)
        except ValueError:
            return value
        if raw.hex() == value:
            return raw
    return value


def _uuid_text(value: object) -> object:
    if isinstance(value, bytes) and len(value) == 16:
        return uuid.UUID(bytes=value).hex
    return value


def _dashed_text(value: object) -> object:
    if isinstance(value, bytes) and len(value) == 16:
        return str(uuid.UUID(bytes=value))
    return value


def _hex_text(value: object) -> object:
    return value.hex() if isinstance(value, bytes) else value


FUNCTIONS: dict[str, Callable[[object], object]] = {
    "paigow_uuid_bytes": _uuid_bytes, "paigow_dashed_bytes": _dashed_bytes,
    "paigow_hex_bytes": _hex_bytes, "paigow_uuid_text": _uuid_text,
    "paigow_dashed_text": _dashed_text, "paigow_hex_text": _hex_text}


# --- SQLite: the tables rebuilt with new column types ----------------------------------------

def _declared(conn: sa.Connection, table: str) -> list[tuple[str, str]]:
    return [(str(r[1]), str(r[2]).upper())
            for r in conn.exec_driver_sql(f'PRAGMA table_info("{table}")')]


def _retyped(create: str, table: str, changes: dict[str, tuple[str, str]]) -> str:
    """The table's CREATE statement with each changed column declared with its new type
    (everything else exactly as it was)."""
    out = create
    for column, (old, new) in changes.items():
        pattern = re.compile(rf'(^|[\s,(])("?){re.escape(column)}\2\s+{re.escape(old)}'
                             rf'(?=[\s,)])', re.IGNORECASE | re.MULTILINE)
        quoted = rf"\g<1>\g<2>{column}\g<2> {new}"
        out, found = pattern.subn(quoted, out)
        if found != 1:
            raise RuntimeError(f"0015: the column {table}.{column} is not declared "
                               f"{old}; the ledger was not converted")
    return out


def _changes(conn: sa.Connection, table: str, upgrade: bool
             ) -> dict[str, tuple[str, str, str]]:
    """Each column of `table` to convert: its (old type, new type, the SQL function that
    converts a value)."""
    declared = dict(_declared(conn, table))
    if table == "chain":
        if upgrade:
            return {"row_id": ("VARCHAR(36)", "BLOB", "paigow_dashed_bytes"),
                    **{c: (f"VARCHAR({TEXT_WIDTH[c]})", "BLOB", "paigow_hex_bytes")
                       for c in HASHES}}
        return {"row_id": ("BLOB", "VARCHAR(36)", "paigow_dashed_text"),
                **{c: ("BLOB", f"VARCHAR({TEXT_WIDTH[c]})", "paigow_hex_text")
                   for c in HASHES}}
    if upgrade:
        return {c: (OLD_UUID, "BLOB", "paigow_uuid_bytes")
                for c, kind in declared.items() if kind == OLD_UUID}
    return {c: ("BLOB", OLD_UUID, "paigow_uuid_text") for c, kind in declared.items()
            if kind == "BLOB" and (c in ("id", "sign_in") or c.endswith("_id"))}


def _parents_first(conn: sa.Connection, tables: list[str]) -> list[str]:
    refers = {t: {str(r[2]) for r in conn.exec_driver_sql(f'PRAGMA foreign_key_list("{t}")')}
              - {t} for t in tables}
    ordered: list[str] = []
    while len(ordered) < len(tables):
        ordered += [t for t in tables if t not in ordered
                    and refers[t] <= {*ordered, *(set(refers[t]) - set(tables))}]
    return ordered


def _sqlite(conn: sa.Connection, upgrade: bool) -> None:
    """Every table with a column to convert is renamed aside, made again under its name
    with the new types, filled from the old one (parents before the rows that name them,
    so no row ever names one that is not there), and the old one dropped (the rows that
    name others before what they name); then the indexes and the triggers as they were."""
    raw = conn.connection.dbapi_connection
    assert raw is not None
    for name, fn in FUNCTIONS.items():
        raw.create_function(name, 1, fn, deterministic=True)
    master = list(conn.exec_driver_sql(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND "
        "name NOT LIKE 'sqlite_%' ORDER BY rowid"))
    for kind, name, _, _ in master:
        if kind == "trigger":
            conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
    changes = {str(name): found for kind, name, _, _ in master if kind == "table"
               if (found := _changes(conn, str(name), upgrade))}
    create = {str(name): str(sql) for kind, name, _, sql in master if kind == "table"}
    order = _parents_first(conn, list(changes))
    for table in order:
        conn.exec_driver_sql(f'ALTER TABLE "{table}" RENAME TO "{OLD}{table}"')
    for table in order:
        columns = changes[table]
        conn.exec_driver_sql(_retyped(create[table], table,
                                      {c: (old, new) for c, (old, new, _) in columns.items()}))
        names = [name for name, _ in _declared(conn, table)]
        values = [f'{columns[n][2]}("{n}")' if n in columns else f'"{n}"' for n in names]
        listed = ", ".join(f'"{n}"' for n in names)
        conn.exec_driver_sql(f'INSERT INTO "{table}" ({listed}) SELECT {", ".join(values)} '
                             f'FROM "{OLD}{table}" ORDER BY rowid')
    for table in reversed(order):
        conn.exec_driver_sql(f'DROP TABLE "{OLD}{table}"')
    for kind, _, table, sql in master:
        if kind == "index" and table in changes or kind == "trigger":
            conn.exec_driver_sql(str(sql))
    left = conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE sql LIKE ?",
                                (f"%{OLD}%",)).first()
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
    if left is not None or broken is not None:
        raise RuntimeError("0015: the converted tables do not name each other as the old "
                           "ones did; the ledger was not converted")


# --- PostgreSQL: the chain's hashes -----------------------------------------------------------

def _postgresql(upgrade: bool) -> None:
    for column in HASHES:
        if upgrade:
            # What the ledger writes (lower-case hex) becomes its bytes; anything typed in
            # by hand keeps its characters, as bytes.
            op.execute(f"ALTER TABLE chain ALTER COLUMN {column} TYPE bytea USING CASE WHEN "
                       f"{column} ~ '^([0-9a-f]{{2}})*$' THEN decode({column}, 'hex') "
                       f"ELSE convert_to({column}, 'UTF8') END")
        else:
            op.execute(f"ALTER TABLE chain ALTER COLUMN {column} TYPE "
                       f"varchar({TEXT_WIDTH[column]}) USING encode({column}, 'hex')")


def upgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        _postgresql(upgrade=True)
    elif not context.is_offline_mode():
        _sqlite(op.get_bind(), upgrade=True)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        _postgresql(upgrade=False)
    elif not context.is_offline_mode():
        _sqlite(op.get_bind(), upgrade=False)
