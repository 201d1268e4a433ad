"""The dealer's window: the felt (seven positions around the centre), the side panel, the
device status bar, the keys, and the help (F1). Layout and binding only.

`MainWindow.bind(station, shoe, ...)` binds it to a station (app/station: a `DealerSession`,
its ledger port and printer, and the pool its background work runs on): every
key pressed in the window becomes `KeyPressed` (the registry's keys, and what is typed into
an open field: the session holds the field's text, docs/keyboard.md), a button
`DealerCommand`, a card clicked `CardPicked`, the shoe's signals `CardRead`,
`LeftoversRead`, `Shuffled`, `ShoeStatus`, `ShoeFault` and `DeviceAction`, the printer's
answer `Printed`. Each event's `Changes` is painted: only the seats in `changes.positions`,
the centre only when `changes.centre`, the status bar when `changes.devices`; the buttons
(enabled, tooltips) from `availability(session)`, the "Next:" line from `next_line`.

The ledger's writes and the status bar's polls run on the station's journal lane
(app/ui/worker.py): the
database line says "recording..." until the journal has the change on disk. The status bar
keeps each device to a word or two (the whole story is in its tooltip) so that it never
widens the window past a 1280x800 screen; the ledger's banner takes the rest of the bar
while the database is away. F2 opens the pit supervisor's view over it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QKeyEvent,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.cards import DECK, Card
from app.core.table import DEALER
from app.session import (
    CardPicked,
    CardRead,
    Changes,
    DealerCommand,
    DealerSession,
    DeviceAction,
    Event,
    HitsOwed,
    KeyPressed,
    LeftoversRead,
    MeterStatus,
    Printed,
    ProgressivePaid,
    ShoeFault,
    ShoeStatus,
    Shuffled,
    help_rows,
    next_line,
)
from app.session.commands import COMMANDS_BY_ID, HelpRow, availability
from app.station.jobs import CLOSE_WAIT_S
from drivers.action import ActionInput

from . import theme, view
from .cards import CardWidget
from .felt import FeltView
from .panel import ControlPanel, button_text, button_tip
from .present import Device
from .seat import restyle
from .services import (
    LedgerView,
    MeterReader,
    MeterSeen,
    Printer,
    PrintJob,
    ledger_view,
    outcome_of,
)
from .shoe import ShoeFeed
from .theme import STYLE, named
from .touch import target_px
from .worker import Worker

if TYPE_CHECKING:  # the pit loads when it is first asked for, after the first paint
    from app.station import Jobs, Station, StationLedger

    from .pit import PitController
    from .supervisor import SupervisorWindow

PANEL_WIDTH = 470  # at the style's scale 1 (theme.BASE); it scales with the screen
POLL_MS = 1000  # the status bar asks the printer and the ledger (on the worker) this often
WARM_EACH = 4  # cards drawn ahead per idle turn of the event loop
WARM_AFTER_MS = 150  # after the window's last resize
# Keys by name as the registry spells them (app/session/commands.py); a printable key is
# its character (a letter in capitals: Q and q are the same key), Shift+ a letter's name.
NAMED_KEYS = {Qt.Key.Key_Return: "Enter", Qt.Key.Key_Enter: "Enter", Qt.Key.Key_Escape: "Esc",
              Qt.Key.Key_Backspace: "Backspace", Qt.Key.Key_Left: "Left",
              Qt.Key.Key_Right: "Right", Qt.Key.Key_Space: "Space"}
CORNER_LABELS = {"help": "Keys", "shift": "Dealer"}
NOT_THE_DEALERS = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                   | Qt.KeyboardModifier.MetaModifier)


def key_name(event: QKeyEvent) -> str | None:
    """The registry's name of a key pressed ("W", "Shift+Q", "4", "Enter", "F1"), or None
    for a key the dealer's keyboard does not use (Ctrl and Alt chords among them)."""
    if event.modifiers() & NOT_THE_DEALERS:
        return None
    key = event.key()
    if key in NAMED_KEYS:
        return NAMED_KEYS[Qt.Key(key)]
    if Qt.Key.Key_F1.value <= key <= Qt.Key.Key_F12.value:
        return f"F{key - Qt.Key.Key_F1.value + 1}"
    text = event.text()
    if len(text) != 1 or not text.isprintable():
        return None
    if text.isalpha():
        shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        return f"Shift+{text.upper()}" if shift else text.upper()
    return text


