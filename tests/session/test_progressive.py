"""The linked progressive at the station (issue 27, docs/progressive.md), from the card's own
words (app/core/progressive/cards/linked-pai-gow.toml): wager = "$1", meter-share = "70%",
reserve-share = "10%", seed = "$10,000", five-aces = "10%", four-of-a-kind = "$75".

J takes the selected seat's progressive wager (one a seat a round, beside a Pai Gow wager),
Shift+J takes it back, L repeats it with last round's wagers; the wagers go to the meter
with the settlement; a hit waits for a supervisor's own sign-in and is paid from the meter
as it stands then; while the meter cannot be reached the progressive is closed (no new
wager) and a hit waits for the meter, never paid from a guessed amount."""

from __future__ import annotations

from pathlib import Path

from app.core.progressive import Meter, progressive_card
from app.core.round import RoundRules
from app.core.table import DEALER
from app.session import (
    DealerSession,
    HitsOwed,
    MemoryLedger,
    MemoryPrinter,
    MemorySupervisors,
    MeterStatus,
    OwedHit,
    PaidHit,
    ProgressivePaid,
    SupervisorCommand,
    event_from_dict,
    event_to_dict,
)
from app.session.commands import COMMANDS_BY_ID
from app.session.record import JsonlRecorder, read_session
from app.session.replay import replay

from .play import BANK_WEAK, WEAKER, WEAKER_TOO, Play, stacked

LINKED = RoundRules(progressive=progressive_card("linked-pai-gow"))
SEED = 1_000_000  # "$10,000"
FIVE_ACES = "AS AH AD AC JK 4D 8H"  # "10%" of the meter
QUADS = "KS KH KD KC 5S 3H 7H"  # "$75", paid by the house
AWAY = "the ledger's database (db.casino) cannot be reached: connection refused"


