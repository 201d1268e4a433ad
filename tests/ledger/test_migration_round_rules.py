"""Migration 0003: rounds stored by older stations read back with the full rules they were
played by, and no secret stays in a stored table config; the append-only triggers hold
before and after. Each database is built at 0002 with rows as those stations wrote them."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select, text, update
from sqlalchemy.exc import DBAPIError

from app.core.house_way import house_way
from app.core.round import (
    AskedHouseWay,
    DragonRules,
    FoulPenalty,
    RoundRules,
    WagerLimits,
)
from app.core.settlement import CommissionPolicy, Rounding
from app.core.table import Direction, Table
from app.ledger import Store
from app.ledger.codec import decode_rules
from app.ledger.database import HEAD, make_engine, migrate
from app.ledger.models import Event, RoundRow, Shift, Station
from app.settings import load_config

from .old_storage import ids_as_text

PIN = "730215"
AT = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)

# paigow.rules/1 as the first ledger wrote it (commit 869a01c): no NO PLAY spot, no
# asked-House-Way rule, no dragons per player.
FIRST_LEDGER_RULES: dict[str, Any] = {
    "schema": "paigow.rules/1",
    "table": {"name": "PG-1", "seats": 6, "direction": "counterclockwise",
              "deal_mode": "stacks", "action_source": "rng"},
    "hands": {"joker": "bug", "wheel": "second"},
    "house_way": "trump-plaza",
    "foul_penalty": "house-way",
    "limits": {"minimum_cents": 1000, "maximum_cents": 50000},
    "commission": {"rate_bp": 400, "step_cents": 25, "rounding": "down"},
    "dragon": {"enabled": True, "wager": "at-most", "setting": "house-way",
               "offer": "after-last-taker", "per_round": 1},
    "banking": {"enabled": True, "consecutive": False, "dealer_wager": "last-bet",
                "co_banking": False},
}


def _table_config(**sections: dict[str, Any]) -> dict[str, Any]:
    """A table config snapshot as a station of the time dumped it: the supervisor's PIN in
    it, and (before the ledger's own section was left out) where the ledger is."""
    data = load_config(env={}).model_dump(mode="json")
    data["supervisor"] = {"pin": PIN}
    data["ledger"] = {"database_url": "postgresql://paigow:s3cret@db/paigow"}
    for name, values in sections.items():
        data[name] = {**data[name], **values}
    # Keys the first stations did not have yet.
    data["table"].pop("no_play")
    data["rules"].pop("asked_house_way")
    data["dragon"].pop("max_per_player")
    return data


ROTATION = {"schema": "paigow.rotation/1", "round_no": 1, "first_round": True,
            "last_banker": None, "house_bets": [], "offer_from": None, "last_dragon": None}


def _old_ledger(url: str) -> tuple[Engine, dict[str, uuid.UUID]]:
    """A ledger at 0002 holding: a settled round with the first ledger's rules, an open
    round whose rules are only in its table config, and a round with nothing readable."""
    engine = make_engine(url)
    assert migrate(engine, "0002_append_only") == "0002_append_only"
    station, shift = uuid.uuid4(), uuid.uuid4()
    ids = {"settled": uuid.uuid4(), "config-only": uuid.uuid4(), "unreadable": uuid.uuid4()}
    snapshots: dict[str, Any] = {
        "settled": {"rules": FIRST_LEDGER_RULES,
                    "config": _table_config(rules={"house_way": "trump-plaza"})},
        "config-only": {"config": _table_config(
            commission={"rate": 450, "step": "1/2 chip", "lowest_chip": 100,
                        "rounding": "nearest"},
            rules={"house_way": "delaware-park"},
            wagers={"minimum": 2500, "maximum": 100000})},
        "unreadable": "5% rounded up to $0.25, House Way standard",
    }
    with engine.begin() as conn:
        conn.execute(insert(Station.__table__).values(
            id=station, table_name="PG-1", name="station-a", first_seen=AT))
        conn.execute(insert(Shift.__table__).values(
            id=shift, station_id=station, dealer="Kim", opened_at=AT, closed_at=None))
        for n, (key, rid) in enumerate(ids.items(), start=1):
            snapshot = snapshots[key]
            stored = snapshot if isinstance(snapshot, str) else json.dumps(snapshot)
            conn.execute(insert(RoundRow.__table__).values(
                id=rid, station_id=station, shift_id=shift, table_name="PG-1", round_no=n,
                status="open", phase="betting", started_at=AT, last_seq=0, config=stored,
                house_way="standard", rotation=json.dumps(ROTATION), misdeals=0))
            conn.execute(insert(Event.__table__).values(
                id=uuid.uuid4(), station_id=station, shift_id=shift, round_id=rid, seq=0,
                kind="round_begun", actor="Kim", at=AT, payload=json.dumps(
                    {"round_no": n, "config": snapshot, "rotation": ROTATION})))
        # Settled: from here on the 0002 triggers refuse to change the row.
        conn.execute(update(RoundRow.__table__).where(RoundRow.id == ids["settled"])
                     .values(status="settled", phase="settled", settled_at=AT))
    ids_as_text(url)  # as a station of 0002 kept its ids
    return engine, ids


def _stored(engine: Engine, rid: uuid.UUID) -> tuple[dict[str, Any], dict[str, Any], str]:
    with engine.connect() as conn:
        config, way = conn.execute(select(RoundRow.config, RoundRow.house_way)
                                   .where(RoundRow.id == rid)).one()
        payload = conn.execute(select(Event.payload).where(Event.round_id == rid,
                                                           Event.seq == 0)).scalar_one()
    return json.loads(config), json.loads(payload), way


def test_migration_0003_gives_a_first_ledger_round_its_full_rules(
        empty_database_url: str) -> None:
    engine, ids = _old_ledger(empty_database_url)
    assert migrate(engine) == HEAD
    stored, begun, way = _stored(engine, ids["settled"])
    # The keys added since, written out at the value the round was played by.
    assert stored["rules"]["table"]["no_play"] is False
    assert stored["rules"]["asked_house_way"] == "at-once"
    assert stored["rules"]["dragon"]["max_per_player"] == 1
    expected = RoundRules(
        table=Table("PG-1", direction=Direction.COUNTERCLOCKWISE),
        house_way=house_way("trump-plaza"),
        foul_penalty=FoulPenalty.HOUSE_WAY,
        limits=WagerLimits(1000, 50000), commission=CommissionPolicy(400, 25, Rounding.DOWN))
    assert decode_rules(stored["rules"]) == expected
    assert decode_rules(begun["config"]["rules"]) == expected
    assert way == "trump-plaza"
    engine.dispose()


def test_migration_0003_rebuilds_rules_kept_only_in_the_table_config(
        empty_database_url: str) -> None:
    engine, ids = _old_ledger(empty_database_url)
    migrate(engine)
    stored, begun, way = _stored(engine, ids["config-only"])
    rules = decode_rules(stored["rules"])
    # "1/2 chip" of a $1.00 chip: the round's commission rounded to 50 cents.
    assert rules.commission == CommissionPolicy(450, 50, Rounding.NEAREST)
    assert rules.house_way is house_way("delaware-park") and way == "delaware-park"
    assert rules.limits == WagerLimits(2500, 100000)
    assert rules.asked_house_way is AskedHouseWay.AT_ONCE
    assert rules.dragon == DragonRules()
    assert decode_rules(begun["config"]["rules"]) == rules
    engine.dispose()


def test_migration_0003_leaves_no_supervisor_pin_or_ledger_password_in_any_row(
        empty_database_url: str) -> None:
    engine, ids = _old_ledger(empty_database_url)
    migrate(engine)
    for key in ("settled", "config-only"):
        stored, begun, _ = _stored(engine, ids[key])
        for snapshot in (stored, begun["config"]):
            assert "supervisor" not in snapshot["config"]
            assert "ledger" not in snapshot["config"]
            assert snapshot["config"]["commission"]  # the table's own settings stay
    with engine.connect() as conn:
        everything = [*conn.execute(select(RoundRow.config)).scalars(),
                      *conn.execute(select(Event.payload)).scalars()]
    assert not [row for row in everything if PIN in row or "s3cret" in row]
    engine.dispose()


def test_migration_0003_leaves_a_round_with_nothing_readable_as_it_was(
        empty_database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    engine, ids = _old_ledger(empty_database_url)
    with caplog.at_level("WARNING"):
        assert migrate(engine) == HEAD
    with engine.connect() as conn:
        config = conn.execute(select(RoundRow.config)
                              .where(RoundRow.id == ids["unreadable"])).scalar_one()
    assert config == "5% rounded up to $0.25, House Way standard"
    assert f"round {ids['unreadable']}" in caplog.text
    engine.dispose()


def test_after_migration_0003_a_settled_round_and_its_events_still_cannot_change(
        empty_database_url: str) -> None:
    engine, ids = _old_ledger(empty_database_url)
    migrate(engine)
    for statement in (
            update(RoundRow.__table__).where(RoundRow.id == ids["settled"])
            .values(config="{}"),
            update(Event.__table__).where(Event.round_id == ids["config-only"])
            .values(payload="{}"),
            text("DELETE FROM events")):
        with pytest.raises(DBAPIError, match="ledger"), engine.begin() as conn:
            conn.execute(statement)
    engine.dispose()


def test_a_round_recorded_now_keeps_no_supervisor_pin_in_its_config(
        database_url: str, tmp_path: Path) -> None:
    from app.core.round import Round

    site = tmp_path / "site.toml"
    site.write_text(f'[supervisor]\npin = "{PIN}"\n')
    config = load_config(site, env={})
    with Store(database_url, table="PG-1", station="station-a",
               data_dir=tmp_path / "a") as store:
        store.open_shift("Kim")
        rec = store.begin(Round(config.round_rules(), store.rotation()), config=config)
        with store.engine.connect() as conn:
            stored = conn.execute(select(RoundRow.config).where(
                RoundRow.id == uuid.UUID(rec.round_id))).scalar_one()
            events = list(conn.execute(select(Event.payload)).scalars())
    assert PIN not in stored and not [e for e in events if PIN in e]
    assert "supervisor" not in json.loads(stored)["config"]
    assert decode_rules(json.loads(stored)["rules"]) == config.round_rules()


def test_a_journal_of_an_older_station_reaches_the_ledger_without_the_pin(
        database_url: str, tmp_path: Path) -> None:
    from sqlalchemy.orm import Session

    from app.ledger.apply import apply_op
    from app.ledger.journal import Op

    with Store(database_url, table="PG-1", station="station-a",
               data_dir=tmp_path / "a") as store:
        shift = store.open_shift("Kim")
        rid = str(uuid.uuid4())
        at = AT.isoformat()
        op = Op(str(uuid.uuid4()), "round_begin", rid, {
            "id": rid, "station_id": store.station_id, "shift_id": shift.id,
            "table_name": "PG-1", "round_no": 1, "actor": "Kim", "at": at,
            "config": {"rules": FIRST_LEDGER_RULES, "config": _table_config()},
            "rotation": ROTATION}, at)
        with Session(store.engine) as s, s.begin():
            assert apply_op(s, op) is True
        with Session(store.engine) as s, s.begin():
            assert apply_op(s, op) is False  # the database had it already
        with store.engine.connect() as conn:
            config = conn.execute(select(RoundRow.config).where(
                RoundRow.id == uuid.UUID(rid))).scalar_one()
            payload = conn.execute(select(Event.payload).where(
                Event.round_id == uuid.UUID(rid))).scalar_one()
    assert PIN not in config and PIN not in payload and "s3cret" not in config
    assert json.loads(config)["rules"]["house_way"] == "trump-plaza"
