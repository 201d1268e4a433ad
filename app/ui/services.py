"""The station's ledger and slip printer as the window shows them.

- `ledger_view`: what the status bar shows of the station's ledger (app/station/ledger.py:
  the ledger and the session's one port over it).
- `Printer`: the settlement slip printer (drivers/printer, docs/printer.md). A slip prints
  on the station's pool (a printer that does not answer takes seconds to say so) and the
  result comes back as the `finished` signal; `device()` is the status bar's printer.
- `StationPrinter`: the printer as the dealer session's port (app/session/ports.py). A
  printer's answer comes back as the session's `Printed` event (`outcome_of`).

None of this holds a rule of the game: the session calls it after the core has decided.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as Late
from dataclasses import dataclass
from datetime import UTC, datetime

from PySide6.QtCore import QObject, Qt, QTimer, Signal, SignalInstance

from app.core.progressive import ProgressiveCard
from app.core.settlement import Slip, money
from app.ledger import LedgerError
from app.session import PrintJob as SessionJob
from app.session import PrintOutcome
from app.station.jobs import Jobs, Lane
from app.station.ledger import Ledger, StationLedger
from drivers.printer import PrintResult, ReprintResult, SlipPrinter
from drivers.printer.config import PrinterConfig

from .present import Device

SENDING_AFTER_S = 3.0  # records waiting longer than this show as "sending"


# --- the ledger ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LedgerView:
    """What the status bar shows of the ledger."""

    device: Device
    banner: str | None


def ledger_view(ledger: Ledger) -> LedgerView:
    """What the status bar shows of the station's ledger (asked on the worker: the status
    reads the journal)."""
    st = ledger.status()
    where = st.database
    shift = (f"Shift: {ledger.dealer}, since {_clock(ledger.since)}." if ledger.dealer
             else "No shift is open: F3 and the dealer's name.")
    if st.refused:
        return LedgerView(Device("Database: refused", "off",
                                 f"{st.banner}\n{where}\n{shift}"), st.banner)
    if not st.online:
        return LedgerView(Device("Database: offline", "off",
                                 f"{st.banner}\n{where}\n{shift}"), st.banner)
    if st.pending and _older_than(st.oldest, SENDING_AFTER_S):
        return LedgerView(Device("Database: sending", "ok",
                                 f"{st.pending} record(s) on their way to {where}.\n"
                                 f"{shift}"), None)
    return LedgerView(Device("Database: recording", "ok",
                             f"Every round is recorded as it goes in {where}.\n{shift}"),
                      None)


def _older_than(iso: str | None, seconds: float) -> bool:
    if not iso:
        return False
    try:
        made = datetime.fromisoformat(iso)
    except ValueError:
        return True
    if made.tzinfo is None:
        made = made.replace(tzinfo=UTC)
    return (datetime.now(UTC) - made).total_seconds() > seconds


def _clock(iso: str | None) -> str:
    if not iso:
        return "?"
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%H:%M")
    except ValueError:
        return iso


# --- the linked progressive's meter -------------------------------------------------------

METER_EVERY_MS = 500  # read (SQLite): a hit at another table is on this felt within a second
HEARD_EVERY_MS = 10_000  # read as well while listening (PostgreSQL): a safety net only
LISTEN_RETRY_S = 2.0  # the database's messages lost: listen again after this long


@dataclass(frozen=True)
class MeterSeen:
    """The meter as read or heard (its words for the felt), or why it could not be; `seq`,
    the meter's move it shows (0: not opened yet)."""

    text: str
    online: bool
    why: str = ""
    seq: int = 0


def meter_words(amount: int) -> str:
    return f"Progressive {money(amount)}"


