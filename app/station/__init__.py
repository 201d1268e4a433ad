"""A dealer station without a window: the session, the ledger's one port, the printer's
port and one thread pool, wired once (docs/station.md)."""

from __future__ import annotations

from .jobs import Jobs, Lane
from .ledger import Ledger, StationLedger, config_snapshot
from .station import Station

__all__ = ["Jobs", "Lane", "Ledger", "Station", "StationLedger", "config_snapshot"]
