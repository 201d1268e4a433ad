"""`paigow house-way --audit CARD`: the rows whose setting is weaker than another legal setting
of the same hand (a front and a back at least as strong, one stronger).

These tests audit chosen hands (as one-hand classes) so they run in a moment; the full
reading over all 154,143,080 hands is the same loop (test_house_way_reach.py runs it).
"""

from __future__ import annotations

import json

import pytest

from app.commands import house_way as command
from app.core.cards import parse_cards
from app.core.hands import DEFAULT_RULES
from app.core.house_way import audit
from app.core.house_way.audit import survey

# Seed 000, Royal Flush and Pair: "Any other One Pair, Joker: The two cards will be the Joker
# and the highest singleton not from the flush". AC and the joker are the pair; word for
# word JK 8C goes in front and AC KD QD JD TD (a straight) behind, where AC 8C in front (the
# same A-8) leaves the joker with KD QD JD TD: a royal flush.
ROYAL_GIVEN_UP = parse_cards("JD QD KD TD 8C AC JK", 7)
# Seed 000, High Card: "Otherwise: The two cards will be 2nd & 3rd highest": K-9 in front,
# A-6-5-3-2 behind. No setting keeps the front and the back at least as strong.
HIGH_CARD = parse_cards("AS KD 9H 6C 5S 3D 2C", 7)


def test_row_that_gives_up_a_royal_flush_is_dominated_with_the_better_setting() -> None:
    found = survey(["standard"], audit=True, classes=[(ROYAL_GIVEN_UP, 7)])["standard"]

    row = found.dominated["RF-P5"]

    assert row.hands == 7
    assert row.example == ROYAL_GIVEN_UP
    assert row.played is not None and row.better is not None
    assert {str(c) for c in row.played.low} == {"JK", "8C"}
    assert {str(c) for c in row.better.low} == {"AC", "8C"}
    assert found.reach == {"RF-P5": 7}


def test_row_with_no_stronger_setting_is_not_listed() -> None:
    found = survey(["standard"], audit=True, classes=[(HIGH_CARD, 3)])["standard"]

    assert found.dominated == {}
    assert found.reach == {"HC-2": 3}


def test_dominated_hands_add_up_over_classes_and_keep_the_heaviest_example() -> None:
    other = parse_cards("JS QS KS TS 8H AH JK", 7)
    hands = [(ROYAL_GIVEN_UP, 2), (other, 5), (HIGH_CARD, 11)]

    found = survey(["standard"], audit=True, classes=hands)["standard"]

    assert found.dominated["RF-P5"].hands == 7
    assert found.dominated["RF-P5"].example == other
    assert found.total == 18


@pytest.fixture
def two_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit, "hand_classes", lambda: iter([(ROYAL_GIVEN_UP, 4),
                                                              (HIGH_CARD, 6)]))


@pytest.mark.usefixtures("two_hands")
def test_audit_text_names_the_row_the_count_and_both_settings(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert command.audit("standard", DEFAULT_RULES, as_json=False) == 0

    text = capsys.readouterr().out
    assert "RF-P5  Any other One Pair, Joker" in text
    assert "4 hands" in text
    assert "the card sets JK 8C | AC KD QD JD TD" in text
    assert "better AC 8C | JK KD QD JD TD" in text


@pytest.mark.usefixtures("two_hands")
def test_audit_json_gives_each_dominated_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert command.audit("standard", DEFAULT_RULES, as_json=True) == 0

    out = json.loads(capsys.readouterr().out)
    assert out["card"] == "standard" and out["hands"] == 154_143_080
    [row] = out["rows"]
    assert row["row"] == "RF-P5" and row["hands"] == 4 and row["row_hands"] == 4
    assert sorted(row["better"]["low"]) == ["8C", "AC"]
    assert sorted(row["played"]["low"]) == ["8C", "JK"]


# Fully wild, "Four of a kind, 7s to 10s: split unless a King or Ace can go in front", the
# four made with the joker: 9D 9H in front, 9S and the joker behind. Fully wild that is a
# pair of 9s with 8-7-3 behind; were the joker a bug it would be A-9-8-7-3 behind a pair of
# 9s, a foul.
WILD_SPLIT = parse_cards("9S 9H 9D JK 8S 7D 3H", 7)


def test_a_card_for_the_fully_wild_joker_is_judged_with_the_joker_wild() -> None:
    found = survey(["fully-wild"], audit=True, classes=[(WILD_SPLIT, 5)])["fully-wild"]

    assert found.reach == {"FW-4K-MED": 5}
    assert found.fouls == 0  # judged with the joker wild, as the card plays it
    assert found.dominated == {}  # no legal setting is as strong in front and behind


def test_a_four_made_with_the_joker_splits_by_the_joker_beside_a_higher_single() -> None:
    # 9D 9H in front beside a Queen would leave a pair of 9s behind where JK QS (a pair of
    # Queens) in front keeps three 9s behind: a weaker setting on both hands, so the card
    # splits by the joker there and no row gives up strength on this hand.
    hand = parse_cards("9S 9H 9D JK QS 7D 3H", 7)
    found = survey(["fully-wild"], audit=True, classes=[(hand, 1)])["fully-wild"]
    assert found.reach == {"FW-4K-MED": 1}
    assert found.dominated == {}
