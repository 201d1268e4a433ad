"""Benchmark (not a test): the dealer's window, offscreen.

startup        from the start of a `paigow-dealer --demo` process to its main window painted
               for the first time (a fresh subprocess each run, the median of a few runs).
card-latency   from a CARD line written on the shoe's pseudo-terminal to that card painted
               in its seat: the real reader thread and parser, the queued signal to the GUI
               thread, the dealer session, the round and the repaint of what changed, with
               the GUI thread idle in Qt's event loop as in the station (the worker's ledger
               writes and status polls settled before the deal's first card). The full
               round each time, recorded in a real ledger (SQLite and its journal, written
               on the worker). A few hundred cards, round after round.

    .venv/bin/python -m tests.bench.bench_window      goals: startup to first paint under
                                                      0.5 s (issue 14; issue 13 asked 1 s); a
                                                      card painted median under 2 ms, p99
                                                      under 8 ms (issue 14; issue 13 asked
                                                      5 ms and 16 ms, one frame)

Each figure is printed with its goal and whether it was met. The machine's other work shows
in the p99 (a card waits for a core, or for the interpreter while another thread holds it):
read it with `uptime`'s load beside it.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

STARTUP_RUNS = 5
# The goals (issue 14), and issue 13's that came before them.
STARTUP_GOAL, STARTUP_GOAL_13 = 0.5, 1.0  # seconds to the first paint
MEDIAN_GOAL, P99_GOAL = 2.0, 8.0  # milliseconds from a card's line to its paint
ROUNDS = 6  # 49 cards each: 294 cards
ROOT = Path(__file__).resolve().parents[2]

# Run in the child: `paigow-dealer --demo`, reporting when the felt is first painted.
CHILD = r"""
import os, signal, sys, time
import app.ui.felt as felt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

paint = felt.FeltView.paintEvent

def painted(self, event):
    paint(self, event)
    if not getattr(self, "seen", False):
        self.seen = True
        print(f"painted {time.time():.6f}", flush=True)
        # Stopped as systemctl stops it (a dealer's close needs a supervisor).
        QTimer.singleShot(0, lambda: os.kill(os.getpid(), signal.SIGTERM))

