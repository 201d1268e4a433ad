"""The pit supervisor's view (F2): the round in play with who may bank and why, the bank
rotation, round history with the slip of any round, shift totals, and the supervisor's
actions (void, correct: a supervisor's name and their own PIN or password first, checked
by the ledger). `CloseDialog`: closing the station is a supervisor's act too. Layout and
binding only; the behaviour is `app.ui.pit.PitController`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QDate, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.analysis.advise import Advice
from app.core.cards import cards_text
from app.core.round_rules import RoundRules
from app.core.settlement import money

from . import theme
from .layouts import add_layout
from .pit import HandChoice, PitController, money_or_blank, seats_text
from .present import unbroken_money
from .seat import restyle
from .theme import STYLE

if TYPE_CHECKING:  # the window paints before SQLAlchemy loads
    from app.ledger import RoundSummary, ShiftSummary, StoredSlip, Totals
    from app.ledger.people import Person
    from app.ledger.recall import Recall

D = TypeVar("D", bound=QDialog)
MONO = "DejaVu Sans Mono"
ROUND_COLUMNS = ("Round", "Started", "Status", "Dealer", "Action", "Bank", "Seats", "Wagers",
                 "House net")
SEAT_COLUMNS = ("Seat", "Wager", "Last vs dealer", "Bank", "Why",
                "Must cover")
ADVICE_COLUMNS = ("", "Front", "Back", "EV", "±", "Win", "Push", "Lose", "vs House Way")
TOTAL_COLUMNS = ("Seat", "Hands", "Banked", "Wagered", "Commission", "Net")


HISTORY_ROWS = 10  # rounds the history shows at once, on any screen


def _label(name: str, text: str = "", wrap: bool = True) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    return label


class SideBySide(QObject):
    """A splitter's two sides side by side on a wide screen, one over the other when the
    window is narrower than both need (the rounds and their slip on a 1024x768 screen)."""

    def __init__(self, parent: QObject, wide: int) -> None:
        super().__init__(parent)
        self.wide = wide

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QSplitter) and event.type() is QEvent.Type.Resize:
            want = (Qt.Orientation.Horizontal if watched.width() >= self.wide
                    else Qt.Orientation.Vertical)
            if watched.orientation() is not want:
                watched.setOrientation(want)
        return False


class ColumnFit(QObject):
    """A table's columns as wide as their contents while the table is wide enough, else
    spread evenly over its width with the text wrapped: never a column out of sight behind
    a scroll bar (the pit's window on a 1024x768 screen)."""

    def __init__(self, table: QTableWidget, stretch: int | None, even: bool) -> None:
        super().__init__(table)
        self.table, self.stretch, self.even = table, stretch, even
        table.viewport().installEventFilter(self)
        table.model().rowsInserted.connect(lambda *_: QTimer.singleShot(0, self.fit))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() is QEvent.Type.Resize:
            QTimer.singleShot(0, self.fit)
        return False

    def fit(self) -> None:
        t = self.table
        header = t.horizontalHeader()
        # The stretched column wraps its text: it needs only room for a few words.
        need = sum(max(t.sizeHintForColumn(c), header.sectionSizeHint(c))
                   if c != self.stretch else 12 * t.fontMetrics().averageCharWidth()
                   for c in range(t.columnCount()))
        squeezed = self.even or need > t.viewport().width()
        for c in range(t.columnCount()):
            mode = (QHeaderView.ResizeMode.Stretch if squeezed or c == self.stretch
                    else QHeaderView.ResizeMode.ResizeToContents)
            if header.sectionResizeMode(c) is not mode:
                header.setSectionResizeMode(c, mode)
        QTimer.singleShot(0, t.resizeRowsToContents)


def _table(columns: Sequence[str], stretch: int | None = None,
           even: bool = False) -> QTableWidget:
    t = QTableWidget(0, len(columns))
    t.setHorizontalHeaderLabels(list(columns))
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    # A long reason wraps in its column, and the rows grow to hold it whenever the columns
    # change width (the pit's window fits a 1024x768 screen).
    t.setWordWrap(True)
    header = t.horizontalHeader()
    header.sectionResized.connect(lambda *_: QTimer.singleShot(0, t.resizeRowsToContents))
    for i in range(len(columns)):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
    if stretch is not None:
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    if even:  # a narrow table spread over the width
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    t.fit = ColumnFit(t, stretch, even)  # type: ignore[attr-defined]
    return t


def _fill(table: QTableWidget, rows: Sequence[Sequence[str]],
          colours: Sequence[str | None] | None = None, right: Sequence[int] = ()) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            if c in right:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
            if colours and colours[r]:
                item.setBackground(QColor(colours[r]))
            table.setItem(r, c, item)


def _button(text: str) -> QPushButton:
    b = QPushButton(text)
    b.setObjectName("button")
    return b


# --- who: the person, and the dialogs that ask for them ------------------------------------

class PersonForm(QWidget):
    """Who (a person in the ledger), their own PIN or password, and why: what every
    supervisor action asks for. The secret is never kept: cleared after every try."""

    def __init__(self, parent: QWidget | None = None, *, why: bool = True) -> None:
        super().__init__(parent)
        self.by = QLineEdit()
        self.by.setPlaceholderText("the supervisor's name, as the ledger knows them")
        self.secret = QLineEdit()
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret.setPlaceholderText("their own PIN or password")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why, for the ledger")
        for field in (self.by, self.secret, self.reason):
            field.setMinimumHeight(34)  # the style's font and padding, never squeezed
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Supervisor", self.by)
        form.addRow("PIN or password", self.secret)
        if why:
            form.addRow("Why", self.reason)
        else:
            self.reason.hide()


class ActionDialog(QDialog):
    """A supervisor action: what it does, its own fields, the person's form, and the
    answer. `submit(done)` asks (the ledger checks the person on the pit's worker) and
    returns True, then `done(ok)` closes the dialog or says why and stays; False: refused
    at once (it says why, stays)."""

    def __init__(self, title: str, says: str, pit: PitController,
                 parent: QWidget | None = None, *, why: bool = True) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setStyleSheet(STYLE)
        self.setObjectName("pitDialog")
        self.pit = pit
        self.says = _label("pitText", unbroken_money(says))
        self.fields = QFormLayout()
        self.form = PersonForm(why=why)
        self.answer = _label("message")
        self.answer.hide()
        self.ok = QPushButton(title)
        self.ok.setObjectName("primary")
        self.cancel = _button("Cancel")
        # Enter in any field is the dialog's own button, never Cancel (Esc cancels)
        self.ok.setDefault(True)
        self.cancel.setAutoDefault(False)
        self.ok.clicked.connect(self._submit)
        self.cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel)
        buttons.addWidget(self.ok)
        box = QVBoxLayout(self)
        box.addWidget(self.says)
        add_layout(box, self.fields)
        box.addWidget(self.form)
        box.addWidget(self.answer)
        add_layout(box, buttons)
        self.submit: Callable[[Callable[[bool], None]], bool] = lambda _done: False
        self.waiting = False  # the ledger is checking the person now
        self.setMinimumWidth(640)
        self.says.setMinimumWidth(600)
        if pit.last_supervisor:  # the last one checked here is offered: their secret next
            self.form.by.setText(pit.last_supervisor)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        (self.form.secret if self.form.by.text() else self.form.by).setFocus()

    def _submit(self) -> None:
        if self.waiting:
            return
        self.waiting = True
        self.ok.setEnabled(False)
        self.answer.clear()  # a new try: the last one's answer is old news
        self.answer.hide()
        if not self.submit(self._done):
            self._done(False)
            return
        if self.waiting and self.pit.message:  # "Checking ... with the ledger..."
            self._say(self.pit.message, self.pit.level)

    def _say(self, text: str, level: str) -> None:
        self.answer.setText(text)
        restyle(self.answer, "level", level)
        self.answer.show()
        self.adjustSize()

    def _done(self, ok: bool) -> None:
        self.waiting = False
        self.ok.setEnabled(True)
        self.form.secret.clear()  # typed again, never kept
        if ok:
            self.accept()
            return
        self._say(self.pit.message, self.pit.level)
        self.form.secret.setFocus()


