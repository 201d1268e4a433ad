"""Issue 27 on the floor: the linked progressive's meter on every page, in figures and in
words, pushed live by the hub; and the progressive page (the meter, reserve and seed, the
contributions per table and per shift, the hits, the meter's history as a chart, the
audit's verdict), on a SQLite and on a PostgreSQL ledger that stations fed and hit.

Every amount expected here is worked from the card's words (docs/progressive.md, the
shipped linked-pai-gow card): a $1 wager a seat, 70% of it onto the meter and 10% into
the reserve, a $10,000 seed, five aces 10% of the meter, four of a kind $75 paid by the
house; after a hit the reserve, then the house, put the meter back to its seed.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from dataclasses import replace
from html import unescape
from pathlib import Path

import pytest
from sqlalchemy import text
from starlette.testclient import TestClient

from app.core.bonus.categories import Category
from app.floor import auth
from app.floor.app import Floor, create_app
from app.floor.progressive import dollars_in_words
from app.ledger import Store, chain
from app.ledger.database import make_engine
from app.ledger.floor_status import FloorStatus, live_state
from tests.ledger.enrolled import enrolled_key
from tests.ledger.pg import PgServer
from tests.ledger.progressive_play import CARD, progressive_round

from .conftest import PASSWORD, log_in, settings


def _text(page: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The floor's ledger (users Pat, Max and Aud; the floor's key enrolled) on the backend."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("url"))
    pg: PgServer = request.getfixturevalue("pg_up")
    url = pg.url(pg.create_database(template=request.getfixturevalue("pg_template")))
    floor = Store(url, table="floor", station="floor", data_dir=tmp_path / "floor")
    engine = chain.signing(make_engine(url), floor.signer)
    for name, role in (("Pat", "pit-supervisor"), ("Max", "shift-manager")):
        auth.add_user(engine, name, role, PASSWORD)
    floor.enroll(floor.authorise("Max", PASSWORD, "enroll"), floor=True)
    floor.close()
    engine.dispose()
    return url


def _station(url: str, table: str, folder: Path) -> Store:
    store = Store(url, table=table, station=f"{table.lower()}-station", data_dir=folder)
    enrolled_key(store)
    store.open_shift("Kim")
    return store


@pytest.fixture()
def played(ledger: str, tmp_path: Path) -> Iterator[str]:
    """PG-1 and PG-2 feed the meter (10 wagers: $7.00 onto it, $1.00 into the reserve);
    Pat pays PG-2's five aces from it and its four of a kind from the house; then PG-1
    feeds it once more (1 wager)."""
    one = _station(ledger, "PG-1", tmp_path / "one")
    two = _station(ledger, "PG-2", tmp_path / "two")
    try:
        progressive_round(one, [1, 3, 5], 1)
        progressive_round(one, [2], 2)
        hit_round = progressive_round(two, [1, 2, 3, 4, 5, 6], 3)
        pat = two.authorise("Pat", PASSWORD, "progressive")
        two.take_progressive_hits(CARD, hit_round.round_id, [(4, Category.FIVE_ACES)],
                                  str(uuid.uuid4()), pat)
        pat = two.authorise("Pat", PASSWORD, "progressive")
        two.take_progressive_hits(CARD, hit_round.round_id, [(6, Category.FOUR_OF_A_KIND)],
                                  str(uuid.uuid4()), pat)
        progressive_round(one, [4], 4)
    finally:
        one.close()
        two.close()
    yield ledger


@pytest.fixture()
def floor_client(played: str, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(played, tmp_path)), follow_redirects=False) as c:
        log_in(c)
        yield c


# The meter by the card: $10,000 + $7.00 = $10,007.00; five aces take 10%, $1,000.70 (the
# odd cent stays), leaving $9,006.30; the reserve's $1.00 and the house's $992.70 put it back
# to $10,000.00; four of a kind is the house's $75.00; the last wager adds $0.70.
METER, RESERVE = "$10,000.70", "$0.10"


def test_the_progressive_page_shows_the_meter_reserve_seed_and_the_audit_exact(
        floor_client: TestClient) -> None:
    page = floor_client.get("/progressive")
    assert page.status_code == 200
    shown = _text(page.text)
    assert "Linked Pai Gow progressive" in shown
    assert f"Meter {METER} (ten thousand dollars and seventy cents)" in shown
    assert f"Reserve (the next seed) {RESERVE}" in shown
    assert "Seed $10,000.00" in shown
    assert "Audit: exact to the cent" in shown
    assert "NOT EXACT" not in shown
    # seed + contributions - hits + reserve moves + house seeds, as the audit adds it
    assert ("Seed $10,000.00 + contributions $7.70 (11 wagers) - hits $1,000.70 + from the "
            "reserve $1.00 + put up by the house $992.70 = $10,000.70") in shown
    assert ("Reserve: $1.10 in - $1.00 put onto the meter = $0.10. Fixed amounts paid by the "
            "house: $75.00.") in shown
    assert ("Each $1.00 wager puts 70% of it on the meter and 10% into the reserve (the next "
            "seed); the rest is the house's.") in shown


def test_the_progressive_page_lists_each_hit_with_the_meter_before_and_after_and_who(
        floor_client: TestClient) -> None:
    html = floor_client.get("/progressive").text
    hits = re.search(r'<table class="cards hits" id="hits-1">.*?</table>', html, re.S)
    assert hits is not None
    rows = [_text(r) for r in re.findall(r"<tr>(.*?)</tr>", hits.group(0), re.S)][1:]
    # newest first: the four of a kind (the house's $75, the meter untouched), then the aces
    assert len(rows) == 2
    assert re.fullmatch(r"\S+ \S+ PG-2 \d+ seat 6 Four of a kind \$0\.00 \$75\.00 "
                        r"\$10,000\.00 \$10,000\.00 Pat", rows[0]), rows[0]
    assert re.fullmatch(r"\S+ \S+ PG-2 \d+ seat 4 Five aces \$1,000\.70 \$0\.00 "
                        r"\$10,007\.00 \$10,000\.00 Pat", rows[1]), rows[1]


def test_the_progressive_page_sums_the_contributions_per_table_and_per_shift(
        floor_client: TestClient) -> None:
    html = floor_client.get("/progressive").text

    def rows(dom_id: str) -> list[str]:
        found = re.search(rf'id="{dom_id}">.*?</table>', html, re.S)
        assert found is not None
        return [_text(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", found.group(0), re.S)][1:]

    # table, rounds, wagers, wagered, to the meter, to the reserve
    assert rows("by-table-1") == ["PG-1 3 5 $5.00 $3.50 $0.50",
                                  "PG-2 1 6 $6.00 $4.20 $0.60",
                                  "All tables 4 11 $11.00 $7.70 $1.10"]
    # all played just now: in one shift of the gaming day, each table and their total
    shift = rows("by-shift-1")
    named = {re.match(r"Shift \d \(\d\d:\d\d-\d\d:\d\d\) ", r) for r in shift}
    assert len({m.group(0) for m in named if m}) == 1 and None not in named, shift
    assert [r.split(") ", 1)[1] for r in shift] == ["PG-1 3 5 $5.00 $3.50 $0.50",
                                                    "PG-2 1 6 $6.00 $4.20 $0.60",
                                                    "All tables 4 11 $11.00 $7.70 $1.10"]


def test_the_meter_s_history_is_a_chart_drawn_on_the_server_with_its_hits_marked(
        floor_client: TestClient) -> None:
    html = floor_client.get("/progressive").text
    svg = re.search(r"<svg class=\"meter-chart\".*?</svg>", html, re.S)
    assert svg is not None
    assert svg.group(0).count('class="hit"') == 2
    assert "<script" not in html.split("</main>")[0]  # drawn on the server: no chart script
    words = re.search(r'id="chart-words-1">([^<]*)<', html)
    assert words is not None
    assert re.fullmatch(r"From \$10,000\.00 at [\d:]+ to \$10,000\.70 at [\d:]+; "
                        r"lowest \$10,000\.00, highest \$10,007\.00; 2 hits\.",
                        words.group(1)), words.group(1)


def test_every_page_shows_the_meter_by_name_in_figures_and_in_words(
        floor_client: TestClient) -> None:
    for path in ("/", "/alerts", "/report", "/progressive", "/tables/PG-1"):
        strip = re.search(r'<div id="meters".*?</div>', floor_client.get(path).text, re.S)
        assert strip is not None, path
        assert _text(strip.group(0)) == (f"Linked Pai Gow progressive {METER} ten thousand "
                                         f"dollars and seventy cents"), path


def test_the_audit_s_not_exact_is_shown_with_the_row_that_breaks(
        played: str, tmp_path: Path) -> None:
    engine = make_engine(played)
    with engine.begin() as conn:  # the owner skims a contribution behind the ledger's back
        if engine.dialect.name == "postgresql":
            conn.execute(text("ALTER TABLE progressive_moves DISABLE TRIGGER USER"))
        else:
            for o in ("update", "delete"):
                conn.execute(text(f"DROP TRIGGER ledger_progressive_moves_append_only_{o}"))
        conn.execute(text("UPDATE progressive_moves SET amount_cents = 200, to_meter_cents = "
                          "140, meter_after_cents = meter_after_cents - 70 WHERE meter_seq = 2"))
    engine.dispose()
    with TestClient(create_app(settings(played, tmp_path)), follow_redirects=False) as c:
        log_in(c)
        html = c.get("/progressive").text
    audit = re.search(r'<div data-audit id="audit-1" class="(\w+)">(.*?)</div>', html, re.S)
    assert audit is not None
    assert audit.group(1) == "error"
    shown = _text(audit.group(2))
    assert shown.startswith("Audit: NOT EXACT")
    assert ("NOT EXACT: move 2 (a contribution of round 1): its 3 wager(s) of $1.00 are "
            "$3.00, $2.10 to the meter and $0.30 to the reserve by the card; the row says "
            "$2.00, $1.40 and $0.30") in shown


def test_a_floor_with_no_progressive_shows_no_meter_and_says_so_on_the_page(
        client: TestClient) -> None:
    log_in(client)
    assert 'id="meters"' in client.get("/alerts").text
    assert 'class="meter"' not in client.get("/alerts").text
    assert "No linked progressive in this ledger yet" in _text(client.get("/progressive").text)


def test_the_hub_pushes_the_meter_when_it_moves_and_a_page_follows_the_meter_only(
        url: str, tmp_path: Path) -> None:
    store = _station(url, "PG-1", tmp_path / "one")
    status = FloorStatus(url, table="PG-7", station="pg-7")
    progressive_round(store, [1, 2, 3], 1)  # $10,002.10
    floor = Floor(settings(url, tmp_path))

    async def follow() -> list[str]:
        await floor.hub.tick()
        stream = floor.hub.follow(meter_only=True)
        first = [await anext(stream) for _ in range(2)]  # retry, the meter as it stands
        progressive_round(store, [4], 2)  # a table settles: the meter moves
        assert any(status.beat(live_state(None, dealer="Kim")) for _ in range(20))  # a tile
        await floor.hub.tick()
        pushed = await anext(stream)
        await stream.aclose()
        return [*first, pushed]

    try:
        messages = asyncio.run(follow())
    finally:
        floor.close()
        store.close()
        status.close()
    assert messages[1].startswith("event: meter\n")
    assert "$10,002.10" in messages[1]
    assert messages[2].startswith("event: meter\n")  # not the tile that changed with it
    assert "$10,002.80" in messages[2] and dollars_in_words(1_000_280) in messages[2]


def test_on_postgresql_the_hub_pushes_the_meter_when_the_database_says_it_moved(
        pg_up: PgServer, pg_template: str, tmp_path: Path) -> None:
    """The floor hears the meter (migration 0017) as the felts do: with the hub's poll an
    hour apart, a table's settlement still reaches a following page as soon as it commits."""
    url = pg_up.url(pg_up.create_database(template=pg_template))
    store = _station(url, "PG-1", tmp_path / "one")
    progressive_round(store, [1, 2, 3], 1)  # $10,002.10
    floor = Floor(replace(settings(url, tmp_path), poll_s=3600.0))

    async def follow() -> list[str]:
        floor.hub.start()
        try:
            stream = floor.hub.follow(meter_only=True)
            first = [await asyncio.wait_for(anext(stream), 60) for _ in range(2)]
            await _listening(floor)
            await asyncio.to_thread(progressive_round, store, [4], 2)  # the meter moves
            pushed = await asyncio.wait_for(anext(stream), 60)
            await stream.aclose()
            return [*first, pushed]
        finally:
            await floor.hub.stop()

    try:
        messages = asyncio.run(follow())
    finally:
        floor.close()
        store.close()
    assert "$10,002.10" in messages[1]
    assert floor.hub.polls == 1 and floor.hub.heard >= 1  # pushed as heard, not polled
    assert messages[2].startswith("event: meter\n") and "$10,002.80" in messages[2]


