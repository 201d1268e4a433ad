"""The store on SQLite and on PostgreSQL: a round written as it goes, rebuilt from the
ledger, settled rounds that cannot change, corrections as reversing rows, and the reads."""

from __future__ import annotations

import csv
import io
import json
import random
import socket
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.banker import BankRotation
from app.core.round import Phase, Round, RoundRules
from app.core.settlement import Role
from app.core.table import DEALER, Action, Misdeal
from app.ledger import LedgerError, Recording, RoundSettled, Store
from app.ledger.codec import decode_rotation, decode_rules, replay
from app.ledger.database import HEAD
from app.ledger.journal import Op
from app.ledger.models import (
    BankDecision,
    Event,
    HandRow,
    RoundRow,
    SettlementRow,
    Shift,
    Station,
    WagerRow,
)
from app.ledger.paths import default_url
from app.ledger.store import station_id
from app.settings import ConfigError, load_config

from .conftest import TABLE
from .play import RULES, play, record_rounds, shuffled


def _count(store: Store, model: Any, *where: Any) -> int:
    with Session(store.engine) as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def _round(store: Store, rec: Recording) -> RoundRow:
    with Session(store.engine) as s:
        row = s.get(RoundRow, uuid.UUID(rec.round_id))
        assert row is not None
        s.expunge(row)
        return row


def _settled(store: Store, seed: object, n: int = 1) -> list[Recording]:
    recs = record_rounds(store, n, seed)
    return [r for r in recs if isinstance(r, Recording)]


# --- written as it goes --------------------------------------------------------------------

def test_a_round_is_in_the_ledger_record_by_record_as_it_is_played(store: Store) -> None:
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    counts: list[tuple[int, int]] = []

    def save() -> None:
        rec.save()
        counts.append((len(game.log), _count(store, Event,
                                             Event.round_id == uuid.UUID(rec.round_id))))
        assert _round(store, rec).phase == game.phase.value

    play(game, random.Random(1), save)
    assert all(events == records + 1 for records, events in counts)  # + the round begun
    assert store.status().pending == 0 and store.status().banner is None


def test_the_round_row_holds_action_the_deck_as_read_the_bank_and_the_config(
        store: Store) -> None:
    config = load_config(env={})
    game = Round(config.round_rules(), store.rotation())
    rec = store.begin(game, config=config)
    game.place_wager(2, 2500)
    game.place_wager(5, 1000)
    game.set_action(Action.from_rng(3))
    deck = shuffled(random.Random(7))
    game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)], deck[49:53])
    rec.save()
    row = _round(store, rec)
    assert (row.action_source, row.action_number, row.counted_from, row.action_position,
            row.direction) == ("rng", 3, 0, 2, "clockwise")
    assert row.deck == " | ".join(" ".join(str(c) for c in deck[i * 7:(i + 1) * 7])
                                  for i in range(7))
    assert row.leftovers == " ".join(str(c) for c in deck[49:53]) and row.leftovers_counted
    assert row.banker_position == DEALER and row.banker_seat is None
    assert row.house_way == "standard" and row.round_no == 1
    snapshot = json.loads(row.config)
    assert decode_rules(snapshot["rules"]) == game.rules
    assert snapshot["config"]["commission"]["rate"] == 500
    assert "ledger" not in snapshot["config"]  # where the ledger is is not a table rule
    assert decode_rotation(json.loads(row.rotation)) == game.rotation
    with Session(store.engine) as s:
        wagers = {(w.seat, w.kind, w.amount_cents) for w in s.scalars(
            select(WagerRow).where(WagerRow.round_id == row.id))}
    assert wagers == {(2, "main", 2500), (5, "main", 1000)}


def test_every_settled_round_rebuilds_from_the_ledger_to_its_slip(store: Store) -> None:
    recs = _settled(store, "rebuild", 12)
    with Session(store.engine) as s:
        for rec in recs:
            row = s.get(RoundRow, uuid.UUID(rec.round_id))
            assert row is not None and row.status == "settled"
            payloads = s.scalars(select(Event.payload).where(
                Event.round_id == row.id, Event.seq > 0).order_by(Event.seq))
            game = replay(decode_rules(json.loads(row.config)["rules"]),
                          decode_rotation(json.loads(row.rotation)),
                          [json.loads(p) for p in payloads])
            assert game.slip is not None
            stored = store.slip(rec.round_id)  # the slip as the ledger reads it back
            assert game.slip.text() == stored.text
            assert stored.data() == game.slip.to_dict()


