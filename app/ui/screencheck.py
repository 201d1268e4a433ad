"""Is every screen complete? The visible widgets of a window (and its open dialogs) walked:
a text that does not fit its widget (cut, elided, wrapped past its height), a widget that
lies outside its window or its parent, and words meant for developers (a design file, a
seed number, a file name, backticks, a rule's id without its words).

The screenshot walk (app/ui/screenshots.py) asks this after every stage at every screen
size, and tests/ui/test_screen_sizes.py fails on what it finds. Plain Qt, no test library:
the same check runs under `make screenshots` in a real X server.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import shiboken6
from PySide6 import QtGui
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QStyleOption,
    QStyleOptionButton,
    QStyleOptionFrame,
    QTabBar,
    QTableWidget,
    QTextEdit,
    QWidget,
)

from app.session import glossary

SLACK = 1  # a pixel of rounding between the metrics and the layout


@dataclass(frozen=True)
class Problem:
    where: str  # the widget: its class, object name and a little of its text
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


# --- words for developers ----------------------------------------------------------------

def developer_words(text: str) -> tuple[str, ...]:
    """What in `text` is meant for a developer, not a dealer, a player or the pit: empty
    when the text is in the casino's words. The one word list, which the floor's check
    reads too: app/session/glossary.py."""
    return glossary.internal_words(text)


# --- what a widget shows ------------------------------------------------------------------

def _describe(w: QWidget, text: str = "") -> str:
    name = w.objectName()
    short = " ".join(text.split())
    if len(short) > 60:
        short = short[:57] + "..."
    return f"{type(w).__name__}{'#' + name if name else ''}" + (f" {short!r}" if short else "")


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def visible_widgets(top: QWidget) -> Iterator[QWidget]:
    """`top` and every descendant shown on screen, not inside a scrolling view's own
    machinery (an item view's rows are checked as items)."""
    stack = [top]
    while stack:
        w = stack.pop()
        if not w.isVisible():
            continue
        yield w
        if isinstance(w, QAbstractItemView | QComboBox):
            continue
        stack.extend(c for c in w.children() if isinstance(c, QWidget) and c.isWindow() is False)


def texts(top: QWidget) -> Iterator[tuple[QWidget, str]]:
    """Every text a person can read in `top`: labels, buttons, fields, tabs, rows, tooltips,
    window titles."""
    for w in visible_widgets(top):
        if w.isWindow() and w.windowTitle():
            yield w, w.windowTitle()
        if w.toolTip():
            yield w, w.toolTip()
        if isinstance(w, QLabel):
            yield w, w.text()
        elif isinstance(w, QAbstractButton):
            yield w, _plain(w.text())
        elif isinstance(w, QLineEdit):
            yield w, w.text() if w.echoMode() is QLineEdit.EchoMode.Normal else ""
            yield w, w.placeholderText()
        elif isinstance(w, QComboBox):
            yield from ((w, w.itemText(i)) for i in range(w.count()))
        elif isinstance(w, QTabBar):
            yield from ((w, w.tabText(i)) for i in range(w.count()))
        elif isinstance(w, QListWidget):
            yield from ((w, w.item(i).text()) for i in range(w.count()))
        elif isinstance(w, QTableWidget):
            for r in range(w.rowCount()):
                for c in range(w.columnCount()):
                    item = w.item(r, c)
                    if item is not None:
                        yield w, item.text()
                        yield w, item.toolTip()
            for c in range(w.columnCount()):
                header = w.horizontalHeaderItem(c)
                if header is not None:
                    yield w, header.text()
        elif isinstance(w, QPlainTextEdit | QTextEdit):
            yield w, w.toPlainText()


def word_problems(tops: Iterable[QWidget]) -> list[Problem]:
    out = []
    for top in tops:
        for w, text in texts(top):
            for why in developer_words(text or ""):
                out.append(Problem(_describe(w, text), why))
    return out


# --- does it fit --------------------------------------------------------------------------

def _label_fits(label: QLabel) -> str | None:
    text = label.text()
    if not text or label.textFormat() is Qt.TextFormat.RichText or (
            label.textFormat() is Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text)):
        return None
    if label.pixmap() is not None and not label.pixmap().isNull():
        return None
    rect = label.contentsRect()
    m = label.margin()
    rect = rect.adjusted(m, m, -m, -m)
    fm = label.fontMetrics()
    if label.wordWrap():
        need = fm.boundingRect(QRect(0, 0, max(rect.width(), 1), 100_000),
                               int(Qt.TextFlag.TextWordWrap | label.alignment()), text)
        if need.width() > rect.width() + SLACK:
            return f"a word is {need.width()} px wide, the label {rect.width()} px"
        if need.height() > rect.height() + SLACK:
            return (f"wrapped, it needs {need.height()} px of height, the label has "
                    f"{rect.height()} px (at {rect.width()} px wide)")
        return None
    lines = text.split("\n")
    wide = max(fm.horizontalAdvance(line) for line in lines)
    if wide > rect.width() + SLACK:
        return f"needs {wide} px, the label has {rect.width()} px"
    high = fm.height() * len(lines)
    if high > rect.height() + SLACK + 2:
        return f"needs {high} px of height, the label has {rect.height()} px"
    return None


