"""Golden tests written from the seeds' own words: several dragon hands per player, the
House Way left in one pile and set after the bank (seed 004), the hand that goes back to be
set again (seed 001, online), and the house showing how it would set a hand (seed 001)."""

from __future__ import annotations

import pytest

from app.core.cards import parse_cards
from app.core.house_way import set_house_way
from app.core.round import (
    AskedHouseWay,
    DragonOffer,
    DragonRules,
    FoulPenalty,
    HandReturned,
    HandSet,
    HouseWayAsked,
    HouseWayShown,
    RoundError,
    RoundRules,
)
from app.core.settlement import Outcome, Role, SetBy
from app.core.table import DEALER
from app.ledger.codec import encode_record, replay
from app.settings import ConfigError, load_config
from app.ui.present import record_text
from drivers.printer.layout import slip_text

from .test_round import ACES_AND_SEVENS, PAIR_OF_FOURS, dealt_round

FOUR_OF_A_KIND = "5S 5H 5D 5C 8H 8S JD"  # any two hands: all legal


def _conserved(game) -> bool:  # noqa: ANN001
    t = game.slip.totals
    return t.players_net + t.banker_net + t.house_net == 0


# --- seed 001: "Players may play more than one hand" -----------------------------------------



def test_a_second_dragon_hand_is_refused_by_the_rule_that_refuses_it_not_for_want_of_hands():
    """Seed 001: "Players may play more than one hand when sitting at a Pai Gow table with
    fewer players than hands." Hands are left; the table's limit is what refuses, in its
    own words."""
    game = dealt_round({2: 1000}, rng=3)  # the defaults: one dragon hand, one per player
    game.take_dragon(2, 1000)
    assert len(game.hands) - len(game.dragons) - 2 >= 3  # hands are left
    with pytest.raises(RoundError) as refused:
        game.take_dragon(2, 1000)
    assert "no unused hand" not in str(refused.value)
    assert "seat 2 has one dragon hand already" in str(refused.value)
    assert "at most one dragon hand per player" in str(refused.value)

    two = RoundRules(dragon=DragonRules(per_round=2, max_per_player=2,
                                        offer=DragonOffer.FROM_ACTION))
    game = dealt_round({2: 1000, 4: 1000}, rules=two, rng=3)
    game.take_dragon(2, 1000)
    game.take_dragon(4, 1000)
    with pytest.raises(RoundError, match="at most 2 dragon hands a round, and they are taken"):
        game.take_dragon(2, 1000)


def test_a_player_may_play_more_than_one_dragon_hand_each_its_own_wager_and_line():
    """Seed 001: "Players may play more than one hand when sitting at a Pai Gow table with
    fewer players than hands. The extra hands are called "dragon" hands." Up to the table's
    number per player, each its own wager, settled and printed as its own line."""
    rules = RoundRules(dragon=DragonRules(per_round=4, max_per_player=2,
                                          offer=DragonOffer.FROM_ACTION))
    game = dealt_round({2: 2000, 4: 1000}, {5: ACES_AND_SEVENS}, rules=rules, rng=3)
    assert game.offer_dragon() == 2
    first = game.take_dragon(2, 2000, position=5)
    assert game.offer_dragon() == 4  # every other seat is asked before a second
    game.pass_dragon(4)
    assert game.offer_dragon() == 2  # then seat 2 again, up to two
    second = game.take_dragon(2, 500)
    assert game.offer_dragon() is None
    with pytest.raises(RoundError, match="seat 2 has 2 dragon hands already: this table "
                                         "plays at most 2 dragon hands per player"):
        game.take_dragon(2, 500)
    assert "up to 2 dragon hands per player" in first.rule
    game.house_way(2)
    game.house_way(4)
    slip = game.settle()
    dragons = [line for line in slip.lines if line.role is Role.DRAGON]
    assert sorted((d.position, d.player, d.wager) for d in dragons) == sorted([
        (first.position, 2, 2000), (second.position, 2, 500)])
    assert slip.line(5).outcome is Outcome.WIN and slip.line(5).net == 2000 - 100
    assert slip.net_of(2) == slip.line(2).net + sum(d.net for d in dragons)
    assert _conserved(game)
    printed = slip_text(slip.to_dict())
    assert printed.count("(dragon, seat 2)") == 2


