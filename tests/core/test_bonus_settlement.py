"""Golden rounds of the Fortune bonus and its envy (issue 26), written from the issue's words
before the code:

- the bonus is settled on the best hand among the seven cards, whatever the setting; a
  fouled hand still collects unless the house says otherwise;
- a seat whose bonus wager is at least $5 wins a fixed amount for every other player's hand
  of four of a kind or better; never for its own hand nor the dealer's; several qualifying
  hands pay several times; the player-banker's hand is a player's hand;
- a player-banker may bet the bonus; a dragon hand has no bonus unless the house allows it;
- the bonuses are paid before the envy, each in order from action;
- a bonus or envy payout at or above $1,000 (by default) waits for a supervisor."""

from __future__ import annotations

import pytest

from app.core.bonus import (
    BonusError,
    BonusHand,
    BonusLine,
    BonusRules,
    Category,
    EnvyLine,
    PayOrder,
    envy_card,
    pay_card,
    settle_bonuses,
)
from app.core.cards import parse_cards
from app.core.settlement import Role
from app.core.table import DEALER

FORTUNE = pay_card("fortune-8000")
ENVY = envy_card("envy-5000")

QUADS_7 = "7S 7H 7D 7C KD 2H 3S"
QUADS_9 = "9S 9H 9D 9C QD 4H 5S"
NOTHING_A = "AS KH JD 8C 6D 4C 2S"
NOTHING_B = "AH QC TD 8S 6C 3D 2C"
NOTHING_DEALER = "KS QH TS 8H 5D 4D 3C"
NO_ACE_1 = "KH QC TD 8S 6C 3D 2C"
NO_ACE_2 = "KC JD 9S 8C 6H 4S 3H"
NOTHING_DEALER_2 = "QD TH 9D 7S 5C 4H 2H"


def player(seat: int, cards: str, wager: int | None, *, fouled: bool = False) -> BonusHand:
    return BonusHand(position=seat, role=Role.PLAYER, cards=parse_cards(cards, 7), seat=seat,
                     wager=wager, fouled=fouled)


def house(cards: str) -> BonusHand:
    return BonusHand(position=DEALER, role=Role.BANK, cards=parse_cards(cards, 7), seat=None)


def settle(hands: list[BonusHand], rules: BonusRules | None = None):
    return settle_bonuses(hands, FORTUNE, ENVY, rules or BonusRules())


def test_envy_from_two_other_seats_four_of_a_kind_pays_each_qualifying_seat_twice():
    result = settle([player(3, NOTHING_A, 500), player(4, NOTHING_B, 400), house(NOTHING_DEALER),
                     player(1, QUADS_7, 500), player(2, QUADS_9, 500), ])
    seat3 = result.seat(3)
    assert [(e.from_position, e.category, e.amount) for e in seat3.envy] == [
        (1, Category.FOUR_OF_A_KIND, 500), (2, Category.FOUR_OF_A_KIND, 500)]
    assert seat3.bonus[0].amount == -500
    assert result.seat(4).envy == ()  # a $4 bonus is under the $5 the envy asks
    assert result.seat(4).bonus[0].amount == -400
    # Each four of a kind pays 25 to 1 to its own seat, and envy only for the other's.
    assert result.seat(1).bonus[0].amount == 25 * 500
    assert [(e.from_position, e.amount) for e in result.seat(1).envy] == [(2, 500)]
    assert [(e.from_position, e.amount) for e in result.seat(2).envy] == [(1, 500)]
    assert result.seat(1).net == 25 * 500 + 500


def test_a_seat_without_a_bonus_wager_has_no_bonus_and_no_envy():
    result = settle([player(5, NOTHING_A, None), player(1, QUADS_7, 500), house(NOTHING_DEALER)])
    assert result.seat(5).bonus == () and result.seat(5).envy == ()


def test_the_player_bankers_own_bonus_is_paid_and_its_hand_pays_envy_to_the_others():
    banker = BonusHand(position=2, role=Role.BANK, cards=parse_cards("AC KC QC JC TC 2H 9H"),
                       seat=2, wager=500)
    dealer = BonusHand(position=DEALER, role=Role.DEALER, cards=parse_cards(NOTHING_DEALER),
                       seat=None)
    result = settle([banker, player(3, NOTHING_A, 500), dealer])
    assert result.seat(2).bonus[0].category is Category.ROYAL_FLUSH
    assert result.seat(2).bonus[0].amount == 150 * 500
    assert [(e.from_position, e.category, e.amount) for e in result.seat(3).envy] == [
        (2, Category.ROYAL_FLUSH, 5_000)]
    assert result.seat(2).envy == ()


