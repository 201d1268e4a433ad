"""A recorded session: every event the session handled, in order, as JSON lines, after a
header line that says what it was played under (the table's rules and the bank rotation as
structured data, and which ports the station had). The station's RNG draws are in the
events (`draw` of an R command), and the printer's answers too (`printed`), so a replay
needs no RNG and no printer and makes the same slips, byte for byte.

    {"schema": "paigow.session/1", "rules": {...}, "rotation": {...}, "ledger": true,
     "dealer": null, "printer": true, "kept": 0}
    {"at": "2025-03-14T21:07:33+00:00", "kind": "command", "command": "shift", "text": "Ann"}
    {"at": "...", "kind": "key", "key": "N"}
    ...

The rules and the rotation use the ledger's schemas (paigow.rules/1, paigow.rotation/1).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from app.core.banker import BankingRules, BankRotation, DealerWager
from app.core.hands import HandRules
from app.core.round import (
    DragonOffer,
    DragonRules,
    DragonSetting,
    DragonWager,
    FoulPenalty,
    RoundRules,
    WagerLimits,
)
from app.core.settlement import CommissionPolicy, Rounding, Slip
from app.core.table import ActionSource, DealMode, Direction, Table

from .events import Event, EventError, Printed, event_from_dict, event_to_dict
from .ports import AnsweredPrinter, MemoryLedger

if TYPE_CHECKING:
    from .session import DealerSession

SESSION_SCHEMA = "paigow.session/1"
RULES_SCHEMA = "paigow.rules/1"
ROTATION_SCHEMA = "paigow.rotation/1"

Json = dict[str, Any]


class RecordError(ValueError):
    """A recorded session that cannot be replayed: the line and why."""


# --- the rules and the rotation (the ledger's schemas) -----------------------------------------

def encode_rules(rules: RoundRules) -> Json:
    """Every rule the rounds are played by: enough to play them again exactly."""
    t, c, d, b = rules.table, rules.commission, rules.dragon, rules.banking
    return {
        "schema": RULES_SCHEMA,
        "table": {"name": t.name, "seats": t.seats, "direction": t.direction.value,
                  "deal_mode": t.deal_mode.value, "action_source": t.action_source.value},
        "hands": {"joker": rules.hands.joker, "wheel": rules.hands.wheel},
        "house_way": rules.house_way,
        "foul_penalty": rules.foul_penalty.value,
        "limits": {"minimum_cents": rules.limits.minimum,
                   "maximum_cents": rules.limits.maximum},
        "commission": {"rate_bp": c.rate_bp, "step_cents": c.step_cents,
                       "rounding": c.rounding.value},
        "dragon": {"enabled": d.enabled, "wager": d.wager.value, "setting": d.setting.value,
                   "offer": d.offer.value, "per_round": d.per_round},
        "banking": {"enabled": b.enabled, "consecutive": b.consecutive,
                    "dealer_wager": b.dealer_wager.value, "co_banking": b.co_banking},
    }


def decode_rules(data: Mapping[str, Any]) -> RoundRules:
    if data.get("schema") != RULES_SCHEMA:
        raise RecordError(f"the rules are {data.get('schema')!r}, not {RULES_SCHEMA}")
    try:
        t, h, lim, c, d, b = (data["table"], data["hands"], data["limits"],
                              data["commission"], data["dragon"], data["banking"])
        return RoundRules(
            table=Table(t["name"], t["seats"], Direction(t["direction"]),
                        DealMode(t["deal_mode"]), ActionSource(t["action_source"])),
            hands=HandRules(joker=h["joker"], wheel=h["wheel"]),
            house_way=data["house_way"],
            foul_penalty=FoulPenalty(data["foul_penalty"]),
            limits=WagerLimits(lim["minimum_cents"], lim["maximum_cents"]),
            commission=CommissionPolicy(c["rate_bp"], c["step_cents"], Rounding(c["rounding"])),
            dragon=DragonRules(d["enabled"], DragonWager(d["wager"]),
                               DragonSetting(d["setting"]), DragonOffer(d["offer"]),
                               d["per_round"]),
            banking=BankingRules(b["enabled"], b["consecutive"], DealerWager(b["dealer_wager"]),
                                 b["co_banking"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"the rules cannot be read: {e!r}") from None


def encode_rotation(rotation: BankRotation) -> Json:
    return {
        "schema": ROTATION_SCHEMA,
        "round_no": rotation.round_no,
        "first_round": rotation.first_round,
        "last_banker": rotation.last_banker,
        "house_bets": [[seat, cents] for seat, cents in rotation.house_bets],
        "offer_from": rotation.offer_from,
        "last_dragon": rotation.last_dragon,
    }


def decode_rotation(data: Mapping[str, Any]) -> BankRotation:
    if data.get("schema") != ROTATION_SCHEMA:
        raise RecordError(f"the bank rotation is {data.get('schema')!r}, not "
                          f"{ROTATION_SCHEMA}")
    try:
        return BankRotation(
            round_no=data["round_no"], first_round=data["first_round"],
            last_banker=data["last_banker"],
            house_bets=tuple((int(s), int(c)) for s, c in data["house_bets"]),
            offer_from=data["offer_from"], last_dragon=data["last_dragon"])
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"the bank rotation cannot be read: {e!r}") from None


# --- writing -------------------------------------------------------------------------------

def header(s: DealerSession) -> Json:
    """What a session was started with: the rules, the rotation, the ports it had."""
    return {
        "schema": SESSION_SCHEMA,
        "rules": encode_rules(s.rules),
        "rotation": encode_rotation(s.rotation),
        "ledger": s.ledger is not None,
        "dealer": s.ledger.dealer if s.ledger is not None else None,
        "printer": s.printer is not None and s.printer.attached,
        "kept": s.printer.kept_count if s.printer is not None else 0,
    }


def _line(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n"


class JsonlRecorder:
    """Writes the session as JSON lines to a text stream, flushed line by line (a station
    that stops keeps every event up to the last)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def start(self, head: Mapping[str, Any]) -> None:
        self.stream.write(_line(head))
        self.stream.flush()

    def append(self, event: Event, at: str) -> None:
        self.stream.write(_line({"at": at, **event_to_dict(event)}))
        self.stream.flush()


