"""What a bonus round takes in the ledger, its lines as rows (migration 0014) against its
lines in the kept slip (as before it): `python -m tests.bench.ledger_bonus_bytes [ROUNDS]`
(not part of `make bench`: it answers one question, docs/ledger.md "The bonus and envy
lines as rows"). The same rounds of tests/ledger/play.py's `fortune-bonus` table are played
into two SQLite ledgers; each file's growth is taken after a checkpoint and VACUUM."""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ledger import Store, apply, slips
from app.ledger.models import BonusSettlementRow, RoundRow
from tests.ledger.enrolled import enrolled_key
from tests.ledger.play import RULES, record_rounds


def _size(path: Path) -> int:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.close()
    return path.stat().st_size


def grown(rounds: int, as_rows: bool) -> tuple[int, int, int]:
    """(bytes the file grew, bytes of slip_json, bonus rows) over `rounds` rounds."""
    where = Path(tempfile.mkdtemp(prefix="paigow-bonus-bytes-"))
    path = where / "ledger.sqlite"
    patch = pytest.MonkeyPatch()
    if not as_rows:  # as before 0014: no rows, the lines (and rules) in the kept slip
        patch.setattr(apply, "_bonus_rows", lambda s, rnd, slip, at: None)
        patch.setattr(slips, "bonus_rows", lambda s, rnd: [])
    try:
        with Store(f"sqlite:///{path}", table="PG-1", station="bench",
                   data_dir=where / "data") as store:
            enrolled_key(store)
            store.open_shift("Kim")
            record_rounds(store, 5, "warm", RULES["fortune-bonus"])
            store.drain()
            start = _size(path)
            record_rounds(store, rounds, "measure", RULES["fortune-bonus"])
            store.drain()
            end = _size(path)
            with Session(store.engine) as s:
                kept = sum(len(x or "") for x in s.scalars(select(RoundRow.slip_json)))
                rows = s.scalar(select(func.count()).select_from(BonusSettlementRow)) or 0
    finally:
        patch.undo()
    return end - start, kept, rows


def main(rounds: int = 100) -> None:
    before = grown(rounds, as_rows=False)
    after = grown(rounds, as_rows=True)
    for name, (size, kept, rows) in (("in the slip", before), ("as rows", after)):
        print(f"bench ledger-bonus lines={name} rounds={rounds} bytes-per-round="
              f"{size / rounds:.0f} slip-json-per-round={kept / (rounds + 5):.0f} rows={rows}")
    print(f"bench ledger-bonus difference={(after[0] - before[0]) / rounds:+.0f}B-per-round")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
