"""The table presets, one file per house in the seeds: each loads through the settings and
plays a whole round under the core with the money its seed says.

Golden figures come from the seeds' words (quoted), not from the code's output.
"""

from __future__ import annotations

import re

import pytest

from app.core.banker import BankRotation
from app.core.cards import parse_cards
from app.core.hands import Category, HandRules, category_of, rank5
from app.core.house_way import set_house_way
from app.core.round import FoulPenalty, HandReturned, HandSet, Round, RoundError, RoundRules
from app.core.round_rules import AskedHouseWay
from app.core.settlement import Outcome, Slip
from app.core.table import DEALER, NO_PLAY, Action
from app.settings import DEFAULT_FILE, load_config

CONFIG = DEFAULT_FILE.parent
PRESETS = {"atlantic-city": "002", "delaware-park": "003", "cordova": "004"}

# One whole deck: seven hands and the four left over.
HANDS = {
    DEALER: "TD 8S 7C 6H 4D 3S 2H",  # no pair: ten high
    1: "AD AC TS TC 7S 5S 4C",  # aces and tens
    2: "KS KH 9S 9H 6D 3H 2S",  # kings and nines
    3: "JH 9C 7D 5H 4S 3C 2D",
    4: "QD QC 8C 8H 6C 5D 4H",  # queens and eights
    5: "QS QH JD JC 9D 6S 2C",
    6: "AS AH KD KC 8D 5C 3D",  # aces and kings
}
LEFTOVERS = "JS 7H TH JK"


def _rules(name: str) -> RoundRules:
    return load_config(CONFIG / f"{name}.toml", env={}).round_rules()


def _play(rules: RoundRules, wagers: dict[int, int], action: Action,
          fronts: dict[int, str] | None = None, rotation: BankRotation | None = None,
          bank: tuple[int, int] | None = None) -> Slip:
    """A whole round: wagers, the bank, action, the deal by position, the settings (the
    House Way unless a front is given), the settlement."""
    game = Round(rules, rotation)
    for seat, cents in wagers.items():
        game.place_wager(seat, cents)
    if bank is not None:
        game.take_bank(*bank)
    game.set_action(action)
    game.deal_by_position({p: parse_cards([h]) for p, h in HANDS.items()},
                          parse_cards([LEFTOVERS]))
    for seat in wagers:
        front = (fronts or {}).get(seat)
        if front:
            game.set_hand(seat, parse_cards([front]))
        elif rules.asked_house_way is AskedHouseWay.AFTER_BANK:
            game.ask_house_way(seat)  # one pile, set after the bank (seed 004)
        else:
            game.house_way(seat)
    if bank is not None:
        game.house_way(bank[0])
    return game.settle()


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_value_in_a_preset_names_the_seed_line_it_comes_from(name: str) -> None:
    lines = (CONFIG / f"{name}.toml").read_text().splitlines()
    for i, line in enumerate(lines):
        if not re.match(r"^\w+\s*=", line):
            continue
        above = []
        for before in reversed(lines[:i]):
            if not before.startswith("#"):
                break
            above.append(before)
        assert any('"' in c for c in above), f"{name}.toml: no seed line quoted above {line!r}"
    assert f"seed {PRESETS[name]}" in "\n".join(lines[:5])


def test_the_shipped_default_limits_are_seed_002s() -> None:
    # Seed 002: "$5 minimum bet." "$300 maximum bet."; seed 000: "*Commission is rounded up
    # to a quarter of the lowest chip denomination in the game."
    rules = load_config(env={}).round_rules()
    assert (rules.limits.minimum, rules.limits.maximum) == (500, 30000)
    assert (rules.commission.rate_bp, rules.commission.step_cents) == (500, 25)
    text = DEFAULT_FILE.read_text()
    assert '"$5 minimum bet."' in text and '"$300 maximum bet."' in text


def test_the_default_table_pays_a_10_dollar_win_9_50() -> None:
    # Seed 002: "a $10 winning wager will return $19.50 (player's $10 wager plus $10 in
    # winnings minus the $0.50 commission)"; the default's commission is seed 000's 5%.
    slip = _play(load_config(env={}).round_rules(), {1: 1000}, Action.from_rng(1))
    line = slip.line(1)
    assert line.outcome is Outcome.WIN and (line.commission, line.net) == (50, 950)


# --- Atlantic City (seed 002) --------------------------------------------------------------

