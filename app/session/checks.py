"""What the dealer may do now, and why not: the check behind every command of the registry.

Each check is a function of the session's parts that raises the reason, in the dealer's
words, or returns nothing; the registry (commands.py) names it as the command's `check`.
Every answer is the core's (`verify_x` / `can_x` on the round) or the table's procedure
around it (the bank is answered before action, the dragon before the hands are set);
nothing here changes the session.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.banker import BankError
from app.core.round import RULE_DEALER_FIRST, RULE_NO_BANKING, Phase, Round
from app.core.settlement import money
from app.core.table import CARDS_PER_HAND, Action, ActionSource, TableError, position_name

from .deal import DEALT
from .parts import Parts

Check = Callable[[Parts], None]


def why_no_bank_offer(p: Parts, rnd: Round) -> str:
    if rnd.phase is not Phase.BETTING:
        return f"the bank is offered while wagers are taken; now {rnd.phase.now}"
    taken = rnd.bank
    if taken.player is not None:
        return f"seat {taken.player} has the bank this round"
    if not p.rules.banking.enabled:
        return RULE_NO_BANKING
    if rnd.rotation.first_round:
        return RULE_DEALER_FIRST
    return "every seat has passed the bank: the dealer banks this round"


def why_no_dragon_offer(p: Parts, rnd: Round) -> str:
    dragon = p.rules.dragon
    if not dragon.enabled:
        return "this table plays no dragon hands"
    if rnd.phase is not Phase.SETTING:
        return (f"the dragon is offered after the deal, before any hand is set; now "
                f"{rnd.phase.now}")
    if len(rnd.dragons) >= dragon.per_round:
        return f"this round's dragon hands are taken ({dragon.per_round} a round)"
    left = rnd.bank_covers_more()
    if rnd.dragon_hands() and not rnd.dragon_order() and left is not None \
            and left < p.rules.limits.minimum:
        return (f"the bank of seat {rnd.bank.player} covers {money(left)} more, less than "
                f"a dragon's least wager of {money(p.rules.limits.minimum)}: no dragon is "
                f"offered")
    if rnd.dragon_hands() and not rnd.dragon_order():
        return (f"every seated player has the dragon hands a player may take here "
                f"({dragon.max_per_player} each)")
    if not rnd.dragon_hands():
        return "every hand is in play: there is no unused hand to offer as a dragon"
    if any(h.setting is not None for h in rnd.hands.values()):
        return "the dragon is offered before any hand is set, and a hand is set"
    return "every seated player has been offered the dragon"


def verify_no_offer_open(p: Parts, what: str) -> None:
    """The bank or the dragon on offer is answered before the round goes on."""
    seat = p.bank_offered()
    if seat is not None:
        raise TableError(f"the bank is offered to seat {seat}: B and the chips to take it, or "
                         f"Q to pass, before {what}")
    seat = p.dragon_offered()
    if seat is not None:
        raise TableError(f"the dragon is offered to seat {seat}: G and the wager to take it, "
                         f"or Q to pass, before {what}")


def verify_printer(p: Parts) -> None:
    printer = p.devices.printer
    if printer is None or not printer.attached:
        raise TableError("no slip printer is set up at this station: read the slip on "
                         "screen; the ledger keeps it")
    problem = printer.problem()
    if problem is not None:
        raise TableError(problem)


def verify_ledger_takes(p: Parts, what: str) -> None:
    """No new wager (or round) while the ledger cannot record it: a disk full, a journal
    that cannot be written. What is recorded stays; the station says why."""
    problem = p.play.ledger_problem()
    if problem is not None:
        raise TableError(f"the ledger cannot record now ({problem}): no {what} is taken until "
                         f"it can. Call a supervisor; what is recorded is kept.")


# --- the registry's checks, one a command ----------------------------------------------------

def new(p: Parts) -> None:
    verify_ledger_takes(p, "new round")
    rnd = p.round
    if rnd is not None and rnd.phase is not Phase.SETTLED:
        raise TableError(f"round {rnd.rotation.round_no} is not settled ({rnd.phase.now}): "
                         f"settle it (S) before opening the next")
    ledger = p.play.ledger
    if ledger is not None and ledger.dealer is None:
        raise TableError("no dealer's shift is open: press F3 and type the dealer's name")


def reprint(p: Parts) -> None:
    verify_printer(p)
    printer = p.devices.printer
    assert printer is not None
    rnd = p.round
    if printer.kept_count:
        return
    if rnd is not None and rnd.slip is not None and p.devices.slip_printed == "printed":
        return
    raise TableError("nothing to reprint: no slip is kept and this round's slip has not been "
                     "printed (P prints it); a past round's slip: F2, History, Reprint")


def shoe(p: Parts) -> None:
    if not p.devices.shoe_demo:
        raise TableError("the shoe goes offline by itself when unplugged; this switch is "
                         "for the demo shoe")


def misdeal(p: Parts) -> None:
    rnd = p.round
    if rnd is None:
        raise TableError("no round is open: there is no deal to call a misdeal on")
    if rnd.phase is Phase.BETTING:
        raise TableError("no card is dealt yet: a misdeal ends a deal; before action the "
                         "wagers can simply be taken back (X)")
    if rnd.phase is Phase.SETTLED:
        raise TableError(f"round {rnd.rotation.round_no} is settled: a misdeal cannot undo "
                         f"it; a supervisor corrects a settlement instead")


def shift(p: Parts) -> None:
    if p.play.ledger is None:
        raise TableError("this station keeps no ledger: there is no shift to open")


def confirm(p: Parts) -> None:
    p.play.need_round()
    if p.keyboard.asking is None:
        raise TableError("nothing waits for a yes: Enter or Y confirms a wager far above the "
                         "seat's last one, when the station asks")


def wager(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_ledger_takes(p, "wager")
    seat = p.need_position()
    rnd.verify_place_wager(seat, rnd.wagers.get(seat, rnd.rules.limits.minimum))


def bonus(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_ledger_takes(p, "bonus wager")
    position = p.need_position()
    table = rnd.rules.bonus
    least = table.minimum if table else 1
    if is_dragon_bonus(p, position):
        rnd.verify_place_dragon_bonus(position, rnd.dragon_bonus_wagers.get(position, least))
        return
    rnd.verify_place_bonus(position, rnd.bonus_wagers.get(position, least))


def is_dragon_bonus(p: Parts, position: int) -> bool:
    """U on a dragon hand taken this round (the hands not yet set): its taker's bonus on it,
    where the house allows it; anywhere else U is a seat's bonus, taken with the bets."""
    rnd = p.play.need_round()
    return rnd.phase is Phase.SETTING and position in rnd.dragons


