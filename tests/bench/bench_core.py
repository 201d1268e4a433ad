"""Ranking and House Way speed: ours against the pure-Python evaluator treys."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from app.core.cards import DECK, Card
from app.core.hands import ranker
from app.core.house_way import WAYS, hand_rules_for, house_way

RANK_HANDS = 300_000
HOUSE_WAY_HANDS = 40_000


def per_second(fn: Callable[[], object], count: int, repeats: int = 3) -> float:
    """Best of a few runs: the least disturbed by the other work on the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return count / best


def rank5_figures(hands: Sequence[tuple[Card, ...]]) -> tuple[float, float]:
    from treys import Card as TreysCard  # the bench extra only
    from treys import Evaluator

    rank5 = ranker().rank5
    ours = per_second(lambda: [rank5(h) for h in hands], len(hands))
    evaluator = Evaluator()
    as_treys = [[TreysCard.new(str(c)[0] + str(c)[1].lower()) for c in h] for h in hands]
    five = evaluator.evaluate
    theirs = per_second(lambda: [five(h[:2], h[2:]) for h in as_treys], len(hands))
    return ours, theirs


def house_way_figure(name: str, hands: Sequence[tuple[Card, ...]]) -> float:
    card = house_way(name)
    return per_second(lambda: [card.set(h) for h in hands], len(hands), repeats=2)


def table_figure(name: str, hands: Sequence[tuple[Card, ...]]) -> float:
    """The same hands by the card's table."""
    from app.cache import use_cache
    from app.core.house_way.table import table_of

    use_cache()
    card = house_way(name)
    table = table_of(card, hand_rules_for(card))
    return per_second(lambda: [table.set(h) for h in hands], len(hands), repeats=2)


def main() -> None:
    rng = random.Random(2026)
    natural = DECK[:52]
    hands5 = [tuple(rng.sample(natural, 5)) for _ in range(RANK_HANDS)]
    hands7 = [tuple(rng.sample(DECK, 7)) for _ in range(HOUSE_WAY_HANDS)]
    ours, treys = rank5_figures(hands5)
    print(f"bench rank5 ours={ours:,.0f}/s treys={treys:,.0f}/s ratio={ours / treys:.2f}"
          .replace(",", ""))
    for name in WAYS:
        print(f"bench house-way {name}={house_way_figure(name, hands7):.0f}/s "
              f"by-table={table_figure(name, hands7):.0f}/s")
