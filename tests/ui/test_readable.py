"""Readable at arm's length (issue 25, item 6): "Next:" the largest text in the panel, the
House Way text on the felt at least 14 px on a 1024x768 screen, a button that may not be
pressed told from one that may without its colour, F1 within a 1024x768 screen, ten rounds
of the pit's history in sight, and the station at the screen's size without a window
manager."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton

from app.ui import theme

from .conftest import Station


def at(make_station, size: tuple[int, int]) -> Station:  # noqa: ANN001
    s = make_station()
    s.window.resize(*size)
    s.qtbot.waitUntil(lambda: s.window.width() == size[0], timeout=60_000)
    return s


def test_next_is_the_largest_text_in_the_panel(make_station) -> None:  # noqa: ANN001
    for size in ((1024, 768), (1920, 1080)):
        s = at(make_station, size)
        panel = s.window.panel
        nxt = panel.next
        nxt.ensurePolished()
        others = [w for kind in (QLabel, QPushButton, QLineEdit)
                  for w in panel.findChildren(kind) if w is not nxt]
        for w in others:
            w.ensurePolished()
            assert w.font().pixelSize() < nxt.font().pixelSize(), (size, w.objectName(),
                                                                    w.text())


def test_the_house_way_text_on_the_felt_is_at_least_14_px_at_1024x768(make_station) -> None:  # noqa: ANN001
    s = at(make_station, (1024, 768))
    for seat in s.window.felt.seats.values():
        seat.note.ensurePolished()  # "House Way PR-2: ...", a foul, an offer
        assert seat.note.font().pixelSize() >= 14


def test_a_disabled_button_is_told_apart_without_colour() -> None:
    """Qt applies a :disabled rule's font when it paints (font() does not show it): the
    rule of every kind of button says it in the border's line and the words' slant."""
    rules = re.findall(r"(QPushButton(?:#\w+)?):disabled \{\{?([^}]*)\}", theme.STYLE)
    kinds = {name for name, _ in rules}
    assert {"QPushButton", "QPushButton#primary", "QPushButton#danger"} <= kinds
    for name, body in rules:
        assert "dashed" in body and "italic" in body and "font-weight: normal" in body, name
    enabled = re.search(r"QPushButton \{\{?([^}]*)\}", theme.STYLE)
    assert enabled is not None and "bold" in enabled.group(1) and "solid" in enabled.group(1)


def test_the_keys_help_fits_a_1024x768_screen_one_or_two_lines_a_row(make_station) -> None:  # noqa: ANN001
    s = at(make_station, (1024, 768))
    s.key(Qt.Key.Key_F1)
    help_view = s.window.help
    assert help_view is not None and help_view.isVisible()
    s.qtbot.wait(50)
    assert help_view.width() <= 1024 and help_view.height() <= 768
    table = help_view.table
    assert table.horizontalScrollBar().maximum() == 0  # no column out of sight
    line = table.fontMetrics().lineSpacing()
    for r in range(table.rowCount()):
        assert table.rowHeight(r) <= 2 * line + 12, (r, table.item(r, 0).text())
    seen = sum(1 for r in range(table.rowCount())
               if table.rowViewportPosition(r) + table.rowHeight(r)
               <= table.viewport().height())
    assert seen >= 15  # of some 29 keys; the rest one flick away


def test_the_pit_shows_ten_history_rows_at_1024x768(make_station, tmp_path) -> None:  # noqa: ANN001
    from datetime import UTC, datetime

    from app.ledger.reads import RoundSummary

    from .test_supervisor import answered, open_pit, people_ledger

    s = make_station(ledger=people_ledger(tmp_path))
    s.window.resize(1024, 768)
    s.qtbot.waitUntil(lambda: s.window.width() == 1024, timeout=60_000)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    answered(s, pit)
    pit.resize(1024, 768)  # the pit's window over the dealer's on a 1024x768 screen
    started = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
    rounds = [RoundSummary(f"r{n}", "PG-1", "station", "shift", "Kim", n, "settled",
                           "settled", started, started, "RNG 4 -> seat 3", "house",
                           (1, 2, 3), 0, 9000, -500, 150, 350) for n in range(14, 0, -1)]
    pit._show_history(rounds)
    s.qtbot.wait(50)
    table = pit.rounds
    seen = sum(1 for r in range(table.rowCount())
               if table.rowViewportPosition(r) >= 0
               and table.rowViewportPosition(r) + table.rowHeight(r)
               <= table.viewport().height())
    assert seen >= 10


def test_the_station_opens_at_the_screens_size_without_a_window_manager(qtbot) -> None:  # noqa: ANN001
    """Maximised and full screen are a window manager's to grant; an X server without one
    ignores the asking (here: the asking shows the window and nothing more), and the
    window's own geometry is what shows: it must be the screen's already."""
    from app.ui.main import show_station
    from app.ui.window import MainWindow

    for fullscreen in (False, True):
        window = MainWindow()
        qtbot.addWidget(window)
        window.showMaximized = window.show  # type: ignore[method-assign]
        window.showFullScreen = window.show  # type: ignore[method-assign]
        show_station(window, None, fullscreen)
        qtbot.waitExposed(window)
        screen = window.screen()
        room = screen.geometry() if fullscreen else screen.availableGeometry()
        # (the test's screen is 800x800, smaller than any station's: the window's least
        # width is a few pixels more)
        assert window.geometry().size() == room.size().expandedTo(window.minimumSizeHint())
        assert window.height() == room.height()
        window.close()
