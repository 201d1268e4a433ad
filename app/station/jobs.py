"""The station's background work: one thread pool (`Jobs`), and lanes on it (`Lane`) for
work that must run one job at a time in the order given.

A station has one `Jobs`. What runs on it: the ledger's journal writes and the session
file (one lane, in the order the session made them), the window's status polls (the same
lane: they read what those writes left), the pit's reads and the floor's heartbeat (a lane
each, so a database slow to answer holds up neither the journal nor each other), the slip
printer's jobs, the ledger's sending to the database (`Store.start_retrying`), the linked
progressive meter's listener (app/ui/services.py), and the ledger opening at start. None of
them is a thread of its own: the pool's threads are made as work comes and are joined
when the station closes.

The shoe's reader is not here (drivers/shoe/transport.py): it blocks in a serial read
for as long as the station runs, a device loop that would hold one of the pool's threads
for good.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

T = TypeVar("T")
Done = Callable[[Any, BaseException | None], None]
# How a lane hands a job's answer to whoever asked: at once on the lane's thread by
# default; the window's lanes hand it to the GUI thread (app/ui/worker.py).
Deliver = Callable[[Done, Any, BaseException | None], None]
# Enough for the two long-running jobs (the sender, and the progressive meter's listener
# on PostgreSQL), the journal's lane, the pit's reads, the floor's heartbeat and a slip
# printing at once, with one to spare.
WORKERS = 7
# How long a closing station waits for a job still running (a printer or a database that
# stopped answering): it then closes anyway, and says how many it left running.
CLOSE_WAIT_S = 10.0


def at_once(then: Done, result: Any, error: BaseException | None) -> None:
    then(result, error)


class Jobs:
    """The station's one thread pool."""

    def __init__(self, workers: int = WORKERS, name: str = "station") -> None:
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self.closed = False
        self._pending: set[Future[Any]] = set()
        self._lock = threading.Lock()

    def submit(self, work: Callable[[], T]) -> Future[T]:
        future = self.executor.submit(work)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._pending.discard(future)

    def lane(self, gather: float = 0.0, deliver: Deliver = at_once) -> Lane:
        return Lane(self, gather=gather, deliver=deliver)

    def close(self, deadline: float = CLOSE_WAIT_S) -> int:
        """Wait up to `deadline` seconds for what is running and queued, then let the
        threads go: the jobs still running then (0 when all ended). Once."""
        if self.closed:
            return 0
        self.closed = True
        with self._lock:
            pending = set(self._pending)
        _, left = wait(pending, timeout=deadline)
        self.executor.shutdown(wait=not left)
        return len(left)


class Lane:
    """Jobs run one at a time, in the order given, on the station's pool.

    `submit(work, then)`: `work()` on a pool thread, then `then(result, error)` through the
    lane's `deliver`. Woken by a job, the lane first waits `gather` seconds and then runs
    every job queued by then: the window's journal writes gather so that a deal's writes
    run once its cards are painted (app/ui/worker.py says why).
    """

    def __init__(self, jobs: Jobs, *, gather: float = 0.0, deliver: Deliver = at_once
                 ) -> None:
        self._jobs = jobs
        self._gather = gather
        self._deliver = deliver
        self._queue: deque[tuple[Callable[[], Any], Done | None]] = deque()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._running = False
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def submit(self, work: Callable[[], Any], then: Done | None = None) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the lane is closed")
            self._queue.append((work, then))
            if self._running:
                return
            self._running = True
        self._jobs.submit(self._drain)

    def _drain(self) -> None:
        if self._gather > 0:
            time.sleep(self._gather)  # the interpreter's lock is free meanwhile
        while True:
            with self._lock:
                if not self._queue:
                    self._running = False
                    self._idle.notify_all()
                    return
                work, then = self._queue.popleft()
            result: Any = None
            error: BaseException | None = None
            try:
                result = work()
            except Exception as e:  # noqa: BLE001 - handed to `then`, said to the dealer
                error = e
            if then is not None:
                self._deliver(then, result, error)

    def wait(self, timeout: float | None = None) -> bool:
        """Until every job given so far has run (their answers may still be on their way
        to the GUI thread). False: still running at the timeout."""
        with self._lock:
            return self._idle.wait_for(lambda: not self._running, timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Run what is queued, then take no more. Once."""
        with self._lock:
            self._closed = True
        self.wait(timeout)
