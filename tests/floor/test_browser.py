"""The floor as a pit supervisor uses it (issue 16, "Tested as users would use it"): a
throwaway PostgreSQL, four headless stations writing rounds concurrently, the floor server,
and a real headless Chromium: log in, watch a settled round appear on the floor without a
reload, open a table and read who may bank, acknowledge an alert, download the shift report;
a wrong password, a missing role, an expired session and a forged form are refused. (How
soon a round appears, under 2 s, is measured by `make bench`: tests/bench/bench_floor.py.)

Screenshots of each page go to the folder in PAIGOW_FLOOR_SCREENSHOTS (`docs/floor` for the
docs), else to the test's own folder.
"""

from __future__ import annotations

import csv
import json
import os
import time
from base64 import b64encode
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import itsdangerous
import pytest
from argon2 import PasswordHasher
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from app.core.bonus.table_bonus import TableBonus
from app.core.gaming_day import GamingDay
from app.floor import auth
from app.floor.app import FloorSettings
from app.floor.stations import DemoFloor
from app.ledger import people
from app.ledger.database import make_engine, migrate
from tests.ledger.pg import PgServer

from . import pagecheck
from .browser import WAIT_S, chromium, floor_server, shrink_png, until

pytestmark = pytest.mark.slow  # a real Chromium against the floor

PASSWORD = "correct horse battery"
SECRET = "browser-test-secret"


@dataclass
class Live:
    url: str
    demo: DemoFloor
    driver: Any
    downloads: Path
    shots: Path


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, pg: PgServer) -> Iterator[Live]:
    folder = tmp_path_factory.mktemp("browser")
    shots = Path(os.environ.get("PAIGOW_FLOOR_SCREENSHOTS") or folder / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    if not pg.running:  # the test process's server (tests/conftest.py), stopped by a test
        pg.start()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(auth, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024,
                                                   parallelism=1))
        mp.setattr(people, "_dummy", None)  # made again, light, for a name nobody has
        mp.setattr(people, "_hasher", people._Hasher(time_cost=1, memory_cost=1024,
                                                     parallelism=1))
        url = pg.url(pg.create_database())
        engine = make_engine(url)
        migrate(engine)
        for name, role in (("Pat", "pit-supervisor"), ("Aud", "auditor")):
            auth.add_user(engine, name, role, PASSWORD)
        engine.dispose()
        demo = DemoFloor(url, folder / "stations", tables=4, round_s=2.0, seed=16,
                         supervisor=("Pat", PASSWORD), bonus=TableBonus())
        for st in demo.stations:
            st.foul_chance = 0.4  # alerts to acknowledge
        demo.start()
        settings = FloorSettings(database_url=url, secret_key=SECRET, poll_s=0.25,
                                 data_dir=str(folder / "floor"))
        try:
            with floor_server(settings) as address:
                driver = chromium(folder / "downloads")
                try:
                    yield Live(address, demo, driver, folder / "downloads", shots)
                finally:
                    driver.quit()
        finally:
            demo.stop()
    assert not demo.errors, demo.errors


@pytest.fixture
def still(live: Live) -> Live:
    """The floor once every table has settled two rounds, its stations then stopped: the
    last test counts the pages' streams, and four tables playing a round every 2 s took the
    CPU the other tests needed. The tests before watch them play, and the pages are checked
    for fit at every width with the tables live (stopped, a table shows offline after 16 s)."""
    until(lambda: min(len(st.settled) for st in live.demo.stations), lambda n: n >= 2,
          "every table to settle two rounds", timeout=60)
    live.demo.stop()
    return live


def shot(live: Live, name: str) -> None:
    path = live.shots / f"{name}.png"
    live.driver.save_screenshot(str(path))
    shrink_png(path)


def log_in(live: Live, name: str, password: str) -> None:
    d = live.driver
    d.delete_all_cookies()
    d.get(f"{live.url}/login")
    d.find_element(By.ID, "name").send_keys(name)
    d.find_element(By.ID, "password").send_keys(password)
    d.find_element(By.ID, "login").click()
    # the answer has come: the floor (logged in) or the login page with its error
    until(lambda: d.find_elements(By.ID, "who") or d.find_elements(By.ID, "login-error")
          or f"neither, at {d.current_url}", lambda seen: isinstance(seen, list),
          f"the answer to {name}'s login")


