"""The panel's round log shows the newest LOG_ITEMS lines, however long the shift (issue
24, item 4: a list that only grew slowed every round)."""

from __future__ import annotations

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
