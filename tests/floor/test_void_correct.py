"""Voids and corrections from the floor (issue 16): "Voids and corrections the station's pit
view can do are also done here, with the same rules and the same records." The pit view
voids the round in play at its station and corrects a settled round's position (a reversal
and a corrected row); a settled round is corrected, never voided."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.floor.stations import HeadlessStation
from app.ledger.apply import CORRECTION, ROUND_VOIDED
from app.ledger.database import make_engine
from app.ledger.models import Event, FloorRequest, RoundRow, SettlementRow

from .conftest import PASSWORD, csrf, log_in


def rows(url: str, model: type, *where: object) -> list:  # type: ignore[type-arg]
    engine = make_engine(url)
    with Session(engine) as s:
        out = list(s.scalars(select(model).where(*where)))
    engine.dispose()
    return out


def test_a_void_from_the_floor_is_done_by_the_station_with_the_pit_view_s_records(
        station: HeadlessStation, client: TestClient, url: str) -> None:
    station._open()
    station._wagers()
    station.beat()
    rid = station.ledger.round_id
    log_in(client, "Pat")
    page = client.get(f"/rounds/{rid}").text
    assert "Void this round" in page
    got = client.post(f"/rounds/{rid}/void", data={"csrf": csrf(page), "reason": "shoe jam"})
    assert got.status_code == 303
    station.beat()  # the station's next heartbeat takes the request
    assert station.session.round is None  # void at the table: a new round opens next
    [rnd] = rows(url, RoundRow)
    assert (rnd.status, rnd.void_reason) == ("void", "shoe jam")
    [ev] = rows(url, Event, Event.kind == ROUND_VOIDED)
    assert ev.actor == "Pat"  # the same record as the pit view's void, with who
    [req] = rows(url, FloorRequest)
    assert req.done_at is not None and req.outcome.startswith("Round 1 is void (Pat: shoe jam)")
    assert "Round 1 is void (Pat: shoe jam)" in client.get(f"/rounds/{rid}").text


def test_a_settled_round_is_corrected_not_voided(station: HeadlessStation,
                                                 client: TestClient) -> None:
    station.play_round()
    rid = station.store.history(limit=1)[0].id
    log_in(client, "Pat")
    page = client.get(f"/rounds/{rid}").text
    assert "Void this round" not in page and "Correct a settlement" in page
    got = client.post(f"/rounds/{rid}/void", data={"csrf": csrf(page), "reason": "late"})
    assert got.status_code == 409
    assert "only a round in play is voided (a settled round is corrected)" in got.text


def test_a_correction_from_the_floor_adds_a_reversal_and_a_corrected_row_with_who_and_why(
        station: HeadlessStation, client: TestClient, url: str) -> None:
    station.play_round()
    summary = station.store.history(limit=1)[0]
    seat = summary.seats[0]
    log_in(client, "Max")
    page = client.get(f"/rounds/{summary.id}").text
    got = client.post(f"/rounds/{summary.id}/correct",
                      data={"csrf": csrf(page), "position": str(seat), "net": "+12.50",
                            "reason": "paid short",
                            "password": PASSWORD})
    assert got.status_code == 303
    settled = rows(url, SettlementRow, SettlementRow.position == seat)
    kinds = sorted((r.entry, r.by) for r in settled)
    assert [k for k, _ in kinds] == ["correction", "original", "reversal"]
    correction = next(r for r in settled if r.entry == "correction")
    reversal = next(r for r in settled if r.entry == "reversal")
    original = next(r for r in settled if r.entry == "original")
    assert (correction.net_cents, correction.by, correction.reason) == \
        (1250, "Max", "paid short")
    assert reversal.net_cents == -original.net_cents and reversal.reverses_id == original.id
    [ev] = rows(url, Event, Event.kind == CORRECTION)
    assert ev.actor == "Max"
    shown = client.get(f"/rounds/{summary.id}").text
    assert "Corrected" in shown and "paid short" in shown


def test_a_correction_with_no_reason_or_a_bad_amount_is_refused_with_what_to_do(
        station: HeadlessStation, client: TestClient, url: str) -> None:
    station.play_round()
    summary = station.store.history(limit=1)[0]
    log_in(client, "Pat")
    token = csrf(client.get(f"/rounds/{summary.id}").text)
    bad = client.post(f"/rounds/{summary.id}/correct",
                      data={"csrf": token, "position": str(summary.seats[0]), "net": "lots",
                            "reason": "x"})
    assert bad.status_code == 400 and "The corrected net" in bad.text
    silent = client.post(f"/rounds/{summary.id}/correct",
                         data={"csrf": token, "position": str(summary.seats[0]), "net": "5",
                               "reason": " "})
    assert silent.status_code == 400 and "Write why" in silent.text
    assert len(rows(url, SettlementRow, SettlementRow.entry != "original")) == 0


def test_an_auditor_may_not_correct(station: HeadlessStation, client: TestClient,
                                    url: str, tmp_path: Path) -> None:
    station.play_round()
    summary = station.store.history(limit=1)[0]
    log_in(client, "Aud")
    page = client.get(f"/rounds/{summary.id}").text
    assert "Correct a settlement" not in page
    got = client.post(f"/rounds/{summary.id}/correct",
                      data={"csrf": csrf(page), "position": str(summary.seats[0]),
                            "net": "5", "reason": "why not"})
    assert got.status_code == 403
    assert len(rows(url, SettlementRow, SettlementRow.entry != "original")) == 0


def test_a_correction_from_the_floor_needs_the_persons_own_password_at_that_moment(
        station: HeadlessStation, client: TestClient, url: str) -> None:
    station.play_round()
    summary = station.store.history(limit=1)[0]
    log_in(client, "Max")
    token = csrf(client.get(f"/rounds/{summary.id}").text)
    data = {"csrf": token, "position": str(summary.seats[0]), "net": "+5",
            "reason": "paid short"}
    missing = client.post(f"/rounds/{summary.id}/correct", data=data)
    assert missing.status_code == 400 and "Type your password" in missing.text
    wrong = client.post(f"/rounds/{summary.id}/correct",
                        data=data | {"password": "not the password"})
    assert wrong.status_code == 409 and "Wrong name or secret for Max" in wrong.text
    assert len(rows(url, SettlementRow, SettlementRow.entry != "original")) == 0
