"""A station is its identity (a UUID made once, kept in its data directory), not its name:
two PCs with one name are two stations, and a PC cloned from a running station (same
identity) is refused at start while the first is live, with a message that says what to do.
On the test PostgreSQL server, as a casino's shared ledger."""

from __future__ import annotations

import shutil
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.core.round import Round, RoundRules
from app.ledger import StationClaimed, Store
from app.ledger.models import RoundRow, Shift, Station, StationClaim, now
from app.ledger.store import IDENTITY_FILE, station_id

from .play import play

TABLE = "PG-1"


def _pg_url(request: pytest.FixtureRequest) -> str:
    pg = request.getfixturevalue("pg_up")
    return str(pg.url(pg.create_database(template=request.getfixturevalue("pg_template"))))


def _rounds(store: Store, n: int, seed: int) -> None:
    import random
    rng = random.Random(seed)
    for _ in range(n):
        game = Round(RoundRules(), store.rotation())
        rec = store.begin(game)
        play(game, rng, rec.save)


def test_two_stations_with_one_name_are_two_stations_not_merged(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = _pg_url(request)
    # Issue 17: "2 stations x 100 rounds into one PostgreSQL gave one station row, two open
    # shifts and 100 doubled round numbers" - both PCs were called after the host.
    stores = [Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / f"pc{i}")
              for i in (1, 2)]
    try:
        assert stores[0].station_id != stores[1].station_id
        for i, store in enumerate(stores):
            assert store.claim()
            store.open_shift(f"dealer {i}")
            _rounds(store, 5, seed=i)
        with Session(stores[0].engine) as s:
            ids = {str(r) for r in s.scalars(select(Station.id))}
            names = sorted(s.scalars(select(Station.name)))
            assert ids == {st.station_id for st in stores}
            assert names[0] == "pit-pc" and names[1].startswith("pit-pc (")
            for store in stores:  # each station's rounds are its own, numbered 1..5
                numbers = list(s.scalars(select(RoundRow.round_no).where(
                    RoundRow.station_id == uuid.UUID(store.station_id))
                    .order_by(RoundRow.round_no)))
                assert numbers == [1, 2, 3, 4, 5]
                assert s.scalar(select(func.count()).select_from(Shift).where(
                    Shift.station_id == uuid.UUID(store.station_id),
                    Shift.closed_at.is_(None))) == 1
    finally:
        for store in stores:
            store.close()


def test_a_cloned_station_is_refused_at_start_while_the_first_is_live(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = _pg_url(request)
    first = Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / "pc1")
    try:
        assert first.claim()
        shutil.copytree(tmp_path / "pc1", tmp_path / "clone")  # the PC's disk copied
        clone = Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / "clone")
        try:
            assert clone.station_id == first.station_id
            clone.boot = "another-pc"  # the copy runs on another machine
            with pytest.raises(StationClaimed) as refused:
                clone.claim()
            said = str(refused.value)
            assert "Another station is running as this one" in said
            assert "delete" in said and "Traceback" not in said
            assert first.beat()  # the first is untouched and still the station
        finally:
            clone.close()
    finally:
        first.close()


def test_a_station_restarted_after_a_kill_takes_its_own_identity_back_at_once(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = _pg_url(request)
    before = Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / "pc")
    assert before.claim()
    before.close()  # as if killed: its claim is still fresh in the database
    again = Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / "pc")
    try:
        assert again.station_id == before.station_id
        assert again.claim()  # the journal names the run before it: this PC's own
    finally:
        again.close()


def test_a_clone_may_start_once_the_first_has_been_silent_past_the_live_window(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = _pg_url(request)
    first = Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / "pc1")
    assert first.claim()
    first.close()
    with Session(first.engine) as s, s.begin():  # the first stopped 20 s ago
        s.execute(update(StationClaim).values(seen_at=now() - timedelta(seconds=20)))
    other = Store(url, table=TABLE, station="pit-pc", data_dir=tmp_path / "pc2",
                  station_id=first.station_id)
    try:
        assert other.claim(live_s=15)
        assert not first.beat()  # the identity moved on: the old run is no longer it
    finally:
        other.close()


def test_the_installer_s_identity_file_names_the_station_whatever_its_name(
        tmp_path: Path) -> None:
    made = uuid.uuid4()
    (tmp_path / IDENTITY_FILE).write_text(f"{made}\n")
    with Store(table=TABLE, station="renamed-pc", data_dir=tmp_path) as store:
        assert store.station_id == str(made)


def test_a_station_that_ran_before_identities_keeps_its_old_id(tmp_path: Path) -> None:
    old = station_id(TABLE, "pit-pc")
    (tmp_path / "journal").mkdir()
    (tmp_path / "journal" / f"{old}.sqlite").touch()
    with Store(table=TABLE, station="pit-pc", data_dir=tmp_path) as store:
        assert store.station_id == str(old)


def test_an_unreadable_identity_file_is_refused_in_words(tmp_path: Path) -> None:
    from app.ledger import LedgerError
    (tmp_path / IDENTITY_FILE).write_text("not a uuid")
    with pytest.raises(LedgerError, match="should hold this station's identity"):
        Store(table=TABLE, station="pc", data_dir=tmp_path)