def submit_form(live: Live, action: str, fields: dict[str, str]) -> None:
    """A form posted from the page, as a browser would (a forged one leaves the token out)."""
    live.driver.execute_script("""
        const f = document.createElement('form'); f.method = 'post'; f.action = arguments[0];
        for (const [k, v] of Object.entries(arguments[1])) {
            const i = document.createElement('input'); i.type = 'hidden'; i.name = k;
            i.value = v; f.appendChild(i); }
        document.body.appendChild(f); f.submit();""", action, fields)


def test_1_a_wrong_password_is_refused(live: Live) -> None:
    log_in(live, "Pat", "not the password")
    error = live.driver.find_element(By.ID, "login-error").text
    assert error == "wrong name or password: try again"
    shot(live, "login-refused")


def test_2_a_settled_round_appears_on_the_floor_without_a_reload(live: Live) -> None:
    log_in(live, "Pat", PASSWORD)
    d = live.driver
    until(lambda: d.execute_script("return document.querySelectorAll('.tile').length"),
          lambda tiles: tiles == 4, "the floor's four tiles")
    assert "Pat - pit supervisor" in d.find_element(By.ID, "who").text
    d.execute_script("window.paigowPage = 'the page as loaded';")  # gone if it reloads
    st = live.demo.stations[0]
    seen = len(st.settled)
    until(lambda: len(st.settled), lambda n: n > seen,
          f"a round settled at {st.table} (errors: {live.demo.errors})")
    assert st.last_settled is not None
    when = st.last_settled.isoformat()
    # The tile the server pushes carries the moment of the table's last settlement.
    # (read in one script: the live tile may be swapped between two WebDriver calls)
    until(lambda: d.execute_script(
        "const t = document.getElementById(arguments[0]);"
        "return t ? t.querySelector('.since').getAttribute('data-since') : '';",
        f"tile-{st.table}") or "", lambda since: since >= when,
        f"{st.table}'s tile saying the round settled at {when}")
    assert d.execute_script("return window.paigowPage;") == "the page as loaded"
    shot(live, "floor")


def test_3_a_table_s_page_says_who_may_bank_seat_by_seat_and_why(live: Live) -> None:
    d = live.driver
    d.get(f"{live.url}/")
    # The tile links to the table's page (the live tile may be swapped while it is read).
    href = WebDriverWait(d, WAIT_S, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.find_element(By.ID, "tile-PG-2").get_attribute("href"), "PG-2's tile")
    assert href == f"{live.url}/tables/PG-2"
    d.get(href)
    until(lambda: d.find_elements(By.ID, "bank") or d.current_url,
          lambda seen: isinstance(seen, list), "the table page's bank rotation")
    rows = d.find_elements(By.CSS_SELECTOR, "#bank tr")[1:]
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == \
        [f"seat {n}" for n in range(1, 7)]
    for r in rows:
        verdict, why = r.find_elements(By.TAG_NAME, "td")[1].text, \
            r.find_elements(By.TAG_NAME, "td")[3].text
        assert verdict in ("may bank", "may not bank", "banks")
        # A seat that may bank is told what it met (seed 003's first condition is always
        # answered); one that may not, only what failed (issue 25: never a met condition
        # read as the refusal).
        assert why.strip(), f"{verdict} with no reason"
        if verdict == "may bank":
            assert "against the dealer in the last round with no player banker" in why \
                or "the dealer banks the first round" in why, why
    assert d.find_elements(By.CSS_SELECTOR, "#rotation li")
    shot(live, "table")


