"""More phrases rule cards are written in: conditions that combine, what a hand keeps
behind, and a pair "played in the top hand only if" the five-card hand survives.

Like `plays`, a play returns the two cards that go in front, or None when the hand lacks
what it names. These are general: any card may use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..cards import Card, sort_cards
from ..hands import Category, Setting, category_of, foul_reason, ranker
from .engine import Rule
from .facts import ACE, Facts, value
from .plays import Front, two

Cond = Callable[[Facts], bool]

# What "a straight, flush or straight flush" is as a five-card hand (a royal is the top
# straight flush).
STRAIGHT_OR_FLUSH: frozenset[Category] = frozenset(
    {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH})


# --- conditions ---------------------------------------------------------------------------
def both(*conds: Cond) -> Cond:
    return lambda f: all(c(f) for c in conds)


def neither(*conds: Cond) -> Cond:
    return lambda f: not any(c(f) for c in conds)


def within(section: Cond, rules: Iterable[Rule]) -> tuple[Rule, ...]:
    """The same rules (same ids and words), fitting only hands of this section."""
    return tuple(Rule(r.id, r.says, both(section, r.when), r.play, r.steps) for r in rules)


def five_aces(f: Facts) -> bool:
    return len(f.of_rank(ACE)) == 5


def straight_or_flush(f: Facts) -> bool:
    """The seven make a straight, a flush or a straight flush (the joker may fill it)."""
    return f.run is not None or f.flush


def six_or_seven(f: Facts) -> bool:
    """A sixth or seventh card extends a straight or a flush."""
    return (f.run is not None and f.run.length >= 6) or f.flush_size >= 6


def no_pair(f: Facts) -> bool:
    """Seven different ranks (the joker an ace)."""
    return not f.pairs and not f.trips and not f.quads and not five_aces(f)


def highest_single_is(f: Facts, *ranks: int) -> bool:
    """The highest card outside the pairs and sets is one of `ranks` (the joker an ace)."""
    return bool(f.singles) and value(f.singles[0]) in ranks


# --- what the five-card hand keeps ---------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Keep:
    """One way to set the hand: its front, its back and their strengths."""

    front: tuple[Card, Card]
    back: tuple[Card, ...]
    front_strength: int
    back_strength: int


def keeps(f: Facts, categories: frozenset[Category] = STRAIGHT_OR_FLUSH,
          fronts: Iterable[tuple[Card, Card]] | None = None) -> list[Keep]:
    """Every setting whose five-card hand is one of `categories`; with `fronts`, only
    those fronts are tried (else every pair of the seven)."""
    r = ranker(f.rules)
    out: list[Keep] = []
    # Cards in the order a dealer fans them, so the same seven always set the same way.
    for front in (combinations(sort_cards(f.cards), 2) if fronts is None else fronts):
        back = f.without(*front)
        strength = r.rank5(back)
        if category_of(strength) in categories:
            out.append(Keep((front[0], front[1]), back, r.rank2(front), strength))
    return out


def best_keep(found: Sequence[Keep]) -> Front:
    """The keep that leaves the highest two cards in front; of equal fronts, the
    stronger five-card hand."""
    if not found:
        return None
    return max(found, key=lambda k: (k.front_strength, k.back_strength)).front


def highest_front_keeping(categories: frozenset[Category] = STRAIGHT_OR_FLUSH
                          ) -> Callable[[Facts], Front]:
    """'Play the category that will allow the highest two cards to be played in front':
    of every five-card hand of `categories` the seven make, the one that leaves the
    highest two-card hand."""
    return lambda f: best_keep(keeps(f, categories))


def pair_in_front_keeping(f: Facts, rank: int,
                          categories: frozenset[Category] = STRAIGHT_OR_FLUSH) -> Front:
    """Two cards of `rank` in front, only if the other five are still one of
    `categories` (the strongest such five); None if no two of them can go."""
    return best_keep(keeps(f, categories, combinations(f.of_rank(rank), 2)))


# --- plays that choose ---------------------------------------------------------------------
def first_legal(*plays: Callable[[Facts], Front]) -> Callable[[Facts], Front]:
    """The first of `plays` whose front the hand can take without a foul (a card whose
    words read one way under one joker rule may need a second way under another)."""
    def play(f: Facts) -> Front:
        for p in plays:
            front = p(f)
            if front is not None and not foul_reason(
                    Setting.from_front(f.cards, front), f.cards, f.rules):
                return front
        return None
    return play


def two_highest_natural_singles(f: Facts) -> Front:
    """The two highest singletons that are not the joker."""
    natural = [c for c in f.singles if not c.is_joker]
    return two(natural[0], natural[1]) if len(natural) >= 2 else None
