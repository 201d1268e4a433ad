"""The receipt printer through python-escpos: open it as configured, ask whether it can
print, send the slip, and turn whatever goes wrong into a `PrinterProblem` that tells the
dealer what is wrong and what to do.

The ESC/POS commands are the library's (`hw("INIT")`, `set(bold=...)`, `textln`, `cut`,
`query_status`); nothing here writes command bytes of its own.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from .config import PrinterConfig, load_escpos
from .layout import PrintLine, Style

if TYPE_CHECKING:
    from escpos.escpos import Escpos

STATUS_WAIT = 0.5  # seconds to wait for the answer to a status query

# What the dealer is told. Each says what is wrong, then what to do.
NO_PRINTER = "no-printer"
NOT_CONNECTED = "not-connected"
NOT_ALLOWED = "not-allowed"
OFFLINE = "offline"
OUT_OF_PAPER = "out-of-paper"
STOPPED = "stopped"

SHORT = {NO_PRINTER: "no printer set up", NOT_CONNECTED: "printer not connected",
         NOT_ALLOWED: "printer not allowed", OFFLINE: "printer offline",
         OUT_OF_PAPER: "out of paper", STOPPED: "printer stopped while printing"}


class PrinterProblem(Exception):
    """The printer cannot print now: `what` is wrong, `todo` is what the dealer does."""

    def __init__(self, code: str, what: str, todo: str) -> None:
        self.code = code
        self.what = what
        self.todo = todo
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return f"{self.what}: {self.todo}"

    @property
    def short(self) -> str:
        return SHORT.get(self.code, self.code)


@dataclass(frozen=True, slots=True)
class Status:
    """What the printer said about itself; None where it did not answer."""

    online: bool | None = None
    paper: int | None = None  # 2 plenty, 1 near the end, 0 none (python-escpos's paper_status)

    @property
    def paper_low(self) -> bool:
        return self.paper == 1


# --- opening -------------------------------------------------------------------------------

class _Port(Protocol):
    """How a python-escpos printer opens and closes its device (its own methods are not
    annotated, so they are called through this)."""

    def open(self) -> None: ...

    def close(self) -> None: ...


def connect(config: PrinterConfig) -> Escpos:
    """The configured printer, opened; raises `PrinterProblem` when it cannot be."""
    load_escpos()
    from escpos.exceptions import Error as EscposError
    from escpos.printer import File, Network, Serial

    printer: Escpos
    if config.kind == "file":
        printer = File(config.path, profile=config.profile)
    elif config.kind == "serial":
        printer = Serial(config.port, baudrate=config.baud, timeout=config.timeout,
                         profile=config.profile)
    elif config.kind == "network":
        printer = Network(config.host, port=config.tcp_port, timeout=config.timeout,
                          profile=config.profile)
    else:
        raise no_printer()
    try:
        cast(_Port, printer).open()
    except (EscposError, OSError) as e:
        raise open_problem(config, e) from e
    # A serial printer that is off holds its flow-control line: never wait for it forever.
    dev = getattr(printer, "_device", None)
    if config.kind == "serial" and dev is not None and hasattr(dev, "write_timeout"):
        dev.write_timeout = config.timeout
    return printer


def no_printer() -> PrinterProblem:
    return PrinterProblem(NO_PRINTER, "No slip printer is set up at this station "
                          "([printer] kind = \"none\")",
                          "set the printer's kind and address in the table config "
                          "(docs/printer.md)")


def _cause(e: BaseException) -> BaseException:
    """The OS error under a python-escpos error (it raises its own from inside `except`)."""
    seen = e
    while not isinstance(seen, OSError) and (seen.__cause__ or seen.__context__):
        seen = seen.__cause__ or seen.__context__  # type: ignore[assignment]
    return seen


def open_problem(config: PrinterConfig, e: BaseException) -> PrinterProblem:
    """Why the printer cannot be opened, said for the dealer."""
    cause = _cause(e)
    code = cause.errno if isinstance(cause, OSError) else None
    where = config.where
    if code in (errno.EACCES, errno.EPERM):
        return PrinterProblem(NOT_ALLOWED, f"The station may not use the slip printer at "
                              f"{where} (permission denied)",
                              "call the installer: the station's user must be in the "
                              "printer's group (lp or dialout, docs/printer.md)")
    if config.kind == "network":
        why = ("it refused the connection" if code == errno.ECONNREFUSED
               else "it does not answer" if isinstance(cause, TimeoutError)
               else "its address is unknown" if isinstance(cause, socket.gaierror)
               else "it cannot be reached")
        return PrinterProblem(NOT_CONNECTED, f"The slip printer at {where} is off or not "
                              f"on the network ({why})",
                              "check that it is switched on and its network cable is in "
                              "(its lights on), then reprint")
    if config.kind == "serial":
        return PrinterProblem(NOT_CONNECTED, f"The slip printer on {where} is not connected",
                              "check that it is switched on and its cable is in, then "
                              "reprint")
    return PrinterProblem(NOT_CONNECTED, f"The slip printer is not connected (no {where})",
                          "check that it is switched on and its USB cable is in, then "
                          "reprint")


def write_problem(e: BaseException) -> PrinterProblem:
    """The printer failed while the slip was being sent."""
    cause = _cause(e)
    detail = (cause.strerror or str(cause)) if isinstance(cause, OSError) else str(cause)
    detail = detail.strip().splitlines()[0] if detail.strip() else type(cause).__name__
    return PrinterProblem(STOPPED, f"The slip printer stopped while printing ({detail}), "
                          f"so the printed slip may be cut short",
                          "check its power, cable and paper, then reprint (the whole slip "
                          "prints again)")


# --- status --------------------------------------------------------------------------------

def can_answer(printer: Escpos) -> bool:
    """Whether this device can read the printer's answers (a device file cannot)."""
    from escpos.escpos import Escpos

    return type(printer)._read is not Escpos._read


