"""Benchmark (not a test): the dealer's window, offscreen.

startup        from the start of a `paigow-dealer --demo` process to its main window painted
               for the first time (a fresh subprocess each run, the median of a few runs).
card-latency   from a CARD line written on the shoe's pseudo-terminal to that card painted
               in its seat: the real reader thread and parser, the queued signal to the GUI
               thread, the controller, the round and the repaint, with the GUI thread idle
               in Qt's event loop as in the station. A few hundred cards, round after round.

    .venv/bin/python -m tests.bench.bench_window      targets: startup under 2 s, a card
                                                      within 50 ms of its line
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
ROUNDS = 6  # 49 cards each: 294 cards
ROOT = Path(__file__).resolve().parents[2]

# Run in the child: `paigow-dealer --demo`, reporting when the felt is first painted.
CHILD = r"""
import sys, time
import app.ui.felt as felt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

paint = felt.FeltView.paintEvent

def painted(self, event):
    paint(self, event)
    if not getattr(self, "seen", False):
        self.seen = True
        print(f"painted {time.time():.6f}", flush=True)
        QTimer.singleShot(0, lambda: (self.window().close(), QApplication.quit()))

felt.FeltView.paintEvent = painted
from app.ui.main import main
sys.exit(main(sys.argv[1:]))
"""


def startup_seconds(runs: int = STARTUP_RUNS) -> list[float]:
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
    from app.ui import cards as card_widgets
    from app.ui.controller import DealerController
    from app.ui.shoe import SerialShoe
    from app.ui.window import MainWindow
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
    shoe = SerialShoe(port, config=ShoeConfig(port, heartbeat_timeout=0))
    controller = DealerController(RoundRules(), shoe, randbelow=lambda n: 3)
    window = MainWindow()
    window.bind(controller)
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
        if self.card is not None and self.card is wanted[0] and not self.face_down:
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
            controller.new_round()
            if controller.bank_offered() is not None:
                controller.pass_all()
            for seat in (1, 3, 5):
                controller.select(seat)
                controller.place_wager("25")
            controller.rng_action()
            deck = list(DECK)
            rng.shuffle(deck)
            send("SHUFFLE", "START")
            wait(lambda: not controller.stream)
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
            rnd = controller.round
            assert rnd is not None
            wait(lambda r=rnd: r.phase is Phase.SETTING)
            if controller.dragon_offered() is not None:
                controller.pass_all()
            for position in rnd.pending():
                if rnd.can_set_hand(position):
                    controller.select(position)
                    controller.house_way()
            if not controller.settle():
                raise RuntimeError(controller.message)
    finally:
        card_widgets.CardWidget.paintEvent = paint  # type: ignore[method-assign]
        window.close()
        shoe.close()
        os.close(master)
        os.close(slave)
    return latencies


def main() -> int:
    startup = statistics.median(startup_seconds())
    latencies = card_latencies()
    median = statistics.median(latencies) * 1000
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    print(f"bench window startup={startup:.2f}s card-latency median={median:.1f}ms "
          f"p99={p99:.1f}ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