def test_the_rotation_carries_on_from_the_last_settled_round(store: Store,
                                                             tmp_path: Path) -> None:
    recs = _settled(store, "rotation", 3)
    last = recs[-1].game
    assert store.rotation() == last.next_rotation()
    # a station whose journal is gone reads it back from the database (its identity,
    # station-id, put back on the new disk: the same station)
    other = Store(store.url.render_as_string(hide_password=False), table=TABLE,
                  station="station-a", data_dir=tmp_path / "fresh",
                  station_id=store.station_id)
    assert other.rotation() == last.next_rotation()
    other.close()


def test_hands_record_the_seven_cards_the_split_who_set_it_the_rule_and_fouls(
        store: Store) -> None:
    rules = RULES["reset-co-bank-two-dragons"]
    recs = [r for r in record_rounds(store, 10, "hands", rules) if isinstance(r, Recording)]
    recs += [r for r in record_rounds(store, 10, "forfeits") if isinstance(r, Recording)]
    seen: set[str | None] = set()
    with Session(store.engine) as s:
        for rec in recs:
            assert rec.game.slip is not None
            rows = {h.position: h for h in s.scalars(
                select(HandRow).where(HandRow.round_id == uuid.UUID(rec.round_id)))}
            assert len(rows) == 7
            for line in rec.game.slip.lines:
                h = rows[line.position]
                assert h.cards == " ".join(str(c) for c in line.cards)
                assert h.role == line.role.value and h.seat == line.player
                if line.setting is None:
                    assert h.low is None and h.set_by is None
                    continue
                assert (h.low, h.high) == (" ".join(map(str, line.setting.low)),
                                           " ".join(map(str, line.setting.high)))
                assert h.set_by == line.set_by.value if line.set_by else h.set_by is None
                assert h.rule_id == line.rule and h.foul == line.foul
                seen.add(h.penalty)
                if h.penalty == "forfeit":
                    assert h.set_by == "player" and h.foul
                if h.penalty == "reset":
                    assert h.set_by == "reset" and h.foul and h.rule_id
    assert seen == {None, "forfeit", "reset"}


def test_wagers_and_settlements_are_integer_cents_per_position(store: Store) -> None:
    recs = _settled(store, "money", 8)
    with Session(store.engine) as s:
        for rec in recs:
            slip = rec.game.slip
            assert slip is not None
            rows = {(r.position, r.entry_no): r for r in s.scalars(
                select(SettlementRow).where(SettlementRow.round_id == uuid.UUID(rec.round_id)))}
            for line in slip.lines:
                if line.outcome is None:
                    continue
                row = rows[(line.position, 0)]
                assert (row.outcome, row.wager_cents, row.win_cents, row.commission_cents,
                        row.net_cents) == (line.outcome.value, line.wager, line.win,
                                           line.commission, line.net)
                assert all(isinstance(v, int) for v in (row.wager_cents, row.net_cents))
            if slip.bank.player is not None:
                bank = rows[(slip.bank.position, 0)]
                assert (bank.seat, bank.net_cents, bank.commission_cents) == (
                    slip.bank.player, slip.bank.net, slip.bank.commission)


def test_bank_eligibility_decisions_are_kept_with_their_reasons(store: Store) -> None:
    first = Round(RoundRules(), store.rotation())
    rec = store.begin(first)
    first.place_wager(1, 5000)
    first.place_wager(2, 2500)
    first.set_action(Action.from_rng(1))
    deck = shuffled(random.Random(2))
    first.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)])
    first.house_way(1)
    first.house_way(2)
    first.settle()
    rec.save()

    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    game.place_wager(2, 2500)
    game.place_wager(4, 1000)
    refused = game.eligibility(4, 100_000)  # bet nothing against the dealer last round
    assert not refused.eligible
    rec.note_eligibility(refused, by="Pit boss Lee")
    game.take_bank(1, 10_000)
    rec.save()
    with Session(store.engine) as s:
        rows = {d.decision: d for d in s.scalars(
            select(BankDecision).where(BankDecision.round_id == uuid.UUID(rec.round_id)))}
    assert set(rows) == {"checked", "took"}
    assert rows["checked"].seat == 4 and not rows["checked"].eligible
    assert rows["checked"].actor == "Pit boss Lee"
    assert json.loads(rows["checked"].reasons) == list(refused.reasons)
    assert any("no wager against the dealer" in r for r in json.loads(rows["checked"].reasons))
    assert rows["took"].seat == 1 and rows["took"].eligible
    assert rows["took"].chips_cents == 10_000 and rows["took"].cover_cents == 3500


