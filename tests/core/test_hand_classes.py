"""The hand classes stand for every seven-card hand exactly once."""

import math
import random
from collections import Counter

import pytest

from app.core.cards import DECK, Card
from app.core.classes import ALL_HANDS, class_key, hand_classes


def _key(hand: tuple[Card, ...]) -> int:
    return class_key([c.index for c in hand])


@pytest.fixture(scope="module")
def classes() -> list[tuple[tuple[Card, ...], int]]:
    """The 292,253 classes, made once for the module's tests."""
    return list(hand_classes())


def test_classes_count_every_seven_card_hand_once_each_seven_cards_of_its_own() -> None:
    keys: Counter[int] = Counter()
    total = 0
    for hand, ways in hand_classes():
        assert len(set(hand)) == 7 and ways > 0
        keys[_key(hand)] += 1
        total += ways
    assert total == ALL_HANDS == 154_143_080
    assert len(keys) == 292_253 and max(keys.values()) == 1


# The 52-card deck's classes, and the classes kept to look random hands up in (12 s of CPU
# more): `make proof`.
@pytest.mark.proof
def test_classes_of_the_52_card_deck_count_each_of_its_hands_once() -> None:
    assert sum(ways for _, ways in hand_classes(joker=False)) == math.comb(52, 7)


@pytest.mark.proof
def test_every_random_hand_falls_in_one_of_the_classes(
        classes: list[tuple[tuple[Card, ...], int]]) -> None:
    weight = {_key(hand): ways for hand, ways in classes}
    rng = random.Random(7)
    deck = list(DECK)
    for _ in range(2000):
        assert _key(rng.sample(deck, 7)) in weight
