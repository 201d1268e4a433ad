"""A station's signing key enrolled by a supervisor, as `paigow stations enroll` does: the
ledger's records verify only when every link is signed by an enrolled key."""

from __future__ import annotations

from app.ledger import Store
from app.ledger.enrollment import KeyState

MANAGER = "Morgan Keys"
MANAGER_SECRET = "keys-4821-x"


def enroll(store: Store, name: str = MANAGER, secret: str = MANAGER_SECRET, *,
           floor: bool = False) -> KeyState:
    """Enroll the store's key by `name` (the first shift manager, made when the ledger has
    nobody yet)."""
    if name == MANAGER and not store.has_people():
        store.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
    mine = next((k for k in store.keys() if k.key_id == store.signer.key_id), None)
    if mine is not None and mine.enrolled:  # the fixture's store is enrolled already
        return mine
    return store.enroll(store.authorise(name, secret, "enroll"), floor=floor)


def enrolled_key(store: Store, *, by: str = "(the tests)") -> None:
    """The store's key as `paigow stations enroll` leaves it, written without a supervisor's
    sign-in: for the tests whose subject is not enrollment (test_signatures.py is)."""
    import uuid

    from app.ledger.chain import LedgerSession
    from app.ledger.models import StationKey, now

    with LedgerSession(store._writes) as s, s.begin():
        s.add(StationKey(id=uuid.uuid4(), key_id=store.signer.key_id,
                         public_key=store.signer.public_hex, kind="station",
                         station_id=uuid.UUID(store.station_id), table_name=store.table,
                         label=store.station, action="enrolled", by=by, sign_in=None,
                         at=now()))