def test_a_misdeal_is_recorded_and_the_wagers_stand(store: Store) -> None:
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    game.place_wager(3, 2000)
    game.set_action(Action.from_rng(2))
    deck = shuffled(random.Random(4))
    bad = deck[:49]
    bad[5] = bad[6]
    with pytest.raises(Misdeal):
        game.deal_stacks([bad[i * 7:(i + 1) * 7] for i in range(7)])
    rec.save()
    row = _round(store, rec)
    assert (row.misdeals, row.phase, row.status) == (1, "misdeal", "open")
    game.set_action(Action.from_rng(5))
    game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)])
    game.house_way(3)
    game.settle()
    rec.save()
    row = _round(store, rec)
    assert (row.misdeals, row.status, row.action_number) == (1, "settled", 5)
    assert _count(store, WagerRow, WagerRow.round_id == row.id) == 1


# --- settled rounds do not change ----------------------------------------------------------

def test_a_settled_round_takes_no_more_records_from_the_store(store: Store) -> None:
    (rec,) = _settled(store, "final", 1)
    rec.game.log.append(rec.game.log[0])  # a record made up after the slip
    with pytest.raises(RoundSettled, match="cannot change"):
        rec.save()
    with pytest.raises(RoundSettled, match="cannot be voided"):
        rec.void("changed my mind")


def test_a_settled_round_is_refused_by_the_database_whoever_writes(store: Store) -> None:
    (rec,) = _settled(store, "final", 1)
    rid = uuid.UUID(rec.round_id)
    events = _count(store, Event, Event.round_id == rid)
    op = Op(str(uuid.uuid4()), "records", rec.round_id, {
        "round_id": rec.round_id, "first_seq": len(rec.game.log) + 1, "actor": "x",
        "records": [{"type": "bank_passed", "seat": 1}], "at": datetime.now(UTC).isoformat()},
        datetime.now(UTC).isoformat())
    from app.ledger.apply import apply_op

    with Session(store.engine) as s, pytest.raises(RoundSettled):
        apply_op(s, op)
    assert _count(store, Event, Event.round_id == rid) == events


@pytest.mark.parametrize("statement", [
    "UPDATE rounds SET house_net_cents = 0",
    "UPDATE rounds SET slip_text = 'forged'",
    "DELETE FROM rounds",
    "UPDATE events SET actor = 'someone else'",
    "DELETE FROM events",
    "UPDATE settlements SET net_cents = net_cents + 100",
    "DELETE FROM settlements",
    "UPDATE hands SET low = NULL",
    "DELETE FROM wagers",
    "UPDATE bank_decisions SET eligible = NOT eligible",
])
def test_the_ledger_only_adds_rows(store: Store, statement: str) -> None:
    (rec,) = _settled(store, "append-only", 1)
    store.record_eligibility(rec.game.eligibility(1, 0), by="Lee")
    with store.engine.connect() as conn:
        before = conn.execute(text("SELECT slip_json FROM rounds")).scalar_one()
    with pytest.raises(IntegrityError, match="ledger: "), store.engine.begin() as conn:
        conn.execute(text(statement))
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT slip_json FROM rounds")).scalar_one() == before
    assert rec.game.slip is not None
    assert store.slip(rec.round_id).text == rec.game.slip.text()


def test_the_database_refuses_to_truncate_the_ledger(store: Store) -> None:
    if store.url.get_backend_name() != "postgresql":
        with pytest.raises(IntegrityError, match="ledger: "), store.engine.begin() as conn:
            conn.execute(text("DELETE FROM events"))  # SQLite has no TRUNCATE: DELETE it is
        return
    _settled(store, "truncate", 1)
    with pytest.raises(IntegrityError, match="ledger: "), store.engine.begin() as conn:
        conn.execute(text("TRUNCATE events, rounds CASCADE"))


