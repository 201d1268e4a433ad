"""One round as a state machine: bets, the bank, action, the deal, fouls, dragon hands."""

from __future__ import annotations

import pytest

from app.core.banker import BankError, BankingRules, BankRotation, DealerWager
from app.core.cards import DECK, parse_cards
from app.core.round import (
    BankTaken,
    DragonOffer,
    DragonRules,
    DragonSetting,
    DragonWager,
    FoulPenalty,
    HandSet,
    Misdealt,
    Phase,
    Round,
    RoundError,
    RoundRules,
    WagerLimits,
)
from app.core.settlement import Outcome, Role, SetBy
from app.core.table import (
    DEALER,
    Action,
    ActionSource,
    DealMode,
    Misdeal,
    Table,
)

BANK_HAND = "KS QC 9D 9H 6C 4S 2D"         # House Way: KS QC | pair of 9s
ACES_AND_SEVENS = "AS AH 7S 7C KD QD 3H"   # House Way: 7s in front, aces behind: wins
PAIR_OF_FOURS = "QH 4C 4D 7H 6H AD 9S"     # 4C 4D in front is a foul


def whole_deck(hands: dict[int, str]) -> tuple[dict[int, tuple], tuple]:
    """The named hands, the other positions filled from the rest of the deck, and the
    four cards left over."""
    out = {p: parse_cards(text) for p, text in hands.items()}
    used = {c for h in out.values() for c in h}
    rest = [c for c in DECK if c not in used]
    for p in range(7):
        if p not in out:
            out[p], rest = tuple(rest[:7]), rest[7:]
    return out, tuple(rest)


def dealt_round(wagers: dict[int, int], hands: dict[int, str] | None = None, *,
                rules: RoundRules | None = None, rotation: BankRotation | None = None,
                rng: int = 1, bank: tuple[int, int] | None = None) -> Round:
    game = Round(rules or RoundRules(), rotation)
    for seat, cents in wagers.items():
        game.place_wager(seat, cents)
    if bank is not None:
        seat, chips = bank
        while game.offer_bank() != seat:
            game.pass_bank(game.offer_bank())
        game.take_bank(seat, chips)
    game.set_action(Action.from_rng(rng))
    by_position, leftovers = whole_deck({DEALER: BANK_HAND, **(hands or {})})
    game.deal_by_position(by_position, leftovers)
    return game


# --- the phases ----------------------------------------------------------------------------

def test_a_round_goes_from_bets_to_the_deal_to_the_settings_to_the_slip() -> None:
    game = Round()
    assert game.phase is Phase.BETTING
    game.place_wager(1, 1000)
    game.set_action(Action.from_rng(2))
    assert game.phase is Phase.DEALING
    by_position, leftovers = whole_deck({DEALER: BANK_HAND, 1: ACES_AND_SEVENS})
    game.deal_by_position(by_position, leftovers)
    assert game.phase is Phase.SETTING
    game.house_way(1)
    slip = game.settle()
    assert game.phase is Phase.SETTLED and game.slip is slip
    assert slip.line(1).outcome is Outcome.WIN and slip.line(1).net == 950
    assert not game.can_place_wager(2, 1000)


def test_wagers_are_within_the_table_limits() -> None:
    game = Round(RoundRules(limits=WagerLimits(500, 20000)))
    with pytest.raises(RoundError, match=r"\$4.99 is under the table minimum of \$5.00"):
        game.place_wager(1, 499)
    with pytest.raises(RoundError, match=r"over the table maximum of \$200.00"):
        game.place_wager(1, 20001)
    with pytest.raises(RoundError, match="0 is not a seat"):
        game.place_wager(DEALER, 1000)
    game.place_wager(1, 500)
    game.place_wager(1, 20000)  # changed while bets are open
    assert game.wagers == {1: 20000}
    game.withdraw_wager(1)
    assert game.wagers == {}


def test_there_is_no_action_without_a_wager() -> None:
    with pytest.raises(RoundError, match="no wagers on the table"):
        Round().set_action(Action.from_rng(3))


