"""The panel's round log shows the newest LOG_ITEMS lines, however long the shift (issue
24, item 4: a list that only grew slowed every round)."""

from __future__ import annotations

import gc
import os
from pathlib import Path

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
    # A week without a restart: a line past LOG_ITEMS must free its memory. QListWidget's
    # takeItem hands the item back undeleted: 40,000 lines kept ~13 MB that way (found by
    # heaptrack in the shift bench); deleted, the process holds what it held.
    panel = ControlPanel()
    qtbot.addWidget(panel)
    line = "round 812: seat 3 set the House Way, a line as long as the log's usual ones"

    def add(n: int) -> None:
        for _ in range(0, n, 8):
            panel.add_log((line,) * 8)

    add(4 * LOG_ITEMS)  # the list at its size, the allocator warmed
    gc.collect()
    before = resident_mb()
    add(40_000)
    gc.collect()
    assert panel.log.count() == LOG_ITEMS
    assert resident_mb() - before < 4.0, "the log's old lines were kept, not deleted"


def resident_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
