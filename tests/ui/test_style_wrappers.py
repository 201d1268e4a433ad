"""A restyled widget leaves no Python wrapper of its style mapped. Qt deletes a style
sheet's style when the style sheet changes or its window goes; PySide keeps a wrapper per C++
address, and a wrapper left mapped to a freed style is handed back, or mistaken, for whatever
Qt puts at that address next. That is the stale QWidgetItem `widget.style()` once returned,
and what we believe caused the segmentation fault in a slip table's `setItem` seen twice in
long test runs (not reproduced on demand)."""

from __future__ import annotations

import gc

import shiboken6
from PySide6.QtWidgets import QLabel, QStyle, QWidget

from app.ui.seat import repolish, restyle


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
