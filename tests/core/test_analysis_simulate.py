"""The house edge simulation: reproducible for a seed whatever the workers, settled as the
table settles (copies to the banker, the settlement's commission), and Trump Plaza against
itself gives the published figures."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from app.core.analysis import simulate as sim
from app.core.analysis.simulate import (
    SimulationError,
    Tally,
    deals,
    pieces,
    play,
    simulate,
    versus,
    worker_seed,
)
from app.core.cards import DECK
from app.core.hands import DEFAULT_RULES
from app.core.house_way import set_house_way
from app.core.settlement import CommissionPolicy, Hand, Outcome, Role, Rounding, Versus, compare

# --- reproducible ------------------------------------------------------------------------------

def test_the_same_seed_gives_the_same_figures_whatever_the_workers() -> None:
    first = simulate(20_000, way="trump-plaza", seed=11, workers=2, piece=6_000)
    again = simulate(20_000, way="trump-plaza", seed=11, workers=2, piece=6_000)
    assert first.tally == again.tally
    assert first == again  # the time taken is not part of the result
    alone = simulate(20_000, way="trump-plaza", seed=11, workers=1, piece=6_000)
    assert alone.tally == first.tally


def test_another_seed_deals_other_hands() -> None:
    assert simulate(5_000, seed=1, workers=1).tally != simulate(5_000, seed=2, workers=1).tally


def test_each_piece_plays_its_rounds_with_its_own_derived_seed() -> None:
    assert pieces(10, 4) == [4, 4, 2] and sum(pieces(1_000_001)) == 1_000_001
    assert len({worker_seed(5, k) for k in range(8)}) == 8
    assert worker_seed(5, 0) == worker_seed(5, 0) != worker_seed(6, 0)

    two = simulate(9_001, way="standard", seed=5, workers=2, piece=4_501).tally

    assert two == play(4_501, 5, 0, "standard", "standard") + \
        play(4_500, 5, 1, "standard", "standard")


def test_progress_is_reported_for_every_round() -> None:
    seen: list[int] = []
    simulate(25_000, seed=1, workers=2, progress=seen.append, piece=10_000)
    assert sorted(seen) == [5_000, 10_000, 10_000]


# --- settled as the table settles ------------------------------------------------------------

def settle_by_the_table(rounds: int, seed: int, way: str, dealer_way: str) -> Tally:
    """The same deals, each hand set by the House Way card and the round settled by the
    settlement's `compare` (the slow, plain way)."""
    outcomes: Counter[Outcome] = Counter()
    front_copies = back_copies = copy_rounds = 0
    for mine, bank in deals(seed, 0, rounds):
        player = set_house_way([DECK[i] for i in mine], way).setting
        banker = set_house_way([DECK[i] for i in bank], dealer_way).setting
        hand = Hand(1, Role.PLAYER, player.cards, player=1, wager=500, setting=player)
        result = compare(hand, banker, DEFAULT_RULES)
        outcomes[result.outcome] += 1
        front_copies += result.front is Versus.COPY
        back_copies += result.back is Versus.COPY
        copy_rounds += Versus.COPY in (result.front, result.back)
    return Tally(rounds, outcomes[Outcome.WIN], outcomes[Outcome.PUSH], outcomes[Outcome.LOSE],
                 front_copies, back_copies, copy_rounds)


@pytest.mark.parametrize("way,dealer_way", [("trump-plaza", "trump-plaza"),
                                            ("delaware-park", "standard")])
def test_every_round_is_settled_as_the_settlement_compares_hands(
        way: str, dealer_way: str) -> None:
    fast = play(4_000, 3, 0, way, dealer_way)

    assert fast == settle_by_the_table(4_000, 3, way, dealer_way)
    assert fast.copy_rounds > 0


def test_copies_are_counted_to_the_banker() -> None:
    assert versus(100, 200, 100, 200) is Outcome.LOSE  # copies in both hands
    assert versus(100, 201, 100, 200) is Outcome.PUSH  # a copy in front, a win behind
    assert versus(101, 200, 100, 200) is Outcome.PUSH  # a win in front, a copy behind
    assert versus(101, 201, 100, 200) is Outcome.WIN
    t = simulate(30_000, seed=4, workers=1).tally
    # A round with a copy can never be a player's win: copies are at most pushes + losses.
    assert 0 < t.copy_rounds <= t.pushes + t.losses
    assert t.copy_rounds <= t.front_copies + t.back_copies


