"""Card faces drawn with QPainter: jumbo corner indices, suit pips, court frames, the joker.

Suits are painted as paths, not font glyphs, so a card looks the same on every station
whatever fonts it has. Hearts and diamonds are red, spades and clubs black; the joker has a
gold face and purple ink so that it is never taken for another card. A card picked as part
of the two-card hand is lifted and outlined.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.core.cards import Card, Rank, Suit

from . import theme

ASPECT = 1.4  # height / width of a playing card (63 x 88 mm)
LIFT = 0.10  # how far a picked card rises, as a part of its height

RANK_TEXT = {Rank.TEN: "10"}
RANK_NAMES = {Rank.ACE: "Ace", Rank.KING: "King", Rank.QUEEN: "Queen", Rank.JACK: "Jack"}
SUIT_NAMES = {Suit.SPADES: "Spades", Suit.HEARTS: "Hearts", Suit.DIAMONDS: "Diamonds",
              Suit.CLUBS: "Clubs"}


def rank_text(c: Card) -> str:
    if c.rank is None:
        return "JK"
    return RANK_TEXT.get(c.rank, c.rank.char)


def card_name(c: Card) -> str:
    """`King of Spades`, `10 of Hearts`, `Joker`: what a tooltip or a screen reader says."""
    if c.rank is None or c.suit is None:
        return "Joker"
    return f"{RANK_NAMES.get(c.rank, rank_text(c))} of {SUIT_NAMES[c.suit]}"


def ink(c: Card) -> QColor:
    if c.suit is None:
        return theme.JOKER_INK
    return theme.CARD_RED if c.suit in (Suit.HEARTS, Suit.DIAMONDS) else theme.CARD_BLACK


# --- suits as paths in a unit square ------------------------------------------------------

def suit_path(suit: Suit) -> QPainterPath:
    p = QPainterPath()
    p.setFillRule(Qt.FillRule.WindingFill)
    if suit is Suit.DIAMONDS:
        p.moveTo(0.5, 0.0)
        p.lineTo(0.9, 0.5)
        p.lineTo(0.5, 1.0)
        p.lineTo(0.1, 0.5)
        p.closeSubpath()
    elif suit is Suit.HEARTS:
        p.moveTo(0.5, 0.97)
        p.cubicTo(0.35, 0.8, 0.0, 0.58, 0.0, 0.32)
        p.cubicTo(0.0, 0.12, 0.14, 0.02, 0.27, 0.02)
        p.cubicTo(0.4, 0.02, 0.48, 0.1, 0.5, 0.22)
        p.cubicTo(0.52, 0.1, 0.6, 0.02, 0.73, 0.02)
        p.cubicTo(0.86, 0.02, 1.0, 0.12, 1.0, 0.32)
        p.cubicTo(1.0, 0.58, 0.65, 0.8, 0.5, 0.97)
        p.closeSubpath()
    elif suit is Suit.SPADES:
        p.moveTo(0.5, 0.0)
        p.cubicTo(0.35, 0.18, 0.0, 0.38, 0.0, 0.6)
        p.cubicTo(0.0, 0.76, 0.13, 0.83, 0.26, 0.83)
        p.cubicTo(0.37, 0.83, 0.44, 0.78, 0.47, 0.72)
        p.cubicTo(0.45, 0.86, 0.4, 0.94, 0.3, 1.0)
        p.lineTo(0.7, 1.0)
        p.cubicTo(0.6, 0.94, 0.55, 0.86, 0.53, 0.72)
        p.cubicTo(0.56, 0.78, 0.63, 0.83, 0.74, 0.83)
        p.cubicTo(0.87, 0.83, 1.0, 0.76, 1.0, 0.6)
        p.cubicTo(1.0, 0.38, 0.65, 0.18, 0.5, 0.0)
        p.closeSubpath()
    else:  # clubs: three leaves and a flared stem
        r = 0.235
        for cx, cy in ((0.5, 0.26), (0.25, 0.58), (0.75, 0.58)):
            p.addEllipse(QPointF(cx, cy), r, r)
        p.addEllipse(QPointF(0.5, 0.52), 0.14, 0.14)
        p.moveTo(0.46, 0.55)
        p.cubicTo(0.45, 0.8, 0.4, 0.92, 0.3, 1.0)
        p.lineTo(0.7, 1.0)
        p.cubicTo(0.6, 0.92, 0.55, 0.8, 0.54, 0.55)
        p.closeSubpath()
    return p


def star_path() -> QPainterPath:
    p = QPainterPath()
    for i in range(10):
        radius = 0.5 if i % 2 == 0 else 0.2
        angle = -math.pi / 2 + i * math.pi / 5
        point = QPointF(0.5 + radius * math.cos(angle), 0.52 + radius * math.sin(angle))
        if i == 0:
            p.moveTo(point)
        else:
            p.lineTo(point)
    p.closeSubpath()
    return p


def draw_shape(painter: QPainter, shape: QPainterPath, center: QPointF, size: float,
               color: QColor, upside_down: bool = False) -> None:
    t = QTransform()
    t.translate(center.x(), center.y())
    if upside_down:
        t.rotate(180)
    t.scale(size, size)
    t.translate(-0.5, -0.5)
    painter.fillPath(t.map(shape), color)


def draw_pip(painter: QPainter, suit: Suit, center: QPointF, size: float, color: QColor,
             upside_down: bool = False) -> None:
    draw_shape(painter, suit_path(suit), center, size, color, upside_down)


# --- pip layouts: (column 0/1/2, row 0..1) for the number cards ------------------------------

_L, _M, _R = 0.0, 0.5, 1.0
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_M, 0), (_M, 1)),
    3: ((_M, 0), (_M, 0.5), (_M, 1)),
    4: ((_L, 0), (_R, 0), (_L, 1), (_R, 1)),
    5: ((_L, 0), (_R, 0), (_M, 0.5), (_L, 1), (_R, 1)),
    6: ((_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)),
    7: ((_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)),
    8: ((_L, 0), (_R, 0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1), (_R, 1)),
    9: ((_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_M, 0.5), (_L, 2 / 3), (_R, 2 / 3),
        (_L, 1), (_R, 1)),
    10: ((_L, 0), (_R, 0), (_M, 1 / 6), (_L, 1 / 3), (_R, 1 / 3), (_L, 2 / 3), (_R, 2 / 3),
         (_M, 5 / 6), (_L, 1), (_R, 1)),
}


def _fit_text(painter: QPainter, text: str, box: QRectF, color: QColor, pixels: float,
              condensed: bool = False, align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter
              ) -> None:
    """Draw text in a box at `pixels` high, squeezed sideways if it is too wide."""
    f = theme.font(round(pixels), bold=True)
    if condensed:
        f.setStretch(80)
    metrics = QFontMetricsF(f)
    width = metrics.horizontalAdvance(text)
    painter.save()
    painter.setFont(f)
    painter.setPen(color)
    squeeze = min(1.0, box.width() / width) if width > 0 else 1.0
    painter.translate(box.center())
    painter.scale(squeeze, 1.0)
    painter.translate(-box.center())
    inner = QRectF(box.center().x() - width / 2, box.top(), width, box.height())
    painter.drawText(inner, int(align), text)
    painter.restore()


def card_rect(area: QRectF, lift: bool = True) -> QRectF:
    """The largest card of the right shape in `area`, leaving room above it to be lifted."""
    room = area.height() / (1 + LIFT) if lift else area.height()
    h = min(room, area.width() * ASPECT)
    w = h / ASPECT
    x = area.left() + (area.width() - w) / 2
    y = area.bottom() - h
    return QRectF(x, y, w, h)


def paint_card(painter: QPainter, rect: QRectF, c: Card, selected: bool = False,
               dim: bool = False) -> None:
    """One card face filling `rect` (already of card shape)."""
    w, h = rect.width(), rect.height()
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    radius = w * 0.08
    face = theme.JOKER_FACE if c.is_joker else theme.CARD_FACE
    if selected:
        glow = QPen(theme.SELECTED, max(3.0, w * 0.07))
        painter.setPen(glow)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect.adjusted(-1, -1, 1, 1), radius, radius)
    painter.setPen(QPen(theme.JOKER_INK if c.is_joker else theme.CARD_EDGE,
                        max(1.0, w * (0.045 if c.is_joker else 0.02))))
    painter.setBrush(face)
    painter.drawRoundedRect(rect, radius, radius)
    color = ink(c)
    if c.rank is None or c.suit is None:
        _paint_joker(painter, rect, color)
    else:
        _paint_index(painter, rect, c, color)
        inner = QRectF(rect.left() + w * 0.36, rect.top() + h * 0.06, w * 0.58, h * 0.88)
        if c.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
            _paint_court(painter, inner, c, color)
        elif c.rank == Rank.ACE:
            draw_pip(painter, c.suit, inner.center(), w * 0.5, color)
        else:
            _paint_pips(painter, inner, c.suit, int(c.rank), color, w * 0.2)
    if selected:
        painter.setPen(QPen(theme.SELECTED, max(3.0, w * 0.06)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect, radius, radius)
    if dim:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(20, 30, 30, 120))
        painter.drawRoundedRect(rect, radius, radius)
    painter.restore()


def _paint_index(painter: QPainter, rect: QRectF, c: Card, color: QColor) -> None:
    """The jumbo index: the rank and its suit down the left edge, read across a table."""
    assert c.suit is not None
    w, h = rect.width(), rect.height()
    text = rank_text(c)
    box = QRectF(rect.left() + w * 0.03, rect.top() + h * 0.03, w * 0.34, h * 0.28)
    _fit_text(painter, text, box, color, h * 0.27, condensed=len(text) > 1)
    draw_pip(painter, c.suit, QPointF(box.center().x(), rect.top() + h * 0.42), w * 0.26,
             color)


def _paint_pips(painter: QPainter, area: QRectF, suit: Suit, n: int, color: QColor,
                size: float) -> None:
    left = area.left() + size / 2
    span_x = area.width() - size
    top = area.top() + size / 2
    span_y = area.height() - size
    for col, row in PIPS[n]:
        center = QPointF(left + col * span_x, top + row * span_y)
        draw_pip(painter, suit, center, size, color, upside_down=row > 0.5)


def _paint_court(painter: QPainter, area: QRectF, c: Card, color: QColor) -> None:
    assert c.suit is not None
    w, h = area.width(), area.height()
    frame = area.adjusted(0, h * 0.02, 0, -h * 0.02)
    painter.setPen(QPen(color, max(1.0, w * 0.04)))
    painter.setBrush(theme.COURT_FILL)
    painter.drawRect(frame)
    letter = QRectF(frame.left(), frame.center().y() - h * 0.2, frame.width(), h * 0.4)
    _fit_text(painter, rank_text(c), letter, color, h * 0.36)
    pip = frame.width() * 0.42
    draw_pip(painter, c.suit, QPointF(frame.center().x(), frame.top() + pip * 0.75), pip, color)
    draw_pip(painter, c.suit, QPointF(frame.center().x(), frame.bottom() - pip * 0.75), pip,
             color, upside_down=True)


def _paint_joker(painter: QPainter, rect: QRectF, color: QColor) -> None:
    w, h = rect.width(), rect.height()
    box = QRectF(rect.left() + w * 0.03, rect.top() + h * 0.03, w * 0.34, h * 0.28)
    _fit_text(painter, "JK", box, color, h * 0.25, condensed=True)
    draw_shape(painter, star_path(), QPointF(box.center().x(), rect.top() + h * 0.42),
               w * 0.26, color)
    draw_shape(painter, star_path(), QPointF(rect.left() + w * 0.65, rect.top() + h * 0.36),
               w * 0.5, color)
    word = QRectF(rect.left() + w * 0.08, rect.top() + h * 0.68, w * 0.84, h * 0.2)
    _fit_text(painter, "JOKER", word, color, h * 0.17)


def paint_back(painter: QPainter, rect: QRectF) -> None:
    """A card face down: the bank's hand until every player's hand is set."""
    w = rect.width()
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    radius = w * 0.08
    painter.setPen(QPen(theme.CARD_FACE, max(2.0, w * 0.05)))
    painter.setBrush(theme.CARD_BACK)
    painter.drawRoundedRect(rect, radius, radius)
    inner = rect.adjusted(w * 0.12, w * 0.12, -w * 0.12, -w * 0.12)
    painter.setPen(QPen(QColor(255, 255, 255, 90), max(1.0, w * 0.03)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(inner, radius / 2, radius / 2)
    painter.drawLine(inner.topLeft(), inner.bottomRight())
    painter.drawLine(inner.topRight(), inner.bottomLeft())
    painter.restore()


def paint_slot(painter: QPainter, rect: QRectF) -> None:
    """Where a card will be: a dashed outline on the felt."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(theme.SLOT, 2, Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), rect.width() * 0.08,
                            rect.width() * 0.08)
    painter.restore()


