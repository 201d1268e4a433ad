"""The linked progressive in the ledger (issue 27, docs/progressive.md), on SQLite and on a
real PostgreSQL: contributions written with the round's settlement and never twice, hits
paid from the meter as the last commit left it, two stations at once, the meter row only
ever what its moves left, and the audit (and verify) naming a forged or a missing move."""

from __future__ import annotations

import threading
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from app.cli import main
from app.core.bonus.categories import Category
from app.ledger import Store
from app.ledger.apply import apply_op
from app.ledger.chain import LedgerSession
from app.ledger.errors import LedgerError, NotAuthorised
from app.ledger.journal import Op
from app.ledger.models import ProgressiveMeter, ProgressiveMove, RoundRow
from app.ledger.progressive import audit, card_hash, open_meter

from .conftest import TABLE
from .enrolled import enrolled_key
from .progressive_play import (
    CARD,
    SECRET,
    SUPERVISOR,
    moves,
    new_op,
    progressive_round,
    supervisor,
    wagers,
)

SEED = CARD.seed


def _audit(store: Store):  # type: ignore[no-untyped-def]
    with Session(store.engine) as s:
        return audit(s, CARD.name, CARD)


def _meter(store: Store) -> ProgressiveMeter:
    with Session(store.engine) as s:
        found = s.get(ProgressiveMeter, CARD.name)
        assert found is not None
        s.expunge(found)
        return found


def _owner_sql(store: Store, *statements: str) -> None:
    """Plain SQL as the database's owner would type it, past the triggers."""
    with store.engine.begin() as conn:
        for sql in statements:
            conn.execute(text(sql))


def _lift(store: Store, table: str) -> list[str]:
    """What the owner types to switch a table's append-only triggers off."""
    if store.engine.dialect.name == "postgresql":
        return [f"ALTER TABLE {table} DISABLE TRIGGER USER"]
    return [f"DROP TRIGGER ledger_{table}_append_only_{o}" for o in ("update", "delete")]


def test_a_settled_round_s_progressive_wagers_feed_the_meter_and_the_reserve(
        store: Store) -> None:
    progressive_round(store, [1, 3, 5])
    opened, fed = moves(store)
    assert (opened.kind, opened.house, opened.after.amount) == ("open", SEED, SEED)
    assert (fed.kind, fed.wagers, fed.amount, fed.to_meter, fed.to_reserve) == (
        "contribution", 3, 300, 210, 30)
    assert (fed.before.amount, fed.after.amount, fed.after.reserve) == (SEED, SEED + 210, 30)
    m = _meter(store)
    assert (m.amount_cents, m.reserve_cents, m.seq) == (SEED + 210, 30, 2)
    assert _audit(store).exact
    assert all(r.intact for r in store.verify())  # the moves are in the table's chain


def test_a_round_with_no_progressive_wager_and_a_voided_round_contribute_nothing(
        store: Store) -> None:
    from app.core.round import Round, RoundRules

    progressive_round(store, [])
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    rec.progressive = wagers([2])  # type: ignore[assignment]
    game.place_wager(2, 1000)
    rec.save()
    rec.void("the table closed")
    assert moves(store) == []


def test_a_settlement_sent_twice_or_rolled_back_and_sent_again_contributes_once(
        store: Store) -> None:
    rec = progressive_round(store, [2, 4])
    sent = store.journal.pending()
    assert sent == []  # delivered on save; what was sent is what we send again
    settle = _settling_op(store, rec.round_id)
    with LedgerSession(store._writes) as s, s.begin():
        assert apply_op(s, settle) is False  # the database had it: recognised
    # a transaction that applied it and never committed (a station killed before its
    # commit) leaves nothing, and the op sent again writes it once
    fresh = _fresh_round_op(store)
    with LedgerSession(store._writes) as s:
        s.begin()
        assert apply_op(s, fresh) is True
        s.rollback()
    assert [m.kind for m in moves(store)] == ["open", "contribution"]
    with LedgerSession(store._writes) as s, s.begin():
        assert apply_op(s, fresh) is True
    with LedgerSession(store._writes) as s, s.begin():
        assert apply_op(s, fresh) is False
    fed = [m for m in moves(store) if m.kind == "contribution"]
    assert [m.wagers for m in fed] == [2, 2]
    assert _meter(store).amount_cents == SEED + 280
    assert _audit(store).exact


def _settling_op(store: Store, round_id: str) -> Op:
    """The settling records op of a round, rebuilt as the station sent it."""
    import json

    from app.ledger.models import Event

    with Session(store.engine) as s:
        last = s.scalar(select(Event).where(Event.round_id == uuid.UUID(round_id),
                                            Event.kind == "settled"))
        assert last is not None and last.seq is not None
    return Op("again", "records", round_id, {
        "round_id": round_id, "first_seq": last.seq, "records": [json.loads(last.payload)],
        "progressive": wagers([2, 4]), "at": last.at.isoformat()}, last.at.isoformat())


