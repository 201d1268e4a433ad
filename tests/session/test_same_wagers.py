"""Same wagers as last round (issue 25, item 1): L shows last round's wagers seat by seat,
Enter (or Y, or L again) sets them, a seat's key leaves that seat out first, Esc sets none;
each wager is held to the same checks as one typed (the limits, a banker's seat, a bank that
must cover it), and any seat can be changed after."""

from __future__ import annotations

from app.core.round import RoundRules
from app.core.table import DEALER
from app.session import DealerSession, MemoryLedger, MemoryPrinter

from .play import BANK_WEAK, STRONG, WEAKER, Play, stacked

LAST = {1: "25", 2: "10", 3: "40", 5: "25"}


def settled_once(rules: RoundRules | None = None, last: dict[int, str] = LAST) -> Play:
    """A round with `last` wagers played and settled; the next round opened, the bank passed
    (a house-banked round)."""
    p = Play(DealerSession(rules, ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    p.wagers(last)
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    p.key("Shift+Q")
    p.house_way_all()
    assert p.key("S").slip is not None
    p.key("N")
    if p.s.bank_offered() is not None:
        p.key("Shift+Q")
    return p


def wagers(p: Play) -> dict[int, int]:
    assert p.s.round is not None
    return dict(p.s.round.wagers)


def test_l_shows_last_rounds_wagers_seat_by_seat_and_sets_nothing_yet():
    p = settled_once()
    changes = p.key("L")
    assert changes.done
    assert wagers(p) == {}
    for seat, dollars in LAST.items():
        assert f"seat {seat} ${int(dollars):,}.00" in changes.message
    assert "Enter sets them" in changes.message


def test_enter_sets_last_rounds_wagers_each_as_a_typed_wager_is():
    p = settled_once()
    p.key("L")
    changes = p.key("Enter")
    assert changes.done
    assert wagers(p) == {1: 2500, 2: 1000, 3: 4000, 5: 2500}
    assert [line for line in changes.log if "wagers" in line] == [
        "Seat 1 wagers $25.00", "Seat 2 wagers $10.00", "Seat 3 wagers $40.00",
        "Seat 5 wagers $25.00"]


def test_l_twice_and_y_confirm_as_enter_does():
    for confirm in ("L", "Y"):
        p = settled_once()
        p.key("L")
        p.key(confirm)
        assert wagers(p) == {1: 2500, 2: 1000, 3: 4000, 5: 2500}, confirm


def test_a_seats_key_leaves_that_seat_out_and_again_puts_it_back():
    p = settled_once()
    p.key("L")
    changes = p.key("2")
    assert "seat 2 left out" in changes.message
    p.key("3")
    p.key("3")  # back in
    p.key("Enter")
    assert wagers(p) == {1: 2500, 3: 4000, 5: 2500}


def test_esc_sets_none_of_them():
    p = settled_once()
    p.key("L")
    changes = p.key("Esc")
    assert wagers(p) == {}
    assert "Nothing set" in changes.message


def test_any_seat_can_be_changed_after_the_same_wagers_are_set():
    p = settled_once()
    p.key("L")
    p.key("Enter")
    p.seat(3)
    p.key("W")
    for k in "100":
        p.key(k)
    p.key("Enter")
    p.seat(2)
    p.key("X")
    assert wagers(p) == {1: 2500, 3: 10000, 5: 2500}


def test_a_seat_already_wagered_keeps_its_wager():
    p = settled_once()
    p.wagers({1: "50"})
    changes = p.key("L")
    assert "seat 1" not in changes.message.split("Enter")[0]
    p.key("Enter")
    assert wagers(p) == {1: 5000, 2: 1000, 3: 4000, 5: 2500}


def test_a_wager_now_over_the_maximum_is_refused_in_dealer_words_and_the_rest_set():
    """Last round's wagers as a station restarted under a new maximum ($300.00) finds them."""
    p = settled_once()
    p.s.play.last_round = {1: 2500, 2: 40_000, 5: 2500}
    p.key("L")
    changes = p.key("Enter")
    assert wagers(p) == {1: 2500, 5: 2500}
    assert changes.level == "warn"
    assert "Not set: seat 2" in changes.message
    assert "over the table maximum of $300.00" in changes.message


def test_the_seat_that_banks_and_wagers_its_bank_cannot_cover_are_refused():
    p = settled_once()  # seats 1, 2, 3, 5 wagered against the dealer: they may bank
    p.key("Esc")
    # round 2 again: a fresh session whose second round is offered to seat 1
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    p.wagers(LAST)
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    p.key("Shift+Q")
    p.house_way_all()
    p.key("S")
    p.key("N")
    banker = p.s.bank_offered()
    assert banker is not None
    p.key("B")
    for k in "50":
        p.key(k)
    p.key("Enter")
    assert p.s.round is not None and p.s.round.bank.player == banker
    p.key("L")
    changes = p.key("Enter")
    assert banker not in wagers(p)
    assert f"seat {banker} banks this round" in changes.message
    assert "cannot cover" in changes.message
    assert sum(wagers(p).values()) <= 5000


def test_with_no_round_before_l_says_to_type_each_wager():
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann")))
    p.key("N")
    changes = p.key("L")
    assert not changes.done
    assert "type each wager" in changes.message
    assert p.s.keyboard.same is None
