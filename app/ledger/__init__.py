"""The ledger: every round recorded seat by seat in a real database (SQLite by default,
PostgreSQL for a casino), written as it goes through the station's journal so nothing is
lost. See docs/ledger.md.

Its names are loaded when first asked for (PEP 562): the station's window imports this
package's error types before it paints, and SQLAlchemy and Alembic (most of a second) load
only once the ledger is opened, off the window's thread."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .errors import LedgerError, LedgerUnavailable, NotAuthorised, RoundSettled

if TYPE_CHECKING:
    from .codec import CodecError, encode_record, encode_rules, replay
    from .database import make_engine, migrate
    from .paths import default_url
    from .reads import Correction, RoundSummary, SeatTotals, ShiftSummary, StoredSlip, Totals
    from .store import LedgerStatus, Recording, ShiftInfo, StationClaimed, Store

_WHERE = {
    "CodecError": "codec", "encode_record": "codec", "encode_rules": "codec",
    "replay": "codec", "default_url": "paths", "make_engine": "database",
    "migrate": "database", "Correction": "reads", "RoundSummary": "reads",
    "SeatTotals": "reads", "ShiftSummary": "reads", "StoredSlip": "reads", "Totals": "reads",
    "LedgerStatus": "store", "Recording": "store", "ShiftInfo": "store",
    "StationClaimed": "store", "Store": "store",
}

__all__ = [
    "CodecError", "Correction", "LedgerError", "LedgerStatus", "LedgerUnavailable",
    "NotAuthorised", "Recording", "RoundSettled", "RoundSummary", "SeatTotals", "ShiftInfo",
    "ShiftSummary", "StationClaimed", "Store", "StoredSlip", "Totals", "default_url",
    "encode_record", "encode_rules", "make_engine", "migrate", "replay",
]


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # asked once
    return value
