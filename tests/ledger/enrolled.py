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
    return store.enroll(store.authorise(name, secret, "enroll"), floor=floor)
