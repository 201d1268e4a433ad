"""The linked progressive's meter as PostgreSQL says each change (migration
0017_meter_notify, app/ledger/meter_feed.py): a station's felt listens instead of reading
the meter twice a second. What it hears is what a commit left, never a rolled-back move;
a server that stops is said as the database away, and a new feed hears again; SQLite,
which sends no messages, gives no feed (the felt reads it)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.ledger import LedgerUnavailable, Store
from app.ledger.chain import LedgerSession
from app.ledger.meter_feed import MeterFeed, MeterHeard
from app.ledger.progressive import contribute, meter

from .enrolled import enrolled_key
from .pg import PgServer
from .progressive_play import CARD, new_op, progressive_round

DEADLINE_S = 60.0  # generous: the message leaves at the commit


def _heard(feed: MeterFeed) -> MeterHeard:
    heard = feed.wait(DEADLINE_S)
    assert heard is not None, f"nothing heard of {CARD.name} in {DEADLINE_S:.0f} s"
    return heard


def _other(url: str, tmp_path: Path) -> Store:
    other = Store(url, table="PG-2", station="station-b", data_dir=tmp_path / "b")
    enrolled_key(other)
    other.open_shift("Lou")
    return other


def _row(store: Store) -> tuple[int, int]:
    with Session(store.engine) as s:
        reading = meter(s, CARD.name)
    assert reading is not None
    return reading.amount, reading.seq


@pytest.mark.parametrize("backend", ["postgresql"])
def test_a_meter_moved_at_another_station_is_heard_as_its_commit_left_it(
        store: Store, database_url: str, tmp_path: Path) -> None:
    feed = store.progressive_feed(CARD.name)
    assert feed is not None
    other = _other(database_url, tmp_path)
    try:
        with feed:
            progressive_round(other, [1, 2, 3])  # opens the meter and feeds it: one commit
            heard = _heard(feed)
            assert (heard.amount, heard.seq) == _row(other) == (CARD.seed + 210, 2)
            progressive_round(other, [4])
            assert (_heard(feed).amount, _heard_none(feed)) == (CARD.seed + 280, None)
    finally:
        other.close()


def _heard_none(feed: MeterFeed) -> MeterHeard | None:
    return feed.wait(0.0)  # every message of the last commit was read with it


@pytest.mark.parametrize("backend", ["postgresql"])
def test_a_move_rolled_back_is_never_heard(store: Store) -> None:
    progressive_round(store, [1])
    feed = store.progressive_feed(CARD.name)
    assert feed is not None
    sid = uuid.UUID(store.station_id)
    with feed:
        with LedgerSession(store._writes) as s:
            s.begin()
            contribute(s, CARD, None, sid, [1, 2, 3, 4, 5], new_op())  # a station killed
            s.rollback()                                                # before its commit
        with LedgerSession(store._writes) as s, s.begin():
            contribute(s, CARD, None, sid, [1], new_op())
        heard = _heard(feed)
        assert (heard.amount, heard.seq) == _row(store) == (CARD.seed + 140, 3)
        assert _heard_none(feed) is None


@pytest.mark.parametrize("backend", ["postgresql"])
def test_a_server_that_stops_is_said_as_the_database_away_and_a_new_feed_hears_again(
        store: Store, pg_up: PgServer) -> None:
    progressive_round(store, [1])
    feed = store.progressive_feed(CARD.name)
    assert feed is not None
    pg_up.stop()
    try:
        with feed, pytest.raises(LedgerUnavailable, match="cannot be reached"):
            feed.wait(DEADLINE_S)
        with pytest.raises(LedgerUnavailable, match="cannot be reached"):
            store.progressive_feed(CARD.name)
    finally:
        pg_up.start()
    again = store.progressive_feed(CARD.name)
    assert again is not None
    with again:
        progressive_round(store, [2, 3])
        assert _heard(again).amount == CARD.seed + 70 + 140


@pytest.mark.parametrize("backend", ["sqlite"])
def test_a_sqlite_ledger_gives_no_feed_its_felt_reads_the_meter(store: Store) -> None:
    assert store.progressive_feed(CARD.name) is None
