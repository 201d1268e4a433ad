"""The core's rule types refuse what the table config refuses (one set of limits, written
once in the core), and a round's House Way is the rule card itself."""

from __future__ import annotations

import pytest

from app.core.house_way import house_way
from app.core.round import (
    MAX_DRAGONS_PER_ROUND,
    DragonRules,
    RoundError,
    RoundRules,
    WagerLimits,
)
from app.core.rules_data import RulesDataError, rules_from_data, rules_to_data
from app.core.settlement import MAX_RATE_BP, CommissionPolicy, MoneyError
from app.core.table import TABLE_NAME_MAX, Table, TableError


def test_a_commission_of_25_percent_is_the_most_a_table_may_take() -> None:
    assert MAX_RATE_BP == 2_500
    assert CommissionPolicy(2_500).on(10_000) == 2_500
    with pytest.raises(MoneyError, match=r"a commission of 25\.01% is above 25%"):
        CommissionPolicy(2_501)
    with pytest.raises(MoneyError, match="above 25%"):
        CommissionPolicy(10_000)  # 100%: the core took it before; the config never did


def test_a_commission_is_never_below_zero_and_its_step_is_a_cent_or_more() -> None:
    assert CommissionPolicy(0, 1).on(700) == 0
    with pytest.raises(MoneyError, match="below 0%"):
        CommissionPolicy(-1)
    with pytest.raises(MoneyError, match="at least one cent"):
        CommissionPolicy(500, 0)


def test_a_tables_name_is_1_to_40_characters_as_the_ledger_keeps_it() -> None:
    assert Table("T" * TABLE_NAME_MAX).name == "T" * 40
    with pytest.raises(TableError, match="1 to 40 characters, not 41"):
        Table("T" * 41)
    with pytest.raises(TableError, match="1 to 40 characters, not 0"):
        Table("   ")


def test_dragon_hands_per_round_are_one_to_six() -> None:
    assert DragonRules(per_round=MAX_DRAGONS_PER_ROUND).per_round == 6
    with pytest.raises(RoundError, match="1 to 6, not 7"):
        DragonRules(per_round=7)
    with pytest.raises(RoundError, match="1 to 6, not 0"):
        DragonRules(per_round=0)


def test_a_rounds_house_way_is_the_rule_card_not_its_name() -> None:
    assert RoundRules().house_way is house_way("standard")
    with pytest.raises(RoundError, match="a rule card, not 'delaware-park'"):
        RoundRules(house_way="delaware-park")  # type: ignore[arg-type]


def test_stored_rules_name_the_card_and_read_back_as_the_card_itself() -> None:
    rules = RoundRules(house_way=house_way("trump-plaza"))
    data = rules_to_data(rules)
    assert data["house_way"] == "trump-plaza"
    assert rules_from_data(data).house_way is house_way("trump-plaza")
    assert rules_from_data(data) == rules


def test_stored_rules_of_a_card_this_station_lacks_say_so() -> None:
    data = {**rules_to_data(RoundRules()), "house_way": "caesars"}
    with pytest.raises(RulesDataError, match="played by the House Way 'caesars', which this "
                                             "station does not have") as err:
        rules_from_data(data)
    assert "standard, delaware-park, trump-plaza" in str(err.value)


def test_stored_rules_beyond_the_cores_limits_are_refused_as_unreadable() -> None:
    data = rules_to_data(RoundRules())
    data["commission"] = {**data["commission"], "rate_bp": 5_000}
    with pytest.raises(RulesDataError, match="above 25%"):
        rules_from_data(data)


def test_wager_limits_are_a_range_above_zero() -> None:
    assert WagerLimits(1, 1) == WagerLimits(1, 1)  # a one-cent table is a range
    with pytest.raises(RoundError, match=r"minimum wager must be above \$0\.00, not \$0\.00"):
        WagerLimits(0, 500)
    with pytest.raises(RoundError, match=r"the maximum \$4\.99 is below the minimum \$5\.00"):
        WagerLimits(500, 499)
