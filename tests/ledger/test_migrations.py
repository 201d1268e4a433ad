"""The migrations: from an empty database to head on SQLite and on PostgreSQL, exactly the
model, down and up again, taking turns when stations start at once."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from app.ledger import Store
from app.ledger.database import (
    HEAD,
    VERSION_TABLE,
    alembic_config,
    current_revision,
    make_engine,
    migrate,
    migration_sql,
)
from app.ledger.models import TABLES, Base

from . import pg as pg_module


def _differences(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                         "version_table": VERSION_TABLE})
            return [d for d in compare_metadata(ctx, Base.metadata)
                    if not (d[0] == "remove_table" and d[1].name == VERSION_TABLE)]
    finally:
        engine.dispose()


def test_head_names_the_newest_migration_as_alembic_reads_the_scripts() -> None:
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [HEAD]


def test_migrations_take_an_empty_database_to_head(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    assert current_revision(engine) is None
    assert migrate(engine) == HEAD
    assert current_revision(engine) == HEAD
    assert set(TABLES) <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_migrations_build_exactly_the_model(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    migrate(engine)
    engine.dispose()
    assert _differences(empty_database_url) == []


def test_migrations_go_down_to_empty_and_up_again(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    migrate(engine)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
    assert not set(TABLES) & set(inspect(engine).get_table_names())
    assert migrate(engine) == HEAD
    engine.dispose()


def test_the_store_creates_and_migrates_its_database_on_first_start(
        empty_database_url: str, tmp_path: Path) -> None:
    with Store(empty_database_url, data_dir=tmp_path) as store:
        assert store.revision() == HEAD
        assert store.history() == []


def test_a_database_at_head_is_left_as_it_is(database_url: str) -> None:
    engine = make_engine(database_url)
    assert migrate(engine) == HEAD == current_revision(engine)
    engine.dispose()


def test_stations_starting_at_once_on_an_empty_database_take_turns(
        empty_database_url: str) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        engine = make_engine(empty_database_url)
        try:
            migrate(engine)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert _differences(empty_database_url) == []


def test_the_sql_for_a_dba_creates_every_table_and_the_append_only_triggers() -> None:
    sql = migration_sql("postgresql://paigow@db/paigow")
    for table in TABLES:
        assert f"CREATE TABLE {table} " in sql
    assert "paigow_ledger_refuse" in sql and "BEFORE TRUNCATE" in sql
    sqlite = migration_sql("sqlite:///ledger.sqlite")
    assert "RAISE(ABORT" in sqlite


def test_without_the_postgresql_server_the_tests_fail_naming_the_package(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_module.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(pg_module.shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match="install the 'postgresql' package"):
        pg_module.find_bin()


def test_a_floor_logout_is_never_changed_or_deleted(database_url: str) -> None:
    """A logout deleted would bring back every session it ended (a copied cookie's too)."""
    import uuid
    from datetime import UTC, datetime

    from sqlalchemy import delete, insert, update

    from app.ledger.models import FloorLogout

    engine = make_engine(database_url)
    migrate(engine)
    with engine.begin() as conn:
        conn.execute(insert(FloorLogout).values(id=uuid.uuid4(), name="Pat",
                                                at=datetime.now(UTC)))
    for statement in (delete(FloorLogout), update(FloorLogout).values(name="Max")):
        with pytest.raises(Exception, match="floor_logouts rows are never changed or deleted"):
            with engine.begin() as conn:
                conn.execute(statement)
    engine.dispose()


def test_a_ledger_a_newer_station_migrated_is_refused_in_a_sentence(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from sqlalchemy import text

    from app.cli import main
    from app.ledger.errors import LedgerError

    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = make_engine(url)
    migrate(engine)
    with engine.begin() as conn:  # as a later version's migration would leave it
        conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = 'f00dfeed0099'"))

    with pytest.raises(LedgerError, match="newer version of the station.*update this program"):
        migrate(engine)
    engine.dispose()
    assert main(["ledger", "verify", "--database-url", url]) == 2
    err = capfd.readouterr().err
    assert "newer version of the station" in err and "Traceback" not in err
