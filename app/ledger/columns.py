"""How the ledger stores a UUID and a hash (migration 0015_compact, issue 24: at most 15 KB
of ledger a round): as their bytes, not as text.

- A UUID is PostgreSQL's native `uuid` (16 bytes) there, and 16 bytes (a BLOB) on SQLite,
  where SQLAlchemy's `Uuid` writes 32 hex digits of text.
- A chain link's hashes and signature are their bytes (`bytea`, BLOB): 32 and 64 bytes
  where the hex took 64 and 128. Python still sees the lower-case hex: the hashes are
  taken of the hex text (chain.py, keys.py), so what a link means does not change.
- A link's `row_id` (the UUID of its row or round, as 36 characters of text) is 16 bytes
  on SQLite; PostgreSQL keeps its text.

A value migration 0015 found in another form (not a UUID, not lower-case hex: written by
hand, behind the ledger's back) was left as it was, and reads back as it did before.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Dialect, LargeBinary, MetaData, String, Table, Uuid
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.types import TypeDecorator, TypeEngine


def _as_uuid(value: object) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


class LedgerUuid(TypeDecorator[uuid.UUID]):
    """A UUID: native on PostgreSQL, 16 bytes on SQLite."""

    impl = Uuid
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(LargeBinary(16))
        return dialect.type_descriptor(Uuid())

    def process_bind_param(self, value: object, dialect: Dialect) -> object:
        if value is None or dialect.name != "sqlite":
            return value
        return _as_uuid(value).bytes

    def process_result_value(self, value: object, dialect: Dialect) -> uuid.UUID | None:
        if value is None:
            return None
        if isinstance(value, bytes | memoryview):
            return uuid.UUID(bytes=bytes(value))
        return _as_uuid(value)  # PostgreSQL's, or text 0015 left as it was


class UuidText(TypeDecorator[str]):
    """A UUID Python keeps as its 36 characters (a chain link's row_id): 16 bytes on
    SQLite, the text on PostgreSQL."""

    impl = String(36)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(LargeBinary(16))
        return dialect.type_descriptor(String(36))

    def process_bind_param(self, value: str | None, dialect: Dialect) -> object:
        if value is None or dialect.name != "sqlite":
            return value
        return uuid.UUID(value).bytes

    def process_result_value(self, value: object, dialect: Dialect) -> str | None:
        if isinstance(value, bytes | memoryview):
            return str(uuid.UUID(bytes=bytes(value)))
        return None if value is None else str(value)


class HexBytes(TypeDecorator[str]):
    """Bytes Python keeps as lower-case hex (a hash, a signature): stored as the bytes."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> bytes | None:
        return None if value is None else bytes.fromhex(value)

    def process_result_value(self, value: object, dialect: Dialect) -> str | None:
        if isinstance(value, bytes | memoryview):
            return bytes(value).hex()
        return None if value is None else str(value)


class uuid_hex(FunctionElement[str]):  # noqa: N801 - a SQL function, named as SQL names them
    """A UUID column as its 32 lower-case hex digits, in SQL (to find an id by its first
    digits)."""

    type = String()
    inherit_cache = True


@compiles(uuid_hex, "sqlite")
def _uuid_hex_sqlite(element: uuid_hex, compiler: object, **kw: object) -> str:
    (column,) = element.clauses
    return f"lower(hex({compiler.process(column, **kw)}))"  # type: ignore[attr-defined]


@compiles(uuid_hex)
def _uuid_hex(element: uuid_hex, compiler: object, **kw: object) -> str:
    (column,) = element.clauses
    inner = compiler.process(column, **kw)  # type: ignore[attr-defined]
    return f"replace(CAST({inner} AS VARCHAR), '-', '')"


def stored_as_text(tables: Iterable[Table]) -> dict[str, Table]:
    """These tables as a ledger stored them before migration 0015 (UUIDs as SQLAlchemy's
    `Uuid` writes them, a link's row id, hashes and signature as text): what migrations
    0004 and 0007 read and link rows by."""
    metadata = MetaData()
    copies: dict[str, Table] = {}
    for table in tables:
        copy = table.to_metadata(metadata)
        for column in copy.c:
            if isinstance(column.type, LedgerUuid):
                column.type = Uuid()
            elif isinstance(column.type, UuidText | HexBytes):
                column.type = String()
        copies[table.name] = copy
    return copies