class MeterReader(QObject):
    """The linked progressive's meter for the felt, off the GUI thread; each answer goes to
    `seen` on the GUI thread, never one older than the move already shown.

    On PostgreSQL the meter is heard: one job on the station's pool listens for the
    database's message of each change (app/ledger/meter_feed.py), shows it, and asks for a
    read to confirm it (at once, then at most one every 0.5 s while moves keep coming); a
    read every ten seconds is the safety net. What a read finds always stands: any login
    of the database can send a message on the channel (PostgreSQL has no right to
    NOTIFY), so a forged amount lasts until the confirming read, and a forged move number
    cannot hold back the true ones. On SQLite, which sends no messages, the meter is read
    about twice a second. Reads go on a lane of their own (never behind the journal's
    writes), one at a time: a slow database skips ticks rather than piling reads up."""

    _heard = Signal(object)  # from the listening job to the GUI thread
    _listens = Signal(bool)

    def __init__(self, ledger: StationLedger, card: ProgressiveCard, lane: Lane,
                 seen: Callable[[MeterSeen], None], parent: QObject | None = None,
                 jobs: Jobs | None = None) -> None:
        super().__init__(parent)
        self.ledger, self.card, self.lane, self.seen, self.jobs = ledger, card, lane, seen, jobs
        self.asking = False
        self.again = False  # a message came while a read was out: read once more after it
        self.read_at = 0.0  # when the last read was asked (time.monotonic)
        self.confirming = False  # a read to confirm a message is waiting its turn
        self.shown = -1  # the meter's move on the felt
        self.listening = False
        self._stop = threading.Event()
        self.timer = QTimer(self)
        self.timer.setInterval(METER_EVERY_MS)
        self.timer.timeout.connect(self.ask)
        self._heard.connect(self._message)
        self._listens.connect(self._listening)

    def start(self) -> None:
        self.timer.start()
        self.ask()
        if self.jobs is not None:
            self.jobs.submit(self._listen)

    def stop(self) -> None:
        self.timer.stop()
        self._stop.set()

    def ask(self) -> None:
        if self.lane.closed:
            return
        if self.asking:
            self.again = True
            return
        self.asking = True
        self.read_at = time.monotonic()
        card = self.card

        def read() -> MeterSeen:
            reading = self.ledger.read_meter(card.name)
            if reading is None:  # not opened yet: its first move opens it at the seed
                return MeterSeen(meter_words(card.seed), True)
            return MeterSeen(meter_words(reading.amount), True, seq=reading.seq)

        def answered(result: object, error: BaseException | None) -> None:
            self.asking = False
            if isinstance(result, MeterSeen):
                if not (self.again and result.seq < self.shown):  # else the next read says
                    self._show(result)
            else:  # never a guessed amount: the felt says it is closed, and why on a tap
                self._show(MeterSeen("Progressive closed", False, str(error) or "no answer"))
            if self.again:
                self.again = False
                self.confirm()
        self.lane.submit(read, answered)

    def _show(self, seen: MeterSeen) -> None:
        self.shown = seen.seq if seen.online else -1
        self.seen(seen)

    def _message(self, seen: MeterSeen) -> None:
        """A message heard (on the GUI thread): shown if it is newer than the felt's, then
        confirmed by a read, which stands whatever the message said."""
        if not seen.online or seen.seq > self.shown:
            self._show(seen)
        self.confirm()

    def confirm(self) -> None:
        """A read now, or once 0.5 s have passed since the last one was asked."""
        if self.confirming:
            return
        wait_ms = int((self.read_at + METER_EVERY_MS / 1000 - time.monotonic()) * 1000)
        if wait_ms <= 0:
            self.ask()
            return
        self.confirming = True

        def now() -> None:
            self.confirming = False
            self.ask()
        QTimer.singleShot(wait_ms, self, now)

    def _listen(self) -> None:
        """On the pool until stopped: the meter's messages to the GUI thread; a lost
        connection says the meter is closed, and is opened again every two seconds."""
        while not self._stop.is_set():
            try:
                feed = self.ledger.meter_feed(self.card.name)
            except LedgerError as e:
                self._say(self._heard, MeterSeen("Progressive closed", False, str(e)))
                self._stop.wait(LISTEN_RETRY_S)
                continue
            if feed is None:
                return  # SQLite: the reads are all there is
            with feed:
                self._say(self._listens, True)
                try:
                    while not self._stop.is_set():
                        heard = feed.wait(0.5)
                        if heard is not None:
                            self._say(self._heard, MeterSeen(meter_words(heard.amount),
                                                             True, seq=heard.seq))
                except LedgerError as e:
                    self._say(self._heard, MeterSeen("Progressive closed", False, str(e)))
                finally:
                    self._say(self._listens, False)
            self._stop.wait(LISTEN_RETRY_S)

    def _say(self, signal: SignalInstance, what: object) -> None:
        if self._stop.is_set():
            return  # the window is closing: nothing more for the felt
        try:
            signal.emit(what)
        except RuntimeError:  # the window went between the check and the emit
            pass

    def _listening(self, yes: bool) -> None:
        """Listening (on the GUI thread): read rarely, and once now, for a change made
        before the LISTEN took; not listening: read twice a second again."""
        self.listening = yes
        self.timer.setInterval(HEARD_EVERY_MS if yes else METER_EVERY_MS)
        self.ask()


