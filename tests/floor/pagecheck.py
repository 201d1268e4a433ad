"""The screen check (app/ui/screencheck.py) for the floor's pages, in the browser: a page
wider than the screen, an element that sticks out of it, a text cut by its box, and words
meant for developers (the station's own list, and a bare id).

Run in Chromium at a phone's, a tablet's and a desktop's width by tests/floor/test_browser.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_LOOK = (Path(__file__).parent / "pagecheck.js").read_text()

_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)


def words_for_developers(text: str, audit: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The station's list of developer words, and a bare id outside the ledger's own audit
    text (a broken chain's row, the recall's round id: what `paigow ledger verify` and
    `recall` name for the auditor, marked `data-audit` on the page)."""
    from app.ui.screencheck import developer_words

    found = list(developer_words(text))
    for part in audit:
        text = text.replace(part, "")
    found += [f"shows an id ({text[max(0, m.start() - 40):m.end()]!r})"
              for m in _UUID.finditer(text)]
    return found


def problems(driver: Any) -> list[str]:
    """What a pit boss would trip on in the page as the browser shows it now."""
    found: list[str] = list(driver.execute_script(_LOOK))
    text, audit = driver.execute_script(
        "return [document.body.innerText, "
        "[...document.querySelectorAll('[data-audit]')].map(e => e.innerText)];")
    return found + words_for_developers(text, audit)


def screen(driver: Any, width: int, height: int) -> None:
    """The browser as a screen `width` px wide: a phone and a tablet as they are (their
    viewport tag read, as a mobile browser does), a desktop as a window."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 1024})
