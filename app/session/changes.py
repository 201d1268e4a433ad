"""What one event changed, for the window to redraw only that (and for the tests)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.round import Record
from app.core.settlement import Slip

from .events import PrintJob


@dataclass(frozen=True, slots=True)
class Changes:
    """The answer to one event.

    `done` is False when the step was refused: `message` says why (a dealer's mistake is
    never raised). `positions` are the seats (0: the dealer) whose view changed, `centre`
    the centre of the felt (phase, action, bank), `slip` the slip this step settled,
    `devices` the shoe, printer or ledger status. `records` are the round's records this
    step made (saved to the ledger), `prints` the jobs sent to the printer, `shoe` what the
    shoe is asked to do ("start_deal", "stop_deal", "online", "offline"), `show` a view the
    window opens ("help", "pit", "dealer"), `log` the new lines of the round's log.
    """

    done: bool
    message: str
    level: str
    positions: frozenset[int] = frozenset()
    centre: bool = False
    slip: Slip | None = None
    devices: bool = False
    records: tuple[Record, ...] = ()
    prints: tuple[PrintJob, ...] = ()
    shoe: tuple[str, ...] = ()
    show: str | None = None
    log: tuple[str, ...] = ()
