"""The station's ledger and slip printer as the window uses them, and its heartbeat to the
pit floor.

- `Ledger`: the round recorded as it goes (app/ledger, docs/ledger.md). Every save is on
  disk in the station's journal before it returns; the journal is sent on to the database
  by the store's own thread, so the window never waits for the network and play goes on
  while the database is away. `device()` and `banner()` are what the status bar shows.
- `Printer`: the settlement slip printer (drivers/printer, docs/printer.md). A slip prints
  on a thread of its own (a printer that does not answer takes seconds to say so) and the
  result comes back as the `finished` signal; `device()` is the status bar's printer.
- `StationLedger` and `StationPrinter`: the two as the dealer session's ports
  (app/session/ports.py). Every ledger write goes to the window's worker thread
  (app/ui/worker.py): the journal has it on disk when the worker confirms, and until then
  the status bar says "recording...". A printer's answer comes back as the session's
  `Printed` event (`outcome_of`).
- `Heartbeat`: the table's live state (phase, round, banker, action, wagers, the health of
  shoe, printer and database) written for the pit floor (`FloorStatus.beat`) on a thread
  of its own after every change and every few seconds, and the floor's requests (a void)
  read back for the dealer and the supervisor.

None of this holds a rule of the game: the session calls it after the core has decided.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal

from app.core.round import Round
from app.core.settlement import Slip
from app.ledger import LedgerError
from app.session import PortError, PrintOutcome
from app.session import PrintJob as SessionJob
from drivers.printer import PrintResult, ReprintResult, SlipPrinter
from drivers.printer.config import PrinterConfig

from .present import Device
from .worker import Worker

if TYPE_CHECKING:  # the window paints before SQLAlchemy loads
    from app.ledger import LedgerStatus, Recording, Store
    from app.ledger.people import Person

# The parts of the table config that are not the table's rules: kept out of each round's
# config snapshot in the ledger (where the ledger is, who deals, and the PIN above all).
NOT_RULES = {"ledger", "station", "supervisor"}
SEND_EVERY_S = 0.2  # how often the journal is sent on while it holds anything
SENDING_AFTER_S = 3.0  # records waiting longer than this show as "sending"


def config_snapshot(config: Any) -> dict[str, Any] | None:
    """The table config as a round's snapshot in the ledger: the rules, not the secrets."""
    if config is None:
        return None
    data: dict[str, Any] = config.model_dump(mode="json", exclude=NOT_RULES)
    return data


# --- the ledger ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LedgerView:
    """What the status bar shows of the ledger."""

    device: Device
    banner: str | None


