"""The NO PLAY spot (seed 004, Cordova): "The bank seat is counted as 1, 8, and 15 and
action is counted clockwise. Each seat is counted, regardless of whether there is a bet. A
"NO PLAY" button follows the bank; no bet can be placed there, and the spot is not counted
for action."

The bank still counts 1, 8 and 15 with the spot skipped, so seven places are counted: the
spot is a place on the layout besides the seven hands, dealt no cards.
"""

from __future__ import annotations

import pytest

from app.core.banker import BankRotation
from app.core.cards import DECK
from app.core.round import Round, RoundError, RoundRules
from app.core.table import (
    DEALER,
    NO_PLAY,
    Action,
    ActionSource,
    DealMode,
    Direction,
    Table,
    TableError,
    position_name,
)

CORDOVA = Table(action_source=ActionSource.DICE, no_play=True)


def test_the_no_play_button_follows_the_bank_in_the_tables_direction() -> None:
    # "A "NO PLAY" button follows the bank"
    assert CORDOVA.no_play_between(DEALER) == (DEALER, 1)
    assert CORDOVA.no_play_between(3) == (3, 4)  # a player banker at seat 3
    ccw = Table(direction=Direction.COUNTERCLOCKWISE, no_play=True)
    assert ccw.no_play_between(DEALER) == (DEALER, 6)
    assert Table().no_play_between(DEALER) is None


def test_the_spot_is_not_counted_so_the_bank_is_still_1_8_and_15() -> None:
    # "The bank seat is counted as 1, 8, and 15 ... the spot is not counted for action."
    for total in (8, 15):
        assert CORDOVA.count(total, DEALER) == DEALER
        assert CORDOVA.count(total, 3) == 3
    # From a player banker at seat 3, the spot after seat 3 is skipped: 2 is seat 4.
    assert CORDOVA.count(2, 3) == 4
    # Dice 1+1+2 = 4 from the dealer's bank: dealer 1, seat 1 2, seat 2 3, seat 3 4.
    assert CORDOVA.count(Action.from_dice(1, 1, 2).number, DEALER) == 3


def test_the_spot_is_dealt_no_hand_and_is_not_a_position() -> None:
    # "Each seat is counted" and seven hands are dealt; the spot is not one of them.
    assert NO_PLAY not in CORDOVA.positions and len(CORDOVA.positions) == 7
    one_at_a_time = Table(deal_mode=DealMode.ONE_AT_A_TIME, no_play=True)
    assert [one_at_a_time.position_of_card(DEALER, i) for i in range(8)] == \
        [0, 1, 2, 3, 4, 5, 6, 0]
    with pytest.raises(TableError, match="NO PLAY spot follows the bank"):
        CORDOVA.verify_position(NO_PLAY)
    assert position_name(NO_PLAY) == "the NO PLAY spot"


def _round(rotation: BankRotation | None = None) -> Round:
    return Round(RoundRules(table=CORDOVA), rotation)


def test_no_bet_can_be_placed_on_the_spot() -> None:
    # "no bet can be placed there"
    game = _round()
    with pytest.raises(RoundError, match="no bet can be placed there"):
        game.place_wager(NO_PLAY, 1000)
    assert not game.can_place_wager(NO_PLAY, 1000)


def test_the_spot_cannot_take_the_bank() -> None:
    game = _round(BankRotation.resume(house_bets={1: 2500}))
    with pytest.raises(RoundError, match="NO PLAY spot"):
        game.take_bank(NO_PLAY, 100000)
    with pytest.raises(RoundError, match="NO PLAY spot"):
        game.pass_bank(NO_PLAY)


def test_the_spot_has_no_hand_to_play_as_a_dragon() -> None:
    game = _round()
    game.place_wager(2, 1000)
    game.set_action(Action.from_dice(1, 1, 1))
    game.deal_by_position({p: DECK[7 * p:7 * p + 7] for p in range(7)})
    with pytest.raises(RoundError, match="the NO PLAY spot's hand is not an unused hand"):
        game.take_dragon(2, 500, NO_PLAY)


def test_a_table_without_the_spot_says_so() -> None:
    with pytest.raises(RoundError, match="this table has no NO PLAY spot"):
        Round().place_wager(NO_PLAY, 1000)
