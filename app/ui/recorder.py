"""The station's session: every event the dealer session handled, as JSON lines
(app/session/record.py), kept in the station's journal file (`SessionLines`, one local
durable store), so `paigow replay JOURNAL` prints the slips the table printed.

One session per station start, named by the UTC time it started. The lines are written on
the worker (no disk I/O on the GUI thread), in the order the session handled the events.

A station that took back a round left in play starts its session when that round is over
(settled or void): the session's header then holds the rotation the next round opens with,
and every round in it replays whole. For the same reason a session that has grown past its
limit (`[files] session_file_mb`) is closed after a settled round, and the next begins with
a header of its own: a station that runs for weeks keeps sessions that each replay whole,
and old ones are packed away at start (drivers/archive.py) as `NAME.jsonl` files.
"""

from __future__ import annotations

import os
import sys
import zipfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.round import Phase
from app.ledger.errors import LedgerError
from app.ledger.session_lines import SessionLines
from app.session.events import Event, event_to_dict
from app.session.record import header, jsonl_line
from drivers.archive import archive_older
from drivers.private import open_private, private_folder

if TYPE_CHECKING:
    from app.session import DealerSession
    from app.settings import TableConfig

    from .worker import Worker

SESSIONS_FOLDER = "sessions"


def session_name(started: datetime | None = None) -> str:
    """The name of a session started at `started` (UTC)."""
    # To the microsecond: two starts in one second keep two sessions.
    return (started or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%S.%fZ")


class SessionLog:
    """A RecorderPort writing into the journal's session lines through the station's
    worker. `problem` holds the first write that failed (the session goes on; the ledger,
    not this copy, is the record)."""

    def __init__(self, lines: SessionLines, worker: Worker, *, resumed: bool = False,
                 limit_bytes: int | None = None) -> None:
        self.lines = lines
        self.name = session_name()
        self.worker = worker
        self.problem: str | None = None
        self.held = resumed  # a round taken back is in play: the session starts after it
        self.session: DealerSession | None = None
        self.limit_bytes = limit_bytes
        self.written = 0  # bytes handed to this session (the worker writes them)

    def start(self, head: Mapping[str, object]) -> None:
        if not self.held:
            self._write(jsonl_line(head))

    def append(self, event: Event, at: str) -> None:
        s = self.session
        between = s is not None and (s.round is None or s.round.phase is Phase.SETTLED)
        if not self.held:
            self._write(jsonl_line({"at": at, **event_to_dict(event)}))
            if between and self.limit_bytes is not None and self.written > self.limit_bytes:
                self._next_session()
            return
        if between:
            self.held = False  # this event ended the round taken back: not in the session
            assert s is not None
            self._write(jsonl_line(header(s)))

    def _next_session(self) -> None:
        """Close this session after its settled round; the next begins with its header."""
        assert self.session is not None
        self.name = session_name()
        self.written = 0
        self._write(jsonl_line(header(self.session)))

    def _write(self, line: str) -> None:
        self.written += len(line)
        name = self.name  # the session it belongs to, fixed now: a switch comes after
        if self.worker.closed:  # the station is closing (its shoe says so): write it now
            self._put(name, line)
        else:
            self.worker.submit(lambda: self._put(name, line))

    def _put(self, name: str, line: str) -> None:
        if self.problem is not None:
            return
        try:
            self.lines.add(name, line)
        except LedgerError as e:
            self.problem = str(e)


def pack_old_files(config: TableConfig, data_dir: str | Path,
                   lines: SessionLines | None = None, current: str | None = None
                   ) -> list[Path]:
    """At start, on the worker: sessions and slip PDFs older than the config's
    `[files] archive_after_days` packed into their folders' monthly archives. A folder
    that cannot be packed is said on stderr and left as it is (the station goes on)."""
    days = config.files.archive_after_days
    if lines is not None and days > 0:
        export_old_sessions(lines, Path(data_dir) / SESSIONS_FOLDER, days, current)
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


def export_old_sessions(lines: SessionLines, folder: Path, days: int,
                        current: str | None = None) -> list[Path]:
    """Each session last written more than `days` days ago, written out as `NAME.jsonl`
    (last changed when its last line was) and only then taken out of the journal: a session
    is in the journal or in its file, never in neither. The files are then packed like any
    old file."""
    before = datetime.now(UTC).timestamp() - days * 86_400
    out: list[Path] = []
    try:
        old = [s for s in lines.sessions() if s.name != current
               and _when(s.last_written) < before]
    except LedgerError as e:
        print(f"paigow-dealer: old sessions were not packed ({e})", file=sys.stderr,
              flush=True)
        return out
    for info in old:
        path = private_folder(folder) / f"{info.name}.jsonl"
        try:
            with open_private(path, "w", encoding="utf-8") as f:
                f.write(lines.text(info.name))
                f.flush()
                os.fsync(f.fileno())
            moment = _when(info.last_written)
            os.utime(path, (moment, moment))
            lines.drop(info.name)
        except (OSError, LedgerError) as e:
            print(f"paigow-dealer: session {info.name} was not packed ({e}); it stays in "
                  f"the journal", file=sys.stderr, flush=True)
            continue
        out.append(path)
    return out


def _when(written: str) -> float:
    return datetime.fromisoformat(written.replace("Z", "+00:00")).timestamp()
