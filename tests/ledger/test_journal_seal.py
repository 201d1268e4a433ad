"""The journal's queued operations are signed with their numbers, and checked before they
are sent (issue 15): "editing one queued journal operation with sqlite3 before it was sent
turned a played $52.25 into a $1,000.00 player win in PostgreSQL". An edited operation is
"refused, kept, and raised as an alert, never applied"; `paigow ledger status` says so.
Issue 24: one chain - the journal keeps no SHA-256 chain of its own; each op carries the
signature of the station's key, the one that signs its links in the ledger."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.cli import main
from app.core.round import Round, RoundRules
from app.ledger import Store, keys
from app.ledger.journal import GENESIS, seal
from app.ledger.models import Event, RoundRow, WagerRow

from .conftest import TABLE
from .enrolled import enroll
from .play import play


@pytest.fixture()
def queued(database_url: str) -> Iterator[tuple[Store, str]]:
    """A round played and settled with the database not written yet: all of it queued."""
    # the station's own data folder (the test's, by XDG_DATA_HOME): where `paigow ledger
    # status` looks for its journal
    store = Store(database_url, table=TABLE, station="queued", send_on_save=False)
    store.open_shift("Kim")
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    play(game, random.Random("sealed"), rec.save)
    yield store, rec.round_id
    store.close()


def _ops(store: Store) -> list[tuple[int, str, dict[str, object]]]:
    with sqlite3.connect(store.journal_path) as db:
        return [(seq, kind, json.loads(payload)) for seq, kind, payload in db.execute(
            "SELECT seq, kind, payload FROM ops ORDER BY seq")]


def _edit(store: Store, seq: int, payload: dict[str, object]) -> None:
    """What the audit did: sqlite3 on the station's journal file, no questions asked."""
    with sqlite3.connect(store.journal_path) as db:
        db.execute("UPDATE ops SET payload = ? WHERE seq = ?", (json.dumps(payload), seq))


