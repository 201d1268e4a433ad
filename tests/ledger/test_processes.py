"""Stations as processes: one killed mid-round (SIGKILL, as a power cut) restarts into the
same round with every card and wager and settles it; several settle rounds into one
PostgreSQL at once and every row is there exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ledger import Store
from app.ledger.codec import stored_record
from app.ledger.models import Event, HandRow, RoundRow, SettlementRow, Station

from .enrolled import enrolled_key
from .pg import PgServer

pytestmark = pytest.mark.slow  # station processes writing one ledger

ROOT = Path(__file__).resolve().parents[2]


def _start(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.ledger.station", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _lines(proc: subprocess.Popen[str], timeout: float = 60) -> list[dict[str, Any]]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()]


def _until(proc: subprocess.Popen[str], key: str) -> dict[str, Any]:
    assert proc.stdout is not None
    for line in proc.stdout:
        obj = json.loads(line)
        if key in obj:
            return obj
    _, err = proc.communicate(timeout=5)
    raise AssertionError(f"the station ended before {key!r}: {err}")


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL


def _events_of(url: str, tmp_path: Path, round_id: str) -> list[dict[str, Any]]:
    with Store(url, data_dir=tmp_path / "reader") as reader, \
            Session(reader.engine) as s:
        return [json.loads(p) for p in s.scalars(
            select(Event.payload).where(Event.round_id == uuid.UUID(round_id),
                                        Event.seq > 0).order_by(Event.seq))]


def test_a_station_killed_mid_round_restarts_into_the_same_round_and_settles_it(
        database_url: str, tmp_path: Path) -> None:
    station = str(tmp_path / "station")
    proc = _start("play", database_url, station, "s1", "crash", "2", "--stop-in-play")
    in_play = _until(proc, "in_play")
    _kill(proc)
    resumed = _lines(_start("resume", database_url, station, "s1"))
    assert resumed[0]["resumed"] == in_play["in_play"]
    assert resumed[0]["log"] == in_play["log"]  # every card and wager, in order
    settled = resumed[1]
    assert settled["settled"] == in_play["in_play"]
    assert resumed[2]["status"]["pending"] == 0
    events = _events_of(database_url, tmp_path, settled["settled"])
    # each record as the event keeps it: what was done, less what the replay makes again
    assert events[:len(in_play["log"])] == [stored_record(r) for r in in_play["log"]]
    assert events[-1] == {"type": "settled"}  # the slip is the round's row's
    with Store(database_url, data_dir=tmp_path / "reader") as reader:
        assert reader.slip(settled["settled"]).text == settled["text"]
        assert reader.slip(settled["settled"]).data() == settled["slip"]
        assert [r.status for r in reader.history()] == ["settled"] * 3


def test_a_station_killed_at_any_moment_of_play_loses_nothing_it_saved(
        database_url: str, tmp_path: Path) -> None:
    station = str(tmp_path / "station")
    proc = _start("play", database_url, station, "s2", "anywhere", "50", "--verbose")
    last = {}
    for _ in range(23):  # somewhere in the third or fourth round
        last = _until(proc, "saved")
    _kill(proc)
    resumed = _lines(_start("resume", database_url, station, "s2"))
    if resumed[0]["resumed"] is None:  # killed between a slip and the next round
        assert last["log"][-1]["type"] == "settled"
        return
    log = resumed[0]["log"]
    assert resumed[0]["resumed"] == last["saved"] or last["log"][-1]["type"] == "settled"
    if resumed[0]["resumed"] == last["saved"]:
        # the journal has everything printed, and perhaps the save made as it was killed
        assert log[:len(last["log"])] == last["log"]
    events = _events_of(database_url, tmp_path, resumed[1]["settled"])
    assert events[-1]["type"] == "settled"
    assert events[:len(log)] == [stored_record(r) for r in log]


def test_a_station_killed_while_the_database_is_away_resumes_and_sends_it_all(
        pg_up: PgServer, pg_template: str, tmp_path: Path) -> None:
    url = pg_up.url(pg_up.create_database(template=pg_template))
    station = str(tmp_path / "station")
    _lines(_start("play", url, station, "s3", "away", "1"))  # a round, online
    pg_up.stop()
    try:
        proc = _start("play", url, station, "s3", "away-2", "1", "--stop-in-play")
        settled_away = _until(proc, "settled")
        in_play = _until(proc, "in_play")
        _kill(proc)
    finally:
        pg_up.start()
    resumed = _lines(_start("resume", url, station, "s3"))
    assert resumed[0]["resumed"] == in_play["in_play"] and resumed[0]["log"] == in_play["log"]
    assert resumed[2]["status"]["pending"] == 0
    with Store(url, data_dir=tmp_path / "reader") as reader:
        rounds = reader.history()
        assert len(rounds) == 3 and {r.status for r in rounds} == {"settled"}
        assert reader.slip(settled_away["settled"]).text == settled_away["text"]
        with Session(reader.engine) as s:
            seqs = s.execute(select(Event.round_id, Event.seq)
                             .where(Event.seq.is_not(None))).all()
            assert len(seqs) == len(set(seqs))
            for r in rounds:
                last_seq = s.scalar(select(RoundRow.last_seq).where(
                    RoundRow.id == uuid.UUID(r.id)))
                assert sorted(q for rid, q in seqs if str(rid) == r.id) == list(
                    range(0, (last_seq or 0) + 1))


# make test: three stations at once; make proof, which CI runs too: five of six rounds each
# (a station process costs a second of CPU to start).
@pytest.mark.parametrize("stations,rounds", [
    (3, 4), pytest.param(5, 6, marks=pytest.mark.proof)])
def test_several_stations_settling_into_one_postgresql_at_once_write_every_row_once(
        pg_up: PgServer, tmp_path: Path, stations: int, rounds: int) -> None:
    url = pg_up.url(pg_up.create_database())  # empty: they migrate it at once too
    procs = [_start("play", url, str(tmp_path / f"s{i}"), f"station-{i}", f"seed-{i}",
                    str(rounds)) for i in range(stations)]
    outputs = [_lines(p, timeout=120) for p in procs]
    for i in range(stations):  # enrolled after: an enrollment vouches for what it signed
        with Store(url, table="PG-1", station=f"station-{i}", data_dir=tmp_path / f"s{i}") as st:
            enrolled_key(st)
    settled = {o["settled"]: o for out in outputs for o in out if "settled" in o}
    assert len(settled) == stations * rounds
    assert all(out[-1]["status"]["pending"] == 0 for out in outputs)
    with Store(url, data_dir=tmp_path / "reader") as reader, \
            Session(reader.engine) as s:
        count = lambda m: s.scalar(select(func.count()).select_from(m))  # noqa: E731
        assert count(Station) == stations
        assert count(RoundRow) == stations * rounds
        assert count(HandRow) == 7 * stations * rounds
        assert count(SettlementRow) == sum(
            sum(1 for p in o["slip"]["positions"] if p["outcome"] is not None)
            + (o["slip"]["bank"]["player"] is not None) for o in settled.values())
        rows = s.execute(select(RoundRow.id, RoundRow.last_seq)).all()
        assert {str(r.id): reader.slip(str(r.id)).text for r in rows} == {
            k: o["text"] for k, o in settled.items()}
        seqs = s.execute(select(Event.round_id, Event.seq)
                         .where(Event.seq.is_not(None))).all()
        assert len(seqs) == len(set(seqs)) == sum(r.last_seq + 1 for r in rows)
        t = reader.totals()
        assert t.rounds == stations * rounds
        assert t.win_cents == sum(o["slip"]["totals"]["house_net_cents"]
                                  for o in settled.values())
