"""Rounds with linked progressive wagers, played into a store as a station would send them
(the settling save brings the seats: `Recording.progressive`), for the progressive tests."""

from __future__ import annotations

import random
import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.progressive import progressive_card
from app.core.round import Round, RoundRules
from app.core.table import Table
from app.ledger import Recording, Store
from app.ledger.models import ProgressiveMove
from app.ledger.progressive import Move, card_hash

CARD = progressive_card("linked-pai-gow")  # $1: 70c the meter, 10c the reserve; $10,000 seed
SUPERVISOR, SECRET = "Pat Lee", "tiger-lily-42"


def wagers(seats: list[int]) -> dict[str, object]:
    return {"card": CARD.name, "card_hash": card_hash(CARD), "seats": seats}


def progressive_round(store: Store, seats: list[int], seed: object = 0) -> Recording:
    """A round played to its slip with a progressive wager on each of `seats`, saved at
    each phase."""
    from .play import by_phase, play

    game = Round(RoundRules(table=Table(name=store.table)), store.rotation())
    rec = store.begin(game)
    rec.progressive = wagers(seats)  # type: ignore[assignment]
    play(game, random.Random(str(seed)), by_phase(game, rec.save), misdeal_chance=0)
    return rec


def moves(store: Store) -> list[Move]:
    with Session(store.engine) as s:
        return [Move.of(m) for m in s.scalars(select(ProgressiveMove)
                                              .order_by(ProgressiveMove.meter_seq))]


def supervisor(store: Store) -> None:
    if not store.has_people():
        store.add_person("Ana Ruiz", "shift manager", "ana-knows-77", by=None, first=True)
    ana = store.authorise("Ana Ruiz", "ana-knows-77", "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SECRET, by=ana)


def new_op() -> str:
    return str(uuid.uuid4())
