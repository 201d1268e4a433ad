"""Fixtures: a SQLite ledger with headless stations playing into it, the floor app over it
(Starlette's test client), users of each role."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from app.floor import auth
from app.floor.app import FloorSettings, create_app
from app.floor.auth import add_user
from app.floor.stations import HeadlessStation
from app.ledger import Store, chain, people
from app.ledger.database import make_engine, migrate
from app.ledger.keys import KEY_FILE

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


@pytest.fixture(autouse=True)
def _quick_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 at its light settings: the tests check the logic, not the cost (the server
    keeps argon2-cffi's defaults; a hash carries its own settings)."""
    light = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(auth, "_hasher", light)
    # its dummy hash, for a name nobody has; hashed by the salt on PostgreSQL
    monkeypatch.setattr(people, "_hasher", people._Hasher(time_cost=1, memory_cost=1024,
                                                          parallelism=1))
    monkeypatch.setattr(people, "_dummy", None)


@pytest.fixture(scope="session")
def template_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite ledger with a user of each role, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "ledger.sqlite"
    floor = Store(f"sqlite:///{path}", table="floor", station="floor",
                  data_dir=path.parent / "floor")
    engine = chain.signing(make_engine(f"sqlite:///{path}"), floor.signer)
    migrate(engine)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(auth, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024,
                                                   parallelism=1))
        for name, role in (("Pat", "pit-supervisor"), ("Max", "shift-manager"),
                           ("Aud", "auditor")):
            add_user(engine, name, role, PASSWORD)
        floor.enroll(floor.authorise("Max", PASSWORD, "enroll"), floor=True)
    floor.close()
    engine.dispose()
    return path


@pytest.fixture()
def url(tmp_path: Path, template_ledger: Path) -> str:
    path = tmp_path / "ledger.sqlite"
    shutil.copy(template_ledger, path)
    # the floor's key, which the template's shift manager enrolled
    (tmp_path / "floor").mkdir(mode=0o700)
    shutil.copy(template_ledger.parent / "floor" / KEY_FILE, tmp_path / "floor" / KEY_FILE)
    return f"sqlite:///{path}"


@pytest.fixture()
def station(url: str, tmp_path: Path) -> Iterator[HeadlessStation]:
    st = HeadlessStation(url, "PG-1", tmp_path / "st1", seed=7, void_chance=0.0,
                         supervisor=("Pat", PASSWORD),
                         foul_chance=0.0)
    yield st
    st.close()


def settings(url: str, tmp_path: Path, **kw: object) -> FloorSettings:
    return FloorSettings(database_url=url, secret_key="test-secret", poll_s=0.05,
                         data_dir=str(tmp_path / "floor"), **kw)  # type: ignore[arg-type]


@pytest.fixture()
def client(url: str, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(url, tmp_path)), follow_redirects=False) as c:
        yield c


def csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has a form with its CSRF token"
    return found.group(1)


def log_in(c: TestClient, name: str = "Pat", password: str = PASSWORD) -> object:
    token = csrf(c.get("/login").text)
    return c.post("/login", data={"csrf": token, "name": name, "password": password,
                                  "next": "/"})
