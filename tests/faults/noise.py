"""The dealer's window reading a noisy line (issue 17: "1 MB of line noise gave over 8,000
fault messages and froze the window for 8 s"). Run in a process of its own (a Qt window):

    python -m tests.faults.noise KIND BYTES      KIND: random (bytes) or dollars (`$` only)

The real window, bound to a dealer session, reads the real serial reader on a
pseudo-terminal while a writer pours BYTES of noise into the line and then three good
cards. A 10 ms timer on the GUI thread measures the most work the window's thread did
between two turns of its event loop, in its own CPU time: a loaded machine stretches the
time between turns (shown as the longest gap), not the work the noise puts on the window.
One JSON line: the longest work and gap, the fault messages the dealer was told, the
summaries ("the shoe's line is noisy: ..."), and the cards read after the noise.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import tty

FROZEN_S = 1.0  # a window that works this long without turning is frozen to the dealer
WAIT_S = 120.0  # generous: a loaded machine must not cut the reading short


def main(argv: list[str]) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.core.cards import DECK
    from app.core.round import RoundRules
    from app.station import Station
    from app.ui.shoe import SerialShoe
    from app.ui.window import MainWindow
    from drivers.shoe.protocol import encode_line
    from drivers.shoe.transport import ShoeConfig

    kind, size = argv[0], int(argv[1])
    app = QApplication.instance() or QApplication(sys.argv[:1])
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    shoe = SerialShoe(port, config=ShoeConfig(port, heartbeat_timeout=0))
    window = MainWindow()
    station = Station(RoundRules())  # no ledger: the noise is the shoe's
    window.bind(station, shoe)
    window.resize(1280, 800)
    window.show()
    told: list[str] = []
    cards: list[str] = []
    shoe.fault.connect(told.append)
    shoe.card_read.connect(lambda card: cards.append(str(card)))
    shoe.card_at.connect(lambda card, *_: cards.append(str(card)))
    longest_work = [0.0]  # the window's thread's own CPU time between two turns
    longest_gap = [0.0]  # the wall-clock time between two turns
    last = [time.perf_counter(), time.thread_time()]

    def tick() -> None:
        now, work = time.perf_counter(), time.thread_time()
        longest_gap[0] = max(longest_gap[0], now - last[0])
        longest_work[0] = max(longest_work[0], work - last[1])
        last[:] = [now, work]

    noise = os.urandom(size) if kind == "random" else b"$" * size
    good = b"\r\n" + b"".join(encode_line("CARD", i, str(c)) for i, c in
                              enumerate(DECK[:3], 1))
    written = threading.Event()

    def pour() -> None:
        for at in range(0, len(noise), 4096):
            os.write(master, noise[at:at + 4096])
        os.write(master, good)
        written.set()

    def turn(until: float) -> None:
        while time.monotonic() < until and not (written.is_set() and len(cards) >= 3
                                                and any("noisy" in t for t in told)):
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)

    # The noise only once the reader has the port open: opening it empties its input.
    until = time.monotonic() + WAIT_S
    while not shoe.online and time.monotonic() < until:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
    timer = QTimer()
    timer.timeout.connect(tick)
    last[:] = [time.perf_counter(), time.thread_time()]
    timer.start(10)
    threading.Thread(target=pour, daemon=True).start()
    turn(time.monotonic() + WAIT_S)
    timer.stop()
    shoe.close()
    print(json.dumps({"kind": kind, "bytes": size, "online": shoe.status,
                      "longest_work_s": round(longest_work[0], 3),
                      "longest_gap_s": round(longest_gap[0], 3),
                      "told": len(told), "summaries": sum("noisy" in t for t in told),
                      "cards_after": cards[:3], "expected": [str(c) for c in DECK[:3]]}),
          flush=True)
    os._exit(0)  # the reader's thread and Qt's objects go with the process


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
