"""What the dealer may do now, and why not: the check behind every command of the registry.

Every answer is the core's (`verify_x` / `can_x` on the round) or the table's procedure
around it (the bank is answered before action, the dragon before the hands are set);
nothing here changes the session. The sentences are the ones the dealer reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.banker import BankError
from app.core.round import RULE_DEALER_FIRST, RULE_NO_BANKING, Phase, Round
from app.core.table import CARDS_PER_HAND, Action, TableError, position_name

if TYPE_CHECKING:
    from .session import DealerSession


def why_no_bank_offer(s: DealerSession, rnd: Round) -> str:
    if rnd.phase is not Phase.BETTING:
        return f"the bank is offered while the bets are open; the round is {rnd.phase.value}"
    taken = rnd.bank
    if taken.player is not None:
        return f"seat {taken.player} has the bank this round"
    if not s.rules.banking.enabled:
        return RULE_NO_BANKING
    if rnd.rotation.first_round:
        return RULE_DEALER_FIRST
    return "every seat has passed the bank: the dealer banks this round"


def why_no_dragon_offer(s: DealerSession, rnd: Round) -> str:
    dragon = s.rules.dragon
    if not dragon.enabled:
        return "this table plays no dragon hands (table: dragon.enabled)"
    if rnd.phase is not Phase.SETTING:
        return (f"the dragon is offered after the deal, before any hand is set; the round is "
                f"{rnd.phase.value}")
    if len(rnd.dragons) >= dragon.per_round:
        return f"this round's dragon hands are taken ({dragon.per_round} a round)"
    if rnd.dragon_hands() and not rnd.dragon_order():
        return (f"every seated player has the dragon hands a player may take here "
                f"({dragon.max_per_player} each)")
    if not rnd.dragon_hands():
        return "every hand is in play: there is no unused hand to offer as a dragon"
    if any(h.setting is not None for h in rnd.hands.values()):
        return "the dragon is offered before any hand is set, and a hand is set"
    return "every seated player has been offered the dragon"


def verify_no_offer_open(s: DealerSession, what: str) -> None:
    """The bank or the dragon on offer is answered before the round goes on."""
    seat = s.bank_offered()
    if seat is not None:
        raise TableError(f"the bank is offered to seat {seat}: B and the chips to take it, or "
                         f"Q to pass, before {what}")
    seat = s.dragon_offered()
    if seat is not None:
        raise TableError(f"the dragon is offered to seat {seat}: G and the wager to take it, "
                         f"or Q to pass, before {what}")


def verify_printer(s: DealerSession) -> None:
    printer = s.printer
    if printer is None or not printer.attached:
        raise TableError("no slip printer is set up at this station ([printer] kind = "
                         "\"none\"): read the slip on screen; the ledger keeps it")
    problem = printer.problem()
    if problem is not None:
        raise TableError(problem)


def verify_ledger_takes(s: DealerSession, what: str) -> None:
    """No new wager (or round) while the ledger cannot record it: a disk full, a journal
    that cannot be written. What is recorded stays; the station says why."""
    problem = s.ledger_problem()
    if problem is not None:
        raise TableError(f"the ledger cannot record now ({problem}): no {what} is taken until "
                         f"it can. Call a supervisor; what is recorded is kept.")


def _verify_new(s: DealerSession) -> None:
    verify_ledger_takes(s, "new round")
    rnd = s.round
    if rnd is not None and rnd.phase is not Phase.SETTLED:
        raise TableError(f"round {rnd.rotation.round_no} is {rnd.phase.value}: settle it (S) "
                         f"before opening the next")
    if s.ledger is not None and s.ledger.dealer is None:
        raise TableError("no dealer's shift is open: press F3 and type the dealer's name")


def _verify_reprint(s: DealerSession) -> None:
    verify_printer(s)
    assert s.printer is not None
    rnd = s.round
    if s.printer.kept_count:
        return
    if rnd is not None and rnd.slip is not None and s.slip_printed == "printed":
        return
    raise TableError("nothing to reprint: no slip is kept and this round's slip has not been "
                     "printed (P prints it); a past round's slip: F2, History, Reprint")


def _verify_cards(s: DealerSession, rnd: Round) -> None:
    if rnd.phase is not Phase.DEALING:
        raise TableError(f"cards are entered while the round is dealing, after action; it is "
                         f"{rnd.phase.value}")
    if s.shoe_online and s.typing_allowed is None and not (
            s.selected is not None and _short_by_a_hole(s, rnd, s.selected)):
        raise TableError("the shoe is online and reads the cards: cards are typed when it is "
                         "offline, for a card it lost (a hole), or when a supervisor allows "
                         "it")
    position = s.need_position("position")
    if len(s.dealing().get(position, ())) >= CARDS_PER_HAND:
        raise TableError(f"{position_name(position)} has its seven cards: select a position "
                         f"still short of cards")


def _short_by_a_hole(s: DealerSession, rnd: Round, position: int) -> bool:
    """The shoe lost a card of this position's hand (a hole in the deal): it is typed."""
    from .feed import DEALT
    if rnd.action is None:
        return False
    return any(c is None and rnd.table.position_of_card(rnd.action.position, i) == position
               for i, c in enumerate(s.stream[:DEALT]))