class HelpView(QDialog):
    """F1: every key of the registry, what it does, and whether (or why not) it may be done
    now. As large as the dealer's window allows (never past a 1024x768 screen), in the
    window's scale, each row as tall as its words wrapped in the columns' widths now."""

    COLUMNS = ("Key", "What it does", "Now")
    MOST = (1100, 700)  # on a large screen: a dialog, not a second window
    MARGIN = 24  # the dealer's window shows round it

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keys - what each does now")
        self.setStyleSheet(STYLE)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setWordWrap(True)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        # The rows were measured in the columns' first, narrow widths (190 px tall rows at
        # 1024x768): measured again whenever a column's width settles.
        header.sectionResized.connect(lambda *_: QTimer.singleShot(0, self.fit_rows))
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 8, 8, 8)
        box.addWidget(self.table)
        self.resize(*self.MOST)

    def fit_to(self, window: QWidget, scale: float) -> None:
        """The window's scale, and no larger than the window (the station's screen)."""
        self.setStyleSheet(theme.style(scale))
        width = min(self.MOST[0], window.width() - 2 * self.MARGIN)
        height = min(self.MOST[1], window.height() - 2 * self.MARGIN)
        self.resize(width, height)
        corner = window.mapToGlobal(window.rect().center())
        self.move(corner.x() - width // 2, corner.y() - height // 2)

    def show_rows(self, rows: tuple[HelpRow, ...]) -> None:
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            now = "yes" if row.why_not is None else f"not now: {row.why_not}"
            for c, text in enumerate((row.key, row.words, now)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        self.fit_rows()

    def fit_rows(self) -> None:
        self.table.resizeRowsToContents()

class MainWindow(QMainWindow):
    changed = Signal()  # the session handled an event (the pit's view follows the round)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Pai Gow Poker - dealer station")
        self.setStyleSheet(STYLE)
        self.scale = 1.0
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
        self.devices = [named(QLabel(), "device") for _ in range(3)]
        for label in self.devices:
            bar.addWidget(label)
            label.installEventFilter(self)  # a tap tells what its tooltip tells (explain_device)
        self.felt.center.meter.installEventFilter(self)  # and the meter's, when closed
        self.banner = named(QLabel(), "banner")  # on two lines if it must
        self.banner.setWordWrap(True)
        self.table_info = named(QLabel(), "tableInfo")  # two whole lines (view.table_info)
        self.table_info.installEventFilter(self)  # a tap: the rules in sentences (table_rules)
        for label in (self.banner, self.table_info):  # they take what room is left, no more
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setMinimumWidth(0)
            bar.addWidget(label, 1)
        self.banner.hide()
        # What the keyboard's F1 and F3 do, for a finger (the registry's words and keys).
        self.corner_buttons: dict[str, QPushButton] = {}
        for name in ("help", "shift"):
            command = COMMANDS_BY_ID[name]
            b = named(QPushButton(button_text(command, CORNER_LABELS[name])), "statusButton")
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setToolTip(button_tip(command))
            self.corner_buttons[name] = b
        # in the felt's top corners, empty beside seats 3 and 4: the status bar has no room
        # left at 1024x768 (the table's two lines of rules)
        top = Qt.AlignmentFlag.AlignTop
        self.felt.grid.addWidget(self.corner_buttons["help"], 0, 0,
                                 top | Qt.AlignmentFlag.AlignLeft)
        self.felt.grid.addWidget(self.corner_buttons["shift"], 0, 5,
                                 top | Qt.AlignmentFlag.AlignRight)
        self.pit_button = named(QPushButton("Pit view  [F2]"), "statusButton")
        self.pit_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pit_button.setToolTip("The pit supervisor's view: who may bank, the history, "
                                   "the totals, void and correct (PIN) [F2]")
        bar.addPermanentWidget(self.pit_button)
        self.session: DealerSession | None = None
        self.shoe: ShoeFeed | None = None
        self.printer: Printer | None = None
        self.ledger: StationLedger | None = None
        self.worker: Worker | None = None
        self.station: Station | None = None
        self.hide_bank = True
        self.pit: PitController | None = None
        self.supervisor: SupervisorWindow | None = None
        self.dealer_prompt: QInputDialog | None = None
        self.help: HelpView | None = None
        # The station's (app/ui/main.py): may the window close now? (a supervisor's act)
        self.close_guard: Callable[[], bool] | None = None
        self.printer_device = view.NO_PRINTER
        self.ledger_shown = LedgerView(view.NO_LEDGER, None)
        self._shown_slip: tuple[object, str] | None = None
        self._polling = False
        self._poll_again = False
        self._shown_writing = 0  # the ledger writes the status bar last counted
        self._closed = False
        self._warm = QTimer(self)  # the deck drawn ahead once the window has its size
        self._warm.setSingleShot(True)
        self._warm.setInterval(WARM_AFTER_MS)
        self._warm.timeout.connect(lambda: self.warm_cards())
        self.meter: MeterReader | None = None  # the linked progressive's, at a linked table
        self.meter_lane: Worker | None = None
        self._owed_looked = False  # asked the ledger for the hits it owes since the meter came
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self.poll_devices)

    # --- binding ---------------------------------------------------------------------------

    def show_opening(self) -> None:
        """Before `bind`: the station's ledger is opening off this thread (app/ui/main.py);
        the window says so rather than wait for it."""
        device = view.OPENING_LEDGER
        self.devices[2].setText(device.label)
        self.devices[2].setToolTip(device.detail or device.label)
        restyle(self.devices[2], "state", device.state)
        self.panel.show_message(view.OPENING_MESSAGE, "info")
        # Nothing is pressed before the table shows: every button disabled, with why.
        self.panel.show_availability(dict.fromkeys(self.panel.buttons,
                                                   view.OPENING_REFUSAL))

    def bind(self, station: Station, shoe: ShoeFeed, *, printer: Printer | None = None,
             pit: PitController | None = None, hide_bank: bool = True) -> None:
        """Drive `station`'s session from this window, `shoe` and `printer`. The ledger's
        writes go through the station's lane (`station.writes`, a Worker: answered on this
        thread), and so do the status bar's polls."""
        session = station.session
        self.station = station
        self.session, self.shoe, self.printer = session, shoe, printer
        self.hide_bank = hide_bank
        writes = station.writes
        self.worker = writes if isinstance(writes, Worker) else Worker(self, jobs=station.jobs)
        self.ledger = station.port
        if self.ledger is not None:
            self.ledger.on_written = self._written
            self.ledger_shown = LedgerView(Device("Database: recording", "ok",
                                                  "Asking the ledger..."), None)
        if pit is None:
            from .pit import PitController  # heavy: SQLAlchemy (app.ledger), after the paint

            pit = PitController(self)
        self.pit = pit
        self.pit_button.clicked.connect(self.toggle_pit)
        for name, button in self.corner_buttons.items():
            key = COMMANDS_BY_ID[name].keys[0][0]  # as its key does: F1, F3
            button.clicked.connect(lambda _=False, key=key: self.press(key))
        self.felt.keypad.pressed.connect(self.press)
        for name, button in self.panel.buttons.items():
            button.clicked.connect(lambda _=False, name=name: self.click(name))
        self.panel.refused.connect(self.explain)
        for seat in self.felt.seats.values():
            seat.clicked.connect(self.select)
            seat.card_clicked.connect(self.pick)
        shoe.card_read.connect(lambda c: self.handle(CardRead(c)))
        shoe.card_at.connect(lambda c, first, seq: self.handle(CardRead(c, seq, first)))
        shoe.leftovers_read.connect(lambda cards: self.handle(LeftoversRead(tuple(cards))))
        shoe.action_read.connect(self._device_action)
        shoe.shuffled.connect(lambda: self.handle(Shuffled()))
        shoe.status_changed.connect(self._shoe_status)
        shoe.fault.connect(lambda text: self.handle(ShoeFault(text)))
        if printer is not None:
            self.printer_device = printer.device()
            printer.finished.connect(self._printed)
        if self.felt.direction is not session.table.direction:
            self.felt.direction = session.table.direction  # the ring's arrows
            self.felt.update()
        if session.devices.shoe_status != shoe.status or session.devices.shoe_online != shoe.online:
            session.handle(ShoeStatus(shoe.online, shoe.status, shoe.short, shoe.demo))
        self.paint(None)
        if printer is not None or self.ledger is not None:
            self._poll.start()
            self.poll_devices()
        card = session.rules.progressive
        if card is not None and self.ledger is not None:
            self.ledger.on_paid = self._progressive_paid
            self.meter_lane = Worker(self, jobs=station.jobs)
            self.meter = MeterReader(self.ledger, card, self.meter_lane, self._meter_seen, self,
                                     jobs=station.jobs)
            self.meter.start()

    def _progressive_paid(self, answer: ProgressivePaid) -> None:
        """The ledger's answer to a hit's payment (on this thread): an event, recorded."""
        if not self._closed:
            self.handle(answer)
            self.poll_meter_now()

    def poll_meter_now(self) -> None:
        if self.meter is not None:
            self.meter.ask()

    def _meter_seen(self, seen: MeterSeen) -> None:
        """The meter as read: on the felt; the session told when it can or cannot be
        reached (it then takes no new progressive wager, pays no hit)."""
        if self._closed or self.session is None:
            return
        self.felt.center.show_meter(seen.text, seen.why)
        if seen.online != self.session.play.progressive.online:
            self.handle(MeterStatus(seen.online, "" if seen.online else seen.why))
        if not seen.online:
            self._owed_looked = False  # looked for again once the meter is back
        elif not self._owed_looked:
            self.look_for_owed_hits()

    def look_for_owed_hits(self) -> None:
        """The hits the ledger owes from before (a station stopped before the sign-in),
        found off this thread on the meter's lane; the answer an event, recorded. Looked
        for at start and each time the meter can be reached again."""
        ledger, lane = self.ledger, self.meter_lane
        if ledger is None or lane is None or lane.closed:
            return
        self._owed_looked = True

        def answered(result: object, _error: BaseException | None) -> None:
            if isinstance(result, HitsOwed):
                if not self._closed:
                    self.handle(result)
            else:
                self._owed_looked = False  # the next reading of the meter looks again
        lane.submit(ledger.hits_owed, answered)

    @property
    def jobs(self) -> Jobs | None:
        """The station's pool: the pit's reads and the floor's heartbeat run there."""
        return self.station.jobs if self.station is not None else None

    def _shoe_status(self) -> None:
        shoe = self.shoe
        assert shoe is not None
        if self._closed:  # the shoe's port closing says so after the station has stopped
            return
        self.handle(ShoeStatus(shoe.online, shoe.status, shoe.short, shoe.demo))

    def _device_action(self, inp: ActionInput) -> None:
        self.handle(DeviceAction.of(inp))

    def _printed(self, job: PrintJob, result: object) -> None:
        self.handle(Printed(outcome_of(job, result)))
        self.poll_devices()

    # --- events in, changes painted --------------------------------------------------------

    def handle(self, event: Event) -> Changes:
        """One event through the session; what it changed is painted."""
        assert self.session is not None
        changes = self.session.handle(event)
        self.apply(changes)
        return changes

    def press(self, key: str) -> Changes:
        """A key, by the registry's name: the session decides what it does (a command, a
        character typed into the open field, or nothing, said why)."""
        changes = self.handle(KeyPressed(key))
        if not self.felt.hasFocus():
            self.felt.setFocus()  # the table keeps the keyboard: no widget takes a key
        return changes

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Every key pressed in the dealer's window goes to the session, once (a held key
        does not repeat: a command must never fire twice by a slow finger)."""
        name = key_name(event)
        if name is None or self.session is None:
            super().keyPressEvent(event)
            return
        event.accept()
        if not event.isAutoRepeat():
            self.press(name)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: A002, ARG002 - Qt's signature
        return False  # Tab moves the keyboard nowhere: it stays on the table

    def select(self, position: int) -> Changes:
        return self.handle(DealerCommand("select", "7" if position == DEALER else str(position)))

    def pick(self, position: int, c: Card) -> Changes:
        return self.handle(CardPicked(position, c))

    def click(self, name: str) -> Changes:
        """A button: its command. One with a field opens the field as its key does, or, when
        its field is open, is its Enter (another field open is left first)."""
        s = self.session
        assert s is not None
        command = COMMANDS_BY_ID[name]
        if command.field is None:
            return self.handle(DealerCommand(name))
        if s.keyboard.entry is not None and s.keyboard.entry.command == name:
            return self.press("Enter")
        if s.keyboard.entry is not None:
            self.handle(DealerCommand("escape"))
        if command.direct is not None and command.direct(s):
            return self.handle(DealerCommand(name))
        return self.press(command.keys[0][0])

    def apply(self, changes: Changes) -> None:
        shoe = self.shoe
        for ask in changes.shoe:
            if shoe is None:
                break
            if ask == "start_deal":
                shoe.start_deal()
            elif ask == "stop_deal":
                shoe.stop_deal()
            elif ask in ("online", "offline"):
                shoe.set_online(ask == "online")
        self.paint(changes)
        self.changed.emit()
        if changes.show is not None:
            self.open_view(changes.show)

    def open_view(self, what: str) -> None:
        if what == "help":
            self.show_help()
        elif what == "pit":
            self.toggle_pit()
        elif what == "misdeal":  # the pit view, open at the supervisor's misdeal
            if self.supervisor is None or not self.supervisor.isVisible():
                self.toggle_pit()
            if self.supervisor is not None:
                self.supervisor.open_misdeal()
        elif what == "approve_bonus":  # the pit view, open at the bonus payout's approval
            if self.supervisor is None or not self.supervisor.isVisible():
                self.toggle_pit()
            if self.supervisor is not None:
                self.supervisor.open_approve_bonus()
        elif what == "pay_progressive":  # the pit view, open at the hit's sign-in
            if self.supervisor is None or not self.supervisor.isVisible():
                self.toggle_pit()
            if self.supervisor is not None:
                self.supervisor.open_pay_progressive()
        elif what == "dealer":
            self.ask_dealer()
        # "field:NAME": the field is open; the paint shows its text (the session's)

    # --- painting ---------------------------------------------------------------------------

    def paint(self, changes: Changes | None) -> None:
        """Paint what `changes` says changed (None: everything)."""
        s = self.session
        if s is None:
            return
        if changes is None or changes.positions:
            dealing = s.dealing()
            positions = s.table.positions if changes is None else changes.positions
            for position in positions:
                self.felt.seats[position].show_state(view.seat(s, position, dealing,
                                                               self.hide_bank))
            # The cards first: on the glass before the rest of this paint (the panel, the
            # status bar) is worked out and laid out; the rest follows in the same turn of
            # the event loop.
            for position in positions:
                self.felt.seats[position].paint_dealt()
        if changes is None or changes.centre:
            self.felt.center.show_state(view.centre(s))
            self.felt.show_no_play(s.table.no_play_between(
                s.round.banker if s.round is not None else DEALER))
        p = self.panel
        lines = view.panel(s)
        p.phase.setText(lines.phase)
        p.next.setText(next_line(s))
        p.show_message(s.message, s.level)
        p.selected.setText(lines.selected)
        p.show_availability(availability(s), lines.labels)
        self.show_corner_availability()
        p.buttons["co_bank"].setChecked(s.play.co_bank)
        p.fields["cards"].setPlaceholderText(lines.cards_hint)
        p.fields["bank"].setPlaceholderText(lines.bank_hint)
        p.fields["dragon"].setPlaceholderText(lines.dragon_hint)
        entry = s.keyboard.entry
        k = s.keyboard
        self.felt.show_keypad(entry.field.takes if entry is not None else None,
                              entry is not None or k.asking is not None or k.same is not None
                              or k.held is not None)
        p.show_entry(entry.field.name if entry is not None else None,
                     entry.text if entry is not None else "", s.keyboard.front_text)
        if changes is None:
            p.show_log(tuple(s.log))
        elif changes.log:
            p.add_log(changes.log)
        self.paint_slip()
        writing = self.ledger.pending if self.ledger is not None else 0
        if changes is None or changes.devices or changes.prints or writing != self._shown_writing:
            self.paint_devices()
        if self.help is not None and self.help.isVisible():
            self.help.show_rows(help_rows(s))

    def show_corner_availability(self) -> None:
        assert self.session is not None
        for name, button in self.corner_buttons.items():
            reason = COMMANDS_BY_ID[name].available(self.session)
            button.setEnabled(reason is None)
            tip = button_tip(COMMANDS_BY_ID[name]) if reason is None else f"Not now: {reason}"
            if button.toolTip() != tip:
                button.setToolTip(tip)

    def paint_slip(self) -> None:
        s = self.session
        assert s is not None
        printer = self.printer
        printing = printer is not None and printer.busy is not None
        attached = printer is not None and not printer.none
        slip = s.round.slip if s.round is not None else None
        shown = (slip, view.slip_printed(s, attached, printing))
        if shown == self._shown_slip:
            return
        self._shown_slip = shown
        self.panel.show_slip(view.slip(s), shown[1])

    def tell(self, text: str, level: str, log: str) -> None:
        """A line for the dealer from outside the session (the pit floor), and one for the
        round's log."""
        self.panel.show_message(text, level)
        self.panel.add_log((log,))

    def paint_devices(self) -> None:
        s = self.session
        if s is None:
            return
        printer = self.printer_device
        if self.printer is not None and self.printer.busy is not None:
            printer = Device("Printer: printing", "ok", "Printing a slip.")
        database = view.NO_LEDGER
        banner = None
        self._shown_writing = self.ledger.pending if self.ledger is not None else 0
        if self.ledger is not None:
            database = view.recording_device(self.ledger_shown.device, self.ledger.pending,
                                             self.ledger.failed)
            banner = self.ledger_shown.banner
        for label, device in zip(self.devices, (view.shoe_device(s), printer, database),
                                 strict=True):
            label.setText(device.label)
            label.setToolTip(device.detail or device.label)
            restyle(label, "state", device.state)
        self.banner.setText(banner or "")
        self.banner.setToolTip(banner or "")
        self.banner.setVisible(bool(banner))
        self.table_info.setVisible(not banner)
        info = view.table_info(s)
        self.table_info.setText(info)
        self.table_info.setToolTip(view.table_rules(s))

    def showEvent(self, event: QShowEvent) -> None:
        # No larger than the screen allows: a style drawn for a larger screen would hold the
        # window larger than this one (its least size) before it could be resized.
        room = self.screen().availableGeometry()
        self.rescale(min(theme.scale_for(self.width(), self.height()),
                         theme.scale_for(room.width(), room.height())))
        self.fit_targets()  # the screen is known once shown
        super().showEvent(event)
        self._warm.start()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.rescale(theme.scale_for(event.size().width(), event.size().height()))
        super().resizeEvent(event)
        self._warm.start()

    def rescale(self, scale: float) -> None:
        """The style, the side panel's width and the felt's spacing for the screen's size:
        the whole table fits a 1024x768 screen and reads from afar on a large one."""
        if scale == self.scale:
            return
        self.scale = scale
        self.setStyleSheet(theme.style(scale))
        self.panel.setFixedWidth(theme.px(PANEL_WIDTH, scale))
        self.panel.set_scale(scale)
        self.felt.set_scale(scale)
        self.fit_targets()

    def fit_targets(self) -> None:
        """Every button a fingertip's size on this screen (app/ui/touch.py): the station's
        screen is a touch screen at many tables."""
        side = target_px(self.screen())
        self.felt.keypad.set_target(side)
        self.panel.set_target(side)
        for b in (*self.corner_buttons.values(), self.pit_button):
            b.setMinimumHeight(side)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() is QEvent.Type.MouseButtonRelease and watched in self.devices:
            self.explain_device(self.devices.index(watched))
        elif event.type() is QEvent.Type.MouseButtonRelease and watched is self.table_info:
            # the table's rules in sentences: the status bar holds only their short words
            self.panel.show_message(self.table_info.toolTip(), "info")
        elif (event.type() is QEvent.Type.MouseButtonRelease
              and watched is self.felt.center.meter and self.felt.center.meter.toolTip()):
            # "Progressive closed": why, which only its tooltip holds (a finger cannot hover)
            meter = self.felt.center.meter
            self.panel.show_message(f"{meter.text()}: {meter.toolTip()}", "info")
        return super().eventFilter(watched, event)

    def explain_device(self, index: int) -> None:
        """A device's whole story (the port, the reason, what to do), which its tooltip
        holds, in the message: a finger cannot hover."""
        label = self.devices[index]
        detail = label.toolTip()
        if detail and detail != label.text():
            self.panel.show_message(f"{label.text()}. {detail}", "info")
        else:
            self.panel.show_message(label.text(), "info")

    def explain(self, name: str) -> None:
        """A button tapped while it may not be pressed: why not, in the message (its tooltip
        says the same, but a finger cannot hover)."""
        if self.session is None:
            return
        command = COMMANDS_BY_ID[name]
        reason = command.available(self.session)
        if reason is not None:
            self.panel.show_message(f"{command.button}: not now - {reason}", "info")

    def warm_cards(self, left: list[Card] | None = None) -> None:
        """Draw the deck at each seat's card size while the window is idle, a few cards at a
        time, so no dealt card waits for its first drawing."""
        if self._closed:
            return
        todo = list(DECK) if left is None else left
        sizes: dict[tuple[int, int], CardWidget] = {}
        for seat in self.felt.seats.values():
            for cw in seat.cards:
                if cw.width() > 0 and cw.height() > 0:
                    sizes.setdefault((cw.width(), cw.height()), cw)
        for cw in sizes.values():
            cw.warm(todo[:WARM_EACH])
        if todo[WARM_EACH:]:
            QTimer.singleShot(0, lambda: self.warm_cards(todo[WARM_EACH:]))

    # --- the worker: the ledger's writes, the status bar's polls ---------------------------

    def _written(self, error: BaseException | None) -> None:
        """The worker confirmed a ledger write (or the journal refused it)."""
        if error is not None:
            text = (f"The ledger did not take this change ({error}). Call a supervisor; the "
                    f"round goes on.")
            self.panel.show_message(text, "error")
            self.panel.add_log((f"Ledger: {error}",))
        self.paint_devices()

    def poll_devices(self) -> None:
        """Ask the printer and the ledger how they are, on the worker (the kept slips on
        disk, the journal's count, the database); the answer repaints the status bar."""
        if self.worker is None or self._closed:
            return
        if self._polling:  # asked while an answer is on its way: ask again after it
            self._poll_again = True
            return
        self._polling, self._poll_again = True, False
        ledger = self.ledger.ledger if self.ledger is not None else None
        printer = self.printer

        def ask() -> tuple[LedgerView | None, Device | None]:
            # A printer printing says so itself (the window sees it busy); asked then, its
            # answer would outlive the print.
            if printer is None or printer.busy is not None:
                return (ledger_view(ledger) if ledger is not None else None, None)
            printer.refresh()
            return (ledger_view(ledger) if ledger is not None else None, printer.device())

        def answered(result: object, _error: BaseException | None) -> None:
            self._polling = False
            if self._poll_again:
                self.poll_devices()
            if isinstance(result, tuple):
                seen, device = result
                if seen is not None:
                    self.ledger_shown = seen
                if device is not None:
                    self.printer_device = device
            if self.session is not None:
                self.paint_devices()
                self.paint_slip()
                p = self.panel
                p.next.setText(next_line(self.session))
                p.show_availability(availability(self.session), view.panel(self.session).labels)

        self.worker.submit(ask, answered)

    # --- the help, the pit and the shift ------------------------------------------------------

    def show_help(self) -> HelpView:
        """F1: every key and what it does now (kept up to date while it is open)."""
        assert self.session is not None
        if self.help is None:
            self.help = HelpView(self)
            self.help.finished.connect(lambda _r: self.felt.setFocus())
        self.help.fit_to(self, self.scale)
        self.help.show_rows(help_rows(self.session))
        self.help.show()
        self.help.raise_()
        return self.help

    def toggle_pit(self) -> SupervisorWindow | None:
        """F2: the pit supervisor's view over the dealer's window, or closed again."""
        if self.pit is None:
            return None
        if self.supervisor is not None and self.supervisor.isVisible():
            self.supervisor.close()
            self.felt.setFocus()
            return self.supervisor
        if self.supervisor is None:
            # heavy: SQLAlchemy (app.ledger, through the pit), loaded when first asked for
            from .supervisor import SupervisorWindow

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
        d = QInputDialog(self)
        d.setWindowTitle("The dealer at this table")
        d.setLabelText("The dealer's name (the ledger records every round under the "
                       "dealer's shift):")
        d.setTextEchoMode(QLineEdit.EchoMode.Normal)
        ledger = self.session.play.ledger if self.session is not None else None
        if ledger is not None and ledger.dealer:
            d.setTextValue(ledger.dealer)
        d.setStyleSheet(STYLE + "QLineEdit { min-width: 360px; }")
        d.textValueSelected.connect(lambda name: self.handle(DealerCommand("shift", name)))
        d.finished.connect(lambda _r: self.felt.setFocus())
        self.dealer_prompt = d
        d.open()
        return d

    # --- closing ------------------------------------------------------------------------------

    def close_station(self) -> None:
        """The shoe's port, the slip printing now, the ledger's writes (every one queued is
        written before the journal closes; what is not yet in the database stays in the
        journal for the next start). Once."""
        if self._closed:
            return
        self._closed = True
        self._poll.stop()
        if self.meter is not None:
            self.meter.stop()
        if self.meter_lane is not None:
            self.meter_lane.close()
        if self.shoe is not None:
            self.shoe.close()
        if self.printer is not None:
            self.printer.wait()
        if self.pit is not None:
            self.pit.close()
        if self.worker is not None:
            self.worker.close()  # the station's own lane, or the polls' lane made here
        if self.station is not None:
            left = self.station.close()  # the ledger's journal sent on or kept, the pool let go
            if left:
                print(f"paigow-dealer: closed with {left} background job(s) still running "
                      f"after {CLOSE_WAIT_S:.0f} s (the printer or the database stopped "
                      "answering); the journal is closed, so nothing is lost",
                      file=sys.stderr)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.close_guard is not None and not self.close_guard():
            event.ignore()  # the supervisor is asked for (app/ui/closing.CloseGuard)
            return
        for dialog in (self.supervisor, self.dealer_prompt, self.help):
            if dialog is not None:
                dialog.close()
        self.close_station()
        super().closeEvent(event)
