"""The station bundle's entry point: the dealer window (`app.ui.main:main`), as a service.

The window itself is `paigow-dealer` (app/ui/main.py), arguments and all. Around it, the
bundle adds what a station run by systemd needs and nothing else:

- Once the main window has been drawn, one line on stderr (so in the journal), e.g.
      paigow-dealer: main window shown: "Pai Gow Poker - dealer station" on xcb,
      1920x1080, full screen, 0.56 s after start
  (one line; its title, Qt platform, size and seconds since the process started).
  It is the station's proof that it came up, and what the installer test waits for.
- SIGTERM (`systemctl stop`), SIGINT (Ctrl-C) and SIGHUP close the window the way the dealer
  would (the shoe's port is closed) and the program exits 0, so a stop is never a failure.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Sequence

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
SHOWN = "paigow-dealer: main window shown"


def seconds_since_start() -> float:
    """Seconds since this process started (Linux /proc), else since this module ran."""
    try:
        with open("/proc/self/stat", "rb") as f:
            start_ticks = int(f.read().rsplit(b")", 1)[1].split()[19])
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        return max(uptime - start_ticks / os.sysconf("SC_CLK_TCK"), 0.0)
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _LOADED


_LOADED = time.monotonic()


def stop_on_signals(app: object, stop: Callable[[], None]) -> object:
    """Run `stop` on the Qt thread when a stop signal arrives (Qt's loop does not return to
    Python by itself: the signal's byte on a socket wakes it). Returns what must stay alive."""
    from PySide6.QtCore import QSocketNotifier

    receive, send = socket.socketpair()
    receive.setblocking(False)
    send.setblocking(False)
    signal.set_wakeup_fd(send.fileno(), warn_on_full_buffer=False)
    notifier = QSocketNotifier(receive.fileno(), QSocketNotifier.Type.Read)

    def drain() -> None:  # Python runs the pending signal handler before this slot
        try:
            receive.recv(64)
        except BlockingIOError:
            pass

    notifier.activated.connect(drain)
    for sig in STOP_SIGNALS:
        signal.signal(sig, lambda _sig, _frame: stop())
    return (receive, send, notifier)


def announce_first_paint(app: object) -> object:
    """Print SHOWN once the first main window has painted. Returns the filter to keep."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
            if event.type() == QEvent.Type.Paint and isinstance(watched, QMainWindow):
                QApplication.instance().removeEventFilter(self)
                QTimer.singleShot(0, lambda w=watched: self.say(w))
            return False

        @staticmethod
        def say(window: QMainWindow) -> None:
            size = window.size()
            full = ", full screen" if window.isFullScreen() else ""
            print(f'{SHOWN}: "{window.windowTitle()}" on {QApplication.platformName()}, '
                  f"{size.width()}x{size.height()}{full}, "
                  f"{seconds_since_start():.2f} s after start", file=sys.stderr, flush=True)

    first_paint = FirstPaint()
    app.installEventFilter(first_paint)  # type: ignore[attr-defined]
    return first_paint


def main(argv: Sequence[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication

    from app.ui.main import main as dealer_window  # app.ui applies its PySide6 guards
    from app.ui.main import parse_args

    parse_args(argv)  # --help and bad arguments end here, before Qt needs a display
    app = QApplication.instance() or QApplication(sys.argv[:1])

    def stop() -> None:
        for window in app.topLevelWidgets():
            window.close()
        app.quit()

    keep = (stop_on_signals(app, stop), announce_first_paint(app))
    code = dealer_window(argv)
    del keep
    return code


if __name__ == "__main__":
    sys.exit(main())
