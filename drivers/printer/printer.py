"""The station's slip printer: print a settled round's slip, keep it when the printer
cannot, and reprint the kept slips (or any slip again, from the ledger).

    result = print_slip(slip.to_dict(), config)     # or a Slip, or the ledger's JSON
    if not result.printed:
        show_the_dealer(result.message)             # what is wrong, what to do, slip kept
    # later, the printer back:
    SlipPrinter(config).reprint_kept()              # the dealer pressed Reprint

Nothing is lost: a slip is written to the reprint queue before the dealer is told the
printer failed, and leaves it only once it has printed. A slip printed late says so under
the title, and a slip printed again from the ledger is marked REPRINT, so a slip that went
out twice is never paid twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .config import PrinterConfig
from .device import (
    NOT_ALLOWED,
    SHORT,
    STOPPED,
    Connect,
    PrinterProblem,
    connect,
    no_printer,
    send,
)
from .layout import SlipError, read_slip, slip_json, slip_time, styled_lines
from .queue import KeptSlip, QueueError, ReprintQueue

# Said to the dealer (the station's message) and at a terminal: plain words, no backticks.
REPRINT_HINT = "once the printer is ready, press Reprint (or run paigow print-slip --reprint)"


def _now() -> datetime:
    return datetime.now().astimezone().replace(microsecond=0)


@dataclass(frozen=True, slots=True)
class PrintResult:
    """What happened to one slip: printed, or kept with the problem the dealer is shown."""

    table: str
    round: int
    printed: bool
    problem: PrinterProblem | None = None
    kept: KeptSlip | None = None
    warning: str | None = None    # printed, but something needs doing soon (paper low)
    waiting: int = 0              # slips still kept for reprint
    lost: str | None = None       # the slip could not be kept either (the queue failed)

    @property
    def message(self) -> str:
        """The dealer's message: empty when it printed and nothing needs doing."""
        parts = []
        if self.problem is not None:
            parts.append(self.problem.message + ".")
        if self.kept is not None:
            parts.append(f"The slip of round {self.round} is kept: {REPRINT_HINT}.")
        if self.lost is not None:
            parts.append(f"The slip of round {self.round} could not be kept either "
                         f"({self.lost}): reprint it from the round's record in the ledger.")
        if self.warning:
            parts.append(self.warning)
        if self.printed and self.waiting:
            parts.append(f"{self.waiting} earlier slip{'s are' if self.waiting > 1 else ' is'}"
                         f" kept: press Reprint to print {'them' if self.waiting > 1 else 'it'}.")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class ReprintResult:
    """What a reprint of the kept slips did."""

    printed: tuple[KeptSlip, ...] = ()
    left: tuple[KeptSlip, ...] = ()
    problem: PrinterProblem | None = None
    set_aside: tuple[str, ...] = field(default=())  # kept files that could not be read

    @property
    def message(self) -> str:
        parts = []
        if self.printed:
            n = len(self.printed)
            parts.append(f"Reprinted {n} kept slip{'s' if n > 1 else ''}.")
        if self.problem is not None:
            parts.append(self.problem.message + ".")
        if self.left:
            n = len(self.left)
            parts.append(f"{n} slip{'s are' if n > 1 else ' is'} still kept: {REPRINT_HINT}.")
        elif not self.printed and self.problem is None:
            parts.append("No slips are kept: there is nothing to reprint.")
        for path in self.set_aside:
            parts.append(f"A kept slip cannot be read and was set aside as {path}: reprint "
                         f"that round from the ledger.")
        return " ".join(parts)


def late_mark(kept: KeptSlip, now: datetime) -> str:
    if kept.duplicate:
        return f"REPRINT {now:%Y-%m-%d %H:%M}"
    why = SHORT.get(kept.problem, kept.problem.replace("-", " "))
    return f"PRINTED LATE {now:%Y-%m-%d %H:%M}\n(first try: {why})"


