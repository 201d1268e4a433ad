"""The panel's round log shows the newest LOG_ITEMS lines, however long the shift (issue
24, item 4: a list that only grew slowed every round)."""

from __future__ import annotations

from shiboken6 import isValid

from app.ui.panel import LOG_ITEMS, ControlPanel


def test_the_panel_s_log_keeps_the_newest_lines_as_rounds_add_them(qtbot) -> None:
    panel = ControlPanel()
    qtbot.addWidget(panel)
    lines = [f"line {n}" for n in range(3 * LOG_ITEMS)]
    for start in range(0, len(lines), 7):
        panel.add_log(tuple(lines[start:start + 7]))
    shown = [panel.log.item(i).text() for i in range(panel.log.count())]
    assert shown == lines[-LOG_ITEMS:]
    panel.show_log(("a", "b"))  # the whole log anew
    assert [panel.log.item(i).text() for i in range(panel.log.count())] == ["a", "b"]


def test_the_log_s_old_lines_are_deleted_not_only_hidden(qtbot) -> None:
    # A week without a restart: a line past LOG_ITEMS must free its memory (QListWidget's
    # takeItem hands the item back undeleted: 6 KB a round kept, found by heaptrack).
    panel = ControlPanel()
    qtbot.addWidget(panel)
    panel.add_log(("the first line",))
    first = panel.log.item(0)
    panel.add_log(tuple(f"line {n}" for n in range(LOG_ITEMS)))
    assert panel.log.item(0).text() == "line 0"
    assert not isValid(first)
