"""The best five-card hand of seven cards: counted exactly, the counts are the published
ones; simulated, each share lies within its interval of them; the shares sum to 1."""

from __future__ import annotations

from math import comb

import pytest

from app.core.analysis.odds import ROWS, Odds, exact_odds, simulate_odds

# Brian Alspach, "7-Card Poker Hands with Joker" (2003), people.math.sfu.ca/~alspach/comp40:
# seven cards from the 52-card deck and one joker (a bug: an ace, or any card completing a
# straight, flush or straight flush). His straight flushes include the royal flushes.
PUBLISHED_53 = {
    "five aces": 1_128, "straight flush": 210_964, "four of a kind": 307_472,
    "full house": 4_188_528, "flush": 6_172_088, "straight": 11_236_028,
    "three of a kind": 7_470_676, "two pair": 35_553_816, "one pair": 64_221_960,
    "high card": 24_780_420,
}
# Seven cards from 52 (Alspach, "Pai Gow Poker Computations", Table 1; the well-known
# counts), 4,324 of the straight flushes royal.
PUBLISHED_52 = {
    "five aces": 0, "straight flush": 41_584, "four of a kind": 224_848,
    "full house": 3_473_184, "flush": 4_047_644, "straight": 6_180_020,
    "three of a kind": 6_461_620, "two pair": 31_433_400, "one pair": 58_627_800,
    "high card": 23_294_460,
}
# Seven cards holding a royal flush of a suit: the five natural cards and any 2 others, or
# the joker with four of them (the fifth missing) and any 2 of the other 47. No hand holds
# two. Alspach's split (26,124 royal) differs from this by 8; his total is ours.
ROYAL_53 = 4 * (comb(48, 2) + 5 * comb(47, 2))
ROYAL_52 = 4 * comb(47, 2)


def merged(counts: dict[str, int]) -> dict[str, int]:
    """Our rows with royal flushes counted among the straight flushes, as published."""
    out = dict(counts)
    out["straight flush"] += out.pop("royal flush")
    return out


def test_exact_odds_of_the_53_card_deck_are_the_published_counts() -> None:
    odds = exact_odds()
    counts = {r.hand: r.count for r in odds.rows}

    assert odds.total == comb(53, 7) == 154_143_080
    assert merged(counts) == PUBLISHED_53
    assert counts["royal flush"] == ROYAL_53 == 26_132
    _sums_to_one(odds)


@pytest.mark.proof  # a second pass over every class (the 53-card one is in make test)
def test_exact_odds_of_the_52_card_deck_are_the_known_counts() -> None:
    odds = exact_odds(joker=False)
    counts = {r.hand: r.count for r in odds.rows}

    assert odds.total == comb(52, 7)
    assert merged(counts) == PUBLISHED_52
    assert counts["royal flush"] == ROYAL_52 == 4_324
    _sums_to_one(odds)


def _sums_to_one(odds: Odds) -> None:
    assert [r.hand for r in odds.rows] == list(ROWS)
    assert sum(r.count for r in odds.rows) == odds.total
    assert sum(r.probability for r in odds.rows) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("joker", [True, False])
def test_simulated_odds_sum_to_one(joker: bool) -> None:
    _sums_to_one(simulate_odds(20_000, seed=3, joker=joker))


def test_simulated_odds_match_the_published_frequencies_within_four_standard_errors() -> None:
    """200,000 hands: each share within 4 of its standard errors (at least one hand's
    worth, for the rare rows) of the published frequency."""
    odds = simulate_odds(200_000, seed=2026)
    published = dict(PUBLISHED_53, **{"royal flush": ROYAL_53})
    published["straight flush"] -= ROYAL_53
    for row in odds.rows:
        p = published[row.hand] / comb(53, 7)
        se = (p * (1 - p) / odds.total) ** 0.5
        assert row.se is not None
        assert abs(row.probability - p) <= 4 * se + 1 / odds.total, row.hand


def test_simulated_odds_are_reproducible_for_a_seed() -> None:
    assert simulate_odds(5_000, seed=4) == simulate_odds(5_000, seed=4)
    assert simulate_odds(5_000, seed=4) != simulate_odds(5_000, seed=5)
