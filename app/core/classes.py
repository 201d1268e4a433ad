"""Every seven-card hand of the 53-card deck, as classes of hands the rules cannot tell apart.

A hand's strengths, and so every line of a rule card, depend only on its ranks (a multiset,
the joker its own) and, when one suit holds five of the seven (the joker counted in every
suit), on which ranks are in that suit; at most one suit can. So the 154,143,080 hands fall
into classes: for every multiset of ranks, one class with no possible flush and one for
every set of ranks a flush suit may hold. Each class comes with one hand of it and how many
hands it stands for, so a question "over all hands" (which rows of a card ever fire, does a
card ever foul, do two cards agree) is answered by setting each class's hand once.

    for hand, ways in hand_classes():
        ...   # hand: seven Cards; ways: how many of the 154,143,080 hands are like it
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import combinations

from .cards import DECK, JOKER, Card

ALL_HANDS = math.comb(53, 7)  # 154,143,080
# Per card index: its rank prime (the joker's too) and its suit as one count in a nibble
# (the joker counts in all four).
PRIME: tuple[int, ...] = tuple(c.bits & 0xFF for c in DECK)
SUIT: tuple[int, ...] = tuple(0x1111 if c.is_joker else 1 << 4 * (c.index // 13) for c in DECK)


def class_key(hand: Sequence[int]) -> int:
    """The class of seven card indexes: the ranks' prime product, and for a hand that can
    make a flush minus (that product << 15 | the rank bits of the suit holding five)."""
    product = math.prod(map(PRIME.__getitem__, hand))
    suits = sum(map(SUIT.__getitem__, hand))
    if not (suits + 0x3333) & 0x8888:  # no suit's nibble reaches five
        return product
    nibble = next(k for k in range(4) if (suits >> 4 * k) & 0xF >= 5)
    bits = 0
    for i in hand:
        if i == JOKER.index or (SUIT[i] >> 4 * nibble) & 1:
            bits |= (DECK[i].bits >> 16) & 0x3FFF
    return -(product << 15 | bits)


def multisets(size: int, rank: int = 0) -> Iterator[tuple[int, ...]]:
    """Every multiset of `size` natural ranks from `rank` up, as 13 - rank counts (at most
    4 of a rank)."""
    if rank == 12:
        if size <= 4:
            yield (size,)
        return
    for c in range(min(size, 4), -1, -1):
        for rest in multisets(size - c, rank + 1):
            yield (c, *rest)


def spread(ranks: Sequence[int], suits: Sequence[int] = (0, 1, 2, 3)) -> tuple[Card, ...]:
    """Natural cards with these rank counts, spread over `suits` so no suit holds more than
    it must (two of seven over four suits: no flush)."""
    load = dict.fromkeys(suits, 0)
    cards: list[Card] = []
    for r in sorted(range(13), key=lambda r: -ranks[r]):
        for suit in sorted(suits, key=lambda s: (load[s], s))[:ranks[r]]:
            load[suit] += 1
            cards.append(DECK[suit * 13 + r])
    return tuple(cards)


def _flush_hand(ranks: Sequence[int], chosen: set[int], jokers: int) -> tuple[Card, ...]:
    """A hand whose first suit holds exactly the `chosen` ranks (plus the joker)."""
    rest = [c - (r in chosen) for r, c in enumerate(ranks)]
    suited = tuple(DECK[r] for r in sorted(chosen))
    return suited + spread(rest, (1, 2, 3)) + ((JOKER,) if jokers else ())


def hand_classes(joker: bool = True) -> Iterator[tuple[tuple[Card, ...], int]]:
    """(a hand of the class, how many hands it stands for), for every class; the counts add
    up to every seven-card hand of the deck (53 cards, or 52 with `joker=False`)."""
    for jokers in ((0, 1) if joker else (0,)):
        for ranks in multisets(7 - jokers):
            present = [(r, c) for r, c in enumerate(ranks) if c]
            ways = math.prod(math.comb(4, c) for c in ranks)
            flushes = 0
            for size in range(5 - jokers, len(present) + 1):
                for in_suit in combinations(present, size):
                    chosen = {r for r, _ in in_suit}
                    w = 4 * math.prod(math.comb(3, c - 1) if r in chosen else math.comb(3, c)
                                      for r, c in present)
                    if w:
                        flushes += w
                        yield _flush_hand(ranks, chosen, jokers), w
            if ways > flushes:
                yield spread(ranks) + ((JOKER,) if jokers else ()), ways - flushes
