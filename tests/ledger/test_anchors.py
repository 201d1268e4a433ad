"""Anchors outside the database (issue 23): the database's owner can rewrite a history and
re-sign it with a key of their own enrolling, or cut its end off, and the chain alone still
verifies; a head code from a slip and the floor's checkpoints find it, and say from where.
Written as the owner would: plain SQL, hashlib, their own Ed25519 key (tests/ledger/forge.py)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from app.cli import main
from app.floor.anchoring import Anchoring
from app.ledger import Recording, Store, anchors
from app.ledger.database import make_engine

from .conftest import TABLE
from .enrolled import enroll
from .forge import attacker_key, covered, owner_enrolls, rewrite_from, truncate_after
from .play import record_rounds
from .tamper import sql_uuid


def _rounds(store: Store, n: int, seed: str) -> None:
    assert [r for r in record_rounds(store, n, seed) if isinstance(r, Recording)]
    store.drain()


def _verify(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str]:
    code = main(["ledger", "verify", "--database-url", url, *args])
    out, err = capsys.readouterr()
    return code, out + err


def test_a_history_rewritten_and_re_signed_by_the_owner_is_found_by_a_slip_s_head_code(
        store: Store, database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    enroll(store)
    _rounds(store, 2, "anchor")
    code = store.head_code()
    assert code is not None and code.startswith(f"{TABLE} #")
    public, kid, sign = attacker_key()
    owner_enrolls(database_url, public, kid, sign, TABLE)  # type: ignore[arg-type]
    engine = make_engine(database_url)
    with engine.connect() as conn:  # the first link that covers a wager, read by the recipe
        link, _, wager_id, _ = next(c for c in covered(conn, TABLE) if c[1] == "wagers")
    engine.dispose()
    wid = sql_uuid(database_url, uuid.UUID(wager_id))
    rewrite_from(database_url, TABLE, int(link), sign, kid,  # type: ignore[arg-type]
                 f"UPDATE wagers SET amount_cents = amount_cents + 500000 WHERE id = {wid}")
    assert all(r.intact for r in store.verify()), [r.text() for r in store.verify()]
    rc, out = _verify(capsys, database_url, "--head", code)
    assert rc == 1
    assert f"{TABLE}: link {code.split()[1][1:]} is not the one" in out
    assert "the history was rewritten at or before link" in out


def test_the_last_round_cut_off_with_its_links_is_found_by_the_floor_s_checkpoints(
        store: Store, database_url: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    enroll(store)
    _rounds(store, 1, "cut")
    floor = Anchoring(make_engine(database_url), tmp_path / "floor" / anchors.CHECKPOINTS,
                      every_s=0)
    assert floor.run(anchors.datetime.now(anchors.UTC)) == []
    kept = store.head_code()
    assert kept is not None
    cut_at = int(kept.split()[1][1:])
    _rounds(store, 1, "cut-2")
    assert floor.run(anchors.datetime.now(anchors.UTC)) == []
    assert truncate_after(database_url, TABLE, cut_at) > 0
    assert all(r.intact for r in store.verify())  # the chain alone cannot tell
    rc, out = _verify(capsys, database_url, "--checkpoints", str(floor.path))
    assert rc == 1
    assert f"{TABLE}: the chain ends at link {cut_at}, but link" in out
    assert f"the history after link {cut_at} was removed" in out
    assert f"the history up to link {cut_at} still matches an earlier anchor" in out
    (alert,) = floor.run(anchors.datetime.now(anchors.UTC))
    assert alert.kind == "chain" and alert.table == TABLE
    assert "no longer matches the floor's checkpoint" in alert.text


def test_a_head_code_that_is_not_one_is_refused_with_a_sentence(
        store: Store, database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _verify(capsys, database_url, "--head", "PG-1 round 12")
    assert rc == 2 and "is not a head code" in out and "Traceback" not in out
