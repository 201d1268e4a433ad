"""The hands a bonus pays on, read from all seven cards whatever the setting (issue 26).

`made(cards, joker)` is every category the seven cards make; a pay card counts a hand once,
in the first of its own categories (from the top) that the hand makes. The Fortune bonus's
categories, from the top, are FORTUNE_CATEGORIES; other bonuses use some of them, and
THREE_PAIRS, in their own order.

What a hand makes depends on its ranks (a multiset, the joker apart) and on the ranks of
the one suit that holds five of the seven with the joker (at most one suit can); only the
royal match looks further, at the suit of the two cards beside a royal flush. `Shape` is
that summary, so the exact count (exact.py) can weigh a whole class of hands at once and
reads the same rules as a hand at the table.

Readings chosen where the words leave room (docs/bonus.md):
- The joker plays as in the table's Pai Gow hand. The bug is an ace, or any card that
  completes a straight, flush or straight flush (seven-card ones too); fully wild, any card.
- A-2-3-4-5 is a straight (and, suited, a straight flush) whatever the table's wheel rule,
  and A-2-3-4-5-6-7 suited is a seven-card straight flush: the wheel rule only ranks hands
  against each other, and a bonus asks only what a hand is.
- Royal match: the two cards beside the royal flush are the K and Q of one suit, another
  than the royal's. The bug may fill the royal but not the match (it is no ace and
  completes no straight or flush there); a fully wild joker may be either.
- Five aces: four aces and the joker. With a fully wild joker, four of any rank and the
  joker are five of a kind, which the Pai Gow hand ranks with five aces above every
  straight flush; the bonus pays them as five aces.
- Three pairs (a category only some cards use): three ranks paired, the bug pairing an ace.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from ..cards import Card, Rank
from ..hands import JokerRule

ACE, KING, QUEEN, TEN = 14, 13, 12, 10


class Category(Enum):
    """Every category a bonus card may name, highest first; `.value` is the card's word."""

    NATURAL_SEVEN_CARD_STRAIGHT_FLUSH = "natural-seven-card-straight-flush"
    ROYAL_FLUSH_WITH_ROYAL_MATCH = "royal-flush-with-royal-match"
    SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER = "seven-card-straight-flush-with-joker"
    FIVE_ACES = "five-aces"
    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    THREE_OF_A_KIND = "three-of-a-kind"
    STRAIGHT = "straight"
    THREE_PAIRS = "three-pairs"
    NOTHING = "nothing"

    @property
    def label(self) -> str:
        """The category in a dealer's words: 'royal flush plus royal match'."""
        return _LABELS.get(self, self.value.replace("-", " "))


_LABELS = {
    Category.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: "seven-card straight flush (no joker)",
    Category.ROYAL_FLUSH_WITH_ROYAL_MATCH: "royal flush plus royal match",
    Category.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: "seven-card straight flush with joker",
}

# The Fortune bonus's categories from the top, as the issue and the posted tables list them
# (three of a kind above the straight); NOTHING is what is left, and loses.
FORTUNE_CATEGORIES: tuple[Category, ...] = tuple(Category)[:11]

# Every hand that makes the first also makes the second: a card listing the second above the
# first would never pay the first (card_file.py refuses it).
IMPLIES: dict[Category, tuple[Category, ...]] = {
    Category.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH: (
        Category.STRAIGHT_FLUSH, Category.FLUSH, Category.STRAIGHT),
    Category.ROYAL_FLUSH_WITH_ROYAL_MATCH: (
        Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH, Category.FLUSH, Category.STRAIGHT),
    Category.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER: (
        Category.STRAIGHT_FLUSH, Category.FLUSH, Category.STRAIGHT),
    Category.FIVE_ACES: (Category.FOUR_OF_A_KIND, Category.THREE_OF_A_KIND),
    Category.ROYAL_FLUSH: (Category.STRAIGHT_FLUSH, Category.FLUSH, Category.STRAIGHT),
    Category.STRAIGHT_FLUSH: (Category.FLUSH, Category.STRAIGHT),
    Category.FOUR_OF_A_KIND: (Category.THREE_OF_A_KIND,),
    Category.FULL_HOUSE: (Category.THREE_OF_A_KIND,),
}


def _windows(length: int) -> tuple[int, ...]:
    """Every run of `length` ranks as a bit set over 2..A, the ace also low."""
    runs = []
    for low in range(1, 16 - length):
        bits = 0
        for r in range(low, low + length):
            bits |= 1 << ((ACE if r == 1 else r) - 2)
        runs.append(bits)
    return tuple(runs)


RUNS_5, RUNS_7 = _windows(5), _windows(7)
ROYAL_BITS = sum(1 << (r - 2) for r in range(TEN, ACE + 1))


def _run_with(bits: int, runs: tuple[int, ...], jokers: int) -> bool:
    """The ranks `bits` and `jokers` stand-ins cover one of `runs`."""
    return any((run & ~bits).bit_count() <= jokers for run in runs)


