"""Where the ledger is and how to reach it: the default SQLite file in the user's data
directory, a PostgreSQL URL for a casino, the engine, and the migrations run on start."""

from __future__ import annotations

import sqlite3
import time
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import StaticPool

from drivers.private import private_file

from .errors import LedgerError
from .paths import LEDGER_FILE

if TYPE_CHECKING:
    from alembic.config import Config

VERSION_TABLE = "paigow_ledger_version"
HEAD = "0017_meter_notify"
"""The newest migration: a ledger at it is read without importing alembic (0.1-0.15 s of a
station's or a command's start), which only a migration needs. A new migration names itself
here; tests/ledger/test_migrations.py holds this to alembic's own head."""
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
PG_LOCK = 0x5A160D6E  # the advisory lock that lets one station at a time migrate
CONNECT_TIMEOUT_S = 5
SQLITE_BUSY_S = 30


def parse_url(url: str) -> URL:
    """A database URL; `postgresql://` and `postgres://` use psycopg 3."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise LedgerError(f"{mask_text(url)!r} is not a database URL: write "
                          f"postgresql://user@host/dbname, sqlite:///path/ledger.sqlite, or "
                          f"leave database_url empty for the station's own file") from None
    if u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+psycopg")
    if u.get_backend_name() not in ("sqlite", "postgresql"):
        raise LedgerError(f"the ledger runs on SQLite or PostgreSQL, not {u.get_backend_name()}"
                          f" ({mask(u)})")
    return u


def mask(url: URL | str) -> str:
    """The URL with any password hidden, for messages and the status line."""
    u = url if isinstance(url, URL) else make_url(url)
    return u.render_as_string(hide_password=True)


def mask_text(url: str) -> str:
    try:
        return mask(url)
    except ArgumentError:
        return url.split("@")[-1]


WRITE = {"ledger_write": True}  # execution option: a transaction that will write


def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy says BEGIN, not the driver
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    _switch_to_wal(cursor)
    cursor.execute("PRAGMA synchronous = FULL")
    cursor.close()


def _switch_to_wal(cursor: sqlite3.Cursor) -> None:
    """SQLite answers "database is locked" at once, without its busy timeout, when another
    connection holds the file while this one switches it to WAL (stations opening a new
    ledger together): wait for it as a busy timeout would."""
    deadline = time.monotonic() + SQLITE_BUSY_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _sqlite_begin(conn: Connection) -> None:
    """Transactions that write take the file's write lock at once (BEGIN IMMEDIATE), so
    stations sharing a file wait their turn instead of failing on a lock upgrade; DDL is
    transactional, so a migration is all or nothing."""
    write = conn.get_execution_options().get("ledger_write")
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def make_engine(url: str | URL) -> Engine:
    """An engine for the ledger: SQLite (WAL, synchronous, foreign keys, a patient busy
    timeout so stations sharing one file wait their turn) or PostgreSQL (psycopg 3, a
    connect timeout, connections checked before use so a restarted server is found)."""
    u = parse_url(url) if isinstance(url, str) else url
    if u.get_backend_name() == "sqlite":
        memory = u.database in (None, "", ":memory:")
        if not memory and u.database is not None:
            check_sqlite_file(Path(u.database).expanduser())
            # Made empty and 0600 (its folders 0700) before SQLite opens it: SQLite would
            # make it, and its -wal and -shm after it, with the umask's 0644.
            private_file(Path(u.database).expanduser())
        if memory:
            engine = create_engine(u, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
        else:
            engine = create_engine(u, connect_args={"timeout": SQLITE_BUSY_S})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(u, pool_pre_ping=True, pool_size=2, max_overflow=4,
                         connect_args={"connect_timeout": CONNECT_TIMEOUT_S,
                                       "application_name": "paigow-station"})


SQLITE_HEADER = b"SQLite format 3\x00"


def check_sqlite_file(path: Path) -> None:
    """A ledger file that is there must be a SQLite database (an empty file becomes one):
    a wrong file given as the ledger is refused before SQLite says "file is not a database"
    from deep inside."""
    if path.is_dir():
        raise LedgerError(f"{path} is a folder, not a ledger file: give the ledger's file "
                          f"(e.g. {path / LEDGER_FILE})")
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as e:
        raise LedgerError(f"the ledger file {path} cannot be read ({e.strerror or e}): check "
                          f"its permissions") from None
    if head and head != SQLITE_HEADER:
        raise LedgerError(f"{path} is not a ledger (not a SQLite database file): check the "
                          f"path; the station's ledger is {LEDGER_FILE} in its data folder")


# --- migrations ----------------------------------------------------------------------------

# Alembic (and the Mako and Pygments it brings, half a second) loads on the first migration
# check, not with the ledger.

def alembic_config(url: str | URL | None = None, output: TextIO | None = None) -> Config:
    from alembic.config import Config

    cfg = Config(output_buffer=output)
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("version_table", VERSION_TABLE)
    if url is not None:
        u = parse_url(url) if isinstance(url, str) else url
        cfg.set_main_option("sqlalchemy.url",
                            u.render_as_string(hide_password=False).replace("%", "%%"))
    return cfg


def known_revision(revision: str) -> bool:
    """Whether this program's migrations know the revision (a newer station's do not)."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at, as alembic keeps it (None: not a ledger yet)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(VERSION_TABLE):
            return None
        found = conn.scalar(text(f"SELECT version_num FROM {VERSION_TABLE}"))
        return None if found is None else str(found)


def migrate(engine: Engine, revision: str = "head") -> str:
    """Create the ledger's tables or bring them to `revision` (head: the newest). Stations
    starting at once take turns: an advisory lock on PostgreSQL, the file lock on SQLite.
    Returns the revision the database is at."""
    target = HEAD if revision == "head" else revision
    now = current_revision(engine)
    if now == target:
        return target
    from alembic import command  # a migration to run: only now (0.1 s of a start)

    if now is not None and not known_revision(now):
        raise LedgerError(f"the ledger's schema is at {now}, which a newer version of the "
                          f"station made (this one knows up to {HEAD}): update "
                          f"this program before it opens this ledger")
    cfg = alembic_config()
    try:
        with engine.execution_options(**WRITE).begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, target)
    except Exception as e:
        now_at = current_revision(engine)
        if now_at == target:  # another station's migration did it
            return target
        orig = getattr(e, "orig", None)
        if getattr(orig, "sqlstate", None) == "42501":  # a station's login: no DDL
            raise LedgerError(f"the ledger's schema is at {now_at or 'nothing'}, this station "
                              f"needs {target}, and its login may not change the schema: "
                              f"the owner runs `paigow ledger migrate --database-url "
                              f"postgresql://OWNER@...`") from None
        raise
    return target


def migration_sql(url: str, revision: str = "head") -> str:
    """The SQL that brings an empty database of that kind to `revision`, for a DBA."""
    from alembic import command

    out = StringIO()
    command.upgrade(alembic_config(url, out), revision, sql=True)
    return out.getvalue()

