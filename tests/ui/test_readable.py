"""Readable at arm's length (issue 25, item 6): "Next:" the largest text in the panel, the
House Way text on the felt at least 14 px on a 1024x768 screen, and a button that may not be
pressed told from one that may without its colour."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton

from app.ui import theme

from .conftest import Station


def at(make_station, size: tuple[int, int]) -> Station:  # noqa: ANN001
    s = make_station()
    s.window.resize(*size)
    s.qtbot.waitUntil(lambda: s.window.width() == size[0], timeout=3000)
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
        for label in (seat.note, seat.hands):
            label.ensurePolished()
            assert label.font().pixelSize() >= 14


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
