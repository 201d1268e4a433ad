"""The bonus wager at the station (issue 26): U takes the selected seat's bonus with its own
limits, refused in the dealer's words over its maximum or beside no Pai Gow wager; Shift+U
takes it back; L repeats last round's bonus wagers with its wagers; S settles the bonuses
after the Pai Gow wagers, and a payout at the house's threshold waits for a supervisor's
own sign-in before the round is settled and the slip can print."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main as paigow
from app.core.bonus.table_bonus import TableBonus
from app.core.round import RoundRules
from app.core.table import DEALER
from app.session import (
    DealerSession,
    MemoryLedger,
    MemoryPrinter,
    MemorySupervisors,
    SupervisorCommand,
)
from app.session.commands import COMMANDS_BY_ID
from app.session.record import JsonlRecorder, read_session
from app.session.replay import replay
from drivers.printer.layout import slip_text

from .play import BANK_WEAK, WEAKER, Play, stacked

FORTUNE = RoundRules(bonus=TableBonus())
FIVE_ACES = "AS AH AD AC JK 2D 7C"  # 400 to 1
QUADS = "KS KH KD KC 5S 3H 7H"  # 25 to 1, and $5 envy to the other bonus wagers


def session(rules: RoundRules = FORTUNE) -> Play:
    p = Play(DealerSession(rules, ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                           supervisors=MemorySupervisors({"Pat Lee": "730215"}),
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    return p


def deal_and_set(p: Play, hands: dict[int, str]) -> None:
    p.key("R")
    p.read(stacked(p.s.table, 1, hands))
    if p.s.dragon_offered() is not None:
        p.key("Shift+Q")
    p.house_way_all()


def test_u_takes_the_selected_seats_bonus_typed_as_a_wager_is() -> None:
    p = session()
    p.wagers({1: "25"})
    p.seat(1)
    assert p.key("U").show == "field:bonus"
    p.key("5")
    changes = p.key("Enter")
    assert changes.done and "Seat 1 bonus $5.00" in changes.log
    assert p.s.round is not None and p.s.round.bonus_wagers == {1: 500}


def test_a_bonus_over_its_maximum_is_refused_in_the_dealers_words() -> None:
    p = session()
    p.wagers({1: "25"})
    p.seat(1)
    changes = p.cmd("bonus", "150")
    assert not changes.done
    assert "$150.00 is over the bonus maximum of $100.00" in changes.message
    assert p.s.round is not None and p.s.round.bonus_wagers == {}


def test_a_bonus_on_a_seat_with_no_pai_gow_wager_is_refused_where_the_house_requires_one(
) -> None:
    p = session()
    p.seat(2)
    # The button says why before it is pressed (its tooltip, F1)...
    assert "seat 2 has no Pai Gow wager" in (COMMANDS_BY_ID["bonus"].available(p.s) or "")
    changes = p.cmd("bonus", "5")  # ...and the step refuses it
    assert not changes.done and "seat 2 has no Pai Gow wager" in changes.message


def test_shift_u_takes_the_bonus_back() -> None:
    p = session()
    p.wagers({1: "25"})
    p.seat(1)
    p.cmd("bonus", "5")
    changes = p.key("Shift+U")
    assert changes.done and "Seat 1 takes back the bonus $5.00" in changes.log


def test_a_table_without_the_bonus_says_so() -> None:
    p = session(RoundRules())
    p.wagers({1: "25"})
    p.seat(1)
    assert "this table takes no bonus wager" in p.key("U").message


def test_same_as_last_round_sets_the_bonus_wagers_with_the_wagers() -> None:
    p = session()
    p.wagers({1: "25", 3: "10"})
    p.seat(1)
    p.cmd("bonus", "5")
    deal_and_set(p, {1: WEAKER, DEALER: BANK_WEAK})
    assert p.key("S").slip is not None
    p.key("N")
    if p.s.bank_offered() is not None:
        p.key("Shift+Q")
    offer = p.key("L")
    assert "seat 1 $25.00 + bonus $5.00" in offer.message
    p.key("Enter")
    assert p.s.round is not None
    assert p.s.round.wagers == {1: 2500, 3: 1000} and p.s.round.bonus_wagers == {1: 500}


def test_s_settles_the_bonus_and_envy_after_the_pai_gow_wagers() -> None:
    p = session()
    p.wagers({1: "25", 3: "10"})
    p.seat(1)
    p.cmd("bonus", "5")
    deal_and_set(p, {3: QUADS, 1: WEAKER, DEALER: BANK_WEAK})
    changes = p.key("S")
    slip = changes.slip
    assert slip is not None and slip.bonus is not None
    assert [(x.kind, x.seat, x.amount) for x in slip.bonus.lines] == [
        ("bonus", 1, -500), ("envy", 1, 500)]
    assert "Bonus $0.00." in changes.message


def test_a_big_payout_waits_for_a_supervisors_own_sign_in_before_the_slip() -> None:
    p = session()
    p.wagers({1: "25"})
    p.seat(1)
    p.cmd("bonus", "100")
    deal_and_set(p, {1: FIVE_ACES, DEALER: BANK_WEAK})
    held = p.key("S")
    assert held.slip is None
    assert "Waiting for a supervisor: seat 1 bonus $100.00: five aces" in held.message
    assert "+$40,000.00" in held.message and "the floor is told" in held.message
    assert "a supervisor approves this payout" in p.key("S").message  # S waits too
    assert "settle the round first" in p.key("P").message
    wrong = p.s.handle(SupervisorCommand("approve_bonus", "Pat Lee", secret="000000"))
    assert not wrong.done and p.s.round is not None and p.s.round.slip is None
    right = p.s.handle(SupervisorCommand("approve_bonus", "Pat Lee", secret="730215"))
    assert right.done and right.slip is not None and right.slip.bonus is not None
    assert right.slip.bonus.approved_by == "Pat Lee"
    # the ledger's port is given the approval with the supervisor's proof, as a misdeal is
    ledger = p.s.play.ledger
    assert isinstance(ledger, MemoryLedger) and ledger.approvals == [(1, "Pat Lee")]
    assert right.message.startswith("Settled from ")
    assert "Bonus +$40,000.00, approved by Pat Lee." in right.message
    assert any(line.startswith("Approved by Pat Lee") for line in right.log)
    assert p.key("P").done


def test_a_recorded_shift_with_a_bonus_round_replays_the_same_slips(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`paigow replay`: the session's recording holds the bonus wagers (U, and L the next
    round) and the supervisor's approval without the secret; played again with no one to
    check it, the same slips come out, bonus and envy lines and who approved included."""
    path = tmp_path / "session.jsonl"
    with path.open("w", encoding="utf-8") as f:
        p = Play(DealerSession(FORTUNE, ledger=MemoryLedger(shift="Ann"),
                               printer=MemoryPrinter(), recorder=JsonlRecorder(f),
                               supervisors=MemorySupervisors({"Pat Lee": "730215"}),
                               randbelow=lambda _n: 1))
        p.shoe(True)
        p.key("N")
        p.wagers({1: "25", 3: "10"})
        for seat, bonus in ((1, "100"), (3, "5")):
            p.seat(seat)
            assert p.cmd("bonus", bonus).done
        deal_and_set(p, {1: FIVE_ACES, 3: QUADS, DEALER: BANK_WEAK})
        assert p.key("S").slip is None  # five aces: waits for the supervisor
        first = p.s.handle(SupervisorCommand("approve_bonus", "Pat Lee", secret="730215")).slip
        p.key("N")
        if p.s.bank_offered() is not None:
            p.key("Shift+Q")
        p.key("L")
        p.key("Enter")  # the same wagers and bonuses
        deal_and_set(p, {3: QUADS, 1: WEAKER, DEALER: BANK_WEAK})
        second = p.key("S").slip
    assert first is not None and first.bonus is not None and second is not None
    assert first.bonus.approved_by == "Pat Lee" and second.bonus is not None
    recording = path.read_text(encoding="utf-8")
    assert "730215" not in recording  # the secret is never written

    result = replay(read_session(recording.splitlines()))
    assert result.refused == []
    assert [s.to_dict() for s in result.slips] == [first.to_dict(), second.to_dict()]
    assert paigow(["replay", "--json", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [s["bonus"] for s in printed] == [first.bonus.to_dict(), second.bonus.to_dict()]
    assert paigow(["replay", str(path)]) == 0
    assert capsys.readouterr().out == "\n".join(slip_text(s) for s in (first, second))


def dragon_taken(rules: RoundRules) -> Play:
    """Seats 1 and 3 play; the first seat offered takes seat 2's unused hand, four kings."""
    p = session(rules)
    p.wagers({1: "25", 3: "10"})
    p.seat(3)
    p.cmd("bonus", "5")
    p.key("R")
    p.read(stacked(p.s.table, 1, {2: QUADS, 1: WEAKER, DEALER: BANK_WEAK}))
    assert p.s.dragon_offered() is not None
    assert p.cmd("dragon", "10").done
    return p


def test_u_on_a_taken_dragon_hand_puts_its_takers_bonus_on_it_where_the_house_allows_it(
) -> None:
    from app.core.bonus import BonusRules

    p = dragon_taken(RoundRules(bonus=TableBonus(rules=BonusRules(dragon_bonus=True))))
    rnd = p.s.round
    assert rnd is not None
    taker = rnd.dragons[2][0]
    p.seat(2)
    assert p.key("U").show == "field:bonus"  # the keypad on touch, the field on keys
    p.key("5")
    changes = p.key("Enter")
    assert changes.done, changes.message
    assert changes.message.startswith(f"Seat {taker} bonus $5.00 on the dragon hand at seat 2.")
    assert rnd.dragon_bonus_wagers == {2: 500}
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None and slip.bonus is not None
    lines = [(x.kind, x.seat, x.position, x.amount) for x in slip.bonus.lines]
    assert ("bonus", taker, 2, 12_500) in lines  # four kings, 25 to 1, the taker's
    if taker != 3:
        assert ("envy", 3, 3, 500) in lines  # the other seat's envy for the dragon's kings


def test_u_on_a_dragon_hand_is_refused_in_dealer_words_where_the_house_does_not_allow_it(
) -> None:
    p = dragon_taken(FORTUNE)
    p.seat(2)
    refused = p.cmd("bonus", "5")
    assert not refused.done
    assert ("the dragon hand at seat 2 takes no bonus: the house does not allow a bonus on "
            "a dragon hand here") in refused.message
    assert p.s.round is not None and p.s.round.dragon_bonus_wagers == {}


def test_shift_u_on_a_taken_dragon_hand_takes_its_bonus_back_recorded_and_replayed(
        tmp_path: Path) -> None:
    """Shift+U on the dragon hand (before any hand is set) takes back its taker's bonus, as
    on a seat while the bets are open; the recorded session replays to the same slip."""
    from app.core.bonus import BonusRules

    rules = RoundRules(bonus=TableBonus(rules=BonusRules(dragon_bonus=True)))
    path = tmp_path / "session.jsonl"
    with path.open("w", encoding="utf-8") as f:
        p = Play(DealerSession(rules, ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                               recorder=JsonlRecorder(f), randbelow=lambda _n: 1))
        p.shoe(True)
        p.key("N")
        p.wagers({1: "25", 3: "10"})
        p.seat(3)
        p.cmd("bonus", "5")
        p.key("R")
        p.read(stacked(p.s.table, 1, {2: QUADS, 1: WEAKER, DEALER: BANK_WEAK}))
        assert p.cmd("dragon", "10").done
        rnd = p.s.round
        assert rnd is not None
        taker = rnd.dragons[2][0]
        p.seat(2)
        assert p.cmd("bonus", "5").done
        taken = p.key("Shift+U")
        assert taken.done, taken.message
        assert taken.message == f"Seat {taker} takes back the bonus $5.00 on the dragon hand " \
                                f"at seat 2."
        assert rnd.dragon_bonus_wagers == {}
        assert any("takes back the bonus $5.00 on the dragon hand" in line
                   for line in taken.log), taken.log
        again = p.key("Shift+U")
        assert not again.done
        assert "the dragon hand at seat 2 has no bonus to take back" in again.message
        p.house_way_all()
        slip = p.key("S").slip
    assert slip is not None and slip.bonus is not None
    assert not [x for x in slip.bonus.lines if x.position == 2 and x.kind == "bonus"]
    result = replay(read_session(path.read_text(encoding="utf-8").splitlines()))
    # refused again as it was at the table, and nothing else
    assert [why for _, why in result.refused] == [
        "the dragon hand at seat 2 has no bonus to take back"]
    assert [s.to_dict() for s in result.slips] == [slip.to_dict()]
