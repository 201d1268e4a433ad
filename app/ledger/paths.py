"""Where a station keeps its ledger when no database is configured: the SQLite file in its
data directory. Kept apart from `database` so the window can name the file before
SQLAlchemy is loaded."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "paigow-station"
LEDGER_FILE = "ledger.sqlite"


def data_dir(path: str | Path | None = None) -> Path:
    """The station's data directory (the platform's user data dir unless given)."""
    if path is not None:
        return Path(path)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_url(directory: str | Path | None = None) -> str:
    """The SQLite file a station uses when no `database_url` is configured."""
    return f"sqlite:///{data_dir(directory) / LEDGER_FILE}"
