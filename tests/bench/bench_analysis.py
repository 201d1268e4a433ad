"""The pit's analysis: rounds simulated per second on one core and on all of them (goal,
issue 14: one million a second a core, numpy over the card's tables), and how long
`advise` takes for a 1% error (target: 2 s), and how long `paigow edge` takes to give the
standard card's house edge to +-0.01% (issue 14: "in a few minutes"; five, as the goal),
printed beside the published figure.

The card's tables are built (once, kept in the cache) before the simulation is timed, as
`paigow simulate` builds them before it plays.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from app.cache import use_cache
from app.core.analysis.advise import advise
from app.core.analysis.simulate import simulate
from app.core.cards import parse_cards
from app.core.hands import DEFAULT_RULES
from app.core.house_way import house_way
from app.core.house_way.table import cores, table_of

PER_CORE_ROUNDS = 3_000_000
PER_CORE_GOAL = 1_000_000
ADVISE_HANDS = ("AS KD 9H 7C 5D 3S 2H", "6S 6D 5H 5C KD 9S 8H", "QS QD AH 9C 7D 4S 2H")
ERROR = 0.01
EDGE_GOAL_S = 300.0


def simulate_figures(way: str = "trump-plaza") -> tuple[float, float]:
    from app.commands import vectors

    table_of(house_way(way), DEFAULT_RULES)  # built and kept before the clock starts
    one = simulate(PER_CORE_ROUNDS, way=way, seed=1, workers=1, player=vectors.play)
    k = cores()
    every = simulate(PER_CORE_ROUNDS * k, way=way, seed=1, workers=k, player=vectors.play)
    return one.rounds_per_second, every.rounds_per_second


def advise_figures(way: str = "standard") -> tuple[float, float]:
    """The slowest of a few hands (the dealer's table read before), and its error."""
    slowest, error = 0.0, 0.0
    for text in ADVISE_HANDS:
        start = time.perf_counter()
        advice = advise(parse_cards(text), way=way, error=ERROR)
        slowest = max(slowest, time.perf_counter() - start)
        error = max(error, advice.error)
    return slowest, error


def edge_figures(way: str = "standard") -> tuple[float, dict, dict]:
    """`paigow edge` to its default +-0.01%, timed whole (the card's tables built first)."""
    subprocess.run([sys.executable, "-m", "app.cli", "edge", "--way", way, "--precision",
                    "1", "--json"], check=True, capture_output=True)
    start = time.perf_counter()
    ran = subprocess.run([sys.executable, "-m", "app.cli", "edge", "--way", way, "--json"],
                         check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    found = json.loads(ran.stdout)
    return seconds, found["cards"][0], found["published"]


def main() -> None:
    use_cache()
    per_core, all_cores = simulate_figures()
    print(f"bench simulate per-core={per_core:.0f}/s all-cores={all_cores:.0f}/s "
          f"goal={PER_CORE_GOAL}/s-per-core {'met' if per_core >= PER_CORE_GOAL else 'missed'}")
    seconds, error = advise_figures()
    print(f"bench advise seconds={seconds:.2f} error={error:.4f}")
    seconds, card, published = edge_figures()
    low, high = card["house_edge_95"]
    print(f"bench edge standard={card['house_edge'] * 100:.3f}%+-{(high - low) * 50:.3f}% "
          f"rounds={card['rounds']} seconds={seconds:.0f} goal<{EDGE_GOAL_S:.0f}s "
          f"{'met' if seconds < EDGE_GOAL_S else 'missed'} published="
          f"{published['house_edge'] * 100:.2f}%")
