"""Which keys may sign the ledger: a supervisor enrolls a station's key (or the floor's) and
may revoke it (`paigow stations enroll | revoke | list`). Each is a new `station_keys` row,
chained in the people's chain and signed like every other, with the supervisor's right try
of their secret (`sign_in`). Nothing is changed or deleted: a key's state is its rows.

A station's key signs its own table's chain and the people's (its supervisors' tries); the
floor's key signs any table's (the floor voids and corrects). On PostgreSQL only the
ledger's owner may add these rows: a station's login cannot enroll a key of its own making.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from . import keys, people
from .errors import LedgerError
from .models import StationKey, now
from .people import Person


@dataclass(frozen=True, slots=True)
class KeyState:
    """A key as it stands, for `paigow stations list` and the floor."""

    key_id: str
    kind: str
    label: str
    table_name: str | None
    enrolled: bool
    by: str
    at: datetime

    def text(self) -> str:
        where = self.table_name or "every table"
        state = "enrolled" if self.enrolled else "revoked"
        return (f"{keys.fingerprint(self.key_id)}  {self.kind:<7} {self.label:<24} "
                f"{where:<12} {state} by {self.by} {self.at:%Y-%m-%d %H:%M} UTC")

    def to_dict(self) -> dict[str, object]:
        return {"key_id": self.key_id, "kind": self.kind, "label": self.label,
                "table": self.table_name, "enrolled": self.enrolled, "by": self.by,
                "at": self.at.isoformat()}


def states(s: Session) -> list[KeyState]:
    newest: dict[str, StationKey] = {}
    for row in s.scalars(select(StationKey).order_by(StationKey.at)):
        newest[row.key_id] = row
    return [KeyState(r.key_id, r.kind, r.label, r.table_name, r.action == "enrolled", r.by,
                     r.at) for r in newest.values()]


def state(s: Session, kid: str) -> KeyState | None:
    return next((k for k in states(s) if k.key_id == kid), None)


def enroll(s: Session, public_hex: str, *, kind: str, label: str,
           station_id: str | None, table_name: str | None, by: Person) -> StationKey:
    """Enroll a key (the caller commits). A key already enrolled is refused; one revoked
    is never enrolled again (its holder makes a new one)."""
    people.confirm(s, by, "enroll")
    kid = keys.key_id(public_hex)
    known = state(s, kid)
    if known is not None:
        was = "enrolled" if known.enrolled else "revoked"
        raise LedgerError(f"key {keys.fingerprint(kid)} is {was} already ({known.label}): a "
                          f"revoked key is never enrolled again; delete the station's "
                          f"signing-key file to make a new one")
    row = StationKey(id=uuid.uuid4(), key_id=kid, public_key=public_hex, kind=kind,
                     station_id=uuid.UUID(station_id) if station_id else None,
                     table_name=None if kind == "floor" else table_name, label=label,
                     action="enrolled", by=by.name, sign_in=by.sign_in, at=now())
    s.add(row)
    return row


def revoke(s: Session, kid: str, reason: str, by: Person) -> StationKey:
    people.confirm(s, by, "enroll")
    matches = [k for k in states(s) if k.key_id.startswith(kid.replace(" ", "").lower())]
    if len(matches) != 1:
        raise LedgerError(f"no single key starts with {kid!r}: `paigow stations list` shows "
                          f"the enrolled keys")
    known = matches[0]
    if not known.enrolled:
        raise LedgerError(f"key {keys.fingerprint(known.key_id)} is revoked already")
    first = s.scalars(select(StationKey).where(StationKey.key_id == known.key_id)
                      .order_by(StationKey.at)).first()
    assert first is not None
    row = StationKey(id=uuid.uuid4(), key_id=known.key_id, public_key=first.public_key,
                     kind=first.kind, station_id=first.station_id,
                     table_name=first.table_name, label=first.label, action="revoked",
                     by=by.name, sign_in=by.sign_in, reason=reason, at=now())
    s.add(row)
    return row
