"""A round's rules and the bank rotation as structured data: what is written reads back as
the same rules (DESIGN.md: "A round stores the rules it was played under as structured
data; anything that re-reads a round uses those, not today's config")."""

from pathlib import Path

import pytest

from app.core.banker import BankingRules, BankRotation
from app.core.bonus import BonusRules, PayOrder, pay_card
from app.core.bonus.table_bonus import TableBonus
from app.core.round import DragonRules, DragonWager, FoulPenalty, RoundRules
from app.core.rules_data import (
    RulesDataError,
    rotation_from_data,
    rotation_to_data,
    rules_from_data,
    rules_to_data,
)
from app.settings import load_config

PRESETS = sorted((Path(__file__).resolve().parents[2] / "config").glob("*.toml"))


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
def test_every_presets_rules_read_back_as_written(preset: Path) -> None:
    rules = load_config(preset, env={}).round_rules()
    assert rules_from_data(rules_to_data(rules)) == rules


def test_rules_other_than_the_defaults_read_back_as_written() -> None:
    rules = RoundRules(foul_penalty=FoulPenalty.HOUSE_WAY,
                       dragon=DragonRules(wager=DragonWager.EQUAL, per_round=2),
                       banking=BankingRules(co_banking=True))
    data = rules_to_data(rules)
    assert data["schema"] == "paigow.rules/1" and data["commission"]["rate_bp"] == 500
    assert rules_from_data(data) == rules


def test_the_rotation_reads_back_as_written() -> None:
    rotation = BankRotation(round_no=4, first_round=False, last_banker=2,
                            house_bets=((1, 2500),), offer_from=3, last_dragon=5)
    assert rotation_from_data(rotation_to_data(rotation)) == rotation


def test_rules_of_another_schema_or_missing_a_part_are_refused_with_why() -> None:
    data = rules_to_data(RoundRules())
    with pytest.raises(RulesDataError, match="not paigow.rules/1"):
        rules_from_data({**data, "schema": "paigow.rules/9"})
    del data["commission"]
    with pytest.raises(RulesDataError, match="cannot be read"):
        rules_from_data(data)


def test_a_round_stored_before_the_bonus_reads_back_with_no_bonus() -> None:
    data = rules_to_data(RoundRules())
    assert "bonus" not in data  # what every station before issue 26 wrote
    assert rules_from_data(data).bonus is None


def test_the_bonus_a_round_was_played_under_is_stored_whole_and_reads_back() -> None:
    bonus = TableBonus(pay_card("pai-gow-mania-seven"), None, 500, 2500, False,
                       BonusRules(fouled_collects=False, dragon_bonus=True,
                                  order=PayOrder.SEAT_BY_SEAT, supervisor_at=50_000))
    data = rules_to_data(RoundRules(bonus=bonus))
    stored = data["bonus"]
    # The card's rows are in the round, not only its name: an edited card file changes
    # no past round.
    assert ["five-aces", 500] in stored["pay_card"]["pays"]  # type: ignore[index]
    assert rules_from_data(data).bonus == bonus
    assert rules_from_data(rules_to_data(RoundRules(bonus=TableBonus()))).bonus == TableBonus()


def test_a_stored_bonus_that_cannot_be_read_is_refused_with_why() -> None:
    data = rules_to_data(RoundRules(bonus=TableBonus()))
    data["bonus"]["pay_card"]["pays"][0][0] = "six-aces"  # type: ignore[index]
    with pytest.raises(RulesDataError, match="bonus cannot be read"):
        rules_from_data(data)
