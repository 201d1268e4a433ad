"""Forged records (issue 23): what an attacker with a database login writes, and whether the
ledger takes it for a record. Each trial is a fresh SQLite ledger with an enrolled station
and its rounds, then one attack written as the attacker would (plain SQL, hashlib, their
own key: tests/ledger/forge.py):

- a +$5,000 correction with links by the published recipe (the station's login);
- a supervisor's "ok" sign-in, linked the same way;
- the owner's rewrite of a wager, every later link recomputed and re-signed with a key the
  owner enrolled; held against the head code the station would print on its slip;
- the owner's cut of the last round and its links; held against the floor's checkpoints.

Counted (each must be 0): a forgery `verify` takes for a record, a forged correction the
totals count, a forged sign-in that counts as a try, a rewrite or a cut the anchors miss.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

from app.ledger import Recording, Store, anchors, people
from app.ledger.chain import PEOPLE
from app.ledger.database import make_engine
from tests.ledger.enrolled import MANAGER, enroll
from tests.ledger.forge import (
    attacker_key,
    covered,
    forge_links,
    forged_correction,
    forged_sign_in,
    owner_enrolls,
    rewrite_from,
    truncate_after,
)
from tests.ledger.play import record_rounds

TABLE = "PG-1"


def _ledger(folder: Path, seed: str) -> tuple[Store, str]:
    url = f"sqlite:///{folder / 'ledger.sqlite'}"
    store = Store(url, table=TABLE, station="pg-1", data_dir=folder / "station")
    store.open_shift("Kim")
    enroll(store)
    assert [r for r in record_rounds(store, 2, seed) if isinstance(r, Recording)]
    store.drain()
    return store, url


def _taken(store: Store, chain: str = TABLE) -> int:
    (report,) = store.verify(chain)
    return int(report.intact)


def forged_rows(trials: int) -> dict[str, int]:
    counts = {"forged rows taken for records": 0, "forged corrections counted": 0,
              "forged sign-ins counted": 0}
    for n in range(trials):
        with tempfile.TemporaryDirectory(prefix="paigow-forgery-") as tmp:
            store, url = _ledger(Path(tmp), f"forged-{n}")
            before = store.totals(table=TABLE).players_net_cents
            forge_links(url, TABLE, [("settlements", forged_correction(url))])
            counts["forged rows taken for records"] += _taken(store)
            counts["forged corrections counted"] += (
                store.totals(table=TABLE).players_net_cents != before)
            forge_links(url, PEOPLE, [("sign_ins", forged_sign_in(url, MANAGER, ok=False))])
            counts["forged rows taken for records"] += _taken(store, PEOPLE)
            counts["forged sign-ins counted"] += _tries_counted(store)
            store.close()
    return counts


def _tries_counted(store: Store) -> int:
    """Whether the forged wrong try is among the tries that count for the name."""
    def count(s: object) -> int:
        from sqlalchemy.orm import Session

        assert isinstance(s, Session)
        at = datetime.now(UTC)
        return len([t for t in people._tries(s, MANAGER, datetime(2000, 1, 1, tzinfo=UTC),
                                            at) if not t[0]])

    return int(store._read(count) > 0)


def owner_rewrites(trials: int) -> dict[str, int]:
    counts = {"rewrites missed by a slip's code": 0, "cuts missed by the checkpoints": 0}
    for n in range(trials):
        with tempfile.TemporaryDirectory(prefix="paigow-owner-") as tmp:
            store, url = _ledger(Path(tmp), f"owner-{n}")
            code = store.head_code()
            assert code is not None
            public, kid, sign = attacker_key()
            owner_enrolls(url, public, kid, sign, TABLE)  # type: ignore[arg-type]
            engine = make_engine(url)
            with engine.connect() as conn:  # the first link covering a wager, by the recipe
                first = next(seq for seq, table, _, _ in covered(conn, TABLE)
                             if table == "wagers")
            engine.dispose()
            rewrite_from(url, TABLE, first, sign, kid,  # type: ignore[arg-type]
                         "UPDATE wagers SET amount_cents = amount_cents + 500000")
            missed = not store.check_anchors([anchors.parse_code(code)])
            counts["rewrites missed by a slip's code"] += missed
            store.close()
        with tempfile.TemporaryDirectory(prefix="paigow-cut-") as tmp:
            store, url = _ledger(Path(tmp), f"cut-{n}")
            kept = store.head_code()
            assert kept is not None
            cut_at = anchors.parse_code(kept).seq
            assert [r for r in record_rounds(store, 1, f"cut-{n}-2")
                    if isinstance(r, Recording)]
            store.drain()
            later = store.head_code()
            assert later is not None
            truncate_after(url, TABLE, cut_at)
            counts["cuts missed by the checkpoints"] += not store.check_anchors(
                [anchors.parse_code(kept), anchors.parse_code(later)])
            store.close()
    return counts