def test_action_comes_from_what_the_table_uses() -> None:
    dice_table = RoundRules(table=Table(action_source=ActionSource.DICE))
    game = Round(dice_table)
    game.place_wager(1, 1000)
    with pytest.raises(RoundError, match="takes the action from the dice only"):
        game.set_action(Action.from_rng(3))
    counted = game.set_action(Action.from_dice(6, 6, 5))  # 17 from the dealer: seat 2
    assert counted.position == 2 and counted.bank == DEALER
    assert "1, 8 and 15" in counted.rule


def test_action_is_counted_from_a_player_bankers_seat() -> None:
    rotation = BankRotation.resume(house_bets={3: 1000}, offer_from=3)
    game = Round(RoundRules(), rotation)
    game.place_wager(1, 1000)
    game.take_bank(3, 100000)
    counted = game.set_action(Action.from_rng(2))
    assert counted.bank == 3 and counted.position == 4


def test_the_deal_is_read_the_way_the_table_is_configured() -> None:
    game = Round(RoundRules(table=Table(deal_mode=DealMode.ONE_AT_A_TIME)))
    game.place_wager(1, 1000)
    game.set_action(Action.from_rng(1))
    deck = list(DECK)
    with pytest.raises(RoundError, match="deal is read one card at a time, not in stacks"):
        game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)])
    game.deal_one_at_a_time(deck)
    assert game.deal is not None and game.deal.hand(DEALER) == tuple(deck[0:49:7])


# --- misdeals ------------------------------------------------------------------------------

def test_a_misdeal_stops_the_round_settles_nothing_and_the_wagers_stand() -> None:
    game = Round()
    game.place_wager(2, 2500)
    game.place_wager(5, 1000)
    game.set_action(Action.from_rng(1))
    deck = list(DECK)
    stacks = [deck[i * 7:(i + 1) * 7] for i in range(7)]
    stacks[3] = stacks[3][:6]
    with pytest.raises(Misdeal, match="short hand"):
        game.deal_stacks(stacks, deck[49:])
    assert game.phase is Phase.MISDEAL
    assert isinstance(game.log[-1], Misdealt)
    assert game.slip is None and not game.can_settle()
    assert game.wagers == {2: 2500, 5: 1000}
    assert game.next_rotation() is game.rotation  # nothing moves on
    # A new action and a new deal, with the same wagers.
    game.set_action(Action.from_rng(5))
    game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)], deck[49:])
    assert game.phase is Phase.SETTING
    assert game.hands[2].wager == 2500


# --- fouls ---------------------------------------------------------------------------------

def test_a_players_foul_is_caught_at_once_and_forfeits_by_default() -> None:
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS})
    record = game.set_hand(1, parse_cards("AS AH"))  # aces in front over sevens: a foul
    assert record.hand.forfeit and record.hand.set_by is SetBy.PLAYER
    assert record.hand.foul is not None and "outranks the five-card hand" in record.hand.foul
    assert "forfeits" in record.rule
    slip = game.settle()
    assert slip.line(1).outcome is Outcome.LOSE and slip.line(1).net == -1000


def test_a_players_foul_is_reset_the_house_way_when_configured() -> None:
    rules = RoundRules(foul_penalty=FoulPenalty.HOUSE_WAY)
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS}, rules=rules)
    record = game.set_hand(1, parse_cards("AS AH"))
    assert not record.hand.forfeit and record.hand.set_by is SetBy.RESET
    assert record.hand.foul is not None and record.hand.rule is not None
    assert record.hand.setting is not None
    assert {str(c) for c in record.hand.setting.low} == {"7S", "7C"}
    slip = game.settle()
    assert slip.line(1).outcome is Outcome.WIN and slip.line(1).net == 950


def test_a_front_of_three_cards_is_a_foul() -> None:
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS})
    record = game.set_hand(1, parse_cards("QH 7H 6H"))
    assert record.hand.forfeit and "2 + 5 cards, not 3 + 4" in (record.hand.foul or "")


def test_a_legal_setting_of_the_players_own_is_kept() -> None:
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS})
    record = game.set_hand(1, parse_cards("AD QH"))
    assert record.hand.set_by is SetBy.PLAYER and record.hand.foul is None
    assert record.hand.rule is None


def test_a_card_not_dealt_to_the_position_is_refused_not_a_foul() -> None:
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS})
    with pytest.raises(RoundError, match="KS not dealt to seat 1"):
        game.set_hand(1, parse_cards("KS QH"))
    assert game.hands[1].setting is None


