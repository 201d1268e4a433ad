"""Facts about a seven-card hand, computed once, in the words of a rule card.

Groups (pairs, trips, quads, singletons) count the joker as an ace, as the cards do
("One Pair composed of Ace and Joker", "2 Aces and 1 Joker"). Straights and flushes may
use the joker to fill them. A rule card may use the joker both ways when it asks what a
hand *contains* ("Straight and Full House"): each is a five-card hand the seven make.
`beside_straight_flush` is the other reading, for a card's rows that ask which pair lies
beside a straight flush: a joker the straight flush needs is that card, not an ace.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..cards import Card, sort_cards
from ..hands import HandRules

ACE = 14


def value(c: Card) -> int:
    """A card's rank as a number, the joker as an ace."""
    return ACE if c.rank is None else int(c.rank)


@dataclass(frozen=True, slots=True)
class Run:
    """A straight found in the hand, read low to high (DESIGN.md): `cards[0]` is the first
    card of the straight and `cards[-1]` the last; the joker stands where it fills."""

    cards: tuple[Card, ...]
    start: int  # rank of the first card; 1 when an ace starts it (A-2-3-...)

    @property
    def length(self) -> int:
        return len(self.cards)

    def position_of_joker(self) -> int | None:
        """1-based place of the joker in the straight, or None."""
        for i, c in enumerate(self.cards):
            if c.is_joker:
                return i + 1
        return None

    @property
    def starts_with_ace(self) -> bool:
        return self.start == 1

    @property
    def first(self) -> Card:
        return self.cards[0]

    @property
    def last(self) -> Card:
        return self.cards[-1]


def longest_run(cards: Iterable[Card], joker: Card | None) -> Run | None:
    """The longest straight in `cards` (the joker may fill one gap or an end).

    Of equally long runs the higher wins, and a joker that could stand at either end
    stands at the higher one: that is the stronger straight to keep behind.
    """
    by_rank: dict[int, Card] = {}
    for c in sort_cards(cards):
        if c.rank is not None:
            by_rank.setdefault(int(c.rank), c)
    if ACE in by_rank:
        by_rank[1] = by_rank[ACE]
    best: Run | None = None
    for start in range(1, 14):
        run: list[Card] = []
        used_joker = False
        r = start
        while r <= ACE:
            if r in by_rank:
                run.append(by_rank[r])
            elif joker is not None and not used_joker:
                run.append(joker)
                used_joker = True
            else:
                break
            r += 1
        if len(run) >= 5 and (best is None or len(run) >= best.length):
            best = Run(tuple(run), start)
    return best


