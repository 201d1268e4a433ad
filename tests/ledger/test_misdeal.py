"""A supervisor's misdeal in the ledger: the round ends (every wager returned: no
settlement), marked misdeal with who and why in its row and its event, chained like any
row; the history shows it as a misdeal; a person is checked by `Store.authorise`."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.round import Round, RoundRules
from app.ledger import Store
from app.ledger.models import Event, RoundRow, SettlementRow
from app.ledger.people import NotAuthorised
from app.ledger.store import StoreSupervisors
from app.session import PortError

from .enrolled import enroll
from .play import action, bets, deal

SUPERVISOR, SECRET = "Pat Lee", "tiger-lily-42"


def _people(store: Store) -> None:
    store.add_person("Ana Ruiz", "shift manager", "ana-knows-77", by=None, first=True)
    ana = store.authorise("Ana Ruiz", "ana-knows-77", "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SECRET, by=ana)


def _dealt(store: Store):  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    bets(game, rng, rec.save)
    game.set_action(action(game, rng))
    rec.save()
    deal(game, rng, rec.save)
    return rec


def test_a_misdeal_is_recorded_with_who_and_why_and_the_chain_holds(store: Store) -> None:
    _people(store)
    rec = _dealt(store)
    who = StoreSupervisors(store).authorise(SUPERVISOR, SECRET, "misdeal")
    rec.misdeal("the shoe lost card 12", by=who.proof)
    store.drain()
    enroll(store, SUPERVISOR, SECRET)
    with Session(store.engine) as s:
        row = s.get(RoundRow, uuid.UUID(rec.round_id))
        assert row is not None and row.status == "void"
        assert row.void_reason == "misdeal: the shoe lost card 12"
        event = s.scalar(select(Event).where(Event.round_id == row.id,
                                             Event.kind == "round_voided"))
        assert event is not None and event.actor == SUPERVISOR
        payload = json.loads(event.payload)
        assert payload["misdeal"] is True and payload["reason"] == "the shoe lost card 12"
        assert payload["authorised"]["by"] == "the person's own secret"
        assert s.scalar(select(func.count()).select_from(SettlementRow).where(
            SettlementRow.round_id == row.id)) == 0  # every wager goes back: nothing paid
    assert [r.status for r in store.history()] == ["misdeal"]
    assert all(report.intact for report in store.verify())
    # the next round starts from the same rotation: a misdeal moves nothing on
    assert store.rotation().round_no == rec.game.rotation.round_no


def test_a_misdeal_without_the_supervisor_s_secret_is_refused(store: Store) -> None:
    _people(store)
    rec = _dealt(store)
    with pytest.raises(PortError, match=SUPERVISOR):
        StoreSupervisors(store).authorise(SUPERVISOR, "wrong-guess", "misdeal")
    with pytest.raises(NotAuthorised):
        rec.misdeal("no reason", by=SUPERVISOR)  # a name alone, on a ledger with people
    assert store.journal.meta("open_round") == rec.round_id  # still in play
