"""Anchors outside the database: a chain's head, kept where whoever can write the database
cannot reach, so a history rewritten (every link recomputed and re-signed with a key the
writer holds) or cut short is found, and from where.

- A **head code** names one link of one table's chain: `PG-1 #1234 ab12cd34ef567890` (the
  chain, the link's number, the first 16 hex digits of its entry hash: 64 bits, beyond any
  search for another history that ends the same). Every slip and shift report prints the
  head its station or the floor last saw.
- **Checkpoints** are head codes the floor writes to a file of its own (`checkpoints.jsonl`
  in its data directory, one JSON object a line, 0600) every few minutes: the database's
  owner cannot change them.
- `check` holds the chain against codes: each must name a link that is there with that
  hash. A link missing means the history after the chain's end was removed; a link with
  another hash means the history was rewritten at or before it, and the last code that
  still holds says after where.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, func, select

from drivers.private import open_private

from .errors import LedgerError
from .models import ChainEntry

PREFIX = 16
CHECKPOINTS = "checkpoints.jsonl"
_CODE = re.compile(r"^\s*(?:(?P<chain>.+?)\s*[#/: ]\s*)?#?(?P<seq>\d{1,12})\s*[/: ]?\s*"
                   r"(?P<hash>[0-9a-fA-F][0-9a-fA-F \-]{14,40})\s*$")


@dataclass(frozen=True, slots=True)
class Head:
    """One link of a chain, as an anchor names it (`at`: when it was seen, if known)."""

    chain: str
    seq: int
    entry_hash: str  # the whole hash, or its first PREFIX digits from a printed code
    at: datetime | None = None

    @property
    def code(self) -> str:
        return f"{self.chain} #{self.seq} {self.entry_hash[:PREFIX]}"

    def to_dict(self) -> dict[str, object]:
        return {"chain": self.chain, "seq": self.seq, "head": self.entry_hash,
                "at": self.at.isoformat() if self.at else None}


def parse_code(text: str, chain: str | None = None) -> Head:
    """A head code as typed from a slip ("PG-1 #1234 ab12cd34ef567890"; spaces and dashes
    in the hash are allowed; the table may be given apart, with --table)."""
    found = _CODE.match(text)
    if found is None:
        raise LedgerError(f"{text[:80]!r} is not a head code: it is printed at the foot of a "
                          f"slip as the table, # and the link's number, then 16 hex digits "
                          f"(e.g. \"PG-1 #1234 ab12cd34ef567890\")")
    name = (found["chain"] or chain or "").strip()
    if not name:
        raise LedgerError("the head code names no table: give it whole from the slip, or add "
                          "--table")
    digits = re.sub(r"[ \-]", "", found["hash"]).lower()
    if len(digits) < PREFIX:
        raise LedgerError(f"the head code's hash has {len(digits)} hex digits: a slip prints "
                          f"{PREFIX}; copy it whole")
    return Head(name, int(found["seq"]), digits)


def heads(conn: Connection) -> dict[str, Head]:
    """Each chain's last link now."""
    c = ChainEntry.__table__
    last = (select(c.c.chain, func.max(c.c.seq).label("seq")).group_by(c.c.chain)
            .subquery())
    rows = conn.execute(select(c.c.chain, c.c.seq, c.c.entry_hash).join(
        last, (c.c.chain == last.c.chain) & (c.c.seq == last.c.seq)))
    return {str(r[0]): Head(str(r[0]), int(r[1]), str(r[2])) for r in rows}


def head(conn: Connection, chain: str) -> Head | None:
    c = ChainEntry.__table__
    row = conn.execute(select(c.c.seq, c.c.entry_hash).where(c.c.chain == chain)
                       .order_by(c.c.seq.desc()).limit(1)).first()
    return None if row is None else Head(chain, int(row[0]), str(row[1]))


def _holds(conn: Connection, anchor: Head) -> str | None:
    """Why the chain does not hold this anchor now (None: it holds)."""
    c = ChainEntry.__table__
    found = conn.scalar(select(c.c.entry_hash).where(c.c.chain == anchor.chain,
                                                     c.c.seq == anchor.seq))
    seen = f" seen {anchor.at:%Y-%m-%d %H:%M} UTC" if anchor.at else ""
    if found is None:
        now_head = head(conn, anchor.chain)
        ends = f"ends at link {now_head.seq}" if now_head else "has no links"
        return (f"the chain {ends}, but link {anchor.seq}{seen} was there "
                f"({anchor.code}): the history after link "
                f"{now_head.seq if now_head else 0} was removed")
    if not str(found).startswith(anchor.entry_hash):
        return (f"link {anchor.seq} is not the one{seen} ({anchor.code}): the history was "
                f"rewritten at or before link {anchor.seq}")
    return None


@dataclass(frozen=True, slots=True)
class Mismatch:
    chain: str
    detail: str
    since_seq: int  # the last anchored link that still holds (0: none)

    def text(self) -> str:
        after = (f"; the history up to link {self.since_seq} still matches an earlier anchor"
                 if self.since_seq else "")
        return f"{self.chain}: {self.detail}{after}"


def check(conn: Connection, anchors: Iterable[Head]) -> list[Mismatch]:
    """Hold each chain against its anchors: for a chain whose newest anchor fails, the
    newest one that holds says after where the history changed."""
    by_chain: dict[str, list[Head]] = {}
    for a in anchors:
        by_chain.setdefault(a.chain, []).append(a)
    out = []
    for chain, listed in sorted(by_chain.items()):
        listed.sort(key=lambda a: a.seq)
        why = _holds(conn, listed[-1])
        if why is None:
            continue
        since = next((a.seq for a in reversed(listed[:-1]) if _holds(conn, a) is None), 0)
        out.append(Mismatch(chain, why, since))
    return out


# --- the floor's checkpoints --------------------------------------------------------------

def read_checkpoints(path: Path) -> Iterator[Head]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise LedgerError(f"there are no checkpoints at {path}: the floor keeps them in its "
                          f"data directory ({CHECKPOINTS})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise LedgerError(f"the checkpoints at {path} cannot be read ({e}): give the floor's "
                          f"{CHECKPOINTS}") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            yield Head(str(d["chain"]), int(d["seq"]), str(d["head"]),
                       datetime.fromisoformat(d["at"]) if d.get("at") else None)
        except (ValueError, KeyError, TypeError):
            raise LedgerError(f"line {n} of {path} is not a checkpoint (a JSON object with "
                              f"chain, seq, head and at): the file was damaged") from None


def keep_checkpoints(path: Path, now_heads: Iterable[Head], at: datetime | None = None
                     ) -> int:
    """Append the heads that moved since the file's last checkpoint of their chain."""
    when = at or datetime.now(UTC)
    last: dict[str, int] = {}
    if path.exists():
        for h in read_checkpoints(path):
            last[h.chain] = max(last.get(h.chain, 0), h.seq)
    new = [Head(h.chain, h.seq, h.entry_hash, when) for h in now_heads
           if h.seq > last.get(h.chain, 0)]
    if not new:
        return 0
    with open_private(path, "a", encoding="utf-8") as f:
        for h in new:
            f.write(json.dumps(h.to_dict(), sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())
    return len(new)