# --- seed 004: the House Way after the bank, in one pile ------------------------------------


AFTER_BANK = RoundRules(asked_house_way=AskedHouseWay.AFTER_BANK)


def test_a_hand_played_house_way_waits_in_one_pile_until_the_bank_hand_is_set():
    """Seed 004: "players have the option of setting their hands themselves or having the
    dealer set it House Way after the bank hand is opened.  When a hand is played House Way,
    all seven cards are left in one pile on the table." """
    game = dealt_round({1: 1000, 2: 1000}, {1: ACES_AND_SEVENS, 2: FOUR_OF_A_KIND},
                       rules=AFTER_BANK, rng=3)
    with pytest.raises(RoundError, match="after the bank hand is opened and set: leave its "
                                         "seven cards in one pile"):
        game.house_way(1)
    asked = game.ask_house_way(1)
    assert isinstance(asked, HouseWayAsked) and "one pile" in asked.rule
    assert game.piles() == (1,)
    with pytest.raises(RoundError, match="asked for the House Way: the seven cards are in one "
                                         "pile"):
        game.set_hand(1, parse_cards("AS AH"))
    with pytest.raises(RoundError, match="its seven cards wait in one pile"):
        game.house_way(1)
    with pytest.raises(RoundError, match="waiting for seat 2"):
        game.house_way(DEALER)  # the bank is opened after every hand is set...
    game.set_hand(2, parse_cards("8H 8S"))  # seat 2 sets its own
    bank = game.house_way(DEALER)  # ...but not after the piles: they wait for it
    assert bank.hand.setting is not None
    pile = game.house_way(1)
    assert pile.hand.set_by is SetBy.AFTER_BANK
    assert pile.hand.setting == set_house_way(parse_cards(ACES_AND_SEVENS)).setting
    sets = [r.hand.position for r in game.log if isinstance(r, HandSet)]
    assert sets.index(DEALER) < sets.index(1)


def test_settling_sets_the_piles_after_the_bank_and_the_slip_and_ledger_say_so():
    """Seed 004: "having the dealer set it House Way after the bank hand is opened" and
    "After all hands have been set, the bank hand is opened and the banker makes a decision
    on how to play the hand." The slip and the ledger say who set it, and when."""
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS}, rules=AFTER_BANK, rng=3)
    game.ask_house_way(1)
    assert game.can_settle()
    slip = game.settle()
    sets = [r.hand.position for r in game.log if isinstance(r, HandSet)]
    assert sets == [DEALER, 1]  # the bank first, then the pile
    line = slip.line(1)
    assert line.set_by is SetBy.AFTER_BANK and line.outcome is Outcome.WIN
    assert dict(slip.rules)["asked_house_way"] == "after-the-bank"
    printed = " ".join(slip_text(slip.to_dict()).split())
    assert (f"Set by the dealer after the bank, House Way {line.rule}: {line.rule_says}"
            in printed)
    assert "One pile House Way set after the bank" in printed
    stored = [encode_record(r) for r in game.log]
    assert [r["position"] for r in stored if r["type"] == "house_way_asked"] == [1]
    hand_1 = next(r for r in stored if r["type"] == "hand_set" and r["hand"]["position"] == 1)
    assert hand_1["hand"]["set_by"] == "after-bank"
    again = replay(AFTER_BANK, game.rotation, stored)
    assert again.slip is not None and again.slip.text() == slip.text()
    assert "asks for the House Way: the seven cards stay in one pile" in record_text(
        next(r for r in game.log if isinstance(r, HouseWayAsked)))


def test_a_table_that_sets_the_house_way_at_once_keeps_todays_order():
    """The default: a hand the player asks to be played House Way is set when asked."""
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS}, rng=3)
    assert game.house_way(1).hand.set_by is SetBy.HOUSE_WAY
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS}, rng=3)
    with pytest.raises(RoundError, match="sets a hand played House Way at once"):
        game.ask_house_way(1)


# --- seed 001 online: the player sets the hand again -----------------------------------------


RESPLIT = RoundRules(foul_penalty=FoulPenalty.RESPLIT)