def session(rules: RoundRules = LINKED, ledger: MemoryLedger | None = None) -> Play:
    p = Play(DealerSession(rules, ledger=ledger or MemoryLedger(shift="Ann"),
                           printer=MemoryPrinter(),
                           supervisors=MemorySupervisors({"Pat Lee": "730215"}),
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    return p


def ledger_of(p: Play) -> MemoryLedger:
    ledger = p.s.play.ledger
    assert isinstance(ledger, MemoryLedger)
    return ledger


def deal_and_set(p: Play, hands: dict[int, str]) -> None:
    p.key("R")
    p.read(stacked(p.s.table, 1, hands))
    if p.s.dragon_offered() is not None:
        p.key("Shift+Q")
    p.house_way_all()


def with_progressives(p: Play, wagers: dict[int, str], seats: list[int]) -> None:
    p.wagers(wagers)
    for seat in seats:
        p.seat(seat)
        assert p.key("J").done


def test_j_takes_the_selected_seats_progressive_wager_of_the_cards_amount() -> None:
    p = session()
    p.wagers({1: "25"})
    p.seat(1)
    changes = p.key("J")
    assert changes.done and "Seat 1 progressive $1.00" in changes.log
    assert p.s.round is not None and p.s.round.progressive_wagers == {1: 100}


def test_a_seat_has_one_progressive_wager_a_round() -> None:
    p = session()
    with_progressives(p, {1: "25"}, [1])
    again = p.key("J")
    assert not again.done and "one a seat a round" in again.message
    assert p.s.round is not None and p.s.round.progressive_wagers == {1: 100}


def test_a_progressive_beside_no_pai_gow_wager_is_refused_in_the_dealers_words() -> None:
    p = session()
    p.seat(2)
    # the button says why before it is pressed (its tooltip, F1), and the key refuses it
    assert "seat 2 has no Pai Gow wager" in (COMMANDS_BY_ID["progressive"].available(p.s)
                                             or "")
    changes = p.key("J")
    assert not changes.done and "seat 2 has no Pai Gow wager" in changes.message


def test_a_table_on_no_progressive_says_so() -> None:
    p = session(RoundRules())
    p.wagers({1: "25"})
    p.seat(1)
    assert "this table is on no progressive" in p.key("J").message


def test_shift_j_takes_the_progressive_back_while_the_bets_are_open() -> None:
    p = session()
    with_progressives(p, {1: "25"}, [1])
    changes = p.key("Shift+J")
    assert changes.done and "Seat 1 takes back the progressive $1.00" in changes.log
    assert p.s.round is not None and p.s.round.progressive_wagers == {}


def test_same_as_last_round_sets_the_progressive_wagers_with_the_wagers() -> None:
    p = session()
    with_progressives(p, {1: "25", 3: "10"}, [1])
    deal_and_set(p, {1: WEAKER, DEALER: BANK_WEAK})
    assert p.key("S").slip is not None
    p.key("N")
    if p.s.bank_offered() is not None:
        p.key("Shift+Q")
    offer = p.key("L")
    assert "seat 1 $25.00 + progressive $1.00" in offer.message
    p.key("Enter")
    assert p.s.round is not None
    assert p.s.round.wagers == {1: 2500, 3: 1000}
    assert p.s.round.progressive_wagers == {1: 100}


def test_the_wagers_go_to_the_meter_with_the_settlement_seventy_cents_each() -> None:
    p = session()
    with_progressives(p, {1: "25", 3: "10"}, [1, 3])
    ledger = ledger_of(p)
    deal_and_set(p, {1: WEAKER, 3: WEAKER_TOO, DEALER: BANK_WEAK})
    assert ledger.contributions == []  # nothing before the round is settled
    slip = p.key("S").slip
    assert slip is not None and slip.progressive is not None
    assert [(x.seat, x.wager, x.hit) for x in slip.progressive.lines] == [
        (1, 100, False), (3, 100, False)]
    assert ledger.contributions == [(1, (1, 3))]
    # two $1 wagers: 70% of each onto the meter, 10% into the reserve
    assert ledger.meter == Meter(SEED + 140, 20)
    assert "Progressive (Linked Pai Gow progressive): wagers $2.00" in slip.text()


def test_while_the_meter_cannot_be_reached_no_new_progressive_wager_is_taken() -> None:
    p = session()
    with_progressives(p, {1: "25", 3: "10"}, [1])
    closed = p.s.handle(MeterStatus(False, AWAY))
    assert "Progressive closed: the meter cannot be reached" in closed.message
    p.seat(3)
    refused = p.key("J")
    assert not refused.done
    assert "Progressive closed: the meter cannot be reached" in refused.message
    assert "no new progressive wager is taken" in refused.message
    # the wager taken before stays, and goes to the meter with the settlement
    deal_and_set(p, {1: WEAKER, 3: WEAKER_TOO, DEALER: BANK_WEAK})
    p.key("S")
    assert ledger_of(p).contributions == [(1, (1,))]
    back = p.s.handle(MeterStatus(True))
    assert "progressive wagers are taken again" in back.message


def test_same_as_last_round_leaves_the_progressive_out_while_it_is_closed() -> None:
    p = session()
    with_progressives(p, {1: "25"}, [1])
    deal_and_set(p, {1: WEAKER, DEALER: BANK_WEAK})
    p.key("S")
    p.key("N")
    if p.s.bank_offered() is not None:
        p.key("Shift+Q")
    p.s.handle(MeterStatus(False, AWAY))
    p.key("L")
    changes = p.key("Enter")
    assert p.s.round is not None and p.s.round.wagers == {1: 2500}
    assert p.s.round.progressive_wagers == {}
    assert "seat 1's progressive - Progressive closed" in changes.message


def test_a_hit_waits_for_a_supervisors_sign_in_then_is_paid_from_the_meter() -> None:
    p = session()
    with_progressives(p, {1: "25", 3: "10"}, [1, 3])
    deal_and_set(p, {1: FIVE_ACES, 3: WEAKER, DEALER: BANK_WEAK})
    settled = p.key("S")
    assert "PROGRESSIVE HIT: seat 1 five aces. Paid once a supervisor signs in (F2)." \
        in settled.message
    assert settled.show == "pay_progressive"
    slip = settled.slip
    assert slip is not None and slip.progressive is not None
    assert "seat 1 progressive $1.00: HIT five aces (10% of the meter) - waiting to be paid" \
        in slip.text()
    wrong = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="000000"))
    assert not wrong.done and ledger_of(p).hits_paid == {}
    paid = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert paid.done
    # 10% of the meter as it stands at the sign-in: $10,000 + the round's $1.40, rounded
    # down to the cent; then back to the seed (the reserve's 20 cents, the house the rest)
    assert "seat 1 $1,000.14" in paid.message and "signed in by Pat Lee" in paid.message
    assert ledger_of(p).meter == Meter(SEED, 0)
    assert paid.slip is not None and paid.slip.progressive is not None
    line = paid.slip.progressive.lines[0]
    assert (line.seat, line.paid, line.from_meter, line.fixed, line.by) == (
        1, 100_014, 100_014, 0, "Pat Lee")
    assert ("seat 1 progressive $1.00: HIT five aces (10% of the meter) - paid $1,000.14, "
            "signed in by Pat Lee") in paid.slip.text()
    assert any("paid (signed in by Pat Lee)" in x for x in paid.log)
    again = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert not again.done and "no progressive hit waits" in again.message