def test_a_set_hand_is_not_touched_again() -> None:
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS})
    game.house_way(1)
    with pytest.raises(RoundError, match="set already"):
        game.set_hand(1, parse_cards("AD QH"))


def test_a_player_bankers_mis_set_is_always_reset_the_house_way() -> None:
    rotation = BankRotation.resume(house_bets={3: 1000}, offer_from=3)
    game = dealt_round({1: 1000}, {3: ACES_AND_SEVENS}, rotation=rotation, bank=(3, 5000))
    record = game.set_hand(3, parse_cards("AS AH"))
    assert record.hand.role is Role.BANK and record.hand.set_by is SetBy.RESET
    assert not record.hand.forfeit and "always reset" in record.rule


def test_the_dealers_mis_set_is_always_reset_the_house_way() -> None:
    game = dealt_round({1: 1000}, {1: PAIR_OF_FOURS})
    game.house_way(1)
    record = game.set_hand(DEALER, parse_cards("9D 9H"))  # pair in front over K-high: foul
    assert record.hand.set_by is SetBy.RESET and record.hand.rule is not None


def test_the_dealers_hand_is_opened_after_every_other_hand_is_set() -> None:
    game = dealt_round({1: 1000, 4: 1000}, {1: PAIR_OF_FOURS})
    game.house_way(1)
    with pytest.raises(RoundError, match="waiting for seat 4"):
        game.house_way(DEALER)


def test_settling_waits_for_every_players_hand() -> None:
    game = dealt_round({1: 1000, 4: 1000})
    game.house_way(4)
    with pytest.raises(RoundError, match="hands still to be set: seat 1"):
        game.settle()
    game.house_way(1)
    slip = game.settle()
    bank = slip.line(DEALER)
    assert bank.role is Role.BANK and bank.set_by is SetBy.HOUSE_WAY and bank.rule


def test_a_house_way_setting_names_the_rule_that_fired() -> None:
    game = dealt_round({1: 1000}, {1: ACES_AND_SEVENS})
    record = game.house_way(1)
    assert isinstance(record, HandSet)
    assert record.hand.rule and record.hand.rule_says
    assert record.hand.rule in record.rule


# --- the bank ------------------------------------------------------------------------------

ROTATION = BankRotation.resume(house_bets={1: 2500, 3: 4000, 4: 1000})  # offers from seat 1


def test_the_bank_is_offered_in_turn_and_each_player_accepts_or_passes() -> None:
    game = Round(RoundRules(), ROTATION)
    game.place_wager(5, 1000)
    assert game.offer_bank() == 1
    with pytest.raises(BankError, match="offered to seat 1, who accepts or passes first"):
        game.take_bank(3, 100000)
    game.pass_bank(1)
    game.pass_bank(2)
    taken = game.take_bank(3, 100000)
    assert isinstance(taken, BankTaken) and taken.player == 3 and game.banker == 3
    assert taken.dealer_wager == 4000  # what seat 3 last bet against the house
    assert taken.eligibility is not None and taken.eligibility.eligible


def test_the_dealer_takes_the_bank_in_turn_when_every_player_passes() -> None:
    game = Round(RoundRules(), ROTATION)
    game.place_wager(5, 1000)
    for seat in range(1, 7):
        game.pass_bank(seat)
    assert game.offer_bank() == DEALER
    with pytest.raises(BankError, match="come round to the dealer"):
        game.take_bank(3, 100000)  # eligible, but the offer has passed
    game.set_action(Action.from_rng(1))
    taken = [r for r in game.log if isinstance(r, BankTaken)]
    assert taken[-1].position == DEALER and "in turn" in taken[-1].rule


def test_an_ineligible_player_may_not_take_the_bank_and_is_told_why() -> None:
    game = Round(RoundRules(), BankRotation.resume(house_bets={4: 1000}, offer_from=2))
    game.place_wager(5, 1000)
    with pytest.raises(BankError, match="placed no wager against the dealer"):
        game.take_bank(2, 100000)
    assert not game.can_take_bank(2, 100000)


