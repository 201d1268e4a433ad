"""The window's worker: one thread that does the station's file and database work (the
ledger's journal writes, the pit's reads, the status bar's polls) so the GUI thread never
waits on a disk or a network.

Jobs run one at a time, in the order they were given: a round's records are journalled in
the order the session made them. Each job's answer (or the error it raised) comes back on
the GUI thread through a queued Qt signal, to the callback given with the job.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

Done = Callable[[Any, BaseException | None], None]


class Worker(QObject):
    """`submit(work, then)`: `work()` on the worker thread, `then(result, error)` on the GUI
    thread afterwards."""

    _answered = Signal(object, object, object)

    def __init__(self, parent: QObject | None = None, name: str = "station-worker") -> None:
        super().__init__(parent)
        self._jobs: queue.Queue[tuple[Callable[[], Any], Done | None] | None] = queue.Queue()
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
        while (job := self._jobs.get()) is not None:
            work, then = job
            result: Any = None
            error: BaseException | None = None
            try:
                result = work()
            except Exception as e:  # noqa: BLE001 - handed to the callback, said to the dealer
                error = e
            self._answered.emit(then, result, error)
            self._jobs.task_done()
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