def test_3b_a_table_s_page_shows_each_round_s_bonus_and_envy_in_the_order_paid(
        live: Live) -> None:
    d = live.driver

    def bonus_round() -> list[Any]:
        for table in ("PG-1", "PG-2", "PG-3", "PG-4"):
            d.get(f"{live.url}/tables/{table}")
            found = d.find_elements(By.CSS_SELECTOR, "table.bonus")
            if found:
                return found
        return []

    [first, *_] = until(bonus_round, bool, "a round with a bonus on a table's page", every=1)
    section = first.find_element(By.XPATH, "..")
    assert "Bonus and envy, in the order paid (fortune-8000, envy envy-5000)" in first.text
    assert "bonus wagers $" in section.find_element(By.CSS_SELECTOR, ".bonus-totals").text
    d.execute_script("arguments[0].scrollIntoView({block: 'start'});", section)
    shot(live, "table-bonus")


def test_4_a_supervisor_acknowledges_an_alert_with_a_note(live: Live) -> None:
    d = live.driver
    until(lambda: d.get(f"{live.url}/alerts") or d.find_elements(By.CSS_SELECTOR, ".ack-form"),
          bool, "an alert to acknowledge", every=0.2)
    form = d.find_elements(By.CSS_SELECTOR, ".ack-form")[0]
    item = form.find_element(By.XPATH, "..")
    alert_id = item.get_attribute("id")
    form.find_element(By.NAME, "note").send_keys("seen at the table, dealer told")
    form.find_element(By.TAG_NAME, "button").click()
    until(lambda: d.current_url, lambda url: "acknowledged" in url, "the acknowledgement")
    done = d.find_element(By.ID, alert_id).text
    assert "Acknowledged by Pat at" in done and "seen at the table, dealer told" in done
    shot(live, "alerts")


def test_5_the_shift_report_downloads_as_csv(live: Live) -> None:
    d = live.driver
    d.get(f"{live.url}/report")
    shot(live, "report")
    bonus = d.find_element(By.ID, "bonus-1")  # the bonus apart from the Pai Gow money
    assert "Bonus wagers" in bonus.text and "Envy paid" in bonus.text
    # its heading in sight above it
    d.execute_script("arguments[0].previousElementSibling.scrollIntoView({block: 'start'});",
                     bonus)
    shot(live, "report-bonus")
    d.find_element(By.ID, "csv").click()
    day = GamingDay().day_of(datetime.now(UTC)).isoformat()  # the floor's, by default
    path = live.downloads / f"shift-report-{day}.csv"
    until(lambda: sorted(p.name for p in live.downloads.glob("*")),
          lambda names: path.name in names, f"{path.name} downloaded")
    rows = list(csv.DictReader(path.open()))
    tables = {r["name"] for r in rows if r["by"] == "table"}
    assert tables == {"PG-1", "PG-2", "PG-3", "PG-4"}
    assert all(int(r["rounds"]) >= 0 for r in rows if r["by"] != "ledger head")
    heads = {r["name"].split(" #")[0] for r in rows if r["by"] == "ledger head"}
    assert heads == tables  # each table's chain head, for paigow ledger verify --head


def test_6_a_forged_form_is_refused(live: Live) -> None:
    d = live.driver
    d.get(f"{live.url}/alerts")
    submit_form(live, "/logout", {"csrf": "forged"})
    assert "did not come from this floor session" in d.find_element(By.ID, "refused").text


def test_7_an_auditor_is_refused_an_acknowledgement(live: Live) -> None:
    d = live.driver
    log_in(live, "Aud", PASSWORD)
    d.get(f"{live.url}/alerts")
    assert not d.find_elements(By.CSS_SELECTOR, ".ack-form")  # nothing offered
    token = d.find_element(By.NAME, "csrf").get_attribute("value")
    alert = d.find_element(By.CSS_SELECTOR, ".alert").get_attribute("id").removeprefix("alert-")
    submit_form(live, f"/alerts/{alert}/ack", {"csrf": token, "note": "I saw it"})
    refused = d.find_element(By.ID, "refused").text
    assert refused.startswith("You are logged in as auditor (read-only)")


def test_8_an_expired_session_must_log_in_again(live: Live) -> None:
    class Yesterday(itsdangerous.TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - 24 * 3600

    d = live.driver
    session = {"user": {"name": "Pat", "role": "pit-supervisor"}, "csrf": "x"}
    old = Yesterday(SECRET).sign(b64encode(json.dumps(session).encode())).decode()
    d.get(f"{live.url}/login")
    d.delete_all_cookies()
    d.add_cookie({"name": "paigow_floor", "value": old, "path": "/"})
    d.get(f"{live.url}/")
    assert d.current_url.startswith(f"{live.url}/login")
    shot(live, "login")


SCREENS = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1280, 800)}
_PAGES: dict[str, str] = {}


