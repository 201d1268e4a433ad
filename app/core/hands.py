"""Rank of a five-card and a two-card hand, copies, and fouls.

A hand's strength is one integer: `category << 20 | tiebreak`, larger beats smaller and
equal is a copy. Two-card hands sit on the same scale (a pair is PAIR, no pair HIGH_CARD,
ranks in the top tiebreak places), so "the two-card hand outranks the five-card hand" is
simply `rank2(low) > rank5(high)`.

Five-card strengths come from two tables built once per rule set, as in the well-known
prime-product evaluators: suited hands by the OR of their rank bits, the rest by the
product of their rank primes. The tables are filled by a slow, plain reference evaluator
(`_reference`) that reads like the rules.
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Literal

from .cards import JOKER_PRIME, JOKER_RANKBIT, PRIMES, Card, Rank, cards_text, sort_cards

JokerRule = Literal["bug", "fully-wild"]
WheelRule = Literal["second", "lowest"]


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Category.HIGH_CARD: "high card", Category.PAIR: "one pair", Category.TWO_PAIR: "two pair",
    Category.TRIPS: "three of a kind", Category.STRAIGHT: "straight", Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full house", Category.QUADS: "four of a kind",
    Category.STRAIGHT_FLUSH: "straight flush", Category.FIVE_OF_A_KIND: "five aces",
}


@dataclass(frozen=True, slots=True)
class HandRules:
    """How the joker plays and where A-2-3-4-5 ranks (DESIGN.md: bug joker, wheel second)."""

    joker: JokerRule = "bug"
    wheel: WheelRule = "second"

    def __post_init__(self) -> None:
        if self.joker not in ("bug", "fully-wild"):
            raise ValueError(f"joker must be 'bug' or 'fully-wild', not {self.joker!r}")
        if self.wheel not in ("second", "lowest"):
            raise ValueError(f"wheel must be 'second' or 'lowest', not {self.wheel!r}")


DEFAULT_RULES = HandRules()
WHEEL = (14, 5, 4, 3, 2)


def straight_order(wheel: WheelRule) -> tuple[tuple[int, ...], ...]:
    """Straights from lowest to highest, each as its ranks high to low."""
    plain = [tuple(range(top, top - 5, -1)) for top in range(6, 15)]
    return (WHEEL, *plain) if wheel == "lowest" else (*plain[:-1], WHEEL, plain[-1])


def category_of(strength: int) -> Category:
    return Category(strength >> 20)


def _pack(category: Category, ranks: Iterable[int]) -> int:
    value = 0
    shift = 16
    for r in ranks:
        value |= r << shift
        shift -= 4
    return category << 20 | value


def _reference(ranks: Sequence[int], suited: bool, order: dict[tuple[int, ...], int]) -> int:
    """Strength of five natural ranks (a joker already replaced), the rules as written."""
    counts = Counter(ranks)
    by_count = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in by_count)
    grouped = [r for r, _ in by_count]
    run = order.get(tuple(sorted(ranks, reverse=True)))
    if shape == (5,):
        return _pack(Category.FIVE_OF_A_KIND, grouped)
    if run is not None and suited:
        return _pack(Category.STRAIGHT_FLUSH, [run])
    if shape == (4, 1):
        return _pack(Category.QUADS, grouped)
    if shape == (3, 2):
        return _pack(Category.FULL_HOUSE, grouped)
    if suited and shape == (1, 1, 1, 1, 1):
        return _pack(Category.FLUSH, grouped)
    if run is not None:
        return _pack(Category.STRAIGHT, [run])
    category = {(3, 1, 1): Category.TRIPS, (2, 2, 1): Category.TWO_PAIR,
                (2, 1, 1, 1): Category.PAIR}.get(shape, Category.HIGH_CARD)
    return _pack(category, grouped)


def _joker_options(ranks: tuple[int, ...], suited: bool, rules: HandRules,
                   order: dict[tuple[int, ...], int]) -> Iterable[int]:
    """Every strength the joker may make with four natural ranks."""
    if rules.joker == "fully-wild":
        for r in range(2, 15):
            yield _reference([*ranks, r], suited and r not in ranks, order)
        return
    yield _reference([*ranks, 14], False, order)  # the bug as an ace
    for r in range(2, 15):
        if r in ranks:
            continue
        if tuple(sorted([*ranks, r], reverse=True)) in order:
            yield _reference([*ranks, r], suited, order)  # completes a straight (flush)
    if suited:  # a flush: the bug is the highest rank the flush lacks
        missing = max(r for r in range(2, 15) if r not in ranks)
        yield _reference([*ranks, missing], True, order)


@dataclass(frozen=True, slots=True)
class _Tables:
    suited: dict[int, int]  # OR of rank bits (joker bit included) -> strength
    unsuited: dict[int, int]  # product of primes -> strength


# The tables as data, shipped with the package (built by `python -m app.core.hands`): a
# process that ranks a hand reads them in a millisecond rather than building them (0.1-0.3 s).
# tests/core/test_hands.py rebuilds them from the reference and compares every entry.
TABLES_FILE = Path(__file__).with_name("rank_tables.bin")
TABLES_FORMAT = "paigow-rank-tables/1"
ALL_RULES = tuple(HandRules(j, w) for j in ("bug", "fully-wild") for w in ("second", "lowest"))


@cache
def _tables(rules: HandRules) -> _Tables:
    return _shipped_tables(rules) or built_tables(rules)


def _shipped_tables(rules: HandRules) -> _Tables | None:
    """One rule set's tables from TABLES_FILE (only that set's are made: a command that sets
    one hand makes no others); None when they are missing or the file is damaged (they are
    built then)."""
    try:
        data = TABLES_FILE.read_bytes()
        end = data.find(b"\n")
        header = json.loads(data[:end])
        if header["format"] != TABLES_FORMAT:
            return None
        body = zlib.decompress(data[end + 1:])
        ns, nu = header["suited"], header["unsuited"]
        sets = [HandRules(joker, wheel) for joker, wheel in header["rules"]]
        if 8 * (ns + nu) + 4 * (ns + nu) * len(sets) != len(body) or rules not in sets:
            return None
        keys = array("q")
        keys.frombytes(body[:8 * (ns + nu)])
        at = 8 * (ns + nu) + 4 * (ns + nu) * sets.index(rules)
        values = array("i")
        values.frombytes(body[at:at + 4 * (ns + nu)])
        return _Tables(dict(zip(keys[:ns], values[:ns], strict=True)),
                       dict(zip(keys[ns:], values[ns:], strict=True)))
    except (OSError, ValueError, KeyError, TypeError, zlib.error):
        return None


def write_tables(path: Path = TABLES_FILE) -> None:
    """Build every rule set's tables by the reference and write them as TABLES_FILE."""
    built = [built_tables(r) for r in ALL_RULES]
    suited, unsuited = list(built[0].suited), list(built[0].unsuited)
    body = array("q", suited + unsuited).tobytes()
    for t in built:
        assert list(t.suited) == suited and list(t.unsuited) == unsuited
        body += array("i", [*t.suited.values(), *t.unsuited.values()]).tobytes()
    header = {"format": TABLES_FORMAT, "suited": len(suited), "unsuited": len(unsuited),
              "rules": [[r.joker, r.wheel] for r in ALL_RULES]}
    path.write_bytes(json.dumps(header).encode() + b"\n" + zlib.compress(body, 9))


