"""The hand classes stand for every seven-card hand exactly once."""

import math
import random
from collections import Counter

import pytest

from app.core.cards import DECK, Card
from app.core.classes import ALL_HANDS, class_key, hand_classes


def _key(hand: tuple[Card, ...]) -> int:
    return class_key([c.index for c in hand])


# Every one of the 292,253 classes made and walked (20 s of CPU): `make proof`. `make test`
# meets the classes through tests/core/test_analysis_odds.py, whose exact odds of the 53-card
# deck sum the classes' hands to the published counts.
pytestmark = pytest.mark.proof


@pytest.fixture(scope="module")
def classes() -> list[tuple[tuple[Card, ...], int]]:
    """The 292,253 classes, made once for the module's tests."""
    return list(hand_classes())


def test_classes_count_every_seven_card_hand_once(
        classes: list[tuple[tuple[Card, ...], int]]) -> None:
    total = sum(ways for _, ways in classes)
    assert total == ALL_HANDS == 154_143_080
    assert sum(ways for _, ways in hand_classes(joker=False)) == math.comb(52, 7)


def test_every_class_hand_is_seven_distinct_cards_and_classes_do_not_repeat(
        classes: list[tuple[tuple[Card, ...], int]]) -> None:
    keys: Counter[int] = Counter()
    for hand, ways in classes:
        assert len(set(hand)) == 7 and ways > 0
        keys[_key(hand)] += 1
    assert max(keys.values()) == 1


def test_every_random_hand_falls_in_one_of_the_classes(
        classes: list[tuple[tuple[Card, ...], int]]) -> None:
    weight = {_key(hand): ways for hand, ways in classes}
    rng = random.Random(7)
    deck = list(DECK)
    for _ in range(2000):
        assert _key(rng.sample(deck, 7)) in weight
