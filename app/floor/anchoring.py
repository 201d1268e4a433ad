"""The floor keeps every table's chain head outside the database (app/ledger/anchors.py):
every `every_s` seconds (5 minutes by default) it holds each chain against the newest
checkpoint in its own file, walks every chain as `paigow ledger verify` does, raises an
alert for what does not hold, and writes the heads that moved as new checkpoints. A chain
whose history no longer holds its checkpoint gets no new one: it stays flagged until an
auditor has looked, rather than the changed history becoming the one the floor vouches for.
"""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app.ledger import anchors, chain

from .alerts import Raise

_WORDS = {"edited": "changed since it was written", "forged": "signed with a forged signature",
          "missing": "missing", "revoked": "signed by a key since revoked",
          "unenrolled": "signed by a key no station enrolled",
          "unsigned": "signed by no enrolled station (written behind the ledger's back)"}


class Anchoring:
    def __init__(self, engine: Engine, path: Path, every_s: float = 300.0) -> None:
        self.engine = engine
        self.path = path
        self.every_s = every_s
        self._next = 0.0  # the first pass at the floor's first scan

    def due(self) -> bool:
        return time.monotonic() >= self._next

    def run(self, at: datetime) -> list[Raise]:
        self._next = time.monotonic() + self.every_s
        kept = list(anchors.read_checkpoints(self.path)) if self.path.exists() else []
        with Session(chain.snapshot(self.engine)) as s:
            conn = s.connection()
            mismatches = anchors.check(conn, kept)
            reports = [chain.verify(conn, name) for name in chain.chains(conn)]
            heads = anchors.heads(conn)
        changed = {m.chain for m in mismatches}
        anchors.keep_checkpoints(self.path, [h for c, h in heads.items() if c not in changed],
                                 at)
        found = [Raise(f"anchor:{m.chain}:{m.detail}"[:120], "chain", m.chain,
                       f"The ledger of {m.chain} no longer matches the floor's checkpoint: "
                       f"{m.text()}. Keep the database as it is and call the auditor "
                       f"(paigow ledger verify --checkpoints).") for m in mismatches]
        for r in reports:
            if r.problems:
                first = r.problems[0]
                # The pit's words: what is wrong and where; the row's id is the auditor's,
                # and `paigow ledger verify` names it.
                where = (f"its link {first.seq}" if first.table == "chain" else
                         f"a {first.table} row" + (f" (link {first.seq})" if first.seq else ""))
                found.append(Raise(f"verify:{r.chain}:{first.kind}:{first.seq}"[:120], "chain",
                                   r.chain, f"The ledger of {r.chain} does not verify: {where} "
                                   f"is {_WORDS.get(first.kind, first.kind)}. Call the auditor "
                                   f"(paigow ledger verify names the row)."))
        return found
