"""The numpy simulation (app/commands/vectors.py) plays the same game as the card: each
hand's strengths are those of the card's own setting (flush hands too, looked up in the
card's table as the standard library's simulator looks them up), a deal is fourteen
different cards of the 53, a round is settled as the settlement reads it (copies to the
banker), a seed gives the same tally every time, and its rates agree with the standard
library's simulator within their standard errors. `paigow edge` prints each card's edge
beside the published figures."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import numpy as np
import pytest

from app.commands import vectors
from app.core.analysis.simulate import Outcome, play, simulate, versus
from app.core.cards import DECK
from app.core.hands import DEFAULT_RULES, ranker
from app.core.house_way import house_way
from app.core.house_way.table import table_of

WAY = "standard"


def test_strengths_by_table_are_the_cards_setting_strengths_flush_hands_too() -> None:
    rng = random.Random("vectors")
    hands = []
    for n in range(4000):
        pool = list(range(53)) if n % 2 else [*range(13), *range(26, 39), 52]
        hands.append(rng.sample(pool, 7))  # every other hand from two suits: flushes
    card = house_way(WAY)
    table = table_of(card, DEFAULT_RULES)
    found = vectors.Strengths.of(table).of_hands(np.array(hands, dtype=np.int16))
    assert [int(x) for x in found] == [table.strength(h) for h in hands]
    r = ranker(DEFAULT_RULES)
    for h, packed in list(zip(hands, found, strict=True))[:300]:  # and the card's own
        result = card.set([DECK[i] for i in h])
        assert packed == r.rank2(result.low) << 24 | r.rank5(result.high)


def test_a_deal_is_fourteen_different_cards_of_the_53() -> None:
    dealt = vectors.deal(np.random.Generator(np.random.PCG64(7)), 5000)
    assert dealt.shape == (5000, 14)
    assert dealt.min() >= 0 and dealt.max() <= 52
    ordered = np.sort(dealt, axis=1)
    assert (np.diff(ordered, axis=1) > 0).all()
    assert len(np.unique(dealt)) == 53  # every card is dealt somewhere


def test_a_round_is_settled_as_the_settlement_reads_it_copies_to_the_banker() -> None:
    rng = random.Random("tally")
    mine = [rng.randrange(4) << 24 | rng.randrange(4) for _ in range(3000)]
    bank = [rng.randrange(4) << 24 | rng.randrange(4) for _ in range(3000)]
    t = vectors.tally(np.array(mine, dtype=np.int64), np.array(bank, dtype=np.int64))
    outcomes = [versus(m >> 24, m & 0xFFFFFF, b >> 24, b & 0xFFFFFF)
                for m, b in zip(mine, bank, strict=True)]
    assert t.wins == outcomes.count(Outcome.WIN)
    assert t.losses == outcomes.count(Outcome.LOSE)
    assert t.pushes == outcomes.count(Outcome.PUSH)
    assert t.front_copies == sum(m >> 24 == b >> 24 for m, b in zip(mine, bank, strict=True))


def test_a_seed_gives_the_same_tally_every_time() -> None:
    first = vectors.play(100_000, 5, 0, WAY, WAY)
    assert vectors.play(100_000, 5, 0, WAY, WAY) == first
    assert vectors.play(100_000, 6, 0, WAY, WAY) != first


def test_numpy_rates_agree_with_the_standard_library_simulator_within_standard_errors(
        ) -> None:
    slow = play(40_000, 3, 0, WAY, WAY)
    fast = vectors.play(1_000_000, 3, 0, WAY, WAY)
    for count in ("wins", "pushes", "losses", "copy_rounds"):
        p_slow = getattr(slow, count) / slow.rounds
        p_fast = getattr(fast, count) / fast.rounds
        se = math.sqrt(p_slow * (1 - p_slow) / slow.rounds + p_fast * (1 - p_fast) / fast.rounds)
        assert abs(p_slow - p_fast) < 4 * se, (count, p_slow, p_fast, se)


def test_simulate_with_the_numpy_player_reports_the_same_figures_in_workers() -> None:
    one = simulate(200_000, way=WAY, seed=2, workers=2, player=vectors.play)
    again = simulate(200_000, way=WAY, seed=2, workers=2, player=vectors.play)
    assert one.tally == again.tally and one.rounds == 200_000


def test_edge_prints_each_cards_edge_beside_the_published_figures() -> None:
    proc = subprocess.run([sys.executable, "-m", "app.cli", "edge", "--way", WAY,
                           "--precision", "1%", "--workers", "1", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["published"]["house_edge"] == pytest.approx(0.0272)
    card = out["cards"][0]
    assert card["way"] == WAY and card["rounds"] == 1_000_000
    low, high = card["house_edge_95"]
    assert low < card["house_edge"] < high
