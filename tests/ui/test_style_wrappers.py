"""A restyled widget leaves no Python wrapper of its style mapped. Qt deletes a style
sheet's style when the style sheet changes or its window goes; PySide keeps a wrapper per C++
address, and a wrapper left mapped to a freed style is handed back, or mistaken, for whatever
Qt puts at that address next. That is the stale QWidgetItem `widget.style()` once returned,
and what we believe caused the segmentation fault in a slip table's `setItem` seen twice in
long test runs (not reproduced on demand)."""

from __future__ import annotations

import gc

import shiboken6
from PySide6.QtWidgets import QLabel, QLayoutItem, QStyle, QWidget

from app.ui.seat import SeatView, repolish, restyle


def mapped_styles() -> int:
    return sum(1 for w in shiboken6.getAllValidWrappers() if isinstance(w, QStyle))


def test_a_restyled_widget_leaves_no_wrapper_of_its_style_mapped(qtbot):
    before = mapped_styles()
    window = QWidget()
    label = QLabel("Shoe: online", window)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    for size in (15, 12, 20):  # the window's style sheet rescaled: a new style each time
        window.setStyleSheet(f"QLabel[state=\"ok\"] {{ font-size: {size}px; }}")
        restyle(label, "state", "ok" if size != 12 else "warn")
        repolish(label)
        gc.collect()
        assert mapped_styles() == before, f"after the {size} px style"


def mapped_layout_items() -> list[str]:
    """The wrappers PySide holds for layout items Qt made (a widget's or a stretch's place in
    a layout), which Qt deletes without PySide knowing."""
    gc.collect()
    return [type(w).__name__ for w in shiboken6.getAllValidWrappers()
            if isinstance(w, QLayoutItem) and not shiboken6.createdByPython(w)]


def test_a_seat_whose_badges_move_between_its_lines_leaves_no_wrapper_of_a_layout_item(qtbot):
    """PySide wraps the items of a layout already filled when it is added to another (the
    seat's header and badge lines, added to the seat's column), and the column's wrapper holds
    them. A seat moves its badges beside its number when there is room (`arrange_header`): Qt
    then deletes their old items, and each wrapper was left mapped to a freed address - 35
    a window, thousands in a test process - the stale QWidgetItem once handed back for a
    style, and a new object at such an address mistaken for the old one: the segmentation
    fault in QTableWidget.setItem."""
    before = mapped_layout_items()
    seat = SeatView(3)
    qtbot.addWidget(seat)
    seat.title.setText("Seat 3")
    seat.wager.setText("$100.00")
    for badge in seat.badges:
        badge.setText("ACTION")
        badge.show()
    for width in (900, 120, 900):  # the badges beside the number, below it, beside it again
        seat.resize(width, 300)
        seat.arrange_header()
        assert seat.badges_inline is (width == 900)
    assert mapped_layout_items() == before


def test_the_pit_and_its_dialogs_opened_and_closed_leave_no_wrapper_of_a_layout_item(
        make_station, qtbot):
    """A dialog let go (deleteLater) deletes its layouts' items: PySide kept their wrappers
    mapped (3 a row of a label, a stretch and a label, seen on their own)."""
    before = mapped_layout_items()
    s = make_station()
    s.window.toggle_pit()
    pit = s.window.supervisor
    assert pit is not None and pit.isVisible()
    for _ in range(3):  # each opened lets the one before go (deleteLater)
        pit.open_advice([], None)
        qtbot.wait(50)
    s.window.toggle_pit()
    assert mapped_layout_items() == before
