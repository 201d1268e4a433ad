"""Colours, fonts and the style sheet: one place, chosen for reading across a table."""

from __future__ import annotations

import re
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor, QFont

Named = TypeVar("Named", bound=QObject)

FONT_FAMILY = "DejaVu Sans"

FELT = QColor("#0b5d3b")
FELT_DARK = QColor("#063d27")
FELT_EDGE = QColor("#5b3a1e")
FELT_LINE = QColor(255, 255, 255, 60)
FELT_TEXT = QColor(255, 255, 255, 150)

CARD_FACE = QColor("#fdfdf8")
CARD_EDGE = QColor("#4a4a4a")
CARD_RED = QColor("#c8102e")
CARD_BLACK = QColor("#111111")
CARD_BACK = QColor("#1f3b7a")
COURT_FILL = QColor("#f6ecc9")
JOKER_FACE = QColor("#fff4c2")
JOKER_INK = QColor("#6a1b9a")
SELECTED = QColor("#ffb300")
SLOT = QColor(255, 255, 255, 70)

ACTION = "#ffb300"
WIN = "#2e7d32"
LOSE = "#b71c1c"
PUSH = "#546e7a"
FOUL = "#c62828"
INFO = "#0d47a1"
OK = "#2e7d32"
WARN = "#ef6c00"
OFF = "#b71c1c"


def named(widget: Named, name: str) -> Named:
    """The widget with the object name its style sheet rule reads."""
    widget.setObjectName(name)
    return widget


def font(pixels: int, bold: bool = False) -> QFont:
    f = QFont(FONT_FAMILY)
    f.setPixelSize(max(pixels, 6))
    f.setBold(bold)
    return f


