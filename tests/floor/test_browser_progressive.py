"""The linked progressive on the floor as a pit boss sees it (issue 27), in a real headless
Chromium against the floor server over a throwaway PostgreSQL that two stations fed and hit:
the meter on an open page changes when another table hits, without a reload; and the
progressive page (and the meter strip on the others) fits a phone's 390 px, a tablet's 820
and a desktop's 1280, with no sideways scroll, no text cut and no developer's word.

Screenshots of the progressive page (the whole page) go to the folder in
PAIGOW_FLOOR_SCREENSHOTS (`make floor-screenshots`: docs/floor), else to the test's own
folder, where the other pages' are.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from selenium.webdriver.common.by import By

from app.core.bonus.categories import Category
from app.floor import auth
from app.floor.app import FloorSettings
from app.floor.progressive import dollars_in_words
from app.ledger import Store, people
from app.ledger.database import make_engine, migrate
from tests.ledger.enrolled import enrolled_key
from tests.ledger.pg import PgServer
from tests.ledger.progressive_play import CARD, progressive_round

from . import pagecheck
from .browser import chromium, floor_server, shrink_png, until
from .test_browser import SCREENS

pytestmark = pytest.mark.slow  # a real Chromium against the floor

PASSWORD = "correct horse battery"


@dataclass
class Live:
    url: str
    driver: Any
    stations: dict[str, Store]
    shots: Path
    scratch: Path  # the other pages' pictures, looked at and not kept in the docs


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, pg: PgServer) -> Iterator[Live]:
    folder = tmp_path_factory.mktemp("browser-progressive")
    shots = Path(os.environ.get("PAIGOW_FLOOR_SCREENSHOTS") or folder / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    if not pg.running:
        pg.start()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(auth, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024,
                                                   parallelism=1))
        mp.setattr(people, "_dummy", None)
        mp.setattr(people, "_hasher", people._Hasher(time_cost=1, memory_cost=1024,
                                                     parallelism=1))
        url = pg.url(pg.create_database())
        engine = make_engine(url)
        migrate(engine)
        auth.add_user(engine, "Pat", "pit-supervisor", PASSWORD)
        engine.dispose()
        stations = {}
        for table in ("PG-1", "PG-2", "PG-3"):
            st = Store(url, table=table, station=f"{table.lower()}-station",
                       data_dir=folder / table)
            enrolled_key(st)
            st.open_shift("Kim Park")
            stations[table] = st
        # a morning's play: every table feeds the meter, PG-2 hits five aces, PG-3 four of
        # a kind (the house's fixed amount)
        for n in range(12):
            table = ("PG-1", "PG-2", "PG-3")[n % 3]
            rec = progressive_round(stations[table], sorted({1 + n % 6, 1 + (n * 5) % 6, 4}), n)
            if n == 7:
                hit(stations[table], rec.round_id, 4, Category.FIVE_ACES)
            if n == 8:
                hit(stations[table], rec.round_id, 4, Category.FOUR_OF_A_KIND)
        settings = FloorSettings(database_url=url, secret_key="browser-progressive",
                                 poll_s=0.25, data_dir=str(folder / "floor"))
        try:
            with floor_server(settings) as address:
                driver = chromium(folder / "downloads")
                try:
                    yield Live(address, driver, stations, shots, folder)
                finally:
                    driver.quit()
        finally:
            for st in stations.values():
                st.close()


def hit(store: Store, round_id: str, seat: int, category: Category) -> None:
    pat = store.authorise("Pat", PASSWORD, "progressive")
    store.take_progressive_hits(CARD, round_id, [(seat, category)], str(uuid.uuid4()), pat)


def log_in(live: Live) -> None:
    d = live.driver
    d.delete_all_cookies()
    d.get(f"{live.url}/login")
    d.find_element(By.ID, "name").send_keys("Pat")
    d.find_element(By.ID, "password").send_keys(PASSWORD)
    d.find_element(By.ID, "login").click()
    until(lambda: d.find_elements(By.ID, "who"), bool, "Pat logged in")


def whole_page_shot(live: Live, name: str, width: int, folder: Path) -> None:
    """The page from top to bottom at `width` (a screenshot shows only the screen)."""
    d = live.driver
    height = int(d.execute_script("return document.documentElement.scrollHeight"))
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 1024})
    path = folder / f"{name}.png"
    d.save_screenshot(str(path))
    shrink_png(path)


def _strip(live: Live) -> str:
    return str(live.driver.execute_script(
        "const m = document.querySelector('#meters .meter-amount');"
        "return m ? m.textContent : '';"))


def test_1_the_meter_on_an_open_page_changes_when_another_table_hits(live: Live) -> None:
    d = live.driver
    log_in(live)
    d.get(f"{live.url}/alerts")
    shown = until(lambda: _strip(live), bool, "the meter strip on the alerts page")
    d.execute_script("window.paigowPage = 'the page as loaded';")  # gone if it reloads
    st = live.stations["PG-1"]
    rec = progressive_round(st, [1, 2, 3, 4, 5, 6], 99)
    fed = until(lambda: _strip(live), lambda now: now != shown,
                "the meter strip showing PG-1's six wagers")
    hit(st, rec.round_id, 2, Category.FIVE_ACES)
    after = until(lambda: _strip(live), lambda now: now != fed,
                  "the meter strip showing PG-1's hit")
    assert d.execute_script("return window.paigowPage;") == "the page as loaded"
    cents = [int(x.strip("$").replace(",", "").replace(".", "")) for x in (fed, after)]
    # five aces take 10% of the meter, and the reserve and the house put it back to the seed
    assert cents[1] == max(CARD.seed, cents[0] - cents[0] // 10)
    words = d.find_element(By.CSS_SELECTOR, "#meters .meter-words").text
    assert words == dollars_in_words(cents[1])


@pytest.mark.parametrize("screen", list(SCREENS))
def test_2_the_progressive_page_fits_a_phone_a_tablet_and_a_desktop(live: Live,
                                                                   screen: str) -> None:
    d = live.driver
    width, height = SCREENS[screen]
    log_in(live)
    found: dict[str, list[str]] = {}
    try:
        for name, path in (("progressive", "/progressive"), ("alerts-meter", "/alerts"),
                           ("report-meter", "/report")):
            pagecheck.screen(d, width, height)
            d.get(f"{live.url}{path}")
            until(lambda: d.execute_script("return document.readyState"),
                  lambda s: s == "complete", f"the {name} page")
            until(lambda: _strip(live), bool, f"the meter strip on the {name} page")
            found[name] = pagecheck.problems(d)
            whole_page_shot(live, f"{name}-{width}", width,
                            live.shots if name == "progressive" else live.scratch)
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    seen = [f"{page} at {width} px: {p}" for page, problems in found.items() for p in problems]
    assert not seen, "\n".join(seen)
