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

This module holds the class the window talks to, its plumbing and the dealer's first steps
(a round opened, a seat selected, wagers, the bank). The rest is mixed in from modules
named for what they hold: availability.py (what may be done, and why not), feed.py (action,
the shoe's events, the deal), hands.py (the dragon, setting the hands), slips.py (settling,
printing), shift.py (the shift, a round taken back, a void), screen.py (what the window
shows).
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.banker import BankRotation
from app.core.cards import DECK, Card
from app.core.round import BankPassed, HandReturned, HandSet, Round, RoundRules
from app.core.settlement import MoneyError, money, parse_money
from app.core.table import DEALER, Table, TableError
from app.ledger import LedgerError, Recording
from drivers.action import ActionInput

from . import present
from .availability import DEALER_ERRORS, Availability
from .feed import Feed
from .hands import Hands
from .present import Device
from .screen import Screen
from .services import Ledger, Printer
from .shift import Shift
from .shoe import ShoeFeed
from .slips import Slips

POLL_MS = 1000  # the status bar looks at the printer and the ledger this often


class DealerController(Availability, Feed, Hands, Slips, Shift, Screen, QObject):
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
        self.preview: HandSet | HandReturned | None = None
        self.preview_error: str | None = None
        self.stream: list[Card | None] = []  # by place in the dealing order; None: a hole
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
        self.shoe.card_at.connect(self.on_card_at)
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

    # --- the bank passed over a seat that may not bank ------------------------------------

    def _pass_over_bank(self) -> None:
        """Pass the offer over seats the core says may not bank, whatever their chips."""
        rnd = self.round
        while rnd is not None and (seat := self.bank_offered()) is not None:
            could, reasons, _ = present.bank_standing(rnd, seat)
            if could:
                return
            self._passed_over[seat] = reasons
            self._do("pass_bank", seat)

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

    # --- the devices: the status bar, the demo shoe, the window closing -----------------

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
