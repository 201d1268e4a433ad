"""The linked progressive's faults (issue 27), on a real PostgreSQL: a station killed
between its contribution and its commit loses and doubles none; the meter comes back exact
after the server restarts under several writers; a station's login adds moves of its own
table only and may update the shared meter but never delete it."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import errors
from sqlalchemy.orm import Session

from app.core.bonus.categories import Category
from app.core.round import Round, RoundRules
from app.core.table import Table
from app.ledger import Store
from app.ledger.errors import LedgerError
from app.ledger.progressive import audit

from .conftest import TABLE
from .enrolled import enrolled_key
from .logins import SUPERVISOR, SUPERVISOR_SECRET, Floor, enroll_station, people_and_keys
from .pg import PgServer
from .play import play
from .progressive_play import CARD, moves, progressive_round, wagers

pytestmark = pytest.mark.slow  # station processes and a server restart

ROOT = Path(__file__).resolve().parents[2]


def test_a_station_killed_between_its_contribution_and_its_commit_contributes_once(
        database_url: str, tmp_path: Path) -> None:
    data = tmp_path / "station"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.ledger.progressive_station", database_url, str(data),
         "pg-1", "1,2,3"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        raise AssertionError(f"the station ended before its contribution: "
                             f"{proc.communicate(timeout=5)[1]}")
    round_id = json.loads(line)["contributed"]
    proc.send_signal(signal.SIGKILL)  # mid-transaction: the contribution written, no commit
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    with Store(database_url, table=TABLE, station="pg-1", data_dir=data) as again:
        enrolled_key(again)
        assert moves(again) == []  # neither the settlement nor the contribution
        assert again.journal.counts()[0] >= 1  # the station still holds the op
        assert again.drain().pending == 0  # sent again by the restarted station
        assert again.drain().pending == 0
        fed = [m for m in moves(again) if m.kind == "contribution"]
        assert [(m.round_id, m.wagers) for m in fed] == [(round_id, 3)]
        with Session(again.engine) as s:
            assert audit(s, CARD.name, CARD).exact
        assert all(r.intact for r in again.verify())


@pytest.fixture()
def pg_url(pg_up: PgServer, pg_template: str) -> Iterator[str]:
    name = pg_up.create_database(template=pg_template)
    # The tests' server runs with synchronous_commit off (pg.py, for speed): a commit it
    # acknowledged can be lost in a crash, which a production server (on, its default)
    # never does. The station then rightly finds its journal's next record out of order.
    pg_up.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = on')
    yield pg_up.url(name)
    if not pg_up.running:
        pg_up.start()


# In `make proof`, in a process of its own: in `make test` a worker that had restarted its
# PostgreSQL here later failed test_outbox's own restart (its server's socket gone after
# 120 s), twice in fresh-clone runs; not yet understood.
@pytest.mark.proof
def test_the_meter_is_exact_after_a_postgresql_restart_under_several_writers(
        pg_up: PgServer, pg_url: str, tmp_path: Path) -> None:
    tables = ("PG-1", "PG-2", "PG-3", "PG-4")
    stores = [Store(pg_url, table=t, station=t.lower(), data_dir=tmp_path / t)
              for t in tables]
    settled: dict[str, int] = {}  # round id -> its progressive wagers
    lock = threading.Lock()
    stop = threading.Event()
    failed: list[BaseException] = []

    def station(store: Store, n: int) -> None:
        try:
            play_on(store, n)
        except BaseException as e:  # noqa: BLE001 - the test says which
            failed.append(e)

    def play_on(store: Store, n: int) -> None:
        rng = random.Random(n)
        while not stop.is_set():
            game = Round(RoundRules(table=Table(name=store.table)), store.rotation())
            rec = store.begin(game)
            seats = sorted(rng.sample(range(1, 7), rng.randint(1, 6)))
            rec.progressive = wagers(seats)  # type: ignore[assignment]
            play(game, rng, rec.save, misdeal_chance=0)  # kept in the journal when away
            with lock:
                settled[rec.round_id] = len(seats)

    try:
        for store in stores:
            enrolled_key(store)
            store.open_shift("Kim")
        threads = [threading.Thread(target=station, args=(s, n)) for n, s in enumerate(stores)]
        for t in threads:
            t.start()
        time.sleep(4)
        pg_up.stop("immediate")  # a crash: no checkpoint, whatever was in flight is lost
        time.sleep(2)
        pg_up.start()
        time.sleep(4)
        stop.set()
        for t in threads:
            t.join(120)
        assert failed == []
        for store in stores:
            assert store.drain().pending == 0
        fed = [m for m in moves(stores[0]) if m.kind == "contribution"]
        assert len(settled) >= 8
        assert sorted(m.round_id or "" for m in fed) == sorted(settled)  # lost 0, doubled 0
        assert {m.round_id: m.wagers for m in fed} == settled
        with Session(stores[0].engine) as s:
            found = audit(s, CARD.name, CARD)
        assert found.exact, found.problems
        wagered = sum(settled.values())
        assert found.sums.contributions == wagered * 70
        assert found.reading is not None
        assert found.reading.amount == CARD.seed + wagered * 70
        assert all(r.intact for r in stores[0].verify())
    finally:
        stop.set()
        if not pg_up.running:
            pg_up.start()
        for store in stores:
            store.close()


def test_a_station_login_adds_moves_of_its_own_table_and_never_deletes_the_meter(
        pg_up: PgServer, tmp_path: Path) -> None:
    floor = Floor(pg_up)
    other = floor.login("PG-2")
    assert floor.login(TABLE)  # makes the owner's schema; PG-1's own login below
    people_and_keys(floor, tmp_path)
    mine = f"{floor.station}_pg_1"
    with Store(floor.url(mine), table=TABLE, station="pg-1",
               data_dir=tmp_path / "station") as pg1:
        pg1.open_shift("Kim")
        rec = progressive_round(pg1, [1, 2])
        assert [m.kind for m in moves(pg1)] == ["open", "contribution"]
        station_id = pg1.station_id
    enroll_station(floor, "PG-2", "pg-2", tmp_path / "pg-2")
    with Store(floor.url(other), table="PG-2", station="pg-2",
               data_dir=tmp_path / "pg-2") as pg2:
        pg2.open_shift("Lou")
        progressive_round(pg2, [3])  # the shared meter: any table's login updates it
        assert [m.kind for m in moves(pg2)][-1] == "contribution"
        pat = pg2.authorise(SUPERVISOR, SUPERVISOR_SECRET, "progressive")
        with pytest.raises(LedgerError, match="refused this login"):  # not PG-2's round
            pg2.take_progressive_hits(CARD, rec.round_id, [(1, Category.FOUR_OF_A_KIND)],
                                      "x", pat)
    with floor.connect(other) as conn:
        with pytest.raises(errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(
                "INSERT INTO progressive_moves SELECT gen_random_uuid(), meter, 99, kind, "
                "station_id, round_id, 'forged', 0, seats, wagers, category, seat, "
                "amount_cents, to_meter_cents, to_reserve_cents, reserve_to_meter_cents, "
                "house_cents, house_paid_cents, meter_before_cents, meter_after_cents, "
                "reserve_before_cents, reserve_after_cents, by, sign_in, at "
                "FROM progressive_moves WHERE station_id = %s LIMIT 1", (uuid.UUID(station_id),))
        for sql in ("DELETE FROM progressive_meters", "DELETE FROM progressive_moves",
                    "TRUNCATE progressive_moves", "UPDATE progressive_moves SET wagers = 0"):
            with pytest.raises(psycopg.Error):
                conn.execute(sql)
