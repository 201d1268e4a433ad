"""The felt: the dealer's place at the bottom, the six seats round it, and the round's
action and order in the middle, drawn as the dealer sees the table.

Seats are numbered clockwise from the dealer's left: seen from above with the dealer at the
bottom, seat 1 is at the lower left, seats 3 and 4 across the table, seat 6 at the lower
right. A ring of arrows round the middle shows the way the deal and the payouts go. At a table with
a NO PLAY spot (seed 004) a "NO PLAY" button is drawn between the bank and the next place.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QRadialGradient,
    QResizeEvent,
)
from PySide6.QtWidgets import QGridLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from app.core.table import DEALER, Direction

from . import theme
from .present import CenterState
from .seat import SeatView
from .theme import named, px
from .touch import Keypad

# (row, column, column span) in a grid of 3 rows by 6 half-columns.
PLACES: dict[int, tuple[int, int]] = {
    3: (0, 1), 4: (0, 3),
    2: (1, 0), 5: (1, 4),
    1: (2, 0), DEALER: (2, 2), 6: (2, 4),
}
CENTER = (1, 2)


class CenterView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = named(QLabel(), "centerText")
        self.phase = named(QLabel(), "centerTitle")
        self.action = named(QLabel(), "centerAction")
        self.order = named(QLabel(), "order")
        self.bank = named(QLabel(), "centerText")
        # The linked progressive's meter as the window last read it, large (read from the
        # dealer's place), in the heading's place: the centre has no room for both at
        # 1024x768, and the panel and the status bar name the table and the round.
        self.meter = named(QLabel(), "centerMeter")
        self.meter.hide()
        box = QVBoxLayout(self)
        box.setSpacing(4)
        box.addStretch(1)
        for label in (self.meter, self.heading, self.phase, self.action, self.order,
                      self.bank):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)
            box.addWidget(label)
        box.addStretch(1)

    def show_state(self, s: CenterState) -> None:
        self.heading.setText(s.heading)
        self.phase.setText(s.phase)
        self.action.setText(s.action)
        self.order.setText(s.order)
        self.bank.setText(s.bank)

    def show_meter(self, text: str, why: str = "") -> None:
        """"Progressive $10,002.10" (the meter as read), "Progressive closed" (`why`: its
        tooltip), or "" at a table on none."""
        if self.meter.text() != text:
            self.meter.setText(text)
        self.meter.setToolTip(why)
        self.meter.setVisible(bool(text))
        self.heading.setVisible(not text)


class FeltView(QWidget):
    """Layout only: the seat views in their places and the centre."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("felt")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.direction = Direction.CLOCKWISE
        self.seats: dict[int, SeatView] = {}
        self.center = CenterView(self)
        # The keypad takes the centre's place while an amount is typed: the seats stay in
        # sight and may still be tapped (a wager's field moves with the seat tapped).
        self.keypad = Keypad(self)
        self.middle = QStackedWidget(self)
        self.middle.addWidget(self.center)
        self.middle.addWidget(self.keypad)
        self.grid = grid = QGridLayout(self)
        for position, (row, col) in PLACES.items():
            view = SeatView(position, self)
            self.seats[position] = view
            grid.addWidget(view, row, col, 1, 2)
        grid.addWidget(self.middle, CENTER[0], CENTER[1], 1, 2)
        for c in range(6):
            grid.setColumnStretch(c, 1)
        for r in range(3):
            grid.setRowStretch(r, 1)
        self.no_play = named(QLabel("NO PLAY", self), "noPlay")
        self.no_play.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.no_play.setStyleSheet(
            "QLabel#noPlay { background: #7a1010; color: white; font-weight: bold;"
            " border: 2px solid white; border-radius: 6px; padding: 2px 6px; }")
        self.no_play.hide()
        self.no_play_between: tuple[int, int] | None = None
        self._background: QPixmap | None = None
        self._background_key: object = None
        self.set_scale(1.0)

    def set_scale(self, scale: float) -> None:
        """The felt's border and the room between the places, for the style's scale."""
        self.grid.setContentsMargins(px(26, scale), px(20, scale), px(26, scale),
                                     px(20, scale))
        self.grid.setHorizontalSpacing(px(12, scale))
        self.grid.setVerticalSpacing(px(10, scale))
        for seat in self.seats.values():
            seat.set_scale(scale)

    def show_keypad(self, takes: str | None, shown: bool) -> None:
        """The keypad in the middle (the keys `takes` allows: Keypad.show_for), or the
        round's centre again."""
        if shown:
            self.keypad.show_for(takes)
        self.middle.setCurrentWidget(self.keypad if shown else self.center)

    def show_no_play(self, between: tuple[int, int] | None) -> None:
        """Put the NO PLAY button between these two places (None: the table has none)."""
        self.no_play_between = between
        self._place_no_play()

    def _place_no_play(self) -> None:
        if self.no_play_between is None:
            self.no_play.hide()
            return
        a, b = (self.seats[p].geometry().center() for p in self.no_play_between)
        mid = (a + b) / 2
        self.no_play.adjustSize()
        size = self.no_play.size()
        self.no_play.move(mid.x() - size.width() // 2, mid.y() - size.height() // 2)
        self.no_play.show()
        self.no_play.raise_()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_no_play()

    def paintEvent(self, event: QPaintEvent) -> None:
        # The felt is drawn once per size and direction into a pixmap: a card painted in a
        # seat repaints only its own rectangle of it (a copy), not the whole table's
        # gradient and ring (tens of milliseconds on a software-rendered screen).
        key = (self.size(), self.direction, self.devicePixelRatioF())
        if self._background is None or self._background_key != key:
            self._background = self._draw_background()
            self._background_key = key
        p = QPainter(self)
        rect = event.rect()
        ratio = self._background.devicePixelRatioF()
        p.drawPixmap(QRectF(rect), self._background,
                     QRectF(rect.x() * ratio, rect.y() * ratio, rect.width() * ratio,
                            rect.height() * ratio))
        p.end()

    def _draw_background(self) -> QPixmap:
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(self.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        p.setPen(QPen(theme.FELT_EDGE, 10))
        glow = QRadialGradient(r.center(), max(r.width(), r.height()) * 0.6)
        glow.setColorAt(0, theme.FELT)
        glow.setColorAt(1, theme.FELT_DARK)
        p.setBrush(glow)
        p.drawRoundedRect(r, 40, 40)
        self._paint_ring(p, r)
        p.end()
        return pixmap

    def _paint_ring(self, p: QPainter, r: QRectF) -> None:
        """An ellipse through the seats with chevrons pointing the way of the deal."""
        ring = r.adjusted(r.width() * 0.17, r.height() * 0.17, -r.width() * 0.17,
                          -r.height() * 0.17)
        p.setPen(QPen(theme.FELT_LINE, 3, Qt.PenStyle.DashLine))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(ring)
        cx, cy = ring.center().x(), ring.center().y()
        a, b = ring.width() / 2, ring.height() / 2
        sign = 1 if self.direction is Direction.CLOCKWISE else -1
        for k in range(12):
            t = 2 * math.pi * (k + 0.5) / 12
            x, y = cx + a * math.cos(t), cy + b * math.sin(t)
            # On screen (y down) clockwise is increasing t.
            dx, dy = -a * math.sin(t) * sign, b * math.cos(t) * sign
            norm = math.hypot(dx, dy) or 1.0
            dx, dy = dx / norm, dy / norm
            size = 16
            tip = QPointF(x + dx * size, y + dy * size)
            left = QPointF(x - dy * size * 0.6, y + dx * size * 0.6)
            right = QPointF(x + dy * size * 0.6, y - dx * size * 0.6)
            arrow = QPainterPath(tip)
            arrow.lineTo(left)
            arrow.lineTo(right)
            arrow.closeSubpath()
            p.fillPath(arrow, QColor(255, 224, 130, 150))
