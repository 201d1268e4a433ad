"""The fast House Way lookup: hands that differ only in suits that cannot make a flush set
to the same strengths, so a cache keyed by ranks (and a flush suit's ranks) is exact."""

from __future__ import annotations

import random

import pytest

from app.core.analysis.fast import SHIFT, WaySetter, flush_possible, hand_key
from app.core.cards import DECK, parse_cards
from app.core.hands import HandRules, ranker
from app.core.house_way import WAYS, house_way

RULES = (HandRules(), HandRules(joker="fully-wild"), HandRules(wheel="lowest"))


def indexes(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def suits_permuted(hand: list[int], order: list[int]) -> list[int]:
    """The same ranks with the suits renamed (the joker stays the joker)."""
    return [i if i == 52 else order[i // 13] * 13 + i % 13 for i in hand]


def random_hands(rng: random.Random, count: int) -> list[list[int]]:
    """Random hands, half of them from two suits and the joker (flushes, straight flushes)."""
    out = []
    for n in range(count):
        pool = [*range(26), 52] if n % 2 else list(range(53))
        out.append(rng.sample(pool, 7))
    return out


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.joker}-{r.wheel}")
@pytest.mark.parametrize("way", sorted(WAYS))
def test_hands_with_one_key_set_to_the_same_strengths_as_the_house_way(
        way: str, rules: HandRules) -> None:
    rng = random.Random(f"{way}/{rules}")
    setter = WaySetter(way, rules)
    for hand in random_hands(rng, 600):
        order = rng.sample(range(4), 4)
        twin = suits_permuted(hand, order)
        assert hand_key(twin) == hand_key(hand)
        expected = setter.setting_strengths(hand)
        assert setter.packed(hand) == expected
        assert setter.packed(twin) == expected, (  # found in the cache under the same key
            f"{way}: {' '.join(str(DECK[i]) for i in twin)} differs from its suit twin")


@pytest.mark.parametrize("way", sorted(WAYS))
def test_packed_strengths_are_the_rankers_front_and_back_of_the_house_way_setting(
        way: str) -> None:
    cards = parse_cards("AS AD KH KC QD 9S 4H")
    result = house_way(way).set(cards)
    front, back = WaySetter(way).strengths([c.index for c in cards])
    assert front == ranker().rank2(result.low)
    assert back == ranker().rank5(result.high)
    assert front < 1 << SHIFT and back < 1 << SHIFT


def test_ranks_alone_key_a_hand_no_suit_of_which_holds_five() -> None:
    plain = indexes("AS KS QS JS 9D 8D 7H")  # four spades: no flush
    assert hand_key(plain) > 0
    assert hand_key(plain) == hand_key(indexes("AH KH QH JH 9C 8C 7S"))
    assert hand_key(plain) != hand_key(indexes("AS KS QS JS 9D 8D 6H"))


def test_a_suit_with_five_or_four_and_the_joker_keys_the_flush_ranks_too() -> None:
    five = indexes("AS KS QS JS 9S 8D 7H")
    four_and_joker = indexes("AS KS QS JS JK 8D 7H")
    assert hand_key(five) < 0 and hand_key(four_and_joker) < 0
    # Same ranks, a different card in the flush suit: a different key.
    assert hand_key(five) != hand_key(indexes("AS KS QS JS 9D 8S 7H"))
    assert flush_possible(sum(1 << 4 * (i // 13) for i in five))
