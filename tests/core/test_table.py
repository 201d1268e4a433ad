"""The table: action from the RNG or three dice, the order of the deal, deck integrity."""

from __future__ import annotations

import random

import pytest

from app.core.cards import DECK, JOKER, card, cards_text, parse_cards
from app.core.table import (
    DEALER,
    Action,
    ActionSource,
    DealMode,
    Direction,
    Misdeal,
    Place,
    Table,
    TableError,
    deal_by_position,
    deal_one_at_a_time,
    deal_stacks,
    holes_in,
    place_of_seq,
)

CLOCKWISE = Table()
COUNTERCLOCKWISE = Table(direction=Direction.COUNTERCLOCKWISE)

# Every count a table can see (RNG 1-7, dice 3-18), written out as a dealer counts round
# the table: the bank's position is 1, 8 and 15, and every position counts.
FROM_DEALER_CLOCKWISE = {
    1: DEALER, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6,
    8: DEALER, 9: 1, 10: 2, 11: 3, 12: 4, 13: 5, 14: 6,
    15: DEALER, 16: 1, 17: 2, 18: 3,
}
FROM_DEALER_COUNTERCLOCKWISE = {
    1: DEALER, 2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 1,
    8: DEALER, 9: 6, 10: 5, 11: 4, 12: 3, 13: 2, 14: 1,
    15: DEALER, 16: 6, 17: 5, 18: 4,
}
FROM_SEAT_3_CLOCKWISE = {
    1: 3, 2: 4, 3: 5, 4: 6, 5: DEALER, 6: 1, 7: 2,
    8: 3, 9: 4, 10: 5, 11: 6, 12: DEALER, 13: 1, 14: 2,
    15: 3, 16: 4, 17: 5, 18: 6,
}


@pytest.mark.parametrize("number,position", sorted(FROM_DEALER_CLOCKWISE.items()))
def test_action_counts_the_bank_as_1_8_15_clockwise(number: int, position: int) -> None:
    assert CLOCKWISE.count(number, bank=DEALER) == position


@pytest.mark.parametrize("number,position", sorted(FROM_DEALER_COUNTERCLOCKWISE.items()))
def test_action_counts_counterclockwise_when_configured(number: int, position: int) -> None:
    assert COUNTERCLOCKWISE.count(number, bank=DEALER) == position


@pytest.mark.parametrize("number,position", sorted(FROM_SEAT_3_CLOCKWISE.items()))
def test_action_counts_from_a_player_bankers_seat(number: int, position: int) -> None:
    assert CLOCKWISE.count(number, bank=3) == position


def test_every_position_counts_wager_or_not() -> None:
    # The count never skips a position: seven consecutive counts visit all seven once.
    for bank in CLOCKWISE.positions:
        assert sorted(CLOCKWISE.count(n, bank) for n in range(1, 8)) == list(range(7))


@pytest.mark.parametrize("dice", [(1, 1, 1), (6, 6, 6), (2, 5, 4), (3, 3, 6)])
def test_three_dice_count_their_total(dice: tuple[int, int, int]) -> None:
    action = Action.from_dice(*dice)
    assert action.number == sum(dice)
    assert action.source is ActionSource.DICE
    assert action.dice == dice
    assert 3 <= action.number <= 18


@pytest.mark.parametrize("dice", [(0, 3, 4), (7, 1, 1), (1, 2), (1, 2, 3, 4)])
def test_a_die_is_1_to_6_and_there_are_three(dice: tuple[int, ...]) -> None:
    with pytest.raises(TableError, match="die|three dice"):
        Action.from_dice(*dice)


@pytest.mark.parametrize("number", [0, 8, -1, 18])
def test_the_rng_number_is_1_to_7(number: int) -> None:
    with pytest.raises(TableError, match="1 to 7"):
        Action.from_rng(number)


def test_the_station_draws_action_with_secrets_and_records_it() -> None:
    asked: list[int] = []

    def fake_randbelow(n: int) -> int:
        asked.append(n)
        return 6

    action = Action.draw(fake_randbelow)
    assert asked == [7]
    assert action.number == 7 and action.drawn_by == "secrets"
    assert action.source is ActionSource.RNG
    drawn = {Action.draw().number for _ in range(400)}  # the real secrets.randbelow
    assert drawn == set(range(1, 8))


def test_the_first_hand_dealt_goes_to_action_then_on_in_the_same_direction() -> None:
    assert CLOCKWISE.around(5) == (5, 6, DEALER, 1, 2, 3, 4)
    assert COUNTERCLOCKWISE.around(5) == (5, 4, 3, 2, 1, DEALER, 6)


def test_a_table_is_the_bank_and_six_seats() -> None:
    with pytest.raises(TableError, match="6 seats"):
        Table(seats=5)


