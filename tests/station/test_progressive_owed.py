"""A progressive hit owed when its station stops is found in the ledger at the next start
and paid once (issue 27, docs/progressive.md): the hits owed are a settled round's stored
slip's hits with no hit move of that round (op `<round id>/hit`), never the memory of the
station that settled it. From the card's own words (linked-pai-gow: wager "$1",
meter-share "70%", reserve-share "10%", seed "$10,000", five-aces "10%", four-of-a-kind
"$75"). A real station without a window, on SQLite and on the tests' PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.progressive import progressive_card
from app.core.round import Phase, RoundRules
from app.core.table import DEALER
from app.ledger import progressive as ledger_progressive
from app.ledger.models import ProgressiveMove
from app.ledger.store import StoreSupervisors
from app.session import SupervisorCommand
from app.station import Station
from app.station.ledger import Ledger
from tests.session.play import BANK_WEAK, WEAKER, Play, stacked
from tests.ui.conftest import SUPERVISOR, SUPERVISOR_SECRET, add_people
from tests.ui.test_station import make_ledger

LINKED = RoundRules(progressive=progressive_card("linked-pai-gow"))
SEED = 1_000_000  # "$10,000"
FIVE_ACES = "AS AH AD AC JK 4D 8H"  # "10%" of the meter
QUADS = "KS KH KD KC 5S 3H 7H"  # "$75", paid by the house


def start(ledger: Ledger) -> tuple[Station, Play]:
    station = Station(LINKED, ledger=ledger, supervisors=StoreSupervisors(ledger.store),
                      randbelow=lambda _n: 1)
    p = Play(station.session)
    p.shoe(True)
    return station, p


def again(tmp: Path, url: str | None) -> Ledger:
    """The same station started again on the same ledger and data directory."""
    return make_ledger(tmp, url, dealer=None)


def hit_moves(ledger: Ledger) -> list[tuple[int | None, int, str | None]]:
    with Session(ledger.store.engine) as s:
        return [(m.seat, m.amount_cents, m.by) for m in s.scalars(
            select(ProgressiveMove).where(ProgressiveMove.kind == "hit")
            .order_by(ProgressiveMove.meter_seq))]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_hit_waiting_when_the_station_stops_is_offered_at_the_next_start_and_paid_once(
        tmp_path: Path, request: pytest.FixtureRequest, backend: str) -> None:
    url = None
    if backend == "postgresql":
        pg = request.getfixturevalue("pg_up")
        url = pg.url(pg.create_database(template=request.getfixturevalue("pg_template")))
    ledger = make_ledger(tmp_path, url)
    add_people(ledger.store)
    station, p = start(ledger)
    p.key("N")
    p.wagers({1: "25", 2: "25", 3: "10"})
    for seat in (1, 2, 3):
        p.seat(seat)
        assert p.key("J").done
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: FIVE_ACES, 2: QUADS, 3: WEAKER, DEALER: BANK_WEAK}))
    if p.s.dragon_offered() is not None:
        p.key("Shift+Q")
    p.house_way_all()
    settled = p.key("S")
    assert "PROGRESSIVE HIT: seat 1 five aces; seat 2 four of a kind." in settled.message
    assert p.s.round is not None and p.s.round.phase is Phase.SETTLED
    no = p.s.round.rotation.round_no
    station.close()  # stopped before any supervisor signed in

    # started again on the same ledger: the hits are found there, listed, and wait
    ledger = again(tmp_path, url)
    station, p = start(ledger)
    try:
        assert (f"Progressive hit waiting: round {no} seat 1, five aces; round {no} seat 2, "
                f"four of a kind. A supervisor signs in to pay it") in p.s.message
        # the audit names them too, until they are paid
        with Session(ledger.store.engine) as s:
            audit = ledger_progressive.audit(s, "linked-pai-gow", LINKED.progressive)
        assert [(h.table, h.round_no, h.seat, h.hand) for h in audit.owed] == [
            ("PG-1", no, 1, "five aces"), ("PG-1", no, 2, "four of a kind")]
        assert (f"HIT OWED: table PG-1 round {no} seat 1, five aces (10% of the meter): "
                f"settled and not yet paid") in audit.text()
        assert audit.exact  # owed to a player, not yet the meter's: the meter adds up
        assert hit_moves(ledger) == []
        assert ("seat 1 progressive $1.00: HIT five aces (10% of the meter) - waiting to be "
                "paid") in ledger.store.slip(str(no)).text
        wrong = p.s.handle(SupervisorCommand("pay_progressive", SUPERVISOR, secret="nope"))
        assert not wrong.done and hit_moves(ledger) == []
        paid = p.s.handle(SupervisorCommand("pay_progressive", SUPERVISOR,
                                            secret=SUPERVISOR_SECRET))
        assert paid.done, paid.message
        # 10% of the meter as it stands at the sign-in: the seed and the three wagers'
        # $2.10, rounded down to the cent; the four of a kind's $75 from the house
        assert "seat 1 $1,000.21; seat 2 $75.00" in paid.message
        assert hit_moves(ledger) == [(1, 100_021, SUPERVISOR), (2, 7_500, SUPERVISOR)]
        assert not p.s.play.progressive.due()
        # the slip from the pit's history (its reprint, its PDF) says what the moves paid
        reprint = ledger.store.slip(str(no))
        assert (f"seat 1 progressive $1.00: HIT five aces (10% of the meter) - paid "
                f"$1,000.21, signed in by {SUPERVISOR}") in reprint.text
        assert (f"seat 2 progressive $1.00: HIT four of a kind ($75.00) - paid $75.00, "
                f"signed in by {SUPERVISOR}") in reprint.text
        assert "seat 3 progressive $1.00" in reprint.text and "waiting" not in reprint.text
        lines = reprint.data()["progressive"]["lines"]
        assert [(x["seat"], x["paid_cents"], x["from_meter_cents"], x["fixed_cents"])
                for x in lines if x["category"]] == [(1, 100_021, 100_021, 0),
                                                     (2, 7_500, 0, 7_500)]
        again_paid = p.s.handle(SupervisorCommand("pay_progressive", SUPERVISOR,
                                                  secret=SUPERVISOR_SECRET))
        assert not again_paid.done and "no progressive hit waits" in again_paid.message
    finally:
        station.close()

    # a third start: nothing owed, nothing paid twice, the meter exact
    ledger = again(tmp_path, url)
    station, p = start(ledger)
    try:
        assert not p.s.play.progressive.due()
        assert "Progressive hit waiting" not in p.s.message
        assert ledger.store.progressive_hits_owed() == []
        with Session(ledger.store.engine) as s:
            audit = ledger_progressive.audit(s, "linked-pai-gow", LINKED.progressive)
        assert audit.exact and not audit.owed, audit.text()
        assert hit_moves(ledger) == [(1, 100_021, SUPERVISOR), (2, 7_500, SUPERVISOR)]
    finally:
        station.close()


def test_a_hit_paid_by_its_own_station_is_never_offered_again(tmp_path: Path) -> None:
    """The hit paid at the settlement (the same op) is no longer owed at the next start."""
    ledger = make_ledger(tmp_path)
    add_people(ledger.store)
    station, p = start(ledger)
    p.key("N")
    p.wagers({1: "25"})
    p.seat(1)
    p.key("J")
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: FIVE_ACES, DEALER: BANK_WEAK}))
    if p.s.dragon_offered() is not None:
        p.key("Shift+Q")
    p.house_way_all()
    p.key("S")
    assert p.s.handle(SupervisorCommand("pay_progressive", SUPERVISOR,
                                        secret=SUPERVISOR_SECRET)).done
    station.close()
    ledger = again(tmp_path, None)
    station, p = start(ledger)
    try:
        assert not p.s.play.progressive.due()
        assert hit_moves(ledger) == [(1, 100_007, SUPERVISOR)]  # 10% of $10,000.70
    finally:
        station.close()
