"""Fixtures for every directory: one PostgreSQL server per test process, and the long tests
first.

Under pytest-xdist (`make test`: `-n auto --dist loadfile`) each worker is a test process of
its own: its own server in its own /tmp folder on its own unix socket, started on first use.
A worker is given whole files, so a module's fixtures are made once. The House Way tables
are kept in the user's cache (or $PAIGOW_CACHE_DIR) for the whole run, as the programs keep
them: a table is built once, not once a test process.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from app.cache import use_cache

from .cli import paigow  # noqa: F401 - the `paigow` command in this process, for every test

if TYPE_CHECKING:  # the server's module imports psycopg: only the tests that use it
    from .ledger.pg import PgServer

use_cache()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the collection made (the program's modules, Qt's and SQLAlchemy's, the 3,000
    tests) lives until the end: moved out of the collector's sight, and its youngest
    generation collected every 20,000 new objects, not 700. Measured on three files of the
    ledger, the window and the floor (110 tests): the collector's time 4.6 s -> 1.7 s of
    54 s. Cycles are still collected; the tests that count objects collect first."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `slow` first (in their order): xdist starts them at once, and the
    short ones fill the workers around them instead of a long one coming last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _light_argon2(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """People's secrets hashed with argon2 at light settings (one pass over 1 MiB, not the
    library's three over 64 MiB: 186 ms of CPU a hash, the most of many ledger tests): the
    tests check what is asked and refused, not the cost. A hash carries its own settings,
    so either kind verifies. The tests of the cost itself are marked `real_argon2`; the
    programs the tests start as processes hash as shipped. Only where the ledger is loaded
    already (the test's module imported it): a test of what a process imports is left so."""
    people = sys.modules.get("app.ledger.people")
    if people is None or request.node.get_closest_marker("real_argon2"):
        return
    light = people._Hasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(people, "_hasher", light)
    monkeypatch.setattr(people, "_dummy", None)  # made again, by the light hasher


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    """A real PostgreSQL server for the test process (never skipped: without the server
    binaries the tests fail saying which package to install)."""
    from .ledger.pg import running_server

    with running_server() as server:
        yield server


@pytest.fixture()
def pg_up(pg: PgServer) -> PgServer:
    """The server, running (a test that stops it has it started again)."""
    if not pg.running:
        pg.start()
    return pg


@pytest.fixture(scope="session")
def pg_template(pg: PgServer) -> str:
    """A database migrated to head, copied for each test that needs one."""
    from app.ledger.database import make_engine, migrate

    if not pg.running:
        pg.start()
    name = pg.create_database()
    engine = make_engine(pg.url(name))
    migrate(engine)
    engine.dispose()
    return name