felt.FeltView.paintEvent = painted
from app.ui.main import main
sys.exit(main(sys.argv[1:]))
"""


def startup_seconds(runs: int = STARTUP_RUNS) -> list[float]:
    # Byte-compiled first, as an installed station is (the timing is the start, not a
    # first compile of every module changed since).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "app"),
                    str(ROOT / "drivers")], check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    times = []
    for _ in range(runs):
        # A ledger of its own each run: a benchmark must not write into the user's.
        with tempfile.TemporaryDirectory() as data:
            start = time.time()
            proc = subprocess.run([sys.executable, "-c", CHILD, "--demo", "--data-dir", data],
                                  cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=60)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("painted ")]
        if proc.returncode != 0 or not lines:
            raise RuntimeError(f"the station did not start: {proc.stderr[-2000:]}")
        times.append(float(lines[0].split()[1]) - start)
    return times


def card_latencies(rounds: int = ROUNDS) -> list[float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from app.core.cards import DECK, Card
    from app.core.round import Phase, RoundRules
    from app.ledger import Store
    from app.session import DealerCommand
    from app.session.procedure import to_set
    from app.station import Jobs, Ledger, Station
    from app.ui import cards as card_widgets
    from app.ui.shoe import SerialShoe
    from app.ui.window import MainWindow
    from app.ui.worker import Worker
    from drivers.shoe.protocol import encode_line
    from drivers.shoe.transport import ShoeConfig

    def quiet(mode, context, message):  # noqa: ANN001
        # The offscreen platform cannot size windows to hints; a screen would: not news.
        if "propagateSizeHints" not in message:
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(quiet)

    app = QApplication.instance() or QApplication(sys.argv[:1])
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    data = tempfile.TemporaryDirectory()  # a ledger of its own, never the user's
    store = Store(f"sqlite:///{data.name}/ledger.sqlite", table="PG-1", station="bench",
                  data_dir=data.name, migrate_now=False, send_on_save=False)
    ledger = Ledger(store)
    ledger.open_shift("Bench")
    shoe = SerialShoe(port, config=ShoeConfig(port, heartbeat_timeout=0))
    window = MainWindow()
    jobs = Jobs()  # the station's wiring, as paigow-dealer's (app/ui/main.py)
    station = Station(RoundRules(), ledger=ledger, jobs=jobs, writes=Worker(window, jobs=jobs),
                      randbelow=lambda n: 3)
    session, port_ = station.session, station.port
    assert port_ is not None
    window.bind(station, shoe)
    window.resize(1920, 1080)
    window.show()

    loop = QEventLoop()
    watchdog = QTimer()
    watchdog.setSingleShot(True)
    watchdog.timeout.connect(loop.quit)
    wanted: list[Card | None] = [None]
    painted_at: list[float] = []
    paint = card_widgets.CardWidget.paintEvent

    def timed_paint(self, event) -> None:  # noqa: ANN001
        paint(self, event)
        # A card at a place no one wagered on is dealt face down (a dragon hand unseen until
        # taken): painted all the same.
        if self.card is not None and self.card is wanted[0]:
            painted_at.append(time.perf_counter())
            wanted[0] = None
            loop.quit()

    card_widgets.CardWidget.paintEvent = timed_paint  # type: ignore[method-assign]

    def wait(until, seconds: float = 5.0) -> None:  # noqa: ANN001
        end = time.monotonic() + seconds
        while not until():
            if time.monotonic() > end:
                raise RuntimeError("the window did not get there in time")
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)

    def settled() -> None:
        """The worker idle (every ledger write confirmed, no poll on its way), the journal
        sent on to the database (at a table it goes while the players bet; here the
        betting takes no time) and the event loop empty: the card meets the window as a
        dealt card does."""
        wait(lambda: port_.pending == 0 and not window._polling)
        wait(lambda: store.journal.counts()[0] == 0, seconds=15)
        end = time.monotonic() + 0.05
        while time.monotonic() < end:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)

    latencies: list[float] = []
    rng = random.Random(2026)
    seq = 0

    def send(kind: str, *fields: str) -> None:
        nonlocal seq
        seq += 1
        os.write(master, encode_line(kind, seq, *fields))

    try:
        wait(lambda: shoe.online)
        for _ in range(rounds):
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
            wait(lambda: not session.deal.stream)
            settled()
            for c in deck[:49]:
                wanted[0] = c
                painted_at.clear()
                watchdog.start(5000)
                sent = time.perf_counter()
                send("CARD", str(c))
                loop.exec()
                watchdog.stop()
                if not painted_at:
                    raise RuntimeError(f"{c} was not painted within 5 s of its line")
                latencies.append(painted_at[0] - sent)
            send("BURN", *map(str, deck[49:]))
            rnd = session.round
            assert rnd is not None
            wait(lambda r=rnd: r.phase is Phase.SETTING)
            if session.dragon_offered() is not None:
                window.press("Shift+Q")
            while waiting := to_set(session):
                window.select(waiting[0])
                window.press("H")
            if not window.press("S").done:
                raise RuntimeError(session.message)
            wait(lambda: port_.pending == 0)
            if port_.failed is not None:
                raise RuntimeError(f"the ledger refused a write: {port_.failed}")
    finally:
        card_widgets.CardWidget.paintEvent = paint  # type: ignore[method-assign]
        window.close()
        shoe.close()
        os.close(master)
        os.close(slave)
        data.cleanup()
    return latencies


def verdict(value: float, goal: float) -> str:
    """Met when the figure as printed is under its goal (0.498 s prints 0.50 s: missed)."""
    return "met" if value < goal else "missed"


def report(startup: float, latencies: list[float]) -> str:
    """The bench's line: each figure with its goal, met or missed."""
    startup = round(startup, 2)
    median = round(statistics.median(latencies) * 1000, 1)
    p99 = round(statistics.quantiles(latencies, n=100)[98] * 1000, 1)
    started = verdict(startup, STARTUP_GOAL)
    if started == "missed" and startup < STARTUP_GOAL_13:
        started = "missed (issue 13's met)"
    return (f"bench window startup={startup:.2f}s goal<{STARTUP_GOAL:g}s (issue 14) "
            f"<{STARTUP_GOAL_13:g}s (issue 13) {started} "
            f"card-latency median={median:.1f}ms goal<{MEDIAN_GOAL:g}ms "
            f"{verdict(median, MEDIAN_GOAL)} "
            f"p99={p99:.1f}ms goal<{P99_GOAL:g}ms {verdict(p99, P99_GOAL)}")


def main() -> int:
    startup = statistics.median(startup_seconds())
    print(report(startup, card_latencies()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