def _shuffled(seed: int) -> list:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck


def test_seven_stacks_go_round_from_action_and_four_cards_are_left_over() -> None:
    deck = _shuffled(1)
    stacks = [deck[i * 7:(i + 1) * 7] for i in range(7)]
    deal = deal_stacks(CLOCKWISE, 4, stacks, deck[49:])
    assert deal.order == (4, 5, 6, DEALER, 1, 2, 3)
    assert deal.hand(4) == tuple(stacks[0])
    assert deal.hand(DEALER) == tuple(stacks[3])
    assert deal.leftovers == tuple(deck[49:]) and deal.leftovers_counted


def test_one_card_at_a_time_goes_round_the_table_from_action() -> None:
    deck = _shuffled(2)
    deal = deal_one_at_a_time(COUNTERCLOCKWISE, 2, deck)
    assert deal.order == (2, 1, DEALER, 6, 5, 4, 3)
    assert deal.hand(2) == tuple(deck[0:49:7])  # cards 1, 8, 15, ... of the shoe
    assert deal.hand(1) == tuple(deck[1:49:7])
    assert deal.hand(3) == tuple(deck[6:49:7])
    assert deal.leftovers == tuple(deck[49:])


def test_leftovers_not_read_are_worked_out_and_marked_so() -> None:
    deck = _shuffled(3)
    deal = deal_one_at_a_time(CLOCKWISE, 1, deck[:49])
    assert not deal.leftovers_counted
    assert set(deal.leftovers) == set(deck[49:])


def test_a_duplicate_card_is_a_misdeal_that_names_it() -> None:
    deck = _shuffled(4)
    stacks = [deck[i * 7:(i + 1) * 7] for i in range(7)]
    lost = stacks[6][0]
    stacks[6][0] = stacks[0][0]
    with pytest.raises(Misdeal) as err:
        deal_stacks(CLOCKWISE, DEALER, stacks, deck[49:])
    assert f"{stacks[0][0]} is dealt twice, to dealer and to seat 6" in err.value.problems
    assert f"the deck is missing {lost}" in err.value.problems
    assert "wagers stand" in str(err.value)


def test_a_second_joker_is_a_misdeal() -> None:
    deck = [c for c in _shuffled(5) if c is not JOKER]
    hands = {p: deck[p * 7:(p + 1) * 7] for p in range(7)}
    hands[3][2] = JOKER
    leftovers = [JOKER, *deck[49:52]]
    with pytest.raises(Misdeal, match="JK is dealt to seat 3 and also left over"):
        deal_by_position(CLOCKWISE, 1, hands, leftovers)


def test_a_short_hand_is_a_misdeal() -> None:
    deck = _shuffled(6)
    stacks = [deck[i * 7:(i + 1) * 7] for i in range(7)]
    stacks[2] = stacks[2][:6]
    with pytest.raises(Misdeal, match="seat 2 has a short hand: 6 cards, not 7"):
        deal_stacks(CLOCKWISE, DEALER, stacks)


def test_a_missing_card_is_a_misdeal_when_the_leftovers_are_counted() -> None:
    deck = _shuffled(7)
    stacks = [deck[i * 7:(i + 1) * 7] for i in range(7)]
    with pytest.raises(Misdeal) as err:
        deal_stacks(CLOCKWISE, DEALER, stacks, deck[49:52])
    assert "3 cards are left over, not 4" in err.value.problems
    assert f"the deck is missing {deck[52]}" in err.value.problems


def test_a_shoe_that_stops_short_is_a_misdeal() -> None:
    deck = _shuffled(8)
    with pytest.raises(Misdeal, match="short hand"):
        deal_one_at_a_time(CLOCKWISE, DEALER, deck[:45])
    with pytest.raises(Misdeal, match="2 cards are left over"):
        deal_one_at_a_time(CLOCKWISE, DEALER, deck[:51])


def test_six_stacks_is_a_misdeal() -> None:
    deck = _shuffled(9)
    stacks = [deck[i * 7:(i + 1) * 7] for i in range(6)]
    with pytest.raises(Misdeal, match="6 hands were dealt, not 7"):
        deal_stacks(CLOCKWISE, DEALER, stacks)


def test_a_hand_missing_by_position_is_a_misdeal() -> None:
    deck = _shuffled(10)
    hands = {p: deck[p * 7:(p + 1) * 7] for p in range(6)}
    with pytest.raises(Misdeal, match="no hand was entered for seat 6"):
        deal_by_position(CLOCKWISE, DEALER, hands)


def test_the_whole_deck_deals_cleanly() -> None:
    deck = _shuffled(11)
    deal = deal_one_at_a_time(CLOCKWISE, 6, deck)
    seen = [c for h in deal.hands for c in h] + list(deal.leftovers)
    assert sorted(c.index for c in seen) == list(range(53))
    assert cards_text(parse_cards(cards_text(deal.leftovers))) == cards_text(deal.leftovers)
    assert card("JK") in seen


