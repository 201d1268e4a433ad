"""A round re-read from the ledger is read under the rules it was played by, stored with it
as structured data: the pit's advice on its hands, its slip and reprint, and its replay -
never the table's config of today."""

from __future__ import annotations

import json
import uuid

from sqlalchemy import select

from app.core.analysis.advise import advise_under
from app.core.cards import parse_cards
from app.core.hands import HandRules
from app.core.house_way import house_way
from app.core.round import Phase, RoundRules, WagerLimits
from app.core.settlement import CommissionPolicy, Rounding
from app.ledger import Recording, Store
from app.ledger.codec import decode_rules, replay
from app.ledger.models import Event, RoundRow
from drivers.printer import slip_text

from .play import record_rounds

# A card and joker unlike today's table's, and a pair a table may play: its House Way table is
# built at install (`python -m app.cache`), so the pit's advice does not build one (a minute).
PLAYED_UNDER = RoundRules(house_way=house_way("fully-wild"),
                          hands=HandRules(joker="fully-wild"),
                          commission=CommissionPolicy(400, 50, Rounding.DOWN),
                          limits=WagerLimits(1_000, 50_000))


def _one_settled(store: Store) -> Recording:
    rec = record_rounds(store, 1, "stored-rules", PLAYED_UNDER)[0]
    assert isinstance(rec, Recording) and rec.game.phase is Phase.SETTLED
    return rec


def test_a_stored_slip_reads_back_the_rules_its_round_was_played_by(store: Store) -> None:
    rec = _one_settled(store)
    stored = store.slip(rec.round_id)
    assert stored.rules() == PLAYED_UNDER
    assert stored.rules().house_way is house_way("fully-wild")


def test_the_pits_advice_on_a_past_hand_uses_that_rounds_card_joker_and_commission(
        store: Store) -> None:
    rec = _one_settled(store)
    stored = store.slip(rec.round_id)
    line = stored.data()["positions"][0]
    advice = advise_under(stored.rules(), parse_cards(line["cards"]), samples=200)
    # Today's table (config/default.toml) is standard, bug joker, 5% up to $0.25, $5 minimum.
    assert advice.way == advice.dealer_way == "fully-wild"
    assert advice.rules == HandRules(joker="fully-wild")
    assert advice.policy == CommissionPolicy(400, 50, Rounding.DOWN)
    assert advice.wager == 1_000  # that round's table minimum


def test_a_slip_and_its_reprint_print_the_rules_the_round_was_played_by(store: Store) -> None:
    rec = _one_settled(store)
    stored = store.slip(rec.round_id)
    rules = dict(stored.data()["rules"])
    assert rules["house_way"] == "fully-wild" and rules["joker"] == "fully-wild"
    assert rules["commission"] == "4% rounded down to $0.50"
    reprint = slip_text(stored.data())  # what a reprint from the ledger prints
    assert "House Way  fully-wild" in reprint
    assert "Commission 4% rounded down to $0.50" in reprint


def test_a_stored_round_replays_under_its_stored_rules(store: Store) -> None:
    rec = _one_settled(store)
    rid = uuid.UUID(rec.round_id)
    with store.engine.connect() as conn:
        config = conn.execute(select(RoundRow.config).where(RoundRow.id == rid)).scalar_one()
        records = [json.loads(p) for p in conn.execute(
            select(Event.payload).where(Event.round_id == rid, Event.seq > 0)
            .order_by(Event.seq)).scalars()]
    rules = decode_rules(json.loads(config)["rules"])
    assert rules == PLAYED_UNDER
    assert replay(rules, rec.game.rotation, records).slip == rec.game.slip
