"""How the station's journal reaches the database: each op written in one transaction, and
every op idempotent - an op the database already has (sent, taken, and the answer lost) is
recognised by its station-made id or its unique key and not written twice.

A record of a round becomes an event (numbered: `seq`), and the round's row is filled in as
it goes: the bank, action, the deck as read, each hand as it is set, the wagers when the bets
close, and at the settlement the slip, the totals and a settlement row per position. A
settled round takes nothing more.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import cast

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from app.core.settlement import Role, SlipDict, slip_text

from . import progressive, slips
from .codec import stored_record
from .errors import LedgerError, RoundSettled
from .journal import Op
from .models import (
    BankDecision,
    BonusSettlementRow,
    Event,
    HandRow,
    RoundRow,
    SettlementRow,
    Shift,
    Station,
    WagerRow,
)
from .payloads import (
    BankDecisionOp,
    EligibilityJson,
    HandJson,
    NoteOp,
    RecordJson,
    RecordsOp,
    RoundBeginOp,
    RoundSnapshot,
    RoundVoidOp,
    ShiftCloseOp,
    ShiftOpenOp,
    StationOp,
)

ROUND_BEGUN = "round_begun"
ROUND_VOIDED = "round_voided"
SHIFT_OPENED = "shift_opened"
SHIFT_CLOSED = "shift_closed"
BANK_CHECKED = "bank_checked"
CORRECTION = "correction"
ID_SPACE = uuid.UUID("6a1d3f0e-64a3-5d54-9b1c-1f1e0c0a7e55")


def derived_id(parent: uuid.UUID | str, what: str) -> uuid.UUID:
    """A row id made from its parent's id and what it is: the same op makes the same id."""
    return uuid.uuid5(ID_SPACE, f"{parent}/{what}")


def _uuid(value: str | None) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(value)


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


def apply_op(s: Session, op: Op) -> bool:
    """Write one op; False when the database had it already."""
    # The payload is as the store wrote it for its kind: the journal vouched for it by the
    # station's signature (an op changed since is held back, never applied).
    p = op.payload
    match op.kind:
        case "station":
            return _station(s, cast(StationOp, p))
        case "shift_open":
            return _shift_open(s, cast(ShiftOpenOp, p))
        case "shift_close":
            return _shift_close(s, cast(ShiftCloseOp, p))
        case "round_begin":
            return _round_begin(s, cast(RoundBeginOp, p))
        case "records":
            return _records(s, cast(RecordsOp, p))
        case "round_void":
            return _round_void(s, cast(RoundVoidOp, p))
        case "bank_decision":
            return _bank_decision(s, cast(BankDecisionOp, p))
        case "note":
            return _note(s, cast(NoteOp, p))
    raise LedgerError(f"the journal holds an op of an unknown kind {op.kind!r}: this station "
                      f"is older than its journal")


def _station(s: Session, p: StationOp) -> bool:
    if s.get(Station, uuid.UUID(p["id"])) is not None:
        return False
    name = p["name"]
    taken = s.scalar(select(Station.id).where(Station.table_name == p["table_name"],
                                              Station.name == name))
    if taken is not None:
        # The name is only a label: another station (another identity) already has it, so
        # this one is told apart by its identity, never merged into the other.
        name = f"{name[:88]} ({p['id'][:8]})"
    s.add(Station(id=uuid.UUID(p["id"]), table_name=p["table_name"], name=name,
                  first_seen=_when(p["at"])))
    return True


def _event(s: Session, *, id: uuid.UUID, station_id: str, shift_id: str | None,
           round_id: str | None, seq: int | None, kind: str, actor: str | None, at: str,
           payload: object) -> None:
    s.add(Event(id=id, station_id=uuid.UUID(station_id), shift_id=_uuid(shift_id),
                round_id=_uuid(round_id), seq=seq, kind=kind, actor=actor, at=_when(at),
                payload=_dumps(payload)))


