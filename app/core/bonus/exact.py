"""A bonus's exact odds: every seven-card hand of the 53-card deck counted, 154,143,080 of them,
without dealing them one by one (issue 26).

What a hand makes depends on its ranks (a multiset, the joker apart) and on which ranks the
one suit holding five with the joker has (categories.Shape); at most one suit can. So, for
every multiset of ranks, the hands with no such suit are one class, and those whose flush
suit holds a given set of ranks another; each class is weighed by how many ways the suits
fall so (as app/core/classes.py does for the House Way). The one category that looks
further, the royal match (the suit of the two cards beside a royal flush), is then settled
hand by hand over the 26,132 hands that hold a royal flush. A few seconds in all.

The counter takes a smaller deck too (some ranks, fewer suits), so that a test can count
every hand of it one by one and compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from ..cards import DECK, JOKER, Card
from ..hands import JokerRule
from .categories import (
    ACE,
    TEN,
    Category,
    flush_categories,
    made,
    rank_categories,
)
from .paytable import EnvyCard, PayCard

ALL_HANDS = math.comb(53, 7)
RANKS = tuple(range(2, ACE + 1))
Order = Sequence[Category]


def count_categories(card: PayCard | EnvyCard, joker: JokerRule = "bug",
                     ranks: Sequence[int] = RANKS, suits: int = 4) -> dict[Category, int]:
    """How many seven-card hands (of the 52 cards and the joker, or of the cards of `ranks`
    in the first `suits` suits and the joker) the card counts in each of its categories and
    in NOTHING."""
    return count_orders([card.order], joker, ranks, suits)[0]


def count_orders(orders: Sequence[Order], joker: JokerRule = "bug",
                 ranks: Sequence[int] = RANKS, suits: int = 4) -> list[dict[Category, int]]:
    """`count_categories` for several cards' orders in one pass."""
    tallies = [dict.fromkeys([*order, Category.NOTHING], 0) for order in orders]
    firsts: dict[frozenset[Category], tuple[Category, ...]] = {}

    def first(found: frozenset[Category]) -> tuple[Category, ...]:
        if found not in firsts:
            firsts[found] = tuple(next((c for c in order if c in found), Category.NOTHING)
                                  for order in orders)
        return firsts[found]

    def add(found: frozenset[Category], ways: int) -> None:
        for tally, category in zip(tallies, first(found), strict=True):
            tally[category] += ways

    for jokers in (0, 1):
        for counts in _multisets(7 - jokers, sorted(ranks), suits):
            base = rank_categories(counts, bool(jokers), joker)
            ways = math.prod(math.comb(suits, c) for c in counts)
            for bits, w in _flush_suits(counts, jokers, suits):
                add(base | flush_categories(bits, bool(jokers)), w)
                ways -= w
            add(base, ways)
    if any(Category.ROYAL_FLUSH_WITH_ROYAL_MATCH in order for order in orders):
        _royal_matches(tallies, first, joker, ranks, suits)
    return tallies


