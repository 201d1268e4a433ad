"""Game recall (issue 15): "any round, years later, is shown whole (every card dealt in
order, each setting and the rule that made it, the payouts, who was banker, who was dealer
and supervisor), and its settlement is recomputed from its recorded cards and rules and
must match what was paid." On SQLite and PostgreSQL; a row changed behind the ledger's back
is a mismatch that names it."""

from __future__ import annotations

import json
import random
import re
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.cli import main
from app.core.round import Round, RoundRules
from app.core.settlement import money
from app.core.table import position_name
from app.ledger import Recording, Store
from app.ledger.models import Event, SettlementRow

from .conftest import TABLE
from .enrolled import enrolled_key
from .play import RULES, play, record_rounds
from .tamper import tamper

SUPERVISOR, SUPERVISOR_SECRET = "Pat Lee", "tiger-lily-42"


def _settled(store: Store, n: int, seed: str) -> list[Recording]:
    recs = [r for r in record_rounds(store, n, seed) if isinstance(r, Recording)]
    store.drain()
    return [r for r in recs if r.game.slip is not None]


def test_every_settled_round_recalled_is_whole_and_the_core_pays_what_the_ledger_paid(
        store: Store) -> None:
    recs = _settled(store, 6, "recall")
    assert recs
    for rec in recs:
        found = store.recall(rec.round_id)
        assert found.match and found.recomputed, found.differences
        assert found.verdict.startswith("MATCH")
        text = found.text()
        slip = rec.game.slip
        assert slip is not None
        # every card dealt, in the order dealt: the hands from action on, as the core dealt
        deal = rec.game.deal
        assert deal is not None
        cards_at = text.index("CARDS DEALT, IN ORDER")
        for i, (position, hand) in enumerate(zip(deal.order, deal.hands, strict=True), 1):
            line = f"  {i}. {position_name(position)}: {' '.join(map(str, hand))}"
            assert line in text
            assert text.index(line) > cards_at
        # each setting and the House Way rule that made it
        for hand in rec.game.hands.values():
            if hand.setting is not None and hand.rule:
                assert f"rule {hand.rule}: " in text
        # the payouts in order from action
        paid = [ln for ln in slip.lines if ln.outcome is not None]
        paid.sort(key=lambda ln: ln.order or 0)
        at = [text.index(f"net {money(ln.net, sign=True)}",
                         text.index("PAYOUTS, IN ORDER FROM ACTION")) for ln in paid[:1]]
        assert at
        assert "dealer: Kim" in text
        assert ("banker: the dealer" in text) == (rec.game.bank.player is None)


def test_a_payout_changed_behind_the_ledgers_back_is_a_mismatch_that_names_it(
        store: Store, database_url: str) -> None:
    rec = next(r for r in _settled(store, 6, "tamper")
               if any(ln.net > 0 for ln in r.game.slip.lines))  # type: ignore[union-attr]
    line = next(ln for ln in rec.game.slip.lines if ln.net > 0)  # type: ignore[union-attr]
    with Session(store.engine) as db:
        row = db.scalars(select(SettlementRow).where(
            SettlementRow.round_id == uuid.UUID(rec.round_id),
            SettlementRow.position == line.position, SettlementRow.entry == "original")).one()
    tamper(database_url, "UPDATE settlements SET net_cents = net_cents + 50000 WHERE id = :id",
           id=row.id)
    found = store.recall(rec.round_id)
    assert not found.match
    assert found.verdict.startswith("MISMATCH: ")
    assert any(d.startswith(f"{position_name(line.position)}") and
               f"net {money(line.net + 50000, sign=True)} in the ledger, "
               f"{money(line.net, sign=True)} by the cards and rules" in d
               for d in found.differences), found.differences


def test_a_card_changed_in_the_recorded_deal_is_a_mismatch(store: Store,
                                                           database_url: str) -> None:
    rec = _settled(store, 3, "cards")[0]
    with Session(store.engine) as db:
        event = [e for e in db.scalars(select(Event).where(
            Event.round_id == uuid.UUID(rec.round_id)).order_by(Event.seq))
            if e.seq and json.loads(e.payload).get("type") == "dealt"][-1]
    payload = json.loads(event.payload)
    hands = payload["deal"]["hands"]
    first, second = hands[0].split(), hands[1].split()
    first[0], second[0] = second[0], first[0]  # two cards swapped between two hands
    hands[0], hands[1] = " ".join(first), " ".join(second)
    tamper(database_url, "UPDATE events SET payload = :p WHERE id = :id",
           p=json.dumps(payload), id=event.id)
    found = store.recall(rec.round_id)
    assert not found.match
    assert any("do not play again" in d for d in found.differences), found.differences


