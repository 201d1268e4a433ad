"""Benchmark (not a test): the keys a dealer presses for the standard round (issue 25).

The standard round: five seats wager the same as last round, action from the RNG, the shoe
deals, the dragon (the empty seat's hand) is taken, every hand is set the House Way, the
round settled. Each key is a real key press sent to the real window (QTest.keyClick on the
table, offscreen, as pytest-qt sends them), counted as it is sent; the first round (the
wagers typed) only makes a last round to repeat and is not counted.

    .venv/bin/python -m tests.bench.bench_keys        goal: at most 15 keys (issue 25)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

GOAL = 15
WAGERS = {1: "25", 2: "10", 3: "40", 4: "25", 6: "15"}  # seat 5 empty: its hand the dragon


class Keys:
    """Key presses sent to the window's table, counted."""

    def __init__(self, window: object, wait: Callable[[Callable[[], bool]], None]) -> None:
        self.window = window
        self.wait = wait
        self.count = 0

    def press(self, *keys: str) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        named = {"Enter": Qt.Key.Key_Return, "Esc": Qt.Key.Key_Escape}
        felt = self.window.felt  # type: ignore[attr-defined]
        for key in keys:
            shift = key.startswith("Shift+")
            name = key.removeprefix("Shift+")
            modifier = (Qt.KeyboardModifier.ShiftModifier if shift
                        else Qt.KeyboardModifier.NoModifier)
            if name in named:
                QTest.keyClick(felt, named[name], modifier)
            else:
                QTest.keyClick(felt, name.lower() if not shift else name, modifier)
            self.count += 1


def play_round(keys: Keys, session: object, *, typed: bool) -> None:
    """One round by keys: the wagers typed (`typed`) or the same as last round (L)."""
    from app.core.round import Phase
    from app.session.procedure import to_set

    s = session
    keys.press("N")
    if s.bank_offered() is not None:  # type: ignore[attr-defined]
        keys.press("Shift+Q")  # every seat passes the bank: the house banks
    if typed:
        for seat, dollars in WAGERS.items():
            keys.press(str(seat), "W", *dollars, "Enter")
    else:
        keys.press("L", "Enter")
    keys.press("R")
    keys.wait(lambda: s.round.phase is Phase.SETTING)  # type: ignore[attr-defined]
    if s.dragon_offered() is not None:  # type: ignore[attr-defined]
        keys.press("G", "Enter")  # the first seat offered takes it, at its main wager
    while to_set(s):  # type: ignore[arg-type]
        keys.press("H")  # the next hand to set is selected after each
    keys.press("S")
    assert s.round.slip is not None, s.message  # type: ignore[attr-defined]


def standard_round_keys() -> tuple[int, list[str]]:
    """The keys of the standard round sent to a real window, and the round's log."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from app.core.round import RoundRules
    from app.station import Jobs, Station
    from app.ui.shoe import DemoShoe
    from app.ui.window import MainWindow
    from app.ui.worker import Worker

    def quiet(_mode, _context, message):  # noqa: ANN001
        # The offscreen platform cannot size windows to hints; a screen would: not news.
        if "propagateSizeHints" not in message:
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(quiet)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    jobs = Jobs()
    station = Station(RoundRules(), jobs=jobs, writes=Worker(window, jobs=jobs),
                      randbelow=lambda n: 3)
    shoe = DemoShoe(seed=25, interval_ms=0)
    window.bind(station, shoe)
    window.resize(1366, 768)
    window.show()
    window.felt.setFocus()

    def wait(until: Callable[[], bool], seconds: float = 10.0) -> None:
        end = time.monotonic() + seconds
        while not until():
            if time.monotonic() > end:
                raise RuntimeError(f"the round did not get there: {station.session.message}")
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)

    try:
        play_round(Keys(window, wait), station.session, typed=True)
        keys = Keys(window, wait)
        play_round(keys, station.session, typed=False)
        rnd = station.session.round
        assert rnd is not None and rnd.dragons and set(rnd.wagers) == set(WAGERS)
        return keys.count, list(station.session.log)
    finally:
        window.close_station()
        window.close()


def report(count: int) -> str:
    return (f"bench keys-per-round standard={count} goal<={GOAL} "
            f"{'met' if count <= GOAL else 'missed'}")


def main() -> int:
    count, _ = standard_round_keys()
    print(report(count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