# --- the printer ---------------------------------------------------------------------------

PROBLEM_WORDS = {"not-connected": "not connected", "not-allowed": "not allowed",
                 "offline": "offline", "out-of-paper": "out of paper",
                 "stopped": "stopped"}


@dataclass(frozen=True)
class PrintJob:
    """One thing sent to the printer: this round's slip, a reprint of a past round's slip
    (`duplicate`), or the kept slips."""

    kind: str  # "slip", "duplicate" or "kept"
    table: str = ""
    round: int = 0
    round_id: str | None = None


class Printer(QObject):
    """The slip printer, printing on a thread; `finished(job, result)` on the GUI thread.
    `result` is a PrintResult, a ReprintResult, or an Exception the driver did not expect."""

    finished = Signal(object, object)
    _done = Signal(object, object)

    def __init__(self, config: PrinterConfig, printer: SlipPrinter | None = None,
                 parent: QObject | None = None, *, demo: bool = False,
                 jobs: Jobs | None = None) -> None:
        """`jobs`: the station's pool, which prints (else a pool of the printer's own)."""
        super().__init__(parent)
        self.jobs = jobs or Jobs(1, "slip-printer")
        self.config = config
        self.demo = demo  # a demo station: its PDF slips are said to be the demo's
        self.printer = printer or SlipPrinter(config)
        self.busy: PrintJob | None = None
        self.kept_count = 0
        self.problem: str | None = None  # the last failure's code, until a print works
        self.message = ""  # the last failure's message for the dealer
        self.last = ""  # what printed last, for the tooltip
        self.warning: str | None = None
        self._printing: Future[None] | None = None
        self._done.connect(self._finish, Qt.ConnectionType.QueuedConnection)
        self.refresh()

    @property
    def none(self) -> bool:
        """No printer is set up at this station (kind = "none")."""
        return self.config.kind == "none"

    def refresh(self) -> None:
        """Count the kept slips again (the 1-second poll and after every print)."""
        if self.none:
            self.kept_count = 0
            return
        try:
            self.kept_count = len(self.printer.kept())
        except OSError:
            self.kept_count = 0

    def _device_present(self) -> bool | None:
        """Whether the printer's device file or port is there (None: cannot tell)."""
        if self.config.kind == "file":  # a device node goes when the printer is unplugged;
            path = self.config.path  # a plain file (a way to look at the bytes) is made
            return os.path.exists(path) or (not path.startswith("/dev/")
                                            and os.path.isdir(os.path.dirname(path) or "."))
        if self.config.kind == "serial" and self.config.port.startswith("/"):
            return os.path.exists(self.config.port)
        return None

    def device(self) -> Device:
        where = f"{self.config.kind} printer at {self.config.where}"
        kept = (f"\n{self.kept_count} slip(s) kept for reprint: Shift+P prints them."
                if self.kept_count else "")
        if self.none:
            return Device("Printer: none", "warn",
                          "No slip printer is set up at this station: the slip is shown "
                          "on screen and kept in the ledger.")
        if self.busy is not None:
            return Device("Printer: printing", "ok", f"Printing on the {where}.{kept}")
        present = self._device_present()
        if self.problem == "not-connected" and present:
            self.problem = None  # plugged back in: the kept slips can go now
        if self.problem is not None:
            return Device(f"Printer: {PROBLEM_WORDS.get(self.problem, 'not ready')}", "off",
                          f"{self.message}{kept}")
        if present is False:
            return Device("Printer: not connected", "off",
                          f"There is no {self.config.where}: check that the printer is "
                          f"switched on and its cable is in.{kept}")
        if self.kept_count:
            return Device(f"Printer: {self.kept_count} kept", "warn",
                          f"The {where} is ready again.{kept}")
        if self.warning:
            return Device("Printer: paper low", "warn", self.warning)
        if self.config.kind == "pdf":
            return Device("Printer: PDF (demo)" if self.demo else "Printer: PDF", "ok",
                          f"No slip printer here: each slip is saved as a PDF file in "
                          f"{self.config.path}." + (f" {self.last}" if self.last else "")
                          + kept)
        if present is None and not self.last:
            return Device("Printer: idle", "ok", f"The {where}: its state shows once a slip "
                                                 f"is printed.")
        return Device("Printer: ready", "ok", f"The {where}." + (f" {self.last}"
                                                                   if self.last else ""))

    # --- printing ----------------------------------------------------------------------

    def print_slip(self, slip: object, job: PrintJob) -> None:
        """Print a slip (`job.kind` "slip", or "duplicate": marked REPRINT) on the thread."""
        duplicate = job.kind == "duplicate"
        self._start(job, lambda: self.printer.print_slip(slip, duplicate=duplicate))

    def reprint_kept(self) -> None:
        self._start(PrintJob("kept"), self.printer.reprint_kept)

    def _start(self, job: PrintJob, work: Callable[[], object]) -> None:
        if self.busy is not None:
            raise RuntimeError("the printer is busy")
        self.busy = job

        def run() -> None:
            try:
                result: object = work()
            except Exception as e:  # noqa: BLE001 - shown to the dealer, never a traceback
                result = e
            self.refresh()  # the kept slips counted here, off the GUI thread
            self._done.emit(job, result)

        self._printing = self.jobs.submit(run)

    def _finish(self, job: PrintJob, result: object) -> None:
        self.busy = None
        now = time.strftime("%H:%M")
        if isinstance(result, PrintResult):
            if result.printed:
                self.problem, self.message = None, ""
                self.warning = result.warning
                self.last = f"Round {result.round}'s slip printed at {now}."
            elif result.problem is not None and result.problem.code != "no-printer":
                self.problem, self.message = result.problem.code, result.message
        elif isinstance(result, ReprintResult):
            if result.problem is not None:
                self.problem, self.message = result.problem.code, result.message
            elif result.printed:
                self.problem, self.message = None, ""
                self.last = f"{len(result.printed)} kept slip(s) printed at {now}."
        else:
            self.problem, self.message = "stopped", f"The slip could not be printed: {result}"
        self.finished.emit(job, result)

    def wait(self, timeout: float = 10.0) -> None:
        """Wait for the print under way (the window closing)."""
        if self._printing is not None:
            try:
                self._printing.result(timeout)
            except Late:
                pass