def test_atlantic_city_pays_even_money_less_5_percent_rounded_up_to_a_quarter() -> None:
    # Seed 002: "a $10 winning wager will return $19.50 (player's $10 wager plus $10 in
    # winnings minus the $0.50 commission). Please note that the amount of commission is
    # rounded up to the nearest $0.25." A $7 win's $0.35 is rounded up to $0.50.
    rules = _rules("atlantic-city")
    slip = _play(rules, {1: 1000, 2: 700}, Action.from_rng(3))
    assert (slip.line(1).outcome, slip.line(1).commission, slip.line(1).net) == \
        (Outcome.WIN, 50, 950)
    assert (slip.line(2).outcome, slip.line(2).commission, slip.line(2).net) == \
        (Outcome.WIN, 50, 650)


def test_atlantic_city_takes_5_to_300_dollars() -> None:
    # Seed 002: "$5 minimum bet." "$300 maximum bet."
    game = Round(_rules("atlantic-city"))
    game.place_wager(1, 500)
    game.place_wager(2, 30000)
    with pytest.raises(RoundError, match=r"under the table minimum of \$5.00"):
        game.place_wager(3, 499)
    with pytest.raises(RoundError, match=r"over the table maximum of \$300.00"):
        game.place_wager(3, 30001)


def test_atlantic_city_ranks_a_to_5_as_the_lowest_straight() -> None:
    # Seed 002: "The hand rankings are as follows (from highest to lowest): ... Straight
    # A, K, Q, J, 10 to A, 2, 3, 4, 5"
    hands = _rules("atlantic-city").hands
    wheel, six_high = parse_cards(["AS 2H 3D 4C 5S"]), parse_cards(["2S 3H 4D 5C 6S"])
    assert rank5(wheel, hands) < rank5(six_high, hands)
    assert rank5(wheel, HandRules()) > rank5(six_high, HandRules())  # the shipped table


def test_atlantic_city_sends_a_fouled_hand_back_to_be_re_split() -> None:
    # Seed 002: "the rank of the five-card high hand must be higher than the rank of the
    # two-card low hand. If this is not true a messagebox will be displayed asking you to
    # re-split your hand."
    rules = _rules("atlantic-city")
    assert rules.foul_penalty is FoulPenalty.RESPLIT
    game = Round(rules)
    game.place_wager(4, 1500)
    game.set_action(Action.from_rng(3))
    game.deal_by_position({p: parse_cards([h]) for p, h in HANDS.items()},
                          parse_cards([LEFTOVERS]))
    returned = game.set_hand(4, parse_cards(["QD QC"]))  # queens in front of eights
    assert isinstance(returned, HandReturned) and game.pending()[0] == 4
    again = game.set_hand(4, parse_cards(["8C 8H"]))  # re-split: eights in front
    assert isinstance(again, HandSet) and again.hand.foul is None
    line = game.settle().line(4)
    assert line.foul is None and line.outcome is not None


# --- Delaware Park (seed 003) --------------------------------------------------------------

def test_delaware_park_finds_action_with_a_1_to_7_number_and_sets_by_its_house_way() -> None:
    # Seed 003: "a computerized random number generator that automatically selects and
    # displays a number from 1 through 7 inclusive"; "No Pair / Use the highest card in the
    # high hand. Use the second and third highest ranked cards for the second highest hand."
    rules = _rules("delaware-park")
    assert rules.house_way.name == "delaware-park"
    game = Round(rules)
    game.place_wager(1, 2500)
    with pytest.raises(RoundError, match="takes the action from the RNG only, not from the dice"):
        game.verify_set_action(Action.from_dice(1, 2, 3))
    slip = _play(rules, {1: 2500}, Action.from_rng(7))
    dealer = slip.line(DEALER)
    assert dealer.setting is not None and dealer.setting.low == parse_cards(["8S 7C"])
    assert (slip.line(1).outcome, slip.line(1).commission, slip.line(1).net) == \
        (Outcome.WIN, 125, 2375)


def test_delaware_park_lets_a_player_bank_who_bet_against_the_dealer() -> None:
    # Seed 003: "The Dealer or any Player may be the Banker." "1. The Player must have
    # placed a wager against the Dealer during the last round of play in which there was no
    # Player banking the game. 2. The Player has sufficient gaming chips on the table to
    # cover all of the wagers placed by other Players at the table for that round of play."
    rules = _rules("delaware-park")
    rotation = BankRotation.resume(house_bets={1: 2500})  # offered to seat 1 first
    slip = _play(rules, {2: 1000, 6: 2000}, Action.from_rng(1), rotation=rotation,
                 bank=(1, 3000))
    assert slip.bank.player == 1
    # Seat 6's kings and aces beat the banker's tens and aces: $20 less 5% is $19.00.
    assert (slip.line(6).outcome, slip.line(6).net) == (Outcome.WIN, 1900)
    assert (slip.line(2).outcome, slip.line(2).net) == (Outcome.LOSE, -1000)
    with pytest.raises(RoundError, match="cannot cover"):
        game = Round(rules, rotation)
        game.take_bank(1, 3000)
        game.place_wager(2, 3001)


