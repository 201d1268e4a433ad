"""The house edge of a House Way: N rounds of one player against the bank, both hands set
the House Way, settled by the table's rules (copies to the banker, the commission of the
settlement's `CommissionPolicy` on every win).

Reproducible: worker k of K draws its deals from its own generator, seeded from the seed
and k (`worker_seed`), and plays `share(rounds, K)[k]` rounds; the tallies are summed. So a
seed and a worker count always give the same figures, however the processes are
scheduled. The work is spread over processes with `multiprocessing` (standard library).

Fast: each round deals 14 of the 53 cards (`deal`), looks both settings up by their ranks
(`fast.WaySetter`) and compares four integers. No objects are made per hand.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import queue
import random
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from math import prod
from typing import Any

from ..hands import DEFAULT_RULES, HandRules
from ..settlement import CommissionPolicy, Outcome, money
from .fast import (
    DECK_SIZE,
    FIVE_OF_A_SUIT,
    MASK,
    PLUS_THREE,
    PRIME,
    SHIFT,
    SUIT,
    Way,
    WaySetter,
    card_of,
)
from .fast import flush_ranks as _flush_ranks

# The commission of the table as shipped (config/default.toml): 5% rounded up to $0.25.
DEFAULT_COMMISSION = CommissionPolicy()
SCHEMA = "paigow.simulation/1"
Z95 = 1.959964  # two-sided 95% of the normal distribution
BATCH = 10_000  # rounds between progress reports
CARDS = range(DECK_SIZE)

Progress = Callable[[int], None]
# How a worker plays its rounds: `play` below (standard library), or a faster engine with
# the same signature and the same tally for the same deals' odds (app/commands/vectors.py
# plays them in numpy batches); a module-level function, so it reaches worker processes.
Player = Callable[[int, int, int, str, str, HandRules, "Progress | None"], "Tally"]


class SimulationError(RuntimeError):
    """A simulation that could not run: what went wrong and where."""


def versus(front: int, back: int, bank_front: int, bank_back: int) -> Outcome:
    """A player's two strengths against the banker's, as the settlement reads them: win
    both to win, lose both (copies go to the banker) to lose, else push."""
    if front > bank_front:
        return Outcome.WIN if back > bank_back else Outcome.PUSH
    return Outcome.PUSH if back > bank_back else Outcome.LOSE


# --- reproducible deals ----------------------------------------------------------------------

def worker_seed(seed: int, worker: int) -> int:
    """Worker k's own seed, derived from the run's seed (the same on every machine)."""
    digest = hashlib.sha256(f"paigow.simulate/{seed}/{worker}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def share(rounds: int, workers: int) -> list[int]:
    """How many rounds each of `workers` plays: as even as can be, the first ones one more."""
    base, extra = divmod(rounds, workers)
    return [base + (k < extra) for k in range(workers)]


def deals(seed: int, worker: int, count: int) -> Iterator[tuple[list[int], list[int]]]:
    """Worker k's deals: (the player's 7 card indexes, the banker's 7), as the fast loop
    draws them (the same generator calls)."""
    sample = random.Random(worker_seed(seed, worker)).sample
    for _ in range(count):
        cards = sample(CARDS, 14)
        yield cards[:7], cards[7:]


# --- the tally -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tally:
    """Counts over rounds: outcomes for the player, and copies (a copy goes to the banker)."""

    rounds: int = 0
    wins: int = 0
    pushes: int = 0
    losses: int = 0
    front_copies: int = 0
    back_copies: int = 0
    copy_rounds: int = 0  # rounds with a copy in either hand

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(_fields(self), _fields(other), strict=True)))


def _fields(t: Tally) -> tuple[int, ...]:
    return (t.rounds, t.wins, t.pushes, t.losses, t.front_copies, t.back_copies, t.copy_rounds)


def play(rounds: int, seed: int, worker: int, way: str, dealer_way: str,
         rules: HandRules = DEFAULT_RULES, progress: Progress | None = None) -> Tally:
    """Worker k's rounds, in this process. The hot loop of the module."""
    sample = random.Random(worker_seed(seed, worker)).sample
    player = WaySetter(way, rules)
    dealer = player if dealer_way == way else WaySetter(dealer_way, rules)
    pcache, dcache = player.cache, dealer.cache
    pget, dget = pcache.get, dcache.get
    prime, suit = PRIME.__getitem__, SUIT.__getitem__
    cards = CARDS
    wins = losses = front_copies = back_copies = copy_rounds = 0
    done = 0
    while done < rounds:
        batch = min(BATCH, rounds - done)
        for _ in range(batch):
            dealt = sample(cards, 14)
            hand = dealt[:7]
            key = prod(map(prime, hand))
            suits = sum(map(suit, hand))
            if (suits + PLUS_THREE) & FIVE_OF_A_SUIT:
                key = -(key << 15 | _flush_ranks(hand, suits))
            mine = pget(key)
            if mine is None:
                mine = player.packed_slow(key, hand)
            hand = dealt[7:]
            key = prod(map(prime, hand))
            suits = sum(map(suit, hand))
            if (suits + PLUS_THREE) & FIVE_OF_A_SUIT:
                key = -(key << 15 | _flush_ranks(hand, suits))
            bank = dget(key)
            if bank is None:
                bank = dealer.packed_slow(key, hand)
            front, bank_front = mine >> SHIFT, bank >> SHIFT
            back, bank_back = mine & MASK, bank & MASK
            if front > bank_front:
                if back > bank_back:
                    wins += 1
                elif back == bank_back:
                    back_copies += 1
                    copy_rounds += 1
            else:
                if front == bank_front:
                    front_copies += 1
                    copy_rounds += 1
                    if back == bank_back:
                        back_copies += 1
                elif back == bank_back:
                    back_copies += 1
                    copy_rounds += 1
                if back <= bank_back:
                    losses += 1
        done += batch
        if progress is not None:
            progress(batch)
    return Tally(rounds, wins, rounds - wins - losses, losses, front_copies, back_copies,
                 copy_rounds)


