"""A big bonus payout's approval (issue 26) is saved with the supervisor's sign-in, as a
void is: the round's bonus_approved event names the supervisor and carries the sign-in the
ledger checked (never the secret), recall shows it and checks it is a record, and a ledger
with people refuses an approval by a name alone. On SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.round import Round
from app.ledger import NotAuthorised, Recording, Store
from app.ledger.models import Event
from tests.core.test_round_bonus import deal, fortune

from .tamper import tamper

SUPERVISOR, SECRET = "Pat Lee", "tiger-lily-42"


def people(store: Store) -> None:
    store.add_person("Ana Ruiz", "shift manager", "ana-knows-77", by=None, first=True)
    ana = store.authorise("Ana Ruiz", "ana-knows-77", "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SECRET, by=ana)


def held(store: Store) -> Recording:
    """Seat 1's five aces pay its $100 bonus $40,000: the round waits for a supervisor."""
    game = Round(fortune(), store.rotation())
    rec = store.begin(game)
    game.place_wager(1, 2500)
    game.place_wager(2, 2500)
    game.place_bonus(1, 10_000)
    deal(game, {1: "AS AH AD AC JK 2D 7C"})
    for p in game.pending():
        if game.can_set_hand(p):
            game.house_way(p)
    game.hold_bonus()
    rec.save()
    game.approve_bonus(SUPERVISOR)
    return rec


def _approval(store: Store, rec: Recording) -> tuple[str | None, dict[str, object]]:
    with Session(store.engine) as s:
        e = s.scalars(select(Event).where(Event.kind == "bonus_approved")).one()
        assert str(e.round_id) == rec.round_id
        return e.actor, json.loads(e.payload)


def test_a_bonus_approval_is_saved_with_the_supervisors_sign_in_and_recalled(
        store: Store) -> None:
    people(store)
    rec = held(store)
    rec.approve(SUPERVISOR, secret=SECRET)
    rec.game.settle()
    rec.save()
    store.drain()
    actor, payload = _approval(store, rec)
    how = payload["authorised"]
    assert actor == SUPERVISOR and payload["supervisor"] == SUPERVISOR
    assert isinstance(how, dict) and how["by"] == "the person's own secret"
    assert how["role"] == "pit supervisor" and len(str(how["sign_in"])) == 36
    assert SECRET not in json.dumps(payload)
    found = store.recall(rec.round_id)
    assert found.match and found.recomputed, found.differences
    assert (f"  approved by {SUPERVISOR} (the person's own secret, sign-in "
            f"{str(how['sign_in'])[:8]})") in found.text()


def test_an_approval_naming_a_sign_in_that_is_no_record_is_found_by_recall(
        store: Store, database_url: str) -> None:
    people(store)
    rec = held(store)
    rec.approve(SUPERVISOR, secret=SECRET)
    rec.game.settle()
    rec.save()
    store.drain()
    _, payload = _approval(store, rec)
    forged = {**payload, "authorised": {**payload["authorised"],  # type: ignore[dict-item]
                                        "sign_in": "00000000-0000-0000-0000-000000000000"}}
    with Session(store.engine) as s:
        event = s.scalars(select(Event).where(Event.kind == "bonus_approved")).one()
    tamper(database_url, "UPDATE events SET payload = :p WHERE id = :id", p=json.dumps(forged),
           id=event.id)
    found = store.recall(rec.round_id)
    assert not found.match
    assert any("names a supervisor's sign-in that is no record" in d
               for d in found.differences), found.differences


def test_a_ledger_with_people_refuses_a_bonus_approval_by_a_name_alone(store: Store) -> None:
    people(store)
    rec = held(store)
    with pytest.raises(NotAuthorised, match="a bonus approval needs the supervisor's name"):
        rec.save()  # the approval written as any other record: refused
    with pytest.raises(NotAuthorised, match="a bonus needs the supervisor's name"):
        rec.approve(SUPERVISOR)
    with pytest.raises(NotAuthorised):
        rec.approve(SUPERVISOR, secret="not-the-secret")
    rec.approve(SUPERVISOR, secret=SECRET)  # then given as it should be
    store.drain()
    assert _approval(store, rec)[1]["supervisor"] == SUPERVISOR