def _multisets(size: int, ranks: list[int], most: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of `size` of `ranks`, at most `most` of each, as 13 counts (2 first)."""
    def fill(left: int, at: int, counts: list[int]) -> Iterator[tuple[int, ...]]:
        if at == len(ranks):
            if left == 0:
                yield tuple(counts)
            return
        for c in range(min(left, most), -1, -1):
            counts[ranks[at] - 2] = c
            yield from fill(left - c, at + 1, counts)
        counts[ranks[at] - 2] = 0

    yield from fill(size, 0, [0] * 13)


def _flush_suits(counts: tuple[int, ...], jokers: int, suits: int
                 ) -> Iterator[tuple[int, int]]:
    """(the flush suit's rank bits, how many hands) for every set of ranks one suit may
    hold with five or more, the joker counted in it."""
    present = [(i, c) for i, c in enumerate(counts) if c]
    for size in range(5 - jokers, len(present) + 1):
        for chosen in combinations(present, size):
            inside = {i for i, _ in chosen}
            ways = suits * math.prod(math.comb(suits - 1, c - (i in inside))
                                     for i, c in present)
            if ways:
                yield sum(1 << i for i in inside), ways


def _royal_matches(tallies: list[dict[Category, int]],
                   first: Callable[[frozenset[Category]], tuple[Category, ...]],
                   joker: JokerRule, ranks: Sequence[int], suits: int) -> None:
    """Move each hand that holds a royal match from where its class put it to where it is."""
    deck = [c for c in DECK[:52] if c.rank in ranks and c.index // 13 < suits] + [JOKER]
    for hand in _royal_hands(deck, suits):
        found = made(hand, joker)
        if Category.ROYAL_FLUSH_WITH_ROYAL_MATCH not in found:
            continue
        before = first(found - {Category.ROYAL_FLUSH_WITH_ROYAL_MATCH})
        after = first(found)
        for tally, was, now in zip(tallies, before, after, strict=True):
            tally[was] -= 1
            tally[now] += 1


def _royal_hands(deck: list[Card], suits: int) -> Iterator[tuple[Card, ...]]:
    """Every seven of `deck` holding a royal flush, natural or with the joker, once."""
    seen: set[frozenset[Card]] = set()
    for suit in range(suits):
        royal = [c for c in deck if c.index // 13 == suit and c.rank is not None
                 and c.rank >= TEN and not c.is_joker]
        if len(royal) < 5:
            continue
        for held in [royal, *([*royal[:i], *royal[i + 1:], JOKER] for i in range(5))]:
            rest = [c for c in deck if c not in held]
            for extra in combinations(rest, 7 - len(held)):
                hand = frozenset((*held, *extra))
                if hand not in seen:
                    seen.add(hand)
                    yield tuple(hand)


@dataclass(frozen=True, slots=True)
class Row:
    category: Category
    count: int
    probability: Fraction
    pays: str
    share: Fraction  # this category's part of the return per unit wagered


@dataclass(frozen=True, slots=True)
class BonusOdds:
    """A pay card's exact figures (and, with an envy card, the envy's) over every hand."""

    card: PayCard
    joker: JokerRule
    hands: int
    counts: dict[Category, int]
    envy: EnvyCard | None = None
    envy_counts: dict[Category, int] | None = None

    @property
    def rows(self) -> tuple[Row, ...]:
        return tuple(Row(c, n, Fraction(n, self.hands), self.card.pays_text(c),
                         Fraction(n * self.card.result(c, 1), self.hands))
                     for c, n in self.counts.items())

    @property
    def player_return(self) -> Fraction:
        """What a unit wagered comes back as, on average, the wager not counted: -edge."""
        return sum((r.share for r in self.rows), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return -self.player_return

    @property
    def envy_value(self) -> Fraction:
        """The envy's average, in cents, that one other player's hand pays a qualifying seat
        (whatever this seat holds: each other hand is seven of the 53 alike)."""
        if self.envy is None or self.envy_counts is None:
            return Fraction(0)
        envy = self.envy
        return sum((Fraction(n * envy.amount(c), self.hands)
                    for c, n in self.envy_counts.items()), Fraction(0))

    def edge_with(self, players: int, wager: int) -> Fraction:
        """The house edge on a `wager` (cents) when `players` other players' hands are
        dealt: the envy's value adds up per player, by linearity of expectation, so this is
        exact; a wager under the envy's qualifying amount wins no envy."""
        if self.envy is None or wager < self.envy.qualifying:
            return self.house_edge
        return self.house_edge - players * self.envy_value / wager


def bonus_odds(card: PayCard, envy: EnvyCard | None = None, joker: JokerRule = "bug"
               ) -> BonusOdds:
    """The card's exact counts over all 154,143,080 hands (and the envy card's)."""
    orders = [card.order] + ([envy.order] if envy else [])
    tallies = count_orders(orders, joker)
    return BonusOdds(card, joker, ALL_HANDS, tallies[0], envy,
                     tallies[1] if envy else None)