async def _listening(floor: Floor) -> None:
    """Until the hub's connection is in LISTEN (the database's own list of listeners)."""
    def listeners() -> int:
        with floor.session() as s:
            return int(s.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'"
            )).scalar_one())
    for _ in range(1200):
        if await asyncio.to_thread(listeners):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the floor's hub never listened for the meter in 60 s")


def test_an_amount_in_words_is_written_as_on_a_cheque() -> None:
    assert dollars_in_words(1_000_210) == "ten thousand and two dollars and ten cents"
    assert dollars_in_words(100) == "one dollar"
    assert dollars_in_words(1) == "zero dollars and one cent"
    assert dollars_in_words(123_456_789) == ("one million, two hundred and thirty-four "
                                             "thousand, five hundred and sixty-seven dollars "
                                             "and eighty-nine cents")


def test_a_day_of_thousands_of_moves_is_drawn_with_every_hit_s_drop_kept() -> None:
    from datetime import UTC, datetime, timedelta

    from app.floor.meter_chart import H, Point, meter_svg

    since = datetime(2026, 11, 29, 6, tzinfo=UTC)
    points, cents = [], 1_000_000
    for i in range(6000):  # a move every 6 s for ten hours; a hit at the 3,000th
        hit = i == 3000
        cents = 1_000_000 if hit else cents + 70
        points.append(Point(since + timedelta(seconds=6 * i), cents, hit))
    svg = meter_svg(points, since, since + timedelta(hours=10), lambda t: f"{t:%H:%M}")
    line = re.search(r'<polyline points="([^"]+)"', svg)
    assert line is not None
    xy = [tuple(map(float, p.split(","))) for p in line.group(1).split()]
    assert len(xy) < 2000  # a point or four a column of the picture, not one a move
    bottom = max(y for _, y in xy)
    assert bottom > H * 0.7  # the drop back to the seed is drawn, not averaged away
    assert svg.count('class="hit"') == 1
