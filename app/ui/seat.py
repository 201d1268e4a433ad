"""One position at the table: its title, badges, wager, seven cards, hands and notes."""

from __future__ import annotations

from dataclasses import replace

import shiboken6
from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QMouseEvent, QRegion, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.core.cards import Card
from app.core.table import CARDS_PER_HAND

from .cards import ASPECT, LIFT, CardWidget
from .layouts import add_layout
from .present import SeatState
from .theme import px

FRONT_GAP = 0.3  # the gap between the two-card and the five-card hand, in card widths
SPACING = 0.06  # between cards that do not overlap, in card widths
MIN_SHOWN = 0.48  # an overlapped card still shows this much of its width (its index)


def restyle(widget: QWidget, prop: str, value: object) -> None:
    """Set a property the style sheet reads, and let the style see it."""
    if widget.property(prop) == value:
        return
    widget.setProperty(prop, value)
    repolish(widget)


def repolish(widget: QWidget) -> None:
    """The style sheet read again for the widget (a property or its name changed)."""
    style = widget.style()
    if not isinstance(style, QStyle):
        # PySide keeps a Python wrapper per C++ address: when Qt has deleted an object
        # whose wrapper lingers and the style sheet's new style takes its address,
        # style() hands back that stale wrapper (seen as a QWidgetItem). Drop it and ask
        # again for the style itself.
        shiboken6.invalidate(style)
        style = widget.style()
    try:
        style.unpolish(widget)
        style.polish(widget)
    finally:
        # The style is Qt's own (a style sheet's proxy, deleted with its window). Its
        # wrapper is dropped now rather than left to outlive it: a wrapper PySide still
        # maps to a freed address is what it hands back, or mistakes for the object Qt
        # puts there next (the stale QWidgetItem above; a slip table's item deleted under
        # its wrapper, a crash in setItem in a long test run).
        shiboken6.invalidate(style)


