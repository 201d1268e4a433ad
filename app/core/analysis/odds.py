"""How often seven cards make each best five-card hand, exactly or by simulation.

Exact: the 154,143,080 seven-card hands of the 53-card deck are counted without dealing
them one by one. A hand's best five depends on its ranks (a multiset, the joker its own)
and, when one suit holds five of the seven (the joker counted in every suit), on which ranks
are in that suit; at most one suit can. So for every multiset of ranks we rank the best
five once with the suits spread (no flush), and once for every set of ranks a flush suit
may hold, and weigh each by how many ways the suits fall that way. It takes a few seconds
and gives the published counts exactly (tests/core/test_analysis_odds.py).

By simulation: `simulate_odds` deals random hands and reports each share with its
standard error.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from ..cards import DECK, JOKER, parse_cards
from ..classes import class_key, multisets, spread
from ..hands import DEFAULT_RULES, Category, HandRules, category_of, ranker

SCHEMA = "paigow.odds/1"
ROWS = ("five aces", "royal flush", "straight flush", "four of a kind", "full house",
        "flush", "straight", "three of a kind", "two pair", "one pair", "high card")
_BY_CATEGORY = {
    Category.FIVE_OF_A_KIND: "five aces", Category.STRAIGHT_FLUSH: "straight flush",
    Category.QUADS: "four of a kind", Category.FULL_HOUSE: "full house",
    Category.FLUSH: "flush", Category.STRAIGHT: "straight", Category.TRIPS: "three of a kind",
    Category.TWO_PAIR: "two pair", Category.PAIR: "one pair", Category.HIGH_CARD: "high card",
}


class OddsError(ValueError):
    """Options `odds` cannot take: what and why."""


@dataclass(frozen=True, slots=True)
class OddsRow:
    hand: str
    count: int
    probability: float
    se: float | None  # standard error of `probability`; None when it is exact

    def to_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "count": self.count, "probability": self.probability,
                "se": self.se}


@dataclass(frozen=True, slots=True)
class Odds:
    """The best five-card hand of seven cards: how many hands (of `total`) make each."""

    rows: tuple[OddsRow, ...]
    total: int
    exact: bool
    deck: int  # 53 with the joker, 52 without
    rules: HandRules
    seed: int | None = None

    def row(self, hand: str) -> OddsRow:
        return next(r for r in self.rows if r.hand == hand)

    def to_dict(self) -> dict[str, object]:
        return {
            "schema": SCHEMA,
            "method": "exact" if self.exact else "simulation",
            "deck": self.deck,
            "rules": {"joker": self.rules.joker, "wheel": self.rules.wheel},
            "hands": self.total,
            "seed": self.seed,
            "rows": [r.to_dict() for r in self.rows],
        }

    def text(self) -> str:
        how = ("exact: every seven-card hand counted" if self.exact
               else f"simulation of {self.total:,} hands, seed {self.seed}")
        joker = f"joker {self.rules.joker}" if self.deck == 53 else "no joker"
        out = [f"Best five-card hand of seven cards, {self.deck}-card deck ({joker}); {how}",
               f"  {'hand':<16} {'hands':>13} {'probability':>12} "
               f"{'1 in':>12}" + ("" if self.exact else f" {'±':>9}")]
        for r in self.rows:
            one_in = f"{1 / r.probability:,.1f}" if r.probability else "-"
            line = (f"  {r.hand:<16} {r.count:>13,} {r.probability:>12.6%} {one_in:>12}")
            if r.se is not None:
                line += f" {r.se:>9.6%}"
            out.append(line)
        out.append(f"  {'total':<16} {self.total:>13,} "
                   f"{sum(r.probability for r in self.rows):>12.6%}")
        return "\n".join(out)


def hand_name(strength: int, royal: int) -> str:
    """The odds row of a five-card strength."""
    if strength == royal:
        return "royal flush"
    return _BY_CATEGORY[category_of(strength)]


def royal_strength(rules: HandRules) -> int:
    return ranker(rules).rank5(parse_cards("AS KS QS JS TS"))


def _odds(counts: Counter[str], total: int, exact: bool, deck: int, rules: HandRules,
          seed: int | None) -> Odds:
    rows = []
    for name in ROWS:
        n = counts.get(name, 0)
        p = n / total if total else 0.0
        se = None if exact else (math.sqrt(p * (1 - p) / total) if total else 0.0)
        rows.append(OddsRow(name, n, p, se))
    return Odds(tuple(rows), total, exact, deck, rules, seed)


# --- exact -----------------------------------------------------------------------------------

def exact_odds(rules: HandRules = DEFAULT_RULES, joker: bool = True) -> Odds:
    """Every seven-card hand of the deck (with or without the joker), counted."""
    return _exact(rules, joker)


@cache
def _exact(rules: HandRules, joker: bool) -> Odds:
    rank5 = ranker(rules).rank5
    royal = royal_strength(rules)
    counts: Counter[str] = Counter()
    suited = _suited_best(rules)
    for jokers in ((0, 1) if joker else (0,)):
        for ranks in multisets(7 - jokers):
            cards = spread(ranks) + ((JOKER,) if jokers else ())
            plain = max(rank5(five) for five in combinations(cards, 5))
            ways = math.prod(math.comb(4, c) for c in ranks)
            present = [(r, c) for r, c in enumerate(ranks) if c]
            flushes = 0
            for size in range(5 - jokers, len(present) + 1):
                for in_suit in combinations(present, size):
                    chosen = {r for r, _ in in_suit}
                    w = 4 * math.prod(math.comb(3, c - 1) if r in chosen else math.comb(3, c)
                                      for r, c in present)
                    if not w:
                        continue
                    bits = sum(1 << r for r in chosen)
                    best = max(plain, suited(bits, jokers))
                    counts[hand_name(best, royal)] += w
                    flushes += w
            counts[hand_name(plain, royal)] += ways - flushes
    total = math.comb(53 if joker else 52, 7)
    assert sum(counts.values()) == total, "the exact count missed some hands"
    return _odds(counts, total, True, 53 if joker else 52, rules, None)


def _suited_best(rules: HandRules) -> Callable[[int, int], int]:
    rank5 = ranker(rules).rank5

    @cache
    def best(bits: int, jokers: int) -> int:
        cards = [DECK[r] for r in range(13) if bits >> r & 1] + ([JOKER] if jokers else [])
        return max(rank5(five) for five in combinations(cards, 5))
    return best


# --- simulation ------------------------------------------------------------------------------

def simulate_odds(hands: int, seed: int = 0, rules: HandRules = DEFAULT_RULES,
                  joker: bool = True) -> Odds:
    """`hands` random seven-card hands, each share with its standard error."""
    if hands < 1:
        raise OddsError(f"deal at least one hand, not {hands}")
    best5 = ranker(rules).rank5
    royal = royal_strength(rules)
    deck = range(53 if joker else 52)
    sample = random.Random(f"paigow.odds/{seed}").sample
    by_key: dict[int, str] = {}
    counts: Counter[str] = Counter()
    for _ in range(hands):
        hand = sample(deck, 7)
        key = class_key(hand)
        name = by_key.get(key)
        if name is None:
            cards = [DECK[i] for i in hand]
            name = by_key[key] = hand_name(
                max(best5(five) for five in combinations(cards, 5)), royal)
        counts[name] += 1
    return _odds(counts, hands, False, 53 if joker else 52, rules, seed)
