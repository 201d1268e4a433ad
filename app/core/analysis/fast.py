"""A House Way setting as two strengths, fast: hands that differ only in suits that cannot
make a flush are set alike, so each is set once.

A hand here is seven card indexes into `DECK` (0-51 the natural cards, 52 the joker). Its
House Way setting is read as `front << SHIFT | back`, the two-card and five-card strengths
on the ranker's scale (larger wins, equal is a copy).

Why a cache keyed by ranks is exact: when no suit (the joker counted in every suit) holds
five of the seven cards, no five of them make a flush, so every strength the House Way
compares, and every line of a card, depends only on the ranks; a card choosing between two
cards of one rank chooses between equal strengths. When a suit does hold five, only which
ranks are in that suit matters besides the ranks. So the key is the product of the rank
primes (a multiset of ranks, the joker its own prime), and for a possible flush also the
ranks in the flush suit. `tests/core/test_analysis_fast.py` checks the cache against the
House Way itself on every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from ..cards import DECK
from ..hands import DEFAULT_RULES, HandRules, ranker
from ..house_way import HouseWay, house_way

SHIFT = 24  # every strength is below 1 << 24: category (at most 9) << 20 | tiebreak
MASK = (1 << SHIFT) - 1
JOKER_INDEX = 52
DECK_SIZE = len(DECK)

# Per card index: its rank prime (the joker's too), its suit as one count in a nibble (the
# joker counts in all four), and its rank as a bit (the joker's bit 13).
PRIME: tuple[int, ...] = tuple(c.bits & 0xFF for c in DECK)
SUIT: tuple[int, ...] = tuple(0x1111 if c.is_joker else 1 << 4 * (c.index // 13) for c in DECK)
RANKBIT: tuple[int, ...] = tuple((c.bits >> 16) & 0x3FFF for c in DECK)
FIVE_OF_A_SUIT = 0x8888  # (suit nibbles + 3 in each) has the top bit of a nibble at 5 or more
PLUS_THREE = 0x3333


def flush_possible(suits: int) -> bool:
    """`suits` is the sum of SUIT over seven cards: some suit holds five (joker counted)."""
    return bool((suits + PLUS_THREE) & FIVE_OF_A_SUIT)


def hand_key(hand: Sequence[int]) -> int:
    """The cache key of seven card indexes: hands with equal keys set to equal strengths.

    The ranks' prime product when no flush is possible; else minus (product << 15 | the
    rank bits of the flush suit), so the two kinds of key never meet.
    """
    product = prod(map(PRIME.__getitem__, hand))
    suits = sum(map(SUIT.__getitem__, hand))
    if not (suits + PLUS_THREE) & FIVE_OF_A_SUIT:
        return product
    return -(product << 15 | flush_ranks(hand, suits))


def flush_ranks(hand: Sequence[int], suits: int) -> int:
    """The rank bits of the cards in the suit that holds five (the joker's bit too)."""
    nibble = next(k for k in range(4) if ((suits >> (4 * k)) & 0xF) >= 5)
    bits = 0
    for i in hand:
        if i == JOKER_INDEX or (SUIT[i] >> (4 * nibble)) & 1:
            bits |= RANKBIT[i]
    return bits


Way = HouseWay | str  # a rule card, or its name (found as the config finds it)


def card_of(way: Way) -> HouseWay:
    """The rule card itself; a name is looked up (KeyError lists the cards there are)."""
    return way if isinstance(way, HouseWay) else house_way(way)


class WaySetter:
    """One House Way card's settings as packed strengths, each distinct key set once.

    `cache` maps `hand_key` to `front << SHIFT | back`; a simulation's inner loop reads it
    directly and calls `packed_slow` on a miss.
    """

    __slots__ = ("way", "rules", "cache", "_card", "_rank2", "_rank5")

    def __init__(self, way: Way, rules: HandRules = DEFAULT_RULES) -> None:
        self._card = card_of(way)
        self.way = self._card.name
        self.rules = rules
        self.cache: dict[int, int] = {}
        r = ranker(rules)
        self._rank2 = r.rank2
        self._rank5 = r.rank5

    def setting_strengths(self, hand: Sequence[int]) -> int:
        """Set the seven cards by the card itself: `front << SHIFT | back`."""
        result = self._card.set([DECK[i] for i in hand], self.rules)
        return self._rank2(result.low) << SHIFT | self._rank5(result.high)

    def packed_slow(self, key: int, hand: Sequence[int]) -> int:
        """A cache miss: set the hand and remember it under `key`."""
        packed = self.setting_strengths(hand)
        self.cache[key] = packed
        return packed

    def packed(self, hand: Sequence[int]) -> int:
        key = hand_key(hand)
        found = self.cache.get(key)
        return self.packed_slow(key, hand) if found is None else found

    def strengths(self, hand: Sequence[int]) -> tuple[int, int]:
        """(front strength, back strength) of the House Way's setting."""
        packed = self.packed(hand)
        return packed >> SHIFT, packed & MASK
