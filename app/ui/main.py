"""`paigow-dealer`: the dealer station's window.

    paigow-dealer --demo              the shoe simulator on a pseudo-terminal, read as a
                                      real shoe is; it deals when action is taken
    paigow-dealer --shoe /dev/ttyUSB0 the card-reading shoe on a serial port
    paigow-dealer                     the shoe of the config's [shoe] port, or none: cards
                                      are entered by hand

The table's rules come from config/default.toml, then `--config FILE` (or PAIGOW_CONFIG),
then PAIGOW_<SECTION>__<KEY> variables; a bad config stops the station with the file, the
key and why.

Every round is recorded as it goes in the ledger: the SQLite file in the station's data
directory unless `--database-url` or [ledger] database_url names a PostgreSQL database. A
station that was stopped mid-round comes back into the same round. The dealer's shift is
opened for `--dealer NAME` (or [station] dealer); with neither, the station asks.

The window is shown first, saying "Opening the ledger..."; the config and the ledger (with
SQLAlchemy and Alembic, most of a second) then open on a thread of their own, and the table
shows once they have. A database that is away does not hold the window: it says so.

Once the main window is first drawn, one line goes to stderr (the journal, under systemd):
    paigow-dealer: main window shown: "Pai Gow Poker - dealer station" on xcb, 1920x1080,
    full screen, 0.56 s after start
SIGTERM (`systemctl stop`), SIGINT (Ctrl-C) and SIGHUP close the window as the dealer would
(the shoe's port closed, the ledger's journal sent on or kept) and the program exits 0.

Supervisors are people in the ledger (`paigow users`): a station that is not a demo refuses
to start while the ledger has nobody who could sign a supervisor's action (exit 2, saying
how to add the first). A demo adds a demo supervisor and prints their name and PIN.
Closing the window is a supervisor's act: the dealer's close is refused and asks for one.
The program exits 0 after a supervisor's close (or a stop signal) and 3 when it ends any
other way, so the kiosk's unit (Restart=always) starts it again.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSocketNotifier, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

from app.core.cards import CardError, parse_cards
from app.ledger import LedgerError, LedgerUnavailable
from app.session.deal import resume_point
from app.station import Jobs, Ledger, Station

from . import theme
from .closing import CloseGuard, OpeningGuard
from .qtlibs import dealer_message, missing_packages, no_display_message, window_uses_x11
from .recorder import SessionLog, pack_old_files
from .services import Printer, StationPrinter
from .shoe import NoShoe, PtyDemoShoe, SerialShoe, ShoeFeed
from .window import MainWindow
from .worker import Worker

if TYPE_CHECKING:
    # Loaded by the ledger's half of the start, off the window's thread (`open_station`):
    # the window paints before pydantic, SQLAlchemy and Alembic are imported.
    from app.core.banker import BankRotation
    from app.core.round_rules import RoundRules
    from app.ledger import Recording
    from app.settings import TableConfig

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
SHOWN = "paigow-dealer: main window shown"
DEMO_DEALER = "Demo"
# The demo's supervisor (a demo ledger only; printed at start so the newcomer can use F2).
DEMO_SUPERVISOR, DEMO_SUPERVISOR_PIN = "Demo Supervisor", "246810"
EXIT_UNSUPERVISED = 3  # the window ended without a supervisor's close: restart it
OPEN_ANYWAY_MS = 500  # the ledger opens after the first paint, or after this at the latest
_LOADED = time.monotonic()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="paigow-dealer", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--demo", action="store_true",
                    help="deal from the shoe simulator over a pseudo-terminal (a new shuffle "
                         "every deal)")
    ap.add_argument("--config", help="the site's table config (TOML) over the shipped one")
    ap.add_argument("--shoe", metavar="PORT", help="the shoe's serial port (or pyserial URL)")
    ap.add_argument("--seed", type=int, help="demo: a seeded shuffle, the same every run")
    ap.add_argument("--deck", help="demo: deal this 53-card deck (card text) every round")
    ap.add_argument("--fullscreen", action="store_true", help="full screen (the station)")
    ap.add_argument("--size", metavar="WxH", type=window_size,
                    help="a fixed window size, e.g. 1920x1080")
    ap.add_argument("--database-url", metavar="URL",
                    help="the ledger's database (postgresql://user@host/db or sqlite:///file) "
                         "over [ledger] database_url; default: the station's own SQLite file")
    ap.add_argument("--data-dir", metavar="DIR",
                    help="the station's data directory (the ledger's file and journal, "
                         "kept slips); default: the user's data directory")
    ap.add_argument("--dealer", metavar="NAME",
                    help="the dealer whose shift opens (over [station] dealer); without "
                         "either the station asks")
    return ap.parse_args(argv)


def window_size(text: str) -> tuple[int, int]:
    """`1280x800` -> (1280, 800); anything else is refused with what a size looks like."""
    w, sep, h = text.strip().lower().partition("x")
    if sep and w.isascii() and h.isascii() and w.isdigit() and h.isdigit():
        width, height = int(w), int(h)
        if 320 <= width <= 16384 and 240 <= height <= 16384:
            return width, height
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a window size: write width x height in pixels, like 1280x800 "
        f"(from 320x240 to 16384x16384)")


def make_shoe(args: argparse.Namespace, config: TableConfig | None = None,
              resume: tuple[int | None, int | None] = (None, None)) -> ShoeFeed:
    """`resume`: the deal a restarted station was reading (deal.resume_point)."""
    if args.shoe:
        return SerialShoe(args.shoe, resume=resume)
    if args.demo:
        decks = None
        if args.deck:
            deck = parse_cards(args.deck, count=53)
            decks = [deck] * 1000
        return PtyDemoShoe(decks, seed=args.seed)
    shoe_config = getattr(config, "shoe_config", None)
    configured = shoe_config() if shoe_config is not None else None
    if configured is not None:
        return SerialShoe(configured.port, config=configured, resume=resume)
    return NoShoe()


def make_printer(config: TableConfig, data_dir: str | None, demo: bool = False,
                 jobs: Jobs | None = None) -> Printer:
    """The configured slip printer (printing on `jobs`, the station's pool); its kept slips
    in the data directory given, if any. A demo with no printer set up saves its slips as
    PDF files in the data directory."""
    printer_config = config.printer_config()
    if data_dir and not config.printer.queue_dir:
        printer_config = replace(printer_config,
                                 queue_dir=os.path.join(data_dir, "reprint-queue"))
    if demo and data_dir and printer_config.kind == "none":
        printer_config = replace(printer_config, kind="pdf",
                                 path=os.path.join(data_dir, "slips"))
    return Printer(printer_config, demo=demo, jobs=jobs)


@contextlib.contextmanager
def demo_data(args: argparse.Namespace) -> Iterator[None]:
    """A demo not given --data-dir or --database-url keeps its ledger, journal and slips in
    a folder of its own, removed when the station closes: every demo starts a fresh round
    and never touches the station's real ledger (nor the config's database)."""
    if not args.demo or args.data_dir or args.database_url:
        yield
        return
    from app.ledger.paths import default_url

    folder = tempfile.mkdtemp(prefix="paigow-demo-")
    args.data_dir, args.database_url = folder, default_url(folder)
    try:
        yield
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def dealer_of(args: argparse.Namespace, config: TableConfig) -> str | None:
    return (args.dealer or config.station.dealer or
            (DEMO_DEALER if args.demo else "")).strip() or None


@dataclass
class Opened:
    """The station's slow half, done off the window's thread: no Qt object in it."""

    config: TableConfig
    ledger: Ledger
    resumed: Recording | None
    rotation: BankRotation
    deal: dict[str, object] | None


def open_station(args: argparse.Namespace) -> Opened:
    """The config and the ledger (a round left in play taken back, the dealer's shift):
    everything that imports pydantic, SQLAlchemy and Alembic or waits on the database, so it
    runs on a thread of its own while the window is already shown. Raises ConfigError,
    LedgerError."""
    from app.settings import load_config

    config = load_config(args.config)
    house_way_table(config.round_rules())
    ledger = Ledger.open(config, database_url=args.database_url, data_dir=args.data_dir)
    try:
        supervisors(ledger, demo=args.demo)
        resumed = ledger.resume()
        dealer = dealer_of(args, config)
        if dealer is not None and dealer != ledger.dealer:
            ledger.open_shift(dealer)
        rotation = ledger.store.rotation()  # what the table remembers
    except BaseException:
        ledger.close()
        raise
    return Opened(config, ledger, resumed, rotation,
                  resumed.deal() if resumed is not None else None)


def house_way_table(rules: RoundRules) -> None:
    """The House Way card's table read from the cache (built at install: `python -m
    app.cache`), so the table sets the hands; without it the card itself sets them alike."""
    from app.cache import use_cache
    from app.core.house_way.table import kept

    use_cache()
    kept(rules.house_way, rules.hands)


def bind_station(window: MainWindow, args: argparse.Namespace, opened: Opened,
                 jobs: Jobs) -> None:
    """The quick half, on the window's thread: the printer, the shoe and the station (the
    dealer session, the ledger's port, the printer's, on the pool `jobs`), bound to the
    window. Raises CardError (a bad --deck); the ledger is closed then."""
    # heavy: SQLAlchemy (app.ledger), loaded once the window has painted
    from app.ledger.floor_status import FloorStatus

    from .floor_link import FloorLink
    from .pit import PitController, VouchedSupervisors

    config, ledger, resumed = opened.config, opened.ledger, opened.resumed
    try:
        printer = make_printer(config, args.data_dir, args.demo, jobs)
        shoe = make_shoe(args, config, resume_point(opened.deal))
    except BaseException:
        ledger.close()
        raise
    store = ledger.store
    writes = Worker(window, jobs=jobs)  # the journal's lane, answered on this thread
    recorder = SessionLog(store.session_lines, writes, resumed=resumed is not None,
                          limit_bytes=config.files.session_file_mb * 2**20)
    writes.submit(lambda: pack_old_files(config, store.data_dir, store.session_lines,
                                         recorder.name))
    station = Station(config.round_rules(), ledger=ledger,
                      printer=StationPrinter(printer, store.head_code), recorder=recorder,
                      supervisors=VouchedSupervisors(store), rotation=opened.rotation,
                      jobs=jobs, writes=writes)
    window.bind(station, shoe, printer=printer, pit=PitController(window))
    assert window.pit is not None
    window.close_guard = CloseGuard(window, window.pit)
    # The pit floor sees the table live: the heartbeat on a lane of the pool.
    window.pit.floor = FloorLink(window, FloorStatus(store.engine, table=store.table,
                                                     station=store.station,
                                                     identity=store.station_id),
                                 parent=window)
    recorder.session = station.session
    if resumed is not None:
        window.apply(station.resume(resumed, opened.deal))


def build(args: argparse.Namespace) -> MainWindow:
    """The station whole, in one go (tests, tools): config, ledger, printer, shoe, the
    station and the window bound to it. Raises ConfigError, CardError, LedgerError.
    `run` does the same in two halves, the window shown before the ledger opens."""
    opened = open_station(args)
    window = MainWindow()
    bind_station(window, args, opened, Jobs())
    return window


NO_SUPERVISORS = (
    "the ledger ({where}) has no supervisors yet, and a station on a table needs someone who "
    "can void, correct and close it. Add the first shift manager (who then adds the pit "
    "supervisors): paigow users add \"NAME\" --first{config}; then paigow users add "
    "\"NAME\" --role 'pit supervisor' --by \"MANAGER\"{config}. (paigow-dealer --demo "
    "plays without.)")


def supervisors(ledger: Ledger, *, demo: bool) -> None:
    """A station on a table refuses to start without a supervisor in the ledger (the
    shipped PIN is no credential): LedgerError saying how to add one. A demo adds its demo
    supervisor to its own ledger and prints who they are."""
    store = ledger.store
    if not demo:
        try:
            nobody = not store.accounts()
        except LedgerUnavailable as e:
            # Not refused: every supervisor's action asks the database anyway, and a kiosk
            # must come up when its database is late at boot (exit 2 is never restarted).
            print(f"paigow-dealer: {e}; the station starts, and a supervisor's action "
                  f"waits for the database", file=sys.stderr, flush=True)
            return
        if nobody:
            raise LedgerError(NO_SUPERVISORS.format(where=store.database, config=""))
        store.has_people()  # remembered in the journal, for when the database is away
        try:
            enrolled = store.enrolled()
            refused = store.login_refusal()
        except LedgerUnavailable:
            enrolled, refused = True, None  # the station starts; the database says later
        if refused:
            raise LedgerError(refused)
        if not enrolled:
            from app.ledger.keys import fingerprint

            print(f"paigow-dealer: {NOT_ENROLLED.format(key=fingerprint(store.signer.key_id))}",
                  file=sys.stderr, flush=True)
        return
    if not store.has_people():
        store.add_person(DEMO_SUPERVISOR, "shift manager", DEMO_SUPERVISOR_PIN, by=None,
                         first=True)
    if not store.enrolled() and any(a.name == DEMO_SUPERVISOR for a in store.accounts()):
        # the demo's supervisor enrolls the demo station's key, as one would a real one
        store.enroll(store.authorise(DEMO_SUPERVISOR, DEMO_SUPERVISOR_PIN, "enroll"))
    if any(a.name == DEMO_SUPERVISOR for a in store.accounts()):
        print(f"paigow-dealer: demo supervisor (F2, void, correct, close): name "
              f"\"{DEMO_SUPERVISOR}\", PIN {DEMO_SUPERVISOR_PIN}", file=sys.stderr,
              flush=True)


NOT_ENROLLED = ("this station's signing key ({key}) is not enrolled: the rounds it records "
                "do not verify until a supervisor enrolls it on this PC (paigow stations "
                "enroll --by NAME, with the ledger owner's login on PostgreSQL)")


def install_excepthook(window: MainWindow) -> None:
    """Anything unexpected is shown to the dealer as a sentence and kept for support."""

    def hook(kind: type[BaseException], error: BaseException,
             tb: TracebackType | None) -> None:
        traceback.print_exception(kind, error, tb, file=sys.stderr)
        window.panel.show_message(f"The station hit a problem it did not expect ({error}). The "
                                  f"round is kept; carry on or call the supervisor.", "error")

    sys.excepthook = hook


# --- a station run as a service: the line that says it is up, and a clean stop --------------

def seconds_since_start() -> float:
    """Seconds since this process started (Linux /proc), else since this module loaded."""
    try:
        with open("/proc/self/stat", "rb") as f:
            start_ticks = int(f.read().rsplit(b")", 1)[1].split()[19])
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        return max(uptime - start_ticks / os.sysconf("SC_CLK_TCK"), 0.0)
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _LOADED


class FirstPaint(QObject):
    """Prints SHOWN once the first main window has painted, then calls `then`."""

    def __init__(self, then: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.then = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and isinstance(watched, QMainWindow):
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            QTimer.singleShot(0, lambda w=watched: self.said(w))
        return False

    def said(self, window: QMainWindow) -> None:
        self.say(window)
        if self.then is not None:
            self.then()

    @staticmethod
    def say(window: QMainWindow) -> None:
        size = window.size()
        full = ", full screen" if window.isFullScreen() else ""
        print(f'{SHOWN}: "{window.windowTitle()}" on {QApplication.platformName()}, '
              f"{size.width()}x{size.height()}{full}, "
              f"{seconds_since_start():.2f} s after start", file=sys.stderr, flush=True)


@contextlib.contextmanager
def stop_on_signals(stop: Callable[[], None]) -> Iterator[None]:
    """While in the block, SIGTERM, SIGINT and SIGHUP run `stop` on the Qt thread (Qt's loop
    does not return to Python by itself: the signal's byte on a socket wakes it). The
    handlers before are put back after. Outside the main thread: nothing to do."""
    try:
        receive, send = socket.socketpair()
        receive.setblocking(False)
        send.setblocking(False)
        old_fd = signal.set_wakeup_fd(send.fileno(), warn_on_full_buffer=False)
    except ValueError:  # not the main thread
        yield
        return
    notifier = QSocketNotifier(receive.fileno(), QSocketNotifier.Type.Read)

    def drain() -> None:  # Python runs the pending signal handler before this slot
        with contextlib.suppress(BlockingIOError):
            receive.recv(64)

    notifier.activated.connect(drain)
    old = {sig: signal.signal(sig, lambda _sig, _frame: stop()) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(old_fd)
        notifier.setEnabled(False)
        receive.close()
        send.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)  # --help and bad arguments end here, before Qt needs a display
    no_screen = no_display_message()
    if no_screen is not None:
        print(f"paigow-dealer: {no_screen}", file=sys.stderr)
        return 2
    if window_uses_x11():
        missing = missing_packages()  # else Qt aborts, blaming the wrong library
        if missing:
            print(f"paigow-dealer: {dealer_message(missing)}", file=sys.stderr)
            return 2
    with demo_data(args):
        return run(args)


class Opening(QObject):
    """The station's start in two halves: the window is shown at once, and once it has
    painted the config and the ledger open on the station's pool (`open_station`); the
    window is then bound on its own thread (`bind_station`). Until then it says so."""

    opened = Signal(object)  # Opened, or the exception that stopped it

    def __init__(self, window: MainWindow, args: argparse.Namespace) -> None:
        super().__init__(window)
        self.window, self.args = window, args
        self.jobs = Jobs()  # the station's pool, from its first job on
        self.bound = False
        self.code: int | None = None  # the exit code when the station could not start
        self._result: object = None
        self._opening: Future[None] | None = None
        self._finished = False
        self.opened.connect(self._bind)
        # A window that is never painted (minimised at boot) opens its ledger all the same.
        self._anyway = QTimer(self)
        self._anyway.setSingleShot(True)
        self._anyway.timeout.connect(self.start)
        self._anyway.start(OPEN_ANYWAY_MS)

    def start(self) -> None:
        self._anyway.stop()
        if self._opening is None and not self._finished:
            self._opening = self.jobs.submit(self._open)

    def _open(self) -> None:
        try:
            result: object = open_station(self.args)
        except BaseException as e:  # noqa: BLE001 - told on the window's thread
            result = e
        self._result = result
        self.opened.emit(result)

    def _bind(self, result: object) -> None:
        window = self.window
        if window._closed or self.code is not None:
            return  # stopped while it opened: `finish` closes the ledger
        if isinstance(result, BaseException):
            self._failed(result)
            return
        assert isinstance(result, Opened)
        try:
            bind_station(window, self.args, result, self.jobs)
        except Exception as e:  # noqa: BLE001 - a bad --deck, said and stopped
            self._failed(e)
            return
        self.bound = True
        window.felt.setFocus()
        if window.ledger is not None and window.ledger.dealer is None:
            window.ask_dealer()

    def _failed(self, error: BaseException) -> None:
        from app.settings import ConfigError

        expected = isinstance(error, (ConfigError, CardError, LedgerError))
        if not expected:  # kept for support; the station is started again (exit 1)
            traceback.print_exception(type(error), error, error.__traceback__,
                                      file=sys.stderr)
        print(f"paigow-dealer: {error}", file=sys.stderr, flush=True)
        self.code = 2 if expected else 1
        if QApplication.platformName() not in ("offscreen", "minimal"):
            QMessageBox.critical(self.window, "The station cannot start", str(error))
        self.window.close_guard = None
        app = QApplication.instance()
        if app is not None:
            app.exit(self.code)

    def finish(self) -> None:
        """After the window's loop: the ledger's opening ended, and a ledger it opened that
        was never bound closed (its journal kept), with the pool (a bound station closes
        its own)."""
        self._finished = True  # a paint or a timer still queued starts nothing now
        self._anyway.stop()
        if self._opening is not None:
            self._opening.result()
        if not self.bound:
            if isinstance(self._result, Opened):
                self._result.ledger.close()
            self.jobs.close()


def show_station(window: MainWindow, size: tuple[int, int] | None, fullscreen: bool) -> None:
    """The window at `size`, full screen, or maximised. Maximised and full screen are a
    window manager's to grant: a station's X server without one opened the window at its
    own size hint (603x711, the seats' labels cut). The window is first given the screen's
    size, so it fills the screen with or without a window manager."""
    if size:
        window.resize(*size)
        window.show()
        return
    screen = window.screen()
    room = screen.geometry() if fullscreen else screen.availableGeometry()
    # styled for this screen first: the style for a larger one holds the window wider
    window.rescale(theme.scale_for(room.width(), room.height()))
    window.setGeometry(room)
    if fullscreen:
        window.showFullScreen()
    else:
        window.showMaximized()


def run(args: argparse.Namespace) -> int:
    """The station's window until it is closed or told to stop; the exit code. The window
    is shown before the ledger opens (`Opening`)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.show_opening()
    window.close_guard = OpeningGuard(window)
    opening = Opening(window, args)
    install_excepthook(window)
    first_paint = FirstPaint(then=opening.start)
    app.installEventFilter(first_paint)

    def stop() -> None:
        guard = window.close_guard
        if isinstance(guard, (CloseGuard, OpeningGuard)):
            guard.forced = True  # the system asks (systemctl stop): no supervisor to ask
        for widget in QApplication.topLevelWidgets():
            widget.close()
        app.quit()

    try:
        with stop_on_signals(stop):
            show_station(window, args.size, args.fullscreen)
            window.felt.setFocus()
            code = int(app.exec())
    finally:
        app.removeEventFilter(first_paint)
        guard = window.close_guard
        window.close_guard = None  # ending now: nobody is asked any more
        window.close()
        opening.finish()
        window.close_station()  # the shoe, the printer's last slip, the ledger's writes
        # The last window closing posts a Quit of its own; left in the queue it would end
        # every event loop the caller runs after this (a test's, an embedding program's).
        QCoreApplication.removePostedEvents(app, QEvent.Type.Quit)
    if opening.code is not None:
        return opening.code
    if (code == 0 and isinstance(guard, (CloseGuard, OpeningGuard)) and guard.by is None
            and not guard.forced):
        return EXIT_UNSUPERVISED
    return code


if __name__ == "__main__":
    sys.exit(main())
