"""Fixtures: a database per test on the test process's PostgreSQL server (tests/conftest.py),
copied from a migrated template, and the store over SQLite or PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.ledger import Store

from .enrolled import enrolled_key
from .migrated import migrated_sqlite
from .pg import PgServer

TABLE = "PG-1"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture()
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A fresh, migrated ledger database on the backend."""
    if backend == "sqlite":
        return migrated_sqlite(tmp_path / "ledger.sqlite")  # as `pg_template` is copied
    pg: PgServer = request.getfixturevalue("pg_up")
    template: str = request.getfixturevalue("pg_template")
    return pg.url(pg.create_database(template=template))


@pytest.fixture()
def empty_database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A database with nothing in it."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite'}"
    pg: PgServer = request.getfixturevalue("pg_up")
    return pg.url(pg.create_database())


@pytest.fixture()
def store(database_url: str, tmp_path: Path) -> Iterator[Store]:
    s = Store(database_url, table=TABLE, station="station-a", data_dir=tmp_path / "a")
    enrolled_key(s)
    s.open_shift("Kim")
    yield s
    s.close()


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """platformdirs reads XDG_DATA_HOME: the default ledger lands in the test's directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("PAIGOW_CONFIG", raising=False)
    for name in list(os.environ):
        if name.startswith("PAIGOW_LEDGER__"):
            monkeypatch.delenv(name)
