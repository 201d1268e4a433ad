"""Where python-escpos keeps what it reads of its printers (drivers/printer/config.py
imports it): a module of its own, so that a program registers its cache folder at start
without importing the printer's driver (a one-hand `paigow house-way` never prints)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

CAPABILITIES_FOLDER = "ESCPOS_CAPABILITIES_PICKLE_DIR"  # python-escpos reads it at import
_capabilities: list[Callable[[], Path]] = []


def keep_capabilities_in(folder: Callable[[], Path]) -> None:
    """python-escpos parses its printers' capabilities (a YAML file: 0.8 s of CPU) at
    import and keeps what it read where $ESCPOS_CAPABILITIES_PICKLE_DIR says, else in a new
    temporary folder each time, never read again. Kept in `folder()` (the program's cache,
    app/cache.py), it is read back at the next start instead."""
    _capabilities[:] = [folder]


def capabilities_folder() -> None:
    """Tell python-escpos the folder, before it is imported."""
    if not _capabilities or CAPABILITIES_FOLDER in os.environ:
        return
    try:
        folder = _capabilities[0]()
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # python-escpos takes a temporary folder of its own, as without a cache
    os.environ[CAPABILITIES_FOLDER] = str(folder)
