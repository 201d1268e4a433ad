"""The dealer's side panel: the round's phase, the next step, the message, the buttons with
their keys, the entry fields, and the round log or the settlement slip."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from . import theme
from .present import SlipState
from .seat import restyle

# action -> (button text, key, what it does)
BUTTONS: dict[str, tuple[str, str, str]] = {
    "new": ("New round", "N", "Open the next round"),
    "wager": ("Place wager", "W", "Enter the selected seat's wager (type dollars, Enter)"),
    "withdraw": ("Take back", "X", "Take back the selected seat's wager"),
    "rng": ("RNG action", "R", "Draw action 1-7 with the station's RNG (secrets)"),
    "dice": ("Dice action", "D", "Type the three dice as they landed (e.g. 3 5 6), Enter"),
    "cards": ("Enter cards", "C", "Shoe offline: type the selected position's cards, Enter"),
    "front": ("Set front", "F", "Set the two cards the player put in front: click them, or "
                                "press F and type them"),
    "house_way": ("House Way", "H", "Set the selected position's hand the House Way"),
    "settle": ("Settle", "S", "Settle every position clockwise from action"),
    "print": ("Print slip", "P", "Print the settlement slip"),
    "shoe": ("Shoe on/off", "O", "Demo: unplug the shoe or plug it back"),
}
FIELDS = {"wager": "dollars, e.g. 25", "dice": "three dice, e.g. 3 5 6",
          "cards": "cards, e.g. AS KD 10H 7C 7D 2S JK", "front": "two cards, e.g. KS 9H"}
KIND_COLOURS = {"win": theme.WIN, "lose": theme.LOSE, "push": theme.PUSH,
                "returned": theme.PUSH}


def _label(name: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    return label


class SlipView(QWidget):
    COLUMNS = ("#", "Position", "Result", "Wager", "Comm.", "Net")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = _label("sectionTitle")
        self.heading.setWordWrap(True)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for i in range(len(self.COLUMNS)):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.totals = _label("totals")
        self.totals.setWordWrap(True)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.heading)
        box.addWidget(self.table, 1)
        box.addWidget(self.totals)

    def show_slip(self, slip: SlipState) -> None:
        self.heading.setText(slip.heading)
        self.table.setRowCount(len(slip.rows))
        for r, row in enumerate(slip.rows):
            values = (row.order, row.position, row.result, row.wager, row.commission,
                      row.net)
            for c, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setToolTip(row.detail or row.hands)
                if c in (0, 3, 4, 5):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if c == 2 and row.kind in KIND_COLOURS:
                    item.setBackground(QColor(KIND_COLOURS[row.kind]))
                    item.setForeground(QColor("white"))
                self.table.setItem(r, c, item)
        self.totals.setText(slip.totals)
        self.setToolTip(slip.text)


class ControlPanel(QWidget):
    """Layout only; the window binds the buttons and fields to the controller."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.phase = _label("phase")
        self.next = _label("next")
        self.next.setWordWrap(True)
        self.message = _label("message")
        self.message.setWordWrap(True)
        self.message.setMinimumHeight(66)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.selected = _label("sectionTitle")

        self.buttons: dict[str, QPushButton] = {}
        for action, (text, key, _) in BUTTONS.items():
            b = QPushButton(f"{text}  [{key}]")
            b.setObjectName("primary" if action in ("new", "settle") else "button")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.buttons[action] = b
        self.fields: dict[str, QLineEdit] = {}
        for name, hint in FIELDS.items():
            f = QLineEdit()
            f.setPlaceholderText(hint)
            f.setObjectName(f"field-{name}")
            self.fields[name] = f

        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(6)
        b, f = self.buttons, self.fields
        self.cards_label = _label("fieldLabel", "Cards")
        grid.addWidget(b["new"], 0, 0, 1, 2)
        grid.addWidget(b["rng"], 0, 2)
        for row, (name, label) in enumerate((("wager", "Wager"), ("dice", "Dice"),
                                             ("cards", "Cards"), ("front", "Front")), 1):
            grid.addWidget(self.cards_label if name == "cards" else _label("fieldLabel", label),
                           row, 0)
            grid.addWidget(f[name], row, 1)
            grid.addWidget(b[name], row, 2)
        grid.addWidget(b["withdraw"], 5, 0, 1, 2)
        grid.addWidget(b["house_way"], 5, 2)
        grid.addWidget(b["settle"], 6, 0, 1, 2)
        grid.addWidget(b["print"], 6, 2)
        grid.addWidget(b["shoe"], 7, 2)
        grid.setColumnStretch(1, 1)
        grid.setColumnMinimumWidth(2, 180)

        self.log = QListWidget()
        self.log.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.log.setWordWrap(True)
        self.slip = SlipView()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.log)
        self.stack.addWidget(self.slip)
        self.stack_title = _label("sectionTitle", "Round log")

        box = QVBoxLayout(self)
        box.setContentsMargins(12, 12, 12, 12)
        box.setSpacing(8)
        box.addWidget(self.phase)
        box.addWidget(self.next)
        box.addWidget(self.message)
        box.addWidget(self.selected)
        box.addLayout(grid)
        box.addWidget(self.stack_title)
        box.addWidget(self.stack, 1)

    def show_message(self, text: str, level: str) -> None:
        self.message.setText(text)
        restyle(self.message, "level", level)

    def show_availability(self, availability: dict[str, str | None]) -> None:
        for action, button in self.buttons.items():
            reason = availability.get(action)
            text, key, does = BUTTONS[action]
            button.setEnabled(reason is None)
            button.setToolTip(f"{does} [{key}]" if reason is None else f"Not now: {reason}")
            field = self.fields.get(action)
            if field is not None:
                field.setEnabled(reason is None)
                field.setToolTip(button.toolTip())

    def show_log(self, lines: tuple[str, ...]) -> None:
        if self.log.count() > len(lines):
            self.log.clear()
        for line in lines[self.log.count():]:
            self.log.addItem(line)
        self.log.scrollToBottom()

    def show_slip(self, slip: SlipState | None) -> None:
        if slip is None:
            self.stack.setCurrentWidget(self.log)
            self.stack_title.setText("Round log")
            return
        self.slip.show_slip(slip)
        self.stack.setCurrentWidget(self.slip)
        self.stack_title.setText("Settlement slip, clockwise from action")