class SlipPrinter:
    """The configured receipt printer and its reprint queue."""

    def __init__(self, config: PrinterConfig, *, queue: ReprintQueue | None = None,
                 connect: Connect = connect,
                 clock: Callable[[], datetime] = _now) -> None:
        self.config = config
        self.queue = queue if queue is not None else ReprintQueue(config.queue_path)
        self._connect = connect
        self._clock = clock
        self.last_file: Path | None = None  # kind = "pdf": the last slip's file

    def lines(self, slip: object, *, time: datetime | None = None, mark: str | None = None,
              columns: int | None = None) -> list[str]:
        """The slip as this printer prints it, as text."""
        return [x.text for x in styled_lines(slip, columns or self.config.columns,
                                             time=time, mark=mark)]

    def _send(self, slip: object, time: datetime, mark: str | None) -> str | None:
        if self.config.kind == "none":
            raise no_printer()
        if self.config.kind == "pdf":
            self._write_pdf(slip, time, mark)
            return None
        lines = styled_lines(slip, self.config.columns, time=time, mark=mark)
        status = send(self.config, lines, self._connect)
        if status.paper_low:
            return "The printer's paper is running low: change the roll soon."
        return None

    def _write_pdf(self, slip: object, time: datetime, mark: str | None) -> None:
        from .pdf import slip_file  # fpdf2 only where slips go to PDF files

        try:
            self.last_file = slip_file(self.config.path, slip, time=time, mark=mark)
        except OSError as e:
            code = NOT_ALLOWED if isinstance(e, PermissionError) else STOPPED
            raise PrinterProblem(code, f"The slip could not be saved as a PDF in "
                                       f"{self.config.path} ({e.strerror or e})",
                                 "check that the folder is there and the station may write "
                                 "to it") from e

    def print_slip(self, slip: object, *, duplicate: bool = False,
                   time: datetime | None = None) -> PrintResult:
        """Print a settled round's slip (a `Slip` or its `to_dict()` form).

        `duplicate`: the slip was printed before (a reprint from the ledger): marked REPRINT.
        `time`: the slip's time (default: its `settled_at`, else now).
        A bad slip raises `SlipError`; a printer problem never raises: the slip is kept.
        """
        data = read_slip(slip)
        raw = slip_json(slip)
        now = self._clock()
        when = time or slip_time(data) or now
        mark = f"REPRINT {now:%Y-%m-%d %H:%M}" if duplicate else None
        table, round_no = data["table"], data["round"]
        try:
            warning = self._send(data, when, mark)
        except PrinterProblem as problem:
            if problem.code == "no-printer":
                return PrintResult(table, round_no, False, problem)
            try:
                kept = self.queue.keep(raw, time=when, now=now, problem=problem.code,
                                       message=problem.message, duplicate=duplicate)
            except QueueError as e:
                return PrintResult(table, round_no, False, problem, lost=e.strerror or str(e))
            return PrintResult(table, round_no, False, problem, kept)
        waiting = len(self.queue.pending())
        return PrintResult(table, round_no, True, warning=warning, waiting=waiting)

    def kept(self) -> list[KeptSlip]:
        """The slips waiting for the printer, oldest first."""
        return self.queue.pending()

    def reprint_kept(self) -> ReprintResult:
        """Print every kept slip, oldest first; each leaves the queue once it has printed.
        Stops at the first problem and keeps the rest."""
        if self.config.kind == "none":
            return ReprintResult(left=tuple(self.queue.pending()), problem=no_printer())
        done: list[KeptSlip] = []
        with self.queue.locked():
            pending = self.queue.pending()
            aside = [str(p) for p in self.queue.set_aside]
            for i, kept in enumerate(pending):
                try:
                    read_slip(kept.slip)
                except SlipError:
                    aside.append(str(self.queue.set_aside_file(kept.path)))
                    continue
                try:
                    self._send(kept.slip, kept.time, late_mark(kept, self._clock()))
                except PrinterProblem as problem:
                    again = self.queue.failed_again(kept, problem.code, problem.message)
                    return ReprintResult(tuple(done), (again, *pending[i + 1:]), problem,
                                         tuple(aside))
                self.queue.remove(kept)
                done.append(kept)
        return ReprintResult(tuple(done), (), None, tuple(aside))


def print_slip(slip: object, config: PrinterConfig, *, duplicate: bool = False) -> PrintResult:
    """Print one slip (a `Slip` or its `to_dict()` JSON form) on the configured printer."""
    return SlipPrinter(config).print_slip(slip, duplicate=duplicate)
