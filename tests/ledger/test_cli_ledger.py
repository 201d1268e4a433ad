"""`paigow ledger history|slip|totals|shifts|export|status|migrate`: the reads at the
command line, with --json where it helps and --database-url; refusals say why (exit 2), an
unreachable database says so (exit 4), never a traceback."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.ledger import Recording, Store
from app.ledger.database import HEAD

from .conftest import TABLE
from .enrolled import enrolled_key
from .play import record_rounds

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def recorded(database_url: str, tmp_path: Path) -> tuple[str, list[Recording]]:
    with Store(database_url, table=TABLE, station="s", data_dir=tmp_path / "s") as store:
        enrolled_key(store)  # its rows are records: the totals count them
        store.open_shift("Kim")
        recs = [r for r in record_rounds(store, 4, "cli") if isinstance(r, Recording)]
    return database_url, recs


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["ledger", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_history_lists_the_rounds_newest_first_as_text_or_json(
        recorded: tuple[str, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    url, recs = recorded
    code, out, _ = _run(capsys, "history", "--database-url", url, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["id"] for r in rows] == [r.round_id for r in reversed(recs)]
    assert rows[0]["status"] == "settled" and rows[0]["dealer"] == "Kim"
    code, out, _ = _run(capsys, "history", "--database-url", url, "--limit", "2")
    assert code == 0 and len(out.splitlines()) == 2
    assert out.splitlines()[0].startswith(recs[-1].round_id[:8])
    seat = next(iter(recs[0].game.wagers))
    code, out, _ = _run(capsys, "history", "--database-url", url, "--seat", str(seat),
                        "--json")
    assert recs[0].round_id in out


def test_slip_reprints_a_past_round_exactly(recorded: tuple[str, list[Recording]],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    url, recs = recorded
    for rec in recs:
        assert rec.game.slip is not None
        code, out, _ = _run(capsys, "slip", rec.round_id[:8], "--database-url", url)
        assert code == 0 and out == rec.game.slip.text() + "\n"
        code, out, _ = _run(capsys, "slip", rec.round_id, "--database-url", url, "--json")
        assert code == 0 and out == json.dumps(rec.game.slip.to_dict(), indent=2) + "\n"


def test_totals_give_drop_win_commission_and_each_seat(
        recorded: tuple[str, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    url, recs = recorded
    slips = [r.game.slip for r in recs if r.game.slip is not None]
    code, out, _ = _run(capsys, "totals", "--database-url", url, "--json")
    t = json.loads(out)
    assert code == 0 and t["rounds"] == 4
    assert t["win_cents"] == sum(s.totals.house_net for s in slips)
    assert t["commission_cents"] == sum(s.totals.commission for s in slips)
    code, out, _ = _run(capsys, "totals", "--database-url", url, "--table", TABLE)
    assert code == 0 and "drop $" in out and "seat" in out


def test_shifts_and_export_csv(recorded: tuple[str, list[Recording]],
                               capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url, recs = recorded
    code, out, _ = _run(capsys, "shifts", "--database-url", url, "--json")
    (shift,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and shift["dealer"] == "Kim" and shift["rounds"] == 4
    code, out, _ = _run(capsys, "export", "rounds", "--database-url", url, "--shift",
                        shift["id"][:8])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["id"] for r in rows] == [r.round_id for r in recs]
    target = tmp_path / "settlements.csv"
    code, _, err = _run(capsys, "export", "--database-url", url, "-o", str(target))
    assert code == 0 and "written to" in err
    assert target.read_text().startswith("table_name,round_no,id,round_id,position")


def test_a_bad_round_id_or_date_is_refused_with_why(
        recorded: tuple[str, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    url, _ = recorded
    code, out, err = _run(capsys, "slip", "fffff", "--database-url", url)
    assert code == 2 and out == "" and "no round whose id starts fffff" in err
    with pytest.raises(SystemExit) as exit_:
        main(["ledger", "history", "--date", "yesterday"])
    assert exit_.value.code == 2
    assert "is not a date: write YYYY-MM-DD" in capsys.readouterr().err


def test_an_unreachable_database_exits_4_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "ledger", "history", "--database-url",
         "postgresql://paigow:secret@127.0.0.1:1/paigow"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)})
    assert proc.returncode == 4
    assert "cannot be reached" in proc.stderr and "Traceback" not in proc.stderr
    assert "secret" not in proc.stderr  # the password is hidden


def test_the_config_names_the_database_when_no_url_is_given(
        recorded: tuple[str, list[Recording]], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    url, recs = recorded
    monkeypatch.setenv("PAIGOW_LEDGER__DATABASE_URL", url)
    code, out, _ = _run(capsys, "history", "--json")
    assert code == 0 and len(out.splitlines()) == len(recs)


def test_migrate_creates_the_ledger_or_prints_the_sql(
        empty_database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "migrate", "--database-url", empty_database_url, "--sql")
    assert code == 0 and "CREATE TABLE rounds" in out
    code, out, _ = _run(capsys, "migrate", "--database-url", empty_database_url, "--create")
    assert code == 0 and out.strip().endswith(f"schema {HEAD}")


def test_a_mistyped_sqlite_path_is_refused_and_nothing_is_created(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "typo" / "ledger.sqlite"
    for command in (["history"], ["totals"], ["slip", "12"], ["migrate"]):
        code, out, err = _run(capsys, *command, "--database-url", f"sqlite:///{missing}")
        assert code == 2 and out == "", command
        assert f"there is no ledger at {missing}" in err and "--create" in err
    assert not (tmp_path / "typo").exists()
    code, _, _ = _run(capsys, "migrate", "--create", "--database-url", f"sqlite:///{missing}")
    assert code == 0 and missing.is_file()


def test_slip_takes_the_round_number_the_slip_shows(
        recorded: tuple[str, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    url, recs = recorded
    for rec in recs:
        assert rec.game.slip is not None
        number = str(rec.game.slip.round)
        assert f"round {number} " in rec.game.slip.text()
        code, out, _ = _run(capsys, "slip", number, "--database-url", url)
        assert code == 0 and out == rec.game.slip.text() + "\n"
        code, out, _ = _run(capsys, "slip", number, "--table", TABLE, "--database-url", url)
        assert code == 0 and out == rec.game.slip.text() + "\n"
    code, _, err = _run(capsys, "slip", "999", "--database-url", url)
    assert code == 2 and "there is no round 999 in the ledger" in err


def test_status_tells_what_this_station_still_has_to_send(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dead = "postgresql://postgres@127.0.0.1:1/paigow"
    with Store(dead, table=TABLE, station="here") as store:
        store.open_shift("Kim")
        record_rounds(store, 1, "status")
    code, out, _ = _run(capsys, "status", "--database-url", dead, "--station", "here",
                        "--json")
    status = json.loads(out)
    assert code == 0 and status["pending"] >= 3 and status["online"] is False
    code, out, _ = _run(capsys, "status", "--database-url", dead, "--station", "here",
                        "--send")
    assert code == 0 and "Ledger offline" in out and "kept on this station" in out


def test_a_file_that_is_not_a_ledger_or_a_folder_is_refused_with_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database")
    code, out, err = _run(capsys, "history", "--database-url", f"sqlite:///{text}")
    assert code == 2 and f"{text} is not a ledger (not a SQLite database file)" in err
    code, out, err = _run(capsys, "history", "--database-url", f"sqlite:///{tmp_path}")
    assert code == 2 and f"{tmp_path} is a folder, not a ledger file" in err
    assert text.read_text() == "not a database"


def test_export_to_a_folder_or_an_unwritable_path_says_so(
        recorded: tuple[str, list[Recording]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    url, _ = recorded
    code, _, err = _run(capsys, "export", "-o", str(tmp_path), "--database-url", url)
    assert code == 2 and f"cannot write {tmp_path}" in err
    code, _, err = _run(capsys, "export", "-o", str(tmp_path / "no" / "such" / "x.csv"),
                        "--database-url", url)
    assert code == 2 and "No such file or directory" in err


@pytest.mark.parametrize("limit", ["-3", "ten", "9999999999999"])
def test_a_limit_that_is_not_a_count_of_rows_is_refused(
        limit: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["ledger", "history", "--limit", limit])
    assert exit_.value.code == 2
    assert "is not a number of rows" in capsys.readouterr().err