def test_a_banker_with_a_wager_out_must_take_it_back_first() -> None:
    game = Round(RoundRules(), ROTATION)
    game.place_wager(1, 1000)
    game.place_wager(5, 1000)
    with pytest.raises(BankError, match="take it back"):
        game.take_bank(1, 100000)
    game.withdraw_wager(1)
    game.take_bank(1, 100000)


def test_a_player_bank_must_cover_every_wager_placed_after_it() -> None:
    game = Round(RoundRules(), ROTATION)
    game.place_wager(5, 1000)
    game.take_bank(1, 3000)
    game.place_wager(2, 2000)
    with pytest.raises(RoundError, match=r"cannot cover \$5.00 more: it covers \$0.00 more"):
        game.place_wager(4, 500)
    with pytest.raises(RoundError, match="a banker does not wager"):
        game.place_wager(1, 500)


def test_the_dealers_wager_against_a_player_banker_may_be_the_table_minimum() -> None:
    rules = RoundRules(banking=BankingRules(dealer_wager=DealerWager.MINIMUM))
    game = Round(rules, ROTATION)
    game.place_wager(5, 1000)
    assert game.take_bank(1, 100000).dealer_wager == 500


def test_the_dealer_plays_a_hand_against_the_player_banker_settled_first() -> None:
    rotation = BankRotation.resume(house_bets={3: 1000}, offer_from=3)
    game = dealt_round({1: 1000, 5: 1000}, rotation=rotation, bank=(3, 5000), rng=3)
    assert game.hands[DEALER].role is Role.DEALER and game.hands[DEALER].wager == 1000
    game.house_way(1)
    game.house_way(5)
    game.house_way(3)
    slip = game.settle()
    assert slip.line(DEALER).order == 1
    assert slip.bank.player == 3 and slip.totals.players_net + slip.totals.banker_net \
        + slip.totals.house_net == 0


def test_co_banking_leaves_no_dealers_hand() -> None:
    rules = RoundRules(banking=BankingRules(co_banking=True))
    game = Round(rules, ROTATION)
    game.place_wager(5, 4000)
    taken = game.take_bank(1, 2000, co_bank=True)
    assert taken.co_bank and taken.dealer_wager == 0
    game.set_action(Action.from_rng(1))
    by_position, leftovers = whole_deck({})
    game.deal_by_position(by_position, leftovers)
    assert game.hands[DEALER].role is Role.MUCKED


def test_the_next_round_remembers_the_bank_and_the_house_bets() -> None:
    game = dealt_round({1: 1000, 4: 2500})
    game.house_way(1)
    game.house_way(4)
    game.settle()
    after = game.next_rotation()
    assert after.house_bet(4) == 2500 and after.round_no == 2 and not after.first_round


# --- dragon hands --------------------------------------------------------------------------

def test_the_dragon_is_offered_to_seated_players_in_turn_from_action() -> None:
    rules = RoundRules(dragon=DragonRules(offer=DragonOffer.FROM_ACTION))
    game = dealt_round({2: 1000, 4: 2000, 6: 1000}, rules=rules, rng=4)  # action: seat 3
    assert game.dragon_order() == (4, 6, 2)
    assert game.dragon_hands() == (3, 5, 1)
    assert game.offer_dragon() == 4
    with pytest.raises(RoundError, match="offered to seat 4 now, not seat 6"):
        game.take_dragon(6, 1000)
    game.pass_dragon(4)
    taken = game.take_dragon(6, 1000)
    assert (taken.seat, taken.position) == (6, 3)  # the first unused hand from action
    assert game.offer_dragon() is None  # one dragon a round by default


def test_the_dragon_is_offered_on_from_the_last_player_who_took_one() -> None:
    rotation = BankRotation.resume(house_bets={}, last_dragon=4)
    game = dealt_round({2: 1000, 4: 2000, 6: 1000}, rotation=rotation, rng=4)
    assert game.dragon_order() == (6, 2, 4)


def test_one_dragon_per_player() -> None:
    rules = RoundRules(dragon=DragonRules(per_round=3, offer=DragonOffer.FROM_ACTION))
    game = dealt_round({2: 1000, 4: 1000}, rules=rules, rng=3)  # action: seat 2
    game.take_dragon(2, 1000)
    assert game.offer_dragon() == 4
    game.pass_dragon(4)
    assert game.offer_dragon() is None
    with pytest.raises(RoundError, match="seat 2 has one dragon hand already: this table "
                                         "plays at most one dragon hand per player"):
        game.take_dragon(2, 1000)


