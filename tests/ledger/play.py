"""A dealer that plays random rounds through the core, making every kind of record: wagers
placed, changed and taken back, the bank passed and taken (co-banked too), misdeals, dragon
hands passed and taken, hands set by the player (fouls included) or the House Way."""

from __future__ import annotations

import random
from collections.abc import Callable

from app.core.banker import BankingRules
from app.core.bonus import BonusRules
from app.core.bonus.table_bonus import TableBonus
from app.core.cards import DECK, Card
from app.core.hands import HandRules
from app.core.house_way import house_way
from app.core.progressive import progressive_card
from app.core.round import (
    AskedHouseWay,
    DragonOffer,
    DragonRules,
    DragonSetting,
    DragonWager,
    FoulPenalty,
    HandReturned,
    Phase,
    Round,
    RoundRules,
    WagerLimits,
)
from app.core.settlement import CommissionPolicy, Role, Rounding
from app.core.table import DEALER, Action, ActionSource, DealMode, Direction, Misdeal, Table

Save = Callable[[], object]

RULES: dict[str, RoundRules] = {
    "standard": RoundRules(),
    "reset-co-bank-two-dragons": RoundRules(
        foul_penalty=FoulPenalty.HOUSE_WAY,
        dragon=DragonRules(per_round=2, setting=DragonSetting.PLAYER,
                           offer=DragonOffer.FROM_ACTION),
        banking=BankingRules(co_banking=True, consecutive=True)),
    "counterclockwise-dice-one-at-a-time": RoundRules(
        table=Table("PG-1", direction=Direction.COUNTERCLOCKWISE,
                    deal_mode=DealMode.ONE_AT_A_TIME, action_source=ActionSource.DICE),
        dragon=DragonRules(wager=DragonWager.EQUAL),
        commission=CommissionPolicy(450, 50, Rounding.NEAREST),
        limits=WagerLimits(1000, 50_000)),
    "delaware-park-wild": RoundRules(house_way=house_way("delaware-park"),
                                     hands=HandRules(joker="fully-wild", wheel="lowest")),
    "resplit-after-the-bank-two-dragons-each": RoundRules(
        foul_penalty=FoulPenalty.RESPLIT, asked_house_way=AskedHouseWay.AFTER_BANK,
        dragon=DragonRules(per_round=4, max_per_player=2, setting=DragonSetting.PLAYER)),
    # The bonus with a $10 threshold, so that payouts wait for a supervisor now and then,
    # and a bonus on a dragon hand allowed.
    "fortune-bonus": RoundRules(bonus=TableBonus(rules=BonusRules(supervisor_at=1000,
                                                                  dragon_bonus=True))),
    "linked-progressive": RoundRules(progressive=progressive_card("linked-pai-gow")),
}


def shuffled(rng: random.Random) -> list[Card]:
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def _wager(rng: random.Random, game: Round) -> int:
    lim = game.rules.limits
    return rng.randrange(lim.minimum, min(lim.maximum, lim.minimum * 20) + 1, 25)


def bets(game: Round, rng: random.Random, save: Save) -> None:
    seats = rng.sample(range(1, 7), rng.randint(1, 5))
    for seat in seats:
        game.place_wager(seat, _wager(rng, game))
        save()
    if len(seats) > 1 and rng.random() < 0.3:
        game.place_wager(seats[0], _wager(rng, game))  # changes it
        save()
    if len(seats) > 1 and rng.random() < 0.2:
        game.withdraw_wager(seats[-1])
        save()
    while (offered := game.offer_bank()) != DEALER and game.bank.player is None:
        others = sum(c for s, c in game.wagers.items() if s != offered)
        co_bank = game.rules.banking.co_banking and rng.random() < 0.5
        chips = others + rng.randrange(2_000, 20_000, 100)
        if rng.random() < 0.6 and game.eligibility(offered, chips, co_bank).eligible:
            if offered in game.wagers:
                game.withdraw_wager(offered)
                save()
            if game.can_take_bank(offered, chips, co_bank):
                game.take_bank(offered, chips, co_bank)
                save()
                break
        game.pass_bank(offered)
        save()
    if not game.wagers:  # the banker's was the only wager
        seat = next(s for s in range(1, 7) if s != game.bank.player)
        game.place_wager(seat, game.rules.limits.minimum)
        save()
    if game.rules.bonus is not None:  # drawn only at a bonus table: the others stay as were
        bonuses(game, rng, save)
    if game.rules.progressive is not None:
        progressives(game, rng, save)