def _note(s: Session, p: NoteOp) -> bool:
    event_id = uuid.UUID(p["id"])
    if s.get(Event, event_id) is not None:
        return False
    _event(s, id=event_id, station_id=p["station_id"], shift_id=p["shift_id"],
           round_id=p["round_id"], seq=None, kind=p["kind"], actor=p["actor"], at=p["at"],
           payload=p["payload"])
    return True


def _shift_open(s: Session, p: ShiftOpenOp) -> bool:
    shift_id = uuid.UUID(p["id"])
    if s.get(Shift, shift_id) is not None:
        return False
    s.add(Shift(id=shift_id, station_id=uuid.UUID(p["station_id"]), dealer=p["dealer"],
                opened_at=_when(p["at"]), closed_at=None))
    s.flush()
    _event(s, id=derived_id(shift_id, "opened"), station_id=p["station_id"],
           shift_id=p["id"], round_id=None, seq=None, kind=SHIFT_OPENED, actor=p["dealer"],
           at=p["at"], payload={"dealer": p["dealer"]})
    return True


def _shift_close(s: Session, p: ShiftCloseOp) -> bool:
    shift = s.get(Shift, uuid.UUID(p["id"]))
    if shift is None:
        raise LedgerError(f"shift {p['id']} was never opened in the ledger")
    if shift.closed_at is not None:
        return False
    shift.closed_at = _when(p["at"])
    _event(s, id=derived_id(shift.id, "closed"), station_id=p["station_id"], shift_id=p["id"],
           round_id=None, seq=None, kind=SHIFT_CLOSED, actor=p.get("actor"), at=p["at"],
           payload={})
    return True


def _round_begin(s: Session, p: RoundBeginOp) -> bool:
    rid = uuid.UUID(p["id"])
    if s.get(RoundRow, rid) is not None:
        return False
    config = _without_secrets(p["config"])
    s.add(RoundRow(
        id=rid, station_id=uuid.UUID(p["station_id"]), shift_id=uuid.UUID(p["shift_id"]),
        table_name=p["table_name"], round_no=p["round_no"], status="open", phase="betting",
        started_at=_when(p["at"]), last_seq=0, config=_dumps(config),
        house_way=config["rules"]["house_way"], rotation=_dumps(p["rotation"]),
        misdeals=0))
    s.flush()
    # A round's events name no shift: the round's row does (migration 0015; older ones did).
    _event(s, id=derived_id(rid, "0"), station_id=p["station_id"], shift_id=None,
           round_id=p["id"], seq=0, kind=ROUND_BEGUN, actor=p.get("actor"), at=p["at"],
           payload={"round_no": p["round_no"]})  # its config and rotation: the round's row
    return True


def _without_secrets(stored: RoundSnapshot) -> RoundSnapshot:
    """A round's {"rules", "config"} without any secret in the table config: a journal
    written by an older station may still hold the supervisor's PIN there."""
    config = stored.get("config")
    if not isinstance(config, dict):
        return stored
    from app.settings import NOT_IN_SNAPSHOT  # pydantic-settings: only for a config to clean

    return {**stored, "config": {k: v for k, v in config.items()
                                 if k not in NOT_IN_SNAPSHOT}}


def _open_round(s: Session, round_id: str) -> RoundRow:
    rnd = s.get(RoundRow, uuid.UUID(round_id))
    if rnd is None:
        raise LedgerError(f"round {round_id} was never begun in the ledger")
    if rnd.status != "open":
        raise RoundSettled(f"round {round_id} is {rnd.status}: it cannot change; a "
                           f"correction is a new row that reverses")
    return rnd


def _records(s: Session, p: RecordsOp) -> bool:
    """The records one save made, in one transaction: a round in the database is always
    whole changes (the dealer's bank with the action that made it)."""
    records = p["records"]
    first = p["first_seq"]
    # The op's records already there (an op sent again), in one query: a query a record
    # flushed the session's new rows a record at a time (a round's save, 15 records,
    # took 15 queries and 15 flushes; bench progressive's station CPU)
    have = {e.seq: e for e in s.scalars(_EVENTS_FROM, {
        "round_id": uuid.UUID(p["round_id"]), "first": first, "last": first + len(records)})}
    wrote = False
    for seq, record in enumerate(records, start=first):
        wrote = _record(s, p, seq, record, have.get(seq)) or wrote
    return wrote


