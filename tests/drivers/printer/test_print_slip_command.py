"""`paigow print-slip`: a settled round's slip to the printer, as text or as a PDF; a
printer that fails exits 4 with the dealer's message and keeps the slip; --reprint prints
the kept slips once."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from app.cli import main

from .helpers import golden, slip

ROUNDS = Path(__file__).resolve().parents[2] / "rounds"
SETTLED_AT = "2025-03-14T21:07:33-07:00"  # the test slips' time (helpers.TIME)


@pytest.fixture(autouse=True)
def _table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PAIGOW_CONFIG", raising=False)
    monkeypatch.setenv("PAIGOW_PRINTER__QUEUE_DIR", str(tmp_path / "queue"))


def _timed(name: str) -> dict[str, Any]:
    return {**slip(name), "settled_at": SETTLED_AT}


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         stdin: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["print-slip", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _printer(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setenv("PAIGOW_PRINTER__KIND", "file")
    monkeypatch.setenv("PAIGOW_PRINTER__PATH", str(path))


def test_settle_json_piped_in_shows_the_slip_text(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO((ROUNDS / "house-bank.json").read_text()))
    assert main(["settle", "--json"]) == 0
    settled = json.loads(capsys.readouterr().out)
    settled["settled_at"] = SETTLED_AT
    code, out, _ = _run(capsys, monkeypatch, json.dumps(settled), "--text")
    assert code == 0
    assert out == golden("house-bank.42.txt", b"").decode()


def test_text_for_48_columns(capsys, monkeypatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, json.dumps(_timed("co-bank")), "--text",
                        "--columns", "48")
    assert code == 0 and out == golden("co-bank.48.txt", b"").decode()


def test_the_slip_goes_to_the_configured_printer_as_the_golden_bytes(
        capsys, monkeypatch, tmp_path: Path) -> None:
    _printer(monkeypatch, tmp_path / "lp0")
    code, out, err = _run(capsys, monkeypatch, json.dumps(_timed("house-bank")))
    assert code == 0 and out == "printed table PG-1 round 1\n" and err == ""
    assert (tmp_path / "lp0").read_bytes() == golden("house-bank.42.bin", b"")


def test_a_pdf_of_several_slips_one_after_another(capsys, monkeypatch, tmp_path: Path
                                                  ) -> None:
    stream = "\n".join(json.dumps(slip(n), indent=2) for n in ("house-bank", "co-bank"))
    pdf = tmp_path / "shift.pdf"
    code, out, _ = _run(capsys, monkeypatch, stream, "--pdf", str(pdf))
    assert code == 0 and out == f"wrote {pdf} (2 slips)\n"
    text = " ".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "Round 1" in text and "Round 9" in text and "Shift totals: 2 rounds" in text


def test_slip_files_and_a_list_of_slips(capsys, monkeypatch, tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(_timed("house-bank")))
    many = tmp_path / "many.json"
    many.write_text(json.dumps([_timed("co-bank"), _timed("high-limit")]))
    code, out, _ = _run(capsys, monkeypatch, "", "--text", str(one), str(many))
    assert code == 0 and out.count("PAI GOW POKER SETTLEMENT") == 3


def test_a_failing_printer_exits_4_tells_the_dealer_and_keeps_the_slip_for_reprint(
        capsys, monkeypatch, tmp_path: Path) -> None:
    _printer(monkeypatch, tmp_path / "unplugged" / "lp0")
    code, out, err = _run(capsys, monkeypatch, json.dumps(_timed("house-bank")))
    assert code == 4 and out == ""
    assert err.startswith("paigow print-slip: The slip printer is not connected (no ")
    assert "The slip of round 1 is kept" in err and "paigow print-slip --reprint" in err

    code, out, _ = _run(capsys, monkeypatch, "", "--kept")
    assert code == 0 and out.startswith("table PG-1 round 1, kept ")

    code, _, err = _run(capsys, monkeypatch, "", "--reprint")
    assert code == 4 and "1 slip is still kept" in err

    (tmp_path / "unplugged").mkdir()  # the printer is back
    code, out, err = _run(capsys, monkeypatch, "", "--reprint")
    assert code == 0 and out.startswith("printed table PG-1 round 1 (kept ")
    assert "Reprinted 1 kept slip." in err
    printed = (tmp_path / "unplugged" / "lp0").read_bytes()
    assert b"PRINTED LATE" in printed and b"(first try: printer not connected)" in printed

    code, out, err = _run(capsys, monkeypatch, "", "--reprint")
    assert code == 0 and "No slips are kept" in err


def test_no_printer_set_up_shows_the_slip_and_says_so(capsys, monkeypatch) -> None:
    code, out, err = _run(capsys, monkeypatch, json.dumps(_timed("house-bank")))
    assert code == 0 and out == golden("house-bank.42.txt", b"").decode()
    assert 'no slip printer is set up ([printer] kind = "none"' in err


def test_a_misdeal_has_no_slip_to_print(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(
        (ROUNDS / "misdeal-duplicate.json").read_text()))
    assert main(["settle", "--json"]) == 3
    misdeal = capsys.readouterr().out
    code, _, err = _run(capsys, monkeypatch, misdeal, "--text")
    assert code == 2 and "the round was a misdeal: nothing was settled" in err


@pytest.mark.parametrize("stdin, message", [
    ("", "no slip: pipe `paigow settle --json` into this"),
    ("{not json", "not JSON: Expecting property name"),
    ('{"schema": "paigow.round/1"}', "schema: this printer reads paigow.slip/1"),
    ('{"error": {"field": "seats", "why": "is missing"}}', "`paigow settle` refused the round"),
])
def test_input_that_is_not_a_slip_is_refused_with_exit_2(capsys, monkeypatch, stdin: str,
                                                         message: str) -> None:
    code, out, err = _run(capsys, monkeypatch, stdin, "--text")
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_a_bad_printer_config_is_refused_with_the_key(capsys, monkeypatch) -> None:
    monkeypatch.setenv("PAIGOW_PRINTER__KIND", "network")
    code, _, err = _run(capsys, monkeypatch, json.dumps(slip("house-bank")))
    assert code == 2 and "printer.host: kind is \"network\"" in err
