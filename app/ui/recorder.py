"""The station's session file: every event the dealer session handled, as JSON lines
(app/session/record.py), so `paigow replay FILE` prints the slips the table printed.

One file per station start, in the data directory's `sessions/` folder, named by the UTC
time it started. The lines are written on the worker (no file I/O on the GUI thread), in
the order the session handled the events.

A station that took back a round left in play starts its file when that round is over
(settled or void): the file's header then holds the rotation the next round opens with,
and every round in the file replays whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.round import Phase
from app.session.events import Event, event_to_dict
from app.session.record import header, jsonl_line
from drivers.private import open_private

if TYPE_CHECKING:
    from app.session import DealerSession

    from .worker import Worker

SESSIONS_FOLDER = "sessions"


def session_path(data_dir: str | Path, started: datetime | None = None) -> Path:
    """Where a station started at `started` (UTC) writes its session."""
    # To the microsecond: two starts in one second write two files.
    when = (started or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%S.%fZ")
    return Path(data_dir) / SESSIONS_FOLDER / f"{when}.jsonl"


class SessionFile:
    """A RecorderPort writing through the station's worker. `problem` holds the first
    write that failed (the session goes on; the ledger, not this file, is the record)."""

    def __init__(self, path: Path, worker: Worker, *, resumed: bool = False) -> None:
        self.path = path
        self.worker = worker
        self.problem: str | None = None
        self.held = resumed  # a round taken back is in play: the file starts after it
        self.session: DealerSession | None = None

    def start(self, head: Mapping[str, Any]) -> None:
        if not self.held:
            self._write(jsonl_line(head))

    def append(self, event: Event, at: str) -> None:
        if not self.held:
            self._write(jsonl_line({"at": at, **event_to_dict(event)}))
            return
        s = self.session
        if s is not None and (s.round is None or s.round.phase is Phase.SETTLED):
            self.held = False  # this event ended the round taken back: not in the file
            self._write(jsonl_line(header(s)))

    def _write(self, line: str) -> None:
        if self.worker.closed:  # the station is closing (its shoe says so): write it now
            self._put(line)
        else:
            self.worker.submit(lambda: self._put(line))

    def _put(self, line: str) -> None:
        # Opened for each line: nothing is held open, a stopped station loses nothing the
        # worker wrote, and the events are a few a second.
        if self.problem is not None:
            return
        try:
            # 0600 in 0700 folders: a session holds every card and every wager.
            with open_private(self.path, "a", encoding="utf-8") as f:
                f.write(line)
        except OSError as e:
            self.problem = f"the session file {self.path} cannot be written ({e.strerror or e})"
