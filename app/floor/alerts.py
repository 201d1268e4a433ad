"""The floor's alerts: raised from what the ledger and the heartbeats show, kept in
`floor_alerts`, acknowledged with a note (who and when in `floor_acks`).

Each alert has a key naming its occurrence (the void of round X, the foul at position P of
round Y, station Z offline since T), so scanning again, or two floor servers scanning at
once, raises it once.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.settlement import money
from app.core.table import position_name
from app.ledger.apply import CORRECTION, ROUND_VOIDED
from app.ledger.database import WRITE
from app.ledger.models import (
    Event,
    FloorAck,
    FloorAlert,
    HandRow,
    RoundRow,
    StationStatus,
    WagerRow,
    now,
)

from .auth import User, log

KIND_WORDS = {"foul": "Foul", "void": "Void", "correction": "Correction",
              "override": "Supervisor override", "bank_short": "Banker could not cover",
              "over_limit": "Wager over the limit", "open_too_long": "Round open too long",
              "offline": "Station offline", "chain": "Ledger changed",
              "bonus": "Bonus payout waits"}
OVERRIDES = ("pin_refused", "override")  # station notes the pit must see
BONUS_HELD = "bonus_held"  # a round's record: payouts at the threshold wait (issue 26)


@dataclass(frozen=True)
class Raise:
    key: str
    kind: str
    table: str
    text: str
    station_id: uuid.UUID | None = None
    round_id: uuid.UUID | None = None


@dataclass(frozen=True)
class AlertView:
    id: str
    kind: str
    kind_words: str
    table: str
    text: str
    raised_at: str
    acked_by: str | None
    acked_at: str | None
    note: str | None
    round_id: str | None


def _limit(config: str) -> int | None:
    try:
        rules = json.loads(config)["rules"]
        return int(rules["limits"]["maximum_cents"])
    except (KeyError, TypeError, ValueError):
        return None


_LIMITS: dict[uuid.UUID, tuple[int | None, str, int, uuid.UUID]] = {}


def _limits(s: Session, ids: set[uuid.UUID]
            ) -> dict[uuid.UUID, tuple[int | None, str, int, uuid.UUID]]:
    """Each round's wager limit (from the rules it was played under), its table, number
    and station; remembered, since a round's rules never change."""
    missing = [rid for rid in ids if rid not in _LIMITS]
    if missing:
        for rid, config, table, no, station in s.execute(
                select(RoundRow.id, RoundRow.config, RoundRow.table_name, RoundRow.round_no,
                       RoundRow.station_id).where(RoundRow.id.in_(missing))).all():
            if len(_LIMITS) > 100_000:
                _LIMITS.clear()
            _LIMITS[rid] = (_limit(config), table, no, station)
    return {rid: _LIMITS[rid] for rid in ids if rid in _LIMITS}


