"""Benchmark (not a test): does sending the journal to the database from the window's
process keep the window's threads from the interpreter long enough to hurt a card's way to
the glass? (issue 24, item 3: the `paigow-sync` question; docs/station.md has the answer.)

A station's journal holds `ROUNDS` rounds not yet sent (each round's writes, as a dealer
station makes them). A ticker thread stands in for the GUI thread and the shoe's reader:
it sleeps 0.5 ms again and again and notes how late it wakes (the time it waited for the
interpreter's lock, or for a core). Three runs of the same send:

    idle        nothing is sent: the ticker's lateness on this machine as it is
    in-process  the journal is sent on a thread of this process (as the station does now,
                from its pool)
    separate    the same journal is sent by a process of its own (a `paigow-sync` unit)

    .venv/bin/python -m tests.bench.bench_sync [ROUNDS]

Printed: each run's ticks, the ticker's p99 and worst lateness, and the send's seconds.
A card's paint is about 1 ms of the GUI thread (bench_window): lateness on the order of the
card goals (median 2 ms, p99 8 ms) is what a send during a deal would add to a card.
"""

from __future__ import annotations

import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROUNDS = 3
TICK_S = 0.0005
ROOT = Path(__file__).resolve().parents[2]

SEND = r"""
import sys, time
from app.ledger import Store
store = Store(sys.argv[1], table="PG-1", station="bench-sync", data_dir=sys.argv[2],
              send_on_save=False)
print("ready", flush=True)
sys.stdin.readline()
start = time.perf_counter()
store.drain()
print(f"sent {time.perf_counter() - start:.3f} {store.journal.counts()[0]}", flush=True)
store.close()
"""


def backlog(folder: Path, rounds: int) -> None:
    """`rounds` rounds played and journalled in `folder`, none sent."""
    from app.core.round import RoundRules
    from app.ledger import Store
    from app.session import MemoryPrinter
    from app.station import Ledger, Station
    from tests.faults.diskfull import _round

    store = Store(f"sqlite:///{folder / 'ledger.sqlite'}", table="PG-1",
                  station="bench-sync", data_dir=folder, send_on_save=False)
    station = Station(RoundRules(), ledger=Ledger(store, send_every=None),
                      printer=MemoryPrinter(), randbelow=random.Random(7).randrange)
    assert station.port is not None
    station.port.open_shift("Bench")
    rng = random.Random(2026)
    for _ in range(rounds):
        settled, why = _round(station.session, rng)
        if not settled:
            raise RuntimeError(f"a round did not settle: {why}")
    station.writes = None
    station.jobs.close()
    store.close()  # the journal kept: nothing was sent


def ticks(until: threading.Event) -> list[float]:
    late: list[float] = []
    while not until.is_set():
        start = time.perf_counter()
        time.sleep(TICK_S)
        late.append(time.perf_counter() - start - TICK_S)
    return late


def timed(run: str, folder: Path) -> tuple[list[float], float, int]:
    """The ticker's lateness while `run` happens; the send's seconds, the ops left."""
    from app.ledger import Store

    url = f"sqlite:///{folder / 'ledger.sqlite'}"
    done = threading.Event()
    seconds, left = 0.0, -1
    child = None
    store = None
    if run == "separate":
        child = subprocess.Popen([sys.executable, "-c", SEND, url, str(folder)], cwd=ROOT,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdin is not None
        if child.stdout.readline().strip() != "ready":
            raise RuntimeError("the sending process did not start")
    elif run == "in-process":
        store = Store(url, table="PG-1", station="bench-sync", data_dir=folder,
                      send_on_save=False)
    late: list[float] = []
    ticker = threading.Thread(target=lambda: late.extend(ticks(done)))
    ticker.start()
    time.sleep(0.2)  # the ticker's own start not counted
    late.clear()
    start = time.perf_counter()
    if child is not None:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("go\n")
        child.stdin.flush()
        _, sent, ops = child.stdout.readline().split()
        seconds, left = float(sent), int(ops)
        child.wait()
    elif store is not None:
        sender = threading.Thread(target=store.drain)
        sender.start()
        sender.join()
        seconds, left = time.perf_counter() - start, store.journal.counts()[0]
        store.close()
    else:
        time.sleep(1.0)
    done.set()
    ticker.join()
    return late, seconds, left


def main(rounds: int = ROUNDS) -> int:
    from app.ledger import Store

    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp:
        made = Path(tmp) / "made"
        made.mkdir()
        backlog(made, rounds)
        with Store(f"sqlite:///{made / 'ledger.sqlite'}", table="PG-1",
                   station="bench-sync", data_dir=made, send_on_save=False) as s:
            ops = s.journal.counts()[0]
        for run in ("idle", "in-process", "separate"):
            folder = Path(tmp) / run
            shutil.copytree(made, folder)
            late, seconds, left = timed(run, folder)
            ms = sorted(x * 1000 for x in late)
            p99 = statistics.quantiles(ms, n=100)[98]
            print(f"bench sync run={run} ops={ops} ticks={len(ms)} late-p99={p99:.1f}ms "
                  f"late-worst={ms[-1]:.1f}ms send={seconds:.2f}s left={left}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS))
