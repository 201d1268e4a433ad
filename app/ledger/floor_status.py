"""A station's heartbeat and live state for the pit floor (the `station_status` table).

The floor shows every table live: its state, round, banker, action and wagers, and the
health of its shoe, printer and database; a table whose heartbeat stops shows offline. The
station (or the demo floor's headless stations) calls `FloorStatus.beat(...)` after every
change of the round and every few seconds besides. It is a live view, written in place, not
a record: the round itself is in the ledger's rounds and events.

A heartbeat never holds up the table: a database away or refusing makes `beat` return
False (and say why in `error`), never raise.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Engine, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from app.core.round import Phase, Round
from app.core.table import DEALER

from .database import WRITE, make_engine
from .models import FloorRequest, StationStatus, now
from .store import reason, station_id

STATES = ("idle", "betting", "dealing", "setting", "settled")
MISDEAL_STATE = "dealing"  # a misdeal is dealt again: the table is dealing


@dataclass(frozen=True)
class Device:
    ok: bool
    words: str


@dataclass(frozen=True)
class LiveState:
    """What the floor shows of a table at one moment."""

    state: str = "idle"
    round_no: int | None = None
    round_id: str | None = None
    banker: str | None = None  # "dealer" or "seat 3"
    action_position: int | None = None
    wagers: Mapping[int, int] = field(default_factory=dict)  # position -> cents
    dealer: str | None = None
    last_settled_at: datetime | None = None
    devices: Mapping[str, Device] = field(default_factory=dict)  # shoe, printer, database

    def content(self) -> dict[str, object]:
        """Everything but the moment: two beats with the same content change nothing."""
        return {"state": self.state, "round_no": self.round_no, "round_id": self.round_id,
                "banker": self.banker, "action_position": self.action_position,
                "wagers": json.dumps({str(p): c for p, c in sorted(self.wagers.items())}),
                "dealer": self.dealer, "last_settled_at": self.last_settled_at,
                "devices": json.dumps({k: [d.ok, d.words]
                                       for k, d in sorted(self.devices.items())})}


def live_state(game: Round | None, *, round_id: str | None = None,
               dealer: str | None = None, last_settled_at: datetime | None = None,
               devices: Mapping[str, Device] | None = None) -> LiveState:
    """The live state of a table from its round (None: no round yet)."""
    if game is None:
        return LiveState(dealer=dealer, last_settled_at=last_settled_at,
                         devices=dict(devices or {}))
    phase = game.phase
    state = MISDEAL_STATE if phase is Phase.MISDEAL else phase.value
    banker = f"seat {game.bank.player}" if game.bank.player is not None else "dealer"
    wagers = dict(game.wagers)
    for position, (_seat, cents) in game.dragons.items():  # a dragon's hand is a position's
        wagers[position] = cents
    wagers.pop(DEALER, None)
    return LiveState(state=state, round_no=game.rotation.round_no, round_id=round_id,
                     banker=banker,
                     action_position=game.action.position if game.action else None,
                     wagers=wagers, dealer=dealer, last_settled_at=last_settled_at,
                     devices=dict(devices or {}))


@dataclass(frozen=True)
class Request:
    """The floor asks the station to `kind` ("void") the round `round_id`: who and why."""

    id: str
    round_id: str
    kind: str
    by: str
    reason: str


class FloorStatus:
    """The heartbeat writer of one station."""

    def __init__(self, database: str | Engine, *, table: str, station: str,
                 identity: str | uuid.UUID | None = None) -> None:
        """`identity`: the station's (`Store.station_id`); else the id older stations made
        from the table and the name."""
        self.engine = make_engine(database) if isinstance(database, str) else database
        self._own_engine = isinstance(database, str)
        self.table = table
        self.station = station
        self.station_id = (uuid.UUID(str(identity)) if identity is not None
                           else station_id(table, station))
        self.error: str | None = None
        self._last: dict[str, object] | None = None

    def beat(self, live: LiveState, at: datetime | None = None) -> bool:
        """Write the station's live state and heartbeat. False: not written (`error`)."""
        when = at or now()
        content = live.content()
        try:
            with Session(self.engine.execution_options(**WRITE)) as s, s.begin():
                row = s.get(StationStatus, self.station_id)
                if row is None:
                    row = StationStatus(station_id=self.station_id, table_name=self.table,
                                        name=self.station, changed_at=when,
                                        heartbeat_at=when, **_columns(content))
                    s.add(row)
                else:
                    if content != self._last or _stored(row) != content:
                        for key, value in _columns(content).items():
                            setattr(row, key, value)
                        row.changed_at = when
                    row.heartbeat_at = when
            self._last = content
            self.error = None
            return True
        except SQLAlchemyError as e:
            self.error = reason(e)
            return False

    def requests(self) -> list[Request]:
        """What the floor asked this station to do and it has not done yet, oldest first
        (a void of the round in play). Empty when the database is away."""
        try:
            with Session(self.engine) as s:
                return [Request(str(r.id), str(r.round_id), r.kind, r.by, r.reason)
                        for r in s.scalars(select(FloorRequest).where(
                            FloorRequest.station_id == self.station_id,
                            FloorRequest.done_at.is_(None))
                            .order_by(FloorRequest.requested_at))]
        except SQLAlchemyError as e:
            self.error = reason(e)
            return []

    def answer(self, request_id: str, outcome: str) -> bool:
        """Say what became of a request (done, or why not)."""
        try:
            with Session(self.engine.execution_options(**WRITE)) as s, s.begin():
                row = s.get(FloorRequest, uuid.UUID(request_id))
                if row is not None and row.done_at is None:
                    row.done_at, row.outcome = now(), outcome
            return True
        except SQLAlchemyError as e:
            self.error = reason(e)
            return False

    def close(self) -> None:
        if self._own_engine:
            self.engine.dispose()


def _columns(content: dict[str, object]) -> dict[str, object]:
    out = dict(content)
    rid = out.pop("round_id")
    out["round_id"] = uuid.UUID(rid) if isinstance(rid, str) and rid else None
    return out


def _stored(row: StationStatus) -> dict[str, object]:
    return {"state": row.state, "round_no": row.round_no,
            "round_id": str(row.round_id) if row.round_id else None, "banker": row.banker,
            "action_position": row.action_position, "wagers": row.wagers,
            "dealer": row.dealer, "last_settled_at": row.last_settled_at,
            "devices": row.devices}
