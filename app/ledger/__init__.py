"""The ledger: every round recorded seat by seat in a real database (SQLite by default,
PostgreSQL for a casino), written as it goes through the station's journal so nothing is
lost. See docs/ledger.md."""

from .codec import CodecError, encode_record, encode_rules, replay
from .database import default_url, make_engine, migrate
from .errors import LedgerError, LedgerUnavailable, RoundSettled
from .reads import Correction, RoundSummary, SeatTotals, ShiftSummary, StoredSlip, Totals
from .store import LedgerStatus, Recording, ShiftInfo, StationClaimed, Store

__all__ = [
    "CodecError", "Correction", "LedgerError", "LedgerStatus", "LedgerUnavailable",
    "Recording", "RoundSettled", "RoundSummary", "SeatTotals", "ShiftInfo", "ShiftSummary",
    "StationClaimed", "Store", "StoredSlip", "Totals", "default_url", "encode_record",
    "encode_rules",
    "make_engine", "migrate", "replay",
]
