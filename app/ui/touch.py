"""A finger instead of a key: the least size of a touch target on this screen, and the
on-screen keypad an amount (or the dice) is typed with when no keyboard is at the table.

The keypad sends the registry's key names (docs/keyboard.md) to the window, exactly as the
keyboard does: the session decides what a key does, so a tap and a key press can never
disagree."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QGridLayout, QPushButton, QStackedLayout, QWidget

TARGET_MM = 9.0  # a fingertip's least target (touch guidelines give 7-10 mm)
MM_PER_INCH = 25.4
# A 15.6" 1366x768 screen is about 100 DPI. A screen that reports no size, or one far
# outside what a table's monitor can be (a virtual screen), is taken to be one of those.
ASSUMED_DPI = 100.0
PLAUSIBLE_DPI = (60.0, 400.0)


def screen_dpi(screen: QScreen | None) -> float:
    """The screen's physical dots per inch, as the monitor reports its size."""
    if screen is None:
        return ASSUMED_DPI
    dpi = screen.physicalDotsPerInch()
    low, high = PLAUSIBLE_DPI
    return dpi if low <= dpi <= high else ASSUMED_DPI


def target_px(screen: QScreen | None, mm: float = TARGET_MM) -> int:
    """The least side of a touch target, in the window's pixels, on `screen`."""
    dpi = screen_dpi(screen)
    ratio = screen.devicePixelRatio() if screen is not None else 1.0
    return math.ceil(mm / MM_PER_INCH * dpi / max(ratio, 1.0))


# (label, the registry's key name); None leaves the cell empty.
KEYS: tuple[tuple[tuple[str, str] | None, ...], ...] = (
    (("7", "7"), ("8", "8"), ("9", "9"), ("\u232b", "Backspace")),
    (("4", "4"), ("5", "5"), ("6", "6"), ("Esc", "Esc")),
    (("1", "1"), ("2", "2"), ("3", "3"), None),
    (("0", "0"), (".", "."), ("\u2423", "Space"), None),
)
OK = ("OK", "Enter")  # two rows tall in the last column, as on a bank's keypad
# Cards (the shoe offline, a front typed): the ranks, the suits (typed as their letters, as
# the keyboard does), the joker as J and K, a space between cards.
CARD_KEYS: tuple[tuple[tuple[str, str] | None, ...], ...] = (
    (("A", "A"), ("K", "K"), ("Q", "Q"), ("J", "J"), ("T", "T")),
    (("9", "9"), ("8", "8"), ("7", "7"), ("6", "6"), ("5", "5")),
    (("4", "4"), ("3", "3"), ("2", "2"), ("\u2423", "Space"), ("\u232b", "Backspace")),
    (("\u2660", "S"), ("\u2665", "H"), ("\u2666", "D"), ("\u2663", "C"), None),
    (("Esc", "Esc"), None, None, ("OK", "Enter"), None),
)


class Keypad(QWidget):
    """Two pads, one shown at a time: for an amount or the dice, digits, the decimal point,
    a space (\u2423), backspace, Esc and OK; for cards, the ranks, the suits, a space,
    backspace, Esc and OK. `pressed` gives the key's name (the registry's: "7", "Space",
    "Backspace", "Esc", "Enter", "S" for spades)."""

    pressed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keypad")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.digits = QWidget(self)
        self.cards = QWidget(self)
        self.keys: dict[str, QPushButton] = {}  # the amount's pad
        self.card_keys: dict[str, QPushButton] = {}  # the cards' pad
        self.grids: list[QGridLayout] = []
        grid = self._grid(self.digits)
        for r, row in enumerate(KEYS):
            for c, key in enumerate(row):
                if key is not None:
                    grid.addWidget(self._key(self.keys, *key), r, c)
        grid.addWidget(self._key(self.keys, *OK), 2, 3, 2, 1)
        grid = self._grid(self.cards)
        for r, row in enumerate(CARD_KEYS):
            for c, key in enumerate(row):
                if key is not None:
                    span = 2 if key[1] in ("Esc", "Enter") else 1  # the two answers wide
                    grid.addWidget(self._key(self.card_keys, *key), r, c, 1, span)
        for pad in (self.keys, self.card_keys):
            pad["Enter"].setObjectName("primary")
        self.pages = QStackedLayout(self)
        self.pages.addWidget(self.digits)
        self.pages.addWidget(self.cards)
        self.set_target(36)

    def _grid(self, page: QWidget) -> QGridLayout:
        grid = QGridLayout(page)
        self.grids.append(grid)
        return grid

    def _key(self, pad: dict[str, QPushButton], label: str, name: str) -> QPushButton:
        b = QPushButton(label)
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the table keeps the keyboard
        b.setObjectName("key")
        b.clicked.connect(lambda _=False, name=name: self.pressed.emit(name))
        pad[name] = b
        return b

    def set_target(self, side: int) -> None:
        """Every key at least `side` pixels each way (target_px)."""
        for grid in self.grids:
            grid.setSpacing(max(4, side // 6))
            grid.setContentsMargins(6, 6, 6, 6)
        for b in (*self.keys.values(), *self.card_keys.values()):
            b.setMinimumSize(side, side)

    def shown_keys(self) -> dict[str, QPushButton]:
        """The pad on screen now, by key name."""
        return self.card_keys if self.pages.currentWidget() is self.cards else self.keys

    def show_for(self, takes: str | None) -> None:
        """The pad for what the open field takes (cards: its letters), with only the keys it
        takes; None: no field open, only OK and Esc (a wager asked about, last round's
        wagers, a refusal to read)."""
        cards = takes is not None and "S" in takes
        self.pages.setCurrentWidget(self.cards if cards else self.digits)
        if cards:
            return
        for name, b in self.keys.items():
            if name in ("Enter", "Esc"):
                b.setVisible(True)
            elif name == "Backspace":
                b.setVisible(takes is not None)
            elif name == "Space":
                b.setVisible(takes is not None and " " in takes)
            else:
                b.setVisible(takes is not None and name in takes)
