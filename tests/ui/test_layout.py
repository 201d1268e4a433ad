"""The window fits a 1280x800 station screen whatever its devices say: each status is a word
or two (the whole story in its tooltip), the ledger's banner takes only the room there is.
Issue 6: a shoe configured but unplugged made the shoe's label ~1500 px wide and pushed the
window out of full screen."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.banker import BankRotation
from app.core.round import RoundRules
from app.core.table import Table
from app.ledger import LedgerStatus
from app.station import Jobs, Ledger, Station
from app.ui.main import build, parse_args
from app.ui.services import Printer, StationPrinter
from app.ui.shoe import DemoShoe, NoShoe, SerialShoe, ShoeFeed
from app.ui.supervisor import SupervisorWindow
from app.ui.window import MainWindow
from app.ui.worker import Worker
from drivers.printer.config import PrinterConfig

from .conftest import supervised
from .test_station import make_ledger

SCREEN = (1280, 800)
LONG_REASON = ("The slip printer is offline (cover open, paper out or an error light): close "
               "the cover, check the paper and that the error light is off, then reprint. The "
               "slip of round 1234 is kept: once the printer is ready, press Reprint (or run "
               "`paigow print-slip --reprint`).")


class StubLedger:
    """A ledger whose database refused a record: the longest banner there is."""

    def __init__(self) -> None:
        status = LedgerStatus("postgresql://paigow@db.casino.example/paigow", True, 1234,
                              None, None, None, "duplicate key value violates unique "
                              "constraint \"rounds_pkey\" DETAIL: Key (id)=(" + "f" * 36
                              + ") already exists.")
        self.dealer = "Maximiliana Bartholomew-Featherstonehaugh"

        self.since = None
        self._status = status

    def status(self) -> LedgerStatus:
        return self._status

    def start(self, jobs: object) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def shoes(tmp_path: Path) -> Iterator[dict[str, ShoeFeed]]:
    unplugged = SerialShoe(str(tmp_path / "nope"))  # configured, not there
    demo_out = DemoShoe([])
    demo_out.set_online(False)
    made = {"serial unplugged": unplugged, "none": NoShoe(), "demo online": DemoShoe([]),
            "demo unplugged": demo_out}
    yield made
    for shoe in made.values():
        shoe.close()


def printers(tmp_path: Path) -> dict[str, Printer]:
    none = Printer(PrinterConfig(kind="none"))
    ready = Printer(PrinterConfig(kind="file", path=str(tmp_path / "lp0"),
                                  queue_dir=str(tmp_path / "kept")))
    gone = Printer(PrinterConfig(kind="file", path="/dev/usb/lp-not-here",
                                 queue_dir=str(tmp_path / "kept")))
    failed = Printer(PrinterConfig(kind="network", host="printer-at-the-far-end.casino.lan",
                                   queue_dir=str(tmp_path / "kept")))
    failed.problem, failed.message, failed.kept_count = "offline", LONG_REASON, 12
    return {"none": none, "ready": ready, "unplugged": gone, "failed": failed}


# make test: every two devices' states side by side (16 windows: shoe i, printer j, ledger
# i + j, a Latin square); make proof, which CI runs too: all 64 (0.15 s of CPU a window).
SIDE_BY_SIDE = tuple((s, p, (s + p) % 4) for s in range(4) for p in range(4))


def test_the_window_fits_1280x800_with_every_two_device_states_side_by_side(
        qtbot, tmp_path, shoes):
    _fits_in_every_state(qtbot, tmp_path, shoes, SIDE_BY_SIDE)


@pytest.mark.proof
def test_the_window_fits_1280x800_in_every_device_state(qtbot, tmp_path, shoes):
    _fits_in_every_state(qtbot, tmp_path, shoes,
                         tuple(itertools.product(range(4), range(4), range(4))))


def _fits_in_every_state(qtbot, tmp_path, shoes, combinations):
    dead = make_ledger(tmp_path / "dead", "postgresql://paigow@127.0.0.1:9/paigow",
                       dealer="Kim")
    dead.store.drain()  # asked once, as a station's start does: nobody answers
    assert not dead.status().online
    ledgers: dict[str, object] = {"none": None, "recording": make_ledger(tmp_path / "ok"),
                                  "offline": dead, "refused": StubLedger()}
    table = Table(name="THE-LONGEST-TABLE-NAME-IN-THE-HOUSE-0001")
    seen: set[str] = set()
    states = (list(shoes.items()), list(printers(tmp_path).items()), list(ledgers.items()))
    for s, p, lg in combinations:
        (sname, shoe), (pname, printer), (lname, ledger) = (
            states[0][s], states[1][p], states[2][lg])
        window = MainWindow()
        qtbot.addWidget(window)
        jobs = Jobs()
        station = Station(RoundRules(table=table), ledger=ledger,  # type: ignore[arg-type]
                          printer=StationPrinter(printer), rotation=BankRotation(),
                          jobs=jobs, writes=Worker(window, jobs=jobs))
        window.bind(station, shoe, printer=printer)
        window.resize(*SCREEN)
        window.show()
        qtbot.waitUntil(lambda w=window: not w._polling, timeout=60_000)  # the status bar asked
        hint = window.minimumSizeHint()
        where = f"shoe {sname}, printer {pname}, ledger {lname}"
        assert hint.width() <= SCREEN[0] and hint.height() <= SCREEN[1], (where, hint)
        assert (window.width(), window.height()) == SCREEN, where
        labels = [d.text() for d in window.devices]
        assert all(len(t) <= 24 for t in labels), (where, labels)
        assert all(d.sizeHint().width() < 260 for d in window.devices), (where, labels)
        seen.update(labels)
        if lname in ("offline", "refused"):
            assert window.banner.isVisible() and window.banner.text().startswith("Ledger")
            assert window.banner.geometry().right() < window.pit_button.geometry().left()
            assert window.banner.toolTip() == window.banner.text()
        window.close()
    assert {"Shoe: offline", "Shoe: none", "Shoe: online", "Shoe: unplugged",
            "Printer: none", "Printer: ready", "Printer: not connected", "Printer: offline",
            "Database: not recording", "Database: recording", "Database: offline",
            "Database: refused"} <= seen


def test_the_shoe_configured_but_unplugged_keeps_the_station_full_screen(qtbot, tmp_path):
    """The issue's own steps: paigow-dealer --fullscreen --shoe /tmp/nope."""
    data = supervised(tmp_path / "d")  # a station on a table has its supervisors
    window = build(parse_args(["--fullscreen", "--shoe", str(tmp_path / "nope"),
                                  "--data-dir", str(data), "--dealer", "Kim"]))
    qtbot.addWidget(window)
    window.showFullScreen()
    qtbot.waitUntil(lambda: "No shoe at" in window.devices[0].toolTip(), timeout=60_000)
    assert window.devices[0].text() == "Shoe: offline"
    assert "check that it is plugged in and switched on" in window.devices[0].toolTip()
    hint = window.minimumSizeHint()
    assert hint.width() <= SCREEN[0] and hint.height() <= SCREEN[1], hint
    assert window.isFullScreen()
    window.close()


