"""The station's own journal: everything the station writes to the ledger goes here first,
durably (SQLite, WAL, synchronous=FULL: on disk before the call returns), then to the
database. It is the outbox: what the database has not taken yet waits here, in order, and is
sent again until it is taken. It is also how a killed station finds its round again: the
records of the round in play stay here until the round is finished and delivered.

One file per station in the station's data directory; standard library only.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import LedgerError

SCHEMA = """
CREATE TABLE IF NOT EXISTS ops (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    op_id TEXT NOT NULL UNIQUE,
    round_id TEXT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS ops_round ON ops (round_id, seq);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class Op:
    """One write to the ledger, as the station made it."""

    op_id: str
    kind: str
    round_id: str | None
    payload: dict[str, Any]
    at: str
    seq: int = 0
    delivered: bool = False


class Journal:
    """The station's durable outbox and its memory of the round in play."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(path, timeout=30, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.executescript(SCHEMA)
            # Marks of what the database took need not reach the disk before the call
            # returns: one lost to a power cut is only sent again, and the database knows it.
            self._marks = sqlite3.connect(path, timeout=30, isolation_level=None,
                                          check_same_thread=False)
            self._marks.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as e:
            raise LedgerError(f"the station's journal {path} cannot be opened ({e}): check "
                              f"the disk and the data directory's permissions") from None
        self._lock = threading.RLock()

    def close(self) -> None:
        with self._lock:
            self._marks.close()
            self._db.close()

    def _write(self, statements: Iterable[tuple[str, tuple[Any, ...]]],
               db: sqlite3.Connection | None = None) -> None:
        db = db or self._db
        with self._lock:
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    for sql, args in statements:
                        db.execute(sql, args)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except sqlite3.Error as e:
                raise LedgerError(f"the station cannot write its journal {self.path} ({e}): "
                                  f"stop play and call a supervisor; check the disk") from None

    def append(self, ops: Iterable[Op], meta: Mapping[str, Any] | None = None) -> None:
        """Keep these ops (and set these meta values, None deletes) in one durable write."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO ops (op_id, round_id, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
             (op.op_id, op.round_id, op.kind, json.dumps(op.payload), op.at)) for op in ops]
        for key, value in (meta or {}).items():
            if value is None:
                statements.append(("DELETE FROM meta WHERE key = ?", (key,)))
            else:
                statements.append(("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT "
                                   "(key) DO UPDATE SET value = excluded.value",
                                   (key, json.dumps(value))))
        self._write(statements)

    def meta(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def _ops(self, where: str, args: tuple[Any, ...], limit: int = -1) -> list[Op]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT op_id, kind, round_id, payload, at, seq, delivered FROM ops "
                f"WHERE {where} ORDER BY seq LIMIT ?", (*args, limit)).fetchall()
        return [Op(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], bool(r[6])) for r in rows]

    def pending(self, limit: int = 500) -> list[Op]:
        """What the database has not taken yet, oldest first."""
        return self._ops("delivered = 0", (), limit)

    def round_ops(self, round_id: str) -> list[Op]:
        return self._ops("round_id = ?", (round_id,))

    def delivered(self, op: Op) -> None:
        """The database has taken `op`. Taken ops are dropped, except those of the round in
        play (`open_round` in meta), which stay until it is finished: they rebuild it."""
        with self._lock:
            open_round = self.meta("open_round")
            self._write([
                ("UPDATE ops SET delivered = 1 WHERE seq = ?", (op.seq,)),
                ("DELETE FROM ops WHERE delivered = 1 AND (round_id IS NULL OR round_id IS NOT ?)",
                 (open_round,)),
            ], self._marks)

    def has_round_ops(self) -> bool:
        """Whether the journal holds anything of any round (in play, or still to send)."""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM ops WHERE round_id IS NOT NULL LIMIT 1"
                                   ).fetchone()
        return row is not None

    def counts(self) -> tuple[int, str | None]:
        """How many ops wait, and when the oldest was made."""
        with self._lock:
            n, oldest = self._db.execute(
                "SELECT COUNT(*), MIN(at) FROM ops WHERE delivered = 0").fetchone()
        return int(n), oldest
