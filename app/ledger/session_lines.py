"""The dealer session's events kept in the station's journal file (issue 24: one local
durable store): each station start (or each file's worth of a long run) is a named session
of JSON lines (app/session/record.py), in the table `session_lines` beside the journal's
ops, so a station keeps one file, backed up and carried as one.

A session's name is the UTC time it began (`2026-11-29T08-00-00.000000Z`), as the session
files before it were named: exported, a session is `NAME.jsonl`, the text `paigow replay`
reads, byte for byte as the station wrote it.

Lines are written with SQLite's `synchronous = NORMAL`, on a connection of their own: a
line lost to a power cut costs a replay its last events, never a record (the ledger, fed by
the journal's ops written with FULL, is the record).
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from drivers.private import private_file

from .errors import LedgerError

SCHEMA = """
CREATE TABLE IF NOT EXISTS session_lines (
    session TEXT NOT NULL,
    n INTEGER NOT NULL,
    line TEXT NOT NULL,
    written TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (session, n)
);
"""


@dataclass(frozen=True, slots=True)
class SessionInfo:
    name: str
    lines: int
    last_written: str  # UTC, ISO 8601


class SessionLines:
    """The sessions in one journal file: add lines, list, read and drop whole sessions."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._next: dict[str, int] = {}
        try:
            if read_only:
                self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30,
                                           check_same_thread=False)
            else:
                private_file(path)
                self._db = sqlite3.connect(path, timeout=30, isolation_level=None,
                                           check_same_thread=False)
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
                self._db.executescript(SCHEMA)
        except sqlite3.Error as e:
            raise LedgerError(f"the station's journal {path} cannot be opened for its "
                              f"session ({e}): check the disk and the file") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add(self, session: str, line: str) -> None:
        """Keep one line at the end of `session`."""
        with self._lock:
            n = self._next.get(session)
            if n is None:
                n = self._count(session)
            self._execute("INSERT INTO session_lines (session, n, line) VALUES (?, ?, ?)",
                          (session, n, line))
            self._next[session] = n + 1

    def _count(self, session: str) -> int:
        row = self._execute("SELECT COUNT(*) FROM session_lines WHERE session = ?",
                            (session,)).fetchone()
        return int(row[0])

    def _execute(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.Error as e:
            raise LedgerError(f"the station's journal {self.path} cannot keep the session "
                              f"({e}): check the disk") from None

    def sessions(self) -> list[SessionInfo]:
        """Every session kept, oldest first."""
        try:
            with self._lock:
                rows = self._execute(
                    "SELECT session, COUNT(*), MAX(written) FROM session_lines "
                    "GROUP BY session ORDER BY session").fetchall()
        except LedgerError:
            if not self._has_table():
                return []  # a journal from before sessions were kept in it
            raise
        return [SessionInfo(str(s), int(n), str(w)) for s, n, w in rows]

    def _has_table(self) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = "
                                   "'session_lines'").fetchone()
        return row is not None

    def text(self, session: str) -> str:
        """The session as the JSON lines `paigow replay` reads."""
        with self._lock:
            rows = self._execute("SELECT line FROM session_lines WHERE session = ? "
                                 "ORDER BY n", (session,)).fetchall()
        return "".join(str(r[0]) for r in rows)

    def drop(self, session: str) -> None:
        with self._lock:
            self._execute("DELETE FROM session_lines WHERE session = ?", (session,))
            self._next.pop(session, None)