class Facts:
    """What a rule card asks about one seven-card hand; every answer computed once."""

    def __init__(self, cards: Sequence[Card], rules: HandRules, joker_as_ace: bool = True
                 ) -> None:
        self.cards = tuple(cards)
        self.rules = rules
        self.joker: Card | None = next((c for c in cards if c.is_joker), None)
        self.joker_as_ace = joker_as_ace

    # --- groups, the joker counted as an ace -----------------------------------------
    @cached_property
    def groups(self) -> dict[int, list[Card]]:
        """Cards by rank, highest first; the joker last among the aces."""
        out: dict[int, list[Card]] = {}
        for c in sort_cards(self.cards):
            if c.is_joker and not self.joker_as_ace:
                continue
            out.setdefault(value(c), []).append(c)
        for cs in out.values():
            cs.sort(key=lambda c: c.is_joker)
        return out

    def ranks_with(self, n: int) -> list[int]:
        return sorted((r for r, cs in self.groups.items() if len(cs) == n), reverse=True)

    @cached_property
    def quads(self) -> list[int]:
        return self.ranks_with(4)

    @cached_property
    def trips(self) -> list[int]:
        return self.ranks_with(3)

    @cached_property
    def pairs(self) -> list[int]:
        """Ranks of the pairs, highest first."""
        return self.ranks_with(2)

    @cached_property
    def singles(self) -> list[Card]:
        """Singleton cards, highest first."""
        return [cs[0] for r, cs in sorted(self.groups.items(), reverse=True) if len(cs) == 1]

    def of_rank(self, rank: int) -> list[Card]:
        return self.groups.get(rank, [])

    @cached_property
    def by_value(self) -> list[Card]:
        """All seven cards highest first, the joker as an ace."""
        return sorted(self.cards, key=lambda c: (value(c), not c.is_joker), reverse=True)

    @property
    def pair_uses_joker(self) -> bool:
        aces = self.of_rank(ACE)
        return self.joker is not None and self.joker in aces and len(aces) == 2

    @property
    def natural_aces(self) -> list[Card]:
        return [c for c in self.of_rank(ACE) if not c.is_joker]

    @property
    def full_house(self) -> bool:
        return bool(self.trips) and (bool(self.pairs) or len(self.trips) > 1)

    # --- flushes and straights -----------------------------------------------------------
    @cached_property
    def flush_cards(self) -> tuple[Card, ...]:
        """The flush's cards (natural, highest first, then the joker), or () if none."""
        return flush_in(self.cards)

    @property
    def flush(self) -> bool:
        return bool(self.flush_cards)

    @property
    def flush_size(self) -> int:
        return len(self.flush_cards)

    @cached_property
    def run(self) -> Run | None:
        return longest_run(self.cards, self.joker)

    @cached_property
    def suited_run(self) -> Run | None:
        """The longest straight flush."""
        if not self.flush_cards:
            return None
        return longest_run([c for c in self.flush_cards if not c.is_joker], self.joker)

    @property
    def straight_flush(self) -> bool:
        return self.suited_run is not None

    @cached_property
    def joker_completes_straight_flush(self) -> bool:
        """Seed 000: "The Joker can be used to complete a five-card flush, straight, or
        straight flush. Otherwise, the Joker is counted as an Ace." The joker completes the
        straight flush when the seven make one but their natural cards make none that
        leaves a natural ace beside it for the joker to pair with: in 2S 3S 4S 5S AS 2H JK
        the A-5 of spades needs the ace of spades, so the joker is the straight flush's card
        and the pair is the 2s; in 5S 6S 7S 8S 9S AH JK it pairs the ace of hearts."""
        if self.joker is None or not self.straight_flush:
            return False
        naturals = [c for c in self.cards if not c.is_joker]
        spare: list[Card | None] = [*self.natural_aces] or [None]
        return not any(_natural_straight_flush([c for c in naturals if c is not ace])
                       for ace in spare)

    @cached_property
    def beside_straight_flush(self) -> Facts:
        """The hand as the rows "Straight Flush and One Pair" read it: the joker in no
        group when it completes the straight flush (it cannot be that card and an ace at
        once), else this same reading."""
        if not self.joker_completes_straight_flush:
            return self
        return Facts(self.cards, self.rules, joker_as_ace=False)

    @cached_property
    def royal(self) -> bool:
        return _has_royal(self.flush_cards, self.joker)

    def without(self, *remove: Card) -> tuple[Card, ...]:
        gone = set(remove)
        return tuple(c for c in self.cards if c not in gone)


def flush_in(cards: Sequence[Card]) -> tuple[Card, ...]:
    joker = next((c for c in cards if c.is_joker), None)
    for suit_cards in _by_suit(cards).values():
        if len(suit_cards) + (joker is not None) >= 5:
            return tuple(suit_cards) + ((joker,) if joker else ())
    return ()


def straight_in(cards: Sequence[Card]) -> bool:
    return longest_run(cards, next((c for c in cards if c.is_joker), None)) is not None


def _natural_straight_flush(cards: Sequence[Card]) -> bool:
    return any(len(cs) >= 5 and longest_run(cs, None) is not None
               for cs in _by_suit(cards).values())


def _by_suit(cards: Iterable[Card]) -> dict[object, list[Card]]:
    out: dict[object, list[Card]] = {}
    for c in sort_cards(cards):
        if c.suit is not None:
            out.setdefault(c.suit, []).append(c)
    return out


def _has_royal(flush_cards: Sequence[Card], joker: Card | None) -> bool:
    ranks = {int(c.rank) for c in flush_cards if c.rank is not None}
    missing = {10, 11, 12, 13, 14} - ranks
    return not missing or (len(missing) == 1 and joker is not None)
