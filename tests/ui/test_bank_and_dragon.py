"""The player banker and the dragon hand through the window, by keys (offscreen).

Each round is played again on the core alone and the slips must be the same.
"""

from __future__ import annotations

import random

from PySide6.QtCore import Qt

from app.core.banker import BankingRules
from app.core.cards import DECK, parse_cards
from app.core.round import (
    DragonOffer,
    DragonRules,
    DragonSetting,
    DragonWager,
    Phase,
    Round,
    RoundRules,
)
from app.core.settlement import Outcome, Role, money
from app.core.table import DEALER, Action
from app.ui.screenshots import BANK_RNG, BANK_SHOWCASE, SHOWCASE, stacked_deck

RNG = BANK_RNG  # randbelow(7) -> 5: action number 6
ROUND_1 = {1: "40", 2: "20", 3: "50", 5: "40"}
ROUND_2 = {1: "40", 2: "20", 5: "40"}


def first_deck() -> tuple:
    deck = list(DECK)
    random.Random(7).shuffle(deck)
    return tuple(deck)


def wagers(s, amounts) -> None:  # noqa: ANN001
    for seat, dollars in amounts.items():
        s.key(str(seat))
        s.key("W")
        s.type(dollars)
        s.key(Qt.Key.Key_Escape)


def house_way_all(s) -> None:  # noqa: ANN001
    rnd = s.session.round
    for position in rnd.pending():
        if rnd.can_set_hand(position):
            s.key("7" if position == DEALER else str(position))
            s.key("H")


def cents(amounts) -> dict[int, int]:  # noqa: ANN001
    return {seat: int(dollars) * 100 for seat, dollars in amounts.items()}