# made once: every save runs it
_EVENTS_FROM = select(Event).where(Event.round_id == bindparam("round_id"),
                                   Event.seq >= bindparam("first"),
                                   Event.seq <= bindparam("last"))


def _record(s: Session, p: RecordsOp, seq: int, record: RecordJson,
            existing: Event | None) -> bool:
    rid = p["round_id"]
    if existing is not None:
        if json.loads(existing.payload) not in (record, stored_record(record)):
            raise LedgerError(f"round {rid} has a different record {seq} in the ledger: two "
                              f"stations wrote the same round")
        return False
    rnd = _open_round(s, rid)
    if seq != rnd.last_seq + 1:
        raise LedgerError(f"round {rid}: record {seq} arrived after record {rnd.last_seq}: "
                          f"the journal is out of order")
    _event(s, id=derived_id(rid, str(seq)), station_id=str(rnd.station_id),
           shift_id=None, round_id=rid, seq=seq, kind=record["type"],
           actor=p.get("actor"), at=p["at"], payload=stored_record(record))
    rnd.last_seq = seq
    at = _when(p["at"])
    kind = record["type"]
    if kind == "bank_taken":
        rnd.banker_position = record["position"]
        rnd.banker_seat = record["player"]
        rnd.bank_chips_cents = record["chips_cents"]
        rnd.co_bank = record["co_bank"]
        rnd.dealer_wager_cents = record["dealer_wager_cents"]
        verdict = record["eligibility"]
        if verdict is not None:
            _decision(s, derived_id(rid, f"bank/{seq}"), str(rnd.station_id), rid, verdict,
                      "took", p.get("actor"), at)
    elif kind == "action_counted":
        a = record["action"]
        rnd.action_source, rnd.action_number = a["source"], a["number"]
        rnd.action_dice = "+".join(str(d) for d in a["dice"]) or None
        rnd.action_drawn_by = a["drawn_by"]
        rnd.counted_from, rnd.action_position = record["bank"], record["position"]
        rnd.direction = record["direction"]
        rnd.phase = "dealing"
        _bets_closed(s, rnd, at)
    elif kind == "dealt":
        deal = record["deal"]
        rnd.deal_mode = deal["mode"]
        rnd.deck = " | ".join(deal["hands"])
        rnd.leftovers = deal["leftovers"]
        rnd.leftovers_counted = deal["leftovers_counted"]
        rnd.phase = "setting"
    elif kind == "misdealt":
        rnd.misdeals += 1
        rnd.phase = "misdeal"
    elif kind == "dragon_taken":
        s.add(WagerRow(id=derived_id(rid, f"wager/{record['position']}"), round_id=rnd.id,
                       position=record["position"], seat=record["seat"], kind="dragon",
                       amount_cents=record["wager_cents"], at=at))
    elif kind == "hand_set":
        _hand(s, rnd, record["hand"], at)
    elif kind == "settled":
        _settled(s, rnd, record["slip"], p, at)
        _contribute(s, rnd, p, at)
    return True


def _contribute(s: Session, rnd: RoundRow, p: RecordsOp, at: datetime) -> None:
    """The round's progressive wagers onto the meter, in the settlement's transaction: a
    station killed before its commit has neither, and the op sent again writes both once
    (a voided round never comes here: it contributes nothing)."""
    wagers = p.get("progressive")
    if wagers:
        card = progressive.card_named(wagers["card"], wagers["card_hash"])
        progressive.contribute(s, card, rnd.id, rnd.station_id, wagers["seats"],
                               f"{rnd.id}/progressive", at)


