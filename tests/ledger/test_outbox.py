"""A database that is briefly unreachable loses nothing: the station keeps every write in
its journal, shows a banner, and sends it all once the database is back - nothing doubled."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from app.core.round import Round, RoundRules
from app.ledger import LedgerError, LedgerUnavailable, Recording, Store
from app.ledger.models import Event, HandRow, RoundRow, SettlementRow, WagerRow

from .conftest import TABLE
from .pg import PgServer
from .play import play, record_rounds

MODELS = (Event, RoundRow, HandRow, WagerRow, SettlementRow)


def _counts(store: Store) -> dict[str, int]:
    with Session(store.engine) as s:
        out = {m.__tablename__: int(s.scalar(select(func.count()).select_from(m)) or 0)
               for m in MODELS}
        out["events"] = int(s.scalar(select(func.count()).select_from(Event)
                                     .where(Event.round_id.is_not(None))) or 0)
    return out


def _expected(recs: list[Recording]) -> dict[str, int]:
    slips = [r.game.slip for r in recs if r.game.slip is not None]
    return {
        "events": sum(len(r.game.log) + 1 for r in recs),
        "rounds": len(recs),
        "hands": 7 * len(recs),
        "wagers": sum(len(r.game.wagers) + len(r.game.dragons)
                      + (1 if r.game.bank.player is not None and r.game.bank.dealer_wager
                         else 0) for r in recs),
        "settlements": sum(1 for s in slips for ln in s.lines if ln.outcome is not None)
        + sum(1 for s in slips if s.bank.player is not None),
    }


@pytest.fixture()
def pg_store(pg_up: PgServer, pg_template: str, tmp_path: Path) -> Iterator[Store]:
    url = pg_up.url(pg_up.create_database(template=pg_template))
    store = Store(url, table=TABLE, station="away", data_dir=tmp_path / "station")
    store.open_shift("Kim")
    yield store
    if not pg_up.running:
        pg_up.start()
    store.close()


def _assert_in_the_ledger_once(store: Store, recs: list[Recording]) -> None:
    assert _counts(store) == _expected(recs)
    for rec in recs:
        assert rec.game.slip is not None
        stored = store.slip(rec.round_id)
        assert stored.text == rec.game.slip.text()
    with Session(store.engine) as s:
        seqs = s.execute(select(Event.round_id, Event.seq).where(Event.seq.is_not(None))).all()
    assert len(seqs) == len(set(seqs))


def test_a_settlement_made_while_the_database_is_down_is_kept_and_sent_once_it_is_back(
        pg_store: Store, pg_up: PgServer) -> None:
    recs = [r for r in record_rounds(pg_store, 1, "before") if isinstance(r, Recording)]
    pg_up.stop()
    away = [r for r in record_rounds(pg_store, 2, "away") if isinstance(r, Recording)]
    status = pg_store.status()
    assert not status.online and status.pending >= 2
    assert status.banner is not None and "Ledger offline" in status.banner
    assert "kept safely on this station" in status.banner
    with pytest.raises(LedgerUnavailable, match="cannot be reached"):
        pg_store.history()
    pg_up.start()
    status = pg_store.drain()
    assert status.online and status.pending == 0 and status.banner is None
    _assert_in_the_ledger_once(pg_store, recs + away)
    pg_store.drain()  # again: nothing more, nothing twice
    _assert_in_the_ledger_once(pg_store, recs + away)


def test_the_database_going_away_mid_round_loses_no_card_or_wager(
        pg_store: Store, pg_up: PgServer) -> None:
    game = Round(RoundRules(), pg_store.rotation())
    rec = pg_store.begin(game)
    rng = random.Random(9)
    calls = 0

    def save() -> None:
        nonlocal calls
        calls += 1
        if calls == 4:
            pg_up.stop()  # the network drops in the middle of the round
        rec.save()

    play(game, rng, save)
    assert not pg_store.status().online
    pg_up.start()
    pg_store.drain()
    _assert_in_the_ledger_once(pg_store, [rec])


def test_the_station_retries_by_itself_and_the_banner_clears(
        pg_store: Store, pg_up: PgServer) -> None:
    pg_store.start_retrying(every=0.2)
    pg_up.stop()
    recs = [r for r in record_rounds(pg_store, 1, "retry") if isinstance(r, Recording)]
    assert pg_store.status().banner is not None
    pg_up.start()
    deadline = time.monotonic() + 120  # generous: a loaded machine is slow, not wrong
    while pg_store.status().pending and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pg_store.status().banner is None, \
        f"waited 120 s for the retries to send the journal; the status: {pg_store.status()}"
    _assert_in_the_ledger_once(pg_store, recs)


def test_a_station_pointed_at_a_dead_address_keeps_everything_for_the_right_one(
        pg_up: PgServer, pg_template: str, tmp_path: Path) -> None:
    dead = "postgresql://postgres@127.0.0.1:1/paigow"
    station = tmp_path / "station"
    wrong = Store(dead, table=TABLE, station="s", data_dir=station)
    wrong.open_shift("Kim")
    recs = [r for r in record_rounds(wrong, 2, "dead") if isinstance(r, Recording)]
    assert not wrong.status().online and wrong.status().pending >= 3
    assert "127.0.0.1:1" in wrong.status().database
    wrong.close()
    right = Store(pg_up.url(pg_up.create_database(template=pg_template)), table=TABLE,
                  station="s", data_dir=station)
    assert right.drain().pending == 0
    _assert_in_the_ledger_once(right, recs)
    assert right.resume() is None
    right.close()


def test_a_write_the_database_refuses_stays_on_the_station_and_the_banner_says_so(
        pg_store: Store) -> None:
    game = Round(RoundRules(), pg_store.rotation())
    rec = pg_store.begin(game)
    game.place_wager(1, 1000)
    rec.save()
    with pg_store.engine.begin() as conn:  # someone voids the round behind the station
        conn.execute(text("UPDATE rounds SET status = 'void' WHERE id = :id"),
                     {"id": uuid.UUID(rec.round_id)})
    game.place_wager(2, 1000)
    rec.save()
    status = pg_store.status()
    assert status.refused is not None and "void" in status.refused
    assert status.pending == 1
    assert status.banner is not None and "Call a supervisor" in status.banner
    assert "Nothing is lost" in status.banner


def test_a_store_that_does_not_send_on_save_keeps_saves_in_the_journal_until_sent(
        tmp_path: Path) -> None:
    # The window's store: a save is on disk in the journal when it returns; the database
    # sees it only when the sender runs, so a slow database never holds up the dealer.
    store = Store(f"sqlite:///{tmp_path / 'ledger.sqlite'}", table=TABLE, station="window",
                  data_dir=tmp_path / "station", send_on_save=False)
    store.open_shift("Kim")
    recs = record_rounds(store, 2, "window")
    assert _counts(store)["rounds"] == 0
    assert store.status().pending > 0
    store.drain()
    assert _counts(store) == _expected(recs)
    assert store.status().pending == 0
    store.close()


def test_a_note_for_the_auditors_is_logged_once_with_who_and_when(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'ledger.sqlite'}", table=TABLE, station="pit",
                  data_dir=tmp_path / "station")
    store.open_shift("Kim")
    store.note("pin_refused", {"why": "Wrong PIN"}, by="Pat Lee")
    store.drain()
    store.drain()  # sent again: still once
    with Session(store.engine) as s:
        notes = list(s.scalars(select(Event).where(Event.kind == "pin_refused")))
    assert [(e.actor, e.shift_id is not None) for e in notes] == [("Pat Lee", True)]
    with pytest.raises(LedgerError, match="1 to 24 characters"):
        store.note("x" * 25, {}, by="Pat Lee")
    store.close()