def find(s: Session, at: datetime, *, since: datetime, offline_s: float,
         open_too_long_s: float) -> list[Raise]:
    """Everything that should be an alert, from `since` on (plus what is true now)."""
    found: list[Raise] = []
    for ev, rnd in s.execute(
            select(Event, RoundRow).outerjoin(RoundRow, RoundRow.id == Event.round_id)
            .where(Event.at >= since, Event.kind.in_((ROUND_VOIDED, CORRECTION, "note",
                                                       BONUS_HELD, *OVERRIDES)))):
        table = rnd.table_name if rnd is not None else "?"
        payload = json.loads(ev.payload) if ev.payload else {}
        no = f"round {rnd.round_no}" if rnd is not None else "a round"
        if ev.kind == ROUND_VOIDED:
            found.append(Raise(f"void:{ev.round_id}", "void", table,
                               f"{table} {no} voided by {ev.actor or '?'}: "
                               f"{payload.get('reason', '')}", ev.station_id, ev.round_id))
        elif ev.kind == CORRECTION:
            found.append(Raise(f"correction:{ev.id}", "correction", table,
                               f"{table} {no}, {position_name(payload.get('position', 0))}: "
                               f"net {money(payload.get('was_net_cents', 0), sign=True)} "
                               f"corrected to {money(payload.get('net_cents', 0), sign=True)}"
                               f" by {ev.actor or '?'}: {payload.get('reason', '')}",
                               ev.station_id, ev.round_id))
        elif ev.kind == BONUS_HELD:
            found.append(Raise(f"bonus:{ev.round_id}", "bonus", table,
                               f"{table} {no}: " + "; ".join(
                                   _payout_words(x) for x in payload.get("lines", []))
                               + ": waits for a supervisor", ev.station_id, ev.round_id))
        elif ev.kind in OVERRIDES:
            found.append(Raise(f"override:{ev.id}", "override", table,
                               f"{ev.kind.replace('_', ' ')} at {table} by "
                               f"{ev.actor or '?'}: {payload.get('why', '')}",
                               ev.station_id, ev.round_id))
    for hand, rnd in s.execute(
            select(HandRow, RoundRow).join(RoundRow, RoundRow.id == HandRow.round_id)
            .where(HandRow.at >= since, HandRow.foul.is_not(None))):
        found.append(Raise(f"foul:{rnd.id}:{hand.position}", "foul", rnd.table_name,
                           f"{rnd.table_name} round {rnd.round_no}: "
                           f"{position_name(hand.position)} fouled ({hand.foul}); "
                           f"{hand.penalty or 'forfeit'}", rnd.station_id, rnd.id))
    wagers = s.execute(select(WagerRow.round_id, WagerRow.position, WagerRow.amount_cents)
                       .where(WagerRow.at >= since, WagerRow.kind != "dealer")).all()
    limits = _limits(s, {rid for rid, _, _ in wagers})
    for rid, position, cents in wagers:
        top, where, number, station = limits[rid]
        if top is not None and cents > top:
            found.append(Raise(f"over_limit:{rid}:{position}", "over_limit", where,
                               f"{where} round {number}: {position_name(position)} wagered "
                               f"{money(cents)}, over the {money(top)} limit", station, rid))
    for rnd in s.scalars(select(RoundRow).where(RoundRow.settled_at >= since,
                                                RoundRow.banker_seat.is_not(None))):
        slip = json.loads(rnd.slip_json or "{}")
        if slip.get("bank", {}).get("exhausted"):
            found.append(Raise(f"bank_short:{rnd.id}", "bank_short", rnd.table_name,
                               f"{rnd.table_name} round {rnd.round_no}: the player banker "
                               f"(seat {rnd.banker_seat}) could not cover every wager; later "
                               f"wagers were returned", rnd.station_id, rnd.id))
    old = at - timedelta(seconds=open_too_long_s)
    for rnd in s.scalars(select(RoundRow).where(RoundRow.status == "open",
                                                RoundRow.started_at < old)):
        found.append(Raise(f"open_too_long:{rnd.id}", "open_too_long", rnd.table_name,
                           f"{rnd.table_name} round {rnd.round_no} has been open since "
                           f"{rnd.started_at:%H:%M:%S} UTC", rnd.station_id, rnd.id))
    gone = at - timedelta(seconds=offline_s)
    for st in s.scalars(select(StationStatus).where(StationStatus.heartbeat_at < gone)):
        found.append(Raise(f"offline:{st.station_id}:{st.heartbeat_at.isoformat()}",
                           "offline", st.table_name,
                           f"{st.table_name} ({st.name}): no heartbeat since "
                           f"{st.heartbeat_at:%H:%M:%S} UTC", st.station_id, None))
    return found


def _payout_words(line: dict[str, object]) -> str:
    """The seat, the hand and the amount of a bonus or envy payout."""
    amount = line.get("amount_cents")
    cents = amount if isinstance(amount, int) else 0
    envy = line.get("kind") == "envy"
    hand = line.get("from_position") if envy else line.get("position")
    return (f"{position_name(int(str(line.get('seat', 0))))} {'envy' if envy else 'bonus'} "
            f"{money(cents, sign=True)} ({line.get('hand', '?')}, "
            f"{position_name(int(str(hand)))}'s hand)")


def raise_new(engine: Engine, found: list[Raise], at: datetime | None = None) -> int:
    """Keep the alerts not kept yet; returns how many are new."""
    if not found:
        return 0
    when = at or now()
    keys = [f.key for f in found]
    with Session(engine) as s:
        have = set(s.scalars(select(FloorAlert.key).where(FloorAlert.key.in_(keys))))
    new = [f for f in {f.key: f for f in found}.values() if f.key not in have]
    added = 0
    for f in new:
        try:
            with Session(engine.execution_options(**WRITE)) as s, s.begin():
                s.add(FloorAlert(id=uuid.uuid4(), key=f.key[:120], kind=f.kind,
                                 table_name=f.table, station_id=f.station_id,
                                 round_id=f.round_id, text=f.text, raised_at=when))
            added += 1
        except IntegrityError:  # another floor server raised it a moment ago
            continue
    return added