def _sub_rect(widget: QWidget, element: QStyle.SubElement, opt: QStyleOption) -> QRect:
    """The widget's style's rectangle for `element`, the style's wrapper dropped after
    (app/ui/seat.py `repolish` says why)."""
    style = widget.style()
    try:
        return style.subElementRect(element, opt, widget)
    finally:
        shiboken6.invalidate(style)


def _button_fits(button: QPushButton) -> str | None:
    text = _plain(button.text())
    if not text:
        return None
    opt = QStyleOptionButton()
    button.initStyleOption(opt)
    rect = _sub_rect(button, QStyle.SubElement.SE_PushButtonContents, opt)
    fm = button.fontMetrics()
    wide = fm.horizontalAdvance(text)
    if wide > rect.width() + SLACK:
        return f"needs {wide} px, the button has {rect.width()} px"
    if fm.capHeight() + fm.descent() > rect.height() + SLACK:
        return f"its text is {fm.height()} px high, the button has {rect.height()} px"
    return None


def _field_fits(field: QLineEdit) -> str | None:
    text = field.text() or field.placeholderText()
    if not text or field.echoMode() is not QLineEdit.EchoMode.Normal:
        return None
    opt = QStyleOptionFrame()
    field.initStyleOption(opt)
    rect = _sub_rect(field, QStyle.SubElement.SE_LineEditContents, opt)
    margins = field.textMargins()
    width = rect.width() - margins.left() - margins.right() - 4  # Qt's own 2 px each side
    fm = field.fontMetrics()
    wide = fm.horizontalAdvance(text)
    if wide > width + SLACK:
        return f"needs {wide} px, the field shows {width} px"
    if fm.capHeight() + fm.descent() > rect.height() + SLACK:
        return f"its text is {fm.height()} px high, the field has {rect.height()} px"
    return None


def _checkbox_fits(box: QCheckBox) -> str | None:
    need = box.sizeHint().width()
    if need > box.width() + SLACK:
        return f"needs {need} px, has {box.width()} px"
    return None


def _tabs_fit(bar: QTabBar) -> str | None:
    fm = bar.fontMetrics()
    for i in range(bar.count()):
        wide = fm.horizontalAdvance(_plain(bar.tabText(i)))
        if wide > bar.tabRect(i).width() - 8 + SLACK:
            return f"tab {bar.tabText(i)!r} needs {wide} px, has {bar.tabRect(i).width()} px"
    return None