# --- Cordova (seed 004) --------------------------------------------------------------------

def test_cordova_counts_three_dice_from_the_bank_as_1_8_and_15_skipping_no_play() -> None:
    # Seed 004: "Action is determined by a dice cup containing three dice. The bank seat is
    # counted as 1, 8, and 15 and action is counted clockwise. Each seat is counted,
    # regardless of whether there is a bet. A "NO PLAY" button follows the bank; no bet can
    # be placed there, and the spot is not counted for action."
    table = _rules("cordova").table
    assert table.no_play
    assert table.count(Action.from_dice(2, 3, 3).number) == DEALER  # 8
    assert table.count(Action.from_dice(6, 6, 3).number) == DEALER  # 15
    # 3: the bank is 1, the NO PLAY spot after it is not counted, seat 1 is 2, seat 2 is 3.
    assert table.count(Action.from_dice(1, 1, 1).number) == 2
    assert table.count(Action.from_dice(1, 1, 2).number) == 3


def test_cordova_refuses_a_bet_on_the_no_play_spot() -> None:
    # Seed 004: "no bet can be placed there"
    game = Round(_rules("cordova"))
    with pytest.raises(RoundError, match="NO PLAY spot follows the bank: no bet can be "
                                         "placed there"):
        game.place_wager(NO_PLAY, 1000)


def test_cordova_plays_a_round_paid_clockwise_from_action_and_a_foul_loses() -> None:
    # Seed 004: "Payouts proceed in a clockwise rotation, starting from Action." "A hand set
    # with the two-card hand stronger than the five-card hand is a "foul hand" and
    # automatically loses."
    rules = _rules("cordova")
    slip = _play(rules, {1: 2000, 4: 1500}, Action.from_dice(1, 1, 1),
                 fronts={4: "QD QC"})  # queens in front of eights: a foul
    assert [line.position for line in slip.lines][:7] == [2, 3, 4, 5, 6, DEALER, 1]
    assert (slip.line(1).outcome, slip.line(1).commission, slip.line(1).net) == \
        (Outcome.WIN, 100, 1900)
    assert slip.line(4).foul and (slip.line(4).outcome, slip.line(4).net) == \
        (Outcome.LOSE, -1500)


def test_cordova_plays_the_joker_fully_wild() -> None:
    # Seed 004: "At Cordova Restaurant Casino, the Joker is FULLY WILD and can be played in
    # place of any card."
    hands = _rules("cordova").hands
    kings = parse_cards(["JK KS KH 7D 2C"])
    assert category_of(rank5(kings, hands)) is Category.TRIPS
    assert category_of(rank5(kings, HandRules())) is Category.PAIR  # a bug is an ace


def test_cordova_sets_the_house_way_with_the_fully_wild_card() -> None:
    # Seed 004's joker "can be played in place of any card": 9S 9H JK is three nines, kept
    # behind with the two highest singles in front (issue 12: not KC 9S in front).
    rules = _rules("cordova")
    result = set_house_way(parse_cards("9S 9H JK KC 7H 4S 2D"), rules.house_way, rules.hands)
    assert set(result.low) == set(parse_cards("KC 7H")) and result.rule.id == "FW-3K"


def test_cordova_sets_a_hand_asked_for_the_house_way_after_the_bank_is_opened() -> None:
    # Seed 004: "players have the option of setting their hands themselves or having the
    # dealer set it House Way after the bank hand is opened. When a hand is played House
    # Way, all seven cards are left in one pile on the table."
    assert _rules("cordova").asked_house_way is AskedHouseWay.AFTER_BANK
    # The seeds that do not say so keep the shipped table's: set when asked.
    for name in ("atlantic-city", "delaware-park"):
        assert _rules(name).asked_house_way is AskedHouseWay.AT_ONCE


def test_a_preset_is_a_site_file_over_the_shipped_table() -> None:
    # Keys a seed does not speak to are the shipped table's.
    rules = _rules("cordova")
    assert (rules.limits.minimum, rules.limits.maximum) == (500, 30000)
    assert rules.house_way.name == "fully-wild"  # the card for its joker, named by the preset
