"""Settling the round and its slip: S settles, P prints the slip on the printer's thread,
Shift+P reprints (the kept slips, or this round's again marked REPRINT), the pit reprints a
past round's; the printer's answer is worded for the dealer.
"""

from __future__ import annotations

from typing import Any

from app.core.settlement import Slip, money
from app.core.table import position_name
from drivers.printer import PrintResult, ReprintResult

from .services import PrintJob


class Slips:
    """Settling and printing.

    Mixed into `DealerController` (app/ui/controller.py): it reads the controller's state
    and uses its plumbing (`_run`, `_do`, `_say`, `_done`).
    """

    def settle(self) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("settling")
            slip: Slip = self._do("settle")
            self.selected = None
            self.picks = []
            t = slip.totals
            bank = slip.bank
            banker = ""
            if bank.player is not None:
                banker = (f" Banker seat {bank.player} nets {money(bank.net, sign=True)}"
                          + (" - the bank ran out." if bank.exhausted else "."))
            printer = self.printer is not None and not self.printer.none
            then = "P prints the slip; N opens the next round." if printer else \
                "N opens the next round."
            self._say(f"Settled from {position_name(slip.action_position)}: players net "
                      f"{money(t.players_net, sign=True)}, commission {money(t.commission)}, "
                      f"house net {money(t.house_net, sign=True)}.{banker} {then}", "ok")
            self.round_settled.emit(slip)
        return self._run(step)

    def print_slip(self) -> bool:
        """P: print this round's slip (a slip kept by a printer failure: the kept slips)."""
        def step() -> None:
            self._verify("print")
            rnd, printer = self.round, self.printer
            assert rnd is not None and rnd.slip is not None and printer is not None
            if self.slip_printed == "kept":
                printer.reprint_kept()
            else:
                printer.print_slip(rnd.slip, PrintJob("slip", rnd.slip.table, rnd.slip.round))
            self._say(f"Printing round {rnd.slip.round}'s slip...", "info")
        return self._run(step)

    def reprint(self) -> bool:
        """Shift+P: print the kept slips (oldest first); with none kept, this round's slip
        again, marked REPRINT."""
        def step() -> None:
            self._verify("reprint")
            printer, rnd = self.printer, self.round
            assert printer is not None
            if printer.kept_count:
                printer.reprint_kept()
                self._say(f"Printing the {printer.kept_count} kept slip(s)...", "info")
                return
            assert rnd is not None and rnd.slip is not None
            printer.print_slip(rnd.slip, PrintJob("duplicate", rnd.slip.table, rnd.slip.round))
            self._say(f"Printing round {rnd.slip.round}'s slip again, marked REPRINT...", "info")
        return self._run(step)

    def reprint_past(self, slip: dict[str, Any], round_id: str) -> bool:
        """A past round's slip from the ledger, printed again marked REPRINT (the pit)."""
        def step() -> None:
            self._verify_printer()
            assert self.printer is not None
            job = PrintJob("duplicate", str(slip.get("table", "")), int(slip.get("round", 0)),
                           round_id)
            self.printer.print_slip(slip, job)
            self._say(f"Printing round {job.round}'s slip again from the ledger, marked "
                      f"REPRINT...", "info")
        return self._run(step)

    def on_printed(self, job: PrintJob, result: object) -> None:
        rnd = self.round
        current = (rnd is not None and rnd.slip is not None and job.round_id is None
                   and (job.table, job.round) == (rnd.slip.table, rnd.slip.round))
        if isinstance(result, PrintResult):
            if result.printed:
                text = (f"Round {result.round}'s slip printed"
                        + (" again, marked REPRINT." if job.kind == "duplicate" else "."))
                if current:
                    self.slip_printed = "printed"
                self._say(" ".join([text, result.message]).strip(),
                          "warn" if result.message else "ok")
            else:
                if current and result.kept is not None and job.kind == "slip":
                    self.slip_printed = "kept"
                self._say(result.message, "error")
            self._notes.append(f"Printer: round {result.round} "
                               + ("printed" if result.printed else "not printed, kept"
                                  if result.kept else "not printed"))
        elif isinstance(result, ReprintResult):
            if rnd is not None and rnd.slip is not None and any(
                    (k.table, k.round) == (rnd.slip.table, rnd.slip.round)
                    for k in result.printed):
                self.slip_printed = "printed"
            self._say(result.message, "error" if result.problem or result.left else "ok")
            if result.printed:
                self._notes.append(f"Printer: {len(result.printed)} kept slip(s) printed")
        else:
            self._say(f"The slip could not be printed ({result}). It is in the ledger: "
                      f"reprint it from there (F2, History).", "error")
        self._done()
