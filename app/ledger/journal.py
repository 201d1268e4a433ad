"""The station's own journal: everything the station writes to the ledger goes here first,
durably (SQLite, WAL, synchronous=FULL: on disk before the call returns), then to the
database. It is the outbox: what the database has not taken yet waits here, in order, and is
sent again until it is taken. It is also how a killed station finds its round again: the
records of the round in play stay here until the round is finished and delivered.

Every op is signed when it is kept, by the station's own key, the one that signs its links
in the ledger (keys.py): `signature` is its Ed25519 signature of SHA-256 of the JSON array
["paigow.journal/2", seq, op_id, kind, round_id, at, payload as stored]. The journal keeps
no hash chain of its own: the ledger's chain is the one chain, and an op's number, signed
with it, is what ties it to the op before. Before an op is sent, `fault` checks its
signature and that the op before it is still here or was sent: an op changed after it was
written (with sqlite3, say), slipped in without the key, or whose predecessor is gone, is
held (`held` says why): never sent, never dropped, and the store records an alert in the
ledger.

A journal kept by an older station (a SHA-256 chain "paigow.journal/1", or no seals at all)
is checked once, when this station first opens it: what is as it was kept is signed, what
is not is held; from then on only a signed op is sent.

One file per station in the station's data directory; standard library and the station's
key only.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.private import private_file

from . import keys
from .errors import LedgerError

SCHEMA = """
CREATE TABLE IF NOT EXISTS ops (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    op_id TEXT NOT NULL UNIQUE,
    round_id TEXT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0,
    prev_hash TEXT,
    hash TEXT,
    held TEXT,
    alerted INTEGER NOT NULL DEFAULT 0,
    signature TEXT
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
    payload: dict[str, object]
    at: str
    seq: int = 0
    delivered: bool = False
    fault: str | None = None  # why the op is not as it was kept (None: it is)
    held: str | None = None  # why the op was held back, not sent


FORMAT = "paigow.journal/2"
LEGACY = "paigow.journal/1"  # the SHA-256 chain an older station sealed its ops with
GENESIS = "0" * 64
COLUMNS = (("prev_hash", "TEXT"), ("hash", "TEXT"), ("held", "TEXT"),
           ("alerted", "INTEGER NOT NULL DEFAULT 0"), ("signature", "TEXT"))
UNSIGNED = ("it has no signature: it was written into the journal by something other than "
            "the station")
CHANGED = "it was changed after the station wrote it"
# An ops row as _ops selects it; the payload is whatever the file holds (checked, not trusted).
OpRow = tuple[str, str, str | None, object, str, int, int, str | None, str | None]


def digest(seq: int, op_id: str, kind: str, round_id: str | None, at: str,
           payload: str) -> str:
    """What an op's signature is of (module docstring)."""
    text = json.dumps([FORMAT, seq, op_id, kind, round_id, at, payload],
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(op_id: str, kind: str, round_id: str | None, at: str, payload: str,
         prev_hash: str) -> str:
    """The SHA-256 an older station kept an op with ("paigow.journal/1")."""
    text = json.dumps([LEGACY, op_id, kind, round_id, at, payload, prev_hash],
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Journal:
    """The station's durable outbox and its memory of the round in play."""

    def __init__(self, path: Path, signer: keys.Signer) -> None:
        self.path = path
        self.signer = signer
        self._lock = threading.RLock()
        private_file(path)  # 0600 before SQLite opens it: its -wal and -shm follow
        try:
            self._db = sqlite3.connect(path, timeout=30, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.executescript(SCHEMA)
            self._upgrade()
            # Marks of what the database took need not reach the disk before the call
            # returns: one lost to a power cut is only sent again, and the database knows it.
            self._marks = sqlite3.connect(path, timeout=30, isolation_level=None,
                                          check_same_thread=False)
            self._marks.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as e:
            raise LedgerError(f"the station's journal {path} cannot be opened ({e}): check "
                              f"the disk and the data directory's permissions") from None

    def _upgrade(self) -> None:
        """Once, in a journal an older station kept: each op still here that is as it was
        kept (its /1 seal and link hold, or it is from before the seals) is signed; one that
        is not is held. Done once (`format` in meta), so no op slipped in later is signed."""
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(ops)")}
        if "signature" in columns and self.meta("format") == FORMAT:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for name, kind in COLUMNS:
                if name not in columns:
                    self._db.execute(f"ALTER TABLE ops ADD COLUMN {name} {kind}")
            if "hash" not in columns:  # no seals yet: every op here was the station's
                last = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM ops").fetchone()[0]
                self._set_meta("sealed_from", last)
            for row in self._db.execute(
                    "SELECT seq, op_id, kind, round_id, at, payload, prev_hash, hash, "
                    "delivered FROM ops WHERE signature IS NULL AND held IS NULL "
                    "ORDER BY seq").fetchall():
                seq, op_id, kind, round_id, at, text, prev_hash, sealed, delivered = row
                why = self._legacy_fault(seq, op_id, kind, round_id, at, text, prev_hash,
                                         sealed, linked=not delivered)
                if why is not None:
                    self._db.execute("UPDATE ops SET held = ? WHERE seq = ?", (why, seq))
                else:
                    self._db.execute("UPDATE ops SET signature = ? WHERE seq = ?",
                                     (self._sign(seq, op_id, kind, round_id, at, text), seq))
            sent = self.meta("sent")
            if isinstance(sent, dict):  # /1 kept the seal of the op sent last, by its number
                self._set_meta("sent", max((int(k) for k in sent), default=0))
            self._set_meta("format", FORMAT)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _set_meta(self, key: str, value: object) -> None:
        self._db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO "
                         "UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def _legacy_fault(self, seq: int, op_id: str, kind: str, round_id: str | None, at: str,
                      text: object, prev_hash: str | None, sealed: str | None,
                      linked: bool = True) -> str | None:
        """Why an op an older station kept is not as it kept it (its /1 seal), or None."""
        sealed_from = self.meta("sealed_from") or 0
        if sealed is None:
            return None if seq <= sealed_from else UNSIGNED
        if not isinstance(text, str) or not isinstance(prev_hash, str) or seal(
                op_id, kind, round_id, at, text, prev_hash) != sealed:
            return CHANGED
        if not linked:
            return None
        if seq - 1 <= sealed_from:  # the first op sealed
            return None if prev_hash == GENESIS else "it does not follow the operation " \
                                                     "before it: the journal was reordered"
        row = self._db.execute("SELECT hash FROM ops WHERE seq = ?", (seq - 1,)).fetchone()
        sent = self.meta("sent")
        before = row[0] if row is not None else (sent.get(str(seq - 1))
                                                 if isinstance(sent, dict) else None)
        if before is None:
            return f"the operation before it ({seq - 1}) is missing from the journal"
        if before != prev_hash:
            return f"it does not follow operation {seq - 1}: the journal was reordered"
        return None

    def _sign(self, seq: int, op_id: str, kind: str, round_id: str | None, at: str,
              payload: str) -> str:
        return self.signer.sign(digest(seq, op_id, kind, round_id, at, payload))

    def close(self) -> None:
        with self._lock:
            self._marks.close()
            self._db.close()

    def _write(self, statements: Iterable[tuple[str, tuple[object, ...]]],
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

    def append(self, ops: Iterable[Op], meta: Mapping[str, object] | None = None) -> None:
        """Keep these ops (and set these meta values, None deletes) in one durable write."""
        with self._lock:
            self._append(ops, meta)

    def _append(self, ops: Iterable[Op], meta: Mapping[str, object] | None) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # the number each op gets is part of what is signed: never one used before
                row = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'ops'"
                                       ).fetchone()
                seq = int(row[0]) if row else 0
                for op in ops:
                    seq += 1
                    payload = json.dumps(op.payload)
                    self._db.execute(
                        "INSERT INTO ops (seq, op_id, round_id, kind, payload, at, signature) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (seq, op.op_id, op.round_id, op.kind, payload, op.at,
                         self._sign(seq, op.op_id, op.kind, op.round_id, op.at, payload)))
                for key, value in (meta or {}).items():
                    if value is None:
                        self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
                    else:
                        self._set_meta(key, value)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as e:
            raise LedgerError(f"the station cannot write its journal {self.path} ({e}): "
                              f"stop play and call a supervisor; check the disk") from None

    def meta(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def _ops(self, where: str, args: tuple[object, ...], limit: int = -1) -> list[Op]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT op_id, kind, round_id, payload, at, seq, delivered, signature, held "
                f"FROM ops WHERE {where} ORDER BY seq LIMIT ?", (*args, limit)).fetchall()
            return [self._op(r) for r in rows]

    def _op(self, r: OpRow) -> Op:
        op_id, kind, round_id, text, at, seq, delivered, signature, held = r
        try:
            payload = json.loads(text) if isinstance(text, str | bytes | bytearray) else {}
        except ValueError:
            payload = {}
        return Op(op_id, kind, round_id, payload, at, seq, bool(delivered),
                  self._fault(seq, op_id, kind, round_id, at, text, signature,
                              linked=not delivered), held)

    def _fault(self, seq: int, op_id: str, kind: str, round_id: str | None, at: str,
               text: object, signature: str | None, linked: bool = True) -> str | None:
        """Why this op is not as the station kept it, or None. `linked`: the op before it is
        checked too (only for an op still to send: once sent, the ops before it may have
        been dropped)."""
        if not signature:
            return UNSIGNED
        if not isinstance(text, str) or not keys.signature_holds(
                self.signer.public_hex, digest(seq, op_id, kind, round_id, at, text),
                signature):
            return CHANGED
        if not linked or seq - 1 <= (self.meta("sent") or 0):
            return None
        if self._db.execute("SELECT 1 FROM ops WHERE seq = ?", (seq - 1,)).fetchone() is None:
            return f"the operation before it ({seq - 1}) is missing from the journal"
        return None

    def pending(self, limit: int = 500) -> list[Op]:
        """What the database has not taken yet, oldest first (not what is held)."""
        return self._ops("delivered = 0 AND held IS NULL", (), limit)

    def hold(self, op: Op, why: str) -> None:
        """Keep `op` and never send it: it is not as the station wrote it."""
        self._write([("UPDATE ops SET held = ? WHERE seq = ?", (why, op.seq))])

    def unalerted(self) -> list[Op]:
        """Held ops whose alert the ledger has not taken yet."""
        return self._ops("held IS NOT NULL AND alerted = 0", ())

    def alerted(self, op: Op) -> None:
        self._write([("UPDATE ops SET alerted = 1 WHERE seq = ?", (op.seq,))])

    def held(self) -> list[Op]:
        return self._ops("held IS NOT NULL", ())

    def round_ops(self, round_id: str) -> list[Op]:
        return self._ops("round_id = ?", (round_id,))

    def delivered(self, op: Op) -> None:
        """The database has taken `op`. Taken ops are dropped, except those of the round in
        play (`open_round` in meta), which stay until it is finished: they rebuild it."""
        with self._lock:
            open_round = self.meta("open_round")
            self._write([
                ("UPDATE ops SET delivered = 1 WHERE seq = ?", (op.seq,)),
                ("DELETE FROM ops WHERE delivered = 1 AND held IS NULL AND (round_id IS NULL "
                 "OR round_id IS NOT ?)", (open_round,)),
                # the op sent last: the op after it follows it even once it is gone
                ("INSERT INTO meta (key, value) VALUES ('sent', ?) ON CONFLICT (key) DO UPDATE "
                 "SET value = excluded.value", (json.dumps(op.seq),)),
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
                "SELECT COUNT(*), MIN(at) FROM ops WHERE delivered = 0 AND held IS NULL"
            ).fetchone()
        return int(n), oldest
