"""What the step under way tells the dealer and asks of the devices: the message, the lines
for the log, the round's records, the printer's jobs, what the shoe is asked, the view to
open. The session turns it into the step's `Changes` and empties it (`take`).

A dealer's mistake is one of `DEALER_ERRORS`: `attempt` shows it as the message, never
raises it further.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.cards import CardError
from app.core.house_way import HouseWayError
from app.core.round import Record
from app.core.settlement import Slip
from app.core.table import TableError
from drivers.action import ActionError

from .events import PrintJob, PrintOutcome, ProgressivePaid
from .ports import PortError

DEALER_ERRORS = (TableError, CardError, ActionError, HouseWayError, PortError)


@dataclass
class Said:
    """What one step did besides the message, handed over once (`Outbox.take`)."""

    records: list[Record] = field(default_factory=list)
    prints: list[PrintJob] = field(default_factory=list)
    shoe: list[str] = field(default_factory=list)
    show: str | None = None
    slip: Slip | None = None
    devices: bool = False


class Outbox:
    """The message the dealer reads now, and what the step under way has done."""

    def __init__(self) -> None:
        self.message = "Press N to open a round."
        self.level = "info"
        self.notes: list[str] = []  # lines for the log after the round's own records
        self.answers: list[PrintOutcome] = []  # a printer that answered at once
        # the ledger's answers to a progressive hit's payment given at once: recorded as
        # events after the supervisor's, so a replay pays what was paid
        self.paid: list[ProgressivePaid] = []
        self.drawn: int | None = None  # the RNG number this step drew (recorded)
        self.ledger_error: str | None = None  # said last: no step's own words hide it
        self._said = Said()

    def say(self, text: str, level: str = "info") -> None:
        self.message, self.level = text, level

    def note(self, text: str) -> None:
        """A line for the log after the round's own records."""
        self.notes.append(text)

    def ask_shoe(self, what: str) -> None:
        self._said.shoe.append(what)

    def show(self, view: str) -> None:
        self._said.show = view

    def settled(self, slip: Slip) -> None:
        self._said.slip = slip

    def recorded(self, records: list[Record]) -> None:
        self._said.records.extend(records)

    def printing(self, job: PrintJob) -> None:
        self._said.prints.append(job)

    def printer_answered(self, outcome: PrintOutcome | None) -> None:
        if outcome is not None:
            self.answers.append(outcome)

    def devices_changed(self) -> None:
        self._said.devices = True

    def drew(self, number: int) -> None:
        self.drawn = number

    def ledger_refused(self, text: str) -> None:
        self.ledger_error = text

    def attempt(self, step: Callable[[], None]) -> bool:
        """Run a dealer's step; a mistake the dealer can make is shown, never raised."""
        try:
            step()
        except DEALER_ERRORS as e:
            self.say(str(e), "error")
            return False
        return True

    def begin(self) -> None:
        """A new event: no RNG number drawn for it yet."""
        self.drawn = None

    def finish(self) -> list[str]:
        """The step is over: a ledger's refusal is said last; the notes for the log."""
        if self.ledger_error is not None:
            self.say(self.ledger_error, "error")
            self.ledger_error = None
        notes, self.notes = self.notes, []
        return notes

    def next_answer(self) -> PrintOutcome | None:
        return self.answers.pop(0) if self.answers else None

    def take(self) -> Said:
        said, self._said = self._said, Said()
        return said

    def take_shoe(self) -> list[str]:
        """Only what the shoe is asked (a round taken back: the rest goes with the next
        event's changes)."""
        shoe, self._said.shoe = self._said.shoe, []
        return shoe
