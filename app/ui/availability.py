"""What the dealer may do now, and why not: the offers open (the bank before action, the dragon
after the deal) and the check behind every button, key and tooltip.

Every answer is the core's (`verify_x` / `can_x` on the round) or the table's procedure around
it; nothing here changes the round.
"""

from __future__ import annotations

from app.core.banker import BankError
from app.core.cards import CardError
from app.core.house_way import HouseWayError
from app.core.round import RULE_DEALER_FIRST, RULE_NO_BANKING, Phase, Round
from app.core.settlement import MoneyError
from app.core.table import CARDS_PER_HAND, HANDS, LEFTOVERS, Action, TableError, position_name
from app.ledger import LedgerError
from drivers.action import ActionError

DEALT = HANDS * CARDS_PER_HAND  # 49
DECK_SIZE = DEALT + LEFTOVERS  # 53
DEALER_ERRORS = (TableError, CardError, MoneyError, ActionError, HouseWayError, LedgerError)

ACTIONS = ("new", "wager", "withdraw", "bank", "pass", "co_bank", "rng", "dice", "cards",
           "deal_done", "dragon", "house_way", "help", "front", "settle", "print", "reprint",
           "shoe")


class Availability:
    """The offers open and what may be done.

    Mixed into `DealerController` (app/ui/controller.py): it reads the controller's state
    and uses its plumbing (`_run`, `_do`, `_say`, `_done`).
    """

    # --- the offers: the bank before action, the dragon after the deal ---------------------

    def bank_offered(self) -> int | None:
        """The seat the bank is offered to now, or None (the dealer banks, or it is taken)."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.BETTING:
            return None
        seat = rnd.offer_bank()
        return seat if rnd.can_pass_bank(seat) else None

    def dragon_offered(self) -> int | None:
        """The seat the dragon hand is offered to now, or None."""
        return self.round.offer_dragon() if self.round is not None else None

    def _why_no_bank_offer(self, rnd: Round) -> str:
        if rnd.phase is not Phase.BETTING:
            return (f"the bank is offered while the bets are open; the round is "
                    f"{rnd.phase.value}")
        taken = rnd.bank
        if taken.player is not None:
            return f"seat {taken.player} has the bank this round"
        if not self.rules.banking.enabled:
            return RULE_NO_BANKING
        if rnd.rotation.first_round:
            return RULE_DEALER_FIRST
        return "every seat has passed the bank: the dealer banks this round"

    def _why_no_dragon_offer(self, rnd: Round) -> str:
        if not self.rules.dragon.enabled:
            return "this table plays no dragon hands (table: dragon.enabled)"
        if rnd.phase is not Phase.SETTING:
            return (f"the dragon is offered after the deal, before any hand is set; the round "
                    f"is {rnd.phase.value}")
        if len(rnd.dragons) >= self.rules.dragon.per_round:
            return f"this round's dragon hands are taken ({self.rules.dragon.per_round} a round)"
        if rnd.dragon_hands() and not rnd.dragon_order():
            most = self.rules.dragon.max_per_player
            return (f"every seated player has the dragon hands a player may take here "
                    f"({most} each)")
        if not rnd.dragon_hands():
            return "every hand is in play: there is no unused hand to offer as a dragon"
        if any(h.setting is not None for h in rnd.hands.values()):
            return "the dragon is offered before any hand is set, and a hand is set"
        return "every seated player has been offered the dragon"

    def _verify_no_offer_open(self, what: str) -> None:
        """The bank or the dragon on offer is answered before the round goes on."""
        seat = self.bank_offered()
        if seat is not None:
            raise TableError(f"the bank is offered to seat {seat}: B and the chips to take it, "
                             f"or Q to pass, before {what}")
        seat = self.dragon_offered()
        if seat is not None:
            raise TableError(f"the dragon is offered to seat {seat}: G and the wager to take "
                             f"it, or Q to pass, before {what}")

    # --- what may be done, and why not ---------------------------------------------------

    def why_not(self, action: str) -> str | None:
        try:
            self._verify(action)
        except DEALER_ERRORS as e:
            return str(e)
        return None

    def availability(self) -> dict[str, str | None]:
        return {a: self.why_not(a) for a in ACTIONS}

    def _verify(self, action: str) -> None:
        rnd = self.round
        if action == "new":
            if rnd is not None and rnd.phase is not Phase.SETTLED:
                raise TableError(f"round {rnd.rotation.round_no} is {rnd.phase.value}: settle "
                                 f"it (S) before opening the next")
            if self.ledger is not None and self.ledger.dealer is None:
                raise TableError("no dealer's shift is open: press F3 and type the dealer's "
                                 "name")
            return
        if action == "reprint":
            self._verify_printer()
            assert self.printer is not None
            if self.printer.kept_count:
                return
            if rnd is not None and rnd.slip is not None and self.slip_printed == "printed":
                return
            raise TableError("nothing to reprint: no slip is kept and this round's slip has "
                             "not been printed (P prints it); a past round's slip: F2, "
                             "History, Reprint")
        if action == "shoe":
            if not self.shoe.demo:
                raise TableError("the shoe goes offline by itself when unplugged; this switch "
                                 "is for the demo shoe")
            return
        rnd = self._need_round()
        match action:
            case "wager":
                seat = self._need_position()
                rnd.verify_place_wager(seat, rnd.wagers.get(seat, rnd.rules.limits.minimum))
            case "withdraw":
                rnd.verify_withdraw_wager(self._need_position())
            case "bank" | "co_bank":
                if action == "co_bank" and not self.rules.banking.co_banking:
                    raise BankError("this table does not co-bank (table: "
                                    "player_banking.co_banking)")
                if self.bank_offered() is None:
                    raise BankError(self._why_no_bank_offer(rnd))
            case "pass":
                if self.bank_offered() is None and self.dragon_offered() is None:
                    raise TableError("nothing is on offer: the bank is offered before action, "
                                     "the dragon after the deal")
            case "dragon":
                if self.dragon_offered() is None:
                    raise TableError(self._why_no_dragon_offer(rnd))
            case "rng":
                self._verify_no_offer_open("action")
                device = self.device_action
                rnd.verify_set_action(device.action if device else Action.from_rng(1))
            case "dice":
                self._verify_no_offer_open("action")
                if self.device_action is not None:
                    raise TableError(f"the {self._device_name()} sent this round's action "
                                     f"({self.device_action.action}): R takes it")
                rnd.verify_set_action(Action.from_dice(1, 1, 1))
            case "cards":
                if rnd.phase is not Phase.DEALING:
                    raise TableError(f"cards are entered while the round is dealing, after "
                                     f"action; it is {rnd.phase.value}")
                if self.shoe.online:
                    raise TableError("the shoe is online and reads the cards: enter cards by "
                                     "hand only when it is offline")
                position = self._need_position("position")
                if len(self.dealing().get(position, ())) >= CARDS_PER_HAND:
                    raise TableError(f"{position_name(position)} has its seven cards: select "
                                     f"a position still short of cards")
            case "deal_done":
                if rnd.phase is not Phase.DEALING:
                    raise TableError(f"the deal is complete once dealt; the round is "
                                     f"{rnd.phase.value}")
                if self.manual:
                    raise TableError("cards typed by hand complete the deal by themselves: "
                                     "type every position's seven")
                lost = self.stream[:DEALT].count(None)
                if lost:
                    raise TableError(f"the shoe lost {lost} card(s) of this deal: type each "
                                     f"for its position (C), or call a misdeal")
                read = min(len(self.stream), DEALT)
                if read < DEALT:
                    raise TableError(f"the shoe has read {read} of the {DEALT} cards dealt: "
                                     f"the deal is complete when every hand has its seven")
            case "house_way":
                self._verify_no_offer_open("the hands are set")
                position = self._need_position("position")
                if not rnd.can_ask_house_way(position):  # else: one pile, after the bank
                    rnd.verify_set_hand(position)
            case "help":
                self._verify_no_offer_open("the house shows a hand")
                rnd.verify_show_house_way(self._need_position("position"))
            case "front":
                self._verify_no_offer_open("the hands are set")
                position = self._need_position("position")
                hand = rnd.hands.get(position)
                rnd.verify_set_hand(position, hand.cards[:2] if hand else None)
            case "settle":
                self._verify_no_offer_open("settling")
                rnd.verify_settle()
            case "print":
                if rnd.slip is None:
                    raise TableError("there is no slip yet: settle the round first (S)")
                self._verify_printer()
                if self.slip_printed == "printed":
                    raise TableError(f"round {rnd.slip.round}'s slip is printed: Shift+P prints "
                                     f"it again, marked REPRINT")

    def _verify_printer(self) -> None:
        printer = self.printer
        if printer is None or printer.none:
            raise TableError("no slip printer is set up at this station ([printer] kind = "
                             "\"none\"): read the slip on screen; the ledger keeps it")
        if printer.busy is not None:
            raise TableError("the printer is busy with a slip: wait for it")

    def explain(self, action: str) -> None:
        """The dealer pressed the key of something not allowed now: say why."""
        reason = self.why_not(action)
        if reason is not None:
            self._say(reason, "warn")
        self._done()