def test_a_void_round_recalled_names_the_supervisor_and_pays_nothing(store: Store) -> None:
    store.add_person("Ana Ruiz", "shift manager", "ana-knows-77", by=None, first=True)
    ana = store.authorise("Ana Ruiz", "ana-knows-77", "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=ana)
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    play(game, random.Random("void"), rec.save, misdeal_chance=0, stop_in_setting=True)
    rec.void("a card was exposed", by=SUPERVISOR, secret=SUPERVISOR_SECRET)
    store.drain()
    found = store.recall(rec.round_id)
    assert found.status == "void" and found.match and not found.recomputed
    assert f"{SUPERVISOR}: round voided at " in found.text()
    assert "a card was exposed" in found.text()
    assert "nothing was paid" in found.text()


def test_paigow_ledger_recall_says_match_or_the_difference_with_its_exit_code(
        database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(database_url, table=TABLE, station="s", data_dir=tmp_path / "s") as store:
        enrolled_key(store)
        store.open_shift("Kim")
        rec = _settled(store, 2, "cli")[0]
    code = main(["ledger", "recall", rec.round_id, "--database-url", database_url])
    out = capsys.readouterr().out
    assert code == 0 and out.rstrip().splitlines()[-1].startswith("MATCH: ")
    # Named as a pit boss says it: the table, the date and the round's number (no id).
    assert re.match(rf"Table {TABLE}, \d{{1,2}} [A-Z][a-z]{{2}} \d{{4}}, round "
                    rf"{rec.game.rotation.round_no} - SETTLED\n", out), out
    tamper(database_url, "UPDATE rounds SET house_net_cents = house_net_cents - 100 "
                         "WHERE id = :id", id=uuid.UUID(rec.round_id))
    code = main(["ledger", "recall", rec.round_id, "--database-url", database_url, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["match"] is False
    assert any(d.startswith("the round's house net total is ") for d in data["differences"])


def test_a_bonus_round_recalled_shows_its_bonus_and_envy_and_matches(store: Store) -> None:
    recs = [r for r in record_rounds(store, 8, "bonus", RULES["fortune-bonus"])
            if isinstance(r, Recording) and r.game.slip is not None
            and r.game.slip.bonus is not None]
    store.drain()
    assert recs
    for rec in recs:
        found = store.recall(rec.round_id)
        assert found.match and found.recomputed, found.differences
        text = found.text()
        slip = rec.game.slip
        assert slip is not None and slip.bonus is not None
        assert "BONUS AND ENVY, IN THE ORDER PAID (fortune-8000, envy envy-5000)" in text
        for line in slip.bonus.lines:
            assert f"  {line.text}" in text
        if slip.bonus.approved_by:
            assert f"  approved by {slip.bonus.approved_by}" in text


def test_a_bonus_rounds_slip_is_kept_once_its_lines_in_rows_and_read_back_whole(
        store: Store) -> None:
    """Migrations 0013 and 0014: the round's row keeps the slip less what its rows hold;
    the bonus lines are rows of their own, so of the bonus it keeps who approved a payout
    that waited, if one did; the slip read back is the slip as settled."""
    from app.ledger import slips
    from app.ledger.models import RoundRow

    recs = [r for r in record_rounds(store, 8, "kept", RULES["fortune-bonus"])
            if isinstance(r, Recording) and r.game.slip is not None
            and r.game.slip.bonus is not None]
    store.drain()
    assert recs
    with Session(store.engine) as s:
        for rec in recs:
            row = s.get(RoundRow, uuid.UUID(rec.round_id))
            assert row is not None and row.slip_json is not None
            kept = json.loads(row.slip_json)
            # shrunk (the totals are the round's columns), the bonus kept beside
            assert kept["schema"] == slips.KEPT and "totals" not in kept
            bonus = rec.game.slip.to_dict()["bonus"]
            assert kept.get("bonus", {}) == ({"approved_by": bonus["approved_by"]}
                                             if bonus["approved_by"] else {})
            assert slips.whole(s, row, kept)["bonus"] == bonus