def _label(name: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    return label


class CardRow(QWidget):
    """Seven cards as big as the place allows: side by side, or fanned like a hand in play
    (each card still showing its index) when that makes them bigger; once the hand is set
    a gap parts the two-card hand from the five-card hand."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cards = [CardWidget(self) for _ in range(CARDS_PER_HAND)]
        self.split = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(70)

    def sizeHint(self) -> QSize:
        return QSize(480, 150)

    def set_split(self, split: bool) -> None:
        if split != self.split:
            self.split = split
            self.arrange()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.arrange()

    def offsets(self, w: float, step: float) -> list[float]:
        """Where each card starts, from the left of the row."""
        xs, x = [], 0.0
        for i in range(len(self.cards)):
            xs.append(x)
            if self.split and i == 0:
                x += w * (1 + SPACING)
            elif self.split and i == 1:
                x += w * (1 + SPACING + FRONT_GAP)
            else:
                x += step
        return xs

    def geometry_for(self, width: float, height: float) -> tuple[float, float]:
        """(card width, step between the starts of fanned cards) for this room."""
        n = len(self.cards)
        fanned = n - 3 if self.split else n - 1  # steps that may overlap
        # the front pair, the room after each of its cards and the gap (as offsets lays out)
        front = 2 + 2 * SPACING + FRONT_GAP if self.split else 0.0
        w = height / (ASPECT * (1 + LIFT))
        step = (width - w * (1 + front)) / fanned
        if step >= w * (1 + SPACING):
            return w, w * (1 + SPACING)
        if step >= w * MIN_SHOWN:
            return w, step
        w = width / (1 + front + fanned * MIN_SHOWN)
        return w, w * MIN_SHOWN

    def arrange(self) -> None:
        width, height = self.width(), self.height()
        w, step = self.geometry_for(width, height)
        xs = self.offsets(w, step)
        total = xs[-1] + w
        left = max(0.0, (width - total) / 2)
        h = w * ASPECT * (1 + LIFT)
        y = max(0.0, (height - h) / 2)
        for x, cw in zip(xs, self.cards, strict=True):
            # whole pixels inside the row: a card's edge is never cut by rounding
            cx, cy = int(left + x), int(y)
            cw.setGeometry(QRect(cx, cy, min(round(w), width - cx), min(round(h), height - cy)))
            cw.raise_()


class SeatView(QFrame):
    """Layout only: `show_state` puts a `SeatState` on screen."""

    clicked = Signal(int)
    card_clicked = Signal(int, object)

    def __init__(self, position: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.position = position
        self.state: SeatState | None = None
        self.dealt = QRegion()  # the cards changed by show_state, not painted yet (row's)
        self.setObjectName("seat")
        # Every seat gets its share of the felt whatever its header says (no seat pushes the
        # others aside, nor the window past the screen).
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)

        self.title = _label("seatTitle")
        self.action_badge = _label("badgeAction", "ACTION")
        self.order_badge = _label("badgeOrder")
        self.role_badge = _label("badgeRole")
        self.bonus_badge = _label("badgeBonus")  # the seat's bonus wager (issue 26)
        self.progressive_badge = _label("badgeProgressive")  # its progressive wager (27)
        self.badges = (self.action_badge, self.order_badge, self.role_badge, self.bonus_badge,
                       self.progressive_badge)
        for badge in self.badges:  # each shown by the seat's state (while the ledger opens,
            badge.hide()  # no seat is the action)
        self.result = _label("result")
        self.wager = _label("wager")
        for w in (self.title, self.wager, *self.badges):
            w.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        # The outcome and its payout take the seat's width, on two lines if they must.
        self.result.setWordWrap(True)
        self.result.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # The seat's number and its wager share the top line; the badges (action, the order
        # from action, the seat's role) go beside them when there is room, else on a line of
        # their own below, never over the number or the wager.
        self.header = QHBoxLayout()
        self.header.setSpacing(6)
        self.header.addWidget(self.title)
        self.header.addStretch(1)
        self.header.addWidget(self.wager)
        self.badge_row = QHBoxLayout()
        self.badge_row.setSpacing(6)
        self.badge_row.addStretch(1)
        self.badges_inline = False
        for badge in self.badges:
            self.badge_row.insertWidget(self.badge_row.count() - 1, badge)

        self.row = CardRow(self)
        self.cards = self.row.cards
        for cw in self.cards:
            cw.clicked.connect(self._card_clicked)

        self.hands = _label("hands")
        self.hands.setWordWrap(True)
        self.hands.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note = _label("rule")
        self.note.setWordWrap(True)
        self.note.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        self.box = box = QVBoxLayout(self)
        add_layout(box, self.header)
        add_layout(box, self.badge_row)
        box.addWidget(self.row, 1)
        box.addWidget(self.hands)
        box.addWidget(self.result)
        box.addWidget(self.note)
        self.set_scale(1.0)

    def set_scale(self, scale: float) -> None:
        """Margins, spacing and the least room for the cards and a note, for the style's
        scale (theme.scale_for)."""
        self.scale = scale
        # little room between the lines: the House Way's words are 14 px at 1024x768
        self.box.setContentsMargins(px(10, scale), px(3, scale), px(10, scale), px(3, scale))
        self.box.setSpacing(px(2, scale))
        self.row.setMinimumHeight(px(56, scale))
        self.arrange_header()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.arrange_header()

    def arrange_header(self) -> None:
        """The badges beside the number and the wager when all fit on one line, else on
        their own line."""
        shown = [b for b in self.badges if not b.isHidden()]
        room = self.contentsRect().width() - self.box.contentsMargins().left() \
            - self.box.contentsMargins().right()
        need = sum(w.sizeHint().width() for w in (self.title, self.wager, *shown)) + \
            self.header.spacing() * (len(shown) + 2)
        inline = need <= room
        if inline == self.badges_inline:
            return
        self.badges_inline = inline
        for badge in self.badges:
            if inline:
                self.header.insertWidget(self.header.indexOf(self.title) + 1 +
                                         self.badges.index(badge), badge)
            else:
                self.badge_row.insertWidget(self.badges.index(badge), badge)

    def _card_clicked(self, c: Card) -> None:
        self.card_clicked.emit(self.position, c)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.position)
            event.accept()
            return
        super().mousePressEvent(event)

    def show_state(self, s: SeatState) -> None:
        if s == self.state:
            return  # nothing to repaint
        before, self.state = self.state, s
        header = (s.title, s.key, s.action, s.order, s.role, s.wager, s.bonus, s.progressive)
        if before is None or header != (before.title, before.key, before.action,
                                        before.order, before.role, before.wager,
                                        before.bonus, before.progressive):
            self.show_header(s)
        self.result.setVisible(bool(s.result))
        self.result.setText(s.result)
        restyle(self.result, "kind", s.result_kind)
        self.row.set_split(s.split)
        # Only cards changed (a card dealt): nothing in the seat moves, so the cards may be
        # painted at once (paint_dealt); else the seat is laid out again first, as ever.
        only_cards = before is not None and replace(before, cards=s.cards) == s
        dealt = QRegion()
        for i, cw in enumerate(self.cards):
            c = s.cards[i] if i < len(s.cards) else None
            if cw.show_card(c, selected=c is not None and c in s.picked,
                            dim=s.mucked, clickable=s.clickable, face_down=s.face_down) \
                    and only_cards:
                dealt += cw.geometry()
        self.dealt = dealt
        self.hands.setText(s.hands)
        self.hands.setToolTip(s.hands)
        self.note.setText(s.note)
        self.note.setToolTip(s.note_detail or s.note)
        kind = {"foul": "foul", "preview-foul": "foul", "preview-legal": "legal",
                "offer": "offer", "info": "info"}.get(s.note_kind, "rule")
        if self.note.objectName() != kind:  # the style sheet reads it: polish once changed
            self.note.setObjectName(kind)
            repolish(self.note)
        restyle(self.note, "preview", s.note_kind.startswith("preview"))
        restyle(self, "selected", s.selected)
        restyle(self, "mucked", s.mucked)

    def show_header(self, s: SeatState) -> None:
        """The number, the badges and the wager. Only when one of them changed: a card dealt
        leaves the header as it was, and measuring its labels again (arrange_header) is
        text measurement in the style sheet's fonts on every card."""
        self.title.setText(f"{s.title}  [{s.key}]")
        self.action_badge.setVisible(s.action)
        self.order_badge.setVisible(s.order is not None)
        self.order_badge.setText(f"#{s.order}" if s.order is not None else "")
        self.order_badge.setToolTip("dealt and paid in this place from action")
        self.role_badge.setVisible(bool(s.role))
        self.role_badge.setText(s.role)
        restyle(self.role_badge, "offer", s.role.endswith("OFFER"))
        self.bonus_badge.setVisible(bool(s.bonus))
        self.bonus_badge.setText(s.bonus)
        self.bonus_badge.setToolTip("the seat's bonus wager (Fortune bonus), settled on its "
                                    "seven cards after the Pai Gow wagers")
        self.progressive_badge.setVisible(bool(s.progressive))
        self.progressive_badge.setText(s.progressive)
        self.progressive_badge.setToolTip("the seat's linked progressive wager (the card's "
                                          "amount): part of it feeds the meter; paid on its "
                                          "seven cards")
        self.wager.setText(s.wager)
        self.arrange_header()

    def paint_dealt(self) -> None:
        """The cards the last `show_state` changed, painted now (and only they: the seat's
        other cards, its labels and the rest of the window wait for the event loop). A card
        read goes on the glass before the side panel and the status bar are worked out."""
        if not self.dealt.isEmpty():
            self.row.repaint(self.dealt)
            self.dealt = QRegion()