# --- reading and replaying -------------------------------------------------------------------

@dataclass
class Recorded:
    head: Json
    rules: RoundRules
    rotation: BankRotation
    events: list[Event]


def read_session(lines: Iterable[str]) -> Recorded:
    """A recorded session from its lines; `RecordError` names the line and why."""
    head: Json | None = None
    events: list[Event] = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"line {number} is not JSON ({e.msg})") from None
        if not isinstance(data, dict):
            raise RecordError(f"line {number} is not a JSON object")
        if head is None:
            if data.get("schema") != SESSION_SCHEMA:
                raise RecordError(f"line {number}: a recorded session starts with its header "
                                  f"(schema {SESSION_SCHEMA}), not {data.get('schema')!r}")
            head = data
            continue
        try:
            events.append(event_from_dict(data))
        except EventError as e:
            raise RecordError(f"line {number}: {e}") from None
    if head is None:
        raise RecordError(f"the file is empty: a recorded session starts with its header "
                          f"(schema {SESSION_SCHEMA})")
    return Recorded(head, decode_rules(head["rules"]), decode_rotation(head["rotation"]),
                    events)


@dataclass
class Replayed:
    session: DealerSession
    slips: list[Slip] = field(default_factory=list)
    ledger: MemoryLedger | None = None
    refused: list[tuple[int, str]] = field(default_factory=list)  # (event number, why)


def replay(recorded: Recorded) -> Replayed:
    """Play the events through a new session, headless: the slips it settles, in order."""
    from .session import DealerSession
    head = recorded.head
    ledger = MemoryLedger(shift=head.get("dealer")) if head.get("ledger") else None
    printer = AnsweredPrinter(kept=int(head.get("kept", 0))) if head.get("printer") else None
    s = DealerSession(recorded.rules, ledger=ledger, printer=printer,
                      rotation=recorded.rotation, randbelow=_no_rng)
    out = Replayed(s, ledger=ledger)
    for number, event in enumerate(recorded.events, 1):
        if isinstance(event, Printed) and printer is not None:
            o = event.outcome
            printer.kept = o.left if o.job.kind == "kept" else printer.kept + int(o.kept)
        changes = s.handle(event)
        if not changes.done:
            out.refused.append((number, changes.message))
        if changes.slip is not None:
            out.slips.append(changes.slip)
    return out


def _no_rng(_n: int) -> int:
    raise RecordError("the recorded session asks for an RNG draw it did not record")