def test_a_player_banker_round_with_a_bank_that_runs_out(make_station):
    second = stacked_deck(BANK_SHOWCASE, 1)  # action falls on seat 1, counted from seat 3
    s = make_station(decks=[first_deck(), second], rng=RNG)
    b = s.window.panel.buttons

    # Round 1: the dealer banks the first round; no bank is offered.
    s.key("N")
    assert s.session.bank_offered() is None
    assert not b["bank"].isEnabled()
    assert b["bank"].toolTip() == "Not now: the dealer banks the first round"
    assert s.window.felt.center.bank.text() == "Bank: the dealer"
    wagers(s, ROUND_1)
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()  # the dragon: seats 4 and 6 are unused
    house_way_all(s)
    s.key("S")
    first = s.session.round
    assert first.phase is Phase.SETTLED

    # Round 2: the bank is offered from seat 1, each seat accepting or passing.
    s.key("N")
    rnd = s.session.round
    assert s.session.bank_offered() == 1
    assert s.seat(1).role_badge.text() == "BANK OFFER"
    assert s.seat(1).note.text() == ("Bank offered: B takes it with chips covering every "
                                     "wager against it; Q passes")
    assert "wagered $40.00 against the dealer in the last round" in s.seat(1).note.toolTip()
    assert s.seat(4).note.text() == ("Bank: may not bank - placed no wager against the dealer "
                                     "in the last round with no player banker")
    assert s.seat(3).note.text().startswith("Bank: may bank - wagered $50.00")
    assert s.window.felt.center.bank.text() == "Bank: offered to seat 1"
    assert not b["rng"].isEnabled()
    assert b["rng"].toolTip() == ("Not now: the bank is offered to seat 1: B and the chips to "
                                  "take it, or Q to pass, before action")
    assert not b["co_bank"].isEnabled() and "does not co-bank" in b["co_bank"].toolTip()
    s.key("Q")
    assert s.session.bank_offered() == 2 and s.seat(1).note.text() == "Passed the bank"
    s.key("Q")
    assert s.session.bank_offered() == 3
    s.key("B")
    assert s.session.keyboard.entry.field.name == "bank"  # open; the keyboard stays on the table
    assert s.window.focusWidget() is s.window.felt
    s.type("100")
    assert rnd.bank.player == 3 and rnd.bank.stake == 10000
    assert s.seat(3).role_badge.text() == "BANK $100.00"
    assert s.seat(3).wager.text() == ""
    assert s.seat(0).role_badge.text() == "VS THE BANK"
    assert s.seat(0).wager.text() == "$50.00"  # what seat 3 last bet against the house
    assert s.window.felt.center.bank.text() == "Bank: seat 3 - $100.00 in chips"
    assert not b["bank"].isEnabled()

    # Wagers against the player bank: it must cover every one of them.
    wagers(s, ROUND_2)
    s.key("6")
    s.key("W")
    s.type("5")
    assert s.message == "the bank of seat 3 ($100.00) cannot cover $5.00 more: it covers " \
                        "$0.00 more"
    s.key(Qt.Key.Key_Escape)
    s.key("3")
    s.key("W")
    assert s.message == "seat 3 is the banker: a banker does not wager against the bank"
    assert rnd.wagers == cents(ROUND_2)

    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert rnd.action.bank == 3 and rnd.action.position == 1
    # The bank covers nothing more: no dragon is offered (issue 25: it was offered "up to
    # $40.00", then refused), and G says why.
    assert s.session.dragon_offered() is None
    s.key("G")
    assert s.message.startswith("the bank of seat 3 covers $0.00 more, less than a dragon's "
                                "least wager of $5.00: no dragon is offered")
    s.key(Qt.Key.Key_Escape)
    assert s.seat(4).role_badge.text() == "NO WAGER - mucked"
    assert s.seat(6).role_badge.text() == "NO WAGER - mucked"

    # The banker's hand is the player's to set; the dealer's hand waits, face down.
    assert not any(cw.face_down for cw in s.seat(3).cards)
    assert all(cw.face_down for cw in s.seat(0).cards)
    assert s.seat(3).role_badge.text() == "BANK $100.00"
    house_way_all(s)
    assert not any(cw.face_down for cw in s.seat(0).cards)
    s.key("S")
    slip = rnd.slip

    # The same two rounds on the core alone.
    deck1, deck2 = first_deck(), second
    core1 = Round(RoundRules())
    for seat, c in cents(ROUND_1).items():
        core1.place_wager(seat, c)
    core1.set_action(Action.draw(lambda n: RNG))
    core1.deal_stacks([deck1[i:i + 7] for i in range(0, 49, 7)], deck1[49:])
    for seat in core1.dragon_order():
        core1.pass_dragon(seat)
    for p in (1, 2, 3, 5):
        core1.house_way(p)
    core1.settle()
    core2 = Round(RoundRules(), core1.next_rotation())
    core2.pass_bank(1)
    core2.pass_bank(2)
    core2.take_bank(3, 10000)
    for seat, c in cents(ROUND_2).items():
        core2.place_wager(seat, c)
    core2.set_action(Action.draw(lambda n: RNG))
    core2.deal_stacks([deck2[i:i + 7] for i in range(0, 49, 7)], deck2[49:])
    for p in (1, 2, 3, 5):
        core2.house_way(p)
    expected = core2.settle()
    assert slip.to_dict() == expected.to_dict()

    # The bank ran out: the dealer's hand first, then seat 1 in full, seat 2 in part, seat 5
    # returned.
    bank = slip.bank
    assert bank.player == 3 and bank.exhausted and bank.net == -10000
    assert slip.line(DEALER).role is Role.DEALER and slip.line(DEALER).order == 1
    assert slip.line(2).win == 1000 and slip.line(5).outcome is Outcome.RETURNED
    table = s.window.panel.slip.table
    rows = {table.item(r, 1).text(): [table.item(r, c).text() for c in range(6)]
            for r in range(table.rowCount())}
    assert rows["seat 1"][2:] == ["WIN", "$40.00", "$2.00", "+$38.00"]
    assert rows["seat 2"][2:] == ["WIN*", "$20.00", "$0.50", "+$9.50"]
    assert rows["seat 5"][2:] == ["RETURNED", "$40.00", "", "$0.00"]
    assert rows["seat 3 (bank)"][2:] == ["BANK", "", "", "-$100.00"]
    assert rows["dealer (vs the bank)"][1:3] == ["dealer (vs the bank)", "WIN"]
    # One number for one place: the slip's "#" is the felt's badge, though the dealer's
    # hand was settled first (issue 25); its row says so.
    names = {"seat 1": 1, "seat 2": 2, "seat 3 (bank)": 3, "seat 5": 5,
             "dealer (vs the bank)": DEALER}
    for name, position in names.items():
        assert "#" + rows[name][0] == s.seat(position).order_badge.text(), name
    dealer_row = next(r for r in range(table.rowCount())
                      if table.item(r, 1).text() == "dealer (vs the bank)")
    assert rows["dealer (vs the bank)"][0] != "1"
    assert "settled first" in table.item(dealer_row, 2).toolTip()
    totals = s.window.panel.slip.totals.text()
    assert ("Banker seat 3 (the dealer's hand settled first): bank $100.00, collected $0.00, "
            "paid $100.00, commission $0.00, net -$100.00") in totals
    assert "* The bank ran out: seat 2 paid $10.00 of $20.00; seat 5's wager returned" in totals
    assert f"Players net {money(expected.totals.players_net, sign=True)}" in totals
    assert s.seat(3).result.text() == "BANK -$100.00 - ran out"
    assert s.seat(2).result.text() == "WIN +$9.50 - bank ran out"
    assert s.seat(5).result.text() == "RETURNED - the bank ran out"
    assert "Banker seat 3 nets -$100.00 - the bank ran out." in s.message


