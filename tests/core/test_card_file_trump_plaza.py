"""The Trump Plaza card file (config/house-ways/trump-plaza.toml) against the Python card
(app/core/house_way/trump_plaza.py, the reference) over all 154,143,080 seven-card hands, as
the 292,253 hand classes of `app.core.classes`: the same two cards in front and the same row
(and step) on every hand, and the file passes the full check a casino's card gets (`paigow
house-way --check`): every row fires, no row's play would foul, every hand is set.

One pass sets both cards on every class (a few minutes on one core)."""

from __future__ import annotations

import json

import pytest

from app.core.classes import ALL_HANDS
from app.core.house_way import SHIPPED_CARDS, house_way
from app.core.house_way.card_file import CardCheck, check_card, load_card
from tests.core.test_house_way_golden import GOLDEN

pytestmark = pytest.mark.proof


@pytest.fixture(scope="module")
def checked() -> CardCheck:
    return check_card(load_card(SHIPPED_CARDS / "trump-plaza.toml"),
                      same_as=house_way("trump-plaza"))


def test_the_file_sets_all_154143080_hands_as_the_python_card_same_front_same_row(
        checked: CardCheck) -> None:
    differ = [f for f in checked.findings.values() if f.what == "differs"]

    assert checked.hands == ALL_HANDS == 154_143_080
    assert differ == [], f"hands set differently: {differ[0].hands:,}, e.g. " \
        f"{differ[0].example}: {differ[0].detail}" if differ else ""


def test_the_file_passes_the_full_check_every_row_fires_none_fouls_every_hand_set(
        checked: CardCheck) -> None:
    assert checked.problems == []


def test_each_row_of_the_file_sets_the_hands_the_python_card_is_recorded_to_set(
        checked: CardCheck) -> None:
    recorded = json.loads((GOLDEN / "reach.json").read_text(encoding="utf-8"))["trump-plaza"]
    rows = {k: v for k, v in checked.reach.items()}
    # check_card counts a row that follows steps once as the row and once as row/step.
    for key in [k for k in rows if "/" in k]:
        rows[key.split("/")[0]] -= rows[key]
    rows = {k: v for k, v in rows.items() if v}

    assert rows == recorded
