"""`paigow bonus` (issue 26): the exact odds of a pay table as JSON (the counts keyed by the
category's name, summing to every hand), the house edge with other players, and bad input
said in a sentence with exit code 2."""

from __future__ import annotations

import json

from app.core.bonus.exact import ALL_HANDS


def test_exact_json_has_the_hands_the_counts_by_name_and_the_house_edge(paigow):
    out = json.loads(paigow("bonus", "--exact", "fortune-8000", "--json").stdout)
    assert out["hands"] == ALL_HANDS == sum(out["counts"].values())
    assert list(out["counts"])[:5] == [
        "natural-seven-card-straight-flush", "royal-flush-with-royal-match",
        "seven-card-straight-flush-with-joker", "five-aces", "royal-flush"]
    assert out["counts"]["straight"] == 11_034_204 and out["counts"]["nothing"] == 124_556_196
    assert 0.0776 < out["house_edge"] < 0.0777
    assert out["method"] == "exact"


def test_the_house_edge_falls_with_each_other_player_by_the_envys_value(paigow):
    out = json.loads(paigow("bonus", "fortune-8000", "--players", "3", "--json").stdout)
    per = out["envy"]["edge_per_other_player"]
    assert abs(out["house_edge_with_players"] - (out["house_edge"] - 3 * per)) < 1e-12


def test_an_unknown_table_is_refused_in_a_sentence(paigow):
    proc = paigow("bonus", "--exact", "fortune-9000")
    assert proc.returncode == 2 and "fortune-8000" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_more_other_players_than_the_table_seats_is_refused(paigow):
    proc = paigow("bonus", "fortune-8000", "--players", "6")
    assert proc.returncode == 2 and "0 to 5" in proc.stderr
