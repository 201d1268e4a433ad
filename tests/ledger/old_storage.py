"""A ledger as stations before migration 0015 stored it (UUIDs as 32 hex digits on SQLite,
a link's row id and hashes as text): for the tests of the migrations before 0015, which
write an old ledger with the code of today."""

from __future__ import annotations

from sqlalchemy import Table

from app.ledger.columns import stored_as_text
from app.ledger.database import make_engine
from app.ledger.models import Base

TABLES: dict[str, Table] = stored_as_text(Base.metadata.sorted_tables)
"""Every table as stored before 0015: rows inserted through these are as a station of
then wrote them."""


def ids_as_text(url: str) -> None:
    """The UUIDs the code of today wrote (16 bytes) into a SQLite ledger older than 0015,
    made 32 hex digits, as a station of then wrote them (PostgreSQL's uuid is as it was).
    Around the append-only triggers, put back as they were."""
    engine = make_engine(url)
    if engine.dialect.name != "sqlite":
        engine.dispose()
        return
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
            triggers = list(conn.exec_driver_sql(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
            for name, _ in triggers:
                conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
            tables = [str(t) for (t,) in conn.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                for column in [str(r[1]) for r in conn.exec_driver_sql(
                        f'PRAGMA table_info("{table}")') if str(r[2]).upper() == "CHAR(32)"]:
                    conn.exec_driver_sql(f'UPDATE "{table}" SET "{column}" = '
                                         f'lower(hex("{column}")) '
                                         f'WHERE typeof("{column}") = \'blob\'')
            for _, sql in triggers:
                conn.exec_driver_sql(str(sql))
    finally:
        engine.dispose()
