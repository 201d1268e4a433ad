"""The hand classes stand for every seven-card hand exactly once."""

import math
import random
from collections import Counter

from app.core.cards import DECK
from app.core.classes import ALL_HANDS, class_key, hand_classes


def _key(hand: tuple) -> int:
    return class_key([DECK.index(c) for c in hand])


def test_classes_count_every_seven_card_hand_once() -> None:
    total = sum(ways for _, ways in hand_classes())
    assert total == ALL_HANDS == 154_143_080
    assert sum(ways for _, ways in hand_classes(joker=False)) == math.comb(52, 7)


def test_every_class_hand_is_seven_distinct_cards_and_classes_do_not_repeat() -> None:
    keys = Counter()
    for hand, ways in hand_classes():
        assert len(set(hand)) == 7 and ways > 0
        keys[_key(hand)] += 1
    assert max(keys.values()) == 1


def test_every_random_hand_falls_in_one_of_the_classes() -> None:
    weight = {_key(hand): ways for hand, ways in hand_classes()}
    rng = random.Random(7)
    deck = list(DECK)
    for _ in range(2000):
        assert _key(rng.sample(deck, 7)) in weight