def test_a_foul_goes_back_to_the_player_and_the_round_waits_for_a_legal_setting():
    """Seed 001, online: "The player may re-split the hand. The game only continues when the
    five-card hand has a higher poker rank than the two-card hand." """
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS}, rules=RESPLIT, rng=3)
    returned = game.set_hand(1, parse_cards("4C 4D"))
    assert isinstance(returned, HandReturned)
    assert "outranks" in (returned.hand.foul or "")
    assert "goes back to the player to set again" in returned.rule
    assert game.hands[1].setting is None and 1 in game.pending()
    with pytest.raises(RoundError, match="hands still to be set: seat 1"):
        game.settle()
    with pytest.raises(RoundError, match="waiting for seat 1"):
        game.house_way(DEALER)
    assert "returned to the player to set again" in record_text(returned)
    legal = game.set_hand(1, parse_cards("QH 9S"))
    assert isinstance(legal, HandSet) and legal.hand.foul is None
    assert legal.hand.set_by is SetBy.PLAYER and not legal.hand.forfeit
    slip = game.settle()
    assert slip.line(1).foul is None and slip.line(1).outcome is not None
    stored = [encode_record(r) for r in game.log]
    assert [r["type"] for r in stored].count("hand_returned") == 1
    again = replay(RESPLIT, game.rotation, stored)
    assert again.slip is not None and again.slip.text() == slip.text()


def test_forfeit_and_house_way_stay_the_other_foul_rules():
    """Seed 001 physical: "Splitting the seven-card hand incorrectly so the two-card hand has
    a higher poker rank than the five-card hand forfeits the game." """
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS}, rng=3)
    assert game.set_hand(1, parse_cards("4C 4D")).hand.forfeit
    reset = RoundRules(foul_penalty=FoulPenalty.HOUSE_WAY)
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS}, rules=reset, rng=3)
    assert game.set_hand(1, parse_cards("4C 4D")).hand.set_by is SetBy.RESET


def test_the_table_config_reads_the_three_foul_rules_and_the_new_keys():
    config = load_config(env={}, overrides={
        "rules": {"foul_penalty": "resplit", "asked_house_way": "after-the-bank"},
        "dragon": {"per_round": 3, "max_per_player": 2}})
    rules = config.round_rules()
    assert rules.foul_penalty is FoulPenalty.RESPLIT
    assert rules.asked_house_way is AskedHouseWay.AFTER_BANK
    assert rules.dragon.max_per_player == 2
    defaults = load_config(env={}).round_rules()
    assert defaults.foul_penalty is FoulPenalty.FORFEIT
    assert defaults.asked_house_way is AskedHouseWay.AT_ONCE
    assert defaults.dragon.max_per_player == 1
    with pytest.raises(ConfigError, match="dragon.max_per_player"):
        load_config(env={}, overrides={"dragon": {"per_round": 1, "max_per_player": 2}})


# --- seed 001: the house shows how it would set the hand -----------------------------------



def test_the_house_shows_its_setting_and_the_rule_without_setting_the_hand():
    """Seed 001, physical: "The player can ask the house for help when deciding how to split
    the hand. The house would then show how it would split the hand." """
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS}, rng=3)
    shown = game.show_house_way(1)
    way = set_house_way(parse_cards(ACES_AND_SEVENS))
    assert isinstance(shown, HouseWayShown)
    assert (shown.setting, shown.rule_id, shown.says) == (way.setting, way.rule.id,
                                                          way.rule.says)
    assert game.hands[1].setting is None  # shown, not set
    assert record_text(shown).startswith("House Way shown to seat 1: ")
    # The player may then set it another way: K-Q in front, aces and sevens behind.
    own = game.set_hand(1, parse_cards("KD QD"))
    assert own.hand.set_by is SetBy.PLAYER and own.hand.setting != way.setting
    game.settle()
    stored = [encode_record(r) for r in game.log]
    assert any(r["type"] == "house_way_shown" and r["position"] == 1
               and r["house_way_rule"] == way.rule.id for r in stored)
    assert replay(RoundRules(), game.rotation, stored).slip is not None


def test_the_house_shows_a_players_hand_not_its_own_nor_a_set_one():
    """Seed 001: "The house would then show how it would split the hand" - the player's
    hand, before it is set; the dealer's own hand is opened last, never shown."""
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS}, rng=3)
    with pytest.raises(RoundError, match="the house shows a player's hand, not its own"):
        game.show_house_way(DEALER)
    game.house_way(1)
    with pytest.raises(RoundError, match="set already"):
        game.show_house_way(1)