def scan(engine: Engine, *, since: datetime, offline_s: float, open_too_long_s: float,
         at: datetime | None = None) -> int:
    when = at or now()
    with Session(engine) as s:
        found = find(s, when, since=since, offline_s=offline_s,
                     open_too_long_s=open_too_long_s)
    return raise_new(engine, found, when)


def listing(s: Session, *, open_only: bool = False, table: str | None = None,
            limit: int = 200) -> list[AlertView]:
    stmt = (select(FloorAlert, FloorAck).outerjoin(FloorAck, FloorAck.alert_id == FloorAlert.id)
            .order_by(FloorAlert.raised_at.desc()).limit(limit))
    if open_only:
        stmt = stmt.where(FloorAck.id.is_(None))
    if table is not None:
        stmt = stmt.where(FloorAlert.table_name == table)
    return [AlertView(str(a.id), a.kind, KIND_WORDS.get(a.kind, a.kind), a.table_name, a.text,
                      a.raised_at.strftime("%H:%M:%S"), k.by if k else None,
                      k.at.strftime("%H:%M:%S") if k else None, k.note if k else None,
                      str(a.round_id) if a.round_id else None)
            for a, k in s.execute(stmt)]


class AlertError(Exception):
    """Why an acknowledgement was refused."""


def _may_note(user: User, note: str) -> str:
    note = note.strip()
    if not user.may_act:
        raise AlertError(f"an {user.role_words} reads alerts but does not acknowledge them: "
                         f"ask a pit supervisor or a shift manager")
    if not note:
        raise AlertError("write a note: what was seen and done")
    return note


def _ids(alert_ids: list[str]) -> list[uuid.UUID]:
    try:
        return list(dict.fromkeys(uuid.UUID(a) for a in alert_ids))
    except ValueError:
        raise AlertError("that alert does not exist: reload the page") from None


def acknowledge(engine: Engine, alert_id: str, user: User, note: str) -> None:
    acknowledge_many(engine, [alert_id], user, note)


def acknowledge_many(engine: Engine, alert_ids: list[str], user: User, note: str) -> int:
    """Each alert acknowledged with the one note, as if one by one: a row of `floor_acks`
    and a line of the floor's log per alert. All or none: an alert gone, or one someone
    else acknowledged meanwhile, refuses the lot, so that no note is recorded against an
    alert its writer did not see open. Returns how many were acknowledged."""
    note = _may_note(user, note)
    ids = _ids(alert_ids)
    if not ids:
        raise AlertError("tick the alerts to acknowledge, or press \"Acknowledge all\": "
                         "none was chosen")
    try:
        with Session(engine.execution_options(**WRITE)) as s, s.begin():
            alerts = {a.id: a for a in s.scalars(select(FloorAlert)
                                                 .where(FloorAlert.id.in_(ids)))}
            if len(alerts) < len(ids):
                raise AlertError("that alert does not exist: reload the page"
                                 if len(ids) == 1 else "one of those alerts does not exist: "
                                 "reload the page; nothing was recorded")
            done = set(s.scalars(select(FloorAck.alert_id).where(FloorAck.alert_id.in_(ids))))
            if done:
                raise AlertError(_taken(len(ids)))
            at = now()
            for aid in ids:
                alert = alerts[aid]
                s.add(FloorAck(id=uuid.uuid4(), alert_id=aid, by=user.name, note=note, at=at))
                log(s, user.name, "alert_ack", {"alert": str(aid), "key": alert.key,
                                                "note": note}, at)
    except IntegrityError:  # acknowledged in the moment between the read and the write
        raise AlertError(_taken(len(ids))) from None
    return len(ids)


def _taken(n: int) -> str:
    if n == 1:
        return "someone acknowledged that alert a moment ago: reload the page to read their note"
    return ("someone acknowledged one of those alerts a moment ago: reload the page to read "
            "their note, then acknowledge the rest; nothing was recorded")
