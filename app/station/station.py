"""`Station`: one dealer station without a window. It composes the dealer session, the
station's ledger behind its one port (`StationLedger`), the slip printer's port, and the
one thread pool its background work runs on (`Jobs`).

The window (app/ui/main.py), the floor's demo stations (app/floor/stations.py), the fault
suite's stations (tests/faults) and the benches each build a `Station`; what differs is
only what they give it: a window gives a lane that answers on the GUI thread and a printer
on paper, a headless station none (its writes are done before each step returns).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from app.core.banker import BankRotation
from app.core.round import RoundRules
from app.ledger import LedgerError
from app.session import Changes, DealerSession
from app.session.ports import PrinterPort, RecorderPort, SupervisorPort

from .jobs import Jobs, Lane
from .ledger import Ledger, StationLedger

if TYPE_CHECKING:
    from app.ledger import Recording


class Station:
    """The session, the ledger's port and the printer's, and the pool, wired once."""

    def __init__(self, rules: RoundRules | None = None, *, ledger: Ledger | None = None,
                 printer: PrinterPort | None = None, recorder: RecorderPort | None = None,
                 supervisors: SupervisorPort | None = None,
                 rotation: BankRotation | None = None,
                 randbelow: Callable[[int], int] = secrets.randbelow,
                 jobs: Jobs | None = None, writes: Lane | None = None) -> None:
        """`writes`: the lane the ledger's writes go through (the window's answers on the
        GUI thread); None: each write is done before the session's step returns.
        `rotation`: the bank rotation the table remembers (the ledger's when not given).
        `jobs`: the pool made before the station (the window's opened the ledger on it);
        the station's from then on, let go when it closes."""
        self.jobs = jobs or Jobs()
        self.ledger = ledger
        self.writes = writes
        self.port = StationLedger(ledger, writes) if ledger is not None else None
        if ledger is not None and rotation is None:
            rotation = ledger.store.rotation()
        self.printer = printer
        self.session = DealerSession(rules, ledger=self.port, printer=printer,
                                     recorder=recorder, rotation=rotation,
                                     supervisors=supervisors, randbelow=randbelow)
        self.closed = False
        if ledger is not None:
            ledger.start(self.jobs)
            if writes is None:  # the window looks off its thread, once its meter answers
                self.look_for_owed_hits()

    def look_for_owed_hits(self) -> Changes | None:
        """The progressive hits the ledger owes from before (a station stopped before the
        supervisor's sign-in), found in the ledger and handed to the session, which lists
        them and pays each after a sign-in. None: no progressive here, or the database
        cannot be reached now (looked for again when asked again)."""
        if self.port is None or self.session.rules.progressive is None:
            return None
        try:
            owed = self.port.hits_owed()
        except LedgerError:
            return None
        return self.session.handle(owed)

    def resume(self, rec: Recording, deal: Mapping[str, object] | None = None) -> Changes:
        """The round a stopped station had in play (`Ledger.resume`), taken back: recorded
        from where it was, `deal` (the cards read so far) back in place."""
        assert self.port is not None
        self.port.adopt(rec)
        return self.session.resume(rec.game, deal)

    def close(self) -> int:
        """Every write queued done, the journal sent on (or kept for the next start), the
        pool let go: the background jobs still running after `CLOSE_WAIT_S` (a printer or
        a database that stopped answering; the journal is closed before, so they hold
        nothing the ledger needs). Once."""
        if self.closed:
            return 0
        self.closed = True
        if self.writes is not None:
            self.writes.close()
        if self.ledger is not None:
            self.ledger.close()
        return self.jobs.close()
