"""Records that prove themselves (issue 15): every row the ledger writes is a link of its
table's SHA-256 chain, and `paigow ledger verify` names the first row that does not match.
"Tests edit, delete and reorder rows with plain SQL and see verify catch each one", on
SQLite and on PostgreSQL, with the append-only triggers switched off first (as the owner of
the tables could); "one hand-written INSERT of a 'correction' row (no PIN, no event)" is
caught with the triggers on."""

from __future__ import annotations

import hashlib
import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from app.cli import main
from app.ledger import Recording, Store
from app.ledger.chain import CHAINED, GENESIS, MODELS, PEOPLE_TABLES, row_hash
from app.ledger.models import ChainEntry, SettlementRow

from .conftest import TABLE
from .enrolled import MANAGER, MANAGER_SECRET, enroll
from .forge import covered
from .old_storage import ids_as_text
from .play import record_rounds
from .tamper import forged_correction, tamper


@pytest.fixture()
def shift(store: Store) -> list[Recording]:
    """Three rounds, a correction, a bank check and a note: every kind of row."""
    enroll(store)
    recs = [r for r in record_rounds(store, 3, "chain") if isinstance(r, Recording)]
    slip = recs[0].game.slip
    assert slip is not None
    line = next(ln for ln in slip.lines if ln.outcome is not None)
    store.correct(recs[0].round_id, line.position, net_cents=line.net + 100,
                  reason="a dollar short",
                  by=store.authorise(MANAGER, MANAGER_SECRET, "correct"))
    store.note("pin_refused", {"why": "wrong"}, by="Pat")
    store.close_shift()
    return recs


def _verify(capsys: pytest.CaptureFixture[str], url: str, *args: str
            ) -> tuple[int, str, str]:
    code = main(["ledger", "verify", "--database-url", url, *args])
    out, err = capsys.readouterr()
    return code, out, err


def _only(store: Store) -> tuple[bool, str, str, str]:
    (report,) = store.verify(TABLE)
    first = report.problems[0] if report.problems else None
    return (report.intact, first.kind if first else "", first.table if first else "",
            first.row_id if first else "")


def test_every_row_the_ledger_writes_is_linked_and_the_chain_verifies_intact(
        store: Store, shift: list[Recording], capsys: pytest.CaptureFixture[str]) -> None:
    with Session(store.engine) as s:
        rows = sum(s.scalar(select(func.count()).select_from(MODELS[t])) or 0
                   for t in CHAINED if t not in PEOPLE_TABLES)
        linked = {(t, i) for _, t, i, _ in covered(s.connection(), TABLE)}
    assert rows == len(linked)  # each row has its link, one table's chain holds them all
    assert all(r.intact for r in store.verify())  # the table's, and the people's
    (report,) = store.verify(TABLE)
    assert report.intact and report.rows == rows
    url = store.url.render_as_string(hide_password=False)
    code, out, _ = _verify(capsys, url, "--table", TABLE)
    assert code == 0
    assert out == f"{TABLE}: {rows} rows checked, chain intact\n"
    code, out, _ = _verify(capsys, url, "--table", TABLE, "--json")
    with Session(store.engine) as s:
        head = s.scalars(select(ChainEntry.entry_hash).where(ChainEntry.chain == TABLE)
                         .order_by(ChainEntry.seq.desc())).first()
    assert code == 0 and json.loads(out)["head"] == head and json.loads(out)["intact"]


def test_a_link_is_the_sha256_of_the_documented_canonical_json(store: Store,
                                                                shift: list[Recording]
                                                                ) -> None:
    """docs/ledger.md: row_hash = SHA-256 of {"table":..,"row":{..}} (keys sorted, no
    spaces, nulls left out); a table's link covers a write transaction: `rows` is each row's
    table number, UUID and SHA-256 (49 bytes), and entry_hash = SHA-256 of
    "paigow.chain/2|chain|seq|row_id|prev_hash|" followed by those bytes; the first link
    follows 64 zeros."""
    with Session(store.engine) as s:
        first = s.scalars(select(ChainEntry).where(ChainEntry.chain == TABLE)
                          .order_by(ChainEntry.seq)).first()
        assert first is not None and first.row_table == "*"
        station = s.execute(text("SELECT * FROM stations")).mappings().one()
    assert first.prev_hash == GENESIS
    expected = json.dumps({"table": "stations", "row": {
        "first_seen": first_seen(station["first_seen"]), "id": first.row_id,
        "name": "station-a", "table_name": TABLE}}, sort_keys=True, separators=(",", ":"))
    rows = bytes([0]) + uuid.UUID(first.row_id).bytes + hashlib.sha256(
        expected.encode()).digest()  # table 0 is stations: the station's row, alone
    assert first.rows == rows
    assert first.entry_hash == hashlib.sha256(
        f"paigow.chain/2|{TABLE}|1|{first.row_id}|{GENESIS}|".encode() + rows).hexdigest()


