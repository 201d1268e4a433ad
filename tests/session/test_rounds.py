"""Whole rounds through the dealer session by events only (keys, typed commands, the
shoe's cards); the slips' money is checked against the rule texts."""

from __future__ import annotations

import pytest

from app.core.round import DragonRules, Phase, RoundRules
from app.core.settlement import Outcome, Role
from app.core.table import DEALER
from app.session import DealerSession, FrontTyped, MemoryLedger, MemoryPrinter, next_line

from .play import BANK_WEAK, MIDDLE, STRONG, WEAKER, WEAKER_TOO, Play, stacked

# "When the player's two hands beat the dealer's two hands, the player wins an amount equal
# to the original bet minus a 5% commission. When the dealer's two hands beat the player's
# two hands, the banker wins the player's original bet." (seed 002)
# "*Commission is rounded up to a quarter of the lowest chip denomination in the game."


def action_at(seat: int) -> int:
    """randbelow's answer that puts action on `seat`, the dealer banking (dealer = 1)."""
    return (seat - DEALER) % 7  # number - 1


def session(rules: RoundRules | None = None, action: int = 1, **kw: object) -> Play:
    ledger = MemoryLedger(shift="Ann")
    s = DealerSession(rules, ledger=ledger, printer=MemoryPrinter(),
                      randbelow=lambda _n: action_at(action), **kw)  # type: ignore[arg-type]
    return Play(s)


def house_bank_round(p: Play) -> None:
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25", 3: "25"})
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    p.key("Shift+Q")  # no one takes the dragon
    p.house_way_all()


def test_house_bank_a_win_pays_even_money_less_five_percent_and_a_loss_takes_the_bet():
    p = session()
    house_bank_round(p)
    changes = p.key("S")
    slip = changes.slip
    assert slip is not None and changes.done
    win, lose = slip.line(1), slip.line(3)
    assert (win.outcome, win.wager, win.commission, win.net) == (Outcome.WIN, 2500, 125, 2375)
    assert (lose.outcome, lose.net) == (Outcome.LOSE, -2500)
    assert slip.totals.house_net == 2500 - 2375
    assert changes.message.startswith("Settled from seat 1: players net -$1.25")


def test_the_commission_is_rounded_up_to_a_quarter():
    p = session()
    p.shoe(True)
    p.key("N")
    p.wagers({1: "27"})  # 5% of $27 is $1.35: rounded up to $1.50
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: STRONG, DEALER: BANK_WEAK}))
    p.key("Shift+Q")
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None
    assert (slip.line(1).commission, slip.line(1).net) == (150, 2700 - 150)


def test_a_player_banker_pays_the_winners_and_collects_from_the_losers():
    # Seed 003: the bank is offered in rotation to a player who wagered against the dealer
    # in the last round with no player banker.
    p = session(action=3)
    p.shoe(True)
    p.key("N")
    p.wagers({3: "50"})
    p.key("R")
    p.read(stacked(p.s.table, 3, {3: WEAKER, DEALER: STRONG}))
    p.key("Shift+Q")
    p.house_way_all()
    assert p.key("S").slip is not None
    opened = p.key("N")
    assert p.s.bank_offered() == 3, opened.message
    taken = p.key("B")
    assert taken.show == "field:bank"
    assert p.cmd("bank", "200").done
    p.wagers({1: "20", 5: "20"})
    p.key("R")  # action 4 counted from the bank's seat 3 (= 1): seat 6
    rnd = p.s.round
    assert rnd is not None and rnd.action is not None
    start = rnd.action.position
    p.read(stacked(p.s.table, start, {1: STRONG, 5: WEAKER, 3: BANK_WEAK,
                                             DEALER: WEAKER_TOO}))
    p.key("Shift+Q")
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None and slip.bank.player == 3
    assert slip.line(1).outcome is Outcome.WIN and slip.line(5).outcome is Outcome.LOSE
    dealer = slip.line(DEALER)
    assert dealer.role is Role.DEALER and dealer.outcome is Outcome.LOSE
    bank = slip.bank
    assert bank.paid == 2000  # seat 1's even money
    assert bank.collected == 2000 + dealer.wager  # seat 5 and the dealer's hand
    assert bank.net == bank.collected - bank.paid - bank.commission


def test_a_dragon_hand_is_played_for_the_seat_that_takes_it():
    # Seed 001: the hand of an empty position may be offered to a seated player.
    p = session(RoundRules(dragon=DragonRules(enabled=True)))
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25", 3: "25"})
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: WEAKER, 2: STRONG, 3: MIDDLE, DEALER: BANK_WEAK}))
    offered = p.s.dragon_offered()
    assert offered is not None
    assert p.key("G").show == "field:dragon"
    assert p.cmd("dragon", "10").done
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None
    dragon = slip.line(2)
    assert dragon.role is Role.DRAGON and dragon.player == offered
    assert (dragon.outcome, dragon.wager, dragon.net) == (Outcome.WIN, 1000, 950)


