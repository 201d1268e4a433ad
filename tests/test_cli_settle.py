"""`paigow settle`: a described round in, the slip out; bad descriptions refused with the
field and why; a misdeal settles nothing."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

ROUNDS = Path(__file__).parent / "rounds"
SETTLED = sorted(p for p in ROUNDS.glob("*.json") if not p.name.startswith("misdeal"))


@pytest.fixture(autouse=True)
def _no_site_config(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PAIGOW_CONFIG",):
        monkeypatch.delenv(name, raising=False)


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROUNDS / name).read_text())
    return data


def _settle(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
            data: dict[str, Any] | str, *args: str) -> tuple[int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["settle", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _slip(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          data: dict[str, Any]) -> dict[str, Any]:
    code, out, err = _settle(capsys, monkeypatch, data, "--json")
    assert code == 0, err
    slip: dict[str, Any] = json.loads(out)
    return slip


def _by_position(slip: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {p["position"]: p for p in slip["positions"]}


@pytest.mark.parametrize("path", SETTLED, ids=[p.name for p in SETTLED])
def test_every_example_round_settles_with_money_conserved(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", "--json", str(path)]) == 0
    slip = json.loads(capsys.readouterr().out)
    t = slip["totals"]
    assert t["players_net_cents"] + t["banker_net_cents"] + t["house_net_cents"] == 0
    assert [p["position"] for p in slip["positions"]][0] == slip["action"]["position"]
    assert len(slip["positions"]) == 7 and len(slip["leftovers"].split()) == 4


def test_the_house_bank_round_pays_as_a_dealer_would(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    slip = _slip(capsys, monkeypatch, _load("house-bank.json"))
    assert slip["action"] | {} == {"source": "rng", "number": 4, "dice": None,
                                   "drawn_by": "entered", "counted_from": 0, "position": 3,
                                   "direction": "clockwise"}
    assert [p["position"] for p in slip["positions"]] == [3, 4, 5, 6, 0, 1, 2]
    pos = _by_position(slip)
    assert {p: pos[p]["net_cents"] for p in range(1, 7)} == {
        1: 950, 2: -2000, 3: 0, 4: 1425, 5: -2500, 6: 650}
    assert [pos[p]["commission_cents"] for p in (1, 4, 6)] == [50, 75, 50]
    assert (pos[3]["front"], pos[3]["back"], pos[3]["outcome"]) == ("copy", "win", "push")
    assert pos[5]["foul"] and pos[5]["outcome"] == "lose" and pos[5]["set_by"] == "player"
    assert pos[1]["set_by"] == "house-way" and pos[1]["house_way_rule"]
    assert pos[0]["role"] == "bank" and pos[0]["low"] == "KS QC"
    assert slip["totals"]["commission_cents"] == 175
    assert slip["totals"]["house_net_cents"] == 1475


def test_a_player_bank_runs_out_part_way_round_the_table(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    slip = _slip(capsys, monkeypatch, _load("player-bank-runs-out.json"))
    pos = _by_position(slip)
    assert slip["bank"]["who"] == "seat 3" and slip["bank"]["exhausted"]
    assert slip["action"]["counted_from"] == 3 and slip["action"]["position"] == 5
    assert pos[0]["role"] == "dealer" and pos[0]["order"] == 1
    assert pos[0]["win_cents"] == 10000                       # the dealer's hand, first
    assert (pos[5]["win_cents"], pos[5]["outcome"]) == (500, "win")   # what was left
    assert pos[6]["net_cents"] == -2000                       # collected in turn
    assert (pos[1]["win_cents"], pos[1]["outcome"]) == (2000, "win")
    assert pos[2]["outcome"] == "returned" and pos[4]["outcome"] == "returned"
    assert slip["totals"]["banker_net_cents"] == -10500


def test_a_dragon_round_with_dice_counted_counterclockwise(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    slip = _slip(capsys, monkeypatch, _load("dragon-dice-counterclockwise.json"))
    assert slip["action"]["dice"] == [2, 3, 4] and slip["action"]["position"] == 6
    assert [p["position"] for p in slip["positions"]] == [6, 5, 4, 3, 2, 1, 0]
    pos = _by_position(slip)
    assert pos[4]["role"] == "dragon" and pos[4]["player"] == 2
    assert pos[4]["wager_cents"] == 1000 and pos[4]["set_by"] == "house-way"
    assert pos[1]["set_by"] == "reset" and pos[1]["foul"]     # foul_penalty = house-way
    assert pos[6]["role"] == "mucked" and pos[3]["role"] == "mucked"


def test_co_banking_plays_no_dealers_hand(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    slip = _slip(capsys, monkeypatch, _load("co-bank.json"))
    assert slip["bank"]["co_bank"] and _by_position(slip)[0]["role"] == "mucked"
    assert slip["bank"]["stake_cents"] == 12000  # $60 of the player's, matched by the house


def test_a_misdeal_settles_nothing(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _settle(capsys, monkeypatch, _load("misdeal-duplicate.json"), "--json")
    assert code == 3
    assert json.loads(out) == {"misdeal": {
        "problems": ["AS is dealt twice, to seat 5 and to seat 1", "the deck is missing 9S"],
        "settled": False, "wagers": "stand"}}
    assert "Misdeal" in err and "wagers stand" in err and "Traceback" not in err


def test_the_slip_prints_for_a_dealer_without_json(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _settle(capsys, monkeypatch, _load("house-bank.json"))
    assert code == 0
    assert "action: RNG 4 -> seat 3 (clockwise)" in out
    assert "net +$9.50 (commission $0.50)" in out
    assert "house net +$14.75" in out


def test_the_station_may_draw_action_itself(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("player-bank-runs-out.json")
    data["action"] = "draw"
    slip = _slip(capsys, monkeypatch, data)
    assert slip["action"]["drawn_by"] == "secrets" and 1 <= slip["action"]["number"] <= 7


def test_a_site_config_file_applies(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text('[table]\nname = "PG-9"\n[commission]\nrate = "4%"\nstep = "0.01"\n')
    code, out, err = _settle(capsys, monkeypatch, _load("house-bank.json"), "--json",
                             "--config", str(site))
    assert code == 0, err
    slip = json.loads(out)
    assert slip["table"] == "PG-9" and _by_position(slip)[1]["commission_cents"] == 40


# --- refusals ------------------------------------------------------------------------------

def _refused(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
             data: dict[str, Any] | str) -> tuple[str, str]:
    code, out, err = _settle(capsys, monkeypatch, data, "--json")
    assert code == 2, out
    assert "Traceback" not in err
    if out:
        error = json.loads(out)["error"]
        return error["field"], error["why"]
    return "", err


def _changed(name: str, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(_load(name))
    data.update(changes)
    return data


def test_text_that_is_not_json_is_refused_with_where(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    field, why = _refused(capsys, monkeypatch, '{"seats": {')
    assert field == "" and "not JSON" in why and "line 1" in why


def test_a_wager_written_as_a_number_is_refused_with_its_field(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("house-bank.json")
    data["seats"]["1"]["wager"] = 10
    assert _refused(capsys, monkeypatch, data) == (
        "seats.1.wager", 'write money as dollars in quotes, like "25.00", not 10')


def test_a_wager_under_the_minimum_is_refused_with_its_field(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("house-bank.json")
    data["seats"]["6"]["wager"] = "2.00"
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "seats.6" and "under the table minimum of $5.00" in why


def test_a_missing_action_is_refused(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("house-bank.json")
    del data["action"]
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "action" and "is missing" in why


def test_dice_at_an_rng_table_are_refused(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    field, why = _refused(capsys, monkeypatch,
                          _changed("house-bank.json", action={"dice": [1, 2, 3]}))
    assert field == "action" and "takes the action from the RNG only" in why


def test_a_die_showing_seven_is_refused(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("dragon-dice-counterclockwise.json")
    data["action"] = {"dice": [2, 7, 4]}
    assert _refused(capsys, monkeypatch, data) == (
        "action", "a die shows 1 to 6, not 7: read the dice again")


def test_a_card_that_is_not_a_card_is_refused_with_its_field(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("house-bank.json")
    data["seats"]["2"]["set"] = "TS 1C"
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "seats.2.set" and "'1C' is not a card" in why


def test_a_front_card_not_dealt_to_the_seat_is_refused(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("house-bank.json")
    data["seats"]["2"]["set"] = "TS KD"
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "seats.2.set" and "KD not dealt to seat 2" in why


def test_a_seat_without_a_setting_is_refused(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("house-bank.json")
    del data["seats"]["4"]["set"]
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "seats.4.set" and '"house-way"' in why


def test_an_unknown_field_is_refused_with_the_fields_there_are(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    field, why = _refused(capsys, monkeypatch, _changed("house-bank.json", dragons=[]))
    assert field == "dragons" and "dragon" in why


def test_a_player_banker_needs_the_history_that_makes_them_eligible(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("player-bank-runs-out.json")
    del data["history"]
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "bank" and "the dealer banks the first round" in why


def test_a_player_banker_short_of_chips_is_refused_with_the_reason(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("player-bank-runs-out.json")
    data["bank"]["chips"] = "50.00"
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "bank" and "short of the $105.00 needed" in why


def test_a_dragon_over_the_main_wager_is_refused(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("dragon-dice-counterclockwise.json")
    data["dragon"]["wager"] = "30.00"
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "dragon" and "at most seat 2's main wager of $25.00" in why


def test_a_bad_config_override_is_refused_naming_the_round(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _changed("house-bank.json", config={"rules": {"foul_penalty": "fine"}})
    code, out, err = _settle(capsys, monkeypatch, data)
    assert code == 2 and out == ""
    assert "paigow settle: config: <stdin>: config: rules.foul_penalty:" in err
    assert "Traceback" not in err


def test_the_deal_form_must_match_how_the_table_reads_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("dragon-dice-counterclockwise.json")
    del data["config"]["table"]["deal"]
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "deal" and "deal is read in stacks, not one card at a time" in why


def test_a_counterclockwise_table_offers_the_bank_counterclockwise_from_the_history(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 003: "The bank is offered to each Player and each Player may accept or pass, in
    # which case the bank is offered to the next Player." After the dealer banked, the next
    # player at a counterclockwise table is seat 6, who accepts; seat 1 would be offered it
    # last, after seats 6 to 2 had passed.
    slip = _slip(capsys, monkeypatch, _load("counterclockwise-bank-rotation.json"))
    assert slip["bank"]["player"] == 6
    assert slip["action"]["direction"] == "counterclockwise"
    assert slip["action"]["position"] == 4  # RNG 3 counted 6, 5, 4 from the bank
    data = _load("counterclockwise-bank-rotation.json")
    data["bank"]["seat"] = 1
    data["seats"]["6"] = {"wager": "20.00", "set": "house-way"}
    del data["seats"]["1"]
    code, _, err = _settle(capsys, monkeypatch, data, "--json")
    assert code == 0, err  # seats 6, 5, 4, 3 and 2 pass, then seat 1 accepts


def test_a_wager_on_the_no_play_spot_is_refused_with_the_seed_004_reason(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 004: "A "NO PLAY" button follows the bank; no bet can be placed there"
    data = _load("house-bank.json")
    data["config"] = {"table": {"no_play": True}}
    data["seats"]["no-play"] = {"wager": "10.00", "set": "house-way"}
    code, out, err = _settle(capsys, monkeypatch, data, "--json")
    assert code == 2
    refusal = json.loads(out)["error"]
    assert refusal["field"] == "seats.no-play"
    assert "the NO PLAY spot follows the bank: no bet can be placed there" in refusal["why"]


def test_a_round_with_bonus_wagers_settles_them_after_the_pai_gow_wagers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    slip = _slip(capsys, monkeypatch, _load("fortune-bonus.json"))
    bonus = slip["bonus"]
    assert bonus["approved_by"] == "Pat Lee" and bonus["wagers_cents"] == 11_000
    assert [(x["kind"], x["seat"], x["amount_cents"]) for x in bonus["lines"]] == [
        ("bonus", 1, 4_000_000), ("bonus", 2, 12_500), ("bonus", 3, 1_500),
        ("envy", 1, 500), ("envy", 2, 25_000), ("envy", 3, 25_000), ("envy", 3, 500)]
    assert "bonus" not in _slip(capsys, monkeypatch, _load("house-bank.json"))


def test_a_big_bonus_payout_without_its_supervisor_or_over_the_maximum_is_refused(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load("fortune-bonus.json")
    del data["bonus_approved_by"]
    field, why = _refused(capsys, monkeypatch, data)
    assert field == "bonus_approved_by" and "seat 1 bonus $100.00: five aces" in why
    data = _load("fortune-bonus.json")
    data["seats"]["1"]["bonus"] = "150.00"
    assert _refused(capsys, monkeypatch, data) == (
        "seats.1.bonus", "$150.00 is over the bonus maximum of $100.00")