@contextmanager
def _short_reads(printer: Escpos) -> Iterator[None]:
    """Wait at most STATUS_WAIT for an answer: a printer that never answers is not an error."""
    dev: object = getattr(printer, "_device", None)
    if isinstance(dev, socket.socket):
        old = dev.gettimeout()
        dev.settimeout(STATUS_WAIT)
        try:
            yield
        finally:
            dev.settimeout(old)
    elif dev is not None and hasattr(dev, "timeout") and hasattr(dev, "in_waiting"):
        old = dev.timeout
        dev.timeout = STATUS_WAIT
        try:
            yield
        finally:
            dev.timeout = old
    else:
        yield


def status(printer: Escpos) -> Status:
    """Ask the printer (DLE EOT) whether it is online and has paper. A printer that does not
    answer, or a device that cannot read, gives an unknown status (and printing goes on)."""
    from escpos.constants import RT_MASK_ONLINE, RT_STATUS_ONLINE

    if not can_answer(printer):
        return Status()
    with _short_reads(printer):
        try:
            answer = printer.query_status(RT_STATUS_ONLINE)
            if not answer:
                return Status()  # a printer that does not answer status queries
            paper = printer.paper_status()
        except (TimeoutError, NotImplementedError):  # the escpos device cannot ask: no answer
            return Status()
    return Status(online=not (answer[0] & RT_MASK_ONLINE), paper=paper)


def ready(printer: Escpos) -> Status:
    """The status, or the `PrinterProblem` that stops printing (out of paper, offline)."""
    s = status(printer)
    if s.paper == 0:
        raise PrinterProblem(OUT_OF_PAPER, "The slip printer is out of paper",
                             "load a new roll and close the cover, then reprint")
    if s.online is False:
        raise PrinterProblem(OFFLINE, "The slip printer is offline (cover open, paper out or "
                             "an error light)",
                             "close the cover, check the paper and that the error light is "
                             "off, then reprint")
    return s


# --- the slip ------------------------------------------------------------------------------

def write_slip(printer: Escpos, lines: Sequence[PrintLine]) -> None:
    """The slip's lines as ESC/POS: reset, the title bold and double height, headings bold,
    then feed and cut. Only python-escpos's own commands."""
    printer.hw("INIT")
    for line in lines:
        if line.style is Style.TITLE:
            printer.set(bold=True, double_height=True)
        elif line.style is Style.BOLD:
            printer.set(bold=True)
        printer.textln(line.text)
        if line.style is Style.TITLE:
            printer.set(bold=False, normal_textsize=True)
        elif line.style is Style.BOLD:
            printer.set(bold=False)
    printer.cut()


Connect = Callable[[PrinterConfig], "Escpos"]


def send(config: PrinterConfig, lines: Sequence[PrintLine], connect: Connect = connect
         ) -> Status:
    """Open the printer, check it can print, print the slip, check the paper did not run
    out meanwhile, close. Raises `PrinterProblem`; returns the status seen before printing."""
    load_escpos()
    from escpos.exceptions import Error as EscposError

    printer = connect(config)
    try:
        before = ready(printer) if config.check_status else Status()
        try:
            write_slip(printer, lines)
        except (EscposError, OSError) as e:
            raise write_problem(e) from e
        if config.check_status:
            after = status(printer)
            if after.paper == 0:
                raise PrinterProblem(OUT_OF_PAPER, "The paper ran out while the slip was "
                                     "printing, so the printed slip may be cut short",
                                     "load a new roll and close the cover, then reprint (the "
                                     "whole slip prints again)")
        return before
    except (EscposError, OSError) as e:
        raise write_problem(e) from e
    finally:
        try:
            cast(_Port, printer).close()
        except (EscposError, OSError):
            pass
