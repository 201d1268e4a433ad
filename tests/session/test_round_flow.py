"""Seeds 001 and 004 and the shoe's numbered cards through the session, by events only: A
shows the House Way (nothing set), H at a table that sets it after the bank leaves one pile,
a resplit foul goes back to the player, a card lost on the line leaves a hole at its place.
(The controller the window used to run did these; the session does them now.)"""

from __future__ import annotations

from app.core.cards import parse_cards
from app.core.house_way import set_house_way
from app.core.round import AskedHouseWay, FoulPenalty, Phase, RoundRules
from app.core.settlement import SetBy
from app.core.table import DEALER
from app.session import CardRead, DealerSession, MemoryLedger, MemoryPrinter, next_line

from .play import BANK_WEAK, MIDDLE, STRONG, WEAKER, Play, stacked


def dealt(rules: RoundRules | None = None) -> Play:
    """Seats 1 and 3 wager, action on seat 1, the deal read: the hands are to be set."""
    p = Play(DealerSession(rules, ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25", 3: "25"})
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: MIDDLE, 3: WEAKER, DEALER: BANK_WEAK}))
    p.key("Shift+Q")  # no one takes the dragon
    return p


def test_a_shows_the_house_way_for_the_selected_hand_without_setting_it():
    """Seed 001: "The player can ask the house for help when deciding how to split the hand.
    The house would then show how it would split the hand." """
    p = dealt()
    p.seat(1)
    changes = p.key("A")
    way = set_house_way(parse_cards(MIDDLE))
    rnd = p.s.round
    assert rnd is not None and rnd.hands[1].setting is None
    assert changes.done and changes.message.startswith("House Way for Seat 1: ")
    assert f"rule {way.rule.id}" in changes.message
    assert any(line.startswith("House Way shown to seat 1: ") for line in changes.log)


def test_h_leaves_the_seven_cards_in_one_pile_until_the_bank_is_set():
    """Seed 004: "players have the option of setting their hands themselves or having the
    dealer set it House Way after the bank hand is opened. When a hand is played House Way,
    all seven cards are left in one pile on the table." """
    p = dealt(RoundRules(asked_house_way=AskedHouseWay.AFTER_BANK))
    for seat in (1, 3):
        p.seat(seat)
        assert p.key("H").done
    rnd = p.s.round
    assert rnd is not None and rnd.piles() == (1, 3)
    assert next_line(p.s) == ("Next: S settles (the dealer's hand is set the House Way, then "
                              "the hands in one pile).")
    slip = p.key("S").slip
    assert slip is not None
    assert all(slip.line(seat).set_by is SetBy.AFTER_BANK for seat in (1, 3))


def test_a_resplit_foul_goes_back_to_the_player_and_the_round_waits():
    """Seed 001, online: "The player may re-split the hand. The game only continues when the
    five-card hand has a higher poker rank than the two-card hand." """
    p = dealt(RoundRules(foul_penalty=FoulPenalty.RESPLIT))
    p.seat(1)
    changes = p.cmd("front", "AC KD")  # ace-king in front, ace high behind: a foul
    rnd = p.s.round
    assert rnd is not None and rnd.hands[1].setting is None and 1 in rnd.pending()
    assert "goes back to the player to set again" in changes.message
    assert any("returned to the player to set again" in line for line in changes.log)
    p.key("H")
    assert rnd.hands[1].set_by is SetBy.HOUSE_WAY


def test_a_card_lost_on_the_line_leaves_a_hole_at_its_own_place():
    """docs/shoe-protocol.md: cards are placed by their number from the deal's first card,
    so a lost card leaves a hole and every later card lands where it was dealt."""
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                           randbelow=lambda _n: 1))
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25"})
    p.key("R")
    cards = stacked(p.s.table, 1, {1: STRONG})
    first = 500
    for i, c in enumerate(cards):
        if i == 3:
            continue  # card 4 of the deal never arrives
        changes = p.s.handle(CardRead(c, first + i, first))
        if i == 4:
            assert "The shoe lost card 4 of the deal (seat 1's hand)" in changes.message
    rnd = p.s.round
    assert rnd is not None and rnd.phase is Phase.DEALING  # the deal waits for the hole
    assert p.s.deal.stream[3] is None and p.s.deal.stream[4] is cards[4]
    assert p.key("E").message.startswith("the shoe lost 1 card(s) of this deal")
