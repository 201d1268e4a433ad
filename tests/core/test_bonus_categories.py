"""The Fortune bonus's categories (issue 26), read from all seven cards whatever the setting:
from the top, natural seven-card straight flush; royal flush plus royal match; seven-card
straight flush with the joker; five aces; royal flush; straight flush; four of a kind; full
house; flush; three of a kind; straight; nothing. The joker plays as in the Pai Gow hand
(a bug: an ace, or completes a straight, flush or straight flush; or fully wild). Each hand
counts once, in its highest category.

Written from the issue's words before the code; the readings chosen where the words leave
room are in docs/bonus.md and beside each case here."""

from __future__ import annotations

import pytest

from app.core.bonus import Category, made, pay_card
from app.core.cards import parse_cards

C = Category


def fortune(text: str, joker: str = "bug") -> Category:
    return pay_card("fortune-8000").category(parse_cards(text, 7), joker)  # type: ignore[arg-type]


# --- each category from the top, and its edges ----------------------------------------------

@pytest.mark.parametrize("hand", ["8H 9H TH JH QH KH AH", "7C 8C 9C TC JC QC KC"])
def test_seven_suited_cards_in_a_row_without_the_joker_are_a_natural_seven_card_straight_flush(
        hand):
    assert fortune(hand) is C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH


def test_the_ace_plays_low_in_a_seven_card_straight_flush_from_ace_to_seven():
    # Reading: A-2-3-4-5-6-7 suited is the lowest seven-card straight flush (the posted
    # rules of Fortune Pai Gow: "7, 6, 5, 4, 3, 2, and ace is the lowest ranked").
    assert fortune("AS 2S 3S 4S 5S 6S 7S") is C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH


def test_a_royal_flush_beside_the_king_and_queen_of_another_suit_is_royal_flush_plus_royal_match():
    assert fortune("AH KH QH JH TH KS QS") is C.ROYAL_FLUSH_WITH_ROYAL_MATCH


def test_the_joker_may_complete_the_royal_flush_of_a_royal_match():
    assert fortune("AH KH QH JK TH KS QS") is C.ROYAL_FLUSH_WITH_ROYAL_MATCH


def test_a_king_and_queen_of_two_different_suits_are_no_royal_match():
    # Reading: the match is the K and Q of one suit, another suit than the royal's.
    assert fortune("AH KH QH JH TH KS QD") is C.ROYAL_FLUSH


def test_the_bug_cannot_be_the_king_or_queen_of_the_match_but_a_fully_wild_joker_can():
    # The bug is an ace or completes a straight or flush: a suited K-Q is neither (posted
    # rules: "the Joker cannot be used to complete the Low Hand of the Royal Match").
    assert fortune("AH KH QH JH TH KS JK") is C.ROYAL_FLUSH
    assert fortune("AH KH QH JH TH KS JK", "fully-wild") is C.ROYAL_FLUSH_WITH_ROYAL_MATCH


def test_six_suited_cards_and_the_joker_in_a_row_are_a_seven_card_straight_flush_with_joker():
    assert fortune("2D 3D 4D JK 6D 7D 8D") is C.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER
    assert fortune("JK 3D 4D 5D 6D 7D 8D") is C.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER


def test_a_six_card_straight_flush_with_the_joker_and_an_odd_card_is_only_a_straight_flush():
    assert fortune("2D 3D 4D 5D JK 7D 9C") is C.STRAIGHT_FLUSH


def test_four_aces_and_the_joker_are_five_aces():
    assert fortune("AS AH AD AC JK 2D 7C") is C.FIVE_ACES


def test_four_kings_and_the_joker_are_four_of_a_kind_with_the_bug_and_five_of_a_kind_fully_wild():
    # Reading: with a fully wild joker five of any rank is five of a kind, which the Pai Gow
    # hand ranks with five aces above every straight flush; the bonus pays it as five aces.
    assert fortune("KS KH KD KC JK 2D 7C") is C.FOUR_OF_A_KIND
    assert fortune("KS KH KD KC JK 2D 7C", "fully-wild") is C.FIVE_ACES


@pytest.mark.parametrize("hand", ["AS KS QS JS TS 2D 3C", "AS KS JK JS TS 2D 3C"])
def test_ace_to_ten_of_a_suit_natural_or_with_the_joker_is_a_royal_flush(hand):
    assert fortune(hand) is C.ROYAL_FLUSH


def test_a_royal_flush_in_a_seven_card_straight_flush_is_the_seven_card_straight_flush():
    assert fortune("AS KS QS JS TS 9S JK") is C.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER


