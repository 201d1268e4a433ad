"""The station's devices as the session knows them: the shoe's status (online, a demo shoe,
its words for the status bar) and the slip printer (its port, whether this round's slip is
printed or kept, and what its answers mean for the dealer).
"""

from __future__ import annotations

from app.core.round import Round
from app.core.settlement import Slip

from .events import PrintJob, PrintOutcome
from .outbox import Outbox
from .ports import PrinterPort

UNPLUGGED = "offline: demo shoe unplugged (O plugs it back) - enter cards by hand (C)"


class Devices:
    """The shoe's status and the slip printer."""

    def __init__(self, out: Outbox, printer: PrinterPort | None = None) -> None:
        self.out = out
        self.printer = printer
        self.shoe_online = False
        self.shoe_demo = False
        self.shoe_status = "offline: no shoe"
        self.shoe_short = "offline"
        self.slip_printed: str | None = None  # this round's slip: "printed" or "kept"
        # The dealer unplugged the demo shoe (O): it stays out until O plugs it back, and
        # nothing it reads meanwhile is used, whatever reaches the station late.
        self.unplugged = False

    # --- the shoe ------------------------------------------------------------------------------

    def shoe_said(self, online: bool, status: str, short: str, demo: bool) -> None:
        if online and demo and self.unplugged:
            return  # a word from before the unplugging: the shoe does not come back by itself
        self.shoe_online, self.shoe_status, self.shoe_short = online, status, short
        self.shoe_demo = demo
        self.out.devices_changed()

    def plug_demo_shoe(self, online: bool) -> None:
        """The demo shoe obeys at once, and the status bar says so; the shoe's own status
        follows as an event."""
        self.shoe_online, self.unplugged = online, not online
        if not online:
            self.shoe_status = UNPLUGGED
            self.shoe_short = "unplugged"
        self.out.devices_changed()

    # --- the printer ---------------------------------------------------------------------------

    @property
    def printer_attached(self) -> bool:
        return self.printer is not None and self.printer.attached

    @property
    def kept_count(self) -> int:
        return self.printer.kept_count if self.printer is not None else 0

    def new_round(self) -> None:
        self.slip_printed = None

    def send_to_printer(self, slip: Slip | None, job: PrintJob) -> None:
        assert self.printer is not None
        self.out.printing(job)
        if job.kind == "kept":
            outcome = self.printer.reprint_kept()
        else:
            assert slip is not None
            outcome = self.printer.print_slip(slip, job)
        self.out.printer_answered(outcome)

    def on_printed(self, outcome: PrintOutcome, rnd: Round | None) -> None:
        """The printer's answer to a job, for the round in play `rnd`."""
        out, job = self.out, outcome.job
        here = (rnd.slip.table, rnd.slip.round) if rnd is not None and rnd.slip else None
        out.devices_changed()
        if job.kind == "kept":
            if here is not None and here in outcome.rounds:
                self.slip_printed = "printed"
            out.say(outcome.message, "error" if outcome.problem or outcome.left else "ok")
            if outcome.rounds:
                out.note(f"Printer: {len(outcome.rounds)} kept slip(s) printed")
            return
        current = here == (job.table, job.round)
        if outcome.printed:
            text = (f"Round {job.round}'s slip printed"
                    + (" again, marked REPRINT." if job.kind == "duplicate" else "."))
            if current:
                self.slip_printed = "printed"
            out.say(" ".join([text, outcome.message]).strip(),
                    "warn" if outcome.message else "ok")
        else:
            if current and outcome.kept and job.kind == "slip":
                self.slip_printed = "kept"
            out.say(outcome.message, "error")
        out.note(f"Printer: round {job.round} " + (
            "printed" if outcome.printed else "not printed, kept" if outcome.kept
            else "not printed"))
