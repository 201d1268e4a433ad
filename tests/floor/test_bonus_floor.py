"""The bonus on the floor (issue 26): the table's page shows each round's bonus and envy
lines in the order paid and who approved a big payout, and the round in play's bonus wagers
and a payout waiting for a supervisor; the shift report gives the bonus wagers, the bonus
and envy paid, the bonus's win and hold and the payouts approved, per table and dealer,
apart from the Pai Gow drop and win. On SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pypdf import PdfReader
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.core.bonus import BonusRules
from app.core.bonus.table_bonus import TableBonus
from app.core.round import Phase
from app.core.settlement import Slip, money
from app.floor import auth, report
from app.floor.stations import HeadlessStation
from app.floor.views import table_page
from app.ledger import reads
from app.ledger.database import make_engine

from .conftest import PASSWORD, log_in
from .test_alerts import _held

# Every winning bonus or envy line is at the $1 threshold: it waits for a supervisor.
BONUS = TableBonus(rules=BonusRules(supervisor_at=100))


@dataclass
class Played:
    url: str
    slips: list[Slip]  # the core's slips of the bonus table's rounds, as played


def _database(backend: str, tmp_path: Path, template_ledger: Path,
              request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        path = tmp_path / "ledger.sqlite"
        shutil.copy(template_ledger, path)
        return f"sqlite:///{path}"
    pg = request.getfixturevalue("pg")
    if not pg.running:  # the test process's server (tests/conftest.py), stopped by a test
        pg.start()
    url = str(pg.url(pg.create_database(template=request.getfixturevalue("pg_template"))))
    engine = make_engine(url)
    auth.add_user(engine, "Pat", "pit-supervisor", PASSWORD)
    engine.dispose()
    return url


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           template_ledger: Path) -> Played:
    """Kim deals the bonus table PG-3 (a bonus on every wager), Ana a table without one:
    played once a backend for the module (the tests only read)."""
    tmp_path = tmp_path_factory.mktemp("bonus")
    url = _database(str(request.param), tmp_path, template_ledger, request)
    slips = []
    bonus = HeadlessStation(url, "PG-3", tmp_path / "a", dealer="Kim", seed=5, void_chance=0,
                            foul_chance=0.3, supervisor=("Pat", PASSWORD), bonus=BONUS,
                            bonus_chance=1.0)
    plain = HeadlessStation(url, "PG-4", tmp_path / "b", dealer="Ana", seed=6, void_chance=0,
                            foul_chance=0, supervisor=("Pat", PASSWORD))
    try:
        for _ in range(30):
            bonus.play_round()
            rnd = bonus.session.round
            assert rnd is not None and rnd.slip is not None
            slips.append(rnd.slip)
            if len(slips) >= 6 and any(x.supervisor for s in slips if s.bonus
                                       for x in s.bonus.lines):
                break
        plain.play_round()
    finally:
        bonus.close()
        plain.close()
    return Played(url, slips)


def today() -> tuple[datetime, datetime]:
    d = datetime.now(UTC).date()
    since = datetime(d.year, d.month, d.day, tzinfo=UTC)
    return since, since + timedelta(days=1)


def test_the_shift_report_gives_the_bonus_wagers_paid_envy_hold_and_approvals_apart(
        played: Played) -> None:
    engine = make_engine(played.url)
    rep = report.build(engine, *today())
    with Session(engine) as s:
        pai_gow = reads.totals(s, reads.Filters("PG-3", None, None, None, *today(),
                                                "settled"))
    engine.dispose()
    results = [s.bonus for s in played.slips if s.bonus is not None]
    lines = [x for b in results for x in b.lines]
    pg3 = next(x for x in rep.tables if x.name == "PG-3")
    b = pg3.bonus
    assert b.rounds == len(results) > 0
    assert b.wagers_cents == sum(r.wagers for r in results)
    assert b.paid_cents == sum(x.amount for x in lines if x.kind == "bonus" and x.amount > 0)
    assert b.envy_cents == sum(x.amount for x in lines if x.kind == "envy")
    assert b.win_cents == -sum(r.net for r in results)
    assert b.approved == sum(x.supervisor for x in lines) > 0 and b.approvers == {"Pat"}
    assert b.hold == f"{100 * b.win_cents / b.wagers_cents:.1f}%"
    # the bonus is the house's money apart: the Pai Gow drop and win are the ledger's own
    assert (pg3.drop_cents, pg3.win_cents) == (pai_gow.drop_cents, pai_gow.win_cents)
    kim = next(x for x in rep.dealers if x.name == "Kim")
    assert kim.bonus.cells() == b.cells()
    assert next(x for x in rep.tables if x.name == "PG-4").bonus.rounds == 0
    assert rep.total.bonus.cells() == b.cells() and rep.has_bonus


def test_the_table_page_shows_each_round_s_bonus_and_envy_in_the_order_paid_and_who_approved(
        played: Played) -> None:
    engine = make_engine(played.url)
    with Session(engine) as s:
        page = table_page(s, "PG-3", rounds=len(played.slips))
    engine.dispose()
    assert page is not None
    assert any(k == "Bonus" and v.startswith("fortune-8000, envy envy-5000, $1.00 to $100.00")
               and "a payout of $1.00 or more waits for a supervisor" in v
               for k, v in page.rules)
    by_no = {r.round_no: r for r in page.rounds}
    approved = 0
    for slip in played.slips:
        shown = by_no[slip.round].bonus
        if slip.bonus is None:
            assert shown is None
            continue
        assert shown is not None
        assert [(r.seat, r.kind, r.amount) for r in shown.rows] == \
            [(f"seat {x.seat}", x.kind, money(x.amount, sign=True)) for x in slip.bonus.lines]
        assert shown.totals == (f"bonus wagers {money(slip.bonus.wagers)}, players net "
                                f"{money(slip.bonus.net, sign=True)}, house net "
                                f"{money(-slip.bonus.net, sign=True)}")
        if any(x.supervisor for x in slip.bonus.lines):
            approved += 1
            assert shown.held.startswith("held for a supervisor, the floor told: ")
            assert shown.held.endswith("; approved by Pat")
            assert all(r.approved == "approved by Pat" for r, x in
                       zip(shown.rows, slip.bonus.lines, strict=True) if x.supervisor)
        else:
            assert shown.held == ""
    assert approved > 0


def test_the_table_page_says_a_bonus_payout_waits_while_it_waits(
        url: str, tmp_path: Path) -> None:
    st = HeadlessStation(url, "PG-3", tmp_path / "a", seed=5, void_chance=0, foul_chance=0,
                         supervisor=("Pat", PASSWORD), bonus=BONUS, bonus_chance=1.0)
    try:
        for _ in range(40):  # the dealer's steps up to S; a payout waits now and then
            for step in st.steps()[:-1]:
                step()
            assert st.key("S"), st.session.message
            rnd = st.session.round
            assert rnd is not None
            if rnd.phase is not Phase.SETTLED:
                break
        st.store.drain()  # the station's journal sent on (it waits a moment after a busy try)
        assert rnd.bonus_held is not None and _held(url)
        engine = make_engine(url)
        with Session(engine) as s:
            page = table_page(s, "PG-3")
        engine.dispose()
    finally:
        st.close()
    assert page is not None
    assert page.bonus[0] == "Bonus wagers this round: " + ", ".join(
        f"seat {seat} {money(c)}" for seat, c in sorted(rnd.bonus_wagers.items()))
    assert page.bonus[1] == ("A bonus payout waits for a supervisor's approval: "
                             + "; ".join(x.text for x in rnd.bonus_held.lines))


def test_the_report_page_csv_and_pdf_carry_the_bonus_and_the_round_its_lines(
        url: str, tmp_path: Path, client: TestClient) -> None:
    st = HeadlessStation(url, "PG-3", tmp_path / "a", dealer="Kim", seed=5, void_chance=0,
                         foul_chance=0, supervisor=("Pat", PASSWORD), bonus=BONUS,
                         bonus_chance=1.0)
    try:
        for _ in range(3):
            st.play_round()
        rnd = st.session.round
        assert rnd is not None and rnd.slip is not None and rnd.slip.bonus is not None
    finally:
        st.close()
    log_in(client, "Aud")
    page = client.get("/report").text
    assert "Bonus and envy per table" in page and "Bonus and envy per dealer" in page
    rows = {(r["by"], r["name"]): r for r in csv.DictReader(io.StringIO(
        client.get("/report.csv").text))}
    kim = rows[("dealer", "Kim")]
    assert int(kim["bonus_rounds"]) == 3 and int(kim["bonus_wagers_cents"]) > 0
    assert int(kim["bonus_win_cents"]) == int(rows[("table", "PG-3")]["bonus_win_cents"])
    pdf = client.get("/report.pdf")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Bonus and envy per table" in text and "Bonus wagers" in text
    table = client.get("/tables/PG-3").text
    assert "Bonus and envy, in the order paid (fortune-8000, envy envy-5000)" in table
    assert rnd.slip.bonus.lines[0].hand in table