def _decision(s: Session, id: uuid.UUID, station_id: str, round_id: str | None,
              verdict: EligibilityJson, decision: str, actor: str | None, at: datetime) -> None:
    s.add(BankDecision(id=id, station_id=uuid.UUID(station_id), round_id=_uuid(round_id),
                       seat=verdict["seat"], eligible=verdict["eligible"],
                       reasons=_dumps(verdict["reasons"]), chips_cents=verdict["chips_cents"],
                       cover_cents=verdict["cover_cents"], decision=decision, actor=actor,
                       at=at))


def _bets_closed(s: Session, rnd: RoundRow, at: datetime) -> None:
    """The wagers as the bets closed (after a misdeal they stand: written once)."""
    have = s.scalar(select(func.count()).select_from(WagerRow)
                    .where(WagerRow.round_id == rnd.id))
    if have:
        return
    wagers: dict[int, int] = {}
    for payload in s.scalars(select(Event.payload).where(Event.round_id == rnd.id)
                             .order_by(Event.seq)):
        record = json.loads(payload)
        if record.get("type") == "wager_placed":
            wagers[record["seat"]] = record["wager_cents"]
        elif record.get("type") == "wager_withdrawn":
            wagers.pop(record["seat"], None)
    for seat, cents in sorted(wagers.items()):
        s.add(WagerRow(id=derived_id(rnd.id, f"wager/{seat}"), round_id=rnd.id,
                       position=seat, seat=seat, kind="main", amount_cents=cents, at=at))
    if rnd.banker_seat is not None and not rnd.co_bank and rnd.dealer_wager_cents:
        s.add(WagerRow(id=derived_id(rnd.id, "wager/0"), round_id=rnd.id, position=0,
                       seat=None, kind="dealer", amount_cents=rnd.dealer_wager_cents, at=at))


def _penalty(hand: HandJson) -> str | None:
    if hand.get("forfeit"):
        return "forfeit"
    return "reset" if hand.get("set_by") == "reset" else None


def _hand(s: Session, rnd: RoundRow, hand: HandJson, at: datetime) -> None:
    s.add(HandRow(id=derived_id(rnd.id, f"hand/{hand['position']}"), round_id=rnd.id,
                  position=hand["position"], role=hand["role"], seat=hand["player"],
                  cards=hand["cards"], low=hand["low"], high=hand["high"],
                  set_by=hand["set_by"], rule_id=hand["rule"], rule_says=hand["rule_says"],
                  foul=hand["foul"], penalty=_penalty(hand), at=at))


def _settled(s: Session, rnd: RoundRow, slip: SlipDict, p: RecordsOp,
             at: datetime) -> None:
    set_positions = set(s.scalars(select(HandRow.position).where(HandRow.round_id == rnd.id)))
    for line in slip["positions"]:
        if line["position"] not in set_positions:  # the unused (mucked) hands
            s.add(HandRow(id=derived_id(rnd.id, f"hand/{line['position']}"),
                          round_id=rnd.id, position=line["position"], role=line["role"],
                          seat=line["player"], cards=line["cards"], low=line["low"],
                          high=line["high"], set_by=line["set_by"],
                          rule_id=line["house_way_rule"], rule_says=line["house_way_says"],
                          foul=line["foul"], penalty=None, at=at))
        if line["outcome"] is None:
            continue
        s.add(SettlementRow(
            id=derived_id(rnd.id, f"settlement/{line['position']}/0"), round_id=rnd.id,
            position=line["position"], seat=line["player"], role=line["role"],
            entry="original", entry_no=0, reverses_id=None, outcome=line["outcome"],
            wager_cents=line["wager_cents"], win_cents=line["win_cents"],
            commission_cents=line["commission_cents"], net_cents=line["net_cents"],
            reason=line["note"] or None, by=p.get("actor"), at=at))
    bank = slip["bank"]
    if bank["player"] is not None:  # the player banker's result, as a seat's money
        s.add(SettlementRow(
            id=derived_id(rnd.id, f"settlement/{bank['position']}/0"), round_id=rnd.id,
            position=bank["position"], seat=bank["player"], role=Role.BANK.value,
            entry="original", entry_no=0, reverses_id=None, outcome="bank",
            wager_cents=0, win_cents=max(bank["gross_cents"], 0),
            commission_cents=bank["commission_cents"], net_cents=bank["net_cents"],
            reason="the player banker's result" + (" (the bank ran out)"
                                                   if bank["exhausted"] else ""),
            by=p.get("actor"), at=at))
    _bonus_rows(s, rnd, slip, at)
    t = slip["totals"]
    rnd.wagers_cents, rnd.players_net_cents = t["wagers_cents"], t["players_net_cents"]
    rnd.commission_cents, rnd.banker_net_cents = t["commission_cents"], t["banker_net_cents"]
    rnd.house_net_cents = t["house_net_cents"]
    rnd.rotation_after = _dumps(p["rotation_after"])
    # The slip once: what the rows above do not hold, and no words when the core renders
    # the same words from it (app/ledger/slips.py). Read before the round is settled: the
    # reading writes what is pending, and a settled round's row takes no more.
    whole: SlipDict = json.loads(p["slip_json"])
    rnd.slip_json = _dumps(slips.kept(s, rnd, whole))
    rnd.slip_text = None if slip_text(whole) == p["slip_text"] else p["slip_text"]
    rnd.status, rnd.phase, rnd.settled_at = "settled", "settled", at