class Ledger:
    """This station's ledger: its shift, the round being recorded, its status."""

    def __init__(self, store: Store, config: Any = None, *, send_every: float = SEND_EVERY_S
                 ) -> None:
        self.store = store
        self.closed = False
        self.snapshot = config_snapshot(config)
        shift = store.shift
        self._dealer: str | None = shift.dealer if shift else None
        self._since: str | None = shift.opened_at if shift else None
        store.start_retrying(send_every)
        # Ask the database once now, so the status bar says at once whether it is there.
        threading.Thread(target=self._probe, name="ledger-probe", daemon=True).start()

    @classmethod
    def open(cls, config: Any, *, database_url: str | None = None,
             data_dir: str | Path | None = None, station: str | None = None) -> Ledger:
        """The ledger of a table config: `database_url` (or the config's, or the SQLite file
        in the station's data directory). Raises `LedgerError` for a URL that cannot be."""
        url = database_url or config.ledger.database_url or None
        station = station or config.station.name or None
        # The window never waits on the database: saves go to the journal, the retry
        # thread sends them on.
        from app.ledger import Store

        store = Store(url, table=config.table.name, station=station, data_dir=data_dir,
                      migrate_now=False, send_on_save=False)
        try:
            store.claim()  # a second station running under this one's identity is refused
        except LedgerError:
            store.close()
            raise
        return cls(store, config)

    def _probe(self) -> None:
        try:
            self.store.drain()
        except Exception:  # noqa: BLE001 - the status says what went wrong
            pass

    # --- the shift ---------------------------------------------------------------------

    @property
    def dealer(self) -> str | None:
        """The dealer whose shift is open, or None."""
        return self._dealer

    def expect_shift(self, dealer: str) -> None:
        """The dealer named is at the table from now (the journal write follows on the
        worker)."""
        self._dealer, self._since = dealer, datetime.now(UTC).isoformat()

    def open_shift(self, dealer: str) -> str:
        info = self.store.open_shift(dealer)
        self._dealer, self._since = info.dealer, info.opened_at
        return info.dealer

    # --- rounds ------------------------------------------------------------------------

    def begin(self, game: Round) -> Recording:
        return self.store.begin(game, config=self.snapshot)

    def resume(self) -> Recording | None:
        rec = self.store.resume()
        shift = self.store.shift  # a round resumed from the database brings its shift
        if shift is not None:
            self._dealer, self._since = shift.dealer, shift.opened_at
        return rec

    # --- status --------------------------------------------------------------------------

    def status(self) -> LedgerStatus:
        return self.store.status()

    def view(self) -> LedgerView:
        st = self.status()
        where = st.database
        shift = (f"Shift: {self._dealer}, since {_clock(self._since)}." if self._dealer
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

    def close(self) -> None:
        """Send what is left (it stays in the journal if the database is away) and close.
        Once."""
        if self.closed:
            return
        self.closed = True
        self.store.stop_retrying()
        try:
            self.store.drain()
        except Exception:  # noqa: BLE001 - kept in the journal for the next start
            pass
        self.store.close()


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
                 parent: QObject | None = None, *, demo: bool = False) -> None:
        super().__init__(parent)
        self.config = config
        self.demo = demo  # a demo station: its PDF slips are said to be the demo's
        self.printer = printer or SlipPrinter(config)
        self.busy: PrintJob | None = None
        self.kept_count = 0
        self.problem: str | None = None  # the last failure's code, until a print works
        self.message = ""  # the last failure's message for the dealer
        self.last = ""  # what printed last, for the tooltip
        self.warning: str | None = None
        self._thread: threading.Thread | None = None
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
                          "No slip printer is set up at this station ([printer] kind = "
                          "\"none\"): the slip is shown on screen and kept in the ledger.")
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

    def print_slip(self, slip: Any, job: PrintJob) -> None:
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

        self._thread = threading.Thread(target=run, name="slip-printer", daemon=True)
        self._thread.start()

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
        if self._thread is not None:
            self._thread.join(timeout)


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


# --- the session's ports --------------------------------------------------------------------

