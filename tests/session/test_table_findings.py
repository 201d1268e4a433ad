"""Issue 25's findings at the table (item 4), through the session by keys: the dice keys
after a refused D never move the selection, a refusal stays until read, a wrong card keeps
the rest of the typed line, and the dragon is offered only up to what a player bank still
covers (not at all when it covers less than a dragon's least wager)."""

from __future__ import annotations

from app.core.cards import parse_cards
from app.core.round import Phase
from app.core.table import DEALER
from app.session import DealerSession, MemoryLedger, MemoryPrinter

from .play import BANK_WEAK, STRONG, WEAKER, Play, stacked
from .test_same_wagers import LAST, settled_once


def opened() -> Play:
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), randbelow=lambda _n: 1))
    p.key("N")
    p.wagers({1: "25"})
    return p


def test_after_d_is_refused_on_an_rng_table_the_dice_typed_never_move_the_selection():
    p = opened()
    assert p.s.keyboard.selected == 2
    refused = p.key("D")
    assert not refused.done
    assert "not dice: press R" in refused.message and "table:" not in refused.message
    for key in ("3", "Space", "5", "Space", "6"):
        changes = p.key(key)
        assert not changes.done and p.s.keyboard.selected == 2, key
        assert changes.message.startswith(refused.message), key  # still on screen
    p.key("Esc")  # read: the keys are the table's again
    p.key("3")
    assert p.s.keyboard.selected == 3


def test_a_refusal_stays_on_screen_until_read():
    p = opened()
    refused = p.key("S")
    assert not refused.done
    for key in ("Z", "Space", "9"):
        assert p.key(key).message.startswith(refused.message), key
    p.key("Enter")
    assert p.key("Z").message.startswith("Z does nothing here")


def test_a_wrong_card_is_refused_alone_and_the_rest_of_the_line_stays():
    p = opened()
    p.key("R")
    rnd = p.s.round
    assert rnd is not None and rnd.phase is Phase.DEALING and rnd.action is not None
    first = rnd.action.position
    p.seat(first)
    p.key("C")
    for k in "AS KD ZZ 7C 7D 2S JK":
        p.key("Space" if k == " " else k)
    changes = p.key("Enter")
    assert not changes.done
    assert "ZZ" in changes.message and "the other 6 card(s) stay in the line" in changes.message
    entry = p.s.keyboard.entry
    assert entry is not None and entry.text.split() == "AS KD 7C 7D 2S JK".split()
    for k in "QH":
        p.key(k)
    assert p.key("Enter").done
    assert p.s.dealing()[first] == list(parse_cards("AS KD 7C 7D 2S JK QH"))


def test_a_card_dealt_already_is_refused_alone_too():
    p = opened()
    p.key("R")
    first = p.s.round.action.position  # type: ignore[union-attr]
    p.seat(first)
    p.key("C")
    for k in "AS KD 7C 7D 2S JK QH":
        p.key("Space" if k == " " else k)
    p.key("Enter")
    nxt = p.s.keyboard.selected
    p.key("C")
    for k in "AS 3C":
        p.key("Space" if k == " " else k)
    changes = p.key("Enter")
    assert "AS is already dealt" in changes.message
    assert p.s.keyboard.entry is not None and p.s.keyboard.entry.text.split() == ["3C"]
    assert nxt is not None and p.s.dealing().get(nxt, []) == []


def banked(chips: str) -> Play:
    """Round 2: seat 1 banks with `chips`; seat 2 wagers $10 and seat 3 $25 against it; the
    deal read (seats 4, 5 and 6 unused: a dragon to offer)."""
    p = settled_once(last=LAST)
    p.key("Esc")
    p2 = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                            randbelow=lambda _n: 1))
    p2.shoe(True)
    p2.key("N")
    p2.wagers(LAST)
    p2.key("R")
    p2.read(stacked(p2.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    p2.key("Shift+Q")
    p2.house_way_all()
    p2.key("S")
    p2.key("N")
    assert p2.s.bank_offered() == 1
    p2.key("B")
    for k in chips:
        p2.key(k)
    p2.key("Enter")
    p2.wagers({2: "10", 3: "25"})
    p2.key("R")
    rnd = p2.s.round
    assert rnd is not None and rnd.action is not None
    p2.read(stacked(p2.s.table, rnd.action.position, {}))
    assert p2.s.round.phase is Phase.SETTING  # type: ignore[union-attr]
    return p2


def test_no_dragon_is_offered_when_the_player_bank_covers_nothing_more():
    p = banked("35")  # $35 covers the $10 and the $25: nothing more
    assert p.s.dragon_offered() is None
    changes = p.key("G")
    assert not changes.done and "covers $0.00 more" in changes.message


def test_the_dragon_is_offered_only_up_to_what_the_player_bank_still_covers():
    p = banked("50")  # $15 more
    while p.s.dragon_offered() not in (3, None):
        p.key("Q")
    assert p.s.dragon_offered() == 3
    assert "up to $15.00, what the bank of seat 1 still covers" in p.s.message
    p.key("G")
    entry = p.s.keyboard.entry
    assert entry is not None and entry.text == "15.00"
    assert p.key("Enter").done
    assert p.s.round.dragons  # type: ignore[union-attr]


def test_the_demo_shoe_unplugged_stays_out_until_o_and_nothing_it_reads_is_used():
    """The shoe's state never changes by itself: after O, a late word of the shoe's from
    before the unplugging does not bring it back, and its late cards are not used."""
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25"})
    p.key("R")
    rnd = p.s.round
    assert rnd is not None and rnd.action is not None
    deck = stacked(p.s.table, rnd.action.position, {})
    p.read(deck[:5])
    changes = p.key("O")
    assert "unplugged" in changes.message
    devices = p.s.devices
    assert not devices.shoe_online and devices.shoe_short == "unplugged"  # said at once
    p.shoe(True)  # the shoe's word from before the cable was pulled, arriving late
    assert not devices.shoe_online
    late = p.read(deck[5:6])
    assert not late.done and "after it was unplugged" in late.message
    assert len(p.s.deal.stream) == 5
    p.key("O")  # plugged back by the dealer
    p.shoe(True)
    assert devices.shoe_online


def test_s_pressed_while_wagers_are_taken_is_refused_in_the_dealers_words():
    # Issue 25: "the round is betting: that is done while it is setting" when S is early.
    p = opened()

    refused = p.key("S")

    assert not refused.done
    assert "wagers are still being taken" in refused.message
    assert "is betting" not in refused.message and "while it is setting" not in refused.message



def test_p_on_a_printed_slip_says_it_is_printed_as_information_not_an_error():
    printer = MemoryPrinter()
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), printer=printer,
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25"})
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: STRONG, DEALER: BANK_WEAK}))
    p.key("Shift+Q")
    p.house_way_all()
    assert p.key("S").slip is not None
    assert p.key("P").level != "error" and len(printer.printed) == 1
    again = p.key("P")
    assert again.level == "info"
    assert again.message == ("Round 1's slip is already printed: nothing is printed again. "
                             "Shift+P prints a copy marked REPRINT.")
    assert len(printer.printed) == 1
    assert p.s.keyboard.held is None  # nothing held to read away: the next key works
    assert p.key("Shift+P").level != "error" and len(printer.printed) == 2
