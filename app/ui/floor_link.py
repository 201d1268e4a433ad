"""The station's link to the pit floor (issue 16): its heartbeat and live state, and the
floor's requests.

- The live state (phase, round, banker, action, wagers, dealer, and the health of the shoe,
  printer and database as the status bar shows them) is taken on the GUI thread from the
  session after every change, and written (`FloorStatus.beat`) on a lane of its own on the
  station's pool: a database slow or away holds up neither the window nor the journal's writes. An
  unchanged state is written again only every `BEAT_EVERY_MS` (the heartbeat: a table
  whose beats stop shows offline on the floor).
- With each beat the floor's requests for this station are read back (a void of the round
  in play). A new one is shown to the dealer and waits in the pit view (F2): it is done
  only by a supervisor at the station, who gives their own name and secret; then the
  floor is answered with who did it. A request for a round no longer in play is answered
  at once (nothing to do).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.round import Phase
from app.ledger.floor_status import Device, FloorStatus, LiveState, Request, live_state

from . import view
from .station import Station
from .worker import Worker

BEAT_EVERY_MS = 3000  # the heartbeat when nothing changes (the floor's offline is longer)


def _device(label: str, state: str) -> Device:
    """A status-bar device ("Shoe: online", "ok") as the floor shows it."""
    return Device(state == "ok", label.split(": ", 1)[-1])


class FloorLink(QObject):
    """The heartbeat writer and the floor's requests of one station."""

    requested = Signal()  # the open requests changed (the pit view shows them)

    def __init__(self, station: Station, status: FloorStatus,
                 every_ms: int = BEAT_EVERY_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.station = station
        self.status = status
        self.worker = Worker(self, jobs=station.jobs)  # a lane of the station's pool
        self.requests: list[Request] = []  # asked and not yet answered, oldest first
        self._seen: set[str] = set()
        self._answered: set[str] = set()
        self._busy = False
        self._pending: LiveState | None = None
        self._sent: dict[str, Any] | None = None
        self._sent_at = 0.0
        self._every_s = every_ms / 1000
        self._last_settled: tuple[int, datetime] | None = None
        self.beats = 0  # beats written (for the status and the tests)
        self.error: str | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(every_ms)
        self._timer.timeout.connect(lambda: self.beat(force=True))
        station.changed.connect(self.beat)
        self._timer.start()
        self.beat(force=True)

    # --- the live state --------------------------------------------------------------------

    def live(self) -> LiveState:
        """The table as it stands now (GUI thread: the session is read where it lives)."""
        w = self.station
        s = w.session
        assert s is not None
        rnd = s.round
        port = w.ledger
        rec = port.recording if port is not None else None
        round_id = rec.round_id if rec is not None and rnd is not None \
            and rec.game is rnd else None
        if rnd is not None and rnd.phase is Phase.SETTLED:
            no = rnd.rotation.round_no
            if self._last_settled is None or self._last_settled[0] != no:
                self._last_settled = (no, datetime.now(UTC))
        shoe = view.shoe_device(s)
        printer = w.printer_device
        database = w.ledger_shown.device if port is not None else view.NO_LEDGER
        devices = {"shoe": _device(shoe.label, shoe.state),
                   "printer": _device(printer.label, printer.state),
                   "database": _device(database.label, database.state)}
        return live_state(rnd, round_id=round_id,
                          dealer=port.dealer if port is not None else None,
                          last_settled_at=self._last_settled[1] if self._last_settled
                          else None, devices=devices)

    def beat(self, force: bool = False) -> bool:
        """Write the live state on the worker when it changed (or `force`: the heartbeat).
        One beat at a time: a change while one is on its way is written after it. False:
        nothing to write."""
        if self.worker.closed or self.station.session is None:
            return False
        live = self.live()
        content = live.content()
        due = time.monotonic() - self._sent_at >= self._every_s
        if content == self._sent and not (force and due):
            return False
        if self._busy:
            self._pending = live
            return True
        self._busy = True
        self._sent, self._sent_at = content, time.monotonic()
        status = self.status

        def work() -> tuple[bool, list[Request], str | None]:
            ok = status.beat(live)
            return ok, status.requests(), status.error

        self.worker.submit(work, self._beaten)
        return True

    def _beaten(self, result: object, error: BaseException | None) -> None:
        self._busy = False
        if isinstance(result, tuple):
            ok, requests, self.error = result
            self.beats += int(ok)
            self._take(requests)
        elif error is not None:
            self.error = str(error)
        if self._pending is not None and not self.worker.closed:
            self._pending = None
            self.beat()

    # --- the floor's requests --------------------------------------------------------------

    def _take(self, requests: list[Request]) -> None:
        open_ = [r for r in requests if r.id not in self._answered]
        new = [r for r in open_ if r.id not in self._seen]
        self._seen.update(r.id for r in new)
        for r in new:
            if not self.in_play(r):
                self.answer(r, "not voided: that round is no longer in play here (a settled "
                               "round is corrected, not voided)")
            else:
                no = self.station.session.round.rotation.round_no  # type: ignore[union-attr]
                text = (f"The pit floor asks to void round {no} ({r.by}: {r.reason}): a "
                        f"supervisor does it here, F2.")
                self.station.tell(text, "warn", f"Floor: {text}")
        still = [r for r in open_ if r.id not in self._answered]
        if [r.id for r in still] != [r.id for r in self.requests]:
            self.requests = still
            self.requested.emit()

    def in_play(self, request: Request) -> bool:
        """Whether the request is for the round in play here (the only one a void can)."""
        s = self.station.session
        port = self.station.ledger
        rec = port.recording if port is not None else None
        return (request.kind == "void" and s is not None and s.round is not None
                and s.round.phase is not Phase.SETTLED and rec is not None
                and rec.game is s.round and rec.round_id == request.round_id)

    def answer(self, request: Request, outcome: str) -> None:
        """Tell the floor what became of its request (on the worker)."""
        if request.id in self._answered or self.worker.closed:
            return
        self._answered.add(request.id)
        self.requests = [r for r in self.requests if r.id != request.id]
        self.requested.emit()
        status = self.status
        self.worker.submit(lambda: status.answer(request.id, outcome))

    def close(self) -> None:
        """The station closes: the last beat and answers are written, the thread stops."""
        self._timer.stop()
        self.worker.close()
        self.status.close()