def withdraw_bonus(p: Parts) -> None:
    rnd = p.play.need_round()
    position = p.need_position()
    if is_dragon_bonus(p, position):
        rnd.verify_withdraw_dragon_bonus(position)
        return
    rnd.verify_withdraw_bonus(position)


def same_wagers(p: Parts) -> None:
    rnd = p.play.need_round()
    if rnd.phase is not Phase.BETTING:
        raise TableError(f"wagers are set while the bets are open; now "
                         f"{rnd.phase.now}")
    verify_ledger_takes(p, "wager")
    last = p.play.last_round
    if not last:
        raise TableError("no round before this one has wagers to repeat: type each wager "
                         "(a seat's key, W, the amount, Enter)")
    if all(seat in rnd.wagers for seat in last):
        raise TableError("every seat that wagered last round has a wager now: change a "
                         "seat with its key and W")


def withdraw(p: Parts) -> None:
    rnd = p.play.need_round()
    rnd.verify_withdraw_wager(p.need_position())


def bank(p: Parts) -> None:
    rnd = p.play.need_round()
    if p.bank_offered() is None:
        raise BankError(why_no_bank_offer(p, rnd))


def co_bank(p: Parts) -> None:
    rnd = p.play.need_round()
    if not p.rules.banking.co_banking:
        raise BankError("this table does not co-bank: its rules let the bank be taken whole only")
    if p.bank_offered() is None:
        raise BankError(why_no_bank_offer(p, rnd))


def pass_offer(p: Parts) -> None:
    p.play.need_round()
    if p.bank_offered() is None and p.dragon_offered() is None:
        raise TableError("nothing is on offer: the bank is offered before action, the dragon "
                         "after the deal")


