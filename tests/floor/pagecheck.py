"""The screen check (app/ui/screencheck.py) for the floor's pages, in the browser: a page
wider than the screen, an element that sticks out of it, a text cut by its box, and words
meant for developers (the station's own list, and a bare id).

Run in Chromium at a phone's, a tablet's and a desktop's width by tests/floor/test_browser.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.session import glossary

_LOOK = (Path(__file__).parent / "pagecheck.js").read_text()


def words_for_developers(text: str, audit: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The one word list's finds (app/session/glossary.py, the station's screen check's),
    each with the line it is on, outside the ledger's own audit text (a broken chain's row,
    the recall's round id: what `paigow ledger verify` and `recall` name for the auditor,
    marked `data-audit` on the page)."""
    for part in audit:
        text = text.replace(part, "")
    return [f"{why} in {' '.join(line.split())[:120]!r}"
            for line in text.splitlines() for why in glossary.internal_words(line)]


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
