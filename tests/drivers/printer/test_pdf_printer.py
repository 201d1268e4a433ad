"""`[printer] kind = "pdf"`: a station with no slip printer at hand (the demo, a back office)
saves each settled round's slip as its own PDF file in the folder `path`, read back here
with pypdf."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from app.settings import load_config
from drivers.printer.config import PrinterConfig
from drivers.printer.printer import SlipPrinter

from .helpers import TIME, slip


def _text(path: Path) -> str:
    return re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(path).pages))


def _printer(folder: Path) -> SlipPrinter:
    return SlipPrinter(PrinterConfig(kind="pdf", path=str(folder),
                                     queue_dir=str(folder / "kept")))


def test_each_slip_is_saved_as_a_pdf_that_reads_back_its_round(tmp_path: Path) -> None:
    folder = tmp_path / "slips"  # made when the first slip is saved
    printer = _printer(folder)
    s = slip("house-bank")
    result = printer.print_slip(s, time=TIME)
    assert result.printed and result.problem is None and result.message == ""
    saved = folder / f"Round-{s['round']}.pdf"
    assert printer.last_file == saved
    text = _text(saved)
    assert f"Table {s['table']} - Round {s['round']}" in text
    assert "2025-03-14 21:07:33" in text
    assert printer.kept() == []


def test_a_second_copy_of_a_round_never_overwrites_the_first(tmp_path: Path) -> None:
    printer = _printer(tmp_path)
    s = slip("co-bank")
    printer.print_slip(s, time=TIME)
    first = (tmp_path / f"Round-{s['round']}.pdf").read_bytes()
    assert printer.print_slip(s, duplicate=True, time=TIME).printed
    again = tmp_path / f"Round-{s['round']}-2.pdf"
    assert (tmp_path / f"Round-{s['round']}.pdf").read_bytes() == first
    assert "REPRINT" in _text(again)


def test_a_folder_the_station_cannot_write_keeps_the_slip(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    printer = SlipPrinter(PrinterConfig(kind="pdf", path=str(blocker),
                                        queue_dir=str(tmp_path / "kept")))
    result = printer.print_slip(slip("house-bank"), time=TIME)
    assert not result.printed and result.kept is not None
    assert "could not be saved as a PDF" in result.message
    assert len(printer.kept()) == 1


def test_a_site_file_sets_up_pdf_slips(tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text('[printer]\nkind = "pdf"\npath = "/var/lib/paigow/slips"\n')
    printer = load_config(site, env={}).printer_config()
    assert (printer.kind, printer.path) == ("pdf", "/var/lib/paigow/slips")
    assert printer.where == "PDF files in /var/lib/paigow/slips"


@pytest.mark.parametrize("path", ["", "/dev/usb/lp0"])
def test_pdf_slips_need_a_folder_not_a_device(path: str) -> None:
    with pytest.raises(ValueError, match='kind is "pdf": name the folder'):
        PrinterConfig(kind="pdf", path=path)