def test_a_player_banker_may_not_take_the_dragon() -> None:
    rotation = BankRotation.resume(house_bets={3: 1000}, offer_from=3)
    game = dealt_round({1: 1000}, rotation=rotation, bank=(3, 100000))
    assert 3 not in game.dragon_order()
    with pytest.raises(RoundError, match="a player banker may not take a dragon"):
        game.take_dragon(3, 1000)


def test_the_dragon_wager_is_at_most_the_main_wager_by_default() -> None:
    game = dealt_round({2: 2000}, rng=3)
    with pytest.raises(RoundError, match=r"at most seat 2's main wager of \$20.00"):
        game.take_dragon(2, 2001)
    with pytest.raises(RoundError, match="under the table minimum"):
        game.take_dragon(2, 499)
    assert game.take_dragon(2, 500).wager == 500


def test_the_dragon_wager_equals_the_main_wager_when_configured() -> None:
    rules = RoundRules(dragon=DragonRules(wager=DragonWager.EQUAL))
    game = dealt_round({2: 2000}, rules=rules, rng=3)
    with pytest.raises(RoundError, match=r"equals the main wager here: \$20.00"):
        game.take_dragon(2, 1000)
    game.take_dragon(2, 2000)


def test_the_dragon_is_set_the_house_way_and_settles_like_any_hand() -> None:
    game = dealt_round({2: 2000}, {5: ACES_AND_SEVENS}, rng=3)
    game.take_dragon(2, 1500, position=5)
    with pytest.raises(RoundError, match="dragon hand is set by the House Way"):
        game.set_hand(5, parse_cards("7S 7C"))
    game.house_way(2)
    slip = game.settle()
    dragon = slip.line(5)
    assert dragon.role is Role.DRAGON and dragon.player == 2
    assert dragon.set_by is SetBy.HOUSE_WAY and dragon.rule
    assert (dragon.outcome, dragon.net) == (Outcome.WIN, 1500 - 75)
    assert slip.net_of(2) == dragon.net + slip.line(2).net


def test_the_player_sets_the_dragon_when_configured() -> None:
    rules = RoundRules(dragon=DragonRules(setting=DragonSetting.PLAYER))
    game = dealt_round({2: 2000}, {5: ACES_AND_SEVENS}, rules=rules, rng=3)
    game.take_dragon(2, 1000, position=5)
    game.house_way(2)
    with pytest.raises(RoundError, match=r"seat 5 \(the dragon of seat 2\)"):
        game.settle()
    record = game.set_hand(5, parse_cards("AS AH"))  # a foul: forfeits like a player's
    assert record.hand.forfeit


def test_unused_hands_are_mucked() -> None:
    game = dealt_round({2: 2000}, rng=3)
    game.house_way(2)
    slip = game.settle()
    mucked = [line.position for line in slip.lines if line.role is Role.MUCKED]
    assert sorted(mucked) == [1, 3, 4, 5, 6]
    assert all(slip.line(p).outcome is None and slip.line(p).net == 0 for p in mucked)
    with pytest.raises(RoundError):
        Round().house_way(3)


def test_no_dragon_when_the_table_plays_none_or_once_a_hand_is_set() -> None:
    off = RoundRules(dragon=DragonRules(enabled=False))
    game = dealt_round({2: 2000}, rules=off, rng=3)
    assert game.offer_dragon() is None
    with pytest.raises(RoundError, match="no dragon hands"):
        game.take_dragon(2, 1000)
    game = dealt_round({2: 2000, 4: 1000}, rng=3)
    game.house_way(4)
    with pytest.raises(RoundError, match="before any hand is set"):
        game.take_dragon(2, 1000)


def test_a_dragon_wager_counts_against_a_player_banks_cover() -> None:
    rotation = BankRotation.resume(house_bets={3: 1000}, offer_from=3)
    game = dealt_round({1: 1000}, rotation=rotation, bank=(3, 1500))
    assert not game.can_take_dragon(1, 1000)
    game.take_dragon(1, 500)
