"""Seed 000's joker sentence beside its "Straight Flush and Pair" rows.

Seed 000: "The Joker can be used to complete a five-card flush, straight, or straight
flush. Otherwise, the Joker is counted as an Ace." and, under "Straight Flush and Pair":
"Straight Flush and One Pair that uses Joker: The two cards will be the Joker and the Ace"
and "Straight Flush and One Pair: The two cards will be the Pair".

A joker that completes the straight flush is that card, not also an ace: with a natural
ace and one natural pair the hand is a Straight Flush and One Pair, and the pair goes in
front. Read as two pairs (the ace with the joker, and the pair), no row named it and the
hand fell to "Straight Flush Alone", which on 108 hands was weaker in front and no
stronger behind (issue 24: `2S 3S 4S 5S AS 2H JK` set `AS 2H` in front).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest

from app.core.cards import DECK, JOKER, Card, parse_cards
from app.core.hands import ranker
from app.core.house_way import WAYS, hand_rules_for, house_way
from app.core.house_way.audit import _dominating, _legal_settings

ACE = 14
SUITS = sorted({c.suit for c in DECK if not c.is_joker}, key=str)


def natural_rank(c: Card) -> int:
    assert c.rank is not None
    return int(c.rank)


def natural_straight_flush(cards: list[Card]) -> bool:
    """Five natural cards of one suit in sequence (the ace high or low)."""
    by_suit: dict[object, set[int]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, set()).add(natural_rank(c))
    for ranks in by_suit.values():
        ranks = ranks | ({1} if ACE in ranks else set())
        if any(all(r + i in ranks for i in range(5)) for r in range(1, 11)):
            return True
    return False


def royal_with_joker(cards: list[Card]) -> bool:
    """Four of 10-J-Q-K-A in one suit: with the joker a Royal Flush, read by its own rows."""
    return any(sum(c.suit == suit and natural_rank(c) >= 10 for c in cards) >= 4
               for suit in SUITS)


def joker_completed_straight_flushes() -> Iterator[tuple[Card, ...]]:
    """Every hand of a straight flush below the royal that needs the joker, one natural
    ace, one natural pair of another rank and three singletons: the joker cannot pair the
    ace (no straight flush of natural cards leaves the ace out), so the hand has one pair."""
    seen: set[frozenset[Card]] = set()
    for suit in SUITS:
        suited = {natural_rank(c): c for c in DECK if c.suit == suit and not c.is_joker}
        for low in range(1, 10):  # A-5 up to 9-K; T-A is a Royal Flush, read by its rows
            window = [ACE if r == 1 else r for r in range(low, low + 5)]
            for joker_as in window:
                four = [suited[r] for r in window if r != joker_as]
                others = [c for c in DECK if not c.is_joker and c not in four]
                for x, y in combinations(others, 2):
                    natural = [*four, x, y]
                    counts = Counter(map(natural_rank, natural))
                    if counts[ACE] != 1 or sorted(counts.values()) != [1, 1, 1, 1, 2]:
                        continue
                    ace = next(c for c in natural if natural_rank(c) == ACE)
                    if natural_straight_flush([c for c in natural if c is not ace]) \
                            or royal_with_joker(natural):
                        continue
                    key = frozenset(natural)
                    if key not in seen:
                        seen.add(key)
                        yield (*sorted(natural, key=lambda c: c.index), JOKER)


@pytest.fixture(scope="module")
def hands() -> list[tuple[Card, ...]]:
    return list(joker_completed_straight_flushes())


def the_pair(hand: tuple[Card, ...]) -> set[Card]:
    counts = Counter(natural_rank(c) for c in hand if not c.is_joker)
    return {c for c in hand if not c.is_joker and counts[natural_rank(c)] == 2}


def test_the_joker_that_completes_the_straight_flush_leaves_one_pair_and_the_pair_goes_in_front(
        hands: list[tuple[Card, ...]]) -> None:
    card = house_way("standard")
    wrong = []
    for hand in hands:
        result = card.set(hand)
        if result.rule.id != "SF-P2" or set(result.low) != the_pair(hand):
            wrong.append(f"{' '.join(map(str, hand))}: {result.rule.id} "
                         f"{' '.join(map(str, result.low))}")

    assert len(hands) == 11_520
    assert not wrong, f"{len(wrong):,} hands not set by 'Straight Flush and One Pair: " \
        f"The two cards will be the Pair', e.g. {wrong[:3]}"


def test_no_setting_of_these_hands_is_weaker_in_front_and_no_stronger_behind(
        hands: list[tuple[Card, ...]]) -> None:
    # Before the reading, 108 of them were (the audit's SF-6A and SF-5 rows).
    card = house_way("standard")
    r = ranker(hand_rules_for(card))
    weaker = []
    for hand in hands:
        result = card.set(hand)
        if _dominating(_legal_settings(hand, hand_rules_for(card)), r.rank2(result.low),
                       r.rank5(result.high)) is not None:
            weaker.append(" ".join(map(str, hand)))

    assert weaker == [], f"{len(weaker)} hands, e.g. {weaker[:3]}"


@pytest.mark.parametrize("way", sorted(WAYS))
def test_every_card_sets_a_sample_of_these_hands_no_weaker_than_another_setting(
        hands: list[tuple[Card, ...]], way: str) -> None:
    # Delaware Park and Trump Plaza read the hand as two pairs and split the lower pair
    # (the same front); the fully wild card plays its own joker.
    card = house_way(way)
    rules = hand_rules_for(card)
    r = ranker(rules)
    weaker = []
    for hand in hands[::37]:
        result = card.set(hand)
        if _dominating(_legal_settings(hand, rules), r.rank2(result.low),
                       r.rank5(result.high)) is not None:
            weaker.append(" ".join(map(str, hand)))

    assert weaker == []


@pytest.mark.parametrize(("hand", "front", "row"), [
    # the hand: the 2s in front, A-5 of spades behind (the joker as the 2)
    ("2S 3S 4S 5S AS 2H JK", "2S 2H", "SF-P2"),
    # the joker as the 6 of 3-7 or the 2 of A-5: the 7s in front, A-5 behind
    ("3S 4S 5S 7S AS 7H JK", "7S 7H", "SF-P2"),
    # the straight flush stands without the joker: the joker pairs the ace of hearts
    ("5S 6S 7S 8S 9S AH JK", "JK AH", "SF-P1"),
    # the A-5 of spades needs the ace of spades; with the ace of diamonds left over the
    # joker makes three aces ("two from the 3-of-a-kind", off the straight flush)
    ("2S 3S 4S 5S AS AD JK", "AD AS", "SF-3K"),
    # the joker completes 2-6 (or A-5): no pair, "Straight Flush Alone", two non-straights
    ("2S 3S 4S 5S 6H AD JK", "AD 6H", "SF-5"),
])
def test_the_joker_is_an_ace_beside_a_straight_flush_only_when_the_straight_flush_stands_without_it(
        hand: str, front: str, row: str) -> None:
    result = house_way("standard").set(parse_cards(hand))

    assert (set(result.low), result.rule.id) == (set(parse_cards(front)), row)