# --- where each card read goes, the moment it is read -------------------------------------

STACKS_CCW = Table(direction=Direction.COUNTERCLOCKWISE, deal_mode=DealMode.STACKS)
ONE_BY_ONE = Table(deal_mode=DealMode.ONE_AT_A_TIME)
ONE_BY_ONE_CCW = Table(direction=Direction.COUNTERCLOCKWISE, deal_mode=DealMode.ONE_AT_A_TIME)


def test_in_stacks_the_first_seven_cards_read_go_to_action_then_seven_to_each_next() -> None:
    assert [CLOCKWISE.position_of_card(5, i) for i in range(0, 49, 7)] == [
        5, 6, DEALER, 1, 2, 3, 4]
    assert {CLOCKWISE.position_of_card(5, i) for i in range(7)} == {5}
    assert CLOCKWISE.position_of_card(5, 7) == 6
    assert STACKS_CCW.position_of_card(5, 7) == 4


def test_one_at_a_time_each_card_read_goes_to_the_next_position_from_action() -> None:
    assert [ONE_BY_ONE.position_of_card(2, i) for i in range(8)] == [
        2, 3, 4, 5, 6, DEALER, 1, 2]
    assert [ONE_BY_ONE_CCW.position_of_card(2, i) for i in range(8)] == [
        2, 1, DEALER, 6, 5, 4, 3, 2]


@pytest.mark.parametrize("table", [CLOCKWISE, STACKS_CCW, ONE_BY_ONE, ONE_BY_ONE_CCW],
                         ids=["stacks", "stacks-ccw", "one-at-a-time", "one-at-a-time-ccw"])
@pytest.mark.parametrize("action", range(7))
def test_each_card_read_lands_where_the_whole_deal_puts_it(table: Table, action: int) -> None:
    deck = _shuffled(100 + action)
    if table.deal_mode is DealMode.STACKS:
        deal = deal_stacks(table, action, [deck[i:i + 7] for i in range(0, 49, 7)], deck[49:])
    else:
        deal = deal_one_at_a_time(table, action, deck)
    placed: dict[int, list] = {}
    for i, c in enumerate(deck):
        position = table.position_of_card(action, i)
        if position is None:
            assert c in deal.leftovers
        else:
            placed.setdefault(position, []).append(c)
    assert {p: tuple(cs) for p, cs in placed.items()} == deal.by_position()


def test_the_four_cards_after_the_deal_are_left_over_and_there_is_no_card_54() -> None:
    assert [CLOCKWISE.position_of_card(0, i) for i in range(49, 53)] == [None] * 4
    with pytest.raises(TableError, match="the deck has 53 cards"):
        CLOCKWISE.position_of_card(0, 53)
    with pytest.raises(TableError, match="the deck has 53 cards"):
        CLOCKWISE.position_of_card(0, -1)
    with pytest.raises(TableError, match="position 9 is not at this table"):
        CLOCKWISE.position_of_card(9, 0)


# --- a card placed by the shoe's number, so a lost card leaves a hole -----------------------


def test_a_card_is_placed_by_its_number_from_the_deals_first_card_not_by_how_many_came() -> None:
    # Deal's first card numbered 10, action seat 2, one at a time clockwise: card 12 is the
    # third dealt and goes to seat 4, whether or not card 11 arrived.
    assert place_of_seq(ONE_BY_ONE, 2, 10, 12) == Place(2, 4)
    assert place_of_seq(ONE_BY_ONE_CCW, 2, 10, 12) == Place(2, DEALER)
    assert place_of_seq(CLOCKWISE, 2, 10, 17) == Place(7, 3)       # stacks: 8th card, 2nd stack
    assert place_of_seq(ONE_BY_ONE, 2, 10, 10 + 49) == Place(49, None)   # a leftover


def test_the_shoes_count_starting_again_at_one_does_not_move_a_card() -> None:
    assert place_of_seq(ONE_BY_ONE, 0, 99998, 2, wrap=99999) == Place(3, 3)


def test_a_number_before_the_deals_first_card_or_past_the_deck_is_refused() -> None:
    with pytest.raises(TableError, match="earlier deal"):
        place_of_seq(ONE_BY_ONE, 0, 10, 9)
    with pytest.raises(TableError, match="53 cards"):
        place_of_seq(ONE_BY_ONE, 0, 10, 10 + 53)


def test_the_holes_are_the_places_before_the_last_card_read_that_have_no_card() -> None:
    assert holes_in([0, 1, 3, 4, 7]) == (2, 5, 6)
    assert holes_in([0, 1, 2]) == ()
    assert holes_in([]) == ()