# Cards drawn at a size, by (card, selected, dim; or "back"; or "slot"; then width, height,
# pixel ratio).
_RENDERED: dict[tuple[object, ...], QPixmap] = {}
RENDERED_MOST = 4000  # a deck in every state at a few sizes


class CardWidget(QWidget):
    """One card on the felt (or an empty slot). Clicking it emits `clicked(card)`."""

    clicked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.card: Card | None = None
        self.selected = False
        self.dim = False
        self.face_down = False
        self.clickable = False
        self._shown: tuple[str, bool] | None = None  # the tooltip given and face down
        self._cursor_set = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def sizeHint(self) -> QSize:
        return QSize(62, int(62 * ASPECT * (1 + LIFT)))

    def show_card(self, c: Card | None, selected: bool = False, dim: bool = False,
                  clickable: bool = False, face_down: bool = False) -> bool:
        """Show this card (None: an empty slot); True when it looks different now (it is
        marked for repainting). The tooltip, the name and the cursor are set only when they
        change: a seat shows its seven cards again for every card dealt to it."""
        changed = ((c, selected, dim, face_down)
                   != (self.card, self.selected, self.dim, self.face_down))
        self.card, self.selected, self.dim, self.face_down = c, selected, dim, face_down
        if changed or self._shown is None:
            shown = card_name(c) if c is not None and not face_down else ""
            if self._shown is None or shown != self._shown[0] or face_down != self._shown[1]:
                self.setToolTip(shown)
                self.setAccessibleName(shown or ("face down" if face_down else "empty"))
                self._shown = (shown, face_down)
        if clickable != self.clickable or not self._cursor_set:
            self.clickable = clickable
            self._cursor_set = True
            self.setCursor(Qt.CursorShape.PointingHandCursor if clickable
                           else Qt.CursorShape.ArrowCursor)
        if changed:
            self.update()
        return changed

    def face_rect(self) -> QRectF:
        r = card_rect(QRectF(self.rect()))
        if self.selected:
            r.translate(0, -r.height() * LIFT)
        return r

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self.rendered())
        painter.end()

    def rendered(self) -> QPixmap:
        """This card as it looks now at this size, drawn once and kept: a card dealt, and
        its neighbours it overlaps, are repainted by copying (antialiased rounded and
        dashed outlines take milliseconds each on a software-rendered screen)."""
        ratio = self.devicePixelRatioF()
        # What the picture depends on: a card face down is the same back whatever the card
        # (a dragon hand's seven unseen cards are one drawing, not seven), an empty place
        # the same slot.
        look: tuple[object, ...] = (
            ("slot",) if self.card is None else ("back",) if self.face_down
            else (self.card, self.selected, self.dim))
        key = (*look, self.width(), self.height(), ratio)
        pixmap = _RENDERED.get(key)
        if pixmap is None and (self.width() <= 0 or self.height() <= 0):
            return QPixmap()  # not laid out yet: nothing to draw, nothing to keep
        if pixmap is None:
            pixmap = QPixmap(self.size() * ratio)
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            if self.card is None:
                paint_slot(painter, card_rect(QRectF(self.rect())))
            elif self.face_down:
                paint_back(painter, card_rect(QRectF(self.rect())))
            else:
                paint_card(painter, self.face_rect(), self.card, self.selected, self.dim)
            painter.end()
            if len(_RENDERED) >= RENDERED_MOST:  # a resized window: the old sizes go
                _RENDERED.clear()
            _RENDERED[key] = pixmap
        return pixmap

    def warm(self, cards: list[Card]) -> None:
        """Draw these cards at this widget's size ahead of the deal (the window does it
        while idle), so the first deal's cards paint as fast as the later ones'."""
        shown = (self.card, self.selected, self.dim, self.face_down)
        try:
            looks = [(c, False) for c in [None, *cards]]
            if cards:  # the back too (a face-down card is drawn as any face-down card)
                looks.append((cards[0], True))
            for c, face_down in looks:
                self.card, self.selected, self.dim, self.face_down = c, False, False, face_down
                self.rendered()
        finally:
            self.card, self.selected, self.dim, self.face_down = shown

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if (event.button() == Qt.MouseButton.LeftButton and self.card is not None
                and self.clickable):
            self.clicked.emit(self.card)
            event.accept()
            return
        super().mousePressEvent(event)