def _table_fits(table: QTableWidget) -> str | None:
    for c in range(table.columnCount()):
        if table.isColumnHidden(c):
            continue
        width = table.columnWidth(c) - 6  # the item's margins, 3 px each side
        for r in range(table.rowCount()):
            item = table.item(r, c)
            if item is None or not item.text() or table.isRowHidden(r):
                continue
            own = item.data(Qt.ItemDataRole.FontRole)  # an item's own font, else the table's
            fm = QFontMetrics(item.font()) if own is not None else table.fontMetrics()
            if table.wordWrap():
                room = QRect(0, 0, max(width, 1), 100_000)
                # a word too long for the column is elided ("$175..."), not broken
                need = fm.boundingRect(room, int(Qt.TextFlag.TextWordWrap), item.text())
                if need.width() > width + SLACK or need.height() > table.rowHeight(r):
                    return (f"row {r + 1}, column {c + 1} {item.text()!r} needs "
                            f"{need.width()}x{need.height()} px, the cell has "
                            f"{width}x{table.rowHeight(r)} px")
                continue
            lines = item.text().split("\n")
            wide = max(fm.horizontalAdvance(line) for line in lines)
            if fm.height() * len(lines) > table.rowHeight(r) + SLACK:
                return (f"row {r + 1}, column {c + 1} {item.text()!r} needs "
                        f"{fm.height() * len(lines)} px of height, the row has "
                        f"{table.rowHeight(r)} px")
            if wide > width + SLACK:
                return (f"row {r + 1}, column {c + 1} {item.text()!r} needs {wide} px, the "
                        f"column has {width} px")
    header = table.horizontalHeader()
    if header.isVisible():
        bold = header.font()  # the style sheet's titles are bold (the theme's, Qt's own)
        bold.setBold(True)
        hfm = QFontMetrics(bold)
        for c in range(table.columnCount()):
            title = table.horizontalHeaderItem(c)
            if title is None or not title.text() or table.isColumnHidden(c):
                continue
            wide = hfm.horizontalAdvance(title.text()) + 8  # the section's padding
            if wide > header.sectionSize(c) + SLACK:
                return (f"the column title {title.text()!r} needs {wide} px, the column has "
                        f"{header.sectionSize(c)} px")
    if table.horizontalScrollBar().isVisible():
        return "its columns are wider than the table (a scroll bar hides some)"
    if table.property("whole") and table.verticalScrollBar().isVisible():
        return f"shows {table.rowCount()} rows but not all at once (a scroll bar hides some)"
    return None


def _outside(w: QWidget, top: QWidget) -> str | None:
    if w is top:
        return None
    parent = w.parentWidget()
    if parent is None:
        return None
    g = w.geometry()
    if isinstance(parent, QAbstractScrollArea) or isinstance(parent.parentWidget(),
                                                           QAbstractScrollArea):
        return None  # a scroll area's viewport and bars: placed by the area itself
    inside = parent.rect()
    if not inside.contains(g):
        return (f"lies outside its {type(parent).__name__}{'#' + parent.objectName()} "
                f"({g.x()},{g.y()} {g.width()}x{g.height()} in "
                f"{inside.width()}x{inside.height()})")
    at = w.mapTo(top, w.rect().topLeft())
    if not top.rect().contains(QRect(at, g.size())):
        return "lies outside the window"
    return None


def fit_problems(tops: Iterable[QWidget]) -> list[Problem]:
    out = []
    for top in tops:
        for w in visible_widgets(top):
            what = _outside(w, top)
            text = w.text() if isinstance(w, QLabel | QAbstractButton | QLineEdit) else ""
            if what is None:
                if isinstance(w, QLabel):
                    what, text = _label_fits(w), w.text()
                elif isinstance(w, QPushButton):
                    what, text = _button_fits(w), w.text()
                elif isinstance(w, QLineEdit):
                    what, text = _field_fits(w), w.text() or w.placeholderText()
                elif isinstance(w, QCheckBox):
                    what, text = _checkbox_fits(w), w.text()
                elif isinstance(w, QTabBar):
                    what = _tabs_fit(w)
                elif isinstance(w, QTableWidget):
                    what = _table_fits(w)
            if what:
                out.append(Problem(_describe(w, text), what))
    return out


def shown_windows(main: QWidget) -> list[QWidget]:
    """The dealer's window and every other window shown over it (the pit's, a dialog)."""
    others = [w for w in QApplication.topLevelWidgets()
              if w is not main and w.isVisible() and w.isWindow()
              and w.windowType() not in (Qt.WindowType.ToolTip, Qt.WindowType.Popup)
              ]
    def depth(w: QWidget) -> int:  # a dialog of the pit's window is painted over it
        n, parent = 0, w.parentWidget()
        while parent is not None:
            n, parent = n + 1, parent.parentWidget()
        return n

    return [main, *sorted(others, key=depth)]


def problems(main: QWidget, words: bool = True) -> list[Problem]:
    """Everything wrong with what `main` and the windows over it show (`words`: their
    words too; they are the same at every size)."""
    tops = shown_windows(main)
    found = fit_problems(tops) + (word_problems(tops) if words else [])
    for top in tops[1:]:
        if top.width() > main.width() + SLACK or top.height() > main.height() + SLACK:
            found.append(Problem(_describe(top, top.windowTitle()),
                                 f"is {top.width()}x{top.height()}, larger than the "
                                 f"{main.width()}x{main.height()} screen"))
    return found