def dragon(p: Parts) -> None:
    rnd = p.play.need_round()
    if p.dragon_offered() is None:
        raise TableError(why_no_dragon_offer(p, rnd))


def rng(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_no_offer_open(p, "action")
    device = p.deal.device_action
    if device is None:
        verify_rng_table(rnd)
    rnd.verify_set_action(device.action if device else Action.from_rng(1))


def verify_rng_table(rnd: Round) -> None:
    """R at a table that takes its action from the dice: said with the keys that do it."""
    if rnd.table.action_source is ActionSource.DICE:
        raise TableError("this table takes the action from the dice only: roll them, press D "
                         "and type the three dice")


def dice(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_no_offer_open(p, "action")
    device = p.deal.device_action
    if device is not None:
        raise TableError(f"the {p.deal.device_name()} sent this round's action "
                         f"({device.action}): R takes it")
    if rnd.table.action_source is not ActionSource.DICE:
        raise TableError("this table takes action from the station's random number, not "
                         "dice: press R (the dice are not used here)")
    rnd.verify_set_action(Action.from_dice(1, 1, 1))


def cards(p: Parts) -> None:
    rnd = p.play.need_round()
    if rnd.phase is not Phase.DEALING:
        raise TableError(f"cards are entered while the cards are dealt, after action; now "
                         f"{rnd.phase.now}")
    selected = p.keyboard.selected
    if p.devices.shoe_online and p.play.typing_allowed is None and not (
            selected is not None and p.deal.short_by_a_hole(rnd, selected)):
        raise TableError("the shoe is online and reads the cards: cards are typed when it is "
                         "offline, for a card it lost (a hole), or when a supervisor allows "
                         "it")
    position = p.need_position("position")
    if len(p.dealing().get(position, ())) >= CARDS_PER_HAND:
        raise TableError(f"{position_name(position)} has its seven cards: select a position "
                         f"still short of cards")


def deal_done(p: Parts) -> None:
    rnd = p.play.need_round()
    if rnd.phase is not Phase.DEALING:
        raise TableError(f"the deal is completed while the cards are dealt; now {rnd.phase.now}")
    stream = p.deal.stream
    if p.deal.manual:
        raise TableError("cards typed by hand complete the deal by themselves: type every "
                         "position's seven")
    lost = stream[:DEALT].count(None)
    if lost:
        raise TableError(f"the shoe lost {lost} card(s) of this deal: type each for its "
                         f"position (C), or call a misdeal")
    read = min(len(stream), DEALT)
    if read < DEALT:
        raise TableError(f"the shoe has read {read} of the {DEALT} cards dealt: the deal is "
                         f"complete when every hand has its seven")


def house_way(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_no_offer_open(p, "the hands are set")
    position = p.need_position("position")
    if not rnd.can_ask_house_way(position):  # else: one pile, after the bank
        rnd.verify_set_hand(position)


def show_house_way(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_no_offer_open(p, "the house shows a hand")
    rnd.verify_show_house_way(p.need_position("position"))


def front(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_no_offer_open(p, "the hands are set")
    position = p.need_position("position")
    hand = rnd.hands.get(position)
    rnd.verify_set_hand(position, hand.cards[:2] if hand else None)


def settle(p: Parts) -> None:
    rnd = p.play.need_round()
    verify_no_offer_open(p, "settling")
    if rnd.bonus_held is None and rnd.bonus_waiting():
        rnd.verify_hold_bonus()  # S holds the big payouts for a supervisor first
        return
    rnd.verify_settle()


def approve_bonus(p: Parts) -> None:
    rnd = p.play.need_round()
    if rnd.bonus_held is None:
        raise TableError("no bonus payout waits for a supervisor: the dealer settles (S) "
                         "first, and a payout at the house's threshold waits then")
    rnd.verify_approve_bonus("the supervisor")


def print_slip(p: Parts) -> None:
    rnd = p.play.need_round()
    if rnd.slip is None:
        raise TableError("there is no slip yet: settle the round first (S)")
    verify_printer(p)
    if p.devices.slip_printed == "printed":
        raise TableError(f"round {rnd.slip.round}'s slip is printed: Shift+P prints it again, "
                         f"marked REPRINT")
