"""What the pit (pit.py) and the floor link (floor_link.py) see of the station: the window's
face of `app.station.Station`. Its session, its ledger port and printer, its pool (`jobs`:
their reads and heartbeats run there), an event handled and painted, the devices as the
status bar shows them, and a line for the dealer. The window (window.py) is one; the pit
and the link hold this, not the window, so neither imports it.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import SignalInstance

from app.session import Changes, DealerSession, Event
from app.station import Jobs, StationLedger

from .present import Device
from .services import LedgerView, Printer


class Station(Protocol):
    """The station as the pit and the floor link use it."""

    @property
    def changed(self) -> SignalInstance:
        """Emitted when the session has handled an event."""

    @property
    def session(self) -> DealerSession | None: ...

    @property
    def ledger(self) -> StationLedger | None: ...

    @property
    def printer(self) -> Printer | None: ...

    @property
    def jobs(self) -> Jobs | None:
        """The station's pool (None before the window is bound)."""

    @property
    def printer_device(self) -> Device: ...

    @property
    def ledger_shown(self) -> LedgerView: ...

    def handle(self, event: Event) -> Changes:
        """One event through the session, what it changed painted."""

    def paint_devices(self) -> None: ...

    def tell(self, text: str, level: str, log: str) -> None:
        """A line for the dealer (the message), and one for the round's log."""
