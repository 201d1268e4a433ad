"""Migration 0015 (issue 24: at most 15 KB of ledger a round): ids and the chain's hashes
are kept as bytes. A ledger a station of 0013 wrote (tests/ledger/data, made by that
station's code: old_ledger.py) is converted in place and then reads, recalls, replays
and verifies exactly as that station read it; new rounds go on its chain; a row forged
after the conversion is caught."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, inspect, select, text

from app.ledger import Store
from app.ledger.columns import stored_as_text
from app.ledger.database import current_revision, make_engine, migrate
from app.ledger.models import Base

from . import old_ledger
from .enrolled import enroll
from .pg import PgServer
from .play import record_rounds
from .tamper import forged_correction, tamper

DATA = Path(__file__).parent / "data"
BEFORE = "0013_slip_once"


def _old_sqlite(folder: Path) -> str:
    path = folder / "ledger.sqlite"
    with gzip.open(DATA / f"{old_ledger.FILE}.gz", "rb") as src, path.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    path.chmod(0o600)
    return f"sqlite:///{path}"


def _old_postgresql(pg: PgServer, folder: Path) -> str:
    """The same ledger on PostgreSQL: the schema made by the migrations up to 0013, the
    rows of the 0013 station copied in as they are (PostgreSQL kept UUIDs natively then,
    and the hashes as hex text)."""
    source = _old_sqlite(folder)
    url = pg.url(pg.create_database())
    target = make_engine(url)
    migrate(target, BEFORE)
    reader = make_engine(source)
    tables = stored_as_text(Base.metadata.sorted_tables)
    with reader.connect() as src, target.begin() as dst:
        present = set(inspect(src).get_table_names())
        for name, table in tables.items():
            if name not in present:
                continue
            columns = [c for c in table.c
                       if c.name in {col["name"] for col in inspect(src).get_columns(name)}]
            rows = [dict(r) for r in src.execute(select(*columns)).mappings()]
            if rows:
                dst.execute(insert(table), rows)
    reader.dispose()
    target.dispose()
    return url


@pytest.fixture()
def old_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return _old_sqlite(tmp_path)
    return _old_postgresql(request.getfixturevalue("pg_up"), tmp_path)


def _as_read_at_0013() -> dict[str, Any]:
    return dict(json.loads((DATA / old_ledger.READINGS).read_text()))


def _store(url: str, folder: Path) -> Store:
    return Store(url, table=old_ledger.TABLE, station="new-station", data_dir=folder)


def test_a_ledger_of_0013_is_converted_in_place_and_reads_the_same(
        old_url: str, tmp_path: Path) -> None:
    engine = make_engine(old_url)
    assert current_revision(engine) == BEFORE
    migrate(engine)
    engine.dispose()
    with _store(old_url, tmp_path / "s") as store:
        read = old_ledger.readings(store)
    expected = _as_read_at_0013()
    assert read["verify"] == expected["verify"]  # every link, signature and head as it was
    assert all(r["intact"] for r in read["verify"])
    for round_id, before in expected["rounds"].items():
        assert read["rounds"][round_id] == before, round_id  # slip, recall and replay
    assert read == expected  # history, totals, shifts and every export too


def test_a_converted_ledger_keeps_its_ids_and_hashes_as_bytes(old_url: str) -> None:
    engine = make_engine(old_url)
    migrate(engine)
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        link = conn.execute(text("SELECT row_id, prev_hash, entry_hash, signature FROM chain "
                                 "WHERE chain = 'PG-1' AND seq = 20")).one()
        round_id = conn.execute(text("SELECT id FROM rounds LIMIT 1")).scalar_one()
    engine.dispose()
    assert [len(bytes(v)) for v in link[1:]] == [32, 32, 64]
    if sqlite:
        assert len(bytes(link[0])) == 16 and len(bytes(round_id)) == 16


def test_new_rounds_go_on_the_converted_chain_and_a_forged_row_is_caught(
        old_url: str, tmp_path: Path) -> None:
    engine = make_engine(old_url)
    migrate(engine)
    engine.dispose()
    with _store(old_url, tmp_path / "s") as store:
        enroll(store)
        store.open_shift("Lee")
        record_rounds(store, 2, "after 0015")
        store.close_shift()
        reports = store.verify()
        assert all(r.intact for r in reports), [r.text() for r in reports]
        tamper(old_url, forged_correction(old_url))
        (report,) = store.verify(old_ledger.TABLE)
    assert not report.intact
    assert "correction entry 99" in report.text()
    assert "is not in the chain: it was written behind the ledger's back" in report.text()


def test_the_conversion_goes_back_to_text_and_forward_again_verifying_each_time(
        old_url: str, tmp_path: Path) -> None:
    from alembic import command

    from app.ledger.database import alembic_config

    engine = make_engine(old_url)
    migrate(engine)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, BEFORE)
    with engine.connect() as conn:
        assert len(str(conn.execute(text("SELECT entry_hash FROM chain LIMIT 1"))
                       .scalar_one())) == 64
    migrate(engine)
    engine.dispose()
    with _store(old_url, tmp_path / "s") as store:
        assert old_ledger.readings(store)["verify"] == _as_read_at_0013()["verify"]

