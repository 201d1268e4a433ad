"""The dealer's controller: every button, key and card read goes through here to the core.

The controller holds no rule of the game. It keeps the round (`app.core.round.Round`), asks
it what may be done (`verify_x` / `can_x`) for every button and tooltip, makes the change,
and words the result for the dealer. Errors a dealer can cause (a bad card, a wager under
the minimum, a foul) come back as the core's own sentences, shown on screen; nothing a
dealer does ends in a traceback.

What it adds is the table's procedure around the core: the bank is offered (and answered)
before action, and the dragon after the deal before any hand is set; a seat the core says
may not bank whatever its chips is passed over with the core's reason.

A preview of a front the dealer has picked (is it a foul? what is the penalty?) is the
round's own answer: the round's changes so far are replayed on a shadow round and the set is
tried there.

The ledger and the printer (app/ui/services.py) plug in here: every change the controller
makes to the round is saved to the ledger at once (`_do`), a new round is begun in it, a
round a killed station left in play is taken back (`resume`), and a supervisor may void it
(`void_round`, after the PIN); P prints the slip on a thread and Shift+P reprints (the kept
slips, or this round's again marked REPRINT). `round_settled` carries each slip as it is
made, `round_opened` each new round; `devices()` and `banner()` are the status bar.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.banker import BankError, BankRotation
from app.core.cards import DECK, Card, CardError, cards_text, parse_cards
from app.core.house_way import HouseWayError
from app.core.round import (
    RULE_DEALER_FIRST,
    RULE_NO_BANKING,
    ActionCounted,
    BankPassed,
    DragonSetting,
    DragonWager,
    HandSet,
    Phase,
    Round,
    RoundRules,
)
from app.core.settlement import MoneyError, Role, Slip, money, parse_money
from app.core.table import (
    CARDS_PER_HAND,
    DEALER,
    HANDS,
    LEFTOVERS,
    Action,
    ActionSource,
    DealMode,
    Misdeal,
    Table,
    TableError,
    position_name,
)
from app.ledger import LedgerError, Recording
from drivers.action import ActionError, ActionInput, Origin, dice, draw_rng
from drivers.printer import PrintResult, ReprintResult

from . import present
from .present import Device, ScreenState
from .services import Ledger, Printer, PrintJob
from .shoe import ShoeFeed

DEALT = HANDS * CARDS_PER_HAND  # 49
DECK_SIZE = DEALT + LEFTOVERS  # 53
DEALER_ERRORS = (TableError, CardError, MoneyError, ActionError, HouseWayError, LedgerError)

ACTIONS = ("new", "wager", "withdraw", "bank", "pass", "co_bank", "rng", "dice", "cards",
           "deal_done", "dragon", "house_way", "front", "settle", "print", "reprint", "shoe")
POLL_MS = 1000  # the status bar looks at the printer and the ledger this often


def action_input_of(counted: ActionCounted) -> ActionInput:
    """Where a recorded action came from (a round taken back from the ledger)."""
    action = counted.action
    if action.drawn_by == "device":
        return ActionInput(action, Origin.DEVICE)
    if action.source is ActionSource.DICE:
        return ActionInput(action, Origin.DEALER)
    return ActionInput(action, Origin.STATION_RNG)


class DealerController(QObject):
    changed = Signal()
    round_opened = Signal(object)  # the new Round
    round_settled = Signal(object)  # the Slip, the moment the round is settled

    def __init__(self, rules: RoundRules | None = None, shoe: ShoeFeed | None = None, *,
                 rotation: BankRotation | None = None,
                 randbelow: Callable[[int], int] = secrets.randbelow,
                 hide_bank: bool = True, ledger: Ledger | None = None,
                 printer: Printer | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rules = rules or RoundRules()
        self.shoe = shoe or ShoeFeed()
        self.randbelow = randbelow
        self.hide_bank = hide_bank
        self.ledger = ledger
        self.printer = printer
        if rotation is None and ledger is not None:
            rotation = ledger.store.rotation()  # what the table remembers
        self.rotation = rotation or BankRotation()
        self.round: Round | None = None
        self.recording: Recording | None = None  # the round as the ledger records it
        self.slip_printed: str | None = None  # this round's slip: "printed" or "kept"
        self._ledger_error: str | None = None
        self._closed = False
        self._opened_with = self.rotation
        self._logged = 0
        self.selected: int | None = None
        self.picks: list[Card] = []
        self.preview: HandSet | None = None
        self.preview_error: str | None = None
        self.stream: list[Card] = []
        self.manual: dict[int, list[Card]] = {}
        self.leftovers: tuple[Card, ...] | None = None
        self.action_input: ActionInput | None = None  # the round's action and its source
        self.device_action: ActionInput | None = None  # sent by the shoe, not yet taken
        self.co_bank = False
        self._passed_over: dict[int, str] = {}  # seats passed over for the bank, and why
        self._notes: list[str] = []  # log lines after the round's own records
        self.message = "Press N to open a round."
        self.level = "info"
        self.log: list[str] = []
        self.fields: dict[str, str] = {}
        self.shoe.card_read.connect(self.on_card)
        self.shoe.leftovers_read.connect(self.on_leftovers)
        self.shoe.action_read.connect(self.on_action_read)
        self.shoe.shuffled.connect(self.on_shuffled)
        self.shoe.status_changed.connect(self.on_shoe_status)
        self.shoe.fault.connect(self.on_shoe_fault)
        if self.printer is not None:
            self.printer.finished.connect(self.on_printed)
        self._shown_devices: tuple[tuple[Device, ...], str | None] | None = None
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self.poll_devices)
        if self.printer is not None or self.ledger is not None:
            self._poll.start()

    # --- plumbing ----------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.rules.table

    def _say(self, text: str, level: str = "info") -> None:
        self.message, self.level = text, level

    def _done(self) -> None:
        if self._ledger_error is not None:  # said last: no step's own words hide it
            self._say(self._ledger_error, "error")
            self._ledger_error = None
        if self.round is not None:
            for record in self.round.log[self._logged:]:
                text = present.record_text(record)
                if isinstance(record, BankPassed) and record.seat in self._passed_over:
                    text += f" (passed over: {self._passed_over[record.seat]})"
                self.log.append(text)
            self._logged = len(self.round.log)
        self.log.extend(self._notes)
        self._notes.clear()
        self.changed.emit()

    def _run(self, step: Callable[[], None]) -> bool:
        """Run a dealer's step; a mistake the dealer can make is shown, never raised."""
        try:
            step()
        except DEALER_ERRORS as e:
            self._say(str(e), "error")
            self._done()
            return False
        self._done()
        return True

    def _do(self, method: str, *args: Any) -> Any:
        """Change the round, and save the change to the ledger at once (a misdeal too)."""
        assert self.round is not None
        try:
            return getattr(self.round, method)(*args)
        finally:
            self._save()

    def _save(self) -> None:
        """Write the round's new records to the ledger (the station's journal first: on
        disk before this returns). A refusal is shown; the round goes on."""
        if self.recording is None:
            return
        try:
            self.recording.save()
        except LedgerError as e:
            self._notes.append(f"Ledger: {e}")
            self._ledger_error = (f"The ledger did not take this change ({e}). Call a "
                                  f"supervisor; the round goes on.")

    def _dry(self, method: str, *args: Any) -> Any:
        """What the round would answer to a change, without making it (on a copy; the 53
        cards are shared, never copied: a card is itself, not equal to another)."""
        return getattr(copy.deepcopy(self.round, {id(c): c for c in DECK}), method)(*args)

    def _need_round(self) -> Round:
        if self.round is None:
            raise TableError("no round is open: press N to open one")
        return self.round

    def _need_position(self, what: str = "seat") -> int:
        if self.selected is None:
            raise TableError(f"select a {what} first: keys 1-6 for the seats, 7 for the dealer")
        return self.selected

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

    def _pass_over_bank(self) -> None:
        """Pass the offer over seats the core says may not bank, whatever their chips."""
        rnd = self.round
        while rnd is not None and (seat := self.bank_offered()) is not None:
            could, reasons, _ = present.bank_standing(rnd, seat)
            if could:
                return
            self._passed_over[seat] = reasons
            self._do("pass_bank", seat)

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
                read = min(len(self.stream), DEALT)
                if read < DEALT:
                    raise TableError(f"the shoe has read {read} of the {DEALT} cards dealt: "
                                     f"the deal is complete when every hand has its seven")
            case "house_way":
                self._verify_no_offer_open("the hands are set")
                rnd.verify_set_hand(self._need_position("position"))
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

    # --- the dealer's steps ----------------------------------------------------------------

    def new_round(self) -> bool:
        def step() -> None:
            self._verify("new")
            rotation = self.round.next_rotation() if self.round is not None else self.rotation
            game = Round(self.rules, rotation)
            self.recording = self.ledger.begin(game) if self.ledger is not None else None
            self.round = game
            self.slip_printed = None
            self._opened_with = rotation
            self._logged = 0
            self._passed_over = {}
            self.action_input, self.co_bank = None, False
            self._clear_deal()
            self.log.append(f"--- round {rotation.round_no} opened ---")
            self._pass_over_bank()
            offered = self.bank_offered()
            self.select(offered or 1, quiet=True)
            opened = f"Round {rotation.round_no} is open"
            if offered is not None:
                self._say(f"{opened}. {self._bank_offer_words(offered)}", "ok")
            else:
                why = self._why_no_bank_offer(self.round)
                self._say(f"{opened} ({why}): select a seat (1-6), press W, type the wager "
                          f"and Enter.", "ok")
            self.round_opened.emit(self.round)
        return self._run(step)

    def _bank_offer_words(self, seat: int) -> str:
        return (f"The bank is offered to seat {seat}: B and the chips on the table to take it "
                f"(they cover every wager against it), Q to pass.")

    def select(self, position: int, quiet: bool = False) -> bool:
        def step() -> None:
            self.table.verify_position(position)
            if position != self.selected:
                self.picks, self.preview, self.preview_error = [], None, None
                self.fields["front"] = ""
            self.selected = position
        if quiet:
            step()
            return True
        return self._run(step)

    def select_step(self, by: int) -> bool:
        start = self.selected if self.selected is not None else DEALER
        return self.select(self.table.step(start, by))

    def place_wager(self, text: str) -> bool:
        def step() -> None:
            rnd = self._need_round()
            seat = self._need_position()
            if not text.strip():
                raise MoneyError("type the wager in dollars (e.g. 25 or 25.50), then Enter")
            cents = parse_money(text)
            self._do("place_wager", seat, cents)
            nxt = self.table.step(seat)
            while nxt in (DEALER, rnd.bank.player):
                nxt = self.table.step(nxt)
            self.select(nxt, quiet=True)
            self._say(f"{present.name(seat)} wagers {money(cents)}. Next seat selected; "
                      f"action with {self._action_key(rnd)} when the wagers are in.", "ok")
        return self._run(step)

    def _action_key(self, rnd: Round) -> str:
        if self.device_action is not None:
            return f"R (the {self._device_name()}'s {self.device_action.action})"
        return "R (RNG)" if rnd.table.action_source is ActionSource.RNG else "D (dice)"

    def withdraw_wager(self) -> bool:
        def step() -> None:
            self._need_round()
            seat = self._need_position()
            record = self._do("withdraw_wager", seat)
            self._say(f"{present.name(seat)} takes back {money(record.wager)}.", "ok")
        return self._run(step)

    # --- the bank ---------------------------------------------------------------------------

    def take_bank(self, text: str) -> bool:
        """The seat offered the bank takes it with the chips typed (dollars)."""
        def step() -> None:
            rnd = self._need_round()
            self._verify("bank")
            seat = self.bank_offered()
            assert seat is not None
            if not text.strip():
                raise MoneyError(f"type the chips seat {seat} puts up as the bank, in dollars "
                                 f"(e.g. 500), then Enter")
            record = self._do("take_bank", seat, parse_money(text), self.co_bank)
            co = " with the house co-banking half" if record.co_bank else ""
            dealer = (f"; the dealer plays a hand against it for {money(record.dealer_wager)}"
                      if not record.co_bank else "")
            nxt = self.table.step(seat)
            while nxt in (DEALER, seat):
                nxt = self.table.step(nxt)
            self.select(nxt, quiet=True)
            self._say(f"Seat {seat} banks with {money(record.chips or 0)}{co}{dealer}. "
                      f"Wagers against the bank: select a seat, W, the wager, Enter; then "
                      f"{self._action_key(rnd)} counts action from seat {seat}.", "ok")
        return self._run(step)

    def toggle_co_bank(self) -> bool:
        def step() -> None:
            self._verify("co_bank")
            self.co_bank = not self.co_bank
            self._say("Co-banking: the house covers half of the player's bank and shares its "
                      "result." if self.co_bank else "Co-banking off: the player banks alone.",
                      "info")
        return self._run(step)

    def pass_offer(self) -> bool:
        """The seat offered the bank (before action) or the dragon (after the deal) passes."""
        def step() -> None:
            rnd = self._need_round()
            self._verify("pass")
            bank = self.bank_offered()
            if bank is not None:
                self._do("pass_bank", bank)
                self._pass_over_bank()
                nxt = self.bank_offered()
                if nxt is not None:
                    self.select(nxt, quiet=True)
                    self._say(f"Seat {bank} passes. {self._bank_offer_words(nxt)}", "ok")
                else:
                    self._say(f"Seat {bank} passes: the bank has come round to the dealer, who "
                              f"banks this round. Wagers, then {self._action_key(rnd)}.", "ok")
                return
            seat = self.dragon_offered()
            assert seat is not None
            self._do("pass_dragon", seat)
            self._after_dragon(f"Seat {seat} passes the dragon.")
        return self._run(step)

    def pass_all(self) -> bool:
        """Everyone still to be asked passes (the bank: the dealer banks; the dragon: the
        unused hands are mucked), each pass recorded seat by seat."""
        def step() -> None:
            rnd = self._need_round()
            self._verify("pass")
            passed: list[int] = []
            if self.bank_offered() is not None:
                while (seat := self.bank_offered()) is not None:
                    self._do("pass_bank", seat)
                    passed.append(seat)
                    self._pass_over_bank()
                self._say(f"{self._seats_words(passed)} the bank: it has come round to the "
                          f"dealer, who banks this round. Wagers, then "
                          f"{self._action_key(rnd)}.", "ok")
                return
            while (seat := self.dragon_offered()) is not None:
                self._do("pass_dragon", seat)
                passed.append(seat)
            self._after_dragon(f"{self._seats_words(passed)} the dragon.")
        return self._run(step)

    @staticmethod
    def _seats_words(seats: list[int]) -> str:
        if len(seats) == 1:
            return f"Seat {seats[0]} passes"
        return "Seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]} pass"

    # --- action -----------------------------------------------------------------------------

    def _device_name(self) -> str:
        inp = self.device_action or self.action_input
        return self._device_name_of(inp) if inp is not None else "shuffler"

    def rng_action(self) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("action")
            device = self.device_action
            if device is not None:
                try:
                    self._action(device)
                except TableError as e:
                    self.device_action = None
                    raise TableError(f"The {self._device_name_of(device)}'s action "
                                     f"({device.action}) cannot be used: {e}. It is dropped: "
                                     f"take action again.") from None
                return
            self._action(draw_rng(self.randbelow))
        return self._run(step)

    @staticmethod
    def _device_name_of(inp: ActionInput) -> str:
        return "dice shaker" if inp.action.source is ActionSource.DICE else "shuffler"

    def dice_action(self, text: str) -> bool:
        def step() -> None:
            self._need_round()
            self._verify("dice")
            self._action(dice(text))
        return self._run(step)

    def _action(self, inp: ActionInput) -> None:
        record = self._do("set_action", inp.action)
        self.action_input, self.device_action = inp, None
        self.manual = {}
        self.select(record.position, quiet=True)
        where = position_name(record.position)
        source = f" from the {inp.source}" if inp.origin is Origin.DEVICE else ""
        counted = f" counted from {position_name(record.bank)}" if record.bank != DEALER else ""
        if self.shoe.online:
            self._say(f"Action: {inp.action}{source} -> {where}{counted}. Deal: the cards "
                      f"appear as the shoe reads them.", "ok")
            self.shoe.start_deal()
        else:
            self._say(f"Action: {inp.action}{source} -> {where}{counted}. The shoe is offline: "
                      f"press C and type {where}'s seven cards, then each next position.",
                      "warn")
        if inp.origin is Origin.DEVICE:
            self._notes.append(f"Action {inp.action} sent by the {inp.source}")
        self._try_finish()

    def on_action_read(self, inp: ActionInput) -> None:
        """ACTION from a shuffler or dice shaker: the round's action, unless the dealer has
        already taken one. Before the wagers are in it waits, and R takes it."""
        rnd = self.round
        device = self._device_name_of(inp)
        sent = f"The {device} sent action {inp.action} ({inp.source})"
        if rnd is not None and rnd.action is not None and rnd.phase is not Phase.SETTLED:
            taken = self.action_input
            who = ("the dealer" if taken is None or taken.origin is not Origin.DEVICE
                   else f"the {taken.source}")
            self._say(f"{sent}, but this round's action is already {rnd.action.action} -> "
                      f"{position_name(rnd.action.position)}, taken by {who}: the "
                      f"{device}'s number is not used.", "warn")
            self._notes.append(f"{sent}: not used, action already taken")
            self._done()
            return
        self.device_action = inp
        if rnd is None or rnd.phase is Phase.SETTLED:
            self._say(f"{sent} for the next round: N opens it; it is taken as the action when "
                      f"the wagers are in (R).", "info")
            self._done()
            return
        if rnd.wagers and self.bank_offered() is None:
            try:
                self._action(inp)
            except DEALER_ERRORS as e:
                self.device_action = None
                self._say(f"{sent}: it cannot be used ({e}); take action by hand.", "error")
            self._done()
            return
        wait = ("the bank is answered and the wagers are in" if self.bank_offered() is not None
                else "the wagers are in")
        self._say(f"{sent}: it is this round's action. R takes it when {wait}.", "info")
        self._done()

    # --- the deal ---------------------------------------------------------------------------

    def enter_cards(self, text: str) -> bool:
        def step() -> None:
            self._verify("cards")
            position = self._need_position("position")
            cards = parse_cards(text)
            if not cards:
                raise CardError("type the cards, e.g. AS KD 10H 7C 7D 2S JK, then Enter")
            have = self.dealing()
            for c in cards:
                for p, held in have.items():
                    if c in held:
                        raise CardError(f"{c} is already dealt to {position_name(p)}: each "
                                        f"card is in the deck once; check the card and type "
                                        f"it again")
            mine = have.get(position, [])
            if len(mine) + len(cards) > CARDS_PER_HAND:
                raise CardError(f"{position_name(position)} has {len(mine)} card(s) and a "
                                f"hand is {CARDS_PER_HAND}: {cards_text(cards)} is "
                                f"{len(cards)} too many by {len(mine) + len(cards) - 7}")
            self.manual.setdefault(position, []).extend(cards)
            self._say(f"{present.name(position)}: {cards_text(cards)}", "ok")
            if len(mine) + len(cards) == CARDS_PER_HAND:
                self._select_next_short(position)
            self._try_finish()
        return self._run(step)

    def _select_next_short(self, after: int) -> None:
        have = self.dealing()
        for p in self.table.around(self.table.step(after)):
            if len(have.get(p, ())) < CARDS_PER_HAND:
                self.select(p, quiet=True)
                return

    def deal_complete(self) -> bool:
        """The shoe read the 49 cards dealt and will not read the 4 left over (no BURN): the
        deal is taken as it is and the leftovers are worked out as the cards not dealt."""
        def step() -> None:
            self._verify("deal_done")
            self._try_finish(complete=True)
        return self._run(step)

    # --- the dragon -------------------------------------------------------------------------

    def dragon_suggestion(self) -> str:
        """The wager to put in the dragon field: the main wager of the seat offered."""
        rnd, seat = self.round, self.dragon_offered()
        if rnd is None or seat is None:
            return ""
        return f"{rnd.wagers[seat] / 100:.2f}"

    def take_dragon(self, text: str) -> bool:
        def step() -> None:
            self._need_round()
            self._verify("dragon")
            seat = self.dragon_offered()
            assert seat is not None
            if not text.strip():
                raise MoneyError(f"type seat {seat}'s dragon wager in dollars, then Enter")
            record = self._do("take_dragon", seat, parse_money(text))
            how = ("it is set the House Way at settlement"
                   if self.rules.dragon.setting is DragonSetting.HOUSE_WAY
                   else "the player sets it")
            self._after_dragon(f"Seat {seat} takes {position_name(record.position)}'s hand as "
                               f"a dragon for {money(record.wager)}: {how}.")
        return self._run(step)

    def _after_dragon(self, said: str) -> None:
        nxt = self.dragon_offered()
        if nxt is not None:
            self.select(nxt, quiet=True)
            self._say(f"{said} {self._dragon_offer_words(nxt)}", "ok")
            return
        self._after_set()
        self._say(f"{said} The dragon offer is over; the unused hands are mucked. Set each "
                  f"hand: click the two front cards and F, or H for the House Way.", "ok")

    def _dragon_offer_words(self, seat: int) -> str:
        rnd = self.round
        assert rnd is not None
        where = position_name(rnd.dragon_hands()[0])
        main = money(rnd.wagers[seat])
        if self.rules.dragon.wager is DragonWager.EQUAL:
            wager = f"its wager is the main wager, {main}"
        else:
            wager = f"a wager of {money(self.rules.limits.minimum)} up to the main {main}"
        return (f"The dragon ({where}'s unused hand) is offered to seat {seat}, {wager}: "
                f"G and Enter to take it, Q to pass.")

    # --- setting the hands ------------------------------------------------------------------

    def house_way(self) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("the hands are set")
            position = self._need_position("position")
            record = self._do("house_way", position)
            hand = record.hand
            self._say(f"{present.name(position)} set the House Way, rule {hand.rule}: "
                      f"{hand.rule_says}", "ok")
            self._after_set()
        return self._run(step)

    def pick_card(self, position: int, card: Card) -> bool:
        def step() -> None:
            rnd = self._need_round()
            if rnd.phase is not Phase.SETTING:
                raise TableError(f"cards are picked for the front while hands are set; the "
                                 f"round is {rnd.phase.value}")
            self._verify_no_offer_open("the hands are set")
            if position != self.selected:
                self.select(position, quiet=True)
            rnd.verify_set_hand(position, [card])
            if card in self.picks:
                self.picks.remove(card)
            else:
                self.picks.append(card)
                if len(self.picks) > 2:
                    self.picks.pop(0)
            self.fields["front"] = cards_text(self.picks)
            self._update_preview(position)
        return self._run(step)

    def type_front(self, text: str) -> None:
        """The front field changed: pick the cards it names (and preview them)."""
        self.fields["front"] = text
        if self.round is None or self.selected is None or self.round.phase is not Phase.SETTING:
            return
        try:
            cards = list(parse_cards(text))
        except CardError as e:
            self.picks, self.preview, self.preview_error = [], None, str(e)
        else:
            self.picks = cards[:2]
            self._update_preview(self.selected)
        self._done()

    def _update_preview(self, position: int) -> None:
        self.preview, self.preview_error = None, None
        if len(self.picks) != 2:
            return
        try:
            self.preview = self._dry("set_hand", position, list(self.picks))
        except DEALER_ERRORS as e:
            self.preview_error = str(e)
        if self.preview is not None and self.preview.hand.foul:
            self._say(f"{present.name(position)}: if set, " + present.foul_words(
                self.preview.hand), "warn")
        elif self.preview is not None:
            self._say(f"{present.name(position)}: {cards_text(self.picks)} in front is legal; "
                      f"press F to set it.", "info")

    def set_front(self, text: str | None = None) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("the hands are set")
            position = self._need_position("position")
            if text is not None and text.strip():
                front = list(parse_cards(text, count=2))
            else:
                front = list(self.picks)
            if len(front) != 2:
                raise CardError("click the two cards the player put in front (or press F and "
                                "type them, e.g. KS 9H), then F")
            record = self._do("set_hand", position, front)
            hand = record.hand
            if hand.foul:
                self._say(f"{present.name(position)}: {present.foul_words(hand)}", "error")
            else:
                self._say(f"{present.name(position)}: {cards_text(hand.setting.low)} in front, "
                          f"{cards_text(hand.setting.high)} behind.", "ok")
            self._after_set()
        return self._run(step)

    def _to_set(self) -> list[int]:
        """Positions whose hands the dealer may set now, in order from action; a dragon
        the House Way sets at settlement is not waited for."""
        rnd = self.round
        if rnd is None:
            return []
        house_way = self.rules.dragon.setting is DragonSetting.HOUSE_WAY
        return [p for p in rnd.pending() if rnd.can_set_hand(p)
                and not (house_way and rnd.hands[p].role is Role.DRAGON)]

    def _after_set(self) -> None:
        self.picks, self.preview, self.preview_error = [], None, None
        self.fields["front"] = ""
        waiting = self._to_set()
        if waiting:
            self.select(waiting[0], quiet=True)

    # --- settling ---------------------------------------------------------------------------

    def settle(self) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("settling")
            slip: Slip = self._do("settle")
            self.selected = None
            self.picks = []
            t = slip.totals
            bank = slip.bank
            banker = ""
            if bank.player is not None:
                banker = (f" Banker seat {bank.player} nets {money(bank.net, sign=True)}"
                          + (" - the bank ran out." if bank.exhausted else "."))
            printer = self.printer is not None and not self.printer.none
            then = "P prints the slip; N opens the next round." if printer else \
                "N opens the next round."
            self._say(f"Settled from {position_name(slip.action_position)}: players net "
                      f"{money(t.players_net, sign=True)}, commission {money(t.commission)}, "
                      f"house net {money(t.house_net, sign=True)}.{banker} {then}", "ok")
            self.round_settled.emit(slip)
        return self._run(step)

    def print_slip(self) -> bool:
        """P: print this round's slip (a slip kept by a printer failure: the kept slips)."""
        def step() -> None:
            self._verify("print")
            rnd, printer = self.round, self.printer
            assert rnd is not None and rnd.slip is not None and printer is not None
            if self.slip_printed == "kept":
                printer.reprint_kept()
            else:
                printer.print_slip(rnd.slip, PrintJob("slip", rnd.slip.table, rnd.slip.round))
            self._say(f"Printing round {rnd.slip.round}'s slip...", "info")
        return self._run(step)

    def reprint(self) -> bool:
        """Shift+P: print the kept slips (oldest first); with none kept, this round's slip
        again, marked REPRINT."""
        def step() -> None:
            self._verify("reprint")
            printer, rnd = self.printer, self.round
            assert printer is not None
            if printer.kept_count:
                printer.reprint_kept()
                self._say(f"Printing the {printer.kept_count} kept slip(s)...", "info")
                return
            assert rnd is not None and rnd.slip is not None
            printer.print_slip(rnd.slip, PrintJob("duplicate", rnd.slip.table, rnd.slip.round))
            self._say(f"Printing round {rnd.slip.round}'s slip again, marked REPRINT...", "info")
        return self._run(step)

    def reprint_past(self, slip: dict[str, Any], round_id: str) -> bool:
        """A past round's slip from the ledger, printed again marked REPRINT (the pit)."""
        def step() -> None:
            self._verify_printer()
            assert self.printer is not None
            job = PrintJob("duplicate", str(slip.get("table", "")), int(slip.get("round", 0)),
                           round_id)
            self.printer.print_slip(slip, job)
            self._say(f"Printing round {job.round}'s slip again from the ledger, marked "
                      f"REPRINT...", "info")
        return self._run(step)

    def on_printed(self, job: PrintJob, result: object) -> None:
        rnd = self.round
        current = (rnd is not None and rnd.slip is not None and job.round_id is None
                   and (job.table, job.round) == (rnd.slip.table, rnd.slip.round))
        if isinstance(result, PrintResult):
            if result.printed:
                text = (f"Round {result.round}'s slip printed"
                        + (" again, marked REPRINT." if job.kind == "duplicate" else "."))
                if current:
                    self.slip_printed = "printed"
                self._say(" ".join([text, result.message]).strip(),
                          "warn" if result.message else "ok")
            else:
                if current and result.kept is not None and job.kind == "slip":
                    self.slip_printed = "kept"
                self._say(result.message, "error")
            self._notes.append(f"Printer: round {result.round} "
                               + ("printed" if result.printed else "not printed, kept"
                                  if result.kept else "not printed"))
        elif isinstance(result, ReprintResult):
            if rnd is not None and rnd.slip is not None and any(
                    (k.table, k.round) == (rnd.slip.table, rnd.slip.round)
                    for k in result.printed):
                self.slip_printed = "printed"
            self._say(result.message, "error" if result.problem or result.left else "ok")
            if result.printed:
                self._notes.append(f"Printer: {len(result.printed)} kept slip(s) printed")
        else:
            self._say(f"The slip could not be printed ({result}). It is in the ledger: "
                      f"reprint it from there (F2, History).", "error")
        self._done()

    # --- the ledger: the shift, a round taken back, a round voided ----------------------

    def open_shift(self, dealer: str) -> bool:
        """F3: the dealer at the table (a new shift in the ledger)."""
        def step() -> None:
            if self.ledger is None:
                raise TableError("this station keeps no ledger: there is no shift to open")
            name = self.ledger.open_shift(dealer)
            self._notes.append(f"Shift opened: dealer {name}")
            more = " Press N to open a round." if self.round is None or \
                self.round.phase is Phase.SETTLED else ""
            self._say(f"{name}'s shift is open: every round is recorded under it.{more}", "ok")
        return self._run(step)

    def resume(self, rec: Recording) -> None:
        """The round a stopped station had in play, as the ledger rebuilt it: every wager,
        the bank, action, the cards and the settings are back; the dealer carries on."""
        game = rec.game
        self.round, self.recording = game, rec
        self.slip_printed = None
        self._opened_with = game.rotation
        self._logged, self._passed_over, self.co_bank = 0, {}, False
        self.action_input = action_input_of(game.action) if game.action is not None else None
        self.device_action = None
        self._clear_deal()
        self.log.append(f"--- round {game.rotation.round_no} taken back from the ledger ---")
        resumed = (f"Round {game.rotation.round_no} is taken back as it was when the station "
                   f"stopped: every wager, card and setting is as recorded.")
        match game.phase:
            case Phase.BETTING:
                self._pass_over_bank()
                offered = self.bank_offered()
                self.select(offered or 1, quiet=True)
                self._say(f"{resumed} {self.next_step().removeprefix('Next: ')}", "warn")
            case Phase.DEALING:
                assert game.action is not None
                self.select(game.action.position, quiet=True)
                if self.shoe.online and self.shoe.demo:
                    self.shoe.start_deal()
                    how = "the demo shoe deals again."
                elif self.shoe.online:
                    how = ("the cards read before it stopped are not kept: run the seven hands "
                           "through the shoe again, or a supervisor voids the round (F2).")
                else:
                    how = "type each position's seven cards (C)."
                self._say(f"{resumed} The deal was under way: {how}", "warn")
            case Phase.SETTING:
                offered = self.dragon_offered()
                if offered is not None:
                    self.select(offered, quiet=True)
                else:
                    self._after_set()
                self._say(f"{resumed} {self.next_step().removeprefix('Next: ')}", "warn")
            case _:
                self._say(f"{resumed} {self.next_step().removeprefix('Next: ')}", "warn")
        self._done()

    def void_round(self, reason: str, by: str) -> bool:
        """The supervisor voids the round in play (after the PIN): it stays in the ledger as
        void, with who and why; the next round starts from the same rotation."""
        def step() -> None:
            rnd = self._need_round()
            if rnd.phase is Phase.SETTLED:
                raise TableError(f"round {rnd.rotation.round_no} is settled: it cannot be "
                                 f"voided; correct a settlement instead")
            if not reason.strip() or not by.strip():
                raise TableError("a void says why and who voids the round")
            if self.recording is not None:
                self.recording.void(reason.strip(), by=by.strip())
            self.shoe.stop_deal()
            self._clear_deal()
            self.rotation = self._opened_with
            self.round, self.recording, self.selected = None, None, None
            self.action_input, self.device_action, self.co_bank = None, None, False
            self.log.append(f"--- round {rnd.rotation.round_no} VOID by {by.strip()}: "
                            f"{reason.strip()} ---")
            self._say(f"Round {rnd.rotation.round_no} is void ({by.strip()}: {reason.strip()}). "
                      f"The wagers go back to the players. N opens a new round.", "warn")
        return self._run(step)

    def poll_devices(self) -> None:
        """The printer and the ledger change by themselves: redraw when the status bar
        would show something else."""
        if self.printer is not None:
            self.printer.refresh()
        shown = (self.devices(), self.banner())
        if shown != self._shown_devices:
            self._done()

    def toggle_shoe(self) -> bool:
        def step() -> None:
            self._verify("shoe")
            going = not self.shoe.online
            self.shoe.set_online(going)
            if going:
                self._say("The demo shoe is plugged back in: it deals the next deal.", "info")
            else:
                self._say("The demo shoe is unplugged: cards are entered by hand (C).", "warn")
        return self._run(step)

    # --- the shoe ------------------------------------------------------------------------

    def dealing(self) -> dict[int, list[Card]]:
        """The cards each position has so far in this deal, read or typed."""
        out: dict[int, list[Card]] = {}
        rnd = self.round
        if rnd is not None and rnd.action is not None and rnd.phase is Phase.DEALING:
            for i, c in enumerate(self.stream[:DEALT]):
                p = rnd.table.position_of_card(rnd.action.position, i)
                if p is not None:
                    out.setdefault(p, []).append(c)
        for p, cards in self.manual.items():
            out.setdefault(p, []).extend(cards)
        return out

    def on_card(self, c: Card) -> None:
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED):
            self._say(f"The shoe read {c} with no deal open: the card is not used.", "warn")
            self._done()
            return
        self.stream.append(c)
        self._run(self._try_finish)

    def on_leftovers(self, cards: tuple[Card, ...]) -> None:
        self.leftovers = cards
        self._run(self._try_finish)

    def on_shuffled(self) -> None:
        """A new deck: the cards read before it and a device's action for it are void."""
        rnd = self.round
        void = len(self.stream)
        self.stream, self.leftovers, self.device_action = [], None, None
        if rnd is not None and rnd.phase is Phase.DEALING and void:
            self._say(f"The shoe started a new shuffle: the {void} card(s) read are void; the "
                      f"deal starts again from the new deck.", "warn")
        self._done()

    def on_shoe_status(self) -> None:
        self._done()

    def on_shoe_fault(self, text: str) -> None:
        self._say(text, "warn")
        self._done()

    def _try_finish(self, complete: bool = False) -> None:
        """Hand the deal to the round as soon as it is whole (or the dealer says it is: the
        leftovers not read are worked out); a misdeal is shown."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.DEALING:
            return
        try:
            if not self.manual and (len(self.stream) >= DECK_SIZE or (
                    len(self.stream) >= DEALT and (self.leftovers is not None or complete))):
                cards = self.stream[:DECK_SIZE]
                rest: list[Card] | None = (list(self.leftovers) if self.leftovers is not None
                                           else cards[DEALT:] or None)
                if rnd.table.deal_mode is DealMode.STACKS:
                    stacks = [cards[i:i + CARDS_PER_HAND] for i in range(0, DEALT,
                                                                         CARDS_PER_HAND)]
                    self._do("deal_stacks", stacks, rest)
                else:
                    self._do("deal_one_at_a_time", cards[:DEALT] + (rest or []))
            elif self.manual:
                hands = self.dealing()
                if len(hands) < HANDS or any(len(h) < CARDS_PER_HAND for h in hands.values()):
                    return
                rest_read = self.stream[DEALT:DECK_SIZE] if len(self.stream) >= DECK_SIZE \
                    else self.leftovers
                self._do("deal_by_position", hands, list(rest_read) if rest_read else None)
            else:
                return
        except Misdeal as misdeal:
            self.shoe.stop_deal()
            self._clear_deal()
            raise TableError(f"{misdeal} Take action again ({self._action_key(rnd)}).") \
                from None
        self.shoe.stop_deal()
        self._after_deal()

    def _after_deal(self) -> None:
        rnd = self.round
        assert rnd is not None and rnd.action is not None and rnd.deal is not None
        counted = "" if rnd.deal.leftovers_counted else (
            f" The 4 left over were not read: they are the cards not dealt, "
            f"{cards_text(rnd.deal.leftovers)}.")
        offered = self.dragon_offered()
        if offered is not None:
            self.select(offered, quiet=True)
            self._say(f"All seven hands are in, from {position_name(rnd.action.position)}."
                      f"{counted} {self._dragon_offer_words(offered)}", "ok")
            return
        self._say(f"All seven hands are in, from {position_name(rnd.action.position)}."
                  f"{counted} Set each hand: click the two front cards and F, or H for the "
                  f"House Way.", "ok")
        self._after_set()

    def _clear_deal(self) -> None:
        self.stream, self.manual, self.leftovers = [], {}, None
        self.picks, self.preview, self.preview_error = [], None, None
        self.fields["front"] = ""

    # --- the screen ----------------------------------------------------------------------

    def state(self) -> ScreenState:
        rnd = self.round
        dealing = self.dealing()
        bank_offer, dragon_offer = self.bank_offered(), self.dragon_offered()
        seats = {p: present.seat_state(rnd, p, dealing=dealing, selected=self.selected,
                                        picked=self.picks, preview=self.preview,
                                        preview_error=self.preview_error,
                                        hide_bank=self.hide_bank, bank_offer=bank_offer,
                                        dragon_offer=dragon_offer,
                                        passed_over=self._passed_over)
                 for p in self.table.positions}
        slip = present.slip_state(rnd.slip) if rnd is not None and rnd.slip else None
        phase = present.PHASE_WORDS[rnd.phase if rnd else None]
        title = f"Round {rnd.rotation.round_no}: {phase}" if rnd else phase
        selected = (f"Selected: {position_name(self.selected)}" if self.selected is not None
                    else "Selected: none (1-6 seats, 7 dealer)")
        manual = (f"cards for {position_name(self.selected)}" if self.selected is not None
                  else "cards")
        labels: dict[str, str] = {}
        if self.device_action is not None:
            labels["rng"] = f"{self._device_name().capitalize()}'s action"
        if self.co_bank:
            labels["co_bank"] = "Co-bank: ON"
        fields = dict(self.fields)
        if rnd is not None and bank_offer is not None:
            fields["bank_hint"] = f"seat {bank_offer}'s chips, e.g. 500"
        devices, banner = self.devices(), self.banner()
        self._shown_devices = (devices, banner)
        if rnd is not None and dragon_offer is not None:
            main = money(rnd.wagers[dragon_offer])
            fields["dragon_hint"] = (f"seat {dragon_offer}: {main}"
                                     if self.rules.dragon.wager is DragonWager.EQUAL
                                     else f"seat {dragon_offer}: up to {main}")
        return ScreenState(
            seats=seats,
            center=present.center_state(rnd, self.table, self.action_input,
                                        self.device_action, bank_offer),
            phase=title, next_step=self.next_step(), selected=selected,
            availability=self.availability(), message=self.message, level=self.level,
            log=tuple(self.log), slip=slip, devices=devices, banner=banner,
            slip_printed=self._slip_printed_words(),
            table_info=self.table_info(), manual_target=manual, fields=fields, labels=labels,
            co_bank=self.co_bank)

    def _slip_printed_words(self) -> str:
        printer = self.printer
        if printer is None or printer.none or self.round is None or self.round.slip is None:
            return ""
        if printer.busy is not None:
            return "printing..."
        return {"printed": "printed", "kept": "KEPT, P prints it"}.get(
            self.slip_printed or "", "NOT PRINTED (P)")

    def next_step(self) -> str:
        rnd = self.round
        if rnd is None:
            return "Next: N opens a round."
        match rnd.phase:
            case Phase.BETTING:
                offered = self.bank_offered()
                if offered is not None:
                    return (f"Next: the bank is offered to seat {offered}: B and the chips to "
                            f"take it, Q to pass (Shift+Q: every seat left passes).")
                if not rnd.wagers:
                    return "Next: select a seat (1-6), W, type the wager, Enter."
                return f"Next: more wagers, or action: {self._action_key(rnd)}."
            case Phase.DEALING:
                if self.shoe.online or (self.stream and not self.manual):
                    read = len(self.stream)
                    if read >= DEALT and self.leftovers is None:
                        return (f"Next: the {DEALT} cards dealt are read; waiting for the 4 "
                                f"left over (BURN) - E if this shoe does not read them.")
                    return f"Next: deal; the shoe has read {read} of {DECK_SIZE}."
                short = [position_name(p) for p in rnd.table.around(rnd.action.position)
                         if len(self.dealing().get(p, ())) < CARDS_PER_HAND] \
                    if rnd.action else []
                return "Next: shoe offline - C and type the cards of " + ", ".join(short) + "."
            case Phase.SETTING:
                offered = self.dragon_offered()
                if offered is not None:
                    return (f"Next: the dragon is offered to seat {offered}: G and Enter to "
                            f"take it, Q to pass (Shift+Q: no one takes it).")
                waiting = self._to_set()
                if rnd.can_settle():
                    return "Next: S settles (the dealer's hand is set the House Way)."
                return ("Next: set " + ", ".join(position_name(p) for p in waiting)
                        + ": click two front cards then F, or H for the House Way.")
            case Phase.MISDEAL:
                return f"Next: misdeal - take action again: {self._action_key(rnd)}."
        if (self.printer is not None and not self.printer.none and rnd.slip is not None
                and self.slip_printed != "printed"):
            return "Next: P prints the slip; then N opens the next round."
        return "Next: N opens the next round."

    def devices(self) -> tuple[Device, ...]:
        """The status bar: a word or two each; the whole story in the tooltips."""
        state = "ok" if self.shoe.online else ("warn" if self.shoe.demo
                                               or self.shoe.short == "none" else "off")
        shoe = Device(f"Shoe: {self.shoe.short}", state, f"Shoe {self.shoe.status}")
        printer = self.printer.device() if self.printer is not None else Device(
            "Printer: none", "warn", "No slip printer at this station: read the slip on "
                                     "screen.")
        database = self.ledger.view().device if self.ledger is not None else Device(
            "Database: not recording", "warn", "This station keeps no ledger: rounds are "
                                               "not stored.")
        return (shoe, printer, database)

    def banner(self) -> str | None:
        """The ledger's banner while the database is away (or refused a record)."""
        return self.ledger.view().banner if self.ledger is not None else None

    def table_info(self) -> str:
        r = self.rules
        banking = "player banking" if r.banking.enabled else "no player banking"
        if r.banking.enabled and r.banking.co_banking:
            banking += " (co-bank)"
        dragon = (f"dragon {r.dragon.wager.value}, {r.dragon.setting.value}"
                  if r.dragon.enabled else "no dragon")
        dealer = ""
        if self.ledger is not None:
            dealer = f"Dealer {self.ledger.dealer or '(none: F3)'} - "
        return (f"{dealer}Table {r.table.name} - House Way {r.house_way} - foul "
                f"{r.foul_penalty.value} "
                f"- {r.commission} - {money(r.limits.minimum)} to {money(r.limits.maximum)} - "
                f"action {r.table.action_source.value} - {r.table.deal_mode.value} - {banking} "
                f"- {dragon}")

    def slip_text(self) -> str:
        rnd = self.round
        return rnd.slip.text() if rnd is not None and rnd.slip is not None else ""

    def close(self) -> None:
        """The window closes: the shoe's port, the slip printing now, the ledger (what is
        not yet in the database stays in the journal for the next start). Once."""
        if self._closed:
            return
        self._closed = True
        self._poll.stop()
        self.shoe.close()
        if self.printer is not None:
            self.printer.wait()
        if self.ledger is not None:
            self.ledger.close()
