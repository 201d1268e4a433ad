"""Issue 23, item 7: what the ledger exports and prints is data, never instructions.

A dealer named `=cmd|' /C calc'!A0` and a table named `=HYPERLINK("http://x")` are
written through the real store; `paigow ledger export` writes every such text cell with a
single quote in front (OWASP), so a spreadsheet shows it and runs nothing, while amounts,
negative ones included, stay numbers. Names holding ESC sequences or line ends are shown
escaped (\\x1b) by `paigow ledger` and `paigow users`, so they cannot clear the screen,
retitle the terminal or print a line of their own."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from app.cli import main
from app.core.round import RoundRules
from app.core.table import Table
from app.ledger import Recording, Store

from .enrolled import enrolled_key
from .migrated import migrated_sqlite
from .play import record_rounds

ROOT = Path(__file__).resolve().parents[2]
DEALER = "=cmd|' /C calc'!A0"
TABLE = '=HYPERLINK("http://x")'
CLEAR = "\x1b[2J"  # ESC [ 2 J: erase the whole screen
TITLE = "\x1b]0;owned\x07"  # OSC 0: the terminal's title; BEL ends it
FORGED_LINE = "Kim\nMATCH: the core pays exactly what the ledger paid"


def _recorded(path: Path, data: Path, table: str, dealer: str, seed: str,
              n: int = 3) -> list[Recording]:
    with Store(migrated_sqlite(path), table=table, station="s", data_dir=data) as store:
        enrolled_key(store)  # its rows are records: the totals count them
        store.open_shift(dealer)
        rules = RoundRules(table=Table(table))
        recs = [r for r in record_rounds(store, n, seed, rules) if isinstance(r, Recording)]
    return [r for r in recs if r.game.slip is not None]


@pytest.fixture()
def formulas(tmp_path: Path) -> tuple[Path, list[Recording]]:
    path = tmp_path / "ledger.sqlite"
    return path, _recorded(path, tmp_path / "s", TABLE, DEALER, "formulas", n=6)


def _export(capsys: pytest.CaptureFixture[str], path: Path, what: str,
            out: Path) -> list[dict[str, str]]:
    code = main(["ledger", "export", what, "--database-url", f"sqlite:///{path}", "-o",
                 str(out)])
    capsys.readouterr()
    assert code == 0
    with out.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_export_writes_names_like_formulas_as_text_and_amounts_as_numbers(
        formulas: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path, recs = formulas
    rows = _export(capsys, path, "rounds", tmp_path / "rounds.csv")
    assert len(rows) == len(recs) and rows
    for row in rows:
        assert row["dealer"] == "'" + DEALER
        assert row["table_name"] == "'" + TABLE
    for what in ("settlements", "hands", "wagers", "events"):
        rows = _export(capsys, path, what, tmp_path / f"{what}.csv")
        assert rows and {r["table_name"] for r in rows} == {"'" + TABLE}, what
    # A loss is a negative number, never quoted as text, so the money still adds up.
    rows = _export(capsys, path, "settlements", tmp_path / "settlements.csv")
    losses = [r["net_cents"] for r in rows if r["net_cents"].startswith("-")]
    assert losses and all(n[1:].isdigit() for n in losses)
    slips = [r.game.slip for r in recs if r.game.slip is not None]
    assert sum(int(r["net_cents"]) for r in rows if r["role"] != "dealer") == sum(
        s.totals.players_net + s.totals.banker_net for s in slips)


def test_export_writes_a_reason_that_starts_like_a_formula_as_text(
        formulas: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path, recs = formulas
    rec = recs[0]
    assert rec.game.slip is not None
    seat = next(ln.position for ln in rec.game.slip.lines if ln.outcome is not None)
    with Store(f"sqlite:///{path}", table=TABLE, station="s",
               data_dir=tmp_path / "s") as store:
        for reason in ("@SUM(1+1)*cmd|' /C calc'!A0", "+1-1", "-2+3", "=1+1"):
            store.correct(rec.round_id, seat, net_cents=0, reason=reason, by="Pat")
    rows = _export(capsys, path, "settlements", tmp_path / "settlements.csv")
    reasons = [r["reason"] for r in rows if r["entry"] == "correction"]
    assert reasons == ["'@SUM(1+1)*cmd|' /C calc'!A0", "'+1-1", "'-2+3", "'=1+1"]


@pytest.mark.parametrize(("value", "cell"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"), ("\t=1", "'\t=1"),
    ("\r=1", "'\r=1"), ("Kim", "Kim"), (" =1", " =1"), ("", ""), (None, ""),
    (-2500, -2500), (Decimal("-12.50"), Decimal("-12.50")), (True, "true"),
])
def test_only_text_that_starts_like_a_formula_is_quoted_and_numbers_stay_numbers(
        value: object, cell: object) -> None:
    # The OWASP rule: = + - @ tab CR. Text is written as typed otherwise; an int or a
    # Decimal is a number, so -2500 (a loss, in cents) is never quoted.
    from app.ledger.escape import csv_cell

    assert csv_cell(value) == cell


def test_export_to_a_pipe_is_the_same_safe_csv(formulas: tuple[Path, list[Recording]],
                                               capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    path, _ = formulas
    rows = _export(capsys, path, "rounds", tmp_path / "rounds.csv")
    assert main(["ledger", "export", "rounds", "--database-url", f"sqlite:///{path}"]) == 0
    piped = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert piped == rows and piped[0]["dealer"] == "'" + DEALER


# --- the terminal --------------------------------------------------------------------------

@pytest.fixture()
def escapes(tmp_path: Path) -> tuple[Path, list[Recording]]:
    path = tmp_path / "ledger.sqlite"
    return path, _recorded(path, tmp_path / "s", f"PG{TITLE}", f"Kim{CLEAR}", "escapes")


def _read(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def _no_control_but_line_ends(text: str) -> None:
    assert not [c for c in text if c != "\n" and (ord(c) < 32 or 0x7f <= ord(c) <= 0x9f)]


def test_history_shows_a_name_holding_escape_sequences_escaped(
        escapes: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str]) -> None:
    path, recs = escapes
    code, out = _read(capsys, "ledger", "history", "--database-url", f"sqlite:///{path}")
    assert code == 0 and len(out.splitlines()) == len(recs)
    assert "dealer Kim\\x1b[2J" in out and "PG\\x1b]0;owned\\x07" in out
    _no_control_but_line_ends(out)


@pytest.mark.parametrize("command", [["shifts"], ["totals", "--table", f"PG{TITLE}"],
                                     ["recall", "1", "--table", f"PG{TITLE}"]])
def test_the_other_ledger_reads_show_names_escaped(
        escapes: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    path, _ = escapes
    code, out = _read(capsys, "ledger", *command, "--database-url", f"sqlite:///{path}")
    assert code == 0, out
    assert "PG\\x1b]0;owned\\x07" in out
    _no_control_but_line_ends(out)


def test_a_name_with_a_line_end_cannot_print_a_line_of_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ledger.sqlite"
    recs = _recorded(path, tmp_path / "s", "PG-1", FORGED_LINE, "lines", n=1)
    url = f"sqlite:///{path}"
    code, out = _read(capsys, "ledger", "history", "--database-url", url)
    assert code == 0 and len(out.splitlines()) == len(recs) == 1
    assert "Kim\\x0aMATCH: the core pays" in out
    code, out = _read(capsys, "ledger", "recall", recs[0].round_id, "--database-url", url)
    assert code == 0
    assert [ln for ln in out.splitlines() if ln.startswith("MATCH: ")] == [
        out.splitlines()[-1]]  # the verdict, and no other line that looks like one


def test_a_correction_s_reason_and_the_slip_show_their_escapes(
        escapes: tuple[Path, list[Recording]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path, recs = escapes
    rec = recs[0]
    assert rec.game.slip is not None
    seat = next(ln.position for ln in rec.game.slip.lines if ln.outcome is not None)
    with Store(f"sqlite:///{path}", table=f"PG{TITLE}", station="s",
               data_dir=tmp_path / "s") as store:
        store.correct(rec.round_id, seat, net_cents=0, reason=f"recount{CLEAR}", by="Pat")
    code, out = _read(capsys, "ledger", "slip", rec.round_id, "--database-url",
                      f"sqlite:///{path}")
    assert code == 0 and "by Pat: recount\\x1b[2J" in out
    _no_control_but_line_ends(out)


def test_users_list_shows_a_name_holding_escape_sequences_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ledger.sqlite"
    with Store(f"sqlite:///{path}", table="PG-1", station="s",
               data_dir=tmp_path / "s") as store:
        store.add_person(f"Ana{CLEAR}{TITLE}", "shift manager", "ana-knows-77", by=None,
                         first=True)
    code, out = _read(capsys, "users", "list", "--database-url", f"sqlite:///{path}")
    assert code == 0 and "Ana\\x1b[2J\\x1b]0;owned\\x07" in out
    _no_control_but_line_ends(out)


def test_export_to_a_terminal_shows_escapes_and_to_a_pipe_keeps_the_cells_as_stored(
        escapes: tuple[Path, list[Recording]]) -> None:
    path, _ = escapes
    command = [sys.executable, "-m", "app.cli", "ledger", "export", "rounds",
               "--database-url", f"sqlite:///{path}"]
    parent, child = os.openpty()
    try:
        proc = subprocess.run(command, stdout=child, stderr=subprocess.PIPE, timeout=120,
                              cwd=ROOT)
        os.close(child)
        shown = b""
        while True:
            try:
                chunk = os.read(parent, 65536)
            except OSError:  # EIO: the terminal's other end is closed and read to its end
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(parent)
    assert proc.returncode == 0, proc.stderr
    assert b"PG\\x1b]0;owned\\x07" in shown and b"\x1b" not in shown
    piped = subprocess.run(command, capture_output=True, timeout=120, cwd=ROOT)
    assert piped.returncode == 0 and f"PG{TITLE}".encode() in piped.stdout


def test_floor_users_list_shows_a_name_holding_escape_sequences_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.floor.auth import add_user
    from app.ledger.database import make_engine, migrate

    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    engine = make_engine(url)
    migrate(engine)
    add_user(engine, f"Pat{CLEAR}", "pit-supervisor", "correct horse battery")
    engine.dispose()
    code, out = _read(capsys, "floor", "user", "--database-url", url, "list")
    assert code == 0 and "Pat\\x1b[2J" in out
    _no_control_but_line_ends(out)
