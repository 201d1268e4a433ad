"""The phrases rule cards are written in, as conditions and plays over `Facts`.

A play returns the two cards that go in front, or None when the hand lacks what it
names (then the rule does not fit and the card reads on).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from .facts import ACE, Facts, Run, flush_in, straight_in, value

Front = Sequence[Card] | None


def two(a: Card | None, b: Card | None) -> Front:
    return None if a is None or b is None else (a, b)


def first(cards: Sequence[Card]) -> Card | None:
    return cards[0] if cards else None


# --- groups -------------------------------------------------------------------------------
def pair_of(f: Facts, rank: int, avoid: Sequence[Card] = ()) -> Front:
    """Two cards of a rank, those outside `avoid` (a made hand) first, naturals first."""
    cards = sorted(f.of_rank(rank), key=lambda c: (c in avoid, c.is_joker))
    return tuple(cards[:2]) if len(cards) >= 2 else None


def lowest_pair(f: Facts) -> Front:
    return pair_of(f, f.pairs[-1]) if f.pairs else None


def highest_pair(f: Facts) -> Front:
    return pair_of(f, f.pairs[0]) if f.pairs else None


def two_from_trips(f: Facts, avoid: Sequence[Card] = ()) -> Front:
    """Two cards from the (highest) three of a kind."""
    return pair_of(f, f.trips[0], avoid) if f.trips else None


def one_from_trips_and_highest_single(f: Facts) -> Front:
    return two(first(f.of_rank(f.trips[0])) if f.trips else None, first(f.singles))


def two_highest_singles(f: Facts) -> Front:
    return tuple(f.singles[:2]) if len(f.singles) >= 2 else None


def nth_highest(f: Facts, *places: int) -> Front:
    """Cards by their place in the hand sorted high to low (1 = highest)."""
    return tuple(f.by_value[p - 1] for p in places)


def joker_and_ace(f: Facts, avoid: Sequence[Card] = ()) -> Front:
    aces = sorted(f.natural_aces, key=lambda c: c in avoid)
    return two(f.joker, first(aces))


# --- what the hand contains ---------------------------------------------------------------
def one_pair(f: Facts) -> bool:
    return len(f.pairs) == 1 and not f.trips and not f.quads


def two_pairs(f: Facts) -> bool:
    return len(f.pairs) == 2 and not f.trips and not f.quads


def three_pairs(f: Facts) -> bool:
    return len(f.pairs) == 3


def one_trips(f: Facts) -> bool:
    return len(f.trips) == 1 and not f.pairs and not f.quads


def still_flush(f: Facts, *remove: Card | None) -> bool:
    return bool(flush_in(f.without(*[c for c in remove if c is not None])))


def still_straight(f: Facts, *remove: Card | None) -> bool:
    return straight_in(f.without(*[c for c in remove if c is not None]))


def pair_cards(f: Facts, index: int) -> tuple[Card, ...]:
    """A pair's cards, pairs read low to high: index 0 is the first (lowest) pair."""
    ranks = sorted(f.pairs)
    return tuple(f.of_rank(ranks[index])) if len(ranks) > index else ()


# --- flushes: the steps of "Flush and 3-of-a-kind" ----------------------------------------
def non_flush(f: Facts) -> list[Card]:
    return [c for c in f.by_value if c not in f.flush_cards]


def highest_in_flush(f: Facts) -> Card | None:
    return first([c for c in f.flush_cards if not c.is_joker])


def flush_size(n: int, joker: bool) -> Callable[[Facts], bool]:
    def test(f: Facts) -> bool:
        return f.flush_size == n and (f.joker is not None) == joker
    return test


# --- straights: the steps of "Straight and 3-of-a-kind" -----------------------------------
def outside(f: Facts, run: Run | None) -> list[Card]:
    """Cards not in the straight ("non-straights"), highest first."""
    return [c for c in f.by_value if run is None or c not in run.cards]


def ace_first(run: Run) -> bool:
    return run.starts_with_ace and value(run.first) == ACE and not run.first.is_joker