def test_the_pit_view_fits_1280x800(make_station, tmp_path):
    s = make_station(ledger=make_ledger(tmp_path))
    pit = s.window.toggle_pit()
    assert isinstance(pit, SupervisorWindow)
    hint = pit.minimumSizeHint()
    assert hint.width() <= SCREEN[0] and hint.height() <= SCREEN[1], hint
    assert pit.width() <= SCREEN[0] and pit.height() <= SCREEN[1]
    void = pit.open_void()
    assert void.minimumSizeHint().height() <= SCREEN[1]
    assert s.window.ledger is not None and isinstance(s.window.ledger.ledger, Ledger)


def test_the_keys_the_window_binds_are_the_registrys_and_every_command_is_in_the_docs(
        make_station):
    """DESIGN.md: every dealer command is declared once; keys, buttons and help read it."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent, QKeySequence

    from app.session import COMMANDS, help_rows, keymap
    from app.ui.window import key_name

    s = make_station()
    for key in keymap():  # each key of the registry reaches the session by its own name
        combo = QKeySequence(key)[0]
        text = key.removeprefix("Shift+") if len(key.removeprefix("Shift+")) == 1 else ""
        event = QKeyEvent(QEvent.Type.KeyPress, combo.key(), combo.keyboardModifiers(), text)
        assert key_name(event) == key
    for name, button in s.window.panel.buttons.items():
        command = next(c for c in COMMANDS if c.id == name)
        assert button.text() == f"{command.button}  [{command.label}]"
    text = (Path(__file__).resolve().parents[2] / "docs" / "station.md").read_text()
    for row in help_rows(s.session):
        assert f"| {row.key} | {row.words} |" in text, row.key


def test_the_dealers_keys_do_nothing_in_the_pit_view(make_station, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    s = make_station()
    pit = s.window.toggle_pit()
    assert pit is not None
    qtbot.waitExposed(pit)
    pit.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is pit, timeout=60_000)
    qtbot.keyClicks(pit.check_chips, "N1234")  # typed into the pit's field, not keys
    assert s.session.round is None and s.session.keyboard.selected is None
    assert pit.check_chips.text() == "N1234"
    qtbot.keyClick(pit.check_chips, Qt.Key.Key_Escape)
    assert not pit.isVisible()