@pytest.mark.parametrize(("collects", "amount"), [(True, 5 * 1_000), (False, -1_000)])
def test_a_fouled_hands_bonus_collects_or_loses_as_the_house_says(collects, amount):
    full_house = "KS KH KD 2C 2D 5H 9S"
    result = settle([player(1, full_house, 1_000, fouled=True), house(NOTHING_DEALER_2)],
                    BonusRules(fouled_collects=collects))
    line = result.seat(1).bonus[0]
    assert line.category is Category.FULL_HOUSE
    assert line.amount == amount


def test_the_default_is_that_a_fouled_hand_still_collects():
    assert BonusRules().fouled_collects is True


def test_the_dealers_five_aces_pay_no_envy():
    result = settle([house("AS AH AD AC JK 2D 7C"), player(1, NO_ACE_1, 500),
                     player(2, NO_ACE_2, 2_500)])
    assert result.seat(1).envy == () and result.seat(2).envy == ()
    assert [line.amount for line in result.lines] == [-500, -2_500]


def test_a_payout_at_or_above_the_threshold_waits_for_a_supervisor():
    royal = "AS KS QS JS TS 2D 3C"
    result = settle([player(1, royal, 1_000), player(2, NO_ACE_2, 500),
                     house(NOTHING_DEALER_2)])
    bonus = result.seat(1).bonus[0]
    assert bonus.amount == 150_000 and bonus.supervisor  # $1,500 >= $1,000
    envy = result.seat(2).envy[0]
    assert envy.amount == 5_000 and not envy.supervisor
    assert result.waiting == (bonus,)
    assert settle([player(1, royal, 1_000)], BonusRules(supervisor_at=200_000)).waiting == ()


def test_an_envy_payout_at_the_threshold_waits_too():
    five_aces = "AS AH AD AC JK 2D 7C"  # $250 envy; at a $250 threshold it waits
    result = settle([player(1, five_aces, 500), player(2, NO_ACE_1, 500)],
                    BonusRules(supervisor_at=25_000))
    assert result.seat(2).envy[0].supervisor
    assert result.seat(1).bonus[0].supervisor  # 400 to 1 on $5 = $2,000


def test_the_bonuses_are_paid_first_then_the_envy_each_in_order_from_action():
    hands = [player(3, NOTHING_A, 500), player(1, QUADS_7, 500), player(2, QUADS_9, 500)]
    lines = settle(hands).lines
    kinds = [(type(x).__name__, x.seat) for x in lines]
    assert kinds == [("BonusLine", 3), ("BonusLine", 1), ("BonusLine", 2),
                     ("EnvyLine", 3), ("EnvyLine", 3), ("EnvyLine", 1), ("EnvyLine", 2)]
    envy_first = settle(hands, BonusRules(order=PayOrder.ENVY_THEN_BONUSES)).lines
    assert isinstance(envy_first[0], EnvyLine) and isinstance(envy_first[-1], BonusLine)


def test_a_dragon_hand_has_no_bonus_unless_the_house_allows_it():
    dragon = BonusHand(position=4, role=Role.DRAGON, cards=parse_cards(QUADS_9), seat=1,
                       wager=500)
    with pytest.raises(BonusError, match="dragon"):
        settle([player(1, NOTHING_A, 500), dragon])
    result = settle([player(1, NOTHING_A, 500), dragon], BonusRules(dragon_bonus=True))
    assert [line.amount for line in result.seat(1).bonus] == [-500, 25 * 500]


def test_a_dragon_hand_is_its_takers_own_hand_for_the_envy():
    dragon = BonusHand(position=4, role=Role.DRAGON, cards=parse_cards(QUADS_9), seat=1)
    result = settle([player(1, NOTHING_A, 500), player(2, NOTHING_B, 500), dragon])
    assert result.seat(1).envy == ()
    assert [(e.from_position, e.amount) for e in result.seat(2).envy] == [(4, 500)]


def test_a_bonus_on_the_dealers_hand_is_refused():
    dealer = BonusHand(position=DEALER, role=Role.BANK, cards=parse_cards(NOTHING_DEALER),
                       seat=None, wager=500)
    with pytest.raises(BonusError, match="dealer"):
        settle([dealer])


def test_a_wager_of_nothing_or_less_is_refused():
    with pytest.raises(BonusError, match="above"):
        settle([player(1, NOTHING_A, 0)])


def test_the_envy_qualifying_wager_is_the_cards():
    assert ENVY.qualifying == 500
