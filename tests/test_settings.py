"""The table configuration: the shipped file, site files, the environment, and refusals that
name the file, the key and why."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.banker import DealerWager
from app.core.bonus import SHIPPED_CARDS, PayOrder
from app.core.bonus.table_bonus import TableBonus
from app.core.house_way import house_way, use_site_cards
from app.core.round import (
    DragonOffer,
    DragonWager,
    FoulPenalty,
    RoundError,
    RoundRules,
    WagerLimits,
)
from app.core.settlement import CommissionPolicy, MoneyError, Rounding
from app.core.table import ActionSource, DealMode, Direction
from app.settings import DEFAULT_FILE, ConfigError, TableConfig, load_config

CONFIG = DEFAULT_FILE.parent
EXAMPLES = sorted(CONFIG.glob("example-*.toml"))


def _site(tmp_path: Path, text: str, name: str = "site.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _refused(tmp_path: Path, text: str, env: dict[str, str] | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        load_config(_site(tmp_path, text), env=env or {})
    return err.value


# --- the shipped table ---------------------------------------------------------------------

def test_the_shipped_file_is_the_table_as_the_models_default_it() -> None:
    assert load_config(env={}) == TableConfig()


def test_the_shipped_table_is_the_designs_defaults() -> None:
    rules = load_config(env={}).round_rules()
    assert rules.table.direction is Direction.CLOCKWISE
    assert rules.table.action_source is ActionSource.RNG
    assert rules.table.deal_mode is DealMode.STACKS
    assert (rules.commission.rate_bp, rules.commission.step_cents) == (500, 25)
    assert rules.commission.rounding is Rounding.UP
    assert rules.foul_penalty is FoulPenalty.FORFEIT
    assert rules.house_way is house_way("standard")
    assert (rules.hands.joker, rules.hands.wheel) == ("bug", "second")
    assert rules.commission.on(700) == 50


def test_every_key_of_the_shipped_file_is_commented_and_every_setting_is_there() -> None:
    lines = DEFAULT_FILE.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^\w+\s*=", line):
            assert lines[i - 1].startswith("#"), f"no comment above {line!r}"
    data = tomllib.loads(DEFAULT_FILE.read_text())
    for section, model in TableConfig.model_fields.items():
        assert section in data
        assert set(data[section]) == set(model.annotation.model_fields)  # type: ignore[union-attr]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_site_file_loads_and_changes_the_table(path: Path) -> None:
    config = load_config(path, env={})
    assert config != TableConfig()
    assert config.table.name != TableConfig().table.name


def test_the_counterclockwise_example_reaches_the_core_rules() -> None:
    rules = load_config(CONFIG / "example-counterclockwise.toml", env={}).round_rules()
    assert rules.table.direction is Direction.COUNTERCLOCKWISE
    assert rules.table.action_source is ActionSource.DICE
    assert rules.table.deal_mode is DealMode.ONE_AT_A_TIME
    assert rules.commission.step_cents == 50  # half of a $1 chip
    assert rules.foul_penalty is FoulPenalty.HOUSE_WAY
    assert rules.dragon.wager is DragonWager.EQUAL
    assert rules.dragon.offer is DragonOffer.FROM_ACTION
    assert rules.banking.co_banking and rules.banking.dealer_wager is DealerWager.LAST_BET
    assert (rules.limits.minimum, rules.limits.maximum) == (1000, 200000)


# --- layers --------------------------------------------------------------------------------

def test_a_site_file_sets_only_the_keys_it_changes(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, '[commission]\nrate = "4%"\n'), env={})
    assert config.commission.rate == 400
    assert config.commission.step == "1/4 chip" and config.table == TableConfig().table


def test_the_environment_overrides_the_files(tmp_path: Path) -> None:
    site = _site(tmp_path, '[commission]\nrate = "4%"\n')
    env = {"PAIGOW_COMMISSION__RATE": "3.5%", "PAIGOW_TABLE__DIRECTION": "counterclockwise",
           "PAIGOW_DRAGON__ENABLED": "false", "PAIGOW_DRAGON__PER_ROUND": "2",
           "PAIGOW_HOME": "/tmp"}  # not a PAIGOW_<SECTION>__<KEY> variable
    config = load_config(site, env=env)
    assert config.commission.rate == 350
    assert config.table.direction is Direction.COUNTERCLOCKWISE
    assert config.dragon.enabled is False and config.dragon.per_round == 2


def test_only_section_and_key_variables_are_read_from_the_environment() -> None:
    # PAIGOW_STATION or PAIGOW_SHOE alone names no key: not a setting, as PAIGOW_HOME is not
    # (a section is never one variable's JSON).
    env = {"PAIGOW_STATION": "PG-1", "PAIGOW_SHOE": '{"port": "/dev/ttyUSB0"}',
           "paigow_table__name": "PG-7"}  # the names are read whatever their case
    config = load_config(env=env)
    assert config.station.name == "" and config.shoe.port == ""
    assert config.table.name == "PG-7"


def test_an_environment_variable_for_no_section_is_refused_with_the_sections(
        tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(env={"PAIGOW_COMISSION__RATE": "4%"})
    message = str(caught.value)
    assert "environment PAIGOW_COMISSION__RATE" in message
    assert "no such section" in message and "commission" in message


def test_paigow_config_names_the_site_file(tmp_path: Path) -> None:
    site = _site(tmp_path, '[table]\nname = "PG-9"\n')
    assert load_config(env={"PAIGOW_CONFIG": str(site)}).table.name == "PG-9"


def test_overrides_come_last() -> None:
    config = load_config(env={"PAIGOW_WAGERS__MINIMUM": "10"},
                         overrides={"wagers": {"minimum": "25"}})
    assert config.wagers.minimum == 2500


@pytest.mark.parametrize("step,cents", [("0.25", 25), ("1/4 chip", 25), ("1/2 chip", 50),
                                        ("chip", 100), ("$0.05", 5)])
def test_the_commission_step_is_an_amount_or_a_part_of_the_lowest_chip(
        tmp_path: Path, step: str, cents: int) -> None:
    config = load_config(_site(tmp_path, f'[commission]\nstep = "{step}"\n'), env={})
    assert config.commission.step_cents == cents


def test_a_quarter_of_a_five_dollar_lowest_chip(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, '[commission]\nlowest_chip = "5.00"\n'), env={})
    assert config.round_rules().commission.step_cents == 125


# --- refusals: the file, the key and why ---------------------------------------------------

def test_a_bad_choice_is_refused_with_the_file_the_key_and_the_choices(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[table]\ndirection = "sideways"\n')
    assert err.file.endswith("site.toml") and err.key == "table.direction"
    assert "'clockwise' or 'counterclockwise'" in err.why and "'sideways'" in err.why


def test_an_unknown_key_is_refused_with_the_keys_there_are(tmp_path: Path) -> None:
    err = _refused(tmp_path, "[dragon]\nenabeld = true\n")
    assert err.key == "dragon.enabeld"
    assert "no such key" in err.why and "enabled" in err.why


def test_an_unknown_section_is_refused(tmp_path: Path) -> None:
    err = _refused(tmp_path, "[comission]\nrate = \"5%\"\n")
    assert err.key == "comission" and "commission" in err.why


def test_money_must_be_dollars_in_quotes(tmp_path: Path) -> None:
    err = _refused(tmp_path, "[wagers]\nminimum = 5\n")
    assert err.key == "wagers.minimum" and "dollars in quotes" in err.why


def test_a_rate_must_be_a_percentage(tmp_path: Path) -> None:
    assert "percentage" in _refused(tmp_path, "[commission]\nrate = \"5\"\n").why
    assert "above 25%" in _refused(tmp_path, "[commission]\nrate = \"50%\"\n").why


def test_a_step_that_is_not_whole_cents_is_refused(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[commission]\nlowest_chip = "0.50"\nstep = "1/8 chip"\n')
    assert err.key == "commission.step" and "not a whole number of cents" in err.why


def test_a_minimum_above_the_maximum_is_refused(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[wagers]\nminimum = "50"\nmaximum = "10"\n')
    assert err.key == "wagers.maximum" and "below the minimum $50.00" in err.why


def test_an_unknown_house_way_is_refused_with_the_cards_there_are(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[rules]\nhouse_way = "caesars"\n')
    assert err.key == "rules.house_way" and "standard" in err.why and "delaware-park" in err.why


def test_a_fully_wild_joker_plays_the_fully_wild_card_when_the_table_names_none(
        tmp_path: Path) -> None:
    # Seed 004: "the Joker is FULLY WILD and can be played in place of any card": the other
    # cards read the joker as an ace, so a wild table that names no card plays its own.
    wild = load_config(_site(tmp_path, '[rules]\njoker = "fully-wild"\n'), env={})
    assert wild.round_rules().house_way.name == "fully-wild"
    by_env = load_config(env={"PAIGOW_RULES__JOKER": "fully-wild"})
    assert by_env.round_rules().house_way.name == "fully-wild"
    named = load_config(_site(tmp_path, '[rules]\njoker = "fully-wild"\n'
                                        'house_way = "fully-wild"\n', "named.toml"), env={})
    assert named.round_rules().house_way.name == "fully-wild"
    assert load_config(env={}).round_rules().house_way.name == "standard"  # the bug's default


@pytest.mark.parametrize("card", ["standard", "delaware-park", "trump-plaza",
                                  "trump-plaza.toml"])
def test_a_card_that_reads_the_joker_as_a_bug_at_a_fully_wild_table_is_refused(
        tmp_path: Path, card: str) -> None:
    # Seed 004: "In Joker's Wild, the Joker can be used as ANY card. In Non-Joker's Wild a
    # Joker can be used to complete a flush or straight, or as an Ace." A card written for
    # the second would split 9S 9H JK KC 7H 4S 2D, where the wild joker makes three nines.
    err = _refused(tmp_path, f'[rules]\njoker = "fully-wild"\nhouse_way = "{card}"\n')

    assert err.key == "rules" and err.file.endswith("site.toml")
    assert f'the "{card}" House Way reads the joker as an ace' in err.why
    assert 'the House Way cards for a fully wild joker are: "fully-wild"' in err.why


def test_a_fully_wild_joker_from_the_environment_under_a_named_bug_card_is_refused(
        tmp_path: Path) -> None:
    err = _refused(tmp_path, '[rules]\nhouse_way = "delaware-park"\n',
                   env={"PAIGOW_RULES__JOKER": "fully-wild"})

    assert 'the House Way cards for a fully wild joker are: "fully-wild"' in err.why


def test_the_fully_wild_card_at_a_table_whose_joker_is_a_bug_is_refused(
        tmp_path: Path) -> None:
    err = _refused(tmp_path, '[rules]\nhouse_way = "fully-wild"\n')
    assert err.key == "rules" and 'joker = "fully-wild"' in err.why
    assert err.file.endswith("site.toml")


CARD_FILE = """title = "Our House Way"

