"""`paigow settle` at a table that sets the House Way after the bank (seed 004), and one that
gives a foul back to be set again (seed 001, online)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

HOUSE_BANK = Path(__file__).parent / "rounds" / "house-bank.json"


@pytest.fixture(autouse=True)
def _no_site_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAIGOW_CONFIG", raising=False)


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         rules: dict[str, str]) -> tuple[int, str, str]:
    data: dict[str, Any] = json.loads(HOUSE_BANK.read_text())
    data["config"] = {"rules": rules}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(data)))
    code = main(["settle", "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def test_house_way_seats_are_set_by_the_dealer_after_the_bank(capsys, monkeypatch) -> None:
    """Seed 004: "having the dealer set it House Way after the bank hand is opened. When a
    hand is played House Way, all seven cards are left in one pile on the table." """
    code, out, err = _run(capsys, monkeypatch, {"asked_house_way": "after-the-bank"})
    assert code == 0, err
    slip = json.loads(out)
    how = {p["position"]: p["set_by"] for p in slip["positions"]}
    assert [how[s] for s in (1, 4, 6)] == ["after-bank"] * 3  # "set": "house-way"
    assert [how[s] for s in (2, 3)] == ["player"] * 2
    assert slip["rules"]["asked_house_way"] == "after-the-bank"


def test_a_foul_under_resplit_is_refused_with_the_seats_field(capsys, monkeypatch) -> None:
    """Seed 001, online: "The player may re-split the hand." Seat 5's 4C 4D in front fouls:
    the description must say how the player set it again."""
    code, _, err = _run(capsys, monkeypatch, {"foul_penalty": "resplit"})
    assert code == 2
    assert "seats.5.set" in err and "goes back to the player to set again" in err