def built_tables(rules: HandRules) -> _Tables:
    """The tables filled by the reference evaluator, the rules as written."""
    order = {ranks: i for i, ranks in enumerate(straight_order(rules.wheel))}
    suited: dict[int, int] = {}
    unsuited: dict[int, int] = {}
    for five in combinations_with_replacement(range(2, 15), 5):
        if max(Counter(five).values()) > 4:
            continue
        unsuited[_product(five)] = _reference(five, False, order)
        if len(set(five)) == 5:
            suited[_rankbits(five)] = _reference(five, True, order)
    for four in combinations_with_replacement(range(2, 15), 4):
        if max(Counter(four).values()) > 4:
            continue
        unsuited[_product(four) * JOKER_PRIME] = max(_joker_options(four, False, rules, order))
        if len(set(four)) == 4:
            suited[_rankbits(four) | JOKER_RANKBIT] = max(
                _joker_options(four, True, rules, order))
    return _Tables(suited, unsuited)


def _product(ranks: Iterable[int]) -> int:
    p = 1
    for r in ranks:
        p *= PRIMES[r - 2]
    return p


def _rankbits(ranks: Iterable[int]) -> int:
    bits = 0
    for r in ranks:
        bits |= 1 << (r - 2)
    return bits


class Ranker:
    """Ranks hands under one set of rules; build once, call often."""

    __slots__ = ("rules", "_suited", "_unsuited")

    def __init__(self, rules: HandRules = DEFAULT_RULES) -> None:
        tables = _tables(rules)
        self.rules = rules
        self._suited = tables.suited
        self._unsuited = tables.unsuited

    def rank5(self, cards: Sequence[Card]) -> int:
        a, b, c, d, e = (x.bits for x in cards)
        if a & b & c & d & e & 0xF000:
            return self._suited[(a | b | c | d | e) >> 16]
        return self._unsuited[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]

    def rank2(self, cards: Sequence[Card]) -> int:
        x, y = cards
        if x.rank is None or y.rank is None:
            other = y if x.rank is None else x
            assert other.rank is not None
            if self.rules.joker == "fully-wild" or other.rank == Rank.ACE:
                return _pack(Category.PAIR, [int(other.rank)])
            return _pack(Category.HIGH_CARD, [14, int(other.rank)])
        hi, lo = (int(x.rank), int(y.rank)) if x.rank >= y.rank else (int(y.rank), int(x.rank))
        if hi == lo:
            return _pack(Category.PAIR, [hi])
        return _pack(Category.HIGH_CARD, [hi, lo])

    def rank(self, cards: Sequence[Card]) -> int:
        if len(cards) == 5:
            return self.rank5(cards)
        if len(cards) == 2:
            return self.rank2(cards)
        raise ValueError(f"a hand is 5 or 2 cards, not {len(cards)}")

    def best5(self, cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
        """The best five-card hand among more cards (7 at the table)."""
        best = max(combinations(cards, 5), key=self.rank5)
        return self.rank5(best), best


@cache
def ranker(rules: HandRules = DEFAULT_RULES) -> Ranker:
    return Ranker(rules)


def rank5(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> int:
    return ranker(rules).rank5(cards)


def rank2(cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> int:
    return ranker(rules).rank2(cards)


def describe(strength: int, wheel: WheelRule = "second") -> str:
    """A strength in a dealer's words: 'pair of Kings', 'straight, ace high'."""
    category = category_of(strength)
    ranks = [(strength >> s) & 0xF for s in (16, 12, 8, 4, 0)]
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        run = straight_order(wheel)[ranks[0]]
        if category == Category.STRAIGHT_FLUSH and run[0] == 14 and run[1] == 13:
            return "royal flush"
        return f"{category.label}, {Rank(run[0]).char}-{Rank(run[1]).char}-{Rank(run[2]).char}-" \
               f"{Rank(run[3]).char}-{Rank(run[4]).char}"
    name = [Rank(r).plural for r in ranks if r]
    match category:
        case Category.PAIR:
            return f"pair of {name[0]}"
        case Category.TWO_PAIR:
            return f"two pair, {name[0]} and {name[1]}"
        case Category.TRIPS:
            return f"three {name[0]}"
        case Category.FULL_HOUSE:
            return f"full house, {name[0]} over {name[1]}"
        case Category.QUADS:
            return f"four {name[0]}"
        case Category.FIVE_OF_A_KIND:
            return f"five {name[0]}"
        case _:
            high = "-".join(Rank(r).char for r in ranks if r)
            return f"{category.label}, {high}"


@dataclass(frozen=True, slots=True)
class Setting:
    """A seven-card hand set as the two-card `low` (front) and five-card `high` (back)."""

    low: tuple[Card, ...]
    high: tuple[Card, ...]

    @classmethod
    def of(cls, low: Iterable[Card], high: Iterable[Card]) -> Setting:
        return cls(tuple(sort_cards(low)), tuple(sort_cards(high)))

    @classmethod
    def from_front(cls, seven: Sequence[Card], front: Iterable[Card]) -> Setting:
        chosen = set(front)
        return cls.of(chosen, [c for c in seven if c not in chosen])

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.low + self.high

    def __str__(self) -> str:
        return f"{cards_text(self.low)} | {cards_text(self.high)}"


def foul_reason(setting: Setting, dealt: Iterable[Card] | None = None,
                rules: HandRules = DEFAULT_RULES) -> str | None:
    """Why a setting is a foul, or None when it is legal."""
    if len(setting.low) != 2 or len(setting.high) != 5:
        return (f"the hands must be 2 + 5 cards, not {len(setting.low)} + {len(setting.high)}")
    if len(set(setting.cards)) != 7:
        return "a card is in both hands"
    if dealt is not None and set(dealt) != set(setting.cards):
        return "the two hands are not the seven cards dealt to this position"
    r = ranker(rules)
    low, high = r.rank2(setting.low), r.rank5(setting.high)
    if low > high:
        return (f"the two-card hand ({describe(low, rules.wheel)}) outranks the five-card hand "
                f"({describe(high, rules.wheel)})")
    return None


def is_foul(setting: Setting, dealt: Iterable[Card] | None = None,
            rules: HandRules = DEFAULT_RULES) -> bool:
    return foul_reason(setting, dealt, rules) is not None


if __name__ == "__main__":  # python -m app.core.hands: write the shipped tables again
    write_tables(Path(sys.argv[1]) if len(sys.argv) > 1 else TABLES_FILE)