def _fresh_round_op(store: Store) -> Op:
    """A round played up to its settlement whose settling op is held back (the journal
    keeps it), returned to be sent by hand."""
    from app.core.round import Round, RoundRules

    from .play import play

    store.send_on_save = False
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    rec.progressive = wagers([1, 6])  # type: ignore[assignment]
    import random

    play(game, random.Random(7), rec.save, misdeal_chance=0)
    ops = store.journal.pending()
    *before, settle = ops
    with LedgerSession(store._writes) as s, s.begin():
        for op in before:
            apply_op(s, op)
    for op in before:
        store.journal.delivered(op)
    assert settle.payload["progressive"]["seats"] == [1, 6]  # type: ignore[index]
    return settle


def test_a_hit_is_paid_from_the_meter_as_it_stands_after_a_supervisor_s_sign_in(
        store: Store) -> None:
    supervisor(store)
    rec = progressive_round(store, [1, 2, 3, 4])
    meter = SEED + 280
    with pytest.raises(NotAuthorised):
        store.take_progressive_hits(CARD, rec.round_id, [(1, Category.FIVE_ACES)], new_op(),
                                    SUPERVISOR, "wrong-secret-1")
    pat = store.authorise(SUPERVISOR, SECRET, "progressive")
    op = new_op()
    (hit,) = store.take_progressive_hits(CARD, rec.round_id, [(1, Category.FIVE_ACES)], op, pat)
    assert (hit.paid, hit.before.amount, hit.by) == (meter // 10, meter, SUPERVISOR)
    # below the seed: the reserve, then the house, put it back to the seed
    assert (hit.reserve_to_meter, hit.house, hit.after.amount) == (
        40, meter // 10 - 280 - 40, SEED)
    again = store.take_progressive_hits(CARD, rec.round_id, [(1, Category.FIVE_ACES)], op, pat)
    assert again == (hit,)  # the op sent again: what it paid, nothing taken twice
    assert len(moves(store)) == 3
    assert _meter(store).amount_cents == SEED
    assert _audit(store).exact


def test_a_fixed_amount_is_paid_by_the_house_and_leaves_the_meter(store: Store) -> None:
    rec = progressive_round(store, [1])
    (hit,) = store.take_progressive_hits(CARD, rec.round_id, [(1, Category.FOUR_OF_A_KIND)],
                                         new_op(), "Pat (no people yet)")
    assert (hit.paid, hit.house_paid, hit.to_meter, hit.after) == (7500, 7500, 0, hit.before)
    assert _audit(store).exact


def test_a_hand_the_progressive_does_not_pay_is_refused_and_nothing_is_taken(
        store: Store) -> None:
    rec = progressive_round(store, [1])
    with pytest.raises(LedgerError, match="full house wins nothing on the progressive"):
        store.take_progressive_hits(CARD, rec.round_id, [(1, Category.FULL_HOUSE)], new_op(),
                                    "Pat")
    assert [m.kind for m in moves(store)] == ["open", "contribution"]


def test_two_stations_hitting_at_once_are_paid_in_the_order_they_commit(
        store: Store, database_url: str, tmp_path: Path) -> None:
    other = Store(database_url, table="PG-2", station="station-b", data_dir=tmp_path / "b")
    enrolled_key(other)
    other.open_shift("Lou")
    try:
        rounds = {store: progressive_round(store, [1, 2, 3, 4, 5, 6], 1),
                  other: progressive_round(other, [1, 2, 3, 4, 5, 6], 2)}
        for n in range(6):  # a meter above its seed
            progressive_round(store if n % 2 else other, [1, 2, 3, 4, 5, 6], n + 3)
        start = threading.Barrier(2)
        paid: dict[Store, object] = {}

        def hit(station: Store) -> None:
            start.wait()
            paid[station] = station.take_progressive_hits(
                CARD, rounds[station].round_id, [(2, Category.FIVE_ACES)], new_op(), "Pat")

        threads = [threading.Thread(target=hit, args=(s,)) for s in rounds]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        first, second = [m for m in moves(store) if m.kind == "hit"]
        assert second.before == first.after  # the second paid from what the first left
        assert first.paid == first.before.amount // 10
        assert second.paid == second.before.amount // 10
        assert min(first.after.amount, second.after.amount) >= SEED
        assert {h for got in paid.values() for h in got} == {first, second}  # type: ignore[attr-defined]
        assert _audit(store).exact
        assert all(r.intact for r in store.verify())
    finally:
        other.close()


def test_two_stations_opening_the_meter_at_once_open_it_once(
        store: Store, database_url: str, tmp_path: Path) -> None:
    other = Store(database_url, table="PG-2", station="station-b", data_dir=tmp_path / "b")
    other.open_shift("Lou")
    try:
        start = threading.Barrier(2)
        errors: list[BaseException] = []

        def open_it(station: Store) -> None:
            start.wait()
            try:
                with LedgerSession(station._writes) as s, s.begin():
                    open_meter(s, CARD, uuid.UUID(station.station_id))
            except BaseException as e:  # noqa: BLE001 - the test says which
                errors.append(e)

        threads = [threading.Thread(target=open_it, args=(s,)) for s in (store, other)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        assert [m.kind for m in moves(store)] == ["open"]
    finally:
        other.close()


def test_the_meter_row_shows_only_what_its_newest_move_left_and_is_never_deleted(
        store: Store) -> None:
    progressive_round(store, [1])
    for sql in (f"UPDATE progressive_meters SET amount_cents = amount_cents + 100000 "
                f"WHERE name = '{CARD.name}'",
                f"UPDATE progressive_meters SET seq = seq + 1 WHERE name = '{CARD.name}'",
                f"DELETE FROM progressive_meters WHERE name = '{CARD.name}'",
                "UPDATE progressive_moves SET amount_cents = 0",
                "DELETE FROM progressive_moves"):
        with pytest.raises(DBAPIError, match="ledger: "):
            _owner_sql(store, sql)
    assert _audit(store).exact


def test_a_station_under_another_card_is_refused_and_feeds_nothing(store: Store) -> None:
    from dataclasses import replace

    progressive_round(store, [1])
    richer = replace(CARD, meter_bp=9000)
    with LedgerSession(store._writes) as s, s.begin(), \
            pytest.raises(LedgerError, match="another card"):
        open_meter(s, richer, uuid.UUID(store.station_id))
    assert card_hash(richer) != card_hash(CARD)


def test_the_audit_names_a_forged_contribution_and_verify_names_the_edited_row(
        store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    for n in range(3):
        progressive_round(store, [1, 2, 3], n)
    skimmed = moves(store)[2]  # the second round's contribution: 70 cents less
    _owner_sql(store, *_lift(store, "progressive_moves"),
               f"UPDATE progressive_moves SET amount_cents = 200, to_meter_cents = 140, "
               f"meter_after_cents = meter_after_cents - 70 WHERE meter_seq = {skimmed.seq}")
    found = _audit(store)
    assert not found.exact
    assert found.problems[0].startswith(f"move {skimmed.seq} (a contribution of round ")
    assert "are $3.00, $2.10 to the meter" in found.problems[0]
    assert f"move {skimmed.seq + 1} " in found.problems[1]  # and the next began elsewhere
    url = store.url.render_as_string(hide_password=False)
    assert main(["progressive", "audit", "--database-url", url]) == 1
    out = capsys.readouterr().out
    assert f"NOT EXACT: move {skimmed.seq} (a contribution of round" in out
    assert main(["ledger", "verify", "--table", TABLE, "--database-url", url]) == 1
    assert (f"progressive_moves row {_id_of(store, skimmed.seq)} (round "
            in capsys.readouterr().out)


def test_the_audit_names_a_missing_contribution_and_verify_finds_it_deleted(
        store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    for n in range(3):
        progressive_round(store, [4, 5], n)
    gone = moves(store)[2]
    gone_id = _id_of(store, gone.seq)
    _owner_sql(store, *_lift(store, "progressive_moves"),
               f"DELETE FROM progressive_moves WHERE meter_seq = {gone.seq}")
    found = _audit(store)
    assert found.problems[0] == (f"move {gone.seq} is missing (deleted): move {gone.seq + 1} "
                                 f"(a contribution of round {_round_no(store, gone)}) follows "
                                 f"move {gone.seq - 1}")
    url = store.url.render_as_string(hide_password=False)
    assert main(["progressive", "audit", "--meter", CARD.name, "--database-url", url]) == 1
    assert f"NOT EXACT: move {gone.seq} is missing" in capsys.readouterr().out
    assert main(["ledger", "verify", "--table", TABLE, "--database-url", url]) == 1
    assert f"progressive_moves row {gone_id} is missing (deleted)" in capsys.readouterr().out


def test_paigow_progressive_audit_prints_the_sums_and_exact_to_the_cent(
        store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    rec = progressive_round(store, [1, 2, 3])
    store.take_progressive_hits(CARD, rec.round_id, [(3, Category.STRAIGHT_FLUSH)], new_op(),
                                "Pat")
    url = store.url.render_as_string(hide_password=False)
    assert main(["progressive", "audit", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "linked-pai-gow: meter $10,002.10, reserve $0.30, seed $10,000.00" in out
    assert ("seed $10,000.00 + contributions $2.10 (3 wager(s)) - hits $0.00 + reserve moves "
            "$0.00 + house seeds $0.00 = $10,002.10") in out
    assert "fixed amounts paid by the house $100.00" in out
    assert "3 move(s): exact to the cent" in out


def _id_of(store: Store, seq: int) -> str:
    with Session(store.engine) as s:
        return str(s.scalar(select(ProgressiveMove.id).where(ProgressiveMove.meter_seq == seq)))


def _round_no(store: Store, move: object) -> int:
    with Session(store.engine) as s:
        nxt = [m for m in moves(store) if m.seq == move.seq + 1][0]  # type: ignore[attr-defined]
        found = s.scalar(select(RoundRow.round_no).where(RoundRow.id == uuid.UUID(nxt.round_id)))
        assert found is not None
        return found


def test_a_database_url_of_no_ledger_is_refused_in_words(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["progressive", "audit", "--database-url",
                 f"sqlite:///{tmp_path / 'nothing.sqlite'}"]) == 2
    assert "there is no ledger at" in capsys.readouterr().err
