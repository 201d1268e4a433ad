"""The station's session file: every event the dealer session handled, as JSON lines
(app/session/record.py), so `paigow replay FILE` prints the slips the table printed.

One file per station start, in the data directory's `sessions/` folder, named by the UTC
time it started. The lines are written on the worker (no file I/O on the GUI thread), in
the order the session handled the events.

A station that took back a round left in play starts its file when that round is over
(settled or void): the file's header then holds the rotation the next round opens with,
and every round in the file replays whole. For the same reason a file that has grown past
its limit (`[files] session_file_mb`) is closed after a settled round, and the next file
begins with a header of its own: a station that runs for weeks writes files that each
replay whole, and old ones are packed away at start (drivers/archive.py).
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.round import Phase
from app.session.events import Event, event_to_dict
from app.session.record import header, jsonl_line
from drivers.archive import archive_older
from drivers.private import open_private

if TYPE_CHECKING:
    from app.session import DealerSession
    from app.settings import TableConfig

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

    def __init__(self, path: Path, worker: Worker, *, resumed: bool = False,
                 limit_bytes: int | None = None) -> None:
        self.path = path
        self.worker = worker
        self.problem: str | None = None
        self.held = resumed  # a round taken back is in play: the file starts after it
        self.session: DealerSession | None = None
        self.limit_bytes = limit_bytes
        self.written = 0  # bytes handed to this file (the worker writes them)

    def start(self, head: Mapping[str, Any]) -> None:
        if not self.held:
            self._write(jsonl_line(head))

    def append(self, event: Event, at: str) -> None:
        s = self.session
        between = s is not None and (s.round is None or s.round.phase is Phase.SETTLED)
        if not self.held:
            self._write(jsonl_line({"at": at, **event_to_dict(event)}))
            if between and self.limit_bytes is not None and self.written > self.limit_bytes:
                self._next_file()
            return
        if between:
            self.held = False  # this event ended the round taken back: not in the file
            assert s is not None
            self._write(jsonl_line(header(s)))

    def _next_file(self) -> None:
        """Close this file after its settled round; the next begins with its own header."""
        assert self.session is not None
        path = session_path(self.path.parent.parent)

        def switch() -> None:  # on the worker, after the lines queued for this file
            self.path = path

        if self.worker.closed:
            switch()
        else:
            self.worker.submit(switch)
        self.written = 0
        self._write(jsonl_line(header(self.session)))

    def _write(self, line: str) -> None:
        self.written += len(line)
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


def pack_old_files(config: TableConfig, data_dir: str | Path) -> list[Path]:
    """At start, on the worker: session files and slip PDFs older than the config's
    `[files] archive_after_days` packed into their folders' monthly archives. A folder
    that cannot be packed is said on stderr and left as it is (the station goes on)."""
    days = config.files.archive_after_days
    folders = [(Path(data_dir) / SESSIONS_FOLDER, "*.jsonl")]
    if config.printer.kind == "pdf":
        folders.append((Path(config.printer.path).expanduser(), "*.pdf"))
    packed: list[Path] = []
    for folder, pattern in folders:
        try:
            packed += archive_older(folder, pattern, days)
        except (OSError, zipfile.BadZipFile) as e:
            print(f"paigow-dealer: old files in {folder} were not packed ({e}); they stay "
                  f"where they are", file=sys.stderr, flush=True)
    return packed
