"""The slip on an ESC/POS printer: the bytes python-escpos produces, checked byte for byte
against golden files made with its Dummy printer; the same bytes through its File,
Network and Serial devices; the status asked before and after printing."""

from __future__ import annotations

import os
import pty
import socket
import threading
import tty
from pathlib import Path

import pytest
from escpos.constants import (
    HW_INIT,
    PAPER_FULL_CUT,
    RT_STATUS_ONLINE,
    RT_STATUS_PAPER,
    TXT_NORMAL,
    TXT_STYLE,
)
from escpos.printer import Dummy

from drivers.printer.device import connect, write_slip
from drivers.printer.layout import slip_lines, styled_lines
from drivers.printer.printer import SlipPrinter

from .helpers import (
    LATER,
    NAMES,
    PAPER_OK,
    TIME,
    SilentDummy,
    StatusDummy,
    config,
    connect_to,
    golden,
    slip,
)

WIDTHS = (42, 48)


def dummy_bytes(name: str, columns: int) -> bytes:
    printer = Dummy()
    write_slip(printer, styled_lines(slip(name), columns, time=TIME))
    return printer.output


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_the_escpos_bytes_match_the_dummy_printers_golden_file(name: str, columns: int,
                                                                tmp_path: Path) -> None:
    printer = Dummy()
    result = SlipPrinter(config(tmp_path, columns=columns), connect=connect_to(printer),
                         clock=lambda: LATER).print_slip(slip(name), time=TIME)
    assert result.printed and result.message == ""
    assert printer.output == golden(f"{name}.{columns}.bin", printer.output)
    assert printer.output == dummy_bytes(name, columns)


def test_the_job_resets_the_printer_prints_every_line_and_cuts() -> None:
    out = dummy_bytes("house-bank", 42)
    assert out.startswith(HW_INIT)
    assert out.endswith(PAPER_FULL_CUT)
    for line in slip_lines(slip("house-bank"), 42, time=TIME):
        assert line.encode("ascii") + b"\n" in out


def test_the_title_is_bold_and_double_height_and_the_headings_bold() -> None:
    out = dummy_bytes("house-bank", 42)
    bold_on, bold_off = TXT_STYLE["bold"][True], TXT_STYLE["bold"][False]
    title = b"         PAI GOW POKER SETTLEMENT\n"
    assert TXT_STYLE["size"]["2h"] + bold_on + title in out
    after = out[out.index(title) + len(title):]
    assert after.startswith(TXT_NORMAL + TXT_STYLE["size"]["normal"] + bold_off + b"=====")
    heading = out.index(b"Seat 5                                LOSE")
    assert out[:heading].endswith(bold_on)
    assert out[heading:].startswith(b"Seat 5                                LOSE\n" + bold_off)


def test_the_printer_is_asked_for_paper_and_online_before_and_after_printing(
        tmp_path: Path) -> None:
    printer = StatusDummy()
    SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(slip("co-bank"),
                                                                          time=TIME)
    assert printer.queries == [RT_STATUS_ONLINE, RT_STATUS_PAPER] * 2
    assert printer.output == golden("co-bank.42.bin", printer.output)
    assert printer.closed


def test_no_status_is_asked_when_check_status_is_off(tmp_path: Path) -> None:
    printer = StatusDummy()
    SlipPrinter(config(tmp_path, check_status=False), connect=connect_to(printer)).print_slip(
        slip("co-bank"), time=TIME)
    assert printer.queries == []
    assert printer.output == golden("co-bank.42.bin", printer.output)


def test_a_printer_that_never_answers_status_still_prints(tmp_path: Path) -> None:
    printer = SilentDummy()
    result = SlipPrinter(config(tmp_path), connect=connect_to(printer)).print_slip(
        slip("co-bank"), time=TIME)
    assert result.printed
    assert printer.queries == [RT_STATUS_ONLINE, RT_STATUS_ONLINE]  # no paper query after
    assert printer.output == golden("co-bank.42.bin", printer.output)


# --- the library's devices ----------------------------------------------------------------

def test_a_file_device_receives_the_golden_bytes(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    result = SlipPrinter(cfg).print_slip(slip("house-bank"), time=TIME)
    assert result.printed
    assert (tmp_path / "lp0").read_bytes() == golden("house-bank.42.bin", b"")


class _NetworkPrinter:
    """A printer on a TCP port: answers the status queries, records everything else."""

    def __init__(self, paper: bytes = PAPER_OK) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.paper = paper
        self.received = b""
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with conn:
            while chunk := conn.recv(4096):
                for query, answer in ((RT_STATUS_ONLINE, b"\x12"), (RT_STATUS_PAPER,
                                                                    self.paper)):
                    while query in chunk:
                        chunk = chunk.replace(query, b"", 1)
                        conn.sendall(answer)
                self.received += chunk
        self.server.close()


def test_a_network_device_receives_the_golden_bytes_and_is_asked_its_status(
        tmp_path: Path) -> None:
    fake = _NetworkPrinter()
    cfg = config(tmp_path, kind="network", host="127.0.0.1", tcp_port=fake.port, timeout=5.0)
    result = SlipPrinter(cfg).print_slip(slip("player-bank-runs-out"), time=TIME)
    fake.thread.join(5)
    assert result.printed
    assert fake.received == golden("player-bank-runs-out.42.bin", b"")


def test_a_serial_device_receives_the_golden_bytes(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    try:
        cfg = config(tmp_path, kind="serial", port=os.ttyname(slave), baud=19200,
                     check_status=False, columns=48)
        received = bytearray()
        done = threading.Event()

        def read() -> None:
            want = golden("house-bank.48.bin", b"")
            while len(received) < len(want):
                received.extend(os.read(master, 4096))
            done.set()

        threading.Thread(target=read, daemon=True).start()
        result = SlipPrinter(cfg).print_slip(slip("house-bank"), time=TIME)
        assert result.printed
        assert done.wait(5)
        assert bytes(received) == golden("house-bank.48.bin", b"")
    finally:
        os.close(master)
        os.close(slave)


def test_the_configured_device_is_the_librarys_own(tmp_path: Path) -> None:
    from escpos.printer import File

    printer = connect(config(tmp_path))
    try:
        assert isinstance(printer, File) and printer.devfile == str(tmp_path / "lp0")
    finally:
        printer.close()