def test_a_player_s_foul_forfeits_the_hand():
    # Seed 001: "Splitting the seven-card hand incorrectly so the two-card hand has a higher
    # poker rank than the five-card hand forfeits the game."
    p = session()
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25"})
    p.key("R")
    p.read(stacked(p.s.table, 1, {1: MIDDLE, DEALER: WEAKER}))
    p.key("Shift+Q")
    p.seat(1)
    p.s.handle(FrontTyped("AC KD"))
    preview = p.s.keyboard.preview
    assert preview is not None and preview.hand.foul  # shown before it is set
    fouled = p.key("F")
    assert fouled.level == "error" and fouled.message.startswith("Seat 1: FOUL")
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None
    line = slip.line(1)
    assert line.foul and (line.outcome, line.net) == (Outcome.LOSE, -2500)


def test_shoe_cards_with_the_leftovers_read_and_not_read():
    p = session()
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25"})
    p.key("R")
    cards = stacked(p.s.table, 1, {1: STRONG, DEALER: BANK_WEAK})
    p.read(cards[:49])
    rnd = p.s.round
    assert rnd is not None and rnd.phase is Phase.DEALING
    assert "waiting for the 4 left over" in next_line(p.s)
    p.burn(cards[49:])
    assert rnd.phase is Phase.SETTING and rnd.deal is not None
    assert rnd.deal.leftovers_counted and list(rnd.deal.leftovers) == cards[49:]
    # The next round's shoe never reads the leftovers: E takes the deal as it is.
    p.key("Shift+Q")
    p.house_way_all()
    p.key("S")
    p.key("N")
    assert p.s.bank_offered() == 1
    p.key("Q")  # seat 1 passes the bank: the dealer banks again
    p.wagers({1: "25"})
    p.key("R")
    p.read(cards[:49])
    p.key("E")
    rnd = p.s.round
    assert rnd is not None and rnd.deal is not None and not rnd.deal.leftovers_counted
    assert set(rnd.deal.leftovers) == set(cards[49:])


def test_cards_by_hand_while_the_shoe_is_offline():
    p = session()
    p.key("N")
    p.wagers({1: "25"})
    assert "offline" in p.key("R").message
    cards = stacked(p.s.table, 1, {1: STRONG, DEALER: BANK_WEAK})
    rnd = p.s.round
    assert rnd is not None
    for i, position in enumerate(p.s.table.around(1)):
        assert p.s.keyboard.selected == position
        typed = p.cmd("cards", " ".join(str(c) for c in cards[i * 7:i * 7 + 7]))
        assert typed.done, typed.message
    assert rnd.phase is Phase.SETTING
    p.key("Shift+Q")
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None and slip.line(1).net == 2375


def test_a_misdeal_keeps_the_wagers_and_action_is_taken_again():
    p = session()
    p.shoe(True)
    p.key("N")
    p.wagers({1: "25"})
    p.key("R")
    cards = stacked(p.s.table, 1, {1: STRONG, DEALER: BANK_WEAK})
    bad = cards[:52] + [cards[0]]  # a card read twice, the joker never
    changes = p.read(bad)
    rnd = p.s.round
    assert rnd is not None and rnd.phase is Phase.MISDEAL
    assert not changes.done and "Take action again (R (RNG))" in changes.message
    assert "stop_deal" in changes.shoe
    assert rnd.wagers == {1: 2500}
    again = p.key("R")
    assert again.done and "start_deal" in again.shoe
    p.read(cards)
    p.key("Shift+Q")
    p.house_way_all()
    slip = p.key("S").slip
    assert slip is not None and slip.line(1).net == 2375


def test_the_ledger_keeps_every_record_the_round_made():
    p = session()
    house_bank_round(p)
    p.key("S")
    ledger = p.s.play.ledger
    assert isinstance(ledger, MemoryLedger)
    rnd = p.s.round
    assert rnd is not None and ledger.records() == rnd.log


def test_a_dealer_mistake_is_a_message_never_an_exception():
    p = session()
    p.key("N")
    p.seat(1)
    changes = p.cmd("wager", "2")
    assert not changes.done and changes.level == "error"
    assert changes.message == ("Seat 1: $2.00 is under the table minimum of $5.00: nothing "
                               "is set. Type the wager again (W), at least $5.00.")
    assert p.cmd("wager", "lots").level == "error"


@pytest.mark.parametrize("refuse", ["the database is away"])
def test_a_ledger_refusal_is_shown_and_the_round_goes_on(refuse: str):
    p = session()
    ledger = p.s.play.ledger
    assert isinstance(ledger, MemoryLedger)
    p.key("N")
    ledger.refuse = refuse
    p.seat(1)
    changes = p.cmd("wager", "25")
    assert changes.level == "error" and refuse in changes.message
    rnd = p.s.round
    assert rnd is not None and rnd.wagers == {1: 2500}
