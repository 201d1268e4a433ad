"""Benchmark (not a test): a long shift through the real window, off screen (issue 24, "a
week without a restart").

2,000 rounds played at the dealer's window as a station plays them: a new round, three
wagers, the deal read card by card from a shoe on a pseudo-terminal (the real reader
thread and parser), the dragon passed, every hand set the House Way, settled, each round
recorded in a real ledger (SQLite and its journal, written on the worker) and sent on.

    .venv/bin/python -m tests.bench.bench_shift [ROUNDS]

Printed: `bench shift rounds=2000 first-100=Xs last-100=Ys rss-growth=ZMB
ledger-per-round=NKB`, each beside its goal: the last hundred rounds within 10% of the
first hundred, the memory the process holds after the last round less what it held after
the first hundred under 10 MB, and what the ledger's file grew by (after a checkpoint;
the empty ledger's tables and indexes not counted) over the rounds at most 15 KB a round.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import tempfile
import time
import tty
from pathlib import Path

ROUNDS = 2000
WINDOW = 100  # rounds timed at the start and at the end
GOAL_SLOWER = 0.10  # the last hundred within 10% of the first
GOAL_RSS_MB = 10.0
GOAL_LEDGER_KB = 15.0


def rss_mb() -> float:
    """The memory the process holds now (resident), in MB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def ledger_kb(path: Path) -> float:
    """The ledger's file as it stands once its write-ahead log is folded in, in KB."""
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size / 1024


def shift(rounds: int) -> tuple[list[float], float, float, float]:
    """Play `rounds`; returns each round's seconds, the RSS after the first WINDOW rounds
    and after the last, and the ledger's KB."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from app.core.cards import DECK
    from app.core.round import Phase, RoundRules
    from app.ledger import Store
    from app.session import DealerCommand
    from app.session.procedure import to_set
    from app.station import Jobs, Ledger, Station
    from app.ui.shoe import SerialShoe
    from app.ui.window import MainWindow
    from app.ui.worker import Worker
    from drivers.shoe.protocol import encode_line, seq_after
    from drivers.shoe.transport import ShoeConfig

    def quiet(mode, context, message):  # noqa: ANN001
        # The offscreen platform cannot size windows to hints; a screen would: not news.
        if "propagateSizeHints" not in message:
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(quiet)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    master, slave = os.openpty()
    tty.setraw(slave)
    data = tempfile.TemporaryDirectory(prefix="bench-shift-")
    path = Path(data.name) / "ledger.sqlite"
    store = Store(f"sqlite:///{path}", table="PG-1", station="bench", data_dir=data.name)
    ledger = Ledger(store)
    ledger.open_shift("Bench")
    shoe = SerialShoe(os.ttyname(slave), config=ShoeConfig(os.ttyname(slave),
                                                            heartbeat_timeout=0))
    window = MainWindow()
    jobs = Jobs()  # the station's wiring, as paigow-dealer's (app/ui/main.py)
    station = Station(RoundRules(), ledger=ledger, jobs=jobs, writes=Worker(window, jobs=jobs),
                      randbelow=lambda n: 3)
    session, port = station.session, station.port
    assert port is not None
    window.bind(station, shoe)
    window.resize(1280, 800)
    window.show()

    def wait(until, what: str, seconds: float = 60.0) -> None:  # noqa: ANN001
        end = time.monotonic() + seconds
        while not until():
            if time.monotonic() > end:
                raise RuntimeError(f"the window did not get there in {seconds:.0f} s: {what}"
                                   f" (phase {session.round.phase if session.round else None};"
                                   f" {session.message})")
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)

    rng = random.Random(2026)
    seq = 0

    def send(kind: str, *fields: str) -> None:
        nonlocal seq
        seq = seq_after(seq)  # 51 lines a round: past 99,999 by round 1,961, then 1 again
        os.write(master, encode_line(kind, seq, *fields))

    times: list[float] = []
    rss_early = 0.0
    try:
        wait(lambda: shoe.online, "the shoe online")
        empty_kb = ledger_kb(path)  # the schema and the shift: not a round's
        for n in range(rounds):
            start = time.perf_counter()
            window.press("N")
            if session.bank_offered() is not None:
                window.press("Shift+Q")
            for seat in (1, 3, 5):
                window.select(seat)
                window.handle(DealerCommand("wager", "25"))
            window.press("R")
            deck = list(DECK)
            rng.shuffle(deck)
            send("SHUFFLE", "START")
            for c in deck[:49]:
                send("CARD", str(c))
            send("BURN", *map(str, deck[49:]))
            rnd = session.round
            assert rnd is not None
            wait(lambda r=rnd: r.phase is Phase.SETTING, "the deal read")
            if session.dragon_offered() is not None:
                window.press("Shift+Q")
            while waiting := to_set(session):
                window.select(waiting[0])
                window.press("H")
            if not window.press("S").done:
                raise RuntimeError(session.message)
            wait(lambda: port.pending == 0, "the round recorded")
            if port.failed is not None:
                raise RuntimeError(f"the ledger refused a write: {port.failed}")
            times.append(time.perf_counter() - start)
            if n + 1 == WINDOW:
                gc.collect()
                rss_early = rss_mb()
            if (n + 1) % WINDOW == 0:  # a long run shows its course as it goes
                print(f"  rounds {n + 1 - WINDOW + 1}-{n + 1}: {sum(times[-WINDOW:]):.1f}s, "
                      f"rss {rss_mb():.1f}MB", file=sys.stderr, flush=True)
        wait(lambda: store.journal.counts()[0] == 0, "the journal sent", seconds=120)
        gc.collect()
        rss_late = rss_mb()
        kb = ledger_kb(path) - empty_kb
    finally:
        window.close()
        shoe.close()
        os.close(master)
        os.close(slave)
        store.close()
        data.cleanup()
    return times, rss_early, rss_late, kb / rounds


def report(times: list[float], rss_early: float, rss_late: float, per_round_kb: float) -> str:
    first, last = sum(times[:WINDOW]), sum(times[-WINDOW:])
    slower = last / first - 1
    growth = rss_late - rss_early

    def met(ok: bool) -> str:
        return "met" if ok else "missed"

    return (f"bench shift rounds={len(times)} first-{WINDOW}={first:.1f}s "
            f"last-{WINDOW}={last:.1f}s ({slower:+.0%}, goal within {GOAL_SLOWER:.0%}: "
            f"{met(slower <= GOAL_SLOWER)}) rss-growth={growth:.1f}MB (goal<{GOAL_RSS_MB:g}MB: "
            f"{met(growth < GOAL_RSS_MB)}) ledger-per-round={per_round_kb:.1f}KB "
            f"(goal<={GOAL_LEDGER_KB:g}KB: {met(per_round_kb <= GOAL_LEDGER_KB)})")


def main(rounds: int = ROUNDS) -> int:
    print(report(*shift(rounds)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS))