class StationLedger:
    """The session's ledger port: the station's ledger, written on the worker.

    The session never waits: `begin`, `save` and `void` queue a job and return. The jobs run
    in order on the one worker thread, so the round's records reach the journal in the order
    they were made; `_rec` (the round being recorded) is only touched by those jobs. A write
    the journal refuses leaves the records unsaved in the round, so the next save writes them
    (none lost, none twice: the recording counts what is saved).
    """

    def __init__(self, ledger: Ledger, worker: Worker,
                 on_written: Callable[[BaseException | None], None] | None = None) -> None:
        self.ledger = ledger
        self.worker = worker
        self.on_written = on_written  # the window: the recording state moved
        self._rec: Recording | None = None
        self._deal: tuple[Round, dict[str, Any]] | None = None  # a deal waiting to be kept
        self._deal_lock = threading.Lock()
        self.pending = 0  # writes queued and not yet confirmed on disk
        self.failed: str | None = None  # the last write refused, until one goes through
        self._vouched: dict[str, Person] = {}  # supervisors the ledger checked a moment ago

    @property
    def store(self) -> Store:
        return self.ledger.store

    @property
    def recording(self) -> Recording | None:
        """The round being recorded (read it once the worker is idle)."""
        return self._rec

    def adopt(self, rec: Recording) -> None:
        """The round taken back at start, before any job."""
        self._rec = rec

    @property
    def dealer(self) -> str | None:
        return self.ledger.dealer

    def open_shift(self, dealer: str) -> str:
        name = " ".join(dealer.split())
        if not name:
            raise PortError("type the dealer's name to open a shift")
        self.ledger.expect_shift(name)
        self._write(lambda: self.ledger.open_shift(name))
        return name

    def begin(self, game: Round) -> None:
        def work() -> None:
            self._rec = None
            self._rec = self.ledger.begin(game)
        self._write(work)

    def save(self, game: Round) -> None:
        def work() -> None:
            rec = self._rec
            if rec is None or rec.game is not game:
                raise LedgerError("this round was not begun in the ledger; call a supervisor")
            rec.save()
        self._write(work)

    def vouch(self, person: Person) -> None:
        """The supervisor the ledger has just checked (`Store.authorise`) for the action
        that follows: the ledger's write of it carries the Person, so it records who and
        their sign-in (a name alone is refused by a ledger that has people)."""
        self._vouched[person.name] = person

    def void(self, game: Round, reason: str, by: str) -> None:
        person = self._vouched.pop(by, None)

        def work() -> None:
            rec = self._rec
            if rec is None or rec.game is not game:
                raise LedgerError("this round was not begun in the ledger; call a supervisor")
            rec.void(reason, by=person if person is not None else by)
            self._rec = None
        self._write(work)

    def misdeal(self, game: Round, reason: str, by: Any) -> None:
        """A supervisor's misdeal: `by` is the Supervisor the port gave (its proof, the
        ledger's Person, is what the store checks)."""
        who = getattr(by, "proof", None) or getattr(by, "name", by)

        def work() -> None:
            rec = self._rec
            if rec is None or rec.game is not game:
                raise LedgerError("this round was not begun in the ledger; call a supervisor")
            rec.misdeal(reason, by=who)
            self._rec = None
        self._write(work)

    def problem(self) -> str | None:
        """Why the ledger cannot record now: the last write the journal refused (a disk
        full), until one goes through; the session takes no new wager meanwhile."""
        return self.failed

    def keep_deal(self, game: Round, deal: Any) -> None:
        """The deal as read so far, into the journal on the worker, in order with the
        round's records (a restart gets every card back and asks the shoe for the rest).
        Cards read while a write of the deal still waits its turn go with it: the newest
        deal holds every card before it, so one write does (the queue never grows by a
        card a write)."""
        with self._deal_lock:
            queued = self._deal is not None
            self._deal = (game, dict(deal))
        if queued:
            return

        def work() -> None:
            with self._deal_lock:
                latest, self._deal = self._deal, None
            rec = self._rec
            if latest is not None and rec is not None and rec.game is latest[0]:
                rec.keep_deal(latest[1])
        self._write(work)

    def note_eligibility(self, verdict: Any, then: Callable[[str], None]) -> None:
        """The pit's check of who may bank, recorded with the round in play (or the table)."""
        def work() -> None:
            if self._rec is not None:
                self._rec.note_eligibility(verdict, by="pit")
            else:
                self.store.record_eligibility(verdict, by="pit")

        def done(_r: object, error: BaseException | None) -> None:
            then(" Recorded in the ledger." if error is None else f" Not recorded ({error}).")
        self.worker.submit(work, done)

    def _write(self, work: Callable[[], object]) -> None:
        if self.worker.closed:
            raise PortError("the station is closing: the ledger takes no more changes")
        self.pending += 1
        self.worker.submit(work, self._written)

    def _written(self, _result: object, error: BaseException | None) -> None:
        self.pending -= 1
        self.failed = None if error is None else str(error)
        if self.on_written is not None:
            self.on_written(error)


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
