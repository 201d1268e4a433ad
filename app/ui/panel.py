"""The dealer's side panel: the round's phase, the next step, the message, the buttons with
their keys, the entry fields, and the round log or the settlement slip."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.session.commands import COMMANDS, Command

from . import theme
from .present import SlipState, unbroken_money
from .seat import restyle
from .theme import px

# The buttons a round uses, two to a row in the order of a round: open, the bank, the
# wagers, action, the deal, the dragon, the hands, settle; then "More" for the rest. Each is
# a finger's target (app/ui/touch.py), so the panel keeps to two columns and the buttons a
# round seldom needs are one tap away on the "More" sheet. The keys are the same for all.
MAIN: tuple[tuple[str, str], ...] = (
    ("new", "rng"), ("bank", "pass"), ("wager", "same_wagers"), ("dice", "cards"),
    ("dragon", "front"), ("house_way", "settle"), ("print", "more"))
MORE: tuple[tuple[str, str], ...] = (
    ("co_bank", "withdraw"), ("bonus", "withdraw_bonus"),
    ("progressive", "withdraw_progressive"), ("deal_done", "shoe"),
    ("show_house_way", "reprint"), ("back", ""))
LOG_ITEMS = 500  # lines the round log shows, the newest: a few rounds' worth
SHEET = {"more", "back", ""}  # the sheet's own buttons, not commands
PLACED = {name for rows in (MAIN, MORE) for row in rows for name in row} - SHEET
# Each button is a command of the registry (app/session/commands.py): its text, key and
# tooltip are the command's own.
BUTTONS = {c.id: c for c in COMMANDS if c.id in PLACED}


def button_text(command: Command, label: str | None = None) -> str:
    return f"{label or command.button}  [{command.label}]"


def button_tip(command: Command) -> str:
    return f"{command.words[0].upper()}{command.words[1:]} [{command.label}]"


# One entry row, shared: it shows the field open now (else the one the round is likely to
# need next, with its hint). The label says what it takes; the hint shows how it is
# written, short enough for the field at a 1024x768 screen.
FIELDS = {"bank": "e.g. 500", "wager": "e.g. 25", "dice": "e.g. 3 5 6",
          "cards": "e.g. AS KD 10H", "dragon": "e.g. 25", "front": "e.g. KS 9H",
          "bonus": "e.g. 5"}
LABELS = {"bank": "Bank", "wager": "Wager", "dice": "Dice", "cards": "Cards",
          "dragon": "Dragon", "front": "Front", "bonus": "Bonus"}
# With no field open, the first of these whose command may be pressed now is shown.
LIKELY = ("dragon", "bank", "cards", "front", "wager", "dice")
KIND_COLOURS = {"win": theme.WIN, "lose": theme.LOSE, "push": theme.PUSH,
                "returned": theme.PUSH}


def _label(name: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    return label


class SlipView(QWidget):
    # "#" is the place from action, the felt's "#1" too: one number for one place (issue
    # 25). A wider header word pushed the bonus round's rows out of the view at 1024x768.
    COLUMNS = ("#", "Position", "Result", "Wager", "Comm.", "Net")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = _label("sectionTitle")
        self.heading.setWordWrap(True)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        paid = self.table.horizontalHeaderItem(0)
        if paid is not None:
            paid.setToolTip("The place from action, as on the felt: #1 dealt and paid "
                            "first")
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(25)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setWordWrap(True)  # "seat 4 (dragon, seat 5)" on two lines if it must
        self.table.setProperty("whole", True)  # every row in sight (app/ui/screencheck.py)
        self.table.installEventFilter(self)
        header = self.table.horizontalHeader()
        for i in range(len(self.COLUMNS)):  # sized by refit, to the contents
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # the position's column takes what is left: its rows are as tall as its text wraps
        header.sectionResized.connect(lambda *_: QTimer.singleShot(0, self.fit_rows))
        self.totals = _label("totals")
        self.totals.setWordWrap(True)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.heading)
        box.addWidget(self.table, 1)
        box.addWidget(self.totals)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The style's scale changed the table's font: measure the columns again in it.
        if watched is self.table and event.type() in (QEvent.Type.FontChange,
                                                      QEvent.Type.StyleChange):
            QTimer.singleShot(0, self.refit)
        return False

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
        self.refit()

    def refit(self) -> None:
        """The columns to their contents and the rows to their lines, measured in the
        table's font now (again once the style's scale changed it)."""
        t = self.table
        t.ensurePolished()
        fm = t.fontMetrics()
        pad = 8  # the item's margins (3 px a side) and a little air
        header = t.horizontalHeader()
        header.ensurePolished()
        bold = header.font()  # the style sheet sets the titles bold, not the header's font
        bold.setBold(True)
        hfm = QFontMetrics(bold)
        for c in range(t.columnCount()):
            if header.sectionResizeMode(c) is QHeaderView.ResizeMode.Stretch:
                continue
            texts = [item.text() for r in range(t.rowCount())
                     if (item := t.item(r, c)) is not None]
            wide = max((fm.horizontalAdvance(line) for text in texts
                        for line in text.split("\n")), default=0)
            title = hfm.horizontalAdvance(self.COLUMNS[c]) + pad + 2  # bold, padded 4 px
            header.resizeSection(c, max(wide + pad, title))
        self.fit_rows()

    def fit_rows(self) -> None:
        """Each row as tall as its text, wrapped in its column's width."""
        t = self.table
        fm = t.fontMetrics()
        for r in range(t.rowCount()):
            high = fm.height()
            for c in range(t.columnCount()):
                item = t.item(r, c)
                if item is not None and item.text():
                    room = QRect(0, 0, max(t.columnWidth(c) - 6, 1), 10_000)
                    high = max(high, fm.boundingRect(room, int(Qt.TextFlag.TextWordWrap),
                                                     item.text()).height())
            t.setRowHeight(r, high + fm.height() // 2 + 2)
        # every row in sight: the panel gives the slip this much before the log
        rows = sum(t.rowHeight(r) for r in range(t.rowCount()))
        t.setMinimumHeight(rows + t.horizontalHeader().sizeHint().height()
                           + 2 * t.frameWidth() + 2)


class ControlPanel(QWidget):
    """Layout only; the window binds the buttons and fields to the dealer session."""

    # A button tapped while it may not be pressed: its name (the window says why, in the
    # message: a finger has no hover to read the tooltip by).
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.phase = _label("phase")
        self.next = _label("next")
        self.next.setWordWrap(True)
        self.message = _label("message")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.selected = _label("sectionTitle")

        self.buttons: dict[str, QPushButton] = {}
        for action, command in BUTTONS.items():
            b = QPushButton(button_text(command))
            b.setObjectName("primary" if action in ("new", "settle") else "button")
            b.setCheckable(action == "co_bank")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.installEventFilter(self)
            self.buttons[action] = b
        self.more = self._sheet_button("More...", "the buttons a round seldom needs: "
                                       "co-bank, take back, deal complete, the shoe, "
                                       "show the House Way, reprint")
        self.back = self._sheet_button("Back", "back to the round's buttons")
        self.more.clicked.connect(lambda: self.show_more(True))
        self.back.clicked.connect(lambda: self.show_more(False))
        for name in ("co_bank", "withdraw", "deal_done", "shoe", "show_house_way", "reprint"):
            # a tap on the sheet does its command, and the round's buttons are back
            self.buttons[name].clicked.connect(lambda _=False: self.show_more(False))

        self.fields: dict[str, QLineEdit] = {}
        self.entry = QStackedWidget()
        for name, hint in FIELDS.items():
            f = QLineEdit()
            f.setPlaceholderText(hint)
            f.setObjectName(f"field-{name}")
            # The session holds what is typed (docs/keyboard.md): a field shows it and never
            # takes the keyboard, so no key can land in a field the dealer has left.
            f.setReadOnly(True)
            f.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.fields[name] = f
            self.entry.addWidget(f)
        self.entry_label = _label("fieldLabel", LABELS["wager"])
        self._available: dict[str, str | None] = {}
        # Under the buttons, so that they stay put when it hides: shown while a field is open
        # or may be opened now, else the log (or the slip) has its room.
        self.entry_box = QWidget()
        entry_row = QHBoxLayout(self.entry_box)
        entry_row.setContentsMargins(0, 0, 0, 0)
        entry_row.addWidget(self.entry_label)
        entry_row.addWidget(self.entry, 1)
        self.entry_row = entry_row

        self.pages = QStackedWidget()
        self.grid = self._page(MAIN)
        self.more_grid = self._page(MORE)

        self.log = QListWidget()
        self.log.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.log.setWordWrap(True)
        self.slip = SlipView()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.log)
        self.stack.addWidget(self.slip)
        self.stack_title = _label("sectionTitle", "Round log")
        self.stack_title.setWordWrap(True)  # "Settlement slip: KEPT, P prints it"
        self.stack_title.setSizePolicy(QSizePolicy.Policy.Ignored,
                                       QSizePolicy.Policy.Preferred)

        self.box = box = QVBoxLayout(self)
        box.addWidget(self.phase)
        box.addWidget(self.next)
        box.addWidget(self.message)
        box.addWidget(self.selected)
        box.addWidget(self.pages)
        box.addWidget(self.entry_box)
        box.addWidget(self.stack_title)
        box.addWidget(self.stack, 1)
        self.set_scale(1.0)

    def _sheet_button(self, text: str, tip: str) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName("button")
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        b.setToolTip(f"{tip[0].upper()}{tip[1:]}")
        return b

    def _page(self, rows: tuple[tuple[str, str], ...]) -> QGridLayout:
        page = QWidget()
        grid = QGridLayout(page)
        grid.setContentsMargins(0, 0, 0, 0)
        sheet = {"more": self.more, "back": self.back}
        for r, row in enumerate(rows):
            for c, name in enumerate(row):
                if name:
                    grid.addWidget(sheet.get(name) or self.buttons[name], r, c)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        self.pages.addWidget(page)
        return grid

    def show_more(self, more: bool) -> None:
        """The "More" sheet (the buttons a round seldom needs) or the round's buttons."""
        self.pages.setCurrentIndex(1 if more else 0)

    def all_buttons(self) -> list[QPushButton]:
        """Every button of the panel, on either sheet: each a finger's target."""
        return [*self.buttons.values(), self.more, self.back]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A disabled button gets no click, but its filter still sees the release.
        if (event.type() is QEvent.Type.MouseButtonRelease and isinstance(watched, QPushButton)
                and not watched.isEnabled()):
            for action, button in self.buttons.items():
                if button is watched:
                    self.refused.emit(action)
        return False

    def set_target(self, side: int) -> None:
        """Every button, and the entry row, at least `side` pixels tall: a fingertip's
        target (app/ui/touch)."""
        for b in self.all_buttons():
            b.setMinimumHeight(side)
        for f in self.fields.values():
            f.setMinimumHeight(side)

    def set_scale(self, scale: float) -> None:
        """Margins, spacing, the buttons' column and the message's least height for the
        style's scale (theme.scale_for)."""
        self.box.setContentsMargins(px(12, scale), px(8, scale), px(12, scale), px(8, scale))
        self.box.setSpacing(px(4, scale))
        for grid in (self.grid, self.more_grid):
            grid.setHorizontalSpacing(px(6, scale))
            grid.setVerticalSpacing(px(3, scale))
        self.entry_row.setSpacing(px(6, scale))
        self.message.setMinimumHeight(px(44, scale))
        self.slip.table.verticalHeader().setDefaultSectionSize(px(25, scale))

    def show_message(self, text: str, level: str) -> None:
        self.message.setText(unbroken_money(text))
        restyle(self.message, "level", level)

    def show_availability(self, availability: dict[str, str | None],
                          labels: dict[str, str] | None = None) -> None:
        for action, button in self.buttons.items():
            reason = availability.get(action)
            command = BUTTONS[action]
            text = button_text(command, (labels or {}).get(action))
            if button.text() != text:
                button.setText(text)
            button.setEnabled(reason is None)
            tip = button_tip(command) if reason is None else f"Not now: {reason}"
            if button.toolTip() != tip:
                button.setToolTip(tip)
            field = self.fields.get(action)
            if field is not None:
                field.setEnabled(reason is None)
                field.setToolTip(tip)
        self._available = dict(availability)

    def show_entry(self, open_field: str | None, text: str, front: str) -> None:
        """The open field shows what is typed in it (the front field, when closed, the cards
        picked); every other field is empty: Enter and Esc leave nothing behind. The entry
        row shows the open field, else the front's cards picked, else the first field the
        round may take now (LIKELY), with its hint."""
        for name, field in self.fields.items():
            shown = text if name == open_field else front if name == "front" else ""
            if field.text() != shown:
                field.setText(shown)
            if field.property("open") != (name == open_field):
                restyle(field, "open", name == open_field)
        shown_field = open_field or ("front" if front else next(
            (n for n in LIKELY if n in self._available and self._available[n] is None), None))
        if self.entry_box.isVisibleTo(self) != (shown_field is not None):
            self.entry_box.setVisible(shown_field is not None)
        if shown_field is None:
            return
        if self.entry.currentWidget() is not self.fields[shown_field]:
            self.entry.setCurrentWidget(self.fields[shown_field])
        if self.entry_label.text() != LABELS[shown_field]:
            self.entry_label.setText(LABELS[shown_field])

    def show_log(self, lines: tuple[str, ...]) -> None:
        """The whole log anew (the window bound, a round taken back)."""
        self.log.clear()
        self.add_log(lines)

    def add_log(self, lines: tuple[str, ...]) -> None:
        """New lines of the log, as an event made them; the oldest go past LOG_ITEMS (a
        list that grew all shift slowed every round: 18,000 items by round 781). The old
        lines are removed through the model, which deletes them: `takeItem` hands an item
        back undeleted, and the shift bench's memory grew 6 KB a round by it. Items made in
        Python instead (QListWidgetItem(line)) and deleted so crashed the window in
        shiboken within 100 to 500 rounds (segfaults in libshiboken6, three shift benches)."""
        self.log.addItems(list(lines))  # made by Qt: no Python wrapper to outlive them
        if (extra := self.log.count() - LOG_ITEMS) > 0:
            self.log.model().removeRows(0, extra)
        if lines:  # once the wrapped lines are laid out
            QTimer.singleShot(0, self.log, self.log.scrollToBottom)  # not once it is gone

    def show_slip(self, slip: SlipState | None, printed: str = "") -> None:
        if slip is None:
            # the last slip's rows no longer hold the panel's height (a stack is as tall as
            # its tallest page): the log and the buttons have it back
            self.slip.table.setMinimumHeight(0)
            self.slip.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
            self.stack.setCurrentWidget(self.log)
            self.stack_title.setText("Round log")
            restyle(self.stack_title, "alert", False)
            return
        self.slip.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.slip.show_slip(slip)
        self.stack.setCurrentWidget(self.slip)
        self.stack_title.setText("Settlement slip" + (f": {printed}" if printed else ""))
        restyle(self.stack_title, "alert", printed not in ("", "printed"))
