"""The dealer's window under pytest-qt (offscreen): a station with a fixed deck, the window
bound to a dealer session, driven by keys and clicks."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.core.cards import Card, card
from app.core.round import Phase, RoundRules
from app.ledger import Recording, Store
from app.session import DealerSession
from app.station import Jobs, Ledger
from app.station import Station as CoreStation
from app.ui import main as station_main
from app.ui.closing import CloseGuard
from app.ui.pit import PitController, VouchedSupervisors
from app.ui.screenshots import SHOWCASE, SHOWCASE_RNG, stacked_deck
from app.ui.services import Printer, StationPrinter
from app.ui.shoe import DemoShoe, ShoeFeed
from app.ui.window import MainWindow
from app.ui.worker import Worker
from tests.ledger.migrated import migrated_sqlite

SHOWCASE_ACTION = 3  # RNG 4 counts the dealer as 1: seat 3


@dataclass
class Station:
    window: MainWindow
    session: DealerSession
    shoe: ShoeFeed
    qtbot: object

    @property
    def recording(self) -> Recording | None:
        """The round the ledger records, once the worker has written what is queued."""
        port = self.window.ledger
        if port is None:
            return None
        self.recorded()
        return port.recording

    def recorded(self) -> None:
        """Until the worker has confirmed every ledger write given so far."""
        port = self.window.ledger
        if port is not None:
            self.qtbot.waitUntil(lambda: port.pending == 0, timeout=60_000)

    def polled(self) -> None:
        """The status bar asks the printer and the ledger again (on the worker)."""
        self.window.poll_devices()
        self.qtbot.waitUntil(lambda: not self.window._polling, timeout=60_000)
        self.qtbot.waitUntil(lambda: not self.window._polling, timeout=60_000)

    def key(self, key: str | Qt.Key, shift: bool = False) -> None:
        """A key pressed on the felt (where the dealer's focus rests)."""
        target = self.window.focusWidget() or self.window.felt
        modifier = Qt.KeyboardModifier.ShiftModifier if shift else \
            Qt.KeyboardModifier.NoModifier
        self.qtbot.keyClick(target, key, modifier)

    def everyone_passes(self) -> None:
        """Shift+Q: every seat still to be asked passes the bank or the dragon."""
        self.key("Q", shift=True)

    def type(self, text: str) -> None:
        """Type into whatever has the focus (a field the last key opened) and press Enter."""
        target = self.window.focusWidget()
        self.qtbot.keyClicks(target, text)
        self.qtbot.keyClick(target, Qt.Key.Key_Return)

    def click_card(self, position: int, text: str) -> None:
        seat = self.window.felt.seats[position]
        wanted = card(text)
        for cw in seat.cards:
            if cw.card is wanted:
                self.qtbot.mouseClick(cw, Qt.MouseButton.LeftButton,
                                      pos=cw.face_rect().center().toPoint())
                return
        raise AssertionError(f"{text} is not shown at position {position}")

    def click(self, action: str) -> None:
        self.qtbot.mouseClick(self.window.panel.buttons[action], Qt.MouseButton.LeftButton)

    def wait_phase(self, phase: Phase) -> None:
        def reached() -> None:
            assert self.session.round is not None
            assert self.session.round.phase is phase

        self.qtbot.waitUntil(reached, timeout=60_000)

    def seat(self, position: int):  # noqa: ANN201 - the SeatView
        return self.window.felt.seats[position]

    @property
    def message(self) -> str:
        # as the dealer reads it: the word joiners that keep "+$5.00" on one line show nothing
        return self.window.panel.message.text().replace("\u2060", "")


# The ledger's people in these tests (docs/ledger.md, "People"): never real secrets.
MANAGER, MANAGER_SECRET = "Ana Ruiz", "ana-knows-77"
SUPERVISOR, SUPERVISOR_SECRET = "Pat Lee", "tiger-lily-42"
AUDITOR, AUDITOR_SECRET = "Dee Fox", "ledger-eyes-9"


def add_people(store: Store) -> None:
    """A shift manager (the first), a pit supervisor and an auditor in the ledger, and the
    store's key enrolled."""
    if store.has_people():
        return
    store.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
    ana = store.authorise(MANAGER, MANAGER_SECRET, "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=ana)
    store.add_person(AUDITOR, "auditor", AUDITOR_SECRET, by=ana)
    # and the station's signing key, as a supervisor enrolls it at installation
    store.enroll(store.authorise(MANAGER, MANAGER_SECRET, "enroll"))


def supervised(data_dir: Path) -> Path:
    """The station's default ledger in `data_dir` with people in it, as a station on a
    table has (a station refuses to start without); `data_dir` back."""
    with Store(migrated_sqlite(data_dir / "ledger.sqlite"), data_dir=data_dir) as store:
        add_people(store)
    return data_dir


@pytest.fixture(autouse=True)
def _closing_asks_no_supervisor(request: pytest.FixtureRequest,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A station built by app.ui.main asks a supervisor before its window closes; the tests
    that are not about closing close it as a stop signal does. Those about closing ask for
    the `close_needs_a_supervisor` fixture."""
    if "close_needs_a_supervisor" in request.fixturenames:
        return

    class Unguarded(CloseGuard):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)  # type: ignore[arg-type]
            self.forced = True

    monkeypatch.setattr(station_main, "CloseGuard", Unguarded)


@pytest.fixture
def close_needs_a_supervisor() -> None:
    """The window's close asks for a supervisor, as on a table."""


@pytest.fixture(autouse=True)
def station_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's station keeps its ledger, journal and kept slips in its own directory,
    never in the user's, and reads no PAIGOW_ variable of the machine running the tests."""
    data = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    for name in list(os.environ):
        if name.startswith("PAIGOW_") and name != "PAIGOW_CACHE_DIR":  # tables, not config
            monkeypatch.delenv(name)
    return data / "paigow-station"


@pytest.fixture
def make_station(qtbot) -> Callable[..., Station]:  # noqa: ANN001
    def make(hands: Mapping[int, str] = SHOWCASE, action: int = SHOWCASE_ACTION,
             rng: int = SHOWCASE_RNG, rules: RoundRules | None = None, online: bool = True,
             deck: tuple[Card, ...] | None = None, shoe: ShoeFeed | None = None,
             decks: list[tuple[Card, ...]] | None = None, ledger: Ledger | None = None,
             printer: Printer | None = None) -> Station:
        rules = rules or RoundRules()
        if shoe is None:
            decks = decks or [deck or stacked_deck(hands, action, rules.table)] * 3
            shoe = DemoShoe(decks, interval_ms=0)
            if not online:
                shoe.set_online(False)
        window = MainWindow()
        qtbot.addWidget(window)
        jobs = Jobs()
        station = CoreStation(
            rules, ledger=ledger, jobs=jobs, writes=Worker(window, jobs=jobs),
            printer=StationPrinter(printer, ledger.store.head_code if ledger is not None
                                   else lambda: None) if printer is not None else None,
            randbelow=lambda n: rng,
            supervisors=VouchedSupervisors(ledger.store) if ledger is not None else None)
        session = station.session
        window.bind(station, shoe, printer=printer, pit=PitController(window))
        window.resize(1920, 1080)
        window.show()
        with qtbot.waitActive(window, timeout=60_000):
            window.activateWindow()
        window.felt.setFocus()
        return Station(window, session, shoe, qtbot)

    return make
