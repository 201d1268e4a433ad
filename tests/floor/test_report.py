"""The shift report (issue 16): per table and per dealer, rounds, drop (wagers), win/loss,
commission taken, hold %, rounds with a player banker, fouls, voids, corrections; charts
drawn on the server; CSV and PDF export."""

from __future__ import annotations

import csv
import io
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pypdf import PdfReader
from starlette.testclient import TestClient

from app.floor import report
from app.floor.stations import HeadlessStation
from app.ledger import Store
from app.ledger.database import make_engine
from app.session import SupervisorCommand

from .conftest import PASSWORD, log_in


@dataclass(frozen=True)
class Played:
    ledger: Path
    voided: int  # rounds voided at PG-1
    settled: int  # rounds settled at PG-1


@pytest.fixture(scope="module")
def played(template_ledger: Path, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Two tables, two dealers, a few rounds each (voids and fouls among them): played once
    for the module, copied for each test."""
    folder = tmp_path_factory.mktemp("played")
    path = folder / "ledger.sqlite"
    shutil.copy(template_ledger, path)
    url = f"sqlite:///{path}"
    a = HeadlessStation(url, "PG-1", folder / "a", dealer="Kim", seed=3, void_chance=0,
                        foul_chance=0.5, supervisor=("Pat", PASSWORD))
    b = HeadlessStation(url, "PG-2", folder / "b", dealer="Ana", seed=4, void_chance=0,
                        foul_chance=0.5, supervisor=("Pat", PASSWORD))  # and enrolled
    for _ in range(4):
        a.play_round()
        b.play_round()
    a._open()
    a._wagers()
    assert a.session.handle(SupervisorCommand("void", "Pat", "the wrong deck")).done
    a.voided.append(5)
    a.close()
    b.close()
    return Played(path, len(a.voided), len(a.settled))


@pytest.fixture()
def url(played: Played, tmp_path: Path) -> str:
    path = tmp_path / "ledger.sqlite"
    shutil.copy(played.ledger, path)
    return f"sqlite:///{path}"


def today() -> tuple[datetime, datetime]:
    d = datetime.now(UTC).date()
    since = datetime(d.year, d.month, d.day, tzinfo=UTC)
    return since, since + timedelta(days=1)


def test_the_report_s_drop_win_and_commission_per_table_are_the_ledger_s_totals(
        url: str, tmp_path: Path, played: Played) -> None:
    reader = Store(url, table="PG-1", station="reader", data_dir=tmp_path / "r")
    reader.enroll(reader.authorise("Pat", PASSWORD, "enroll"))  # its correction is a record
    last = reader.history(table="PG-1", status="settled", limit=1)[0]
    # a correction moves the win the other way from the player's net
    reader.correct(last.id, last.seats[0], net_cents=0, reason="pit recount", by="Pat",
                   secret=PASSWORD)
    engine = make_engine(url)
    rep = report.build(engine, *today())
    engine.dispose()
    for line in rep.tables:
        t = reader.totals(table=line.name)
        assert (line.rounds, line.drop_cents, line.win_cents, line.commission_cents) == \
            (t.rounds, t.drop_cents, t.win_cents, t.commission_cents), line.name
    reader.close()
    pg1 = next(x for x in rep.tables if x.name == "PG-1")
    assert pg1.voids == played.voided > 0 and pg1.corrections == 1
    assert pg1.rounds == played.settled
    kim = next(x for x in rep.dealers if x.name == "Kim")
    assert (kim.rounds, kim.drop_cents, kim.win_cents) == \
        (pg1.rounds, pg1.drop_cents, pg1.win_cents)  # Kim dealt PG-1 all day
    assert rep.total.rounds == pg1.rounds + next(x for x in rep.tables
                                                 if x.name == "PG-2").rounds
    assert pg1.hold == f"{100 * pg1.win_cents / pg1.drop_cents:.1f}%"


def test_fouls_and_player_banker_rounds_are_counted_from_the_rounds(
        url: str, tmp_path: Path) -> None:
    engine = make_engine(url)
    rep = report.build(engine, *today())
    engine.dispose()
    reader = Store(url, table="PG-1", station="reader", data_dir=tmp_path / "r")
    fouls = 0
    banked = 0
    for r in reader.history(status="settled"):  # every table's
        data = reader.slip(r.id).data()
        fouls += sum(1 for p in data["positions"] if p["foul"])
        banked += data["bank"]["player"] is not None
    reader.close()
    assert rep.total.fouls == fouls and fouls > 0
    assert rep.total.player_banker_rounds == banked


def test_the_report_downloads_as_csv_and_pdf_with_a_chart_drawn_on_the_server(
        client: TestClient) -> None:
    log_in(client, "Aud")  # an auditor reads the report
    page = client.get("/report")
    assert page.status_code == 200 and "Per dealer" in page.text
    got = client.get("/report.csv")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(got.text)))
    assert {(r["by"], r["name"]) for r in rows} >= {("table", "PG-1"), ("table", "PG-2"),
                                                    ("dealer", "Kim"), ("dealer", "Ana"),
                                                    ("total", "all tables")}
    pdf = client.get("/report.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "shift report" in text and "PG-2" in text and "Ana" in text
    png = client.get("/report.png")
    assert png.content.startswith(b"\x89PNG") and len(png.content) > 5000


def test_the_shift_report_carries_each_table_s_chain_head_for_verify(
        client: TestClient) -> None:
    """Issue 23: the chain's head is on every shift report (an anchor outside the
    database), as the page, the CSV and the PDF give it, and verify --head takes it."""
    import re

    from app.ledger import anchors

    log_in(client, "Aud")
    code = re.compile(r"PG-[12] #\d+ [0-9a-f]{16}")
    heads = [r["name"] for r in csv.DictReader(io.StringIO(client.get("/report.csv").text))
             if r["by"] == "ledger head"]
    assert len(heads) == 2 and all(code.fullmatch(h) for h in heads)
    assert all(h in client.get("/report").text for h in heads)
    pdf = client.get("/report.pdf")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Ledger heads" in text and heads[0].split()[0] in text
    engine = make_engine(client.app.state.floor.settings.database_url)  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert anchors.check(conn, [anchors.parse_code(h) for h in heads]) == []
    engine.dispose()