def test_a_correction_is_a_reversing_row_and_a_new_row_and_the_round_never_changes(
        store: Store) -> None:
    recs = _settled(store, "correct", 3)
    rec = recs[0]
    slip = rec.game.slip
    assert slip is not None
    line = next(ln for ln in slip.lines if ln.outcome is not None and ln.role is Role.PLAYER)
    before = store.totals()
    fixed = store.correct(rec.round_id[:8], line.position, net_cents=line.net + 100,
                          reason="the dealer paid a dollar short", by="Pit boss Lee")
    assert (fixed.was_net_cents, fixed.net_cents) == (line.net, line.net + 100)
    again = store.correct(rec.round_id, line.position, net_cents=line.net,
                          reason="it was right after all", by="Shift manager Ana")
    assert again.was_net_cents == line.net + 100
    with Session(store.engine) as s:
        rows = list(s.scalars(select(SettlementRow).where(
            SettlementRow.round_id == uuid.UUID(rec.round_id),
            SettlementRow.position == line.position).order_by(SettlementRow.entry_no)))
    assert [r.entry for r in rows] == ["original", "reversal", "correction", "reversal",
                                       "correction"]
    assert rows[1].reverses_id == rows[0].id and rows[3].reverses_id == rows[2].id
    assert sum(r.net_cents for r in rows) == line.net
    after = store.totals()
    assert (after.win_cents, after.drop_cents, after.corrections) == (
        before.win_cents, before.drop_cents, 2)
    stored = store.slip(rec.round_id)
    assert stored.text == slip.text()  # the slip is as it was printed
    assert [c.reason for c in stored.corrections] == ["the dealer paid a dollar short",
                                                      "it was right after all"]
    assert _count(store, Event, Event.kind == "correction") == 2


def test_a_correction_changes_the_totals_by_the_corrected_amount(store: Store) -> None:
    (rec,) = _settled(store, "correct-totals", 1)
    slip = rec.game.slip
    assert slip is not None
    line = next(ln for ln in slip.lines if ln.outcome is not None and ln.role is Role.PLAYER)
    before = store.totals()
    store.correct(rec.round_id, line.position, net_cents=line.net - 500,
                  reason="a $5 overpay taken back", by="Lee")
    after = store.totals()
    assert after.win_cents == before.win_cents + 500
    seat = next(t for t in after.seats if t.seat == line.player)
    assert seat.net_cents == next(t for t in before.seats if t.seat == line.player
                                  ).net_cents - 500


def test_an_open_round_or_an_unknown_position_is_not_corrected(store: Store) -> None:
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    game.place_wager(1, 1000)
    rec.save()
    with pytest.raises(LedgerError, match="only a settled round is corrected"):
        store.correct(rec.round_id, 1, net_cents=0, reason="x", by="y")
    rec.void("the table closed")
    (done,) = _settled(store, "unknown-position", 1)
    assert done.game.slip is not None
    empty = next(ln.position for ln in done.game.slip.lines if ln.outcome is None
                 and ln.role is Role.MUCKED)
    with pytest.raises(LedgerError, match="no settlement at position"):
        store.correct(done.round_id, empty, net_cents=0, reason="x", by="y")
    with pytest.raises(LedgerError, match="says why and who"):
        store.correct(done.round_id, 1, net_cents=0, reason=" ", by="y")


def test_a_void_round_stays_in_the_ledger_and_the_next_begins_where_it_began(
        store: Store) -> None:
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    game.place_wager(1, 1000)
    game.set_action(Action.from_rng(2))
    rec.save()
    rec.void("power cut to the shuffler")
    assert _round(store, rec).status == "void"
    assert _round(store, rec).void_reason == "power cut to the shuffler"
    assert store.resume() is None
    assert store.rotation() == BankRotation()
    deck = shuffled(random.Random(1))
    game.deal_stacks([deck[i * 7:(i + 1) * 7] for i in range(7)])
    with pytest.raises(RoundSettled, match="no longer in play"):
        rec.save()


def test_one_round_at_a_time_per_station(store: Store) -> None:
    store.begin(Round(RoundRules(), store.rotation()))
    with pytest.raises(LedgerError, match="still in play"):
        store.begin(Round(RoundRules(), store.rotation()))


