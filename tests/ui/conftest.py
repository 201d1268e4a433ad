"""The dealer's window under pytest-qt (offscreen): a station with a fixed deck."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.core.cards import Card, card
from app.core.round import Phase, RoundRules
from app.ui.controller import DealerController
from app.ui.pit import PitController
from app.ui.screenshots import SHOWCASE, SHOWCASE_RNG, stacked_deck
from app.ui.services import Ledger, Printer
from app.ui.shoe import DemoShoe, ShoeFeed
from app.ui.window import MainWindow

SHOWCASE_ACTION = 3  # RNG 4 counts the dealer as 1: seat 3


@dataclass
class Station:
    window: MainWindow
    controller: DealerController
    shoe: ShoeFeed
    qtbot: object

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
            assert self.controller.round is not None
            assert self.controller.round.phase is phase

        self.qtbot.waitUntil(reached, timeout=5000)

    def seat(self, position: int):  # noqa: ANN201 - the SeatView
        return self.window.felt.seats[position]

    @property
    def message(self) -> str:
        return self.window.panel.message.text()


@pytest.fixture(autouse=True)
def station_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's station keeps its ledger, journal and kept slips in its own directory,
    never in the user's, and reads no PAIGOW_ variable of the machine running the tests."""
    data = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    for name in list(os.environ):
        if name.startswith("PAIGOW_"):
            monkeypatch.delenv(name)
    return data / "paigow-station"


@pytest.fixture
def make_station(qtbot) -> Callable[..., Station]:  # noqa: ANN001
    def make(hands: Mapping[int, str] = SHOWCASE, action: int = SHOWCASE_ACTION,
             rng: int = SHOWCASE_RNG, rules: RoundRules | None = None, online: bool = True,
             deck: tuple[Card, ...] | None = None, shoe: ShoeFeed | None = None,
             decks: list[tuple[Card, ...]] | None = None, ledger: Ledger | None = None,
             printer: Printer | None = None, pin: str | None = None) -> Station:
        rules = rules or RoundRules()
        if shoe is None:
            decks = decks or [deck or stacked_deck(hands, action, rules.table)] * 3
            shoe = DemoShoe(decks, interval_ms=0)
            if not online:
                shoe.set_online(False)
        controller = DealerController(rules, shoe, randbelow=lambda n: rng, ledger=ledger,
                                      printer=printer)
        window = MainWindow()
        qtbot.addWidget(window)
        window.bind(controller, PitController(controller, pin=pin) if pin else None)
        window.resize(1920, 1080)
        window.show()
        with qtbot.waitActive(window, timeout=3000):
            window.activateWindow()
        window.felt.setFocus()
        return Station(window, controller, shoe, qtbot)

    return make
