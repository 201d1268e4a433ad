"""A ledger as a station of migration 0013 wrote it (ids as text on SQLite, the chain's
hashes as hex), kept in tests/ledger/data/ with what that station read back from it, for
the test of migration 0015 (test_compact.py).

Made by the code of 0013 itself, from a checkout of the commit before 0015:

    git archive f184019 | tar -x -C /tmp/old            # main at 0013_slip_once
    cp tests/ledger/old_ledger.py /tmp/old/tests/ledger/
    cd /tmp/old && python -m tests.ledger.old_ledger OUT_DIR

which writes OUT_DIR/ledger-0013.sqlite and OUT_DIR/ledger-0013.json. `readings` is what
the test compares, with the code of today, after the migration.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

from app.ledger import Store

TABLE = "PG-1"
FILE = "ledger-0013.sqlite"
READINGS = "ledger-0013.json"
EXPORTS = ("rounds", "settlements", "hands", "wagers", "bank_decisions", "events")


def readings(store: Store) -> dict[str, Any]:
    """Everything the ledger answers an auditor: history, every round's slip, recall and
    replay, totals, shifts, every export, and each chain's verdict and head."""
    rounds = store.history(limit=1000)
    out: dict[str, Any] = {
        "history": [r.to_dict() for r in rounds],
        "totals": store.totals().to_dict(),
        "shifts": [s.to_dict() for s in store.shifts()],
        "verify": [r.to_dict() for r in store.verify()],
        "rounds": {},
        "exports": {},
    }
    for r in rounds:
        rid = str(r.to_dict()["id"])
        entry: dict[str, Any] = {"recall": store.recall(rid).to_dict()}
        if r.to_dict()["status"] == "settled":
            slip = store.slip(rid)
            entry["slip"] = {"text": slip.text, "data": slip.data()}
        out["rounds"][rid] = entry
    for what in EXPORTS:
        buf = io.StringIO()
        store.export_csv(buf, what)
        out["exports"][what] = buf.getvalue()
    return json.loads(json.dumps(out, default=str))


def make(folder: Path) -> None:
    """Six rounds of several rules, a round voided by a supervisor and a settled seat
    corrected twice, into a new ledger in `folder`."""
    from app.core.round import Round, RoundRules

    from .enrolled import MANAGER, MANAGER_SECRET, enroll
    from .play import RULES, record_rounds

    folder.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{folder / FILE}"
    with Store(url, table=TABLE, station="old-station", data_dir=folder / "station") as store:
        enroll(store)
        store.open_shift("Kim")
        for i, name in enumerate(("standard", "reset-co-bank-two-dragons",
                                  "counterclockwise-dice-one-at-a-time", "fortune-bonus")):
            record_rounds(store, 2 if i == 0 else 1, f"old-{name}", RULES[name])
        game = Round(RoundRules(), store.rotation())
        rec = store.begin(game)
        game.place_wager(2, 2500)
        rec.save()
        rec.void("the table closed", by=store.authorise(MANAGER, MANAGER_SECRET, "void"))
        settled = [r.to_dict() for r in store.history(status="settled", limit=100)]
        target = str(settled[-1]["id"])
        slip = store.slip(target).data()
        line = next(ln for ln in slip["positions"] if ln.get("net_cents"))
        for delta, reason in ((500, "the dealer paid five dollars short"),
                              (0, "it was right after all")):
            store.correct(target, int(line["position"]), net_cents=int(line["net_cents"]) + delta,
                          reason=reason,
                          by=store.authorise(MANAGER, MANAGER_SECRET, "correct"))
        store.close_shift()
        (folder / READINGS).write_text(json.dumps(readings(store), indent=1,
                                                  sort_keys=True) + "\n")


if __name__ == "__main__":
    make(Path(sys.argv[1]))