@dataclass(frozen=True, slots=True)
class Shape:
    """What the categories (bar the royal match) read of a hand: how many of each rank
    (index 0 is the 2), whether the joker is held, and the rank bits of the suit holding
    five with the joker (None when no suit does)."""

    counts: tuple[int, ...]
    joker: bool
    flush: int | None

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Shape:
        counts = [0] * 13
        by_suit: dict[object, int] = {}
        jokers = 0
        for c in cards:
            if c.rank is None:
                jokers = 1
                continue
            counts[c.rank - 2] += 1
            by_suit[c.suit] = by_suit.get(c.suit, 0) | 1 << (c.rank - 2)
        flush = next((bits for bits in by_suit.values() if bits.bit_count() + jokers >= 5), None)
        return cls(tuple(counts), bool(jokers), flush)


def shape_categories(shape: Shape, joker: JokerRule = "bug") -> frozenset[Category]:
    """Every category but the royal match that a hand of this shape makes."""
    out = set(rank_categories(shape.counts, shape.joker, joker))
    if shape.flush is not None:
        out |= flush_categories(shape.flush, shape.joker, len_of(shape.counts, shape.joker))
    return frozenset(out)


def len_of(counts: Sequence[int], joker: bool) -> int:
    return sum(counts) + joker


@cache
def flush_categories(bits: int, joker: bool, cards: int = 7) -> frozenset[Category]:
    """What the flush suit's ranks (`bits`) make, the joker filling one gap."""
    j = int(joker)
    out = {Category.FLUSH}
    if _run_with(bits, RUNS_5, j):
        out.add(Category.STRAIGHT_FLUSH)
    if (ROYAL_BITS & ~bits).bit_count() <= j:
        out.add(Category.ROYAL_FLUSH)
    if cards == 7 and bits.bit_count() + j == 7 and _run_with(bits, RUNS_7, j):
        out.add(Category.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER if joker
                else Category.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH)
    return frozenset(out)


@cache
def rank_categories(counts: tuple[int, ...], joker: bool, rule: JokerRule = "bug"
                    ) -> frozenset[Category]:
    """What the ranks make whatever the suits: groups (the joker an ace as a bug, any rank
    fully wild) and the straight (the joker filling a gap either way)."""
    bits = sum(1 << i for i, n in enumerate(counts) if n)
    out = set()
    if _run_with(bits, RUNS_5, int(joker)):
        out.add(Category.STRAIGHT)
    stand_ins: Iterable[int] = (ACE - 2,) if rule == "bug" else range(13)
    for as_rank in stand_ins if joker else (None,):
        grouped = list(counts)
        if as_rank is not None:
            grouped[as_rank] += 1
        out |= _groups(grouped)
    return frozenset(out)


def _groups(counts: list[int]) -> set[Category]:
    ordered = sorted(counts, reverse=True)
    out = set()
    if ordered[0] >= 5:
        out.add(Category.FIVE_ACES)
    if ordered[0] >= 4:
        out.add(Category.FOUR_OF_A_KIND)
    if ordered[0] >= 3:
        out.add(Category.THREE_OF_A_KIND)
        if ordered[1] >= 2:
            out.add(Category.FULL_HOUSE)
    if sum(n >= 2 for n in counts) >= 3:
        out.add(Category.THREE_PAIRS)
    return out


def royal_match(cards: Sequence[Card], joker: JokerRule = "bug") -> bool:
    """A royal flush and, beside it, the K and Q of one other suit (see the readings)."""
    if len(cards) != 7:
        return False
    held = any(c.is_joker for c in cards)
    for suit in {c.suit for c in cards if c.suit is not None}:
        royal = [c for c in cards if c.suit == suit and c.rank is not None and c.rank >= TEN]
        if len(royal) + held < 5:
            continue
        rest = [c for c in cards if c not in royal and not (len(royal) == 4 and c.is_joker)]
        if _matches(rest, suit, joker):
            return True
    return False


def _matches(two: list[Card], royal_suit: object, joker: JokerRule) -> bool:
    natural = [c for c in two if c.rank is not None]
    if len(natural) == 2:
        a, b = natural
        return {a.rank, b.rank} == {Rank.KING, Rank.QUEEN} and a.suit == b.suit != royal_suit
    if len(natural) == 1 and len(two) == 2 and joker == "fully-wild":
        return natural[0].rank in (Rank.KING, Rank.QUEEN) and natural[0].suit != royal_suit
    return False


def made(cards: Sequence[Card], joker: JokerRule = "bug") -> frozenset[Category]:
    """Every category the cards make (NOTHING never: it is what a card pays when none of its
    categories is made)."""
    out = shape_categories(Shape.of(cards), joker)
    if Category.ROYAL_FLUSH in out and royal_match(cards, joker):
        out |= {Category.ROYAL_FLUSH_WITH_ROYAL_MATCH}
    return out
