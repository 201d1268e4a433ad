"""A printer that is off, unplugged or out of paper: the dealer is told what is wrong and
what to do, the slip is kept in the durable reprint queue, and a reprint prints each kept
slip once."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

from escpos.exceptions import DeviceNotFoundError
from escpos.printer import Dummy

from drivers.printer.config import PrinterConfig
from drivers.printer.device import PrinterProblem, open_problem
from drivers.printer.printer import SlipPrinter, print_slip
from drivers.printer.queue import ReprintQueue

from .helpers import (
    LATER,
    OFFLINE,
    PAPER_LOW,
    PAPER_OK,
    PAPER_OUT,
    TIME,
    FailingDummy,
    StatusDummy,
    config,
    connect_to,
    golden,
    slip,
)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _kept_files(cfg: PrinterConfig) -> list[Path]:
    return sorted(cfg.queue_path.glob("*.json"))


# --- the device cannot be opened ----------------------------------------------------------

def test_a_file_printer_that_is_not_there_is_reported_and_the_slip_kept(tmp_path: Path
                                                                         ) -> None:
    cfg = config(tmp_path, path=str(tmp_path / "unplugged" / "lp0"))
    result = print_slip(slip("house-bank"), cfg)
    assert not result.printed
    assert result.problem is not None and result.problem.code == "not-connected"
    assert (f"The slip printer is not connected (no {tmp_path / 'unplugged' / 'lp0'}): "
            f"check that it is switched on and its USB cable is in") in result.message
    assert "The slip of round 1 is kept" in result.message and "Reprint" in result.message
    [kept] = _kept_files(cfg)
    assert json.loads(kept.read_text())["slip"] == slip("house-bank")


def test_a_network_printer_that_refuses_the_connection_is_reported_and_the_slip_kept(
        tmp_path: Path) -> None:
    port = _closed_port()
    cfg = config(tmp_path, kind="network", host="127.0.0.1", tcp_port=port, timeout=2.0)
    result = SlipPrinter(cfg).print_slip(slip("player-bank-runs-out"))
    assert not result.printed and result.kept is not None
    assert result.message.startswith(
        f"The slip printer at 127.0.0.1:{port} is off or not on the network (it refused the "
        f"connection): check that it is switched on and its network cable is in")
    assert result.kept.round == 8 and result.kept.problem == "not-connected"


def test_a_serial_printer_that_is_unplugged_is_reported_and_the_slip_kept(tmp_path: Path
                                                                           ) -> None:
    cfg = config(tmp_path, kind="serial", port="/dev/ttyPAIGOW-unplugged")
    result = SlipPrinter(cfg).print_slip(slip("co-bank"))
    assert not result.printed and result.kept is not None
    assert result.message.startswith("The slip printer on /dev/ttyPAIGOW-unplugged is not "
                                     "connected: check that it is switched on and its cable")


def test_a_printer_the_station_may_not_use_says_to_call_the_installer(tmp_path: Path) -> None:
    class NotAllowed(Dummy):
        def open(self) -> None:  # as python-escpos's File.open does on EACCES
            try:
                raise PermissionError(13, "Permission denied")
            except OSError as e:
                raise DeviceNotFoundError(f"Could not open the specified file:\n{e}") from None

    def connect(cfg: PrinterConfig) -> Dummy:
        printer = NotAllowed()
        try:
            printer.open()
        except DeviceNotFoundError as e:
            raise open_problem(cfg, e) from e
        return printer

    result = SlipPrinter(config(tmp_path), connect=connect).print_slip(slip("house-bank"))
    assert not result.printed and result.kept is not None
    assert result.message.startswith(
        f"The station may not use the slip printer at {tmp_path / 'lp0'} (permission "
        f"denied): call the installer: the station's user must be in the printer's group")


# --- the printer says it cannot print -----------------------------------------------------

def test_a_printer_out_of_paper_prints_nothing_and_the_slip_is_kept(tmp_path: Path) -> None:
    printer = StatusDummy(paper=PAPER_OUT)
    cfg = config(tmp_path)
    result = SlipPrinter(cfg, connect=connect_to(printer)).print_slip(slip("house-bank"))
    assert printer.output == b""
    assert result.message.startswith("The slip printer is out of paper: load a new roll and "
                                     "close the cover, then reprint.")
    assert len(_kept_files(cfg)) == 1 and printer.closed


def test_an_offline_printer_prints_nothing_and_the_slip_is_kept(tmp_path: Path) -> None:
    printer = StatusDummy(online=OFFLINE)
    result = SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(
        slip("house-bank"))
    assert printer.output == b"" and result.kept is not None
    assert result.message.startswith("The slip printer is offline (cover open, paper out or "
                                     "an error light): close the cover")


def test_paper_that_runs_out_while_printing_keeps_the_whole_slip(tmp_path: Path) -> None:
    printer = StatusDummy(paper=[PAPER_OK, PAPER_OUT])
    result = SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(
        slip("house-bank"))
    assert printer.output != b"" and not result.printed and result.kept is not None
    assert "The paper ran out while the slip was printing, so the printed slip may be cut short"\
        in result.message


def test_a_printer_error_part_way_through_keeps_the_whole_slip(tmp_path: Path) -> None:
    printer = FailingDummy(after=20)
    result = SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(
        slip("house-bank"))
    assert not result.printed and result.kept is not None
    assert result.message.startswith("The slip printer stopped while printing (printer error: "
                                     "paper jam), so the printed slip may be cut short")
    assert printer.closed


def test_a_cable_pulled_while_printing_keeps_the_whole_slip(tmp_path: Path) -> None:
    printer = FailingDummy(after=3, error=BrokenPipeError(32, "Broken pipe"))
    result = SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(
        slip("house-bank"))
    assert result.problem is not None and result.problem.code == "stopped"
    assert "(Broken pipe)" in result.message and result.kept is not None


def test_paper_running_low_prints_and_tells_the_dealer_to_change_the_roll(tmp_path: Path
                                                                          ) -> None:
    printer = StatusDummy(paper=PAPER_LOW)
    result = SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(
        slip("house-bank"), time=TIME)
    assert result.printed and result.kept is None
    assert result.message == "The printer's paper is running low: change the roll soon."
    assert printer.output == golden("house-bank.42.bin", b"")


def test_no_printer_set_up_prints_nothing_keeps_nothing_and_says_how_to_set_one(
        tmp_path: Path) -> None:
    cfg = config(tmp_path, kind="none")
    result = SlipPrinter(cfg).print_slip(slip("house-bank"))
    assert not result.printed and result.kept is None
    assert result.message.startswith('No slip printer is set up at this station ([printer] '
                                     'kind = "none"): set the printer\'s kind')
    assert _kept_files(cfg) == []


def test_a_queue_that_cannot_be_written_says_to_reprint_from_the_ledger(tmp_path: Path
                                                                        ) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    cfg = config(tmp_path, path=str(tmp_path / "gone" / "lp0"), queue_dir=str(blocker / "q"))
    result = SlipPrinter(cfg).print_slip(slip("house-bank"))
    assert not result.printed and result.kept is None and result.lost
    assert "could not be kept either" in result.message
    assert "reprint it from the round's record in the ledger" in result.message


# --- the queue ----------------------------------------------------------------------------

def test_the_same_slip_failing_twice_is_kept_once(tmp_path: Path) -> None:
    cfg = config(tmp_path, path=str(tmp_path / "gone" / "lp0"))
    printer = SlipPrinter(cfg)
    printer.print_slip(slip("house-bank"))
    second = printer.print_slip(slip("house-bank"))
    assert len(_kept_files(cfg)) == 1
    assert second.kept is not None and second.kept.tries == 2


def test_kept_slips_survive_the_station_restarting(tmp_path: Path) -> None:
    cfg = config(tmp_path, path=str(tmp_path / "gone" / "lp0"))
    SlipPrinter(cfg).print_slip(slip("house-bank"))
    SlipPrinter(cfg).print_slip(slip("co-bank"))
    kept = SlipPrinter(cfg).kept()  # a new printer object, as after a restart
    assert [k.round for k in kept] == [1, 9]
    assert not list(cfg.queue_path.glob(".*.tmp"))


def test_a_reprint_prints_every_kept_slip_once_oldest_first_marked_printed_late(
        tmp_path: Path) -> None:
    cfg = config(tmp_path)
    out = StatusDummy(paper=PAPER_OUT)
    printer = SlipPrinter(cfg, connect=connect_to(out), clock=lambda: TIME)
    for name in ("house-bank", "co-bank", "player-bank-runs-out"):
        assert printer.print_slip(slip(name)).kept is not None
    assert out.output == b""
    fixed = Dummy()
    later = SlipPrinter(cfg, connect=connect_to(fixed), clock=lambda: LATER)
    result = later.reprint_kept()
    assert [k.round for k in result.printed] == [1, 9, 8] and result.problem is None
    assert result.message == "Reprinted 3 kept slips."
    text = fixed.output.decode("ascii", "replace")
    assert text.count("PAI GOW POKER SETTLEMENT") == 3
    assert text.count("      PRINTED LATE 2025-03-14 21:16\n") == 3
    assert text.count("        (first try: out of paper)\n") == 3
    assert "2025-03-14 21:07:33" in text  # the slip keeps the time of its round
    assert _kept_files(cfg) == []
    again = later.reprint_kept()
    assert again.printed == () and again.message.startswith("No slips are kept")
    assert fixed.output.count(b"PAI GOW POKER SETTLEMENT") == 3  # no duplicate


def test_a_reprint_stops_at_the_first_failure_and_keeps_the_rest_in_order(tmp_path: Path
                                                                          ) -> None:
    cfg = config(tmp_path)
    down = SlipPrinter(cfg, connect=connect_to(StatusDummy(paper=PAPER_OUT)),
                       clock=lambda: TIME)
    for name in ("house-bank", "co-bank", "player-bank-runs-out"):
        down.print_slip(slip(name))
    flaky = StatusDummy(paper=[PAPER_OK, PAPER_OK, PAPER_OUT])  # before, after, then out
    result = SlipPrinter(cfg, connect=connect_to(flaky)).reprint_kept()
    assert [k.round for k in result.printed] == [1]
    assert [k.round for k in result.left] == [9, 8] and result.left[0].tries == 2
    assert "out of paper" in result.message and "2 slips are still kept" in result.message
    assert [k.round for k in SlipPrinter(cfg).kept()] == [9, 8]


def test_two_reprints_at_once_never_print_a_slip_twice(tmp_path: Path) -> None:
    cfg = config(tmp_path, path=str(tmp_path / "gone" / "lp0"))
    for name in ("house-bank", "co-bank", "player-bank-runs-out", "high-limit"):
        SlipPrinter(cfg).print_slip(slip(name))

    class Slow(Dummy):
        def _raw(self, msg: bytes) -> None:
            time.sleep(0.0005)
            super()._raw(msg)

    outputs = [Slow(), Slow()]
    results = []

    def reprint(i: int) -> None:
        results.append(SlipPrinter(cfg, connect=connect_to(outputs[i])).reprint_kept())

    threads = [threading.Thread(target=reprint, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    printed = sum(o.output.count(b"PAI GOW POKER SETTLEMENT") for o in outputs)
    assert printed == 4 and sum(len(r.printed) for r in results) == 4


def test_a_reprint_from_the_ledger_is_marked_reprint(tmp_path: Path) -> None:
    out = Dummy()
    result = SlipPrinter(config(tmp_path), connect=connect_to(out), clock=lambda: LATER
                         ).print_slip(slip("house-bank"), duplicate=True, time=TIME)
    assert result.printed
    assert b"REPRINT 2025-03-14 21:16" in out.output


def test_a_kept_reprint_from_the_ledger_stays_marked_reprint(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    SlipPrinter(cfg, connect=connect_to(StatusDummy(online=OFFLINE))).print_slip(
        slip("house-bank"), duplicate=True)
    out = Dummy()
    SlipPrinter(cfg, connect=connect_to(out), clock=lambda: LATER).reprint_kept()
    assert b"REPRINT 2025-03-14 21:16" in out.output and b"PRINTED LATE" not in out.output


def test_an_unreadable_kept_file_is_set_aside_not_lost_and_the_rest_reprint(tmp_path: Path
                                                                            ) -> None:
    cfg = config(tmp_path)
    SlipPrinter(cfg, connect=connect_to(StatusDummy(paper=PAPER_OUT))).print_slip(
        slip("co-bank"))
    bad = cfg.queue_path / "00000000000000000000-PG-1-r7-0000000000000000.json"
    bad.write_text("{ half a slip")
    out = Dummy()
    result = SlipPrinter(cfg, connect=connect_to(out)).reprint_kept()
    assert [k.round for k in result.printed] == [9]
    aside = Path(result.set_aside[0])
    assert aside.name.endswith(".json.unreadable") and aside.read_text() == "{ half a slip"
    assert "set aside" in result.message and "reprint that round from the ledger" \
        in result.message


def test_a_printed_slip_says_how_many_earlier_slips_wait(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    SlipPrinter(cfg, connect=connect_to(StatusDummy(paper=PAPER_OUT))).print_slip(
        slip("co-bank"))
    result = SlipPrinter(cfg, connect=connect_to(Dummy())).print_slip(slip("house-bank"))
    assert result.printed and result.waiting == 1
    assert result.message == "1 earlier slip is kept: press Reprint to print it."


def test_reprint_with_no_printer_set_up_keeps_everything(tmp_path: Path) -> None:
    cfg = config(tmp_path, path=str(tmp_path / "gone" / "lp0"))
    SlipPrinter(cfg).print_slip(slip("co-bank"))
    none = config(tmp_path, kind="none")
    result = SlipPrinter(none).reprint_kept()
    assert result.printed == () and len(result.left) == 1
    assert isinstance(result.problem, PrinterProblem)
    assert len(ReprintQueue(cfg.queue_path).pending()) == 1
