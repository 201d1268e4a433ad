"""Issue 25, item 7: the floor on a phone and a tablet. Device status in words, not colour
alone; several alerts acknowledged with one note (recorded per alert, with the same rights
as one); the report by the casino's gaming day and by shift, its start from the config.
(No sideways scroll, and the screen check at 390, 820 and 1280 px, run in Chromium:
tests/floor/test_browser.py.)"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from time import sleep
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.core.gaming_day import GamingDay
from app.floor import alerts
from app.floor.alerts import Raise
from app.floor.app import create_app
from app.floor.main import main as floor_main
from app.floor.stations import HeadlessStation
from app.floor.views import tiles
from app.ledger.database import make_engine
from app.ledger.floor_status import Device, FloorStatus, live_state
from app.ledger.models import FloorAck, FloorLog, now
from app.settings import ConfigError, load_config

from .conftest import csrf, log_in, settings

CHICAGO = ZoneInfo("America/Chicago")


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def _floor_with(client: TestClient, table: str) -> str:
    """The floor page's words once it shows the table: the page shows the hub's last poll,
    which may have been taken just before the beat (a poll is 50 ms here; CI saw it)."""
    for _ in range(600):  # 30 s at the least: generous beside a poll of 50 ms
        shown = _text(client.get("/").text)
        if table in shown:
            return shown
        sleep(0.05)
    raise AssertionError(f"the floor never showed {table}: {shown}")


# --- device status in words ---------------------------------------------------------------

def test_a_tile_says_each_device_s_state_in_words_not_colour_alone(
        url: str, client: TestClient) -> None:
    status = FloorStatus(url, table="PG-7", station="pg-7")
    beat = live_state(None, dealer="Kim", devices={
        "shoe": Device(True, "online"), "printer": Device(False, "out of paper")})
    # A station beats every second, so a beat the busy database refused is sent again.
    assert any(status.beat(beat) for _ in range(20)), status.error
    status.close()
    log_in(client)
    shown = _floor_with(client, "PG-7")
    assert "Shoe: online" in shown
    assert "CHECK Printer: out of paper" in shown  # the word, besides the red


def test_a_station_s_own_words_that_name_the_device_are_not_named_twice(url: str) -> None:
    status = FloorStatus(url, table="PG-7", station="pg-7")
    beat = live_state(None, devices={"database": Device(False, "Database: offline")})
    assert any(status.beat(beat) for _ in range(20)), status.error
    status.close()
    engine = make_engine(url)
    with Session(engine) as s:
        [tile] = tiles(s, now(), 10.0)
    engine.dispose()
    assert tile.devices == (("database", False, "Database: offline"),)


# --- several alerts, one note --------------------------------------------------------------

def _alerts(url: str, n: int) -> list[str]:
    engine = make_engine(url)
    alerts.raise_new(engine, [Raise(f"foul:test:{i}", "foul", "PG-1",
                                    f"PG-1 round {i}: seat 2 fouled (five-card lower)")
                              for i in range(n)])
    with Session(engine) as s:
        ids = [a.id for a in alerts.listing(s)]
    engine.dispose()
    return ids


def _acks(url: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    engine = make_engine(url)
    with Session(engine) as s:
        acks = [(str(a.alert_id), a.by, a.note) for a in s.scalars(select(FloorAck))]
        logged = [r.action for r in s.scalars(select(FloorLog)) if r.action == "alert_ack"]
    engine.dispose()
    return acks, logged


def test_several_ticked_alerts_are_acknowledged_with_one_note_each_recorded(
        url: str, client: TestClient) -> None:
    ids = _alerts(url, 4)
    log_in(client)
    page = client.get("/alerts").text
    got = client.post("/alerts/ack", data={"csrf": csrf(page), "which": "ticked",
                                           "alert": ids[:3], "shown": ids,
                                           "note": "dealer retrained", "back": "/alerts"})
    assert got.status_code == 303
    assert "3 alerts acknowledged with one note" in client.get(got.headers["location"]).text
    acks, logged = _acks(url)
    assert sorted(acks) == sorted((i, "Pat", "dealer retrained") for i in ids[:3])
    assert len(logged) == 3  # a line of the floor's log per alert, as one by one


def test_acknowledge_all_takes_every_open_alert_the_page_showed_and_none_raised_since(
        url: str, client: TestClient) -> None:
    shown = _alerts(url, 3)
    log_in(client)
    page = client.get("/alerts").text
    assert "Acknowledge all 3 open" in page
    later = [i for i in _alerts(url, 4) if i not in shown]  # raised after the page was read
    got = client.post("/alerts/ack", data={"csrf": csrf(page), "which": "all",
                                           "shown": shown, "note": "seen, all fine"})
    assert got.status_code == 303
    acks, _ = _acks(url)
    assert {a for a, _, _ in acks} == set(shown) and later


def test_several_alerts_need_a_note_a_tick_and_a_role_that_acts(
        url: str, client: TestClient) -> None:
    ids = _alerts(url, 2)
    log_in(client, "Aud")
    token = csrf(client.get("/alerts").text)
    refused = client.post("/alerts/ack", data={"csrf": token, "which": "all", "shown": ids,
                                               "note": "I saw it"})
    assert refused.status_code == 403 and "auditor" in refused.text
    log_in(client)
    token = csrf(client.get("/alerts").text)
    none = client.post("/alerts/ack", data={"csrf": token, "which": "ticked", "shown": ids,
                                            "note": "x"})
    assert none.status_code == 409 and "none was chosen" in none.text
    bare = client.post("/alerts/ack", data={"csrf": token, "which": "all", "shown": ids,
                                            "note": " "})
    assert bare.status_code == 409 and "write a note" in bare.text
    assert _acks(url) == ([], [])


def test_one_alert_acknowledged_meanwhile_records_none_of_the_several(
        url: str, client: TestClient) -> None:
    ids = _alerts(url, 3)
    log_in(client)
    token = csrf(client.get("/alerts").text)
    client.post(f"/alerts/{ids[1]}/ack", data={"csrf": token, "note": "mine"})
    got = client.post("/alerts/ack", data={"csrf": token, "which": "all", "shown": ids,
                                           "note": "all of them"})
    assert got.status_code == 409 and "nothing was recorded" in got.text
    assert [n for _, _, n in _acks(url)[0]] == ["mine"]


# --- the gaming day and its shifts ---------------------------------------------------------

def test_the_gaming_day_starts_at_six_local_by_default_and_night_play_counts_for_the_day_before(
        ) -> None:
    gd = load_config(env={}).floor.gaming_day()
    assert (gd.starts, gd.shift_changes) == (time(6, 0), (time(14, 0), time(22, 0)))
    chicago = GamingDay(time(6, 0), (time(14, 0), time(22, 0)), CHICAGO)
    night = datetime(2026, 11, 28, 3, 30, tzinfo=CHICAGO)  # Saturday 03:30
    assert chicago.day_of(night) == date(2026, 11, 27)
    since, until = chicago.window(date(2026, 11, 27))
    assert (since, until) == (datetime(2026, 11, 27, 12, 0, tzinfo=UTC),
                              datetime(2026, 11, 28, 12, 0, tzinfo=UTC))
    assert chicago.shift_window(date(2026, 11, 27), 3) == (
        datetime(2026, 11, 28, 4, 0, tzinfo=UTC), datetime(2026, 11, 28, 12, 0, tzinfo=UTC))


def test_a_gaming_day_over_a_clock_change_is_as_long_as_the_clock_says() -> None:
    since, until = GamingDay(tz=CHICAGO).window(date(2026, 10, 31))  # clocks back Nov 1
    assert until - since == timedelta(hours=25)


@pytest.mark.parametrize(("floor", "said"), [
    ({"gaming_day_starts": "6am"}, "'6am' is not a time of day: write it as HH:MM"),
    ({"shift_changes": ["22:00", "14:00"]}, "in the order they come after the gaming day"),
    ({"shift_changes": ["06:00"]}, "a shift change falls on the gaming day's start"),
    ({"time_zone": "Mars/Olympus"}, "'Mars/Olympus' is not a time zone this machine knows"),
])
def test_a_wrong_gaming_day_in_the_config_is_refused_at_load_saying_what_to_write(
        floor: dict[str, object], said: str) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(env={}, overrides={"floor": floor}, overrides_source="site.toml")
    assert str(e.value).startswith("site.toml: floor") and said in str(e.value)


def test_the_floor_server_refuses_a_config_with_a_wrong_gaming_day(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site.toml"
    site.write_text('[floor]\ngaming_day_starts = "25:00"\n')
    assert floor_main(["--config", str(site), "--database-url", "sqlite://"]) == 2
    err = capsys.readouterr().err
    assert "site.toml: floor" in err and "'25:00' is not a time of day" in err


def _played(station: HeadlessStation) -> datetime:
    for step in station.steps():
        step()
    assert station.last_settled is not None
    return station.last_settled


def test_the_report_counts_a_round_in_its_gaming_day_and_its_shift(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    at = _played(station).astimezone(UTC)
    # a gaming day that started 30 minutes before the round, its first shift 1 h long
    start = (at - timedelta(minutes=30)).time().replace(second=0, microsecond=0)
    first_ends = (datetime.combine(at.date(), start) + timedelta(hours=1)).time()
    gd = GamingDay(start, (first_ends,), ZoneInfo("UTC"))
    day = gd.day_of(at)
    app = create_app(settings(url, tmp_path, gaming_day=gd))
    with TestClient(app, follow_redirects=False) as c:
        log_in(c)
        whole = _text(c.get("/report").text)
        first = _text(c.get("/report", params={"date": day.isoformat(), "shift": 1}).text)
        second = _text(c.get("/report", params={"date": day.isoformat(), "shift": 2}).text)
        before = _text(c.get("/report", params={
            "date": (day - timedelta(days=1)).isoformat()}).text)
        csv = c.get("/report.csv", params={"date": day.isoformat(), "shift": 1})
        wrong = c.get("/report", params={"shift": 3})
    assert f"Gaming day {day.isoformat()}" in whole
    assert "PG-1 1 " in whole
    assert f"shift 1 ({start:%H:%M}-{first_ends:%H:%M})" in first and "PG-1 1 " in first
    assert "PG-1" not in second.split("Per dealer")[0].split("all tables")[0]
    assert "PG-1 1 " not in before
    assert f'shift-report-{day.isoformat()}-shift-1.csv' in csv.headers["content-disposition"]
    assert wrong.status_code == 400 and "shifts 1 to 2" in wrong.text
