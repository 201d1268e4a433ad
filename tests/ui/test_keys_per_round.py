"""Issue 25: the standard round (five seats the same as last round, RNG, a dragon, every
hand the House Way) takes at most 15 keys, counted as real key presses sent to the window
(the same count `make bench` prints)."""

from __future__ import annotations

from tests.bench.bench_keys import GOAL, standard_round_keys


def test_the_standard_round_takes_at_most_15_keys_with_the_same_wagers_as_last_round(qapp):
    count, log = standard_round_keys()
    assert count <= GOAL
    assert any("dragon" in line.lower() for line in log)
