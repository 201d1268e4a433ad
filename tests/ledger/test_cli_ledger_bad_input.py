"""Issue 23, item 11: `paigow ledger` answers a round number no ledger holds, and a round
whose stored records were damaged behind its back, with a sentence and exit 2 - never a
traceback. The damage is written with Python's own sqlite3, as an intruder with the file
would: the triggers that refuse changes to a settled round are dropped, the row changed,
and the triggers put back."""

from __future__ import annotations

import csv
import json
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.ledger import Recording, Store

from .conftest import TABLE
from .migrated import migrated_sqlite
from .play import record_rounds


@pytest.fixture()
def ledger(tmp_path: Path) -> tuple[Path, list[Recording]]:
    path = tmp_path / "ledger.sqlite"
    with Store(migrated_sqlite(path), table=TABLE, station="s", data_dir=tmp_path / "s") as st:
        st.open_shift("Kim")
        recs = [r for r in record_rounds(st, 3, "bad-input") if isinstance(r, Recording)]
    return path, [r for r in recs if r.game.slip is not None]


def _ledger(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> tuple[int, str]:
    code = main(["ledger", *args, "--database-url", f"sqlite:///{path}"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err


def rewrite(path: Path, table: str, sql: str, *params: object) -> None:
    """Run `sql` on one row of `table` around its triggers, and put them back."""
    db = sqlite3.connect(path)
    try:
        triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                              "AND tbl_name = ?", (table,)).fetchall()
        assert triggers  # the append-only rules are there to get round
        with db:
            for name, _ in triggers:
                db.execute(f"DROP TRIGGER {name}")
            assert db.execute(sql, params).rowcount == 1
            for _, create in triggers:
                db.execute(create)
    finally:
        db.close()


def rewrite_slip(path: Path, rec: Recording, stored: str) -> None:
    rewrite(path, "rounds", "UPDATE rounds SET slip_json = ? WHERE id = ?", stored,
            uuid.UUID(rec.round_id).bytes)  # a UUID as its 16 bytes (migration 0015)


def rewrite_record(path: Path, rec: Recording, pick: Callable[[int, dict[str, Any]], bool],
                   payload: Callable[[dict[str, Any]], str]) -> int:
    """The first of the round's records `pick` chooses, stored as `payload` makes it; its
    number (seq)."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT id, seq, payload FROM events WHERE round_id = ? AND seq > 0 "
                      "ORDER BY seq", (uuid.UUID(rec.round_id).bytes,)).fetchall()
    db.close()
    eid, seq, data = next((i, n, json.loads(p)) for i, n, p in rows if pick(n, json.loads(p)))
    rewrite(path, "events", "UPDATE events SET payload = ? WHERE id = ?", payload(data), eid)
    return int(seq)


@pytest.mark.parametrize("command", ["slip", "recall"])
@pytest.mark.parametrize("number", ["9" * 10_000, "9" * 20, str(2**31)])
def test_a_round_number_past_any_round_is_refused_with_the_range(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        command: str, number: str) -> None:
    code, err = _ledger(capsys, ledger[0], command, number)
    assert code == 2
    assert "is not a round number (1 to 2,147,483,647) nor a round's id" in err
    assert len(err) < 400  # 10,000 digits are not echoed back


def test_a_round_id_longer_than_any_id_is_refused(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _ledger(capsys, ledger[0], "recall", "ab" * 5000)
    assert code == 2 and "(10,000 characters) is not a round: give its id" in err
    assert len(err) < 400


def test_recall_of_a_round_whose_stored_slip_is_not_json_says_the_ledger_was_changed(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    path, recs = ledger
    rid = recs[0].round_id
    rewrite_slip(path, recs[0], '{"positions": [')
    code, err = _ledger(capsys, path, "recall", rid)
    assert code == 2
    assert f"round {rid[:8]}: the slip stored with it cannot be read (not JSON" in err
    assert "changed outside the stations" in err


@pytest.mark.parametrize(("stored", "why"), [
    ("[1, 2]", "not a JSON object"),
    ("[" * 100_000, "its brackets nest deeper than any record"),
    ('{"order": ' + "9" * 5000 + "}", "it holds a number thousands of digits long"),
])
def test_recall_of_a_round_whose_stored_slip_is_no_json_object_says_why(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        stored: str, why: str) -> None:
    path, recs = ledger
    rid = recs[0].round_id
    rewrite_slip(path, recs[0], stored)
    code, err = _ledger(capsys, path, "recall", rid)
    assert code == 2 and f"the slip stored with it cannot be read ({why})" in err


@pytest.mark.parametrize("stored", ['{"positions": 5}', '{"positions": [7]}',
                                    '{"positions": [{"position": 1, "role": "player", '
                                    '"order": "first", "outcome": "win"}, {"position": 2, '
                                    '"role": "player", "order": 2, "outcome": "win"}]}'])
def test_recall_of_a_round_whose_stored_slip_is_not_a_slip_is_a_mismatch(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        stored: str) -> None:
    path, recs = ledger
    rid = recs[0].round_id
    rewrite_slip(path, recs[0], stored)
    code = main(["ledger", "recall", rid, "--database-url", f"sqlite:///{path}"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 1 and "PAYOUTS, IN ORDER FROM ACTION" in out
    assert "the slip as stored (slip_json) is not the slip the cards and rules make" in out


def test_recall_of_a_round_whose_event_is_not_json_names_the_event(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    path, recs = ledger
    seq = rewrite_record(path, recs[0], lambda n, _: n > 1, lambda _: "{")
    code, err = _ledger(capsys, path, "recall", recs[0].round_id)
    assert code == 2 and f"record {seq} stored with it cannot be read (not JSON" in err


@pytest.mark.parametrize(("kind", "change", "part"), [
    ("dealt", {"deal": 5}, "the cards dealt"),
    ("action_counted", {"action": None}, "the cards dealt"),
    ("bank_taken", {"player": 5, "chips_cents": None}, "the bank"),
    ("hand_set", {"hand": {"position": []}}, "the settings"),
])
def test_recall_of_a_record_of_a_shape_no_station_writes_is_a_mismatch_naming_the_part(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        kind: str, change: dict[str, object], part: str) -> None:
    path, recs = ledger
    rewrite_record(path, recs[0], lambda _, r: r["type"] == kind,
                   lambda r: json.dumps({**r, **change}))
    code = main(["ledger", "recall", recs[0].round_id, "--database-url", f"sqlite:///{path}"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 1
    assert f"({part}: the records are not as a station writes them and cannot be shown" in out
    assert f"the records of {part} are not as a station writes them" in out


def test_recall_of_a_record_without_its_type_is_a_mismatch(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    path, recs = ledger
    rewrite_record(path, recs[0], lambda n, _: n == 1,
                   lambda r: json.dumps({k: v for k, v in r.items() if k != "type"}))
    code = main(["ledger", "recall", recs[0].round_id, "--database-url", f"sqlite:///{path}"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 1 and "the recorded records do not play again: record 1" in out


@pytest.mark.parametrize("stored", ["{", '{"a": 1}', "[" * 100_000])
def test_export_of_bank_decisions_whose_stored_reasons_are_no_list_writes_them_as_stored(
        ledger: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path, stored: str) -> None:
    path, _ = ledger
    rewrite(path, "bank_decisions", "UPDATE bank_decisions SET reasons = ? WHERE id = "
            "(SELECT id FROM bank_decisions ORDER BY at LIMIT 1)", stored)
    out = tmp_path / "decisions.csv"
    code, err = _ledger(capsys, path, "export", "bank_decisions", "-o", str(out))
    assert code == 0, err
    with out.open(newline="") as f:
        assert stored in [row["reasons"] for row in csv.DictReader(f)]
