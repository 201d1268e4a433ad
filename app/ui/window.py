"""The dealer's main window: the felt, the side panel, the device status bar, and the keys.

`MainWindow` is layout; `bind(controller)` connects its buttons, fields, keys and cards to
the controller's steps and redraws from `controller.state()` whenever the round changes.
The status bar keeps each device to a word or two (the whole story is in its tooltip) so
that it never widens the window past a 1280x800 screen; the ledger's banner takes the rest
of the bar while the database is away. F2 opens the pit supervisor's view over it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QKeySequence, QPainter, QPaintEvent, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QWidget,
)

from .controller import DealerController
from .felt import FeltView
from .panel import ControlPanel
from .pit import PitController
from .present import SEAT_KEYS, ScreenState
from .seat import restyle
from .supervisor import SupervisorWindow
from .theme import STYLE

PANEL_WIDTH = 510

# The keyboard map: key -> what it does (shown on the buttons and in the README).
KEYMAP: tuple[tuple[str, str], ...] = (
    ("N", "new round"),
    ("1-6", "select seat 1-6"),
    ("7 (or 0)", "select the dealer's position"),
    ("Left / Right", "select the position before / after"),
    ("B", "the seat offered the bank takes it: type the chips, Enter"),
    ("Q", "the seat offered the bank (or the dragon) passes"),
    ("Shift+Q", "every seat still to be asked passes the bank (or the dragon)"),
    ("K", "co-bank with the house on / off (tables that co-bank)"),
    ("W", "type the selected seat's wager, Enter"),
    ("X", "take back the selected seat's wager"),
    ("R", "action from the station's RNG, or the action the shuffler sent"),
    ("D", "type the three dice, Enter"),
    ("C", "shoe offline: type the selected position's cards, Enter"),
    ("E", "deal complete: the shoe read the 49 cards but not the 4 left over"),
    ("G", "the seat offered the dragon takes it: its wager (filled in), Enter"),
    ("F", "set the front: the two clicked cards, or type them, Enter"),
    ("H", "House Way for the selected position"),
    ("A", "the player asks the house: show the House Way, without setting it"),
    ("S", "settle"),
    ("P", "print the slip (after a printer failure: print the kept slip)"),
    ("Shift+P", "reprint: the kept slips, or this round's slip again marked REPRINT"),
    ("O", "demo: shoe unplugged / plugged in"),
    ("F2", "the pit supervisor's view (F2 or Esc closes it)"),
    ("F3", "the dealer at the table: type the name, Enter (a new shift in the ledger)"),
    ("Esc", "leave a field, drop picked cards"),
)


class ElidedLabel(QLabel):
    """One line that ends in "..." where the room ends (the whole text in its tooltip)."""

    def paintEvent(self, event: QPaintEvent) -> None:
        QFrame.paintEvent(self, event)  # the style sheet's background and border
        p = QPainter(self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             rect.width())
        p.setPen(self.palette().color(self.foregroundRole()))
        p.drawText(rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), text)
        p.end()


class MainWindow(QMainWindow):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Pai Gow Poker - dealer station")
        self.setStyleSheet(STYLE)
        self.felt = FeltView()
        self.panel = ControlPanel()
        self.panel.setFixedWidth(PANEL_WIDTH)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.felt, 1)
        row.addWidget(self.panel)
        self.setCentralWidget(central)

        bar = QStatusBar()
        self.setStatusBar(bar)
        self.devices = [QLabel(objectName="device") for _ in range(3)]
        for label in self.devices:
            bar.addWidget(label)
        self.banner = ElidedLabel(objectName="banner")
        self.table_info = ElidedLabel(objectName="tableInfo")
        for label in (self.banner, self.table_info):  # they take what room is left, no more
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setMinimumWidth(0)
            bar.addWidget(label, 1)
        self.banner.hide()
        self.pit_button = QPushButton("Pit view  [F2]", objectName="statusButton")
        self.pit_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pit_button.setToolTip("The pit supervisor's view: who may bank, the history, "
                                   "the totals, void and correct (PIN) [F2]")
        bar.addPermanentWidget(self.pit_button)
        self.shortcuts: dict[str, QShortcut] = {}
        self.controller: DealerController | None = None
        self.state: ScreenState | None = None
        self.pit: PitController | None = None
        self.supervisor: SupervisorWindow | None = None
        self.dealer_prompt: QInputDialog | None = None

    # --- binding -------------------------------------------------------------------------

    def bind(self, c: DealerController, pit: PitController | None = None) -> None:
        self.controller = c
        self.pit = pit or PitController(c)
        self.pit_button.clicked.connect(self.toggle_pit)
        p, f = self.panel, self.panel.fields
        b = p.buttons
        b["new"].clicked.connect(c.new_round)
        b["bank"].clicked.connect(lambda: self._submit("bank", c.take_bank))
        b["pass"].clicked.connect(c.pass_offer)
        b["co_bank"].clicked.connect(c.toggle_co_bank)
        b["deal_done"].clicked.connect(c.deal_complete)
        b["dragon"].clicked.connect(self._dragon_button)
        b["wager"].clicked.connect(lambda: self._submit("wager", c.place_wager))
        b["withdraw"].clicked.connect(c.withdraw_wager)
        b["rng"].clicked.connect(c.rng_action)
        b["dice"].clicked.connect(lambda: self._submit("dice", c.dice_action))
        b["cards"].clicked.connect(lambda: self._submit("cards", c.enter_cards, keep=True))
        b["front"].clicked.connect(self._front)
        b["house_way"].clicked.connect(c.house_way)
        b["help"].clicked.connect(c.show_house_way)
        b["settle"].clicked.connect(c.settle)
        b["print"].clicked.connect(c.print_slip)
        b["reprint"].clicked.connect(c.reprint)
        b["shoe"].clicked.connect(c.toggle_shoe)
        f["wager"].returnPressed.connect(lambda: self._submit("wager", c.place_wager,
                                                              keep=True))
        f["dice"].returnPressed.connect(lambda: self._submit("dice", c.dice_action))
        f["cards"].returnPressed.connect(lambda: self._submit("cards", c.enter_cards,
                                                              keep=True))
        f["front"].returnPressed.connect(lambda: self._submit("front", c.set_front))
        f["bank"].returnPressed.connect(lambda: self._submit("bank", c.take_bank))
        f["dragon"].returnPressed.connect(lambda: self._submit("dragon", c.take_dragon))
        f["front"].textEdited.connect(c.type_front)
        for seat in self.felt.seats.values():
            seat.clicked.connect(c.select)
            seat.card_clicked.connect(c.pick_card)

        keys: dict[str, Callable[[], object]] = {
            "N": c.new_round, "X": c.withdraw_wager, "R": c.rng_action, "H": c.house_way,
            "A": c.show_house_way,
            "S": c.settle, "P": c.print_slip, "Shift+P": c.reprint, "O": c.toggle_shoe,
            "F2": self.toggle_pit, "F3": self.ask_dealer,
            "Q": c.pass_offer, "Shift+Q": c.pass_all, "K": c.toggle_co_bank,
            "E": c.deal_complete, "B": lambda: self._focus("bank"),
            "G": lambda: self._focus("dragon"),
            "W": lambda: self._focus("wager"), "D": lambda: self._focus("dice"),
            "C": lambda: self._focus("cards"), "F": self._front,
            "Left": lambda: c.select_step(-1), "Right": lambda: c.select_step(1),
            "Esc": self._escape, "0": lambda: c.select(0),
        }
        for position, key in SEAT_KEYS.items():
            keys[key] = (lambda pos=position: c.select(pos))
        for key, handler in keys.items():
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(handler)
            self.shortcuts[key] = shortcut
        c.changed.connect(self.render)
        self.render()

    def _submit(self, name: str, step: Callable[[str], bool], keep: bool = False) -> None:
        field = self.panel.fields[name]
        if step(field.text()):
            field.clear()
            if not keep or not field.isEnabled():
                self.felt.setFocus()
        else:
            field.selectAll()  # what was wrong stays in view; typing replaces it

    def _focus(self, name: str) -> None:
        c = self.controller
        assert c is not None
        if c.why_not(name) is not None:
            c.explain(name)
            return
        field = self.panel.fields[name]
        if name == "dragon" and not field.text().strip():
            field.setText(c.dragon_suggestion())
        field.setFocus()
        field.selectAll()

    def _dragon_button(self) -> None:
        """A click takes the dragon with the wager typed, or else the main wager."""
        c = self.controller
        assert c is not None
        field = self.panel.fields["dragon"]
        if not field.text().strip():
            field.setText(c.dragon_suggestion())
        self._submit("dragon", c.take_dragon)

    def _front(self) -> None:
        c = self.controller
        assert c is not None
        if len(c.picks) == 2:
            if c.set_front(None):
                self.panel.fields["front"].clear()
                self.felt.setFocus()
            return
        text = self.panel.fields["front"].text()
        if text.strip():
            self._submit("front", c.set_front)
            return
        self._focus("front")

    # --- the pit and the shift -------------------------------------------------------------

    def toggle_pit(self) -> SupervisorWindow | None:
        """F2: the pit supervisor's view over the dealer's window, or closed again."""
        if self.pit is None:
            return None
        if self.supervisor is not None and self.supervisor.isVisible():
            self.supervisor.close()
            self.felt.setFocus()
            return self.supervisor
        if self.supervisor is None:
            self.supervisor = SupervisorWindow(self.pit, self)
        self.supervisor.show()
        self.supervisor.raise_()
        self.supervisor.activateWindow()
        return self.supervisor

    def ask_dealer(self) -> QInputDialog:
        """F3 (and at start with no dealer named): the dealer's name opens a shift. The
        question does not block the window: the station keeps reading the shoe."""
        if self.dealer_prompt is not None and self.dealer_prompt.isVisible():
            return self.dealer_prompt
        c = self.controller
        d = QInputDialog(self)
        d.setWindowTitle("The dealer at this table")
        d.setLabelText("The dealer's name (the ledger records every round under the "
                       "dealer's shift):")
        d.setTextEchoMode(QLineEdit.EchoMode.Normal)
        if c is not None and c.ledger is not None and c.ledger.dealer:
            d.setTextValue(c.ledger.dealer)
        d.setStyleSheet(STYLE + "QLineEdit { min-width: 360px; }")
        d.textValueSelected.connect(self._dealer_named)
        d.finished.connect(lambda _r: self.felt.setFocus())
        self.dealer_prompt = d
        d.open()
        return d

    def _dealer_named(self, name: str) -> None:
        if self.controller is not None:
            self.controller.open_shift(name)

    def _escape(self) -> None:
        self.felt.setFocus()
        c = self.controller
        if c is not None and c.picks:
            c.picks, c.preview, c.preview_error = [], None, None
            c.fields["front"] = ""
            c.changed.emit()

    # --- drawing -------------------------------------------------------------------------

    def render(self) -> None:
        c = self.controller
        if c is None:
            return
        s = c.state()
        self.state = s
        if self.felt.direction is not c.table.direction:
            self.felt.direction = c.table.direction  # the ring's arrows
            self.felt.update()
        for position, seat in self.felt.seats.items():
            seat.show_state(s.seats[position])
        self.felt.center.show_state(s.center)
        self.felt.show_no_play(s.center.no_play)
        p = self.panel
        p.phase.setText(s.phase)
        p.next.setText(s.next_step)
        p.show_message(s.message, s.level)
        p.selected.setText(s.selected)
        p.cards_label.setText("Cards")
        p.fields["cards"].setPlaceholderText(f"{s.manual_target}, e.g. AS KD 10H 7C 7D 2S JK")
        p.show_availability(s.availability, s.labels)
        p.buttons["co_bank"].setChecked(s.co_bank)
        for name in ("bank", "dragon"):  # no stale amount once the offer is over
            if not p.fields[name].isEnabled() and p.fields[name].text():
                p.fields[name].clear()
        p.fields["bank"].setPlaceholderText(s.fields.get("bank_hint", "chips, e.g. 500"))
        p.fields["dragon"].setPlaceholderText(s.fields.get("dragon_hint",
                                                           "dragon wager, e.g. 25"))
        front = p.fields["front"]
        wanted = s.fields.get("front", "")
        if front.text() != wanted and not (front.hasFocus() and not wanted):
            if not front.hasFocus():
                front.setText(wanted)
        p.show_log(s.log)
        p.show_slip(s.slip, s.slip_printed)
        for label, device in zip(self.devices, s.devices, strict=True):
            label.setText(device.label)
            label.setToolTip(device.detail or device.label)
            restyle(label, "state", device.state)
        self.banner.setText(s.banner or "")
        self.banner.setToolTip(s.banner or "")
        self.banner.setVisible(bool(s.banner))
        self.table_info.setVisible(not s.banner)
        self.table_info.setText(s.table_info)
        self.table_info.setToolTip(s.table_info)

    def closeEvent(self, event: QCloseEvent) -> None:
        for dialog in (self.supervisor, self.dealer_prompt):
            if dialog is not None:
                dialog.close()
        if self.controller is not None:
            self.controller.close()
        super().closeEvent(event)