def progressives(game: Round, rng: random.Random, save: Save) -> None:
    """Progressive wagers on some seats with a Pai Gow wager; one taken back now and then."""
    seats = [*game.wagers] + ([game.bank.player] if game.bank.player is not None else [])
    for seat in seats:
        if rng.random() < 0.7:
            game.place_progressive(seat)
            save()
    if game.progressive_wagers and rng.random() < 0.2:
        game.withdraw_progressive(next(iter(game.progressive_wagers)))
        save()


def bonuses(game: Round, rng: random.Random, save: Save) -> None:
    """Bonus wagers on some seats with a Pai Gow wager (the banker's too); one taken back
    now and then."""
    bonus = game.rules.bonus
    assert bonus is not None
    seats = [*game.wagers] + ([game.bank.player] if game.bank.player is not None else [])
    for seat in seats:
        if rng.random() < 0.7:
            game.place_bonus(seat, rng.randrange(bonus.minimum, bonus.maximum + 1, 100))
            save()
    if game.bonus_wagers and rng.random() < 0.2:
        game.withdraw_bonus(next(iter(game.bonus_wagers)))
        save()


def approve_bonus(game: Round, save: Save) -> None:
    """Payouts at or above the threshold wait for a supervisor, who approves them."""
    if game.bonus_waiting():
        game.hold_bonus()
        save()
        game.approve_bonus("Pat Lee")
        save()


def action(game: Round, rng: random.Random) -> Action:
    if game.table.action_source is ActionSource.DICE:
        return Action.from_dice(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    return Action.from_rng(rng.randint(1, 7))


def deal(game: Round, rng: random.Random, save: Save, *, misdeal: bool = False) -> None:
    deck = shuffled(rng)
    if misdeal:
        deck[3] = deck[10]  # a card twice, one missing
    try:
        if rng.random() < 0.25:
            assert game.action is not None
            order = game.table.around(game.action.position)
            hands = {p: deck[i * 7:(i + 1) * 7] for i, p in enumerate(order)}
            game.deal_by_position(hands, deck[49:] if rng.random() < 0.5 else None)
        elif game.table.deal_mode is DealMode.ONE_AT_A_TIME:
            game.deal_one_at_a_time(deck if rng.random() < 0.5 else deck[:49])
        else:
            game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)],
                             deck[49:] if rng.random() < 0.7 else None)
    except Misdeal:
        pass
    save()


def dragons(game: Round, rng: random.Random, save: Save) -> None:
    while (seat := game.offer_dragon()) is not None:
        main = game.wagers[seat]
        wager = main if game.rules.dragon.wager is DragonWager.EQUAL else \
            rng.randrange(game.rules.limits.minimum, main + 1, 25)
        if rng.random() < 0.6 and game.can_take_dragon(seat, wager):
            taken = game.take_dragon(seat, wager)
            bonus = game.rules.bonus
            if bonus is not None and bonus.rules.dragon_bonus and rng.random() < 0.5:
                save()  # drawn only where the house allows it: the others stay as they were
                game.place_dragon_bonus(taken.position, bonus.minimum)
                if rng.random() < 0.3:  # and sometimes taken back before a hand is set
                    save()
                    game.withdraw_dragon_bonus(taken.position)
        else:
            game.pass_dragon(seat)
        save()


