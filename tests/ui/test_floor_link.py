"""The station's heartbeat to the pit floor (issue 16): "the station's health (shoe, printer,
database; offline when its heartbeat stops)", "Updates within 2 s of an event at the
table"; and the floor's void requests: "Voids and corrections the station's pit view can
do are also done here, with the same rules and the same records" (done at the station by a
supervisor, who is named back to the floor)."""

from __future__ import annotations

import json
import threading
import uuid

from sqlalchemy.orm import Session

from app.core.round import Phase
from app.ledger.floor_status import FloorStatus
from app.ledger.models import FloorRequest, StationStatus, now
from app.ui.floor_link import FloorLink

from .conftest import SUPERVISOR, SUPERVISOR_SECRET, Station, add_people
from .test_station import make_ledger
from .test_window import open_and_wager


def linked(make_station, tmp_path, every_ms: int = 100):  # noqa: ANN001, ANN201
    ledger = make_ledger(tmp_path)
    add_people(ledger.store)
    s: Station = make_station(ledger=ledger)
    store = ledger.store
    link = FloorLink(s.window, FloorStatus(store.engine, table=store.table,
                                           station=store.station,
                                           identity=store.station_id), every_ms=every_ms)
    assert s.window.pit is not None
    s.window.pit.floor = link
    return s, ledger, link


def status_row(ledger) -> StationStatus | None:  # noqa: ANN001
    with Session(ledger.store.engine) as db:
        return db.get(StationStatus, uuid.UUID(ledger.store.station_id))


def test_the_heartbeat_carries_the_tables_live_state_and_is_written_off_the_gui_thread(
        make_station, tmp_path, monkeypatch):
    threads: list[str] = []
    beat = FloorStatus.beat

    def spy(self, live, at=None):  # noqa: ANN001, ANN202
        threads.append(threading.current_thread().name)
        return beat(self, live, at)

    monkeypatch.setattr(FloorStatus, "beat", spy)
    s, ledger, link = linked(make_station, tmp_path)
    open_and_wager(s, {1: "25", 5: "100"})
    s.recorded()

    def betting() -> None:
        row = status_row(ledger)
        assert row is not None and row.state == "betting"
        assert json.loads(row.wagers) == {"1": 2500, "5": 10000}
        assert row.round_no == 1 and row.banker == "dealer" and row.dealer == "Kim"
        assert row.round_id is not None
        assert str(row.round_id) == s.recording.round_id

    s.qtbot.waitUntil(betting, timeout=60_000)  # generous: a loaded machine is slow
    first = status_row(ledger)
    devices = json.loads(first.devices)
    assert set(devices) == {"shoe", "printer", "database"}
    assert devices["shoe"] == [True, "online"]
    # Nothing changes: the heartbeat alone goes on, so the floor knows the table is there.
    # (Under load a device's own check can land after the first beat read here: a change
    # moves `first` on, and a beat that changes nothing must then come.)
    seen = [first]

    def a_beat_that_changes_nothing() -> None:
        now = status_row(ledger)
        if now.changed_at != seen[-1].changed_at:
            seen.append(now)
        assert now.heartbeat_at > seen[-1].heartbeat_at, \
            [(r.changed_at, r.heartbeat_at, r.devices) for r in seen]

    s.qtbot.waitUntil(a_beat_that_changes_nothing, timeout=60_000)
    assert len(seen) <= 2, [(r.changed_at, r.devices) for r in seen]  # one late change
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.qtbot.waitUntil(lambda: status_row(ledger).state == "setting", timeout=60_000)
    assert status_row(ledger).action_position is not None
    # on the station's pool, never the GUI thread
    assert threads and all(name.startswith("station_") for name in threads), threads


def test_the_floors_void_request_is_shown_and_done_only_by_a_supervisor_at_the_station(
        make_station, tmp_path):
    s, ledger, link = linked(make_station, tmp_path)
    open_and_wager(s, {1: "25"})
    rec = s.recording
    old, asked = uuid.uuid4(), uuid.uuid4()
    with Session(ledger.store.engine) as db, db.begin():
        for rid, round_id in ((old, uuid.uuid4()), (asked, uuid.UUID(rec.round_id))):
            db.add(FloorRequest(id=rid, station_id=uuid.UUID(ledger.store.station_id),
                                round_id=round_id, kind="void", by="Sam Floor",
                                reason="a player disputes the deal", requested_at=now()))
    s.qtbot.waitUntil(lambda: [r.id for r in link.requests] == [str(asked)], timeout=60_000)
    assert s.message.startswith("The pit floor asks to void round 1 (Sam Floor: a player "
                                "disputes the deal): a supervisor does it here, F2.")
    s.window.toggle_pit()
    pit = s.window.supervisor
    assert pit is not None and pit.floor_void.isVisible()
    assert s.session.round is not None  # nothing is done by the floor's asking alone
    dialog = pit.open_floor_void()
    assert dialog is not None
    assert dialog.form.reason.text() == "the floor asked (Sam Floor): a player disputes " \
                                        "the deal"
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    dialog.ok.click()
    s.qtbot.waitUntil(lambda: not dialog.waiting, timeout=60_000)
    assert s.session.round is None and not link.requests

    def answered() -> None:
        with Session(ledger.store.engine) as db:
            done = {r.id: r.outcome for r in db.query(FloorRequest)
                    if r.done_at is not None}
        assert done == {
            old: "not voided: that round is no longer in play here (a settled round is "
                 "corrected, not voided)",
            asked: f"voided at the station by {SUPERVISOR}: the floor asked (Sam Floor): "
                   f"a player disputes the deal"}

    s.qtbot.waitUntil(answered, timeout=60_000)
