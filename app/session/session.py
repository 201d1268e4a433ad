"""The dealer session: its parts (parts.py) composed, events in and `Changes` out;
`handle(event) -> Changes`.

The session holds no rule of the game. Its steps ask the round (`verify_x` / `can_x`)
before each change, make it, and word the result. A dealer's mistake (a bad card, a wager
under the minimum, a foul) comes back as the core's own sentence in `Changes.message`,
never raised. What it adds is the table's procedure around the core: the bank is offered
(and answered) before action and the dragon after the deal before any hand is set; a seat
the core says may not bank whatever its chips is passed over with the core's reason.

The dealer's commands are in commands.py (one registry), their checks in checks.py and
their steps in steps.py; the shoe's events and a device's action in feed.py; a key in
press.py. Each event is recorded (record.py) so that a replay makes the same slips.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime

from app.core.banker import BankRotation
from app.core.round import Round, RoundRules

from . import feed, progressive, same_wagers, steps
from .changes import Changes
from .commands import COMMANDS_BY_ID
from .deal import Deal
from .devices import Devices
from .events import (
    CardPicked,
    CardRead,
    DealerCommand,
    DeviceAction,
    Event,
    FrontTyped,
    HitsOwed,
    KeyPressed,
    LeftoversRead,
    MeterStatus,
    Printed,
    ProgressivePaid,
    ShoeFault,
    ShoeStatus,
    Shuffled,
    SupervisorCommand,
)
from .keyboard import Keyboard
from .outbox import Outbox
from .parts import Parts
from .play import Play
from .ports import LedgerPort, PrinterPort, RecorderPort, SupervisorPort
from .press import press
from .procedure import type_front
from .record import header

# While a wager waits for a yes, the commands that answer it (the same wager again is a
# yes, another a new question) or only open a view; any other is refused until then.
ANSWER_ASKING = frozenset({"confirm", "escape", "wager", "help", "pit"})
# Commands that leave a field open: a click on a seat (it may move the field), a view.
KEEP_ENTRY = frozenset({"select", "help", "pit"})

# What each position, the centre and the status bar show, to see what changed.
View = tuple[dict[int, object], tuple[object, ...], tuple[object, ...]]


def _now() -> datetime:
    return datetime.now(UTC)


class DealerSession(Parts):
    """One dealer station's session: its parts, driven by `handle(event)`."""

    def __init__(self, rules: RoundRules | None = None, *, ledger: LedgerPort | None = None,
                 printer: PrinterPort | None = None, recorder: RecorderPort | None = None,
                 rotation: BankRotation | None = None,
                 supervisors: SupervisorPort | None = None,
                 clock: Callable[[], datetime] = _now,
                 randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        rules = rules or RoundRules()
        out = Outbox()
        super().__init__(
            play=Play(rules, rotation or BankRotation(), out, ledger, supervisors),
            deal=Deal(randbelow), keyboard=Keyboard(rules.table),
            devices=Devices(out, printer), out=out)
        self.recorder = recorder
        self.clock = clock
        if recorder is not None:
            recorder.start(header(self))

    # --- events in, changes out ----------------------------------------------------------

    def handle(self, event: Event) -> Changes:
        """Check the event with the round, apply it, and say what changed."""
        before = self._view()
        log_from = self.play.lines_logged
        self.out.begin()
        done = self._dispatch(event)
        drawn = self.out.drawn
        if drawn is not None:  # the RNG's draw is recorded: a replay draws none
            event = (replace(event, draw=drawn) if isinstance(event, DealerCommand)
                     else DealerCommand("rng", "", drawn))
        self._record(event)
        while (outcome := self.out.next_answer()) is not None:
            # a printer that answered at once: its answer is an event too
            self.devices.on_printed(outcome, self.round)
            self._record(Printed(outcome))
        while self.out.paid:  # the ledger answered a hit's payment at once: an event too
            self._record(self.out.paid.pop(0))
        self._finish()
        after = self._view()
        said = self.out.take()
        changed = frozenset(p for p in self.table.positions
                            if before[0].get(p) != after[0].get(p))
        return Changes(done, self.message, self.level, changed, before[1] != after[1],
                       said.slip, said.devices or before[2] != after[2],
                       tuple(said.records), tuple(said.prints), tuple(said.shoe), said.show,
                       self.play.new_lines(log_from))

    def resume(self, game: Round, deal: Mapping[str, object] | None = None) -> Changes:
        """The round a stopped station had in play, as the ledger rebuilt it; `deal`: the
        deal it was reading (`Recording.deal()`), every card back in its place. Not an
        event: its Changes, not recorded."""
        before = self._view()
        log_from = self.play.lines_logged
        done = self.out.attempt(lambda: steps.resume(self, game, deal))
        self._finish()
        after = self._view()
        return Changes(done, self.message, self.level,
                       frozenset(p for p in self.table.positions if before[0].get(p)
                                 != after[0].get(p)), True, None, True, (), (),
                       tuple(self.out.take_shoe()), None, self.play.new_lines(log_from))

    def _record(self, event: Event) -> None:
        if self.recorder is not None:
            self.recorder.append(event, self.clock().isoformat(timespec="seconds"))

    def _finish(self) -> None:
        self.play.write_log(self.out.finish())

    def _dispatch(self, event: Event) -> bool:
        match event:
            case DealerCommand(command=name, text=text, draw=draw):
                return self._command(name, text, draw)
            case CardRead(card=c, seq=seq, first=first):
                if seq is not None and first is not None:
                    return feed.on_card_at(self, c, first, seq)
                return feed.on_card(self, c)
            case LeftoversRead(cards=cards):
                return feed.on_leftovers(self, cards)
            case Shuffled():
                feed.on_shuffled(self)
            case ShoeStatus(online=online, status=status, short=short, demo=demo):
                self.devices.shoe_said(online, status, short, demo)
            case ShoeFault(text=text):
                self.say(text, "warn")
            case DeviceAction():
                feed.on_action_read(self, event.input())
            case KeyPressed(key=key):
                return press(self, key)
            case CardPicked(position=position, card=c):
                return self.out.attempt(lambda: steps.pick_card(self, position, c))
            case FrontTyped(text=text):
                type_front(self, text)
            case SupervisorCommand() if self.keyboard.held is not None:
                # the supervisor came to the table: what was refused has been read
                self.keyboard.held = None
                return self._dispatch(event)
            case SupervisorCommand(what="void", by=by, reason=reason):
                return self.out.attempt(lambda: steps.void_round(self, reason, by))
            case SupervisorCommand(what="misdeal", by=by, reason=reason, secret=secret):
                return self.out.attempt(lambda: steps.misdeal(self, reason, by, secret))
            case SupervisorCommand(what="approve_bonus", by=by, secret=secret):
                return self.out.attempt(lambda: steps.approve_bonus(self, by, secret))
            case SupervisorCommand(what="pay_progressive", by=by, secret=secret):
                return self.out.attempt(lambda: progressive.pay(self, by, secret))
            case SupervisorCommand(what="allow_typing", by=by, reason=reason, secret=secret):
                return self.out.attempt(lambda: steps.allow_typing(self, reason, by, secret))
            case SupervisorCommand(what=what):
                self.say(f"there is no supervisor's command {what!r}", "error")
                return False
            case Printed(outcome=outcome):
                self.devices.on_printed(outcome, self.round)
            case MeterStatus():
                progressive.meter_status(self, event)
            case ProgressivePaid():
                return self.out.attempt(lambda: progressive.paid(self, event))
            case HitsOwed():
                progressive.owed(self, event)
        return True

    def _command(self, name: str, text: str, draw: int | None) -> bool:
        command = COMMANDS_BY_ID.get(name)
        if command is None:
            self.say(f"there is no dealer's command {name!r}", "error")
            return False
        if name not in ("help", "pit"):
            self.keyboard.held = None  # a button pressed: whatever was refused is read
        if self.keyboard.same is not None and name not in ("help", "pit"):
            # last round's wagers shown: the same button (or Enter's) sets them, a seat
            # clicked leaves it out, Esc's sets none
            key = {"same_wagers": "L", "confirm": "Enter", "escape": "Esc"}.get(
                name, text if name == "select" else name)
            return same_wagers.answer(self, key)
        asking = self.keyboard.asking
        if asking is not None and name not in ANSWER_ASKING:
            self.say(asking.words(), "warn")
            return False
        if self.keyboard.entry is not None and name not in KEEP_ENTRY:
            self.keyboard.close()  # a button pressed: the typing in a field is left
        return self.out.attempt(lambda: command.do(self, text, draw))

    def _view(self) -> View:
        """What each position, the centre and the status bar show, to see what changed."""
        rnd = self.round
        keyboard, deal, devices = self.keyboard, self.deal, self.devices
        bank, dragon = self.bank_offered(), self.dragon_offered()
        dealing = self.dealing()
        seats: dict[int, object] = {}
        for p in self.table.positions:
            if rnd is None:
                seats[p] = p == keyboard.selected
                continue
            line = None
            if rnd.slip is not None:  # and the seat's progressive hit, once paid
                line = (rnd.slip.line(p), rnd.slip.progressive)
            mine = p == keyboard.selected
            seats[p] = (rnd.wagers.get(p), rnd.progressive_wagers.get(p), rnd.hands.get(p),
                        tuple(dealing.get(p, ())), mine,
                        tuple(keyboard.picks) if mine else (),
                        keyboard.preview if mine else None,
                        keyboard.preview_error if mine else None, bank, dragon,
                        p in self.play.passed_over, rnd.bank, rnd.action, line, rnd.phase)
        centre = (rnd.rotation.round_no if rnd else None, rnd.phase if rnd else None,
                  rnd.action if rnd else None, rnd.bank if rnd else None, bank,
                  deal.action_input, deal.device_action)
        ledger = self.play.ledger
        status = (devices.shoe_online, devices.shoe_status, devices.slip_printed,
                  devices.kept_count, ledger.dealer if ledger is not None else None)
        return seats, centre, status
