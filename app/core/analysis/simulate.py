"""The house edge of a House Way: N rounds of one player against the bank, both hands set
the House Way, settled by the table's rules (copies to the banker, the commission of the
settlement's `CommissionPolicy` on every win).

Reproducible: the rounds are played in pieces of PIECE rounds, piece j drawing its deals
from its own generator, seeded from the seed and j (`worker_seed`); the tallies are summed.
So a seed always gives the same figures, however many processes play the pieces
(`concurrent.futures.ProcessPoolExecutor`) and however they are scheduled.

Each round deals 14 of the 53 cards and looks both settings' strengths up in the cards'
tables (app/core/house_way/table.py). `play` here is the standard library's; `paigow
simulate` plays the same pieces in numpy batches (app/commands/vectors.py).
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from ..hands import DEFAULT_RULES, HandRules
from ..house_way import HouseWay, card_folders, house_way, use_site_cards
from ..house_way.table import SHIFT, cache_folder, cores, hand_key, table_of, use_cache_folder
from ..settlement import CommissionPolicy, Outcome, money

# The commission of the table as shipped (config/default.toml): 5% rounded up to $0.25.
DEFAULT_COMMISSION = CommissionPolicy()
SCHEMA = "paigow.simulation/1"
Z95 = 1.959964  # two-sided 95% of the normal distribution
PIECE = 131_072  # rounds a piece: a task of a worker, a report of progress
CARDS = range(53)
MASK = (1 << SHIFT) - 1
Way = HouseWay | str  # a rule card, or its name (found as the config finds it)

Progress = Callable[[int], None]
# How a piece is played: (rounds, seed, piece, way, dealer way, rules) -> its tally. `play`
# below (standard library), or one as fair with the same signature (app/commands/vectors.py
# plays in numpy batches).
Player = Callable[[int, int, int, str, str, HandRules], "Tally"]


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
    """Piece k's own seed, derived from the run's seed (the same on every machine)."""
    digest = hashlib.sha256(f"paigow.simulate/{seed}/{worker}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def pieces(rounds: int, piece: int = PIECE) -> list[int]:
    """The rounds of each piece: `piece` each, the last what is left."""
    return [min(piece, rounds - start) for start in range(0, rounds, piece)]


def deals(seed: int, worker: int, count: int) -> Iterator[tuple[list[int], list[int]]]:
    """Piece k's deals: (the player's 7 card indexes, the banker's 7), as `play` draws them
    (the same generator calls)."""
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
         rules: HandRules = DEFAULT_RULES) -> Tally:
    """Piece k's rounds, in this process."""
    sample = random.Random(worker_seed(seed, worker)).sample
    player = table_of(house_way(way), rules)
    dealer = player if dealer_way == way else table_of(house_way(dealer_way), rules)
    key, find, mine_of, bank_of = hand_key, player.at, player.strengths, dealer.strengths
    find_bank = dealer.at
    wins = losses = front_copies = back_copies = copy_rounds = 0
    for _ in range(rounds):
        dealt = sample(CARDS, 14)
        mine = mine_of[find(key(dealt[:7]))]
        bank = bank_of[find_bank(key(dealt[7:]))]
        front, bank_front = mine >> SHIFT, bank >> SHIFT
        back, bank_back = mine & MASK, bank & MASK
        outcome = versus(front, back, bank_front, bank_back)
        wins += outcome is Outcome.WIN
        losses += outcome is Outcome.LOSE
        front_copies += front == bank_front
        back_copies += back == bank_back
        copy_rounds += front == bank_front or back == bank_back
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

def simulate(rounds: int, *, way: Way = "standard", dealer_way: Way | None = None,
             seed: int = 0, workers: int | None = None,
             policy: CommissionPolicy = DEFAULT_COMMISSION, wager: int = 500,
             rules: HandRules = DEFAULT_RULES, progress: Progress | None = None,
             player: Player | None = None, piece: int = PIECE) -> Simulation:
    """Play `rounds` rounds over `workers` processes (default: every core; one plays in
    this process). `progress` is told the rounds of each piece played. The cards' tables
    are made ready here first (built once a card, kept), so the workers only read them."""
    try:
        # Cards travel to the workers by name: a worker finds the same card the same way.
        way_name = _card(way).name
        dealer = way_name if dealer_way is None else _card(dealer_way).name
    except KeyError as e:
        raise SimulationError(str(e.args[0])) from None
    k = cores() if workers is None else workers
    if rounds < 0:
        raise SimulationError(f"the number of rounds is 0 or more, not {rounds}")
    if k < 1:
        raise SimulationError(f"the number of workers is 1 or more, not {k}")
    if wager <= 0:
        raise SimulationError(f"the wager must be above $0.00, not {money(wager)}")
    for name in {way_name, dealer}:
        table_of(house_way(name), rules)
    start = time.perf_counter()
    engine = player or play
    jobs = [(n, seed, j, way_name, dealer, rules) for j, n in enumerate(pieces(rounds, piece))]
    if k == 1 or len(jobs) < 2:
        tally = Tally()
        for job in jobs:
            tally += engine(*job)
            if progress is not None:
                progress(job[0])
    else:
        tally = _in_processes(jobs, k, engine, progress)
    return Simulation(way_name, dealer, seed, k, wager, policy.on(wager), policy, rules, tally,
                      time.perf_counter() - start)


def _card(way: Way) -> HouseWay:
    return way if isinstance(way, HouseWay) else house_way(way)


_engine: list[Player] = []  # a worker's engine (given at its start, never pickled)


def _start_worker(engine: Player, cache: Path | None, site: list[Path]) -> None:
    _engine[:] = [engine]
    use_cache_folder(cache)
    use_site_cards(site[0] if site else None)


def _play(job: tuple[int, int, int, str, str, HandRules]) -> Tally:
    return _engine[0](*job)


def _in_processes(jobs: list[tuple[int, int, int, str, str, HandRules]], workers: int,
                  engine: Player, progress: Progress | None) -> Tally:
    """The pieces played by forked workers: each starts with the cards' tables this process
    holds, and with the engine as it is here."""
    context = multiprocessing.get_context("fork")
    site = list(card_folders()[:-1])
    tally = Tally()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(engine, cache_folder(), site)) as pool:
        futures: dict[Future[Tally], int] = {pool.submit(_play, job): job[0] for job in jobs}
        try:
            pending: set[Future[Tally]] = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_EXCEPTION)
                for f in done:
                    tally += f.result()
                    if progress is not None:
                        progress(futures[f])
        except BrokenProcessPool:
            raise SimulationError("a simulation worker stopped without a result") from None
        except Exception as e:
            for f in futures:
                f.cancel()
            raise SimulationError(f"a simulation worker failed: {e}") from None
    return tally