def test_seats_that_may_not_bank_are_passed_over_with_the_reason(make_station):
    s = make_station(rng=RNG, deck=first_deck())
    s.key("N")
    wagers(s, {5: "25"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    house_way_all(s)
    s.key("S")
    s.key("N")
    # Only seat 5 wagered against the dealer: seats 1-4 are passed over, with the reason.
    assert s.session.bank_offered() == 5
    log = "\n".join(s.session.log)
    assert ("Seat 1 passes the bank (passed over: placed no wager against the dealer in the "
            "last round with no player banker)") in log
    assert s.seat(2).note.text().startswith("Passed the bank - may not bank: placed no wager")
    s.everyone_passes()
    assert s.session.bank_offered() is None
    assert s.message.startswith("Seat 5 passes the bank: it has come round to the dealer")
    wagers(s, {5: "25"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert s.session.round.banker == DEALER


def test_co_banking_when_the_table_allows_it(make_station):
    rules = RoundRules(banking=BankingRules(co_banking=True))
    s = make_station(rules=rules, deck=first_deck())
    s.key("N")
    wagers(s, {1: "25", 2: "10"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    house_way_all(s)
    s.key("S")
    s.key("N")
    assert s.session.bank_offered() == 1
    s.key("K")
    assert s.window.panel.buttons["co_bank"].isChecked()
    assert s.window.panel.buttons["co_bank"].text() == "Co-bank: ON  [K]"
    s.key("B")
    s.type("20")
    rnd = s.session.round
    assert rnd.bank.co_bank and rnd.bank.player == 1 and rnd.bank.dealer_wager == 0
    assert s.seat(1).role_badge.text() == "CO-BANK $20.00"
    assert s.seat(0).role_badge.text() == ""  # no dealer's hand against a co-bank
    # Half covered by the house: $20 of chips cover $40 of wagers.
    wagers(s, {2: "40"})
    assert rnd.wagers == {2: 4000}


def test_a_dragon_round_the_unused_hand_played_by_a_seat(make_station):
    s = make_station()  # SHOWCASE: action on seat 3
    s.key("N")
    wagers(s, {1: "25", 3: "50", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    rnd = s.session.round
    # Unused: seats 4, 6 and 2. The dragon is offered from action: seat 3, then 5, then 1.
    assert rnd.dragon_hands() == (4, 6, 2)
    assert s.session.dragon_offered() == 3
    assert s.seat(3).note.text() == "Dragon offered (seat 4's hand): G takes it, Q passes"
    assert s.seat(4).role_badge.text() == "DRAGON HAND"
    assert all(cw.face_down for cw in s.seat(4).cards)  # the dragon is taken unseen
    b = s.window.panel.buttons
    assert not b["house_way"].isEnabled()
    assert b["house_way"].toolTip() == ("Not now: the dragon is offered to seat 3: G and the "
                                        "wager to take it, or Q to pass, before the hands are "
                                        "set")
    s.key("H")
    assert rnd.hands[3].setting is None
    s.key("Q")
    assert s.session.dragon_offered() == 5
    assert s.seat(3).note.text() == "Passed the dragon"
    s.key("G")
    field = s.window.panel.fields["dragon"]
    assert field.text() == "100.00"
    s.type("150")
    assert s.message == "the dragon's wager is at most seat 5's main wager of $100.00, not " \
                        "$150.00"
    assert field.text() == ""  # Enter closed the field: G opens it again
    s.key("G")
    s.type("40")
    assert rnd.dragons == {4: (5, 4000)}
    assert s.session.dragon_offered() is None  # one dragon a round at this table
    assert s.seat(4).role_badge.text() == "DRAGON seat 5"
    assert s.seat(4).wager.text() == "$40.00"
    assert not any(cw.face_down for cw in s.seat(4).cards)
    assert s.seat(6).role_badge.text() == "NO WAGER - mucked" and s.seat(6).state.mucked
    assert s.seat(2).role_badge.text() == "NO WAGER - mucked"
    # The dragon is set the House Way: its cards cannot be picked for a front.
    assert not s.seat(4).state.clickable
    assert "Seat 5 takes seat 4's hand as a dragon for $40.00" in s.message
    for seat in (3, 5, 1):
        s.key(str(seat))
        s.key("H")
    assert b["settle"].isEnabled()
    s.key("S")

    core = Round(RoundRules())
    for seat, c in {1: 2500, 3: 5000, 5: 10000}.items():
        core.place_wager(seat, c)
    core.set_action(Action.draw(lambda n: 3))
    deck = stacked_deck(SHOWCASE, 3)
    core.deal_stacks([deck[i:i + 7] for i in range(0, 49, 7)], deck[49:])
    core.pass_dragon(3)
    core.take_dragon(5, 4000)
    for seat in (3, 5, 1):
        core.house_way(seat)
    expected = core.settle()
    slip = rnd.slip
    assert slip.to_dict() == expected.to_dict()
    dragon = slip.line(4)
    assert dragon.role is Role.DRAGON and dragon.player == 5 and dragon.set_by.value == \
        "house-way"
    assert slip.line(6).role is Role.MUCKED and slip.line(2).role is Role.MUCKED
    table = s.window.panel.slip.table
    names = [table.item(r, 1).text() for r in range(table.rowCount())]
    assert "seat 4 (dragon, seat 5)" in names
    assert s.seat(4).result.text().split()[0] == dragon.outcome.value.upper()


def test_a_dragon_the_player_sets_with_its_wager_equal_to_the_main(make_station):
    rules = RoundRules(dragon=DragonRules(wager=DragonWager.EQUAL,
                                          setting=DragonSetting.PLAYER,
                                          offer=DragonOffer.FROM_ACTION))
    s = make_station(rules=rules)
    s.key("N")
    wagers(s, {1: "25", 2: "10", 3: "50", 5: "100", 6: "15"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert s.session.dragon_offered() == 3
    assert "its wager is the main wager, $50.00" in s.message
    s.key("G")
    s.type("20")  # typing replaces the wager filled in
    assert s.message == "the dragon's wager equals the main wager here: $50.00, not $20.00"
    s.key("G")
    s.type("50")
    rnd = s.session.round
    assert rnd.dragons == {4: (3, 5000)}
    # The player sets the dragon: the dealer clicks its two front cards.
    s.click_card(4, "4C")
    s.click_card(4, "6S")
    s.key("F")
    assert set(rnd.hands[4].setting.low) == set(parse_cards("4C 6S"))
    assert s.seat(4).note.text() == "Set by the player: the dealer entered the front"