def test_a_table_s_chain_takes_one_link_per_write_not_per_row(
        store: Store, shift: list[Recording]) -> None:
    """Issue 24: one link per transaction. A round's settlement writes its event, its hands,
    its settlements and the round's row in one transaction: one link covers them all, found
    by the round's id."""
    round_id = shift[1].round_id
    with Session(store.engine) as s:
        links = s.scalars(select(ChainEntry).where(ChainEntry.chain == TABLE,
                                                   ChainEntry.row_id == round_id)
                          .order_by(ChainEntry.seq)).all()
        saves = s.scalar(text("SELECT COUNT(DISTINCT at) FROM events WHERE round_id = :r"),
                         {"r": round_id if store.url.get_backend_name() == "postgresql"
                          else uuid.UUID(round_id).bytes})
        last = covered(s.connection(), TABLE, links[-1].seq - 1)
    assert len(links) == saves  # each save of the round: one transaction, one link
    tables = {t for seq, t, _, _ in last if seq == links[-1].seq}
    assert {"rounds", "events", "settlements", "hands"} <= tables


def first_seen(value: object) -> str:
    """A time as the canonical form writes it: UTC, microseconds, Z."""
    from datetime import UTC, datetime
    if isinstance(value, str):  # SQLite hands the text back
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    value = value if value.tzinfo else value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_an_edited_settlement_is_named_with_its_round_and_position(
        store: Store, shift: list[Recording], database_url: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The audit turned a played $52.25 into a $1,000.00 player win."""
    with Session(store.engine) as s:
        row = s.scalars(select(SettlementRow).where(SettlementRow.entry == "original")
                        .order_by(SettlementRow.at, SettlementRow.position)).first()
        assert row is not None
    tamper(database_url, "UPDATE settlements SET net_cents = 100000, win_cents = 100000 "
                         "WHERE id = :id", id=row.id)
    assert _only(store) == (False, "edited", "settlements", str(row.id))
    code, out, err = _verify(capsys, database_url)
    assert code == 1
    assert out.startswith(f"{TABLE}: settlements row {row.id} (round ")
    assert f"position {row.position}, original entry 0) was edited" in out
    assert "call the auditor" in err


def test_a_deleted_event_is_found_missing(store: Store, shift: list[Recording],
                                          database_url: str) -> None:
    event_id = store.engine.connect().execute(text(
        "SELECT id FROM events WHERE kind = 'wager_placed' ORDER BY at LIMIT 1")).scalar_one()
    tamper(database_url, "DELETE FROM events WHERE id = :id", id=event_id)
    intact, kind, table, _ = _only(store)
    assert (intact, kind, table) == (False, "missing", "events")
    (report,) = store.verify(TABLE)
    assert "is missing (deleted)" in report.problems[0].detail


def test_a_deleted_link_is_found_missing(store: Store, shift: list[Recording],
                                         database_url: str) -> None:
    tamper(database_url, "DELETE FROM chain WHERE seq = 7")
    (report,) = store.verify(TABLE)
    first = report.problems[0]
    assert (first.kind, first.seq) == ("missing", 7)
    assert first.detail.startswith("link 7 of the chain is missing (deleted)")


def test_links_swapped_are_found_out_of_order(store: Store, shift: list[Recording],
                                              database_url: str) -> None:
    tamper(database_url, "UPDATE chain SET seq = -1 WHERE seq = 5",
           "UPDATE chain SET seq = 5 WHERE seq = 6", "UPDATE chain SET seq = 6 WHERE seq = -1")
    (report,) = store.verify(TABLE)
    first = report.problems[0]
    assert (first.kind, first.seq) == ("out of order", 5)
    assert ("is out of order: it was written after the link now numbered 6, not after "
            "link 4") in first.detail


def test_a_round_s_records_reordered_are_found_edited(store: Store, shift: list[Recording],
                                                     database_url: str) -> None:
    """Swapping two records' numbers changes what each row says: both fail their hash."""
    with store.engine.connect() as conn:
        ids = list(conn.execute(text(
            "SELECT id FROM events WHERE seq IN (1, 2) AND round_id = (SELECT round_id FROM "
            "events WHERE seq = 2 ORDER BY at LIMIT 1) ORDER BY seq")).scalars())
    tamper(database_url, "UPDATE events SET seq = -1 WHERE id = :a",
           "UPDATE events SET seq = 1 WHERE id = :b", "UPDATE events SET seq = 2 WHERE id = :a",
           a=ids[0], b=ids[1])
    (report,) = store.verify(TABLE)
    assert [(p.kind, p.table) for p in report.problems[:2]] == [("edited", "events")] * 2


def test_a_hand_written_correction_is_caught_with_the_triggers_on(
        store: Store, shift: list[Recording], database_url: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    with store.engine.begin() as conn:
        conn.execute(text(forged_correction(database_url)))
    intact, kind, table, _ = _only(store)
    assert (intact, kind, table) == (False, "unchained", "settlements")
    code, out, _ = _verify(capsys, database_url, "--table", TABLE)
    assert code == 1
    assert "correction entry 99) is not in the chain: it was written behind the ledger's " \
           "back" in out


def test_a_ledger_from_before_the_chains_is_sealed_at_the_upgrade(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.ledger import store as store_module
    from app.ledger.database import make_engine, migrate
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = make_engine(url)
    migrate(engine, "0002_append_only")
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d",
               migrate_now=False) as old:
        old._migrated = True  # a station of before: it writes no links
        with monkeypatch.context() as m:
            m.setattr(store_module, "LedgerSession", Session)
            old.open_shift("Kim")
            record_rounds(old, 2, "old")
            assert old.status().pending == 0
    ids_as_text(url)  # as a station of 0002 kept its ids
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d") as store:
        (report,) = store.verify()
        assert report.intact and report.rows > 10


def test_verify_of_an_empty_ledger_says_there_is_nothing_to_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    assert main(["ledger", "migrate", "--create", "--database-url", url]) == 0
    capsys.readouterr()
    code, out, err = _verify(capsys, url)
    assert (code, out) == (0, "") and "nothing to check" in err


def test_a_row_s_hash_leaves_out_empty_columns() -> None:
    """A later migration that adds a column (empty in old rows) leaves old hashes alone."""
    assert row_hash("events", {"a": 1}) == row_hash("events", {"a": 1, "b": None})
    assert row_hash("events", {"a": 1}) != row_hash("events", {"a": 2})


def test_links_of_one_row_each_written_before_the_upgrade_still_verify_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ledger upgraded to one link per transaction (migration 0012) keeps its /1 links as
    they were written, never rewritten: the chain, half /1 and half /2, verifies intact,
    and a row of before the upgrade edited afterwards is still named."""
    from app.ledger import chain as chain_module
    from app.ledger.database import make_engine, migrate
    from app.ledger.models import ChainEntry

    from .enrolled import enrolled_key
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = make_engine(url)
    migrate(engine, "0011_table_logins")
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d",
               migrate_now=False) as old:
        old._migrated = True  # a station of before 0012: a link per row
        with monkeypatch.context() as m:
            m.setattr(chain_module, "append_transaction", chain_module.append)
            enrolled_key(old)
            old.open_shift("Kim")
            record_rounds(old, 2, "before")
            assert old.status().pending == 0
    with Session(make_engine(url)) as s:
        before = s.scalar(select(func.count()).select_from(ChainEntry))
        old_settlement = s.scalars(select(SettlementRow.id)).first()
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d") as store:
        record_rounds(store, 2, "after")
        with Session(store.engine) as s:
            kinds = set(s.scalars(select(ChainEntry.row_table).where(
                ChainEntry.chain == TABLE)))
            kept = s.scalar(select(func.count()).select_from(ChainEntry)
                            .where(ChainEntry.row_table != "*"))
        assert "*" in kinds and len(kinds) > 1 and kept == before
        (report,) = store.verify(TABLE)
        assert report.intact, report.text()
        tamper(url, "UPDATE settlements SET net_cents = net_cents + 100000 WHERE id = :id",
               id=old_settlement)
        (report,) = store.verify(TABLE)
        first = report.problems[0]
        assert (first.kind, first.table, first.row_id) == ("edited", "settlements",
                                                           str(old_settlement))


def test_a_ledger_with_links_of_one_transaction_is_not_taken_back_past_them(
        store: Store, shift: list[Recording]) -> None:
    """An older station could not check a /2 link: the downgrade past 0012 refuses, and the
    links and rows stay as they were."""
    from alembic import command

    from app.ledger.database import alembic_config
    cfg = alembic_config()
    with pytest.raises(RuntimeError, match="not taken back past it"), \
            store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0011_table_logins")
    (report,) = store.verify(TABLE)
    assert report.intact


def test_a_chain_walked_while_its_station_writes_names_no_row_behind_the_ledger_s_back(
        store: Store, database_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The floor walks a table's chain while its station writes (the table page each time it
    is opened, the checkpoints every few minutes): a round written after the walk read the
    links and before it read the rows is left out of that walk whole, never named unchained
    or edited - a false alarm the pit would call the auditor for."""
    from app.floor.anchoring import Anchoring
    from app.ledger import anchors
    from app.ledger import chain as chain_module

    record_rounds(store, 1, "before")
    floor = Store(database_url, table=TABLE, station="floor", data_dir=tmp_path / "floor")
    checkpoints = Anchoring(floor.engine, tmp_path / "floor" / anchors.CHECKPOINTS, every_s=0)
    rows_of = chain_module._rows_of
    meanwhile: list[str] = []

    def a_round_written_meanwhile(conn: object, name: str, table: str,
                                  secrets: bool = True) -> object:
        if table == CHAINED[0]:  # the walk has read the links and starts on the rows
            record_rounds(store, 1, f"meanwhile-{len(meanwhile)}")
            meanwhile.append(name)
        return rows_of(conn, name, table, secrets)  # type: ignore[arg-type]

    monkeypatch.setattr(chain_module, "_rows_of", a_round_written_meanwhile)
    (walked,) = floor.verify(TABLE)
    raised = checkpoints.run(anchors.datetime.now(anchors.UTC))
    monkeypatch.undo()
    assert TABLE in meanwhile and walked.intact, walked.text()
    assert raised == [], [r.text for r in raised]
    (after,) = floor.verify(TABLE)  # the rounds written meanwhile are there, and linked
    assert after.intact and after.links > walked.links
    floor.close()