def test_a_round_of_another_table_or_without_a_shift_is_refused(store: Store,
                                                                tmp_path: Path) -> None:
    from app.core.table import Table

    with pytest.raises(LedgerError, match="records table PG-1, not PG-7"):
        store.begin(Round(RoundRules(table=Table("PG-7"))))
    store.close_shift()
    with pytest.raises(LedgerError, match="no shift is open"):
        store.begin(Round(RoundRules()))


# --- restart -------------------------------------------------------------------------------

def _in_play(store: Store, seed: int) -> Recording:
    game = Round(RoundRules(), store.rotation())
    rec = store.begin(game)
    play(game, random.Random(seed), rec.save, stop_in_setting=True)
    assert game.phase is Phase.SETTING and game.pending()
    return rec


def _same_round(a: Round, b: Round) -> None:
    from app.ledger.codec import encode_record

    assert [encode_record(r) for r in a.log] == [encode_record(r) for r in b.log]
    assert a.wagers == b.wagers and a.hands == b.hands and a.deal == b.deal
    assert a.phase is b.phase and a.dragons == b.dragons and a.bank == b.bank


def test_a_restarted_station_resumes_its_round_from_its_journal(store: Store,
                                                                database_url: str,
                                                                tmp_path: Path) -> None:
    rec = _in_play(store, 21)
    store.close()
    again = Store(database_url, table=TABLE, station="station-a", data_dir=tmp_path / "a")
    resumed = again.resume()
    assert resumed is not None and resumed.round_id == rec.round_id
    _same_round(resumed.game, rec.game)
    assert again.shift is not None and again.shift.dealer == "Kim"
    from .play import finish

    finish(resumed.game, resumed.save)
    assert _round(again, resumed).status == "settled"
    assert again.resume() is None
    again.close()


def test_a_station_whose_journal_is_lost_resumes_from_the_database(
        store: Store, database_url: str, tmp_path: Path) -> None:
    rec = _in_play(store, 22)
    store.close()
    fresh = Store(database_url, table=TABLE, station="station-a",
                  data_dir=tmp_path / "new-disk", station_id=store.station_id)  # restored
    resumed = fresh.resume()
    assert resumed is not None and resumed.round_id == rec.round_id
    _same_round(resumed.game, rec.game)
    assert fresh.shift is not None and fresh.shift.dealer == "Kim"
    from .play import finish

    finish(resumed.game, resumed.save)
    assert fresh.status().pending == 0
    assert _count(fresh, Event, Event.round_id == uuid.UUID(rec.round_id)) == \
        len(resumed.game.log) + 1
    fresh.close()


# --- stations side by side -----------------------------------------------------------------

def test_two_stations_writing_to_one_database_never_collide(database_url: str,
                                                            tmp_path: Path) -> None:
    a = Store(database_url, table="PG-1", station="a", data_dir=tmp_path / "a")
    b = Store(database_url, table="PG-1", station="b", data_dir=tmp_path / "b")
    a.open_shift("Kim")
    b.open_shift("Ray")
    rng_a, rng_b = random.Random("a"), random.Random("b")
    ga, gb = Round(RoundRules(), a.rotation()), Round(RoundRules(), b.rotation())
    ra, rb = a.begin(ga), b.begin(gb)
    # interleave their changes: both play round 1 of table PG-1 at once
    steps_a: list[None] = []
    play(ga, rng_a, lambda: (ra.save(), steps_a.append(None), rb.save()))
    play(gb, rng_b, rb.save)
    assert a.station_id != b.station_id and ra.round_id != rb.round_id
    rows = a.history(table="PG-1")
    assert sorted(r.station for r in rows) == ["a", "b"]
    assert {r.round_no for r in rows} == {1}
    assert _count(a, Station) == 2 and _count(a, Shift) == 2
    a.close()
    b.close()


def test_sending_twice_writes_once(store: Store) -> None:
    recs = _settled(store, "twice", 2)
    counts = {m: _count(store, m) for m in (Event, RoundRow, HandRow, WagerRow, SettlementRow,
                                             BankDecision, Shift, Station)}
    # every op the station made, sent again (as after an answer lost on the way back)
    from app.ledger.apply import apply_op
    from app.ledger.codec import encode_record
    from app.ledger.journal import Op as JOp

    rec = recs[-1]
    game = rec.game
    payload = {"round_id": rec.round_id, "first_seq": 1, "actor": "Kim",
               "records": [encode_record(r) for r in game.log],
               "at": datetime.now(UTC).isoformat()}
    with Session(store.engine) as s, s.begin():
        assert apply_op(s, JOp("x", "records", rec.round_id, payload, "")) is False
    assert {m: _count(store, m) for m in counts} == counts


