"""The bonus and envy lines are rows of the ledger (issue 26: "in the ledger (rows chained
like every other)", migration 0014_bonus_rows): a row a line in the order paid, written with
the round's settlement rows and chained as they are; the kept slip leaves them out and
reads them back whole. A row changed behind the ledger's back is found by verify and named
by recall; a round settled before the rows keeps its lines in its slip and reads, recalls
and verifies as it did; the ledger is not taken back past 0014 once lines are rows. On
SQLite and PostgreSQL."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.round import Round
from app.ledger import Recording, Store
from app.ledger.models import BonusSettlementRow, RoundRow
from app.ledger.slips import KEPT
from tests.core.test_round_bonus import deal, fortune, settle_by_house_way

from .conftest import TABLE
from .tamper import tamper

SUPERVISOR = "Pat Lee"


def envy_round(store: Store) -> Recording:
    """Issue 26's golden round: seat 3's four eights pay its bonus 25 to 1, and seat 1 wins
    $5 envy for seat 2's and for seat 3's four of a kind (seat 3 for seat 2's); seat 1's
    nothing loses its bonus."""
    game = Round(fortune(), store.rotation())
    rec = store.begin(game)
    for seat in (1, 2, 3):
        game.place_wager(seat, 1000)
    game.place_bonus(1, 500)
    game.place_bonus(3, 500)
    deal(game, {1: "2S 4H 6D 3C TS QH KD", 2: "9S 9H 9D 9C 2H 5D JC",
                3: "8S 8H 8D 8C 3H 5S JD"})
    settle_by_house_way(game)
    rec.save()
    store.drain()
    return rec


def approved_round(store: Store) -> Recording:
    """Seat 1's five aces pay its $100 bonus $40,000 (held, approved, settled) and seat 2's
    $5 bonus $250 of envy."""
    game = Round(fortune(), store.rotation())
    rec = store.begin(game)
    game.place_wager(1, 2500)
    game.place_wager(2, 2500)
    game.place_bonus(1, 10_000)
    game.place_bonus(2, 500)
    deal(game, {1: "AS AH AD AC JK 2D 7C", 2: "3S 4H 6D 8H TS QH KD"})
    for p in game.pending():
        if game.can_set_hand(p):
            game.house_way(p)
    game.hold_bonus()
    game.approve_bonus(SUPERVISOR)
    game.settle()
    rec.save()
    store.drain()
    return rec


def rows_of(store: Store, round_id: str) -> list[BonusSettlementRow]:
    with Session(store.engine) as s:
        return list(s.scalars(select(BonusSettlementRow).where(
            BonusSettlementRow.round_id == uuid.UUID(round_id))
            .order_by(BonusSettlementRow.line_no)))


def kept_slip(store: Store, round_id: str) -> dict[str, object]:
    with Session(store.engine) as s:
        row = s.get(RoundRow, uuid.UUID(round_id))
        assert row is not None and row.slip_json
        return dict(json.loads(row.slip_json))


def test_the_bonus_and_envy_lines_are_rows_in_the_order_paid_and_the_slip_keeps_none(
        store: Store) -> None:
    rec = envy_round(store)
    got = [(r.line_no, r.kind, r.seat, r.position, r.from_position, r.category,
            r.wager_cents, r.paid_cents, r.supervisor) for r in rows_of(store, rec.round_id)]
    assert got == [
        (1, "bonus", 1, 1, None, "nothing", 500, -500, False),
        (2, "bonus", 3, 3, None, "four-of-a-kind", 500, 12_500, False),
        (3, "envy", 1, 1, 2, "four-of-a-kind", 500, 500, False),
        (4, "envy", 1, 1, 3, "four-of-a-kind", 500, 500, False),
        (5, "envy", 3, 3, 2, "four-of-a-kind", 500, 500, False)]
    kept = kept_slip(store, rec.round_id)
    assert kept["schema"] == KEPT and "bonus" not in kept
    assert "rules" not in kept  # the bonus among them: its rows say a seat bet it
    # read back whole, key for key and word for word, as the core settled it
    assert rec.game.slip is not None
    stored = store.slip(rec.round_id)
    assert stored.data() == rec.game.slip.to_dict()
    assert stored.text == rec.game.slip.text()
    found = store.recall(rec.round_id)
    assert found.match and found.recomputed, found.differences
    assert "  seat 1 envy: four of a kind at seat 3: +$5.00" in found.lines
    (report,) = store.verify(TABLE)
    assert report.intact, report.text()


def test_who_approved_a_payout_is_all_the_slip_keeps_of_the_bonus(store: Store) -> None:
    rec = approved_round(store)
    rows = rows_of(store, rec.round_id)
    assert [(r.kind, r.seat, r.paid_cents, r.supervisor) for r in rows] == [
        ("bonus", 1, 4_000_000, True), ("bonus", 2, -500, False),
        ("envy", 2, 25_000, False)]  # $250 envy for another player's five aces
    assert kept_slip(store, rec.round_id)["bonus"] == {"approved_by": SUPERVISOR}
    assert rec.game.slip is not None
    assert store.slip(rec.round_id).data() == rec.game.slip.to_dict()
    assert store.recall(rec.round_id).match


def test_a_bonus_row_changed_behind_the_ledger_is_found_by_verify_and_named_by_recall(
        store: Store, database_url: str) -> None:
    """The $5 envy made $500 with a plain SQL UPDATE (the triggers switched off, as the
    database's owner can): the row no longer matches its link, and the core pays $5."""
    rec = envy_round(store)
    row = rows_of(store, rec.round_id)[3]
    tamper(database_url, "UPDATE bonus_settlements SET paid_cents = 50000 WHERE id = :id",
           id=row.id)
    (report,) = store.verify(TABLE)
    assert not report.intact
    assert any(p.table == "bonus_settlements" and p.kind == "edited"
               and f"bonus_settlements row {row.id}" in p.detail
               and "seat 1's envy, line 4 paid" in p.detail
               and "was edited" in p.detail for p in report.problems), report.text()
    found = store.recall(rec.round_id)
    assert not found.match
    assert ("bonus line 4 (seat 1's envy for the hand at seat 3): the ledger pays four of a "
            "kind +$500.00 on a $5.00 wager; the cards and rules pay seat 1 envy: four of a "
            "kind at seat 3: +$5.00") in found.differences, found.differences
    # the slip read back says what the row says now, and recall says it is not the slip the
    # cards make
    assert "the slip as stored (slip_json) is not the slip the cards and rules make" \
        in found.differences


def test_a_bonus_row_written_by_hand_is_no_record(store: Store, database_url: str) -> None:
    """An INSERT of a sixth line, $1,000 of envy (the triggers let an INSERT through)."""
    rec = envy_round(store)
    postgres = database_url.startswith("postgresql")
    new_id = uuid.uuid4()
    tamper(database_url,
           "INSERT INTO bonus_settlements (id, round_id, line_no, kind, seat, position, "
           "from_position, category, wager_cents, paid_cents, supervisor, note, at) "
           "SELECT :new, round_id, 6, 'envy', 3, 3, 1, 'five-aces', 500, 100000, "
           + ("false" if postgres else "0") + ", NULL, at FROM bonus_settlements "
           "WHERE line_no = 5", new=new_id)
    (report,) = store.verify(TABLE)
    assert any(p.kind == "unchained" and p.row_id == str(new_id) for p in report.problems)
    found = store.recall(rec.round_id)
    assert any(d.startswith("bonus line 6 (seat 3's envy for the hand at seat 1) (+$1,000.00)"
                            " is no record") for d in found.differences), found.differences


def test_a_round_with_no_bonus_wager_has_no_bonus_rows(store: Store) -> None:
    game = Round(fortune(), store.rotation())
    rec = store.begin(game)
    game.place_wager(1, 1000)
    deal(game, {})
    settle_by_house_way(game)
    rec.save()
    store.drain()
    assert rows_of(store, rec.round_id) == []
    assert "bonus" not in kept_slip(store, rec.round_id)
    assert store.recall(rec.round_id).match


def test_rounds_settled_before_the_rows_keep_their_lines_in_the_slip_and_read_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A station before migration 0014 kept the lines in the slip; after the upgrade those
    rounds read, recall and verify as they did, beside rounds whose lines are rows, and the
    floor's shift report counts both."""
    from app.floor.report import build
    from app.ledger import apply, slips
    from app.ledger.database import make_engine, migrate

    from .enrolled import enrolled_key
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = make_engine(url)
    migrate(engine, "0015_compact")
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d",
               migrate_now=False) as old:
        old._migrated = True  # a station before 0014: no bonus rows
        with monkeypatch.context() as m:
            m.setattr(apply, "_bonus_rows", lambda s, rnd, slip, at: None)
            m.setattr(slips, "bonus_rows", lambda s, rnd: [])
            enrolled_key(old)
            old.open_shift("Kim")
            before = envy_round(old)
    assert "lines" in dict(kept_slip(old, before.round_id)["bonus"])  # type: ignore[arg-type]
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d") as store:
        after = envy_round(store)
        assert rows_of(store, before.round_id) == [] and len(rows_of(store, after.round_id)) == 5
        for rec in (before, after):
            assert rec.game.slip is not None
            assert store.slip(rec.round_id).data() == rec.game.slip.to_dict()
            found = store.recall(rec.round_id)
            assert found.match and found.recomputed, found.differences
            assert "  seat 3 bonus $5.00: four of a kind, 25 to 1: +$125.00" in found.lines
        (report,) = store.verify(TABLE)
        assert report.intact, report.text()
        total = build(store.engine, datetime(2000, 1, 1, tzinfo=UTC),
                      datetime(2100, 1, 1, tzinfo=UTC)).total.bonus
        assert (total.rounds, total.wagers_cents, total.paid_cents, total.envy_cents) == (
            2, 2000, 25_000, 3000)


def test_the_ledger_is_not_taken_back_past_0014_once_lines_are_rows(store: Store) -> None:
    """As past 0013: a station older than 0014 would read those slips without their bonus.
    The refusal leaves the ledger as it was."""
    from alembic import command

    from app.ledger.database import alembic_config
    rec = envy_round(store)
    cfg = alembic_config()
    with pytest.raises(RuntimeError, match="not taken back past it"), \
            store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0015_compact")
    assert len(rows_of(store, rec.round_id)) == 5
    assert store.recall(rec.round_id).match
    (report,) = store.verify(TABLE)
    assert report.intact, report.text()


def test_a_ledger_with_no_bonus_rows_goes_back_to_0015(empty_database_url: str) -> None:
    from sqlalchemy import inspect

    from app.ledger.database import make_engine, migrate
    engine = make_engine(empty_database_url)
    try:
        migrate(engine)
        assert "bonus_settlements" in inspect(engine).get_table_names()
        from alembic import command

        from app.ledger.database import alembic_config
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0015_compact")
        assert "bonus_settlements" not in inspect(engine).get_table_names()
        migrate(engine)  # and up again
        assert "bonus_settlements" in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_a_dragon_bonus_taken_back_is_recorded_replayed_and_recalled(store: Store) -> None:
    """The taker's bonus on a dragon hand, placed and taken back before any hand is set:
    both are the round's events, the replay from the ledger makes the same round, and
    recall settles it again to what the ledger paid (no line on the dragon hand)."""
    from app.ledger.codec import decode_rotation, decode_rules, replay
    from app.ledger.models import Event

    game = Round(fortune(dragon_bonus=True), store.rotation())
    rec = store.begin(game)
    game.place_wager(1, 1000)
    game.place_wager(2, 1000)
    game.place_bonus(1, 500)
    game.place_bonus(2, 500)
    deal(game, {1: "2S 4H 6D 3C TS QH 8D", 2: "2H 4D 6C 3S 9H JD 7S",
                3: "KS KH KD KC 5S 3H 7H"})
    seat = game.offer_dragon()
    while seat != 1:
        assert seat is not None
        game.pass_dragon(seat)
        seat = game.offer_dragon()
    game.take_dragon(1, 1000, position=3)
    game.place_dragon_bonus(3, 500)
    rec.save()
    game.withdraw_dragon_bonus(3)
    rec.save()
    settle_by_house_way(game)
    rec.save()
    store.drain()
    with Session(store.engine) as s:
        row = s.get(RoundRow, uuid.UUID(rec.round_id))
        assert row is not None
        payloads = [json.loads(p) for p in s.scalars(select(Event.payload).where(
            Event.round_id == row.id, Event.seq > 0).order_by(Event.seq))]
        again = replay(decode_rules(json.loads(row.config)["rules"]),
                       decode_rotation(json.loads(row.rotation)), payloads)
    assert {"type": "dragon_bonus_withdrawn", "seat": 1, "position": 3,
            "wager_cents": 500} in payloads
    assert again.slip is not None and game.slip is not None
    assert again.slip.to_dict() == game.slip.to_dict() and again.dragon_bonus_wagers == {}
    assert not [r for r in rows_of(store, rec.round_id) if r.position == 3]
    found = store.recall(rec.round_id)
    assert found.match and found.recomputed, found.differences


def test_the_auditor_exports_the_bonus_and_envy_lines_as_csv(store: Store) -> None:
    import csv
    import io

    rec = envy_round(store)
    out = io.StringIO()
    assert store.export_csv(out, "bonus_settlements") == 5
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(r["line_no"], r["kind"], r["seat"], r["from_position"], r["category"],
             r["paid_cents"]) for r in rows] == [
        ("1", "bonus", "1", "", "nothing", "-500"),
        ("2", "bonus", "3", "", "four-of-a-kind", "12500"),
        ("3", "envy", "1", "2", "four-of-a-kind", "500"),
        ("4", "envy", "1", "3", "four-of-a-kind", "500"),
        ("5", "envy", "3", "2", "four-of-a-kind", "500")]
    assert {r["round_id"] for r in rows} == {rec.round_id}
