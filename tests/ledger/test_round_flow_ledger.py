"""The ledger keeps what seeds 001 and 004 add to a round: the hand left in one pile and set by
the dealer after the bank, the foul given back to be set again, the House Way shown."""

from __future__ import annotations

import json
import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.cards import parse_cards
from app.core.round import AskedHouseWay, FoulPenalty, Round, RoundRules
from app.core.table import DEALER, Action
from app.ledger import Store
from app.ledger.codec import decode_rotation, decode_rules, replay
from app.ledger.models import Event, HandRow, RoundRow

from ..core.test_round import ACES_AND_SEVENS, BANK_HAND, PAIR_OF_FOURS, whole_deck

RULES = RoundRules(asked_house_way=AskedHouseWay.AFTER_BANK,
                   foul_penalty=FoulPenalty.RESPLIT)


def test_the_pile_set_after_the_bank_the_resplit_and_the_help_are_in_the_ledger(
        store: Store) -> None:
    """Seed 004: "having the dealer set it House Way after the bank hand is opened. When a
    hand is played House Way, all seven cards are left in one pile on the table." Seed 001:
    "The player may re-split the hand" and "The house would then show how it would split the
    hand." """
    game = Round(RULES, store.rotation())
    rec = store.begin(game)
    for seat in (1, 2):
        game.place_wager(seat, 1000)
    game.set_action(Action.from_rng(3))
    hands, leftovers = whole_deck({DEALER: BANK_HAND, 1: ACES_AND_SEVENS, 2: PAIR_OF_FOURS})
    game.deal_by_position(hands, leftovers)
    rec.save()
    game.show_house_way(2)
    game.set_hand(2, parse_cards("4C 4D"))  # a foul: back to the player
    game.set_hand(2, parse_cards("QH 9S"))
    game.ask_house_way(1)
    rec.save()
    game.settle()
    rec.save()
    with Session(store.engine) as s:
        rid = uuid.UUID(rec.round_id)
        kinds = list(s.scalars(select(Event.kind).where(Event.round_id == rid)
                               .order_by(Event.seq)))
        rows = {h.position: h for h in s.scalars(select(HandRow)
                                                 .where(HandRow.round_id == rid))}
        row = s.get(RoundRow, rid)
        assert row is not None
        payloads = s.scalars(select(Event.payload).where(
            Event.round_id == rid, Event.seq > 0).order_by(Event.seq))
        again = replay(decode_rules(json.loads(row.config)["rules"]),
                       decode_rotation(json.loads(row.rotation)),
                       [json.loads(p) for p in payloads])
    assert kinds.index("house_way_shown") < kinds.index("hand_returned") < kinds.index(
        "house_way_asked")
    assert rows[1].set_by == "after-bank" and rows[1].rule_id
    assert rows[2].set_by == "player" and rows[2].foul is None
    assert again.rules == RULES  # the round's own rules, kept with it
    assert again.slip is not None and again.slip.text() == store.slip(rec.round_id).text