# --- reads ---------------------------------------------------------------------------------

def test_the_slip_of_a_past_round_is_reprinted_exactly(store: Store) -> None:
    recs = _settled(store, "slips", 5)
    for rec in recs:
        slip = rec.game.slip
        assert slip is not None
        stored = store.slip(rec.round_id[:6])
        assert stored.text == slip.text()
        assert stored.json == json.dumps(slip.to_dict(), indent=2)
        assert stored.data()["schema"] == "paigow.slip/1"


def test_an_unsettled_or_unknown_round_has_no_slip(store: Store) -> None:
    rec = _in_play(store, 5)
    with pytest.raises(LedgerError, match="is open: it has no slip yet"):
        store.slip(rec.round_id)
    with pytest.raises(LedgerError, match="no round whose id starts"):
        store.slip("ffffffff")
    with pytest.raises(LedgerError, match="is not a round"):
        store.slip("xy")


def test_history_filters_by_table_shift_seat_and_date(database_url: str,
                                                      tmp_path: Path) -> None:
    one = Store(database_url, table="PG-1", station="s", data_dir=tmp_path / "1")
    two = Store(database_url, table="PG-2", station="s", data_dir=tmp_path / "2")
    first = one.open_shift("Kim")
    a = [r for r in record_rounds(one, 3, "h1") if isinstance(r, Recording)]
    second = one.open_shift("Ray")
    b = [r for r in record_rounds(one, 2, "h2") if isinstance(r, Recording)]
    two.open_shift("Sam")
    from app.core.table import Table

    c = [r for r in record_rounds(two, 2, "h3", RoundRules(table=Table("PG-2")))
         if isinstance(r, Recording)]
    ids = lambda rs: {r.round_id for r in rs}  # noqa: E731
    got = lambda **kw: {r.id for r in one.history(**kw)}  # noqa: E731
    assert got() == ids(a + b + c)
    assert got(table="PG-1") == ids(a + b) and got(table="PG-2") == ids(c)
    assert got(shift=first.id[:8]) == ids(a) and got(shift=second.id) == ids(b)
    for seat in range(1, 7):
        played = {r.round_id for r in a + b + c if seat in r.game.wagers
                  or r.game.bank.player == seat
                  or any(s == seat for s, _ in r.game.dragons.values())}
        assert got(seat=seat) == played
    today = datetime.now().astimezone().date()
    assert got(day=today) == ids(a + b + c)
    assert got(day=today - timedelta(days=1)) == set()
    assert got(since=datetime.now(UTC) + timedelta(minutes=1)) == set()
    assert got(until=datetime.now(UTC) + timedelta(minutes=1)) == ids(a + b + c)
    newest = one.history(limit=2)
    assert len(newest) == 2 and newest[0].started_at >= newest[1].started_at
    assert all(r.status == "settled" and r.dealer in ("Kim", "Ray", "Sam") for r in newest)
    shifts = one.shifts()
    assert [s.dealer for s in shifts] == ["Sam", "Ray", "Kim"]
    assert [s.rounds for s in shifts] == [2, 2, 3] and shifts[2].closed_at is not None
    one.close()
    two.close()


def test_shift_totals_are_the_sum_of_the_slips_drop_win_commission_per_seat(
        store: Store) -> None:
    recs = _settled(store, "totals", 10)
    recs += [r for r in record_rounds(store, 10, "totals-bank",
                                      RULES["reset-co-bank-two-dragons"])
             if isinstance(r, Recording)]
    slips = [r.game.slip for r in recs if r.game.slip is not None]
    t = store.totals(shift=store.shift.id if store.shift else None)
    assert t.rounds == len(slips) == 20
    assert t.win_cents == sum(s.totals.house_net for s in slips)
    assert t.commission_cents == sum(s.totals.commission for s in slips)
    assert t.players_net_cents == sum(s.totals.players_net for s in slips)
    assert t.banker_net_cents == sum(s.totals.banker_net for s in slips)
    assert t.drop_cents == sum(ln.wager for s in slips for ln in s.lines
                               if ln.role in (Role.PLAYER, Role.DRAGON))
    for seat in t.seats:
        assert seat.net_cents == sum(s.net_of(seat.seat) for s in slips)
    assert {seat.seat for seat in t.seats} == {
        p for s in slips for p in range(1, 7) if any(
            ln.player == p for ln in s.lines if ln.role in (Role.PLAYER, Role.DRAGON))
        or s.bank.player == p}
    assert t.win_cents + t.players_net_cents + t.banker_net_cents == 0
    assert "drop" in t.text() and t.to_dict()["rounds"] == 20