def _verify_misdeal(s: DealerSession) -> None:
    rnd = s.round
    if rnd is None:
        raise TableError("no round is open: there is no deal to call a misdeal on")
    if rnd.phase is Phase.BETTING:
        raise TableError("no card is dealt yet: a misdeal ends a deal; before action the "
                         "wagers can simply be taken back (X)")
    if rnd.phase is Phase.SETTLED:
        raise TableError(f"round {rnd.rotation.round_no} is settled: a misdeal cannot undo "
                         f"it; a supervisor corrects a settlement instead")


def _verify_deal_done(s: DealerSession, rnd: Round) -> None:
    from .feed import DEALT
    if rnd.phase is not Phase.DEALING:
        raise TableError(f"the deal is complete once dealt; the round is {rnd.phase.value}")
    if s.manual:
        raise TableError("cards typed by hand complete the deal by themselves: type every "
                         "position's seven")
    lost = s.stream[:DEALT].count(None)
    if lost:
        raise TableError(f"the shoe lost {lost} card(s) of this deal: type each for its "
                         f"position (C), or call a misdeal")
    read = min(len(s.stream), DEALT)
    if read < DEALT:
        raise TableError(f"the shoe has read {read} of the {DEALT} cards dealt: the deal is "
                         f"complete when every hand has its seven")


def verify(s: DealerSession, action: str) -> None:
    """Raise the reason `action` may not be done now (the dealer's words); else nothing."""
    if action == "new":
        return _verify_new(s)
    if action == "reprint":
        return _verify_reprint(s)
    if action == "shoe":
        if not s.shoe_demo:
            raise TableError("the shoe goes offline by itself when unplugged; this switch is "
                             "for the demo shoe")
        return None
    if action == "misdeal":
        return _verify_misdeal(s)
    if action == "shift":
        if s.ledger is None:
            raise TableError("this station keeps no ledger: there is no shift to open")
        return None
    rnd = s.need_round()
    match action:
        case "confirm":
            if s.asking is None:
                raise TableError("nothing waits for a yes: Enter or Y confirms a wager far "
                                 "above the seat's last one, when the station asks")
        case "wager":
            verify_ledger_takes(s, "wager")
            seat = s.need_position()
            rnd.verify_place_wager(seat, rnd.wagers.get(seat, rnd.rules.limits.minimum))
        case "withdraw":
            rnd.verify_withdraw_wager(s.need_position())
        case "bank" | "co_bank":
            if action == "co_bank" and not s.rules.banking.co_banking:
                raise BankError("this table does not co-bank (table: "
                                "player_banking.co_banking)")
            if s.bank_offered() is None:
                raise BankError(why_no_bank_offer(s, rnd))
        case "pass":
            if s.bank_offered() is None and s.dragon_offered() is None:
                raise TableError("nothing is on offer: the bank is offered before action, the "
                                 "dragon after the deal")
        case "dragon":
            if s.dragon_offered() is None:
                raise TableError(why_no_dragon_offer(s, rnd))
        case "rng":
            verify_no_offer_open(s, "action")
            device = s.device_action
            rnd.verify_set_action(device.action if device else Action.from_rng(1))
        case "dice":
            verify_no_offer_open(s, "action")
            if s.device_action is not None:
                raise TableError(f"the {s.device_name()} sent this round's action "
                                 f"({s.device_action.action}): R takes it")
            rnd.verify_set_action(Action.from_dice(1, 1, 1))
        case "cards":
            _verify_cards(s, rnd)
        case "deal_done":
            _verify_deal_done(s, rnd)
        case "house_way":
            verify_no_offer_open(s, "the hands are set")
            position = s.need_position("position")
            if not rnd.can_ask_house_way(position):  # else: one pile, after the bank
                rnd.verify_set_hand(position)
        case "show_house_way":
            verify_no_offer_open(s, "the house shows a hand")
            rnd.verify_show_house_way(s.need_position("position"))
        case "front":
            verify_no_offer_open(s, "the hands are set")
            position = s.need_position("position")
            hand = rnd.hands.get(position)
            rnd.verify_set_hand(position, hand.cards[:2] if hand else None)
        case "settle":
            verify_no_offer_open(s, "settling")
            rnd.verify_settle()
        case "print":
            if rnd.slip is None:
                raise TableError("there is no slip yet: settle the round first (S)")
            verify_printer(s)
            if s.slip_printed == "printed":
                raise TableError(f"round {rnd.slip.round}'s slip is printed: Shift+P prints it "
                                 f"again, marked REPRINT")
    return None