[[section]]
title = "Everything"

[[section.row]]
id = "ALL"
says = "The two highest singles in front, or the next two."
play = ["two-highest-singles", "nth-highest(2, 3)"]
"""


@pytest.fixture
def forget_site_cards() -> Iterator[None]:
    yield
    use_site_cards(None)


def test_a_card_file_beside_the_site_file_can_be_the_tables_house_way(
        tmp_path: Path, forget_site_cards: None) -> None:
    (tmp_path / "house-ways").mkdir()
    (tmp_path / "house-ways" / "our-way.toml").write_text(CARD_FILE)

    rules = load_config(_site(tmp_path, '[rules]\nhouse_way = "our-way"\n'), env={}).rules

    assert rules.house_way.name == "our-way"


def test_the_shipped_trump_plaza_card_file_can_be_the_tables_house_way(tmp_path: Path) -> None:
    rules = load_config(_site(tmp_path, '[rules]\nhouse_way = "trump-plaza.toml"\n'),
                        env={}).rules

    assert rules.house_way.name == "trump-plaza.toml"


def test_a_broken_card_file_is_refused_at_start_naming_its_row(
        tmp_path: Path, forget_site_cards: None) -> None:
    (tmp_path / "house-ways").mkdir()
    (tmp_path / "house-ways" / "our-way.toml").write_text(
        CARD_FILE.replace("nth-highest(2, 3)", "next-two"))

    err = _refused(tmp_path, '[rules]\nhouse_way = "our-way"\n')

    assert err.key == "rules.house_way" and "our-way.toml line 9 (row ALL)" in err.why
    assert "'next-two' is not a play" in err.why


def test_an_unknown_house_way_lists_the_card_files_too(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[rules]\nhouse_way = "caesars"\n')

    assert "trump-plaza.toml" in err.why


def test_a_table_is_six_seats(tmp_path: Path) -> None:
    assert "seats is 6" in _refused(tmp_path, "[table]\nseats = 5\n").why


def test_every_problem_is_listed_at_once(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[table]\naction = "coin"\n[rules]\njoker = "wild"\n')
    assert [p.key for p in err.problems] == ["table.action", "rules.joker"]
    assert str(err).count("site.toml") == 2


def test_a_bad_environment_value_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(env={"PAIGOW_PLAYER_BANKING__CO_BANKING": "maybe"})
    assert err.value.file == "environment PAIGOW_PLAYER_BANKING__CO_BANKING"
    assert err.value.key == "player_banking.co_banking"


def test_a_file_that_is_not_toml_is_refused_with_where(tmp_path: Path) -> None:
    err = _refused(tmp_path, "[table\nname = 1\n")
    assert err.file.endswith("site.toml") and "not valid TOML" in err.why and "line 1" in err.why


def test_a_missing_site_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nowhere.toml", env={})


def test_an_override_is_named_by_its_source() -> None:
    with pytest.raises(ConfigError) as err:
        load_config(env={}, overrides={"rules": {"foul_penalty": "fine"}},
                    overrides_source="round.json: config")
    assert str(err.value).startswith("round.json: config: rules.foul_penalty: ")


# --- one source: the config refuses what the core refuses, at the same edges --------------

@pytest.mark.parametrize("rate,cents", [('"25%"', 2500), ('"0%"', 0)])
def test_the_config_takes_a_commission_up_to_the_cores_25_percent(
        tmp_path: Path, rate: str, cents: int) -> None:
    config = load_config(_site(tmp_path, f"[commission]\nrate = {rate}\n"), env={})
    assert config.round_rules().commission.rate_bp == cents


def test_the_config_refuses_a_commission_above_25_percent_in_the_cores_words(
        tmp_path: Path) -> None:
    err = _refused(tmp_path, '[commission]\nrate = "25.01%"\n')
    with pytest.raises(MoneyError) as core:
        CommissionPolicy(2501)
    assert err.key == "commission.rate" and err.why == str(core.value)


def test_the_config_takes_a_table_name_of_40_characters_and_refuses_41(
        tmp_path: Path) -> None:
    name = "T" * 40
    config = load_config(_site(tmp_path, f'[table]\nname = "{name}"\n'), env={})
    assert config.round_rules().table.name == name
    assert _refused(tmp_path, f'[table]\nname = "{name}T"\n').key == "table.name"
    assert _refused(tmp_path, '[table]\nname = "   "\n').why.startswith(
        "a table's name is 1 to 40 characters")


def test_the_config_takes_six_dragons_a_round_and_refuses_seven(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, "[dragon]\nper_round = 6\n"), env={})
    assert config.round_rules().dragon.per_round == 6
    assert _refused(tmp_path, "[dragon]\nper_round = 7\n").key == "dragon.per_round"


def test_the_config_defaults_are_the_cores_defaults() -> None:
    # The shipped table offers the bonus (the core's own bonus defaults); a round built
    # without one (RoundRules(), a round stored before the bonus) has none.
    rules = TableConfig().round_rules()
    assert rules.bonus == TableBonus()
    assert replace(rules, bonus=None) == RoundRules()


def test_the_bonus_is_configured_checked_and_can_be_turned_off(tmp_path: Path) -> None:
    site = _site(tmp_path, '[bonus]\npay_table = "fortune-2500"\nenvy_table = ""\n'
                           'maximum = "25.00"\nfouled_collects = false\n'
                           'order = "seat-by-seat"\napproval_at = "500.00"\n')
    bonus = load_config(site, env={}).round_rules().bonus
    assert bonus is not None and bonus.pays.name == "fortune-2500" and bonus.envy is None
    assert (bonus.minimum, bonus.maximum) == (100, 2500)
    assert not bonus.rules.fouled_collects and bonus.rules.supervisor_at == 50_000
    assert bonus.rules.order is PayOrder.SEAT_BY_SEAT
    off = load_config(env={"PAIGOW_BONUS__ENABLED": "false"}).round_rules()
    assert off.bonus is None


def test_a_bonus_card_that_is_no_card_or_limits_upside_down_are_refused(
        tmp_path: Path) -> None:
    refused = _refused(tmp_path, '[bonus]\npay_table = "fortune-9000"\n')
    assert refused.key == "bonus.pay_table" and "fortune-8000" in refused.why
    assert _refused(tmp_path, '[bonus]\nenvy_table = "fortune-8000"\n').key == \
        "bonus.envy_table"
    upside = _refused(tmp_path, '[bonus]\nminimum = "50.00"\nmaximum = "10.00"\n')
    assert "below its minimum $50.00" in upside.why


def test_a_bonus_card_given_as_a_path_is_loaded_and_checked(tmp_path: Path) -> None:
    card = tmp_path / "ours.toml"
    card.write_text((SHIPPED_CARDS / "fortune-2500.toml").read_text())
    site = _site(tmp_path, f'[bonus]\npay_table = "{card}"\n')
    assert load_config(site, env={}).round_rules().bonus.pays.name == "ours"  # type: ignore[union-attr]
    card.write_text("[pays]\nstraight = 0\n")
    refused = _refused(tmp_path, f'[bonus]\npay_table = "{card}"\n')
    assert refused.key == "bonus.pay_table" and "ours.toml line" in refused.why


def test_the_house_way_is_resolved_to_its_card_as_the_config_loads(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, '[rules]\nhouse_way = "trump-plaza"\n'), env={})
    assert config.rules.house_way is house_way("trump-plaza")
    assert config.round_rules().house_way is house_way("trump-plaza")
    env = load_config(env={"PAIGOW_RULES__HOUSE_WAY": "delaware-park"})
    assert env.rules.house_way is house_way("delaware-park")
    # Written back as its name wherever the config is dumped.
    assert config.model_dump(mode="json")["rules"]["house_way"] == "trump-plaza"
    assert config.snapshot()["rules"]["house_way"] == "trump-plaza"


def test_a_rounds_config_snapshot_keeps_no_secret(tmp_path: Path) -> None:
    config = load_config(_site(tmp_path, '[supervisor]\npin = "730215"\n\n[ledger]\n'
                                         'database_url = "postgresql://p:s3cret@db/pg"\n'),
                         env={})
    snapshot = config.snapshot()
    assert "supervisor" not in snapshot and "ledger" not in snapshot
    assert "730215" not in str(snapshot) and "s3cret" not in str(snapshot)
    assert snapshot["commission"]["rate"] == 500


def test_the_config_refuses_wager_limits_in_the_cores_words(tmp_path: Path) -> None:
    err = _refused(tmp_path, '[wagers]\nminimum = "0.00"\n')
    with pytest.raises(RoundError) as core:
        WagerLimits(0, 0)
    assert err.key == "wagers.minimum" and err.why == str(core.value)
    config = load_config(_site(tmp_path, '[wagers]\nminimum = "5.00"\nmaximum = "5.00"\n'),
                         env={})
    assert config.round_rules().limits == WagerLimits(500, 500)
