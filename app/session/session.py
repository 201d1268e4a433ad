"""The dealer session: the round, what the dealer has picked and typed, the deal coming in,
the log and the message; `handle(event) -> Changes`.

The session holds no rule of the game. It asks the round (`verify_x` / `can_x`) before each
change, makes it, and words the result. A dealer's mistake (a bad card, a wager under the
minimum, a foul) comes back as the core's own sentence in `Changes.message`, never raised.
What it adds is the table's procedure around the core: the bank is offered (and answered)
before action and the dragon after the deal before any hand is set; a seat the core says
may not bank whatever its chips is passed over with the core's reason.

The dealer's commands are in commands.py (one registry) and steps.py; the shoe's events,
a device's action and the printer's answers are handled here.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from app.core.banker import BankRotation
from app.core.cards import DECK, Card, CardError
from app.core.house_way import HouseWayError
from app.core.round import (
    BankPassed,
    HandReturned,
    HandSet,
    Phase,
    Record,
    Round,
    RoundRules,
)
from app.core.settlement import Slip
from app.core.table import Table, TableError
from drivers.action import ActionError, ActionInput

from . import words
from .changes import Changes
from .entry import Entry
from .events import (
    CardPicked,
    CardRead,
    DealerCommand,
    DeviceAction,
    Event,
    FrontTyped,
    KeyPressed,
    LeftoversRead,
    Printed,
    PrintJob,
    PrintOutcome,
    ShoeFault,
    ShoeStatus,
    Shuffled,
    SupervisorCommand,
)
from .ports import (
    LedgerPort,
    PortError,
    PrinterPort,
    RecorderPort,
    Supervisor,
    SupervisorPort,
)
from .wager_limits import Asking

DEALER_ERRORS = (TableError, CardError, ActionError, HouseWayError, PortError)
# While a wager waits for a yes, the commands that answer it (the same wager again is a
# yes, another a new question) or only open a view; any other is refused until then.
ANSWER_ASKING = frozenset({"confirm", "escape", "wager", "help", "pit"})
# Commands that leave a field open: a click on a seat (it may move the field), a view.
KEEP_ENTRY = frozenset({"select", "help", "pit"})


def _now() -> datetime:
    return datetime.now(UTC)


class DealerSession:
    """One dealer station's session. Drive it with `handle(event)`."""

    def __init__(self, rules: RoundRules | None = None, *, ledger: LedgerPort | None = None,
                 printer: PrinterPort | None = None, recorder: RecorderPort | None = None,
                 rotation: BankRotation | None = None,
                 supervisors: SupervisorPort | None = None,
                 clock: Callable[[], datetime] = _now,
                 randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self.rules = rules or RoundRules()
        self.ledger = ledger
        self.printer = printer
        self.recorder = recorder
        self.supervisors = supervisors  # None: who is named is taken (a replay, no people)
        self.clock = clock
        self.randbelow = randbelow
        self.rotation = rotation or BankRotation()
        self.round: Round | None = None
        self.slip_printed: str | None = None  # this round's slip: "printed" or "kept"
        self.opened_with = self.rotation
        self.selected: int | None = None
        self.entry: Entry | None = None  # the field open now and the text typed in it
        self.asking: Asking | None = None  # a wager far above the last, waiting for a yes
        # Each seat's last main wager here (the jump rule); after a restart, the ledger's.
        self.last_wagers: dict[int, int] = dict(self.rotation.house_bets)
        self.picks: list[Card] = []
        self.preview: HandSet | HandReturned | None = None
        self.preview_error: str | None = None
        self.front_text = ""
        self.stream: list[Card | None] = []  # by place in the dealing order; None: a hole
        self.seqs: dict[int, int] = {}  # place -> the shoe's number of the card read there
        self.first_seq: int | None = None  # the shoe's number of the deal's first card
        self.manual: dict[int, list[Card]] = {}
        self.typing_allowed: str | None = None  # the supervisor who let the dealer type
        self.leftovers: tuple[Card, ...] | None = None
        self.action_input: ActionInput | None = None  # the round's action and its source
        self.device_action: ActionInput | None = None  # sent by a device, not yet taken
        self.co_bank = False
        self.passed_over: dict[int, str] = {}  # seats passed over for the bank, and why
        self.shoe_online = False
        self.shoe_demo = False
        self.shoe_status = "offline: no shoe"
        self.shoe_short = "offline"
        self.message = "Press N to open a round."
        self.level = "info"
        self.log: list[str] = []
        # What the step under way has done, turned into its Changes at the end.
        self._logged = 0
        self._notes: list[str] = []
        self._records: list[Record] = []
        self._prints: list[PrintJob] = []
        self._answers: list[PrintOutcome] = []
        self._shoe: list[str] = []
        self._show: str | None = None
        self._slip: Slip | None = None
        self._devices = False
        self._ledger_error: str | None = None
        self._ledger_down: str | None = None  # the last write the ledger refused, if no
        # write has gone through since
        self.drawn: int | None = None  # the RNG number this step drew (recorded)
        if recorder is not None:
            from .record import header
            recorder.start(header(self))

    @property
    def table(self) -> Table:
        return self.rules.table

    # --- events in, changes out ----------------------------------------------------------

    def handle(self, event: Event) -> Changes:
        """Check the event with the round, apply it, and say what changed."""
        before = self._view()
        log_from = len(self.log)
        self.drawn = None
        done = self._dispatch(event)
        if self.drawn is not None:  # the RNG's draw is recorded: a replay draws none
            event = (replace(event, draw=self.drawn) if isinstance(event, DealerCommand)
                     else DealerCommand("rng", "", self.drawn))
        self._record(event)
        while self._answers:  # a printer that answered at once: its answer is an event too
            answer = Printed(self._answers.pop(0))
            self._on_printed(answer.outcome)
            self._record(answer)
        self._finish()
        after = self._view()
        changed = frozenset(p for p in self.table.positions
                            if before[0].get(p) != after[0].get(p))
        out = Changes(done, self.message, self.level, changed, before[1] != after[1],
                      self._slip, self._devices or before[2] != after[2],
                      tuple(self._records), tuple(self._prints), tuple(self._shoe),
                      self._show, tuple(self.log[log_from:]))
        self._records, self._prints, self._shoe = [], [], []
        self._show, self._slip, self._devices = None, None, False
        return out

    def _record(self, event: Event) -> None:
        if self.recorder is not None:
            self.recorder.append(event, self.clock().isoformat(timespec="seconds"))

    def _dispatch(self, event: Event) -> bool:
        from . import commands, feed, steps
        match event:
            case DealerCommand(command=name, text=text, draw=draw):
                command = commands.COMMANDS_BY_ID.get(name)
                if command is None:
                    self.say(f"there is no dealer's command {name!r}", "error")
                    return False
                if self.asking is not None and name not in ANSWER_ASKING:
                    self.say(self.asking.words(), "warn")
                    return False
                if self.entry is not None and name not in KEEP_ENTRY:
                    self.entry = None  # a button pressed: the typing in a field is left
                return self.run(lambda: command.do(self, text, draw))
            case CardRead(card=c, seq=seq, first=first):
                if seq is not None and first is not None:
                    return feed.on_card_at(self, c, first, seq)
                return feed.on_card(self, c)
            case LeftoversRead(cards=cards):
                self.leftovers = cards
                feed.keep_deal(self)
                return self.run(lambda: feed.try_finish(self))
            case Shuffled():
                feed.on_shuffled(self)
            case ShoeStatus(online=online, status=status, short=short, demo=demo):
                self.shoe_online, self.shoe_status, self.shoe_short = online, status, short
                self.shoe_demo = demo
                self._devices = True
            case ShoeFault(text=text):
                self.say(text, "warn")
            case DeviceAction():
                feed.on_action_read(self, event.input())
            case KeyPressed(key=key):
                return commands.press(self, key)
            case CardPicked(position=position, card=c):
                return self.run(lambda: steps.pick_card(self, position, c))
            case FrontTyped(text=text):
                steps.type_front(self, text)
            case SupervisorCommand(what="void", by=by, reason=reason):
                return self.run(lambda: steps.void_round(self, reason, by))
            case SupervisorCommand(what="misdeal", by=by, reason=reason, secret=secret):
                return self.run(lambda: steps.misdeal(self, reason, by, secret))
            case SupervisorCommand(what="allow_typing", by=by, reason=reason, secret=secret):
                return self.run(lambda: steps.allow_typing(self, reason, by, secret))
            case SupervisorCommand(what=what):
                self.say(f"there is no supervisor's command {what!r}", "error")
                return False
            case Printed(outcome=outcome):
                self._on_printed(outcome)
        return True

    def _view(self) -> tuple[dict[int, Any], Any, Any]:
        """What each position, the centre and the status bar show, to see what changed."""
        rnd = self.round
        bank, dragon = self.bank_offered(), self.dragon_offered()
        dealing = self.dealing()
        seats: dict[int, Any] = {}
        for p in self.table.positions:
            if rnd is None:
                seats[p] = p == self.selected
                continue
            line = None
            if rnd.slip is not None:
                line = rnd.slip.line(p)
            mine = p == self.selected
            seats[p] = (rnd.wagers.get(p), rnd.hands.get(p), tuple(dealing.get(p, ())), mine,
                        tuple(self.picks) if mine else (), self.preview if mine else None,
                        self.preview_error if mine else None, bank, dragon,
                        p in self.passed_over, rnd.bank, rnd.action, line, rnd.phase)
        centre = (rnd.rotation.round_no if rnd else None, rnd.phase if rnd else None,
                  rnd.action if rnd else None, rnd.bank if rnd else None, bank,
                  self.action_input, self.device_action)
        devices = (self.shoe_online, self.shoe_status, self.slip_printed,
                   self.printer.kept_count if self.printer is not None else 0,
                   self.ledger.dealer if self.ledger is not None else None)
        return seats, centre, devices

    # --- plumbing ------------------------------------------------------------------------

    def say(self, text: str, level: str = "info") -> None:
        self.message, self.level = text, level

    def note(self, text: str) -> None:
        """A line for the log after the round's own records."""
        self._notes.append(text)

    def ask_shoe(self, what: str) -> None:
        self._shoe.append(what)

    def show(self, view: str) -> None:
        self._show = view

    def settled(self, slip: Slip) -> None:
        self._slip = slip

    def _finish(self) -> None:
        if self._ledger_error is not None:  # said last: no step's own words hide it
            self.say(self._ledger_error, "error")
            self._ledger_error = None
        if self.round is not None:
            for record in self.round.log[self._logged:]:
                text = words.record_text(record)
                if isinstance(record, BankPassed) and record.seat in self.passed_over:
                    text += f" (passed over: {self.passed_over[record.seat]})"
                self.log.append(text)
            self._logged = len(self.round.log)
        self.log.extend(self._notes)
        self._notes.clear()

    def run(self, step: Callable[[], None]) -> bool:
        """Run a dealer's step; a mistake the dealer can make is shown, never raised."""
        try:
            step()
        except DEALER_ERRORS as e:
            self.say(str(e), "error")
            return False
        return True

    def do(self, method: str, *args: Any) -> Any:
        """Change the round, and save the change to the ledger at once (a misdeal too)."""
        rnd = self.round
        assert rnd is not None
        start = len(rnd.log)
        try:
            return getattr(rnd, method)(*args)
        finally:
            self._records.extend(rnd.log[start:])
            self._save()

    def _save(self) -> None:
        """Write the round's new records to the ledger. A refusal is shown; the round goes
        on."""
        if self.ledger is None or self.round is None:
            return
        try:
            self.ledger.save(self.round)
            self._ledger_down = None
        except PortError as e:
            self.ledger_refused(e)

    def ledger_problem(self) -> str | None:
        """Why the ledger cannot record now (its port's `problem()`, or the last write it
        refused here), or None."""
        ask = getattr(self.ledger, "problem", None)
        said = ask() if callable(ask) else None
        if said:
            return str(said)
        if self._ledger_down is not None and self.ledger is not None and self.round:
            try:  # try again: the records not yet taken go with this write
                self.ledger.save(self.round)
                self._ledger_down = None
            except PortError as e:
                self._ledger_down = str(e)
        return self._ledger_down

    def ledger_refused(self, e: PortError) -> None:
        """A write the ledger refused: logged, and said last (no step's words hide it)."""
        self._ledger_down = str(e)
        self.note(f"Ledger: {e}")
        self._ledger_error = (f"The ledger did not take this change ({e}). Call a "
                              f"supervisor; the round goes on.")

    def authorise(self, by: str, secret: str, action: str) -> Supervisor:
        """The supervisor doing `action`, checked by the supervisor port (PortError in
        words: nothing is done); with no port, the name given (a replay, or a ledger that
        checks the person itself)."""
        if not by.strip():
            raise TableError(f"a {action} names the supervisor who does it")
        if self.supervisors is None:
            return Supervisor(by.strip())
        return self.supervisors.authorise(by.strip(), secret, action)

    def dry(self, method: str, *args: Any) -> Any:
        """What the round would answer to a change, without making it (on a copy; the 53
        cards are shared, never copied: a card is itself, not equal to another)."""
        return getattr(copy.deepcopy(self.round, {id(c): c for c in DECK}), method)(*args)

    def need_round(self) -> Round:
        if self.round is None:
            raise TableError("no round is open: press N to open one")
        return self.round

    def need_position(self, what: str = "seat") -> int:
        if self.selected is None:
            raise TableError(f"select a {what} first: keys 1-6 for the seats, 7 for the dealer")
        return self.selected

    def select(self, position: int) -> None:
        self.table.verify_position(position)
        if position != self.selected:
            self.picks, self.preview, self.preview_error = [], None, None
            self.front_text = ""
        self.selected = position

    def clear_deal(self) -> None:
        self.stream, self.manual, self.leftovers = [], {}, None
        self.seqs, self.first_seq = {}, None
        self.picks, self.preview, self.preview_error = [], None, None
        self.front_text = ""

    def open_round(self, game: Round) -> None:
        """A new round (or one taken back) is the session's round from now on."""
        self.round = game
        self.slip_printed = None
        self.opened_with = game.rotation
        self._logged = 0
        self.passed_over = {}
        self.action_input, self.co_bank = None, False
        self.typing_allowed = None
        self.entry, self.asking = None, None
        self.clear_deal()

    # --- what is on offer ----------------------------------------------------------------

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

    def pass_over_bank(self) -> None:
        """Pass the offer over seats the core says may not bank, whatever their chips."""
        rnd = self.round
        while rnd is not None and (seat := self.bank_offered()) is not None:
            could, reasons, _ = words.bank_standing(rnd, seat)
            if could:
                return
            self.passed_over[seat] = reasons
            self.do("pass_bank", seat)

    def dealing(self) -> dict[int, list[Card]]:
        """The cards each position has so far in this deal, read or typed."""
        from .feed import DEALT
        out: dict[int, list[Card]] = {}
        rnd = self.round
        if rnd is not None and rnd.action is not None and rnd.phase is Phase.DEALING:
            for i, c in enumerate(self.stream[:DEALT]):
                p = rnd.table.position_of_card(rnd.action.position, i)
                if p is not None and c is not None:  # None: a card the shoe lost
                    out.setdefault(p, []).append(c)
        for p, cards in self.manual.items():
            out.setdefault(p, []).extend(cards)
        return out

    def action_key(self, rnd: Round) -> str:
        """The key that takes action now, in words."""
        from app.core.table import ActionSource
        if self.device_action is not None:
            return f"R (the {self.device_name()}'s {self.device_action.action})"
        return "R (RNG)" if rnd.table.action_source is ActionSource.RNG else "D (dice)"

    def device_name(self) -> str:
        inp = self.device_action or self.action_input
        return words.device_name(inp) if inp is not None else "shuffler"

    # --- the printer's answer ------------------------------------------------------------

    def send_to_printer(self, slip: Slip | None, job: PrintJob) -> None:
        assert self.printer is not None
        self._prints.append(job)
        if job.kind == "kept":
            outcome = self.printer.reprint_kept()
        else:
            assert slip is not None
            outcome = self.printer.print_slip(slip, job)
        if outcome is not None:
            self._answers.append(outcome)

    def _on_printed(self, outcome: PrintOutcome) -> None:
        rnd, job = self.round, outcome.job
        here = (rnd.slip.table, rnd.slip.round) if rnd is not None and rnd.slip else None
        self._devices = True
        if job.kind == "kept":
            if here is not None and here in outcome.rounds:
                self.slip_printed = "printed"
            self.say(outcome.message, "error" if outcome.problem or outcome.left else "ok")
            if outcome.rounds:
                self.note(f"Printer: {len(outcome.rounds)} kept slip(s) printed")
            return
        current = here == (job.table, job.round)
        if outcome.printed:
            text = (f"Round {job.round}'s slip printed"
                    + (" again, marked REPRINT." if job.kind == "duplicate" else "."))
            if current:
                self.slip_printed = "printed"
            self.say(" ".join([text, outcome.message]).strip(),
                     "warn" if outcome.message else "ok")
        else:
            if current and outcome.kept and job.kind == "slip":
                self.slip_printed = "kept"
            self.say(outcome.message, "error")
        self.note(f"Printer: round {job.round} " + (
            "printed" if outcome.printed else "not printed, kept" if outcome.kept
            else "not printed"))

    # --- a round taken back ----------------------------------------------------------------

    def resume(self, game: Round, deal: Mapping[str, Any] | None = None) -> Changes:
        """The round a stopped station had in play, as the ledger rebuilt it; `deal`: the
        deal it was reading (`Recording.deal()`), every card back in its place."""
        from . import steps
        return self._step(lambda: steps.resume(self, game, deal))

    def _step(self, step: Callable[[], None]) -> Changes:
        """A step that is not an event (taking a round back): its Changes, not recorded."""
        before = self._view()
        log_from = len(self.log)
        done = self.run(step)
        self._finish()
        after = self._view()
        out = Changes(done, self.message, self.level,
                      frozenset(p for p in self.table.positions if before[0].get(p)
                                != after[0].get(p)), True, None, True, (), (),
                      tuple(self._shoe), None, tuple(self.log[log_from:]))
        self._shoe = []
        return out