def _bonus_rows(s: Session, rnd: RoundRow, slip: SlipDict, at: datetime) -> None:
    """The bonus and envy lines, a row each in the order paid (migration 0014_bonus_rows)."""
    for no, x in enumerate(slip["bonus"]["lines"] if "bonus" in slip else [], start=1):
        s.add(BonusSettlementRow(
            id=derived_id(rnd.id, f"bonus/{no}"), round_id=rnd.id, line_no=no,
            kind=x["kind"], seat=x["seat"], position=x["position"],
            from_position=x["from_position"], category=x["category"],
            wager_cents=x["wager_cents"], paid_cents=x["amount_cents"],
            supervisor=x["supervisor"], note=x["note"] or None, at=at))


MISDEAL_PREFIX = "misdeal: "


def _round_void(s: Session, p: RoundVoidOp) -> bool:
    rnd = s.get(RoundRow, uuid.UUID(p["round_id"]))
    if rnd is None:
        raise LedgerError(f"round {p['round_id']} was never begun in the ledger")
    if rnd.status == "void":
        return False
    rnd = _open_round(s, p["round_id"])
    misdeal = bool(p.get("misdeal"))
    # A supervisor's misdeal ends the round as a void does (every wager goes back; the
    # status stays one of open/settled/void, so the triggers and checks are unchanged),
    # and says so in its reason and its event.
    rnd.status = "void"
    rnd.void_reason = f"{MISDEAL_PREFIX}{p['reason']}" if misdeal else p["reason"]
    _event(s, id=derived_id(rnd.id, "void"), station_id=str(rnd.station_id),
           shift_id=None, round_id=p["round_id"], seq=None, kind=ROUND_VOIDED,
           actor=p.get("actor"), at=p["at"],
           payload={"reason": p["reason"], **({"misdeal": True} if misdeal else {}),
                    **({"authorised": p["authorised"]} if "authorised" in p else {})})
    return True


def _bank_decision(s: Session, p: BankDecisionOp) -> bool:
    did = uuid.UUID(p["id"])
    if s.get(BankDecision, did) is not None:
        return False
    _decision(s, did, p["station_id"], p.get("round_id"), p["verdict"], "checked",
              p.get("actor"), _when(p["at"]))
    s.flush()
    _event(s, id=derived_id(did, "event"), station_id=p["station_id"],
           shift_id=p.get("shift_id"), round_id=p.get("round_id"), seq=None,
           kind=BANK_CHECKED, actor=p.get("actor"), at=p["at"], payload=p["verdict"])
    return True