def outcome_of(job: PrintJob, result: object) -> PrintOutcome:
    """The printer's answer as the session's `Printed` event carries it."""
    done = SessionJob(job.kind, job.table, job.round)
    if isinstance(result, PrintResult):
        return PrintOutcome(done, result.printed, result.message, kept=result.kept is not None,
                            problem=result.problem is not None)
    if isinstance(result, ReprintResult):
        return PrintOutcome(done, bool(result.printed), result.message,
                            rounds=tuple((k.table, k.round) for k in result.printed),
                            left=len(result.left), problem=result.problem is not None)
    return PrintOutcome(done, False, f"The slip could not be printed ({result}). It is in the "
                                     f"ledger: reprint it from there (F2, History).",
                        problem=True)


# --- the session's printer port ------------------------------------------------------------

class StationPrinter:
    """The session's printer port: the slip printer, printing on its own thread; the
    answer comes back as `Printer.finished` and the window hands it to the session."""

    def __init__(self, printer: Printer, head: Callable[[], str | None] = lambda: None
                 ) -> None:
        """`head`: the ledger's chain head as last seen, printed at the slip's foot (an
        anchor outside the database: app/ledger/anchors.py)."""
        self.printer = printer
        self.head = head

    @property
    def attached(self) -> bool:
        return not self.printer.none

    @property
    def kept_count(self) -> int:
        return self.printer.kept_count

    def problem(self) -> str | None:
        if self.printer.busy is not None:
            return "the printer is busy with a slip: wait for it"
        return None

    def print_slip(self, slip: Slip, job: SessionJob) -> None:
        data = slip.to_dict()
        code = self.head()
        if code:
            data["ledger_head"] = code
        self.printer.print_slip(data, PrintJob(job.kind, job.table, job.round))

    def reprint_kept(self) -> None:
        self.printer.reprint_kept()