def test_csv_export_has_a_row_per_settlement_and_the_money_adds_up(store: Store) -> None:
    recs = _settled(store, "csv", 6)
    slips = [r.game.slip for r in recs if r.game.slip is not None]
    out = io.StringIO()
    n = store.export_csv(out, "settlements")
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert n == len(rows) == sum(1 for s in slips for ln in s.lines if ln.outcome is not None) \
        + sum(1 for s in slips if s.bank.player is not None)
    assert sum(int(r["net_cents"]) for r in rows) == sum(
        s.totals.players_net + s.totals.banker_net for s in slips) + sum(
        ln.net for s in slips for ln in s.lines if ln.role is Role.DEALER)
    for what, per_round in (("rounds", 1), ("hands", 7)):
        buf = io.StringIO()
        assert store.export_csv(buf, what) == per_round * len(recs)
    for what in ("wagers", "events", "bank_decisions"):
        buf = io.StringIO()
        store.export_csv(buf, what)
        assert buf.getvalue().splitlines()[0].startswith("table_name,")
    with pytest.raises(LedgerError, match="no export called"):
        store.export_csv(io.StringIO(), "passwords")


# --- where the ledger is -------------------------------------------------------------------

def test_the_default_ledger_is_a_sqlite_file_in_the_users_data_directory(
        tmp_path: Path) -> None:
    expected = tmp_path / "xdg" / "paigow-station" / "ledger.sqlite"
    assert default_url() == f"sqlite:///{expected}"
    assert not expected.exists()
    with Store(table=TABLE, station="x") as store:
        assert store.revision() == HEAD
        store.open_shift("Kim")
        (rec,) = [r for r in record_rounds(store, 1, "default") if isinstance(r, Recording)]
    assert expected.exists()
    assert (tmp_path / "xdg" / "paigow-station" / "journal").is_dir()
    with Store(table=TABLE, station="x") as again:
        assert [r.id for r in again.history()] == [rec.round_id]


def test_database_url_in_the_config_points_the_store_at_postgresql(
        pg_up: Any, pg_template: str, tmp_path: Path) -> None:
    url = pg_up.url(pg_up.create_database(template=pg_template))
    site = tmp_path / "site.toml"
    site.write_text(f'[ledger]\ndatabase_url = "{url}"\n')
    config = load_config(site, env={})
    with Store.from_config(config, data_dir=tmp_path / "d") as store:
        assert store.url.get_backend_name() == "postgresql"
        assert store.url.drivername == "postgresql+psycopg"
    env_config = load_config(env={"PAIGOW_LEDGER__DATABASE_URL": url})
    assert env_config.ledger.database_url == url
    with pytest.raises(ConfigError) as err:
        load_config(env={"PAIGOW_LEDGER__DATABASE_URL": "mysql://x@y/z"})
    assert err.value.key == "ledger.database_url" and "postgresql://" in err.value.why


def test_a_url_that_is_no_database_is_refused_with_what_to_write(tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="SQLite or PostgreSQL, not mysql"):
        Store("mysql://root:secret@db/x", data_dir=tmp_path)
    with pytest.raises(LedgerError, match="is not a database URL"):
        Store("not a url", data_dir=tmp_path)


def test_the_station_name_in_the_config_names_the_station_not_the_host(
        tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text('[station]\nname = "pg1-left"\n')
    config = load_config(site, env={})
    with Store.from_config(config, data_dir=tmp_path / "d") as store:
        assert store.station == "pg1-left"
        assert store.station_id != str(station_id(config.table.name, "pg1-left"))  # its own
    with Store.from_config(load_config(env={}), data_dir=tmp_path / "d") as store:
        assert store.station == socket.gethostname()