class CloseDialog(ActionDialog):
    """Closing the station is a supervisor's act: the table is left without its station
    (the kiosk starts it again unless it is stopped). The ledger checks the person for
    "close" and records who closed it; `closed(person)` follows."""

    def __init__(self, pit: PitController, closed: Callable[[Person], None],
                 parent: QWidget | None = None) -> None:
        super().__init__("Close the station",
                         "Closing the dealer station needs a supervisor: the table is left "
                         "without its station. The ledger records who closed it and why. "
                         "A round in play is kept and taken back at the next start.",
                         pit, parent)

        def submit(done: Callable[[bool], None]) -> bool:
            def checked(person: Person | None) -> None:
                done(person is not None)
                if person is not None:
                    closed(person)

            return pit.authorise_close(self.form.by.text(), self.form.secret.text(),
                                       self.form.reason.text(), checked)

        self.submit = submit


class AdviceDialog(QDialog):
    """Every legal setting of a hand with its value against the dealer's House Way, the
    House Way's own setting marked."""

    def __init__(self, pit: PitController, hands: Sequence[HandChoice],
                 rules: RoundRules | None = None, parent: QWidget | None = None,
                 selected: int | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Advice: every legal setting of a hand")
        self.setStyleSheet(STYLE)
        self.setObjectName("pitDialog")
        self.pit, self.hands, self.rules = pit, list(hands), rules
        self.choice = QComboBox()
        for h in self.hands:
            self.choice.addItem(h.title)
        self.heading = _label("pitText")
        self.table = _table(ADVICE_COLUMNS, stretch=2)
        self.summary = _label("totals")
        close = _button("Close  [Esc]")
        close.clicked.connect(self.accept)
        top = QHBoxLayout()
        top.addWidget(QLabel("Hand"))
        top.addWidget(self.choice, 1)
        box = QVBoxLayout(self)
        add_layout(box, top)
        box.addWidget(self.heading)
        box.addWidget(self.table, 1)
        box.addWidget(self.summary)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(close)
        add_layout(box, row)
        self.advice: Advice | None = None
        self.choice.currentIndexChanged.connect(self.show_hand)
        index = next((i for i, h in enumerate(self.hands) if h.position == selected), 0)
        over = self.parentWidget()  # never larger than the window it opens over
        self.resize(min(1000, over.width()) if over is not None else 1000,
                    min(700, over.height()) if over is not None else 700)
        if self.hands:
            self.choice.setCurrentIndex(index)
            self.show_hand(index)

    def show_hand(self, index: int) -> None:
        if not 0 <= index < len(self.hands):
            return
        hand = self.hands[index]
        advice = self.pit.advise(hand, rules=self.rules)
        self.advice = advice
        if advice is None:
            self.heading.setText(self.pit.message)
            self.table.setRowCount(0)
            self.summary.setText("")
            return
        hw = advice.house_way
        rule = hw.rule.id + (f" -> {hw.step.id}" if hw.step else "")
        played = set(hand.played) if hand.played else None
        as_played = ""
        if hand.played:
            rest = [c for c in hand.cards if c not in played]  # type: ignore[operator]
            as_played = (f" Played: {cards_text(hand.played)} | {cards_text(rest)}, "
                         f"{hand.how}.")
        self.heading.setText(
            f"{cards_text(advice.cards)}: {len(advice.settings)} legal settings, each against "
            f"the dealer's House Way ({advice.dealer_way}) over {advice.samples:,} dealer "
            f"hands from the other 46 cards. Wager {money(advice.wager)}, commission "
            f"{advice.policy}. EV per unit wagered. HW marks the House Way's setting "
            f"({advice.way}, rule {rule}: {hw.says}).{as_played}")
        rows, colours = [], []
        for s in advice.settings:
            marks = (("HW", s.house_way), ("best", s.best),
                     ("played", played is not None and set(s.setting.low) == played))
            mark = " ".join(m for m, on in marks if on)
            rows.append((mark, cards_text(s.setting.low), cards_text(s.setting.high),
                         f"{s.ev:+.2%}", f"{s.se:.2%}", f"{s.win:.1%}", f"{s.push:.1%}",
                         f"{s.lose:.1%}", f"{s.versus_house_way:+.2%}"))
            colours.append(theme.WIN if s.house_way else None)
        _fill(self.table, rows, colours, right=(3, 4, 5, 6, 7, 8))
        for r, s in enumerate(advice.settings):
            if s.house_way:
                for c in range(self.table.columnCount()):
                    item = self.table.item(r, c)
                    if item is not None:
                        f = QFont(item.font())
                        f.setBold(True)
                        item.setFont(f)
        best = advice.best
        if best.house_way:
            self.summary.setText(f"The House Way's setting ({best.setting}) is the best: EV "
                                 f"{best.ev:+.2%} ± {best.se:.2%}.")
        else:
            self.summary.setText(
                f"The House Way's setting ({advice.house_way_value.setting}) gives up "
                f"{advice.gives_up:.2%} ± {advice.gives_up_se:.2%} of the wager against the "
                f"best ({best.setting}, EV {best.ev:+.2%}).")


class RecallDialog(QDialog):
    """Game recall: a round shown whole from the ledger and settled again by the core."""

    def __init__(self, round_no: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Recall: round {round_no}")
        self.setStyleSheet(STYLE)
        self.setObjectName("pitDialog")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setObjectName("slipText")
        self.text.setFont(QFont(MONO, 11))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setPlainText(f"Reading round {round_no} from the ledger and settling it "
                               f"again...")
        self.verdict = _label("message")
        self.verdict.hide()
        self.recalled: Recall | None = None
        close = _button("Close  [Esc]")
        close.clicked.connect(self.accept)
        box = QVBoxLayout(self)
        box.addWidget(self.text, 1)
        box.addWidget(self.verdict)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(close)
        add_layout(box, row)
        self.resize(1000, 720)

    def show_recall(self, found: Recall | None) -> None:
        if found is None:  # the pit's message says why
            self.text.setPlainText("The round could not be read: see the pit's message.")
            return
        self.recalled = found
        self.text.setPlainText("\n".join(found.lines))
        self.verdict.setText(found.verdict)
        restyle(self.verdict, "level", "ok" if found.match else "error")
        self.verdict.show()


# --- the window ---------------------------------------------------------------------------------

class SupervisorWindow(QDialog):
    """The pit's window over the dealer's: three tabs, the supervisor's message on top."""

    def __init__(self, pit: PitController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pit = pit
        self.shown: list[RoundSummary] = []
        self.stored: StoredSlip | None = None
        self.dialog: QDialog | None = None  # the action or advice dialog open now
        self._live_hands: tuple[HandChoice, ...] = ()
        self.setWindowTitle("Pai Gow Poker - pit supervisor")
        self.setObjectName("pit")
        self.setStyleSheet(STYLE)
        self.setModal(False)
        self.message = _label("message")
        self.tabs = QTabWidget()
        self.tabs.addTab(self._round_tab(), "Round in play")
        self.tabs.addTab(self._history_tab(), "History")
        self.tabs.addTab(self._totals_tab(), "Shift totals")
        self.title = _label("pitHeading", wrap=False)
        close = _button("Close  [F2]")
        close.clicked.connect(self.close)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(close)
        box = QVBoxLayout(self)
        add_layout(box, top)
        box.addWidget(self.message)
        box.addWidget(self.tabs, 1)
        for key in ("F2", "Esc"):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.activated.connect(self.close)
        pit.changed.connect(self.show_message)
        pit.station.changed.connect(self._round_changed)
        if pit.floor is not None:
            pit.floor.requested.connect(self._round_changed)
        # Over the dealer's window, never larger than it (a station's screen may be 1024x768).
        room = parent.size() if parent is not None else None
        self.resize(min(1240, room.width()) if room else 1240,
                    min(760, room.height()) if room else 760)

    # --- the round in play ----------------------------------------------------------------

    def _round_tab(self) -> QWidget:
        w = QWidget()
        self.round_heading = _label("pitHeading")
        self.seats = _table(SEAT_COLUMNS, stretch=4)
        self.seats.setWordWrap(True)
        self.rotation = _label("pitText")
        self.check_seat = QComboBox()
        for seat in range(1, 7):
            self.check_seat.addItem(f"seat {seat}", seat)
        self.check_chips = QLineEdit()
        self.check_chips.setPlaceholderText("its chips, e.g. 500")
        self.check = _button("Check and record")
        self.advise_live = _button("Advise a hand...")
        self.void = _button("Void this round...  (supervisor)")
        self.void.setObjectName("danger")
        self.check.clicked.connect(self._check)
        self.check_chips.returnPressed.connect(self._check)
        self.advise_live.clicked.connect(self._advise_live)
        self.void.clicked.connect(self.open_void)
        self.misdeal = _button("Misdeal...  (supervisor)")
        self.misdeal.setObjectName("danger")
        self.misdeal.clicked.connect(self.open_misdeal)
        self.allow_typing = _button("Allow typing cards...  (supervisor)")
        self.allow_typing.clicked.connect(self.open_allow_typing)
        self.approve_bonus = _button("Approve bonus...  (supervisor)")
        self.approve_bonus.clicked.connect(self.open_approve_bonus)
        self.pay_progressive = _button("Pay progressive...  (supervisor)")
        self.pay_progressive.clicked.connect(self.open_pay_progressive)
        self.floor_asks = _label("pitText")
        self.floor_asks.hide()
        self.floor_void = _button("Void as the floor asks...  (supervisor)")
        self.floor_void.setObjectName("danger")
        self.floor_void.hide()
        self.floor_void.clicked.connect(self.open_floor_void)
        checks = QHBoxLayout()
        checks.addWidget(QLabel("May"))
        checks.addWidget(self.check_seat)
        checks.addWidget(QLabel("bank with"))
        checks.addWidget(self.check_chips, 1)
        checks.addWidget(self.check)
        checks.addSpacing(30)
        checks.addWidget(self.advise_live)
        checks.addWidget(self.void)
        box = QVBoxLayout(w)
        box.addWidget(self.round_heading)
        box.addWidget(self.seats, 1)
        box.addWidget(_label("sectionTitle", "The bank rotation"))
        box.addWidget(self.rotation)
        floor = QHBoxLayout()
        floor.addWidget(self.floor_asks, 1)
        floor.addWidget(self.floor_void)
        # on the line above the deal's acts, which fill a 1024x768 screen's width already;
        # shown only at a table on a linked progressive
        floor.addWidget(self.pay_progressive, 0, Qt.AlignmentFlag.AlignRight)
        add_layout(box, floor)
        add_layout(box, checks)
        deal = QHBoxLayout()  # the deal's own supervisor acts
        deal.addStretch(1)
        deal.addWidget(self.approve_bonus)
        deal.addWidget(self.allow_typing)
        deal.addWidget(self.misdeal)
        add_layout(box, deal)
        return w

    def refresh_round(self) -> None:
        if not self.isVisible():
            return
        s = self.pit.round_in_play()
        self.round_heading.setText(s.heading)
        colours = [theme.WIN if x.verdict in ("may bank", "banks") else None for x in s.seats]
        _fill(self.seats, [(f"seat {x.seat}", x.wager, x.house_bet, x.verdict, x.reasons,
                            x.cover) for x in s.seats], colours, right=(1, 2, 5))
        self.seats.resizeRowsToContents()
        self.rotation.setText(s.rotation)
        self.void.setEnabled(s.void_blocked is None)
        self.void.setToolTip(s.void_blocked or "Void the round in play: the wagers go back; "
                                                "the ledger keeps it as void with who and why")
        self.misdeal.setEnabled(s.misdeal_blocked is None)
        self.misdeal.setToolTip(s.misdeal_blocked or "End the deal as a misdeal: every wager "
                                                     "goes back; the ledger keeps who and why")
        self.approve_bonus.setEnabled(s.bonus_blocked is None)
        self.approve_bonus.setToolTip(s.bonus_blocked or f"Approve: {s.bonus_waiting}")
        blocked = self.pit.progressive_blocked()
        self.pay_progressive.setVisible(self.pit.session.rules.progressive is not None)
        self.pay_progressive.setEnabled(blocked is None)
        due = self.pit.session.play.progressive.due()
        self.pay_progressive.setToolTip(
            blocked or "Progressive hit waiting: " + "; ".join(d.words() for d in due)
            + ". Sign in to pay it from the meter as it stands now")
        self.allow_typing.setEnabled(s.typing_blocked is None)
        self.allow_typing.setToolTip(s.typing_blocked or "Let the dealer type this deal's "
                                                         "cards (C) though the shoe is online")
        asked = self.pit.floor_request()
        self.floor_asks.setVisible(asked is not None)
        self.floor_void.setVisible(asked is not None)
        if asked is not None:
            self.floor_asks.setText(f"The pit floor asks to void this round: {asked.by}, "
                                    f"{asked.reason}. A supervisor here does it.")
        self.advise_live.setEnabled(bool(s.hands))
        self.advise_live.setToolTip("" if s.hands else "The hands are dealt first")
        self._live_hands = s.hands

    def _check(self) -> None:
        self.pit.check_bank(int(self.check_seat.currentData()), self.check_chips.text())

    def _advise_live(self) -> None:
        self.open_advice(self._live_hands, None, self.pit.session.keyboard.selected)

    def _round_no(self) -> int | str:
        rnd = self.pit.session.round
        return rnd.rotation.round_no if rnd is not None else "?"

    def _person_dialog(self, title: str, says: str,
                       act: Callable[..., bool]) -> ActionDialog:
        """A supervisor's act: `act(secret, by, reason, then=done)` with the dialog's form."""
        d = ActionDialog(title, says, self.pit, self)

        def done_then_history(done: Callable[[bool], None]) -> Callable[[bool], None]:
            def then(ok: bool) -> None:
                done(ok)
                if ok:  # a round voided shows as void, not open, without pressing Show
                    self.pit.after_writes(self.refresh_history)
            return then

        d.submit = lambda done: act(d.form.secret.text(), d.form.by.text(),
                                    d.form.reason.text(), then=done_then_history(done))
        return self._open(d)

    def open_void(self) -> ActionDialog:
        return self._person_dialog(
            "Void the round", f"Void round {self._round_no()}, in play: the wagers go back to "
            f"the players and the round stays in the ledger as void, with who voided it and "
            f"why. The next round starts from the same bank rotation.", self.pit.void)

    def open_misdeal(self) -> ActionDialog:
        return self._person_dialog(
            "Misdeal", f"Call a misdeal on round {self._round_no()}: the deal ends, every "
            f"wager goes back to the players, and the round stays in the ledger marked "
            f"misdeal, with who called it and why. Action is taken again for a new deal.",
            self.pit.misdeal)

    def open_approve_bonus(self) -> ActionDialog:
        waiting = self.pit.round_in_play().bonus_waiting
        return self._person_dialog(
            "Approve bonus", f"Round {self._round_no()} waits for a supervisor: {waiting}. "
            f"Approve the payout with your own name and secret: the round is settled and its "
            f"slip may print; the ledger keeps who approved it.", self.pit.approve_bonus)

    def open_pay_progressive(self) -> ActionDialog:
        due = self.pit.session.play.progressive.due()
        # one round a sign-in, the oldest first: the dialog names what this sign-in pays
        hits = due[0].words(pays=True) if due else "none"
        more = (f" Then {len(due) - 1} more round(s) wait, each its own sign-in."
                if len(due) > 1 else "")
        return self._person_dialog(
            "Pay progressive", f"Progressive hit: {hits}.{more} Sign in with your own name and "
            f"secret: it is paid from the meter as it stands now (a share of it, or a fixed "
            f"amount from the house); the ledger keeps who signed in.",
            self.pit.pay_progressive)

    def open_allow_typing(self) -> ActionDialog:
        return self._person_dialog(
            "Allow typing cards", "Let the dealer type this deal's cards (select a position, "
            "C, its cards, Enter) though the shoe is online: for a shoe that misreads or "
            "cannot give a card back. For this deal only; the ledger keeps who allowed it "
            "and why.", self.pit.allow_typing)

    def open_floor_void(self) -> ActionDialog | None:
        """The floor's request, done here by a supervisor: the void dialog with the floor's
        reason."""
        asked = self.pit.floor_request()
        if asked is None:
            return None
        d = self._person_dialog(
            "Void the round", f"The pit floor ({asked.by}) asks to void round "
            f"{self._round_no()}, in play: the wagers go back to the players and the round "
            f"stays in the ledger as void, with who voided it and why. A supervisor at this "
            f"table does it; the floor is told who.",
            lambda secret, by, reason, then: self.pit.void_for_floor(asked, secret, by,
                                                                     reason, then=then))
        d.form.reason.setText(f"the floor asked ({asked.by}): {asked.reason}")
        return d

    # --- history --------------------------------------------------------------------------

    def _history_tab(self) -> QWidget:
        w = QWidget()
        self.shift = QComboBox()
        self.seat = QComboBox()
        self.seat.addItem("any seat", None)
        for seat in range(1, 7):
            self.seat.addItem(f"seat {seat}", seat)
        self.any_day = QCheckBox("any day")
        self.any_day.setChecked(True)
        self.day = QDateEdit(QDate.currentDate())
        self.day.setCalendarPopup(True)
        self.day.setDisplayFormat("yyyy-MM-dd")
        self.day.setEnabled(False)
        self.any_day.toggled.connect(lambda on: self.day.setEnabled(not on))
        show = _button("Show")
        show.clicked.connect(self.refresh_history)
        filters = QHBoxLayout()
        for label, widget in (("Shift", self.shift), ("Seat", self.seat)):
            filters.addWidget(QLabel(label))
            filters.addWidget(widget)
        filters.addWidget(QLabel("Day"))
        filters.addWidget(self.day)
        filters.addWidget(self.any_day)
        filters.addStretch(1)
        filters.addWidget(show)
        self.rounds = _table(ROUND_COLUMNS, stretch=3)
        self.history_fit = SideBySide(self, wide=1180)
        self.rounds.itemSelectionChanged.connect(self._round_chosen)
        self.slip_text = QPlainTextEdit()
        self.slip_text.setMinimumWidth(450)
        self.slip_text.setReadOnly(True)
        self.slip_text.setObjectName("slipText")
        self.slip_text.setFont(QFont(MONO, 11))
        self.slip_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.corrections = _label("pitText")
        right = QWidget()
        rbox = QVBoxLayout(right)
        rbox.setContentsMargins(0, 0, 0, 0)
        rbox.addWidget(_label("sectionTitle", "The slip as printed, from the ledger"))
        rbox.addWidget(self.slip_text, 1)
        rbox.addWidget(self.corrections)
        split = QSplitter()
        split.addWidget(self.rounds)
        split.addWidget(right)
        split.setSizes([750, 450])
        split.setStretchFactor(0, 1)
        self.history_split = split
        split.installEventFilter(self.history_fit)
        self.reprint = _button("Reprint slip")
        self.recall = _button("Recall the round...")
        self.recall.clicked.connect(self.open_recall)
        self.advise_past = _button("Advise a hand...")
        self.correct = _button("Correct a settlement...  (supervisor)")
        self.correct.setObjectName("danger")
        self.reprint.clicked.connect(self._reprint)
        self.advise_past.clicked.connect(self._advise_past)
        self.correct.clicked.connect(self.open_correct)
        actions = QHBoxLayout()
        actions.addStretch(1)
        for b in (self.recall, self.reprint, self.advise_past, self.correct):
            actions.addWidget(b)
        box = QVBoxLayout(w)
        add_layout(box, filters)
        box.addWidget(split, 1)
        add_layout(box, actions)
        self._slip_buttons()
        return w

    def fill_shifts(self, then: Callable[[], None] | None = None) -> None:
        """The shifts from the ledger (read on the pit's worker) into both choosers."""
        def fill(shifts: list[ShiftSummary]) -> None:
            for combo in (self.shift, self.totals_shift):
                current = combo.currentData()
                combo.blockSignals(True)
                combo.clear()
                if combo is self.shift:
                    combo.addItem("any shift", None)
                for sh in shifts:
                    opened = sh.opened_at.astimezone().strftime("%Y-%m-%d %H:%M")
                    state = "open" if sh.closed_at is None else "closed"
                    combo.addItem(f"{sh.dealer} - {opened} ({sh.rounds} rounds, {state})",
                                  sh.id)
                index = combo.findData(current)
                combo.setCurrentIndex(max(index, 0))
                combo.blockSignals(False)
            if then is not None:
                then()
        self.pit.shifts(fill)

    def refresh_history(self) -> None:
        picked = self.day.date()
        day = None if self.any_day.isChecked() else date(picked.year(), picked.month(),
                                                         picked.day())
        self.pit.history(self.shift.currentData(), self.seat.currentData(), day,
                         self._show_history)

    def _rounds_in_sight(self) -> None:
        """Room for HISTORY_ROWS rounds above the slip, however the splitter lies (one over
        the other on a 1024x768 screen showed a single round until its divider was
        dragged)."""
        t = self.rounds
        t.ensurePolished()
        row = max([t.rowHeight(r) for r in range(min(t.rowCount(), HISTORY_ROWS))]
                  + [t.fontMetrics().height() + 8])
        t.setMinimumHeight(t.horizontalHeader().sizeHint().height() + HISTORY_ROWS * row
                           + 2 * t.frameWidth())

    def _show_history(self, shown: list[RoundSummary]) -> None:
        self.shown = shown
        rows, colours = [], []
        for r in self.shown:
            started = r.started_at.astimezone().strftime("%m-%d %H:%M")
            rows.append((f"{r.round_no}", started, r.status, r.dealer, r.action or "",
                         r.banker, seats_text(r.seats), money_or_blank(r.wagers_cents),
                         money_or_blank(r.house_net_cents, sign=True)))
            colours.append({"void": theme.LOSE, "open": theme.INFO}.get(r.status))
        _fill(self.rounds, rows, colours, right=(0, 7, 8))
        self._rounds_in_sight()
        self.stored = None
        self.slip_text.setPlainText("Choose a round to read its slip." if self.shown else
                                    "No rounds match.")
        self.corrections.setText("")
        self._slip_buttons()

    def _round_chosen(self) -> None:
        rows = self.rounds.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.shown):
            return
        summary = self.shown[rows[0].row()]
        self.stored = None
        if summary.status != "settled":
            self.slip_text.setPlainText(f"Round {summary.round_no} is {summary.status}: it "
                                        f"has no slip.")
            self.corrections.setText("")
        else:
            self.slip_text.setPlainText(f"Reading round {summary.round_no}'s slip...")
            self.pit.slip(summary.id, lambda stored: self._show_slip(summary.id, stored))
        self._slip_buttons()

    def _show_slip(self, round_id: str, stored: StoredSlip | None) -> None:
        rows = self.rounds.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.shown) or \
                self.shown[rows[0].row()].id != round_id:
            return  # another round was chosen meanwhile
        self.stored = stored
        if stored is not None:
            self.slip_text.setPlainText(self.pit.receipt(stored))
            self.corrections.setText("\n".join(
                ["Corrections (the slip stays as printed):"]
                + [c.text() for c in stored.corrections])
                if stored.corrections else "No corrections.")
        self._slip_buttons()

    def _slip_buttons(self) -> None:
        why = None if self.stored is not None else "Choose a settled round first"
        for b in (self.reprint, self.advise_past, self.correct):
            b.setEnabled(why is None)
            b.setToolTip(why or "")
        chosen = self._chosen() is not None
        self.recall.setEnabled(chosen)
        self.recall.setToolTip("Every card dealt in order, each setting and its rule, the "
                               "payouts, who; the settlement recomputed from the recorded "
                               "cards and rules" if chosen else "Choose a round first")

    def _chosen(self) -> RoundSummary | None:
        rows = self.rounds.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.shown):
            return None
        return self.shown[rows[0].row()]

    def open_recall(self) -> RecallDialog | None:
        """The chosen round, whole, and the core's MATCH or the differences."""
        summary = self._chosen()
        if summary is None:
            return None
        dialog = self._open(RecallDialog(summary.round_no, self))
        self.pit.recall(summary.id, dialog.show_recall)
        return dialog

    def _reprint(self) -> None:
        if self.stored is not None:
            self.pit.reprint(self.stored)

    def _advise_past(self) -> None:
        rules = self.pit.round_rules(self.stored) if self.stored is not None else None
        if self.stored is not None and rules is not None:
            self.open_advice(self.pit.slip_hands(self.stored, rules), rules)

    def open_correct(self) -> ActionDialog | None:
        stored = self.stored
        if stored is None:
            return None
        lines = [p for p in stored.data().get("positions", [])
                 if p.get("outcome") is not None]
        d = ActionDialog("Correct a settlement",
                         f"Correct round {stored.round_no}'s result at one position. The slip "
                         f"stays as printed; the ledger adds a row that reverses the result "
                         f"and a row with the corrected net, with who and why, and the totals "
                         f"count it.", self.pit, self)
        position = QComboBox()
        for p in lines:
            position.addItem(f"{p['name']}: {p['outcome']} {money(p['net_cents'], sign=True)}",
                             p["position"])
        net = QLineEdit()
        net.setPlaceholderText("the corrected net, e.g. +23.75 or -25")
        net.setMinimumHeight(34)
        d.fields.addRow("Position", position)
        d.fields.addRow("Net", net)
        d.position, d.net = position, net  # type: ignore[attr-defined]

        def submit(done: Callable[[bool], None]) -> bool:
            def written(ok: bool) -> None:
                if ok:
                    self._round_chosen()
                    self.refresh_totals()
                done(ok)

            return self.pit.correct(stored.round_id, int(position.currentData()), net.text(),
                                    secret=d.form.secret.text(), by=d.form.by.text(),
                                    reason=d.form.reason.text(), then=written)

        d.submit = submit
        return self._open(d)

    # --- totals ---------------------------------------------------------------------------

    def _totals_tab(self) -> QWidget:
        w = QWidget()
        self.totals_shift = QComboBox()
        self.totals_shift.currentIndexChanged.connect(self.refresh_totals)
        self.totals_summary = _label("totals")
        self.totals_table = _table(TOTAL_COLUMNS, even=True)
        top = QHBoxLayout()
        top.addWidget(QLabel("Shift"))
        top.addWidget(self.totals_shift, 1)
        box = QVBoxLayout(w)
        add_layout(box, top)
        box.addWidget(self.totals_summary)
        box.addWidget(self.totals_table, 1)
        box.addWidget(_label("pitText", "Drop: every wager against the bank (main and dragon). "
                                        "Win: what the house won (its bank, the dealer's "
                                        "hand against a player banker, all commission), "
                                        "corrections counted."))
        return w

    def refresh_totals(self) -> None:
        shift = self.totals_shift.currentData()
        if shift is None:
            self.totals_summary.setText("No shift in the ledger yet.")
            self.totals_table.setRowCount(0)
            return
        self.pit.totals(shift, self._show_totals)

    def _show_totals(self, t: Totals | None) -> None:
        if t is None:
            return
        corrections = f", {t.corrections} correction(s)" if t.corrections else ""
        self.totals_summary.setText(
            f"{t.rounds} settled round(s){corrections}\nDrop {money(t.drop_cents)}   "
            f"Win {money(t.win_cents, sign=True)}   Commission {money(t.commission_cents)}")
        _fill(self.totals_table, [(f"seat {s.seat}", str(s.hands), str(s.banked),
                                   money(s.wagered_cents), money(s.commission_cents),
                                   money(s.net_cents, sign=True)) for s in t.seats],
              right=(1, 2, 3, 4, 5))

    # --- shared ---------------------------------------------------------------------------

    def open_advice(self, hands: Sequence[HandChoice], rules: RoundRules | None,
                    selected: int | None = None) -> AdviceDialog:
        return self._open(AdviceDialog(self.pit, hands, rules, self, selected))

    def _open(self, dialog: D) -> D:
        # the one open before is let go first: its close would clear `dialog` under us
        before, self.dialog = self.dialog, None
        if before is not None:
            before.close()
            before.deleteLater()
        self.dialog = dialog
        dialog.finished.connect(lambda _r: self._closed(dialog))
        dialog.open()
        return dialog

    def _closed(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        self.refresh_round()

    def _round_changed(self) -> None:
        if self.isVisible():  # hidden, it is brought up to date when it opens
            self.refresh_round()

    def show_message(self) -> None:
        self.message.setText(self.pit.message)
        restyle(self.message, "level", self.pit.level)
        self.message.setVisible(bool(self.pit.message))

    def refresh(self) -> None:
        """Everything again (the window is opened)."""
        dealer = self.pit.dealer_name
        self.title.setText(f"PIT SUPERVISOR - table {self.pit.session.rules.table.name}"
                           + (f" - dealer {dealer}" if dealer else ""))
        self.refresh_round()
        def both() -> None:
            self.refresh_history()
            self.refresh_totals()
        self.fill_shifts(both)
        self.show_message()

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        self.pit.message = ""  # what was said the last time it was open is old news
        self.refresh()
