"""The window's lanes (app/station/jobs.py) with their answers on the GUI thread: the
station's file and database work (the ledger's journal writes, the pit's reads, the
status bar's polls, the floor's heartbeat) runs on the station's pool so the GUI thread
never waits on a disk or a network, and each job's answer (or the error it raised) comes
back to the GUI thread through a queued Qt signal, to the callback given with the job.

Jobs of one lane run one at a time, in the order they were given: a round's records are
journalled in the order the session made them.

Each lane gathers: woken by a job, it first waits `GATHER` seconds, then runs
every job queued by then, one after another. The GUI thread and the shoe's reader share
one interpreter lock with it: a job started at once (a ledger write is a millisecond or
more of Python) holds that lock while the card that made it, or the next card, is on its
way to the glass. Gathered, a deal's writes made while the lane waited go as one
(StationLedger.keep_deal writes only the newest deal) and run once the cards are painted.
A change reaches the journal that much later; the status bar says "recording..." until
it has.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from app.station.jobs import Done, Jobs, Lane

GATHER = 0.02  # seconds a lane, woken by a job, waits for more before it starts


class _ToGui(QObject):
    """Hands a job's answer to the GUI thread."""

    answered = Signal(object, object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.answered.connect(self._call, Qt.ConnectionType.QueuedConnection)

    def deliver(self, then: Done, result: Any, error: BaseException | None) -> None:
        self.answered.emit(then, result, error)

    @staticmethod
    def _call(then: Done, result: Any, error: BaseException | None) -> None:
        then(result, error)


class Worker(Lane):
    """A lane on the station's pool whose answers come on the GUI thread: `submit(work,
    then)` runs `work()` on the pool and `then(result, error)` on the GUI thread
    afterwards. Without the station's `jobs` it has a pool of its own (a window in a test),
    let go when it closes."""

    def __init__(self, parent: QObject | None = None, *, jobs: Jobs | None = None,
                 gather: float = GATHER) -> None:
        self._relay = _ToGui(parent)
        self._own: Jobs | None = None
        if jobs is None:
            jobs = self._own = Jobs(1, "worker")
        super().__init__(jobs, gather=gather, deliver=self._relay.deliver)

    def close(self, timeout: float = 10.0) -> None:
        super().close(timeout)
        if self._own is not None:
            self._own.close()
