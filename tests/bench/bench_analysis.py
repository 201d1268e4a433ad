"""The pit's analysis: rounds simulated per second on one core and on all of them (target:
10,000 a second a core), and how long `advise` takes for a 1% error (target: 2 s).

Each figure starts cold, as a command does: the House Way settings are looked up by ranks
and set once each per process, so the first rounds of a run are the slowest.
"""

from __future__ import annotations

import time

from app.core.analysis.advise import advise
from app.core.analysis.fast import WaySetter
from app.core.analysis.simulate import cores, simulate
from app.core.cards import parse_cards

PER_CORE_ROUNDS = 300_000
ADVISE_HANDS = ("AS KD 9H 7C 5D 3S 2H", "6S 6D 5H 5C KD 9S 8H", "QS QD AH 9C 7D 4S 2H")
ERROR = 0.01


def simulate_figures(way: str = "trump-plaza") -> tuple[float, float]:
    one = simulate(PER_CORE_ROUNDS, way=way, seed=1, workers=1)
    k = cores()
    every = simulate(PER_CORE_ROUNDS * k, way=way, seed=1, workers=k)
    return one.rounds_per_second, every.rounds_per_second


def advise_figures(way: str = "standard") -> tuple[float, float]:
    """The slowest of a few hands, each with a cold dealer cache, and its error."""
    slowest, error = 0.0, 0.0
    for text in ADVISE_HANDS:
        start = time.perf_counter()
        advice = advise(parse_cards(text), way=way, error=ERROR, setter=WaySetter(way))
        slowest = max(slowest, time.perf_counter() - start)
        error = max(error, advice.error)
    return slowest, error


def main() -> None:
    per_core, all_cores = simulate_figures()
    print(f"bench simulate per-core={per_core:.0f}/s all-cores={all_cores:.0f}/s")
    seconds, error = advise_figures()
    print(f"bench advise seconds={seconds:.2f} error={error:.4f}")