# --- money ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy,wager", [
    (CommissionPolicy(), 500),  # the table as shipped: 25c on $5, exactly 5%
    (CommissionPolicy(), 700),  # 35c rounds up to 50c: 7.14% of the wager
    (CommissionPolicy(400, 1, Rounding.DOWN), 2_500),  # 4% to the cent
    (CommissionPolicy(0), 500),  # no commission
])
def test_commission_is_the_settlement_policys_on_every_win(
        policy: CommissionPolicy, wager: int) -> None:
    result = simulate(4_000, seed=2, workers=1, policy=policy, wager=wager)

    assert result.commission == policy.on(wager)
    paid = (wager - policy.on(wager)) / wager
    assert result.house_edge == pytest.approx(result.loss_rate - paid * result.win_rate)
    assert result.tally == simulate(4_000, seed=2, workers=1).tally  # outcomes do not change


def test_house_edge_interval_is_95_percent_of_the_rounds_spread() -> None:
    r = simulate(10_000, seed=8, workers=1)
    n = r.rounds
    net = [0.95] * r.tally.wins + [0.0] * r.tally.pushes + [-1.0] * r.tally.losses
    mean = sum(net) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in net) / (n - 1))
    low, high = r.house_edge_interval
    assert r.house_edge == pytest.approx(-mean)
    assert r.house_edge_se == pytest.approx(sd / math.sqrt(n))
    assert (high - low) / 2 == pytest.approx(1.96 * sd / math.sqrt(n), rel=1e-4)


@pytest.mark.parametrize("options,why", [
    ({"way": "atlantic"}, "no House Way called 'atlantic'"),
    ({"workers": 0}, "workers is 1 or more"),
    ({"wager": 0}, "above $0.00"),
])
def test_a_simulation_that_cannot_run_says_why(options: dict[str, object], why: str) -> None:
    with pytest.raises(SimulationError, match=re.escape(why)):
        simulate(100, **options)  # type: ignore[arg-type]


def test_a_worker_that_fails_is_reported_and_the_run_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> Tally:
        raise RuntimeError("the worker broke")

    monkeypatch.setattr(sim, "play", broken)  # the workers are forked with it
    with pytest.raises(SimulationError, match="the worker broke"):
        simulate(1_000, workers=2, piece=500)


# --- the published figures ---------------------------------------------------------------------

# Published analyses of a player against a dealer both setting the Trump Plaza House Way
# (the issue; Wizard of Odds: 28.61%, 41.48%, 29.91%): the player wins 28.6%, pushes 41.5%,
# loses 29.9%, so with 5% commission the house edge is 29.9% - 0.95 x 28.6% = 2.73%.
PUBLISHED = {"win": 0.286, "push": 0.415, "lose": 0.299}
PUBLISHED_EDGE = 0.299 - 0.95 * 0.286
ROUNDING = 0.0005  # the published rates are given to 0.1%
ROUNDS = 1_000_000
SEED = 2026


@pytest.mark.proof  # a million rounds on both cores (20 s of CPU)
def test_trump_plaza_against_itself_gives_the_published_win_push_loss_and_house_edge() -> None:
    """Each of our figures must lie within 4 standard errors of the published one, plus
    the published figure's own rounding (0.05%; about 0.1% for the edge derived from two
    rounded rates).

    1,000,000 rounds on two workers (about 10 s on two free cores): a standard error of
    0.045% on each rate and 0.075% on the edge, so the test accepts 28.6% +- 0.23%,
    41.5% +- 0.25%, 29.9% +- 0.23% and an edge of 2.73% +- 0.40%. Four standard errors,
    not two: four figures are tested, and a correct card must not fail on an unlucky seed
    (about 1 in 4,000 over the four; the seed is fixed, so the test is deterministic).
    Misreadings fall outside: two pair always split (no K/A exception) gives 29.02% /
    40.82% / 30.15%; no pair with the 2nd and 4th cards in front gives 29.21% / 40.49%;
    copies not counted to the banker would move 2.6% of rounds.
    """
    r = simulate(ROUNDS, way="trump-plaza", seed=SEED, workers=2)

    t = r.tally
    figures = {"win": (t.wins, r.win_rate), "push": (t.pushes, r.push_rate),
               "lose": (t.losses, r.loss_rate)}
    for name, (count, rate) in figures.items():
        allowed = 4 * r.rate_se(count) + ROUNDING
        assert abs(rate - PUBLISHED[name]) <= allowed, (
            f"{name}: ours {rate:.4%}, published {PUBLISHED[name]:.1%} +- {allowed:.3%}")
    allowed = 4 * r.house_edge_se + ROUNDING * 1.95
    assert abs(r.house_edge - PUBLISHED_EDGE) <= allowed, (
        f"house edge: ours {r.house_edge:.4%}, published {PUBLISHED_EDGE:.2%} +- {allowed:.3%}")