def test_a_fixed_amount_is_paid_by_the_house_and_leaves_the_meter_as_it_was() -> None:
    p = session()
    with_progressives(p, {2: "25"}, [2])
    deal_and_set(p, {2: QUADS, DEALER: BANK_WEAK})
    p.key("S")
    paid = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert paid.slip is not None and paid.slip.progressive is not None
    line = paid.slip.progressive.lines[0]
    assert (line.paid, line.from_meter, line.fixed) == (7500, 0, 7500)
    assert ledger_of(p).meter == Meter(SEED + 70, 10)


def test_a_hit_found_while_the_meter_cannot_be_reached_waits_for_the_meter() -> None:
    p = session()
    with_progressives(p, {1: "25"}, [1])
    deal_and_set(p, {1: FIVE_ACES, DEALER: BANK_WEAK})
    p.s.handle(MeterStatus(False, AWAY))
    settled = p.key("S")
    assert "It waits for the meter" in settled.message and settled.show is None
    assert p.s.play.progressive.banner() == (
        "Progressive hit waiting for the meter: round 1 seat 1, five aces")
    refused = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert not refused.done and "never from a guessed amount" in refused.message
    assert ledger_of(p).hits_paid == {}
    # play goes on meanwhile; the meter back, the hit is paid from it as it stands then
    p.key("N")
    back = p.s.handle(MeterStatus(True))
    assert "The hit that waited is paid after a supervisor's sign-in" in back.message
    paid = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert paid.done and "seat 1 $1,000.07" in paid.message
    assert p.s.play.progressive.banner() is None


def test_a_payment_the_ledger_refuses_pays_nothing_and_the_hit_still_waits() -> None:
    ledger = MemoryLedger(shift="Ann", meter_refuse=AWAY)
    p = session(ledger=ledger)
    with_progressives(p, {1: "25"}, [1])
    deal_and_set(p, {1: FIVE_ACES, DEALER: BANK_WEAK})
    p.key("S")
    refused = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert not refused.done and "cannot be reached" in refused.message
    assert p.s.play.progressive.waiting() is not None
    ledger.meter_refuse = None
    assert p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215")).done


def owed(round_no: int, seat: int, category: str, hand: str, pays: str) -> OwedHit:
    return OwedHit(f"round-{round_no}-id", round_no, seat, category, hand, pays,
                   "linked-pai-gow")


ROUND_5 = (owed(5, 1, "five-aces", "five aces", "10% of the meter"),
           owed(5, 2, "four-of-a-kind", "four of a kind", "$75.00"))
ROUND_7 = (owed(7, 4, "five-aces", "five aces", "10% of the meter"),)


def test_the_hits_the_ledger_owes_are_listed_and_paid_one_round_a_sign_in_oldest_first(
        ) -> None:
    """Found in the ledger at start (a station stopped before the sign-in): each round's
    hits paid from the meter as it stands at its own sign-in, as at the settlement."""
    ledger = MemoryLedger(shift="Ann", meter=Meter(SEED + 210, 30))  # three wagers fed it
    p = session(ledger=ledger)
    listed = p.s.handle(HitsOwed(ROUND_5 + ROUND_7))
    assert ("Progressive hit waiting: round 5 seat 1, five aces; round 5 seat 2, four of a "
            "kind; round 7 seat 4, five aces. A supervisor signs in to pay it (F2, Pay "
            "progressive).") in listed.message
    assert any("Progressive hit waiting: round 5 seat 1, five aces" in x for x in listed.log)
    first = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    # 10% of $10,002.10 rounded down; the four of a kind's $75 from the house
    assert first.done and "seat 1 $1,000.21; seat 2 $75.00" in first.message
    assert "Another progressive hit waits: round 7 seat 4, five aces." in first.message
    assert set(ledger.hits_paid) == {5}
    # the meter back at its seed after round 5's hit: round 7 takes 10% of $10,000
    second = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert second.done and "seat 4 $1,000.00" in second.message
    assert "Another" not in second.message
    assert not p.s.play.progressive.due() and p.s.play.progressive.banner() is None
    none = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert not none.done and "no progressive hit waits" in none.message


