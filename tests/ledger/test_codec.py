"""The codec: every record of a round as JSON, and the round rebuilt from them exactly."""

from __future__ import annotations

import json
import random
import typing

import pytest

from app.core.banker import BankRotation
from app.core.round import Record, Round, RoundRules
from app.ledger.codec import (
    RECORD_TYPES,
    CodecError,
    decode_rotation,
    decode_rules,
    encode_record,
    encode_rotation,
    encode_rules,
    replay,
)
from app.settings import DEFAULT_FILE, load_config

from .play import RULES, play


def _as_stored(game: Round) -> list[dict[str, typing.Any]]:
    return [json.loads(json.dumps(encode_record(r))) for r in game.log]


def test_every_kind_of_record_the_round_makes_has_a_codec() -> None:
    kinds = typing.get_args(Record)
    assert len(kinds) == len(RECORD_TYPES)


@pytest.mark.parametrize("name", list(RULES))
def test_the_rules_are_kept_whole_as_the_config_snapshot(name: str) -> None:
    rules = RULES[name]
    assert decode_rules(json.loads(json.dumps(encode_rules(rules)))) == rules


@pytest.mark.parametrize("path", sorted(DEFAULT_FILE.parent.glob("*.toml")),
                         ids=lambda p: p.name)
def test_every_shipped_table_config_is_kept_whole(path: typing.Any) -> None:
    rules = load_config(path if path != DEFAULT_FILE else None, env={}).round_rules()
    assert decode_rules(encode_rules(rules)) == rules


def test_the_rotation_is_kept_whole() -> None:
    rotation = BankRotation.resume(round_no=9, house_bets={1: 2500, 4: 1000}, last_banker=3,
                                   last_dragon=2)
    assert decode_rotation(json.loads(json.dumps(encode_rotation(rotation)))) == rotation


@pytest.mark.parametrize("name", list(RULES))
def test_a_round_replayed_from_its_records_is_the_round_card_for_card(name: str) -> None:
    rng = random.Random(name)
    rotation = BankRotation()
    seen: set[str] = set()
    for _ in range(40):
        game = Round(RULES[name], rotation)
        play(game, rng, lambda: None)
        stored = _as_stored(game)
        seen.update(r["type"] for r in stored)
        again = replay(RULES[name], rotation, stored)
        assert _as_stored(again) == stored
        assert again.slip is not None and game.slip is not None
        assert again.slip.text() == game.slip.text()
        assert again.next_rotation() == game.next_rotation()
        rotation = game.next_rotation()
    assert {"wager_placed", "bank_passed", "action_counted", "dealt", "hand_set",
            "settled"} <= seen


def test_every_record_type_is_replayed_somewhere_in_the_random_rounds() -> None:
    seen: set[str] = set()
    how: set[str] = set()
    for name, rules in RULES.items():
        rng, rotation = random.Random(name), BankRotation()
        for _ in range(40):
            game = play(Round(rules, rotation), rng, lambda: None)
            for r in _as_stored(game):
                seen.add(r["type"])
                if r["type"] == "hand_set":
                    how.add(r["hand"]["set_by"] + ("-forfeit" if r["hand"]["forfeit"] else ""))
                if r["type"] == "bank_taken" and r["player"] is not None:
                    how.add("co-bank" if r["co_bank"] else "player-bank")
            rotation = game.next_rotation()
    assert seen == set(RECORD_TYPES)
    assert how == {"house-way", "player", "player-forfeit", "reset", "player-bank", "co-bank",
                   "after-bank"}


@pytest.mark.parametrize("seed", range(6))
def test_a_round_stopped_after_any_change_replays_to_the_same_state(seed: int) -> None:
    rng = random.Random(seed)
    cuts: list[int] = []
    game = Round(RULES["reset-co-bank-two-dragons"])
    play(game, rng, lambda: cuts.append(len(game.log)))
    whole = _as_stored(game)
    for cut in cuts:
        again = replay(game.rules, game.rotation, whole[:cut])
        assert _as_stored(again) == whole[:cut]
        assert again.phase is not None


def test_records_cut_inside_a_change_are_refused_not_guessed() -> None:
    game = play(Round(), random.Random(5), lambda: None)
    stored = _as_stored(game)
    implied = next(i for i, r in enumerate(stored)
                   if r["type"] == "bank_taken" and r["player"] is None)
    with pytest.raises(CodecError, match="cut short"):
        replay(game.rules, game.rotation, stored[:implied + 1])


def test_a_record_that_does_not_replay_as_written_is_refused() -> None:
    game = play(Round(), random.Random(3), lambda: None)
    stored = _as_stored(game)
    dealt = next(i for i, r in enumerate(stored) if r["type"] == "action_counted")
    stored[dealt]["position"] = (stored[dealt]["position"] + 1) % 7
    with pytest.raises(CodecError, match="not as written"):
        replay(game.rules, game.rotation, stored)


def test_rules_of_an_unknown_schema_are_refused() -> None:
    with pytest.raises(CodecError, match="paigow.rules/1"):
        decode_rules({"schema": "paigow.rules/9"})
    with pytest.raises(CodecError, match="cannot be read"):
        decode_rules({"schema": "paigow.rules/1"})


def test_the_house_banks_by_set_action_and_replays_without_a_call() -> None:
    game = play(Round(RoundRules()), random.Random(11), lambda: None)
    stored = _as_stored(game)
    assert any(r["type"] == "bank_taken" and r["player"] is None for r in stored)
    assert _as_stored(replay(game.rules, game.rotation, stored)) == stored


def _a_round_with_a_players_bank() -> tuple[Round, BankRotation, list[dict[str, typing.Any]]]:
    rng, rotation = random.Random("a player banks"), BankRotation()
    for _ in range(100):  # the bank is offered round by round: a player takes it in a few
        game = play(Round(RULES["standard"], rotation), rng, lambda: None)
        stored = _as_stored(game)
        if any(r["type"] == "bank_taken" and r["player"] is not None for r in stored):
            return game, rotation, stored
        rotation = game.next_rotation()
    raise AssertionError("no player took the bank in 100 rounds")


def test_a_players_bank_stored_without_its_chips_is_refused_in_words() -> None:
    game, rotation, stored = _a_round_with_a_players_bank()
    taken = next(i for i, r in enumerate(stored)
                 if r["type"] == "bank_taken" and r["player"] is not None)
    stored[taken]["chips_cents"] = None
    with pytest.raises(CodecError, match=f"record {taken + 1} \\(bank_taken\\) does not "
                                         f"replay: a player's bank without the player or "
                                         f"the chips"):
        replay(game.rules, rotation, stored)