# --- the result ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Simulation:
    """What N rounds gave. Rates are shares of rounds; money is per unit wagered."""

    way: str
    dealer_way: str
    seed: int
    workers: int
    wager: int  # cents on each round
    commission: int  # cents the policy takes from a win of `wager`
    policy: CommissionPolicy
    rules: HandRules
    tally: Tally
    seconds: float = field(default=0.0, compare=False)

    @property
    def rounds(self) -> int:
        return self.tally.rounds

    def rate(self, count: int) -> float:
        return count / self.rounds if self.rounds else 0.0

    def rate_se(self, count: int) -> float:
        """Standard error of a share of rounds (binomial)."""
        if not self.rounds:
            return 0.0
        p = count / self.rounds
        return math.sqrt(p * (1 - p) / self.rounds)

    @property
    def win_rate(self) -> float:
        return self.rate(self.tally.wins)

    @property
    def push_rate(self) -> float:
        return self.rate(self.tally.pushes)

    @property
    def loss_rate(self) -> float:
        return self.rate(self.tally.losses)

    @property
    def copy_rate(self) -> float:
        return self.rate(self.tally.copy_rounds)

    @property
    def paid(self) -> float:
        """What a win pays per unit wagered, after commission."""
        return (self.wager - self.commission) / self.wager

    @property
    def house_edge(self) -> float:
        """The house's expected gain per unit the player wagers."""
        return self.loss_rate - self.paid * self.win_rate

    @property
    def house_edge_se(self) -> float:
        """Standard error of the house edge (each round's result is one draw)."""
        n = self.rounds
        if n < 2:
            return 0.0
        mean_sq = self.paid ** 2 * self.win_rate + self.loss_rate
        variance = max(mean_sq - self.house_edge ** 2, 0.0) * n / (n - 1)
        return math.sqrt(variance / n)

    @property
    def house_edge_interval(self) -> tuple[float, float]:
        """The 95% interval of the house edge."""
        half = Z95 * self.house_edge_se
        return self.house_edge - half, self.house_edge + half

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        t = self.tally
        low, high = self.house_edge_interval
        return {
            "schema": SCHEMA,
            "rounds": t.rounds,
            "way": self.way,
            "dealer_way": self.dealer_way,
            "seed": self.seed,
            "workers": self.workers,
            "rules": {"joker": self.rules.joker, "wheel": self.rules.wheel},
            "wager_cents": self.wager,
            "commission": {"policy": str(self.policy), "on_a_win_cents": self.commission},
            "counts": {"win": t.wins, "push": t.pushes, "lose": t.losses,
                       "copy_rounds": t.copy_rounds, "front_copies": t.front_copies,
                       "back_copies": t.back_copies},
            "rates": {"win": self.win_rate, "push": self.push_rate, "lose": self.loss_rate,
                      "copy": self.copy_rate, "front_copy": self.rate(t.front_copies),
                      "back_copy": self.rate(t.back_copies)},
            "standard_errors": {"win": self.rate_se(t.wins), "push": self.rate_se(t.pushes),
                                "lose": self.rate_se(t.losses),
                                "house_edge": self.house_edge_se},
            "house_edge": self.house_edge,
            "house_edge_95": [low, high],
            "seconds": round(self.seconds, 3),
            "rounds_per_second": round(self.rounds_per_second),
        }

    def text(self) -> str:
        t = self.tally
        low, high = self.house_edge_interval
        vs = self.way if self.way == self.dealer_way else f"{self.way} vs {self.dealer_way}"
        lines = [
            f"{t.rounds:,} rounds, player and bank both set the House Way ({vs}); "
            f"seed {self.seed}, {self.workers} worker{'s' if self.workers != 1 else ''}",
            f"wager {money(self.wager)}, commission {self.policy}: "
            f"{money(self.commission)} on a win",
            f"  player wins   {self.win_rate:8.4%}  ± {self.rate_se(t.wins):.4%}",
            f"  push          {self.push_rate:8.4%}  ± {self.rate_se(t.pushes):.4%}",
            f"  player loses  {self.loss_rate:8.4%}  ± {self.rate_se(t.losses):.4%}",
            f"  house edge    {self.house_edge:8.4%}  95% interval {low:.4%} to {high:.4%}",
            f"  copies        {self.copy_rate:8.4%} of rounds (front "
            f"{self.rate(t.front_copies):.4%}, back {self.rate(t.back_copies):.4%}), "
            f"all to the banker",
        ]
        if self.seconds > 0:
            lines.append(f"  {self.seconds:.1f} s, {self.rounds_per_second:,.0f} rounds/s")
        return "\n".join(lines)