STYLE = f"""
QMainWindow, QWidget#panel {{ background: #1d2327; }}
QWidget {{ font-family: "{FONT_FAMILY}"; font-size: 15px; color: #eceff1; }}
QFrame#seat {{ background: #0a4630; border: 2px solid #2f6f52; border-radius: 12px; }}
QFrame#seat[mucked="true"] {{ background: #0b3d2b; border: 2px dashed #2f6f52; }}
QFrame#seat[selected="true"] {{ border: 4px solid {ACTION}; background: #083b28; }}
QLabel#seatTitle {{ font-size: 20px; font-weight: bold; color: white; }}
QLabel#wager {{ font-size: 19px; font-weight: bold; color: #fff59d; }}
QLabel#badgeAction {{ background: {ACTION}; color: black; font-weight: bold; font-size: 15px;
                      border-radius: 6px; padding: 2px 8px; }}
QLabel#badgeOrder {{ background: rgba(255,255,255,210); color: black; font-weight: bold;
                     font-size: 15px; border-radius: 6px; padding: 2px 7px; }}
QLabel#badgeRole {{ background: #37474f; color: white; font-weight: bold; font-size: 14px;
                    border-radius: 6px; padding: 2px 7px; }}
QLabel#badgeProgressive {{ background: #8d6e00; color: white; font-weight: bold;
                           font-size: 14px; border-radius: 6px; padding: 2px 7px; }}
QLabel#badgeBonus {{ background: #6a1b9a; color: white; font-weight: bold; font-size: 14px;
                     border-radius: 6px; padding: 2px 7px; }}
QLabel#hands {{ font-size: 15px; color: #e0f2f1; }}
QLabel#rule {{ font-size: 19px; color: #ffffff; }}
QLabel#foul {{ font-size: 15px; font-weight: bold; color: white; background: {FOUL};
               border-radius: 6px; padding: 3px 6px; }}
QLabel#foul[preview="true"] {{ background: #8e2424; border: 2px dashed #ffcdd2; }}
QLabel#offer {{ font-size: 15px; font-weight: bold; color: black; background: {ACTION};
                border-radius: 6px; padding: 3px 6px; }}
QLabel#info {{ font-size: 14px; color: #c8e6c9; }}
QLabel#badgeRole[offer="true"] {{ background: {ACTION}; color: black; }}
QLabel#legal {{ font-size: 15px; font-weight: bold; color: white; background: #1b5e20;
                border-radius: 6px; padding: 3px 6px; }}
QLabel#result {{ font-size: 19px; font-weight: bold; border-radius: 6px; padding: 2px 8px;
                 color: white; }}
QLabel#result[kind="win"] {{ background: {WIN}; }}
QLabel#result[kind="lose"] {{ background: {LOSE}; }}
QLabel#result[kind="push"], QLabel#result[kind="returned"] {{ background: {PUSH}; }}
QLabel#result[kind="bank"] {{ background: #4e342e; }}
QLabel#centerTitle {{ font-size: 26px; font-weight: bold; color: white; }}
QLabel#centerText {{ font-size: 17px; color: #e8f5e9; }}
QLabel#centerMeter {{ font-size: 26px; font-weight: bold; color: #ffd54f; }}
QLabel#centerAction {{ font-size: 20px; font-weight: bold; color: white; }}
QLabel#order {{ font-size: 19px; font-weight: bold; color: #ffe082; }}
QLabel#phase {{ font-size: 17px; font-weight: bold; color: #b0bec5; }}
QLabel#next {{ font-size: 20px; font-weight: bold; color: #ffe082; }}
QLabel#message {{ font-size: 16px; border-radius: 8px; padding: 8px; color: white;
                  background: #263238; }}
QLabel#message[level="error"] {{ background: #b71c1c; font-weight: bold; }}
QLabel#message[level="warn"] {{ background: #e65100; font-weight: bold; }}
QLabel#message[level="info"] {{ background: #0d47a1; }}
QLabel#message[level="ok"] {{ background: #1b5e20; }}
QPushButton {{ font-size: 16px; font-weight: bold; padding: 3px 6px; border-radius: 8px;
               background: #37474f; color: white; border: 2px solid #546e7a; }}
QPushButton:hover {{ background: #455a64; }}
QPushButton:focus {{ border: 2px solid {ACTION}; }}
QPushButton:disabled {{ background: transparent; color: #90a4ae; border: 2px dashed #546e7a;
                       font-weight: normal; font-style: italic; }}
QPushButton#primary {{ background: #1565c0; border-color: #1e88e5; }}
QPushButton#primary:disabled {{ background: transparent; color: #90a4ae; border: 2px dashed #546e7a;
                               font-weight: normal; font-style: italic; }}
QLineEdit {{ font-size: 16px; padding: 2px 6px; border-radius: 6px; background: #eceff1;
             color: black; border: 2px solid #90a4ae; }}
QLineEdit:focus {{ border: 3px solid {ACTION}; }}
QLineEdit[open="true"] {{ border: 2px solid {ACTION}; background: #fff8e1; }}
QLineEdit:disabled {{ background: #37474f; color: #78909c; border-color: #37474f; }}
QLabel#fieldLabel {{ font-size: 14px; color: #b0bec5; }}
QListWidget, QTableWidget {{ background: #11171a; color: #eceff1; font-size: 14px;
                             border: 1px solid #37474f; }}
QHeaderView::section {{ background: #263238; color: #eceff1; font-weight: bold; padding: 4px;
                        border: none; }}
QLabel#totals {{ font-size: 15px; font-weight: bold; color: white; background: #263238;
                 border-radius: 6px; padding: 4px; }}
QLabel#sectionTitle {{ font-size: 15px; font-weight: bold; color: #90a4ae; }}
QLabel#sectionTitle[alert="true"] {{ color: #ffb74d; }}
QStatusBar {{ background: #0f1417; }}
QLabel#device {{ font-size: 15px; font-weight: bold; padding: 3px 10px; border-radius: 6px;
                 color: white; }}
QLabel#device[state="ok"] {{ background: {OK}; }}
QLabel#device[state="warn"] {{ background: {WARN}; }}
QLabel#device[state="off"] {{ background: {OFF}; }}
QLabel#tableInfo {{ font-size: 14px; color: #b0bec5; padding: 0 8px; }}
QLabel#banner {{ font-size: 15px; font-weight: bold; color: white; background: {OFF};
                 border-radius: 6px; padding: 3px 10px; }}
QPushButton#statusButton {{ font-size: 14px; padding: 2px 10px; border-radius: 6px; }}
QWidget#keypad {{ background: rgba(10, 20, 16, 220); border-radius: 12px; }}
QPushButton#key {{ font-size: 20px; }}
QPushButton#small {{ font-size: 14px; padding: 2px 10px; border-radius: 6px; }}
QPushButton#danger {{ background: #8e2424; border-color: #c62828; }}
QPushButton#danger:disabled {{ background: transparent; color: #90a4ae; border: 2px dashed #546e7a;
                              font-weight: normal; font-style: italic; }}
QDialog#pit, QDialog#pitDialog {{ background: #1d2327; }}
QLabel#pitHeading {{ font-size: 20px; font-weight: bold; color: white; }}
QLabel#pitText {{ font-size: 15px; color: #eceff1; }}
QLabel#pinWarning {{ font-size: 15px; font-weight: bold; color: black; background: {ACTION};
                     border-radius: 6px; padding: 6px; }}
QTabWidget::pane {{ border: 1px solid #37474f; }}
QTabBar::tab {{ font-size: 16px; font-weight: bold; padding: 6px 16px; background: #263238;
                color: #b0bec5; border: 1px solid #37474f; }}
QTabBar::tab:selected {{ background: #37474f; color: white; }}
QComboBox, QDateEdit {{ font-size: 15px; padding: 3px 6px; background: #eceff1; color: black;
                        border-radius: 6px; }}
QComboBox QAbstractItemView {{ background: #eceff1; color: black; }}
QPlainTextEdit#slipText {{ background: #fdfdf8; color: black; }}
QCheckBox {{ font-size: 15px; }}
QToolTip {{ font-size: 15px; color: black; background: #fff8e1; border: 1px solid #ffb300; }}
"""


# The style above is drawn for a 1600x1000 screen. Stations have 1024x768 to 2560x1440
# monitors: every size in it (fonts, padding, borders, corners) scales with the screen, so a
# small screen still fits the whole table and a large one is read from further away.
BASE = (1600, 1000)
SCALE_MIN, SCALE_MAX = 0.75, 1.6
SCALE_STEP = 0.05  # a restyle costs a repaint of every widget: only in steps


def scale_for(width: int, height: int) -> float:
    """The style's scale for a window of this size."""
    s = min(width / BASE[0], height / BASE[1])
    s = min(max(s, SCALE_MIN), SCALE_MAX)
    return round(round(s / SCALE_STEP) * SCALE_STEP, 2)


def px(pixels: float, scale: float) -> int:
    return max(1, round(pixels * scale))


def style(scale: float = 1.0) -> str:
    """The style sheet with every size in it scaled."""
    if scale == 1.0:
        return STYLE
    return re.sub(r"(\d+)px", lambda m: f"{px(int(m.group(1)), scale)}px", STYLE)