def test_a_hit_owed_waits_for_the_meter_and_is_never_paid_from_a_guessed_amount() -> None:
    p = session(ledger=MemoryLedger(shift="Ann", meter=Meter(SEED + 70, 10)))
    p.s.handle(MeterStatus(False, AWAY))
    listed = p.s.handle(HitsOwed(ROUND_7))
    assert "It is paid once the meter can be reached" in listed.message
    assert p.s.play.progressive.banner() == (
        "Progressive hit waiting for the meter: round 7 seat 4, five aces")
    refused = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert not refused.done and "never from a guessed amount" in refused.message
    p.s.handle(MeterStatus(True))
    assert p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215")).done


def test_this_runs_own_round_the_ledger_lists_too_is_paid_once() -> None:
    """The ledger looked again (the meter back) and lists the round this station settled
    and still holds: one round waits, paid once, and no longer owed after."""
    p = session()
    with_progressives(p, {1: "25"}, [1])
    deal_and_set(p, {1: FIVE_ACES, DEALER: BANK_WEAK})
    p.key("S")
    no = p.s.round.rotation.round_no if p.s.round is not None else 0
    p.s.handle(HitsOwed((owed(no, 1, "five-aces", "five aces", "10% of the meter"),)))
    assert [d.round_no for d in p.s.play.progressive.due()] == [no]
    paid = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    assert paid.done and paid.slip is not None and "Another" not in paid.message
    assert not p.s.play.progressive.due() and len(ledger_of(p).hits_paid) == 1


def test_the_meters_events_are_recorded_and_read_back() -> None:
    for event in (MeterStatus(False, AWAY), MeterStatus(True), HitsOwed(ROUND_5), HitsOwed(),
                  ProgressivePaid(4, (PaidHit(1, 100_014, 100_014, 0),), "Pat Lee"),
                  ProgressivePaid(4, (), "Pat Lee", "the database refused it")):
        assert event_from_dict(event_to_dict(event)) == event


def test_a_recorded_shift_with_a_progressive_hit_replays_the_same_slips(
        tmp_path: Path) -> None:
    """The recording holds the progressive wagers, the supervisor's sign-in (never the
    secret) and the meter's answer: played again with no meter, the same slips come out,
    what the hit paid included."""
    path = tmp_path / "session.jsonl"
    with path.open("w", encoding="utf-8") as f:
        p = Play(DealerSession(LINKED, ledger=MemoryLedger(shift="Ann"),
                               printer=MemoryPrinter(), recorder=JsonlRecorder(f),
                               supervisors=MemorySupervisors({"Pat Lee": "730215"}),
                               randbelow=lambda _n: 1))
        p.shoe(True)
        p.key("N")
        with_progressives(p, {1: "25", 3: "10"}, [1, 3])
        deal_and_set(p, {1: FIVE_ACES, 3: WEAKER, DEALER: BANK_WEAK})
        p.key("S")
        paid = p.s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215"))
    recording = path.read_text(encoding="utf-8")
    assert "730215" not in recording
    result = replay(read_session(recording.splitlines()))
    assert result.refused == []
    assert paid.slip is not None
    assert [s.to_dict() for s in result.slips][-1] == paid.slip.to_dict()


def test_a_recorded_shift_paying_a_hit_owed_replays_without_a_refusal(tmp_path: Path) -> None:
    """The hits owed are an event of the recording, and so is the meter's answer: played
    again with no ledger, the same hit is paid by the same answer."""
    path = tmp_path / "session.jsonl"
    with path.open("w", encoding="utf-8") as f:
        s = DealerSession(LINKED, ledger=MemoryLedger(shift="Ann", meter=Meter(SEED + 70, 10)),
                          printer=MemoryPrinter(), recorder=JsonlRecorder(f),
                          supervisors=MemorySupervisors({"Pat Lee": "730215"}),
                          randbelow=lambda _n: 1)
        s.handle(HitsOwed(ROUND_7))
        assert s.handle(SupervisorCommand("pay_progressive", "Pat Lee", secret="730215")).done
    result = replay(read_session(path.read_text(encoding="utf-8").splitlines()))
    assert result.refused == []
