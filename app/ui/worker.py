"""The window's worker: one thread that does the station's file and database work (the
ledger's journal writes, the pit's reads, the status bar's polls) so the GUI thread never
waits on a disk or a network.

Jobs run one at a time, in the order they were given: a round's records are journalled in
the order the session made them. Each job's answer (or the error it raised) comes back on
the GUI thread through a queued Qt signal, to the callback given with the job.

Woken by a job, the worker first gathers for `GATHER` seconds, then runs every job queued
by then, one after another. The GUI thread and the shoe's reader share one interpreter
lock with it: a job started at once (a ledger write is a millisecond or more of Python)
holds that lock while the card that made it, or the next card, is on its way to the glass.
Gathered, a deal's writes made while the worker waited go as one (StationLedger.keep_deal
writes only the newest deal) and run once the cards are painted. A change reaches the
journal that much later; the status bar says "recording..." until it has.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

Done = Callable[[Any, BaseException | None], None]
Job = tuple[Callable[[], Any], Done | None]
GATHER = 0.02  # seconds a worker woken by a job waits for more before it starts


class Worker(QObject):
    """`submit(work, then)`: `work()` on the worker thread, `then(result, error)` on the GUI
    thread afterwards."""

    _answered = Signal(object, object, object)

    def __init__(self, parent: QObject | None = None, name: str = "station-worker",
                 gather: float = GATHER) -> None:
        super().__init__(parent)
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._gather = gather
        self._answered.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def submit(self, work: Callable[[], Any], then: Done | None = None) -> None:
        if self._closed:
            raise RuntimeError("the worker is closed")
        self._jobs.put((work, then))

    def _loop(self) -> None:
        while True:
            batch = [self._jobs.get()]
            if batch[0] is not None and self._gather > 0:
                time.sleep(self._gather)  # the interpreter's lock is free meanwhile
            while batch[-1] is not None:
                try:
                    batch.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            for job in batch:
                if job is None:  # closed: every job given before it has run
                    self._jobs.task_done()
                    return
                self._run(*job)

    def _run(self, work: Callable[[], Any], then: Done | None) -> None:
        result: Any = None
        error: BaseException | None = None
        try:
            result = work()
        except Exception as e:  # noqa: BLE001 - handed to the callback, said to the dealer
            error = e
        self._answered.emit(then, result, error)
        self._jobs.task_done()

    @staticmethod
    def _deliver(then: Done | None, result: Any, error: BaseException | None) -> None:
        if then is not None:
            then(result, error)

    def wait(self) -> None:
        """Until every job given so far has run (their answers may still be queued)."""
        self._jobs.join()

    def close(self, timeout: float = 10.0) -> None:
        """Run what is queued, then stop the thread. Once."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        self._thread.join(timeout)
