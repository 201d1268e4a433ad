"""Settlement: outcomes, copies, commission and its rounding, the house's and a player
banker's money, the bank running out, and money conserved over many random rounds."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.banker import BankingRules, BankRotation, DealerWager
from app.core.cards import DECK, parse_cards
from app.core.hands import DEFAULT_RULES, Setting
from app.core.round import (
    AskedHouseWay,
    DragonRules,
    FoulPenalty,
    HandReturned,
    Round,
    RoundRules,
)
from app.core.settlement import (
    Bank,
    CommissionPolicy,
    Hand,
    MoneyError,
    Outcome,
    Role,
    Rounding,
    SetBy,
    Slip,
    Versus,
    compare,
    money,
    parse_money,
    parse_rate,
    settle,
)
from app.core.table import DEALER, Action, Direction

FIVE_PERCENT = CommissionPolicy()  # 5%, up to $0.25


# --- commission ----------------------------------------------------------------------------

def test_a_10_dollar_win_pays_9_50() -> None:
    assert FIVE_PERCENT.on(1000) == 50
    assert 1000 - FIVE_PERCENT.on(1000) == 950


def test_a_15_dollar_wins_commission_is_75_cents() -> None:
    assert FIVE_PERCENT.on(1500) == 75


def test_a_7_dollar_wins_35_cent_commission_rounds_up_to_50_cents() -> None:
    assert FIVE_PERCENT.on(700) == 50


@pytest.mark.parametrize("win,up,down,nearest", [
    (700, 50, 25, 25),     # 35c
    (900, 50, 25, 50),     # 45c
    (500, 25, 25, 25),     # exactly 25c
    (750, 50, 25, 50),     # 37.5c: nearest rounds half up
    (100, 25, 0, 0),       # 5c
])
def test_commission_rounds_to_the_step_in_the_configured_direction(
        win: int, up: int, down: int, nearest: int) -> None:
    assert CommissionPolicy(500, 25, Rounding.UP).on(win) == up
    assert CommissionPolicy(500, 25, Rounding.DOWN).on(win) == down
    assert CommissionPolicy(500, 25, Rounding.NEAREST).on(win) == nearest


def test_commission_step_may_be_a_cent_or_a_whole_chip() -> None:
    assert CommissionPolicy(500, 1).on(700) == 35
    assert CommissionPolicy(500, 100).on(700) == 100
    assert CommissionPolicy(450, 1).on(1000) == 45  # 4.5%


def test_commission_never_exceeds_the_win() -> None:
    assert CommissionPolicy(500, 100).on(50) == 50
    assert CommissionPolicy(500, 25).on(0) == 0


def test_money_is_read_as_dollars_and_cents_never_floats() -> None:
    assert parse_money("25") == 2500
    assert parse_money("$9.50") == 950
    assert parse_money("0.25") == 25
    assert parse_money("1,000.00") == 100000
    assert parse_money("7.5") == 750
    for bad in ("25.001", "abc", "$", "1e3"):
        with pytest.raises(MoneyError, match="not an amount"):
            parse_money(bad)
    with pytest.raises(MoneyError, match="in quotes"):
        parse_money(25)  # type: ignore[arg-type]
    assert money(950) == "$9.50" and money(-2500) == "-$25.00" and money(5, sign=True) == "+$0.05"


def test_rates_are_percentages() -> None:
    assert parse_rate("5%") == 500 and parse_rate("4.5%") == 450 and parse_rate("0%") == 0
    with pytest.raises(MoneyError, match="percentage"):
        parse_rate("5")


# --- outcomes ------------------------------------------------------------------------------

BANK = Setting.of(parse_cards("KS QC"), parse_cards("9D 9H 6C 4S 2D"))


def _hand(low: str, high: str, wager: int = 1000, position: int = 1,
          role: Role = Role.PLAYER, forfeit: bool = False) -> Hand:
    lo, hi = parse_cards(low), parse_cards(high)
    return Hand(position, role, lo + hi, position if role is Role.PLAYER else None, wager,
                Setting.of(lo, hi), SetBy.PLAYER, foul="a foul" if forfeit else None,
                forfeit=forfeit)


def test_a_hand_wins_only_when_both_hands_beat_the_bankers() -> None:
    c = compare(_hand("AS 2C", "TD TC 8S 6D 3D"), BANK, DEFAULT_RULES)
    assert (c.front, c.back, c.outcome) == (Versus.WIN, Versus.WIN, Outcome.WIN)


def test_the_banker_winning_both_hands_is_a_loss() -> None:
    c = compare(_hand("JS 2C", "8D 8H 6D 4D 2H"), BANK, DEFAULT_RULES)
    assert (c.front, c.back, c.outcome) == (Versus.LOSE, Versus.LOSE, Outcome.LOSE)


def test_one_hand_each_is_a_push() -> None:
    c = compare(_hand("AS 2C", "8D 8H 6D 4D 2H"), BANK, DEFAULT_RULES)
    assert c.outcome is Outcome.PUSH


def test_a_copy_goes_to_the_banker_so_copy_and_win_is_a_push() -> None:
    c = compare(_hand("KH QS", "TD TC 8S 6D 3D"), BANK, DEFAULT_RULES)
    assert (c.front, c.back, c.outcome) == (Versus.COPY, Versus.WIN, Outcome.PUSH)
    c = compare(_hand("AS 2C", "9S 9C 6H 4D 2H"), BANK, DEFAULT_RULES)
    assert (c.front, c.back, c.outcome) == (Versus.WIN, Versus.COPY, Outcome.PUSH)


def test_copies_in_both_hands_lose() -> None:
    c = compare(_hand("KH QS", "9S 9C 6H 4D 2H"), BANK, DEFAULT_RULES)
    assert (c.front, c.back, c.outcome) == (Versus.COPY, Versus.COPY, Outcome.LOSE)
    assert "copies go to the banker" in c.rule


def test_a_fouled_hand_that_forfeits_loses_even_with_better_cards() -> None:
    c = compare(_hand("AS AH", "TD TC 8S 6D 3D", forfeit=True), BANK, DEFAULT_RULES)
    assert c.outcome is Outcome.LOSE and c.front is None and "forfeits" in c.rule


# --- settling a table ----------------------------------------------------------------------

WIN_LOW, WIN_HIGH = "AS 2C", "TD TC 8S 6D 3D"
LOSE_LOW, LOSE_HIGH = "JS 2C", "8D 8H 6D 4D 2H"
PUSH_LOW, PUSH_HIGH = "AS 2C", "8D 8H 6D 4D 2H"


def _settle(lines: dict[int, tuple[str, int]], bank: Bank, action: int = 1,
            policy: CommissionPolicy = FIVE_PERCENT) -> Slip:
    """`lines`: position -> (win|lose|push, wager); the bank hand is BANK at bank.position."""
    shapes = {"win": (WIN_LOW, WIN_HIGH), "lose": (LOSE_LOW, LOSE_HIGH),
              "push": (PUSH_LOW, PUSH_HIGH)}
    hands: dict[int, Hand] = {}
    for p in range(7):
        if p == bank.position:
            hands[p] = Hand(p, Role.BANK, BANK.cards, bank.player, 0, BANK, SetBy.HOUSE_WAY)
        elif p in lines:
            shape, wager = lines[p]
            role = Role.DEALER if p == DEALER else Role.PLAYER
            hands[p] = _hand(*shapes[shape], wager=wager, position=p, role=role)
        else:
            hands[p] = Hand(p, Role.MUCKED, ())
    order = tuple((action + i) % 7 for i in range(7))
    return settle(table="T", round_no=1, action=Action.from_rng(1), direction=Direction.CLOCKWISE,
                  order=order, hands=hands, bank=bank, commission=policy, rules=DEFAULT_RULES,
                  leftovers=(), leftovers_counted=False)


def _conserved(slip: Slip) -> bool:
    t = slip.totals
    return t.players_net + t.banker_net + t.house_net == 0


def test_the_house_bank_pays_winners_less_commission_and_keeps_losing_wagers() -> None:
    slip = _settle({1: ("win", 1000), 2: ("win", 1500), 3: ("win", 700), 4: ("lose", 2000),
                    5: ("push", 2500)}, Bank())
    nets = {line.position: line.net for line in slip.lines if line.outcome}
    assert nets == {1: 950, 2: 1425, 3: 650, 4: -2000, 5: 0}
    assert slip.totals.commission == 50 + 75 + 50
    assert slip.totals.house_net == 2000 - 3200 + 175
    assert slip.totals.banker_net == 0 and _conserved(slip)


def test_the_slip_lists_every_position_in_order_from_action() -> None:
    slip = _settle({1: ("win", 1000), 5: ("lose", 1000)}, Bank(), action=4)
    assert [line.position for line in slip.lines] == [4, 5, 6, 0, 1, 2, 3]
    assert [line.role for line in slip.lines] == [
        Role.MUCKED, Role.PLAYER, Role.MUCKED, Role.BANK, Role.PLAYER, Role.MUCKED, Role.MUCKED]
    assert slip.line(5).order == 1 and slip.line(1).order == 2


def test_the_dealers_hand_against_a_player_banker_is_settled_first() -> None:
    bank = Bank(position=3, player=3, stake=10000, dealer_wager=2500)
    slip = _settle({DEALER: ("win", 2500), 4: ("win", 1000), 5: ("lose", 1000)}, bank,
                   action=4)
    assert slip.line(DEALER).order == 1
    assert slip.line(4).order == 2 and slip.line(5).order == 3
    assert slip.line(DEALER).commission == 0  # the house takes no commission from itself
    assert slip.line(DEALER).net == 2500


def test_a_player_bank_that_runs_out_returns_the_remaining_winning_wagers() -> None:
    # Bank $100 at seat 3; action at seat 5: the dealer's hand, then 5, 6, 1, 2, 4.
    bank = Bank(position=3, player=3, stake=10000, dealer_wager=5000)
    slip = _settle({DEALER: ("win", 5000), 5: ("win", 4000), 6: ("lose", 3000),
                    1: ("win", 5000), 2: ("win", 1000), 4: ("lose", 2000)}, bank, action=5)
    assert slip.line(DEALER).win == 5000      # bank 100 -> 50
    assert slip.line(5).win == 4000           # 50 -> 10
    assert slip.line(6).net == -3000          # 10 -> 40: losers are collected in turn
    one = slip.line(1)
    assert (one.outcome, one.win, one.commission, one.net) == (Outcome.WIN, 4000, 200, 3800)
    assert "paid $40.00 of $50.00" in one.note
    two = slip.line(2)
    assert (two.outcome, two.win, two.net) == (Outcome.RETURNED, 0, 0)
    assert slip.line(4).net == -2000          # collected after the bank ran out: 0 -> 20
    assert slip.bank.exhausted and slip.bank.remaining == 2000
    assert slip.bank.gross == -8000 and slip.bank.commission == 0
    assert slip.totals.banker_net == -8000 and _conserved(slip)


def test_a_covered_player_bank_is_not_exhausted() -> None:
    bank = Bank(position=3, player=3, stake=10000, dealer_wager=1000)
    slip = _settle({DEALER: ("lose", 1000), 1: ("win", 5000), 2: ("win", 5000)}, bank)
    assert not slip.bank.exhausted
    assert [slip.line(p).win for p in (1, 2)] == [5000, 5000]


def test_the_player_banker_pays_commission_on_the_net_win() -> None:
    bank = Bank(position=2, player=2, stake=50000, dealer_wager=2000)
    slip = _settle({DEALER: ("lose", 2000), 1: ("lose", 5000), 4: ("win", 3000),
                    5: ("lose", 1000)}, bank)
    assert slip.bank.gross == 2000 + 5000 + 1000 - 3000  # $50 net win
    assert slip.bank.commission == 250                   # 5% of $50
    assert slip.bank.net == 4750
    assert slip.totals.house_net == -2000 + 150 + 250    # lost the dealer's hand, commissions
    assert _conserved(slip)


def test_a_player_banker_who_loses_net_pays_no_commission() -> None:
    bank = Bank(position=2, player=2, stake=50000, dealer_wager=2000)
    slip = _settle({DEALER: ("win", 2000), 1: ("win", 5000), 4: ("lose", 1000)}, bank)
    assert slip.bank.gross == -6000 and slip.bank.commission == 0 and _conserved(slip)


def test_co_banking_shares_the_bank_half_and_half_with_the_house() -> None:
    bank = Bank(position=2, player=2, stake=3000, co_bank=True)
    slip = _settle({1: ("lose", 5000), 4: ("lose", 1001), 5: ("win", 2000)}, bank)
    assert slip.bank.gross == 4001
    assert slip.bank.net + slip.bank.commission == 2000   # the odd cent stays with the house
    assert slip.bank.house_share == 2001
    assert slip.bank.commission == 100
    assert _conserved(slip)


def test_the_slip_to_dict_is_json_with_the_documented_keys() -> None:
    bank = Bank(position=3, player=3, stake=10000, dealer_wager=2500)
    slip = _settle({DEALER: ("win", 2500), 4: ("win", 1000)}, bank)
    data = json.loads(json.dumps(slip.to_dict()))
    assert data["schema"] == "paigow.slip/1"
    assert set(data) == {"schema", "table", "round", "action", "rules", "bank", "positions",
                         "leftovers", "leftovers_counted", "totals"}
    assert set(data["action"]) == {"source", "number", "dice", "drawn_by", "counted_from",
                                   "position", "direction"}
    assert set(data["totals"]) == {"wagers_cents", "players_net_cents", "commission_cents",
                                   "banker_net_cents", "house_net_cents"}
    line = data["positions"][0]
    assert set(line) == {"position", "name", "role", "player", "cards", "low", "high",
                         "set_by", "house_way_rule", "house_way_says", "foul", "front", "back",
                         "outcome", "wager_cents", "win_cents", "commission_cents", "net_cents",
                         "order", "note"}
    four = next(p for p in data["positions"] if p["position"] == 4)
    assert (four["outcome"], four["net_cents"], four["commission_cents"]) == ("win", 950, 50)
    assert four["low"] == "AS 2C"


# --- money is conserved over many random rounds --------------------------------------------

def play_random_round(rnd: random.Random) -> Slip:
    """A whole round through the state machine, with random wagers, bank, settings, fouls,
    dragon and commission policy."""
    policy = CommissionPolicy(rnd.choice([0, 300, 500, 500, 1000]),
                              rnd.choice([1, 5, 25, 50, 100]), rnd.choice(list(Rounding)))
    per_round = rnd.randint(1, 6)
    rules = RoundRules(foul_penalty=rnd.choice(list(FoulPenalty)), commission=policy,
                       asked_house_way=rnd.choice(list(AskedHouseWay)),
                       dragon=DragonRules(per_round=per_round,
                                          max_per_player=rnd.randint(1, per_round)),
                       banking=BankingRules(dealer_wager=rnd.choice(list(DealerWager)),
                                            co_banking=True))
    seats = rnd.sample(range(1, 7), rnd.randint(1, 6))
    wagers = {s: rnd.randint(500, 20000) for s in seats}
    banker = None
    empty = [s for s in range(1, 7) if s not in wagers]
    if empty and rnd.random() < 0.5:
        banker = rnd.choice(empty)
    rotation = BankRotation()
    if banker is not None:
        rotation = BankRotation.resume(house_bets={banker: rnd.randint(500, 100000)},
                                       offer_from=banker)
    game = Round(rules, rotation)
    for seat, cents in wagers.items():
        game.place_wager(seat, cents)
    if banker is not None:
        co = rnd.random() < 0.3
        need = sum(wagers.values())
        chips = (-(-need // 2) if co else need) + rnd.choice([0, 0, 500, 50000])
        game.take_bank(banker, chips, co)
    game.set_action(Action.from_rng(rnd.randint(1, 7)))
    deck = list(DECK)
    rnd.shuffle(deck)
    game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)], deck[49:])
    while (seat := game.offer_dragon()) is not None:  # several dragons per player
        cents = rnd.randint(500, wagers[seat])
        if rnd.random() < 0.6 and game.can_take_dragon(seat, cents):
            game.take_dragon(seat, cents)
        else:
            game.pass_dragon(seat)
    for p in game.pending():
        hand = game.hands[p]
        if hand.role is Role.PLAYER or (hand.role is Role.BANK and hand.player is not None):
            choice = rnd.random()
            if choice < 0.4 and game.can_ask_house_way(p):
                game.ask_house_way(p)  # one pile: set after the bank, at settlement
                continue
            front = (None if choice < 0.4 else
                     rnd.sample(hand.cards, 2) if choice < 0.9 else rnd.sample(hand.cards, 3))
            if front is None and not game.can_set_hand(p):
                game.ask_house_way(p)  # House Way after the bank: one pile until then
            elif isinstance(game.set_hand(p, front), HandReturned):  # a foul, resplit
                if game.can_set_hand(p):
                    game.set_hand(p, None)
                else:
                    game.ask_house_way(p)
    return game.settle()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_money_is_conserved_over_random_rounds(seed: int) -> None:
    slip = play_random_round(random.Random(seed))
    t = slip.totals
    # What the players win is exactly what the bank and the house pay, less commission.
    assert t.players_net + t.banker_net + t.house_net == 0
    policy_rounds = slip.rules  # the rules are on the slip for the record
    assert dict(policy_rounds)["copies"] == "go to the banker"
    commission = 0
    for line in slip.lines:
        if line.outcome is None:
            assert (line.win, line.net, line.commission) == (0, 0, 0)
        elif line.outcome is Outcome.WIN:
            assert 0 < line.win <= line.wager
            assert line.net == line.win - line.commission and 0 <= line.commission <= line.win
        elif line.outcome is Outcome.LOSE:
            assert line.net == -line.wager and line.win == 0
        else:
            assert line.net == 0 and line.win == 0
        commission += line.commission
        if line.foul and line.set_by is SetBy.PLAYER:
            assert line.outcome is Outcome.LOSE  # a forfeited foul never wins or pushes
    assert commission + slip.bank.commission == t.commission
    if slip.bank.player is not None:
        assert slip.bank.remaining is not None and slip.bank.remaining >= 0
        assert slip.bank.paid <= (slip.bank.stake or 0) + slip.bank.collected
    else:
        assert not slip.bank.exhausted
        assert t.house_net == slip.bank.collected - slip.bank.paid + t.commission
