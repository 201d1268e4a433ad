"""The linked progressive's meter as PostgreSQL says each change (LISTEN/NOTIFY, migration
0017_meter_notify): a felt listens on one connection of its own instead of reading the
meter twice a second. A message leaves the database when the transaction that moved the
meter commits, so what is heard is what the ledger holds. SQLite says nothing: a station
on a SQLite ledger keeps reading (app/ui/services.py's MeterReader does both)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import TracebackType
from typing import cast

import psycopg
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from .errors import LedgerUnavailable

CHANNEL = "paigow_meter"


@dataclass(frozen=True, slots=True)
class MeterHeard:
    """One change of a meter as the database said it: its amount and move number."""

    name: str
    amount: int
    seq: int


class MeterFeed:
    """The changes of the meter called `name` (None: of every meter, as the floor hears
    them), heard on a connection kept for them (taken from the engine's pool and never
    given back: it stays in LISTEN until closed)."""

    def __init__(self, engine: Engine, name: str | None) -> None:
        self.name = name
        try:
            raw = engine.raw_connection()
            conn = cast(psycopg.Connection[object], raw.driver_connection)
            raw.detach()  # the pool forgets it: it never carries anyone's transaction
            conn.rollback()
            conn.autocommit = True
            conn.execute(f"LISTEN {CHANNEL}")
        except (psycopg.Error, DBAPIError) as e:
            raise LedgerUnavailable(f"the ledger's database cannot be reached: the progressive "
                                    f"meter's messages cannot be heard ({_first_line(e)})"
                                    ) from None
        self._raw, self._conn = raw, conn

    def wait(self, timeout: float) -> MeterHeard | None:
        """The newest change of this meter heard within `timeout` seconds (every message
        waiting is read, the newest kept), or None; LedgerUnavailable once the connection
        is lost (the server restarted or away): close this feed and open another."""
        newest: MeterHeard | None = None
        try:
            for n in self._conn.notifies(timeout=timeout, stop_after=1):
                newest = _newer(newest, self._heard(n.payload))
            for n in self._conn.notifies(timeout=0.0):  # the rest already here
                newest = _newer(newest, self._heard(n.payload))
        except psycopg.Error as e:
            raise LedgerUnavailable(f"the ledger's database cannot be reached: the progressive "
                                    f"meter's messages stopped ({_first_line(e)})") from None
        return newest

    def fileno(self) -> int:
        """The connection's socket: readable when a message may be there (`selectors`)."""
        return self._conn.fileno()

    def _heard(self, payload: str) -> MeterHeard | None:
        said = json.loads(payload)
        if self.name is not None and said.get("name") != self.name:
            return None
        return MeterHeard(str(said["name"]), int(said["amount"]), int(said["seq"]))

    def close(self) -> None:
        try:
            self._raw.close()
        except Exception:  # noqa: BLE001, S110 - a connection already lost has nothing to close
            pass

    def __enter__(self) -> MeterFeed:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _newer(old: MeterHeard | None, new: MeterHeard | None) -> MeterHeard | None:
    if new is None:
        return old
    return new if old is None or new.name != old.name or new.seq > old.seq else old


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
