"""Refusals in the dealer's words (issue 25, item 4: "Refusals stay until read, in dealer
words"). The table's settings refused a key in the config file's words: R at a dice table
said 'table: action = "dice"', G at a table without dragons 'table: dragon.enabled'. A
dealer reads what the table does and which key does it; the config's keys are the
supervisor's (docs/configuration.md). The one word list (app/session/glossary.py) finds a
config line, key or section wherever it shows."""

from __future__ import annotations

import pytest

from app.core.round import DragonRules, Phase, Round, RoundError, RoundRules
from app.core.table import Action, ActionSource, DealMode, Table
from app.session import DealerSession, MemoryLedger, glossary

from .play import Play, stacked


def opened(rules: RoundRules) -> Play:
    p = Play(DealerSession(rules, ledger=MemoryLedger(shift="Ann"), randbelow=lambda _n: 1))
    p.key("N")
    p.wagers({1: "25"})
    return p


def dealt(rules: RoundRules) -> Play:
    p = opened(rules)
    p.key("R")
    rnd = p.s.round
    assert rnd is not None and rnd.action is not None
    p.read(stacked(p.s.table, rnd.action.position, {}))
    assert rnd.phase is Phase.SETTING
    return p


def in_dealer_words(message: str) -> None:
    assert glossary.internal_words(message) == (), message
    assert "table:" not in message and '= "' not in message, message


@pytest.mark.parametrize("text", [
    'this table finds action with dice, not rng (table: action = "dice")',
    "this table plays no dragon hands (table: dragon.enabled)",
    "this table takes no bonus wager (table: bonus.enabled)",
    "the gaming day starts at [floor] gaming_day_starts",
])
def test_the_word_list_finds_the_config_files_words(text: str) -> None:
    assert glossary.internal_words(text)


@pytest.mark.parametrize("text", [
    "Every round is recorded as it goes in sqlite:////var/lib/paigow/ledger.sqlite",
    "this table takes the action from the dice only: roll them, press D and type the three "
    "dice",
    "Seat 2 = $25.00",
])
def test_a_database_file_and_the_dealers_words_are_not_config_words(text: str) -> None:
    assert glossary.internal_words(text) == ()


def test_r_at_a_dice_table_says_to_roll_and_press_d():
    p = opened(RoundRules(table=Table("PG-1", action_source=ActionSource.DICE)))
    refused = p.key("R")
    assert not refused.done
    in_dealer_words(refused.message)
    assert refused.message.startswith(
        "this table takes the action from the dice only: roll them, press D and type the "
        "three dice")


def test_g_at_a_table_without_dragons_says_so_in_words():
    p = dealt(RoundRules(dragon=DragonRules(enabled=False)))
    refused = p.key("G")
    assert not refused.done
    in_dealer_words(refused.message)
    assert refused.message.startswith("this table plays no dragon hands")


def test_a_bonus_wager_at_a_table_without_the_bonus_says_so_in_words():
    p = opened(RoundRules())
    refused = p.cmd("bonus", "5")
    assert not refused.done
    in_dealer_words(refused.message)
    assert refused.message.startswith("this table takes no bonus wager")


def test_setting_a_house_way_dragon_by_hand_says_who_sets_it():
    p = dealt(RoundRules())  # the dragon set by the House Way
    p.key("G")
    p.key("Enter")
    rnd = p.s.round
    assert rnd is not None and rnd.dragons
    position = next(iter(rnd.dragons))
    p.seat(position)
    refused = p.key("F")
    assert not refused.done
    in_dealer_words(refused.message)
    assert refused.message.startswith("the dragon hand is set by the House Way at this table, "
                                      "not by a player")


def test_the_cores_own_refusals_of_a_tables_settings_are_in_words():
    dice = Round(RoundRules(table=Table("PG-1", action_source=ActionSource.DICE)))
    dice.place_wager(1, 2500)
    with pytest.raises(RoundError) as action:
        dice.set_action(Action.from_rng(1))
    assert str(action.value) == "this table takes the action from the dice only, not from the RNG"
    stacks = Round(RoundRules(table=Table("PG-1", deal_mode=DealMode.STACKS)))
    stacks.place_wager(1, 2500)
    stacks.set_action(Action.from_rng(1))
    with pytest.raises(RoundError) as deal:
        stacks.deal_one_at_a_time([])
    assert str(deal.value) == ("this table's deal is read in stacks, not one card at a time; "
                               "or enter the hands by position")
    for said in (str(action.value), str(deal.value)):
        in_dealer_words(said)


def test_p_at_a_station_without_a_printer_says_so_in_words():
    p = dealt(RoundRules())  # no printer given
    p.key("Shift+Q")
    p.house_way_all()
    assert p.key("S").done
    refused = p.key("P")
    assert not refused.done
    in_dealer_words(refused.message)
    assert refused.message.startswith("no slip printer is set up at this station: read the "
                                      "slip on screen")
