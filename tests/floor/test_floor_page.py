"""The floor page: every table as a tile with its live state, pushed to the browser as it
changes (issue 16: "Updates within 2 s of an event at the table")."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

from starlette.testclient import TestClient

from app.core.table import position_name
from app.floor.app import Floor, create_app
from app.floor.stations import HeadlessStation
from app.floor.views import tiles
from app.ledger.models import now

from .conftest import log_in, settings


def test_a_tile_shows_the_table_s_state_round_banker_action_and_wagers(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    floor = Floor(settings(url, tmp_path))
    for step in station.steps()[:3]:  # open, the bank (the dealer's, round 1), wagers
        step()
    station.beat()
    rnd = station.session.round
    assert rnd is not None
    with floor.session() as s:
        [betting] = tiles(s, now(), 10.0)
    station.steps()[3]()  # action
    station.beat()
    with floor.session() as s:
        [dealing] = tiles(s, now(), 10.0)
    floor.close()
    assert (betting.table, betting.state, betting.round_no) == ("PG-1", "betting", 1)
    assert betting.banker == "dealer" and betting.action == "-"
    assert dict(betting.wagers) == {f"seat {p}": f"${c / 100:,.2f}"
                                    for p, c in rnd.wagers.items()}
    assert {name for name, ok, _ in betting.devices if ok} == {"shoe", "printer", "database"}
    assert rnd.action is not None and dealing.state == "dealing"
    assert dealing.action == position_name(rnd.action.position)


def test_a_station_whose_heartbeat_stops_shows_offline(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    floor = Floor(settings(url, tmp_path))
    with floor.session() as s:
        [fresh] = tiles(s, now(), 10.0)
        [late] = tiles(s, now() + timedelta(seconds=11), 10.0)
    floor.close()
    assert not fresh.offline and fresh.state == "idle"
    assert late.offline and late.state_words == "OFFLINE"
    assert all(not ok for _, ok, _ in late.devices)


def test_a_settled_round_is_pushed_to_every_browser_following_the_floor(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    floor = Floor(settings(url, tmp_path))

    async def follow() -> list[str]:
        await floor.hub.tick()
        stream = floor.hub.follow()
        first = [await anext(stream) for _ in range(3)]  # retry, the tile, the alerts
        assert station.play_round()  # a whole round at the table
        await floor.hub.tick()
        pushed = await anext(stream)
        await stream.aclose()
        return [*first, pushed]

    messages = asyncio.run(follow())
    floor.close()
    event, data = messages[-1].split("\n")[:2]
    assert event == "event: tile"
    tile = json.loads(data.removeprefix("data: "))
    assert tile["id"] == "tile-PG-1"
    assert 'data-state="settled"' in tile["html"] and 'data-round="1"' in tile["html"]


def test_the_floor_page_lists_every_table(url: str, tmp_path: Path) -> None:
    stations = [HeadlessStation(url, f"PG-{i}", tmp_path / f"s{i}", seed=i, void_chance=0)
                for i in (1, 2, 3, 4)]
    try:
        with TestClient(create_app(settings(url, tmp_path)), follow_redirects=False) as client:
            log_in(client)
            page = client.get("/").text
    finally:
        for st in stations:
            st.close()
    for i in (1, 2, 3, 4):
        assert f'id="tile-PG-{i}"' in page
    assert 'data-stream="/stream"' in page