# --- running it ------------------------------------------------------------------------------

def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(rounds: int, *, way: Way = "standard", dealer_way: Way | None = None,
             seed: int = 0, workers: int | None = None,
             policy: CommissionPolicy = DEFAULT_COMMISSION, wager: int = 500,
             rules: HandRules = DEFAULT_RULES, progress: Progress | None = None,
             player: Player | None = None) -> Simulation:
    """Play `rounds` rounds over `workers` processes (default: every core).

    `progress` is called in this process with the rounds just finished. One worker plays
    in this process; the same seed and worker count always give the same tally.
    """
    try:
        # Cards travel to the workers by name: a worker finds the same card the same way.
        way_name = card_of(way).name
        dealer = way_name if dealer_way is None else card_of(dealer_way).name
    except KeyError as e:
        raise SimulationError(str(e.args[0])) from None
    k = cores() if workers is None else workers
    if rounds < 0:
        raise SimulationError(f"the number of rounds is 0 or more, not {rounds}")
    if k < 1:
        raise SimulationError(f"the number of workers is 1 or more, not {k}")
    if wager <= 0:
        raise SimulationError(f"the wager must be above $0.00, not {money(wager)}")
    start = time.perf_counter()
    engine = player or play
    if k == 1:
        tally = engine(rounds, seed, 0, way_name, dealer, rules, progress)
    else:
        tally = _in_processes(rounds, seed, k, way_name, dealer, rules, progress, engine)
    return Simulation(way_name, dealer, seed, k, wager, policy.on(wager), policy, rules, tally,
                      time.perf_counter() - start)


def _worker(out: Any, rounds: int, seed: int, worker: int, way: str, dealer_way: str,
            rules: HandRules, engine: Player) -> None:
    try:
        tally = engine(rounds, seed, worker, way, dealer_way, rules,
                     lambda n: out.put(("progress", worker, n)))
        out.put(("done", worker, _fields(tally)))
    except BaseException:  # report, never hang the parent
        out.put(("error", worker, traceback.format_exc()))


def _in_processes(rounds: int, seed: int, workers: int, way: str, dealer_way: str,
                  rules: HandRules, progress: Progress | None, engine: Player) -> Tally:
    context = multiprocessing.get_context()
    out = context.Queue()
    shares = share(rounds, workers)
    procs = {k: context.Process(target=_worker, name=f"paigow-simulate-{k}",
                                args=(out, n, seed, k, way, dealer_way, rules, engine),
                                daemon=True)
             for k, n in enumerate(shares) if n}
    tallies: dict[int, Tally] = {}
    try:
        for p in procs.values():
            p.start()
        while len(tallies) < len(procs):
            try:
                kind, k, payload = out.get(timeout=1.0)
            except queue.Empty:
                dead = [k for k, p in procs.items() if k not in tallies and not p.is_alive()]
                if dead and out.empty():
                    raise SimulationError(
                        f"simulation worker {dead[0]} stopped without a result "
                        f"(exit code {procs[dead[0]].exitcode})") from None
                continue
            if kind == "progress":
                if progress is not None:
                    progress(payload)
            elif kind == "done":
                tallies[k] = Tally(*payload)
            else:
                raise SimulationError(f"simulation worker {k} failed:\n{payload}")
    finally:
        for p in procs.values():
            if p.is_alive():
                p.terminate()
            p.join()
        out.close()
    return sum((tallies[k] for k in sorted(tallies)), Tally())

