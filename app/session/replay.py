"""A recorded session (record.py) played again through a new session, headless: no RNG (the
draws are in the events) and no printer (its answers are too), so it makes the same slips,
byte for byte."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.settlement import Slip

from .events import Printed
from .ports import AnsweredPrinter, MemoryLedger
from .record import Recorded, RecordError
from .session import DealerSession


@dataclass
class Replayed:
    session: DealerSession
    slips: list[Slip] = field(default_factory=list)
    ledger: MemoryLedger | None = None
    refused: list[tuple[int, str]] = field(default_factory=list)  # (event number, why)


def replay(recorded: Recorded) -> Replayed:
    """Play the events through a new session, headless: the slips it settles, in order."""
    head = recorded.head
    ledger = (MemoryLedger(shift=head.get("dealer"), pays_later=True) if head.get("ledger")
              else None)
    printer = AnsweredPrinter(kept=int(head.get("kept", 0))) if head.get("printer") else None
    s = DealerSession(recorded.rules, ledger=ledger, printer=printer,
                      rotation=recorded.rotation, randbelow=_no_rng)
    out = Replayed(s, ledger=ledger)
    for number, event in enumerate(recorded.events, 1):
        if isinstance(event, Printed) and printer is not None:
            printer.answered(event.outcome)
        changes = s.handle(event)
        if not changes.done:
            out.refused.append((number, changes.message))
        if changes.slip is not None:
            out.slips.append(changes.slip)
    return out


def _no_rng(_n: int) -> int:
    raise RecordError("the recorded session asks for an RNG draw it did not record")