def set_hands(game: Round, rng: random.Random, save: Save, *, leave: int = 0) -> None:
    """Set the hands that wait for a choice, leaving the last `leave` of them unset."""
    waiting = [p for p in game.pending()
               if (game.can_set_hand(p) or game.can_ask_house_way(p))
               and game.hands[p].role not in (Role.DEALER,)
               and not (game.hands[p].role is Role.BANK and game.hands[p].player is None)]
    for p in waiting[:len(waiting) - leave]:
        hand = game.hands[p]
        front = list(rng.sample(hand.cards, 2))
        # The player asks the house for help first (drawn only at the resplit table, so the
        # other tables' seeded rounds stay as they were).
        if (game.rules.foul_penalty is FoulPenalty.RESPLIT and rng.random() < 0.3
                and game.can_show_house_way(p)):
            game.show_house_way(p)
            save()
        if rng.random() < 0.5 and game.can_set_hand(p, front):
            if isinstance(game.set_hand(p, front), HandReturned):
                save()  # a foul given back: the player sets it again, the House Way
                _house_way(game, p)
        else:
            _house_way(game, p)
        save()


def _house_way(game: Round, p: int) -> None:
    """The House Way now, or (after the bank, at such a table) the seven cards in one pile."""
    if game.can_set_hand(p):
        game.house_way(p)
    else:
        game.ask_house_way(p)


def play(game: Round, rng: random.Random, save: Save, *, misdeal_chance: float = 0.15,
         stop_in_setting: bool = False) -> Round:
    """Play the round from its bets to its slip (or, with `stop_in_setting`, until some of
    its hands are set and at least one waits)."""
    bets(game, rng, save)
    game.set_action(action(game, rng))
    save()
    if rng.random() < misdeal_chance:
        deal(game, rng, save, misdeal=True)
        assert game.phase is Phase.MISDEAL
        game.set_action(action(game, rng))
        save()
    deal(game, rng, save)
    dragons(game, rng, save)
    set_hands(game, rng, save, leave=1 if stop_in_setting else 0)
    if stop_in_setting:
        return game
    set_hands(game, rng, save)
    approve_bonus(game, save)
    game.settle()
    save()
    return game


def finish(game: Round, save: Save, rng: random.Random | None = None) -> None:
    """Play the round on from wherever it stands: action, the deal, what waits set the
    House Way, the slip."""
    rng = rng or random.Random(0)
    if game.phase is Phase.BETTING:
        if not game.wagers:
            game.place_wager(next(s for s in range(1, 7) if s != game.bank.player),
                             game.rules.limits.minimum)
            save()
        game.set_action(action(game, rng))
        save()
    if game.phase is Phase.MISDEAL:
        game.set_action(action(game, rng))
        save()
    if game.phase is Phase.DEALING:
        deal(game, rng, save)
    for p in game.pending():
        if not game.can_settle() and (game.can_set_hand(p) or game.can_ask_house_way(p)):
            _house_way(game, p)
            save()
    approve_bonus(game, save)
    game.settle()
    save()


def by_phase(game: Round, save: Save) -> Save:
    """`save` once the round's phase has moved on since the last save: a round's records go
    to the ledger in four or five saves (its bets, action, deal, hands and slip), each a
    transaction of several records, not one save per change (fourteen-odd). The rounds a
    test needs only as they end are written so; the tests of a round saved change by change
    pass `play` the recording's own `save` (test_store.py, the window's, the stations')."""
    last = [game.phase]

    def save_when_moved() -> object:
        if game.phase is last[0]:
            return 0
        last[0] = game.phase
        return save()

    return save_when_moved


def record_rounds(store: object, n: int, seed: object,
                  rules: RoundRules | None = None) -> list[object]:
    """Play `n` rounds in a row into the store (its rotation carried on), saved at each
    phase (`by_phase`: the slip's phase saves the rest); returns the recordings."""
    from app.ledger import Store

    assert isinstance(store, Store)
    rng = random.Random(str(seed))
    out: list[object] = []
    for _ in range(n):
        game = Round(rules or RoundRules(), store.rotation())
        rec = store.begin(game)
        play(game, rng, by_phase(game, rec.save))
        out.append(rec)
    return out
