"""The window's repaint path (issue 14, the station): "The felt is painted once into a cached
pixmap, and a seat restyles a label only when its style changes; with the dealer session,
one card repaints one seat." A card read is on the glass before the side panel and the
status bar are worked out, and a card face down is one drawing whatever the card."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtWidgets import QApplication, QWidget

from app.core.cards import card
from app.session import CardRead
from app.ui import seat as seat_module
from app.ui.cards import CardWidget

from .conftest import SHOWCASE_ACTION
from .test_station import DECK
from .test_window import open_and_wager

UNWAGERED = 4  # the showcase's wagers leave seat 4 empty: its cards are dealt face down


class Paints(QObject):
    """The paint events the watched widgets receive, with the rectangle each repaints."""

    def __init__(self, widgets: dict[object, QWidget]) -> None:
        super().__init__()
        self.seen: list[tuple[object, QRect]] = []
        self.names = {id(w): name for name, w in widgets.items()}
        for w in widgets.values():
            w.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and id(watched) in self.names:
            self.seen.append((self.names[id(watched)], event.rect()))  # type: ignore[attr-defined]
        return False

    def clear(self) -> None:
        self.seen.clear()

    @property
    def widgets(self) -> set[object]:
        return {name for name, _ in self.seen}


def ready_to_deal(make_station):  # noqa: ANN001, ANN201
    """Wagers in, action taken, the shoe online but the test sends the cards itself; the
    window painted and idle."""
    s = make_station(online=False)
    open_and_wager(s)
    s.key("R")  # action on seat 3; the shoe is offline, so nothing is dealt yet
    s.session.devices.shoe_online = True
    settle()
    return s


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def test_one_card_repaints_one_seat_and_only_its_cards_place(make_station):
    """Issue 14: "with the dealer session, one card repaints one seat." The felt under the
    seat is copied for the card's place only, and no other seat paints."""
    s = ready_to_deal(make_station)
    felt = s.window.felt
    paints = Paints({**felt.seats, "felt": felt})
    for i, c in enumerate(DECK[:7]):
        paints.clear()
        s.window.handle(CardRead(c))
        settle()
        assert paints.widgets <= {SHOWCASE_ACTION, "felt"}, (i, paints.widgets)
        assert SHOWCASE_ACTION in paints.widgets, i  # stacks: seat 3 gets its 7 first
        seat = felt.seats[SHOWCASE_ACTION]
        for name, rect in paints.seen:
            if name == "felt":
                assert seat.geometry().contains(rect), (i, rect, seat.geometry())
            else:
                assert rect.height() <= seat.row.height() and rect.width() < seat.width(), \
                    (i, rect)  # the card's place in the row, not the whole seat


def test_a_card_read_is_painted_before_the_event_returns(make_station):
    """Issue 14: "Card line in -> painted ... median 2 ms": the dealt card goes on the glass
    while its event is handled, before the panel and the status bar are laid out again
    (they follow in the same turn of the event loop)."""
    s = ready_to_deal(make_station)
    seat = s.window.felt.seats[SHOWCASE_ACTION]
    paints = Paints({"card": seat.cards[0], "panel": s.window.panel.next,
                     "status bar": s.window.statusBar()})
    s.window.handle(CardRead(DECK[0]))  # no turn of the event loop after it
    assert seat.cards[0].card is DECK[0]
    assert paints.widgets == {"card"}
    settle()
    assert "panel" in paints.widgets  # "Next: ... the shoe has read 1 of 53", a moment later


def test_the_felt_is_drawn_once_for_a_whole_deal(make_station, monkeypatch):
    """Issue 14: "The felt is painted once into a cached pixmap": forty-nine cards dealt
    copy from it and never draw the table's gradient and ring again."""
    s = ready_to_deal(make_station)
    felt = s.window.felt
    assert felt._background is not None  # drawn when the window was first painted
    draws: list[object] = []
    draw = felt._draw_background

    def counted():  # noqa: ANN202
        draws.append(1)
        return draw()

    monkeypatch.setattr(felt, "_draw_background", counted)
    for c in DECK[:49]:
        s.window.handle(CardRead(c))
        settle()
    assert sum(len(seat.state.cards) - seat.state.cards.count(None)
               for seat in felt.seats.values() if seat.state is not None) == 49
    assert draws == []


def test_no_label_is_restyled_while_the_cards_are_dealt(make_station, monkeypatch):
    """Issue 14: "a seat restyles a label only when its style changes": a card dealt changes
    no style (the seat's number, badges, notes and the status bar keep theirs), so no
    widget has its style sheet worked out again during the deal."""
    s = ready_to_deal(make_station)
    polished: list[object] = []
    repolish = seat_module.repolish
    monkeypatch.setattr(seat_module, "repolish",
                        lambda w: (polished.append(w.objectName()), repolish(w)))
    for c in DECK[:48]:  # the 49th ends the deal: the hands' notes change then
        s.window.handle(CardRead(c))
        settle()
    assert polished == []


def test_a_card_face_down_is_one_drawing_whatever_the_card(qtbot):
    """The dealer's hand and an unwagered place's (a dragon unseen until taken) show the
    back: the back is drawn once per size, not once per card (each drawing took a
    millisecond or more, on the card's way to the glass)."""
    ace, king = CardWidget(), CardWidget()
    for cw in (ace, king):
        qtbot.addWidget(cw)
        cw.resize(124, 192)
    ace.show_card(card("AS"), face_down=True)
    king.show_card(card("KH"), face_down=True)
    assert ace.rendered().cacheKey() == king.rendered().cacheKey()
    ace.show_card(card("AS"))
    king.show_card(card("KH"))
    assert ace.rendered().cacheKey() != king.rendered().cacheKey()  # faces up: two cards


def test_the_unwagered_place_gets_its_cards_face_down_in_its_own_seat(make_station):
    """The same for a card dealt face down: its seat alone repaints, and the card shows its
    back (no one wagered there)."""
    s = ready_to_deal(make_station)
    felt = s.window.felt
    paints = Paints(dict(felt.seats))
    rnd = s.session.round
    assert rnd is not None and rnd.action is not None
    for i, c in enumerate(DECK[:49]):
        paints.clear()
        s.window.handle(CardRead(c))
        settle()
        position = rnd.table.position_of_card(rnd.action.position, i)
        assert paints.widgets == {position}, (i, position, paints.widgets)
        if position == UNWAGERED:
            shown = [cw for cw in felt.seats[UNWAGERED].cards if cw.card is c]
            assert shown and shown[0].face_down
