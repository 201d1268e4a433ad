"""Issue 23, item 7: the shift report's CSV is data a spreadsheet shows and never runs. A
table named `=HYPERLINK("http://x")` and a dealer named `=cmd|' /C calc'!A0`, written
through the real store, come out with a single quote in front (OWASP); every amount, a
negative win and hold included, stays a number. The same cell rule as `paigow ledger
export` (app/ledger/escape.py), so the two never disagree."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from starlette.testclient import TestClient

from app.core.round import RoundRules
from app.core.table import Table
from app.floor import report
from app.floor.app import create_app
from app.ledger import Recording, Store
from app.ledger.database import make_engine

from ..ledger.enrolled import enrolled_key
from ..ledger.play import record_rounds
from .conftest import PASSWORD, log_in, settings

DEALER = "=cmd|' /C calc'!A0"
TABLE = '=HYPERLINK("http://x")'
NUMBERS = ("rounds", "drop_cents", "win_cents", "commission_cents", "hold_percent",
           "player_banker_rounds", "fouls", "voids", "corrections")


def _played(url: str, tmp_path: Path) -> None:
    with Store(url, table=TABLE, station="s", data_dir=tmp_path / "s") as store:
        enrolled_key(store)  # its rows are records: the report's totals count them
        store.open_shift(DEALER)
        recs = [r for r in record_rounds(store, 4, "report", RoundRules(table=Table(TABLE)))
                if isinstance(r, Recording) and r.game.slip is not None]
        # A player paid $1,000 more by correction: the house's win and hold are negative.
        rec = recs[0]
        assert rec.game.slip is not None
        line = next(ln for ln in rec.game.slip.lines if ln.outcome is not None)
        store.correct(rec.round_id, line.position, net_cents=line.net + 100_000,
                      reason="recount", by="Pat", secret=PASSWORD)


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _today() -> tuple[datetime, datetime]:
    d = datetime.now(UTC).date()
    since = datetime(d.year, d.month, d.day, tzinfo=UTC)
    return since, since + timedelta(days=1)


def test_the_report_csv_writes_names_like_formulas_as_text_and_amounts_as_numbers(
        url: str, tmp_path: Path) -> None:
    _played(url, tmp_path)
    engine = make_engine(url)
    try:
        rows = _rows(report.to_csv(report.build(engine, *_today())))
    finally:
        engine.dispose()
    names = {(r["by"], r["name"]) for r in rows if r["by"] != "ledger head"}
    assert names == {("table", "'" + TABLE), ("dealer", "'" + DEALER),
                     ("total", "all tables")}
    (head,) = [r["name"] for r in rows if r["by"] == "ledger head"]
    assert head.startswith("'" + TABLE + " #")  # the table's head code, quoted as its name
    for row in (r for r in rows if r["by"] != "ledger head"):
        for key in NUMBERS:
            Decimal(row[key])  # a number as written, not text a spreadsheet keeps as text
    table = next(r for r in rows if r["by"] == "table")
    assert int(table["win_cents"]) < 0 and table["hold_percent"].startswith("-")


def test_the_floor_serves_the_same_safe_csv(url: str, tmp_path: Path) -> None:
    _played(url, tmp_path)
    with TestClient(create_app(settings(url, tmp_path)), follow_redirects=False) as c:
        log_in(c)
        got = c.get("/report.csv")  # the gaming day now
    assert got.status_code == 200
    assert ("table", "'" + TABLE) in {(r["by"], r["name"]) for r in _rows(got.text)}