@pytest.mark.parametrize("hand", ["9C TC JC QC KC 2D 2H", "AS 2S 3S 4S 5S KD KH",
                                  "JK 2S 3S 4S 5S KD KH"])
def test_five_suited_cards_in_a_row_wheel_included_are_a_straight_flush(hand):
    assert fortune(hand) is C.STRAIGHT_FLUSH


def test_four_of_a_rank_are_four_of_a_kind():
    assert fortune("7S 7H 7D 7C KD 2H 3S") is C.FOUR_OF_A_KIND


def test_three_aces_and_the_bug_are_four_of_a_kind():
    assert fortune("AS AH AD JK 3C 9D 2H") is C.FOUR_OF_A_KIND


def test_three_sevens_and_the_joker_are_three_of_a_kind_with_the_bug_and_four_fully_wild():
    assert fortune("7S 7H 7D JK 2C 9D KH") is C.THREE_OF_A_KIND
    assert fortune("7S 7H 7D JK 2C 9D KH", "fully-wild") is C.FOUR_OF_A_KIND


def test_three_and_two_of_a_rank_are_a_full_house_the_bug_an_ace():
    assert fortune("KS KH KD 2C 2D 5H 9S") is C.FULL_HOUSE
    assert fortune("AS AH JK 9C 9D 4H 2S") is C.FULL_HOUSE


def test_two_pairs_and_the_joker_are_a_full_house_only_when_it_is_fully_wild():
    assert fortune("KS KH 9C 9D JK 4H 2S") is C.NOTHING
    assert fortune("KS KH 9C 9D JK 4H 2S", "fully-wild") is C.FULL_HOUSE


@pytest.mark.parametrize("hand", ["2H 5H 9H JH KH 3C 3D", "2H 5H 9H JH JK 3C 3D"])
def test_five_cards_of_a_suit_the_joker_one_of_them_are_a_flush(hand):
    assert fortune(hand) is C.FLUSH


def test_three_of_a_kind_that_also_makes_a_straight_counts_as_three_of_a_kind():
    # The issue lists three of a kind above the straight, as the posted tables do ("for the
    # Fortune Bonus Pay Table, the Three-of-a-Kind pays higher than a Straight").
    assert made(parse_cards("5S 5H 5D 6C 7D 8H 9S")) >= {C.STRAIGHT, C.THREE_OF_A_KIND}
    assert fortune("5S 5H 5D 6C 7D 8H 9S") is C.THREE_OF_A_KIND


@pytest.mark.parametrize("hand", ["4C 5D 6H 7S 8C KD 2H", "AS 2D 3H 4C 5S 9D KH",
                                  "JK 2D 3H 4C 5S 9D KH", "TS JD QH KC JK 2S 7D"])
def test_five_ranks_in_a_row_wheel_and_joker_included_are_a_straight(hand):
    assert fortune(hand) is C.STRAIGHT


@pytest.mark.parametrize("hand", ["AS KD 9H 7C 5D 3S 2H", "AS AD KH KC 5D 3S 2H",
                                  "2S 2H 3S 3H 4S 4H 9D"])
def test_high_cards_a_pair_two_or_three_pairs_are_nothing_on_the_fortune_table(hand):
    assert fortune(hand) is C.NOTHING


def test_each_hand_counts_once_in_its_highest_category():
    cards = parse_cards("AS AH AD AC JK KD KH")  # five aces, four of a kind, full house, ...
    assert made(cards) >= {C.FIVE_ACES, C.FOUR_OF_A_KIND, C.FULL_HOUSE, C.THREE_OF_A_KIND}
    assert fortune("AS AH AD AC JK KD KH") is C.FIVE_ACES


# --- a card with other categories: a hand counts in the highest the card names --------------

def test_a_card_without_seven_card_categories_pays_a_seven_card_straight_flush_as_what_it_holds():
    mania = pay_card("pai-gow-mania-seven")
    assert mania.category(parse_cards("8H 9H TH JH QH KH AH")) is C.ROYAL_FLUSH
    assert mania.category(parse_cards("AS 2S 3S 4S 5S 6S 7S")) is C.STRAIGHT_FLUSH
    assert mania.category(parse_cards("AH KH QH JH TH KS QS")) is C.ROYAL_FLUSH


def test_three_pairs_push_on_the_table_that_names_them():
    card = pay_card("fortune-5000-push")
    cards = parse_cards("2S 2H 3S 3H 4S 4H 9D")
    assert card.category(cards) is C.THREE_PAIRS
    assert card.result(C.THREE_PAIRS, 1_000) == 0  # a push: the wager comes back
    assert card.category(parse_cards("2S 2H 3S 3H AS JK 9D")) is C.THREE_PAIRS  # A and bug