def test_each_queued_operation_is_signed_with_its_number_by_the_station_s_key(
        queued: tuple[Store, str]) -> None:
    """The documented recipe: Ed25519 of SHA-256 of ["paigow.journal/2", seq, op_id, kind,
    round_id, at, payload], by the key that signs the station's links; no hash chain."""
    store, _ = queued
    with sqlite3.connect(store.journal_path) as db:
        rows = db.execute("SELECT seq, op_id, kind, round_id, at, payload, signature, "
                          "prev_hash, hash FROM ops ORDER BY seq").fetchall()
    assert len(rows) > 5
    for seq, op_id, kind, round_id, at, payload, signature, prev_hash, sealed in rows:
        digest = hashlib.sha256(json.dumps(
            ["paigow.journal/2", seq, op_id, kind, round_id, at, payload],
            separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
        assert keys.signature_holds(store.signer.public_hex, digest, signature)
        assert (prev_hash, sealed) == (None, None)  # the ledger's chain is the one chain


def test_an_operation_moved_to_another_number_is_held(queued: tuple[Store, str]) -> None:
    """Its number is signed with it: two ops swapped are no longer as the station kept them."""
    store, _ = queued
    first, second = [op[0] for op in _ops(store)][2:4]
    with sqlite3.connect(store.journal_path) as db:
        db.execute("UPDATE ops SET seq = -1 WHERE seq = ?", (first,))
        db.execute("UPDATE ops SET seq = ? WHERE seq = ?", (first, second))
        db.execute("UPDATE ops SET seq = ? WHERE seq = -1", (second,))
    status = store.drain()
    assert status.held == 2 and status.held_why == "it was changed after the station wrote it"


def test_an_edited_operation_is_never_applied_kept_and_raised_as_an_alert(
        queued: tuple[Store, str], capsys: pytest.CaptureFixture[str]) -> None:
    store, round_id = queued
    seq, _, payload = next(op for op in _ops(store) if op[1] == "records" and any(
        r["type"] == "wager_placed" for r in op[2]["records"]))  # type: ignore[union-attr]
    records = payload["records"]
    assert isinstance(records, list)
    wager = next(r for r in records if r["type"] == "wager_placed")
    wager["wager_cents"] = 100_000  # a $1,000.00 wager nobody placed
    _edit(store, seq, payload)

    status = store.drain()
    with Session(store.engine) as s:
        forged = s.scalars(select(WagerRow).where(WagerRow.amount_cents == 100_000)).all()
        events = s.scalars(select(Event).where(Event.payload.contains('"wager_cents": 100000')
                                               | Event.payload.contains(
                                                   '"wager_cents":100000'))).all()
        alert = s.scalars(select(Event).where(Event.kind == "journal_refused")).one()
        rnd = s.get(RoundRow, uuid.UUID(round_id))
    assert forged == [] and events == []  # never applied
    assert rnd is None or rnd.status == "open"  # the round is not settled on a forged record
    alert_says = json.loads(alert.payload)
    assert alert_says["op"] == seq and alert_says["why"] == \
        "it was changed after the station wrote it"
    assert "100000" not in alert.payload  # the alert says what and why, not what it held
    # kept, not lost: still in the journal, marked held
    with sqlite3.connect(store.journal_path) as db:
        held = db.execute("SELECT held FROM ops WHERE seq = ?", (seq,)).fetchone()
    assert held == ("it was changed after the station wrote it",)
    assert status.held == 1 and status.banner is not None
    assert "were changed after they were written" in status.banner
    # sending again neither applies it nor raises the alert twice
    store.drain()
    with Session(store.engine) as s:
        assert len(s.scalars(select(Event).where(Event.kind == "journal_refused")).all()) == 1

    url = store.url.render_as_string(hide_password=False)
    assert main(["ledger", "status", "--database-url", url, "--station", "queued"]) == 0
    out = capsys.readouterr().out
    assert "held, never sent (changed after the station wrote them): 1" in out
    assert "were changed after they were written (it was changed after the station wrote " \
           "it): held, not sent; the ledger has the alert. Call a supervisor." in out


def test_a_deleted_queued_operation_holds_the_one_after_it(queued: tuple[Store, str]) -> None:
    store, _ = queued
    seq = [op[0] for op in _ops(store)][-2]
    with sqlite3.connect(store.journal_path) as db:
        db.execute("DELETE FROM ops WHERE seq = ?", (seq,))
    status = store.drain()
    assert status.held == 1
    assert status.held_why == f"the operation before it ({seq}) is missing from the journal"


def test_an_untouched_journal_is_sent_whole(queued: tuple[Store, str]) -> None:
    store, round_id = queued
    status = store.drain()
    assert (status.pending, status.held, status.banner) == (0, 0, None)
    enroll(store)
    with Session(store.engine) as s:
        rnd = s.get(RoundRow, uuid.UUID(round_id))
    assert rnd is not None and rnd.status == "settled"
    (report,) = store.verify(TABLE)
    assert report.intact


def test_a_journal_from_before_the_seals_sends_its_old_operations_and_signs_the_new(
        tmp_path: Path) -> None:
    from app.ledger.journal import Journal, Op
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # the journal as an older station kept it
        db.executescript("""
            CREATE TABLE ops (seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL
              UNIQUE, round_id TEXT, kind TEXT NOT NULL, payload TEXT NOT NULL,
              at TEXT NOT NULL, delivered INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO ops (op_id, kind, payload, at) VALUES ('a', 'note', '{}', 't');""")
    journal = Journal(path, keys.load_or_make(tmp_path / "key"))
    journal.append([Op("b", "note", None, {"x": 1}, "t2")])
    old, new = journal.pending()
    assert (old.fault, new.fault) == (None, None)
    with sqlite3.connect(path) as db:  # an op slipped in later without a signature
        db.execute("INSERT INTO ops (op_id, kind, payload, at) VALUES ('c', 'note', '{}', 't')")
    assert journal.pending()[-1].fault == ("it has no signature: it was written into the "
                                           "journal by something other than the station")
    journal.close()


def _sealed_journal(path: Path, ops: list[tuple[str, str]]) -> None:
    """A journal as the station kept it before issue 24: each op sealed by SHA-256 and
    linked to the one before ("paigow.journal/1")."""
    with sqlite3.connect(path) as db:
        db.executescript("""
            CREATE TABLE ops (seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL
              UNIQUE, round_id TEXT, kind TEXT NOT NULL, payload TEXT NOT NULL,
              at TEXT NOT NULL, delivered INTEGER NOT NULL DEFAULT 0, prev_hash TEXT,
              hash TEXT, held TEXT, alerted INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);""")
        prev = GENESIS
        for op_id, payload in ops:
            sealed = seal(op_id, "note", None, "t", payload, prev)
            db.execute("INSERT INTO ops (op_id, kind, payload, at, prev_hash, hash) VALUES "
                       "(?, 'note', ?, 't', ?, ?)", (op_id, payload, prev, sealed))
            prev = sealed
        db.execute("INSERT INTO meta (key, value) VALUES ('head', ?)", (json.dumps(prev),))


def test_a_sealed_journal_of_before_is_checked_once_and_what_is_intact_goes_on(
        tmp_path: Path) -> None:
    """The upgrade checks the old seals once: intact ops are signed and go on, an op edited
    before the upgrade is held; a sealed op slipped in after it is not signed, however good
    its SHA-256 seal."""
    from app.ledger.journal import Journal
    path = tmp_path / "sealed.sqlite"
    _sealed_journal(path, [("a", '{"x": 1}'), ("b", '{"x": 2}'), ("c", '{"x": 3}')])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE ops SET payload = '{\"x\": 200}' WHERE op_id = 'b'")
    signer = keys.load_or_make(tmp_path / "key")
    journal = Journal(path, signer)
    assert [(op.op_id, op.fault) for op in journal.pending()] == [("a", None), ("c", None)]
    assert [(op.op_id, op.held) for op in journal.held()] == [
        ("b", "it was changed after the station wrote it")]
    journal.close()
    with sqlite3.connect(path) as db:  # the old recipe, after the upgrade
        prev = db.execute("SELECT hash FROM ops WHERE op_id = 'c'").fetchone()[0]
        db.execute("INSERT INTO ops (op_id, kind, payload, at, prev_hash, hash) VALUES "
                   "('d', 'note', '{}', 't', ?, ?)", (prev, seal("d", "note", None, "t", "{}",
                                                            prev)))
    journal = Journal(path, signer)
    assert journal.pending()[-1].op_id == "d"
    assert journal.pending()[-1].fault == ("it has no signature: it was written into the "
                                           "journal by something other than the station")
    journal.close()


def test_a_round_in_play_whose_journal_was_edited_is_not_replayed_on_restart(
        database_url: str) -> None:
    """A killed station comes back: the round in play is rebuilt from the journal only if
    its records are as the station wrote them."""
    store = Store(database_url, table=TABLE, station="killed", send_on_save=False)
    store.open_shift("Kim")
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    from .play import bets
    bets(game, random.Random("killed"), rec.save)
    seq, _, payload = next(op for op in _ops(store) if op[1] == "records")
    records = payload["records"]
    assert isinstance(records, list)
    records[0]["wager_cents"] = 100_000
    _edit(store, seq, payload)
    store.close()  # killed; started again:
    again = Store(database_url, table=TABLE, station="killed")
    assert again.resume() is None
    status = again.status()
    assert status.held == 1 and again.journal.meta("open_round") is None
    with Session(again.engine) as s:
        assert s.scalars(select(Event).where(Event.kind == "journal_refused")).one()
    again.close()
