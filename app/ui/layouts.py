"""Adding a filled layout to another without leaving PySide a wrapper of its items.

PySide wraps the items (a widget's place, a stretch) of a layout already filled when it is
added to another, and keeps those wrappers with the outer layout's. The items are Qt's: it
deletes them when a widget moves to another layout or the window goes, and PySide does not
know, so each wrapper stayed mapped to a freed address. A new object Qt put there was then
taken for the old one: the stale QWidgetItem `widget.style()` once handed back, and the
segmentation fault in `QTableWidget.setItem` seen in long test runs. `add_layout` lets
those wrappers go at once (tests/ui/test_style_wrappers.py counts them).
"""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QBoxLayout, QLayout


def add_layout(box: QBoxLayout, inner: QLayout, stretch: int = 0) -> None:
    """`box.addLayout(inner, stretch)`, no wrapper of `inner`'s items left mapped."""
    box.addLayout(inner, stretch)
    _let_go(inner)


def _let_go(layout: QLayout) -> None:
    for i in range(layout.count()):
        item = layout.itemAt(i)
        if item is None:
            continue
        nested = item.layout()
        if nested is not None:
            _let_go(nested)
        elif not shiboken6.createdByPython(item):
            shiboken6.invalidate(item)  # the wrapper only: the item stays Qt's, in its place