def _every_page(live: Live) -> dict[str, str]:
    """Every page the floor routes for a person, once per module: the floor, a table, a
    table with a bonus round, a settled round and a bonus round, the alerts (open and
    acknowledged), the report, a refusal; the login pages are read logged out."""
    if _PAGES:
        return _PAGES
    d = live.driver

    def first_round(table: str, where: str) -> str:
        d.get(f"{live.url}/tables/{table}")
        return str(d.execute_script(
            f"const a = document.querySelector('{where} h3 a'); return a ? a.href : '';"))

    played = until(lambda: first_round("PG-1", ".round.status-settled"), bool,
                   "a settled round on PG-1's page", every=0.2)
    bonus = until(lambda: next(((t, r) for t in ("PG-1", "PG-2", "PG-3", "PG-4")
                                if (r := first_round(t, ".round:has(table.bonus)"))), None),
                  bool, "a round with a bonus on a table's page", every=1)
    assert bonus is not None
    _PAGES.update({"floor": "/", "table": "/tables/PG-1", "table-bonus": f"/tables/{bonus[0]}",
                   "round": played, "round-bonus": bonus[1], "alerts": "/alerts",
                   "report": "/report", "refused": "/tables/NO-SUCH-TABLE"})
    return _PAGES


@pytest.mark.parametrize("screen", list(SCREENS))
def test_9_every_floor_page_fits_a_phone_a_tablet_and_a_desktop(live: Live, screen: str) -> None:
    """Issue 25: no page scrolls sideways, cuts a text or shows a word of the one word list
    (app/session/glossary.py, the station's own), at a phone's 390 px, a tablet's 820 and a
    desktop's 1280 (each page's screenshot kept)."""
    d = live.driver
    width, height = SCREENS[screen]
    log_in(live, "Pat", PASSWORD)
    pages = _every_page(live)
    found: dict[str, list[str]] = {}
    try:
        pagecheck.screen(d, width, height)
        for name, path in pages.items():
            d.get(path if path.startswith("http") else f"{live.url}{path}")
            until(lambda: d.execute_script("return document.readyState"),
                  lambda s: s == "complete", f"the {name} page")
            found[name] = pagecheck.problems(d)
            shot(live, f"{name}-{width}")
        log_in(live, "Pat", "not the password")
        found["login-refused"] = pagecheck.problems(d)
        d.delete_all_cookies()
        d.get(f"{live.url}/login")
        found["login"] = pagecheck.problems(d)
        shot(live, f"login-{width}")
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    seen = [f"{page} at {width} px: {p}" for page, problems in found.items() for p in problems]
    assert not seen, "\n".join(seen)


def _following(live: Live) -> int:
    """How many pages the floor server streams to now (its /healthz, asked past the browser)."""
    import re
    import urllib.request

    with urllib.request.urlopen(f"{live.url}/healthz", timeout=WAIT_S) as answer:
        said = answer.read().decode()
    found = re.search(r"(\d+) following", said)
    assert found is not None, said
    return int(found.group(1))


@pytest.mark.usefixtures("still")
def test_10_a_page_left_closes_its_stream_so_the_seventh_page_does_not_wait(
        live: Live) -> None:
    """A browser keeps six connections to one server: a page left (and kept for the Back
    button) with its stream open held one each, and the seventh page waited about 50 s
    for one to end. Eight pages in a row leave one stream open, the last page's."""
    d = live.driver
    log_in(live, "Pat", PASSWORD)
    for path in ("/", "/tables/PG-1", "/tables/PG-2", "/alerts", "/tables/PG-3", "/report",
                 "/tables/PG-4", "/"):
        d.get(f"{live.url}{path}")
    until(lambda: _following(live), lambda n: n <= 1,
          "the floor server to stream to the last page only", timeout=20)
