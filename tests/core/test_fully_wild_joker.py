"""Seed 004's fully wild joker: how hands rank with it, its copy rule in both joker modes,
and how the `fully-wild` House Way reads a hand.

Seed 004: "At Cordova Restaurant Casino, the Joker is FULLY WILD and can be played in place
of any card." "In Joker's Wild, the Joker can be used as ANY card. In Non-Joker's Wild a
Joker can be used to complete a flush or straight, or as an Ace."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.cards import DECK, Card, parse_cards
from app.core.hands import (
    Category,
    HandRules,
    Setting,
    category_of,
    describe,
    foul_reason,
    rank2,
    rank5,
    ranker,
)
from app.core.house_way import WAYS, hand_rules_for, house_way, set_house_way
from app.core.house_way.fully_wild import WildFacts
from app.core.settlement import Hand, Outcome, Role, SetBy, Versus, compare

WILD = HandRules(joker="fully-wild")
BUG = HandRules(joker="bug")
BOTH = pytest.mark.parametrize("rules", [BUG, WILD], ids=["bug", "fully-wild"])


def r5(text: str, rules: HandRules = WILD) -> int:
    return rank5(parse_cards(text, count=5), rules)


def r2(text: str, rules: HandRules = WILD) -> int:
    return rank2(parse_cards(text, count=2), rules)


# --- ranking with a fully wild joker ----------------------------------------------------------

def test_fully_wild_joker_makes_five_of_a_kind_of_any_rank() -> None:
    # "the Joker is FULLY WILD and can be played in place of any card": four of a rank and
    # the joker are five of a kind, whatever the rank.
    for rank in "23456789TJQKA":
        hand = f"{rank}S {rank}H {rank}D {rank}C JK"
        assert category_of(r5(hand)) is Category.FIVE_OF_A_KIND, hand
    assert describe(r5("KS KH KD KC JK")) == "five Kings"


def test_five_of_a_kind_ranks_above_a_royal_flush_and_by_its_rank() -> None:
    # Seed 000 puts "Five of a kind" above "Royal Flush"; with the joker any card, five of
    # a kind of any rank is that hand: five 2s beat a royal flush, five aces beat five kings.
    assert r5("2S 2H 2D 2C JK") > r5("AS KS QS JS TS")
    assert r5("AS AH AD AC JK") > r5("KS KH KD KC JK") > r5("2S 2H 2D 2C JK")


def test_under_the_bug_only_aces_make_five_of_a_kind() -> None:
    # "In Non-Joker's Wild a Joker can be used to complete a flush or straight, or as an Ace."
    assert category_of(r5("KS KH KD KC JK", BUG)) is Category.QUADS  # four kings, ace kicker
    assert category_of(r5("AS AH AD AC JK", BUG)) is Category.FIVE_OF_A_KIND


def test_fully_wild_joker_completes_the_best_five_card_hand() -> None:
    # "can be used as ANY card": the joker is whichever card makes the hand best.
    assert category_of(r5("JK 9H 8H 7H 6H")) is Category.STRAIGHT_FLUSH
    assert r5("JK KH 9H 7H 4H") == r5("AH KH 9H 7H 4H")  # a flush: the ace it lacks
    assert category_of(r5("JK 7S 7D 4C 2H")) is Category.TRIPS  # a bug is an ace here
    assert category_of(r5("JK 7S 7D 4C 2H", BUG)) is Category.PAIR
    assert r5("JK KS 9D 5C 2H") == r5("KH KS 9D 5C 2H")  # pairs the highest card


def test_fully_wild_joker_in_the_two_card_hand_pairs_the_other_card() -> None:
    # "One pair is the best possible two-card hand": the joker and any card are a pair of
    # that card; under the bug the joker is an ace.
    assert r2("JK 7D") == r2("7S 7D")
    assert r2("JK AD") == r2("AS AD")
    assert r2("JK 2D") > r2("AS KD")
    assert r2("JK 7D", BUG) == r2("AS 7D")


def test_a_joker_pair_in_front_of_a_lower_pair_is_a_foul_only_when_fully_wild() -> None:
    # Seed 004: "A hand set with the two-card hand stronger than the five-card hand is a
    # 'foul hand'": JK 9D in front is a pair of nines under the fully wild joker.
    setting = Setting.of(parse_cards("JK 9D"), parse_cards("8S 8H KC 5D 2S"))
    assert foul_reason(setting, rules=WILD) is not None
    assert foul_reason(setting, rules=BUG) is None  # A-9 in front of a pair of eights


# --- seed 004's copy rule in both joker modes ------------------------------------------------

BANK_FRONT = "QS JD"


def _versus(back: str, bank_back: str, rules: HandRules,
            front: str = "KS 2C", bank_front: str = BANK_FRONT) -> tuple[Versus, Outcome]:
    lo, hi = parse_cards(front), parse_cards(back)
    hand = Hand(1, Role.PLAYER, lo + hi, 1, 1000, Setting.of(lo, hi), SetBy.PLAYER)
    bank = Setting.of(parse_cards(bank_front), parse_cards(bank_back))
    c = compare(hand, bank, rules)
    assert c.back is not None
    return c.back, c.outcome


@BOTH
def test_copy_lose_in_the_back_hand_needs_all_five_cards_to_copy(rules: HandRules) -> None:
    # Seed 004: "In order for a copy-lose to apply in the back-hand all FIVE cards must
    # copy." The joker here is an ace in both modes: a pair of aces, K-9-5.
    assert _versus("JK AS KD 9C 5H", "AH AC KS 9D 5D", rules) == (Versus.COPY, Outcome.PUSH)
    assert _versus("AD AS KD 9C 5H", "AH AC KS 9D 5D", rules) == (Versus.COPY, Outcome.PUSH)


@BOTH
def test_when_only_part_of_the_back_hand_copies_the_kicker_decides(rules: HandRules) -> None:
    # Seed 004: "If only part of a hand copies, the next highest card, or the 'kicker',
    # determines the winning hand. The highest possible kicker is an Ace."
    assert _versus("JK AS KD 9C 5H", "AH AC KS 9D 4D", rules) == (Versus.WIN, Outcome.WIN)
    assert _versus("JK AS KD 9C 4H", "AH AC KS 9D 5D", rules) == (Versus.LOSE, Outcome.PUSH)
    assert _versus("KH KD AS 9C 5H", "KS KC QD 9D 5D", rules) == (Versus.WIN, Outcome.WIN)


@BOTH
def test_the_cards_of_a_flush_are_its_kickers(rules: HandRules) -> None:
    # Seed 004: "The cards in a straight or flush are also known as kickers. A flush with an
    # Ace kicker ranks higher than a flush with a King kicker, etc." The joker's flush is
    # A-K-9-7-4 in both modes (the ace the flush lacks).
    assert _versus("JK KH 9H 7H 4H", "AS KS 9S 7S 3S", rules) == (Versus.WIN, Outcome.WIN)
    assert _versus("JK KH 9H 7H 4H", "AD KD 9D 7D 4D", rules) == (Versus.COPY, Outcome.PUSH)
    assert _versus("AH QH 9H 7H 4H", "KS QS 9S 7S 4S", rules) == (Versus.WIN, Outcome.WIN)


@BOTH
def test_a_copy_in_both_hands_loses(rules: HandRules) -> None:
    # Seed 004: "Copy-Lose: When the player's cards are the same rank as the bank's cards,
    # the player loses."
    assert _versus("JK AS KD 9C 5H", "AH AC KS 9D 5D", rules, front="JK AD",
                   bank_front="AS AC") == (Versus.COPY, Outcome.LOSE)


def test_the_two_modes_differ_where_the_joker_is_not_an_ace() -> None:
    # Fully wild, JK-K-9-7-5 is a pair of kings; as a bug it is A-K-9-7-5, no pair.
    assert _versus("JK KS 9C 7H 5S", "KH KD 9D 7S 5D", WILD) == (Versus.COPY, Outcome.PUSH)
    assert _versus("JK KS 9C 7H 5S", "KH KD 9D 7S 5D", BUG) == (Versus.LOSE, Outcome.PUSH)


# --- the fully-wild House Way -----------------------------------------------------------------

def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, count=7)


def test_the_fully_wild_card_is_a_house_way_found_by_name() -> None:
    assert "fully-wild" in WAYS
    assert house_way("fully-wild").name == "fully-wild"


def test_the_fully_wild_card_reads_in_the_order_of_the_hand_ranks() -> None:
    # Issue 12: "five of a kind, straight flush, quads, ..., else pairs the highest singleton".
    titles = [s.title.split(" (")[0] for s in house_way("fully-wild").sections]
    assert titles == ["Five of a kind", "Straight flush", "Four of a kind", "Full house",
                      "Flush", "Straight", "Three of a kind", "Two pair", "One pair", "No pair"]


def test_the_fully_wild_card_always_plays_the_joker_as_any_card() -> None:
    # The card means nothing under a bug: asked with the bug it still plays the joker wild
    # and judges its settings so; the other cards keep the table's joker.
    hand = _cards("9S 9H JK KC 7H 4S 2D")
    assert set_house_way(hand, "fully-wild", BUG) == set_house_way(hand, "fully-wild", WILD)
    assert hand_rules_for("fully-wild", BUG) == WILD
    assert hand_rules_for("fully-wild", HandRules(wheel="lowest")) == \
        HandRules(joker="fully-wild", wheel="lowest")
    assert hand_rules_for("standard", BUG) == BUG


def test_issue_12s_hand_plays_three_nines_behind_not_high_card() -> None:
    # Issue 12: "today the standard card is reused and gives e.g. `9S 9H JK KC 7H 4S 2D` ->
    # `KC 9S` high card, which no casino would."
    result = set_house_way(_cards("9S 9H JK KC 7H 4S 2D"), "fully-wild")
    assert set(result.low) == set(parse_cards("KC 7H"))
    assert describe(rank5(result.high, WILD)) == "three 9s"
    assert result.rule.id == "FW-3K"


@pytest.mark.parametrize("hand, rank", [
    ("AS AH AD AC JK KS KD", 14),  # four make five of a kind
    ("8S 8H 8D JK 5S 5H 5D", 8),   # the higher of two threes makes four
    ("9S 9H JK 4S 4H KD 2C", 9),   # the higher of two pairs makes a full house
    ("9S 9H JK KC 7H 4S 2D", 9),   # a pair makes three (issue 12's hand)
    ("JK KD 9H 7C 5S 3D 2H", 13),  # no pair: it pairs the highest singleton
])
def test_in_pairs_and_sets_the_joker_joins_the_rank_it_completes(hand: str, rank: int) -> None:
    # Issue 12: "the joker completes the best hand ..., else pairs the highest singleton".
    facts = WildFacts(_cards(hand), WILD)
    assert facts.wild_rank == rank
    assert facts.joker in facts.of_rank(rank) and facts.joker not in facts.singles


SEVEN = st.lists(st.integers(0, len(DECK) - 1), min_size=7, max_size=7, unique=True).map(
    lambda indexes: tuple(DECK[i] for i in indexes))


@settings(max_examples=1000, deadline=None)
@given(hand=SEVEN)
def test_the_cards_best_hand_is_the_rankers_best_five_of_the_seven(
        hand: tuple[Card, ...]) -> None:
    # The card picks its section from the hand's best five-card hand, read from groups and
    # runs; it must be the ranker's.
    assert WildFacts(hand, WILD).best is category_of(ranker(WILD).best5(hand)[0])

