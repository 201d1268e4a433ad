"""A recorded session: every event the session handled, in order, as JSON lines, after a
header line that says what it was played under (the table's rules and the bank rotation as
structured data, and which ports the station had). The station's RNG draws are in the
events (`draw` of an R command), and the printer's answers too (`printed`), so a replay
needs no RNG and no printer and makes the same slips, byte for byte.

    {"schema": "paigow.session/1", "rules": {...}, "rotation": {...}, "ledger": true,
     "dealer": null, "printer": true, "kept": 0}
    {"at": "2025-03-14T21:07:33+00:00", "kind": "command", "command": "shift", "text": "Ann"}
    {"at": "...", "kind": "key", "key": "N"}
    (one line for every event handled, in order)

The rules and the rotation use the ledger's schemas (paigow.rules/1, paigow.rotation/1).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

from app.core.banker import BankRotation
from app.core.round import Phase, RoundRules
from app.core.rules_data import (
    RulesDataError,
    rotation_from_data,
    rotation_to_data,
    rules_from_data,
    rules_to_data,
)

from .events import Event, EventError, event_from_dict, event_to_dict
from .parts import Parts

SESSION_SCHEMA = "paigow.session/1"

Json = dict[str, Any]


class RecordError(ValueError):
    """A recorded session that cannot be replayed: the line and why."""


# --- the rules and the rotation: the core's structured form, as the ledger stores them ------

def encode_rules(rules: RoundRules) -> Json:
    return rules_to_data(rules)


def decode_rules(data: Mapping[str, Any]) -> RoundRules:
    try:
        return rules_from_data(data)
    except RulesDataError as e:
        raise RecordError(str(e)) from None


def encode_rotation(rotation: BankRotation) -> Json:
    return rotation_to_data(rotation)


def decode_rotation(data: Mapping[str, Any]) -> BankRotation:
    try:
        return rotation_from_data(data)
    except RulesDataError as e:
        raise RecordError(str(e)) from None


# --- writing -------------------------------------------------------------------------------

def header(p: Parts) -> Json:
    """What a session was started with: the rules, the rotation, the ports it had. Written
    between rounds: after a settled round, the rotation the next round opens with."""
    rnd, ledger = p.round, p.play.ledger
    rotation = rnd.next_rotation() if rnd is not None and rnd.phase is Phase.SETTLED \
        else p.play.rotation
    return {
        "schema": SESSION_SCHEMA,
        "rules": encode_rules(p.rules),
        "rotation": encode_rotation(rotation),
        "ledger": ledger is not None,
        "dealer": ledger.dealer if ledger is not None else None,
        "printer": p.devices.printer_attached,
        "kept": p.devices.kept_count,
    }


def jsonl_line(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n"


class JsonlRecorder:
    """Writes the session as JSON lines to a text stream, flushed line by line (a station
    that stops keeps every event up to the last)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def start(self, head: Mapping[str, Any]) -> None:
        self.stream.write(jsonl_line(head))
        self.stream.flush()

    def append(self, event: Event, at: str) -> None:
        self.stream.write(jsonl_line({"at": at, **event_to_dict(event)}))
        self.stream.flush()


# --- reading and replaying -------------------------------------------------------------------

@dataclass
class Recorded:
    head: Json
    rules: RoundRules
    rotation: BankRotation
    events: list[Event]


# A recorded event is a few hundred bytes and the header a few kilobytes; reading a line
# stops past this, so a file with no line ends (/dev/zero) ends with a sentence.
MAX_LINE = 1_000_000


def utf8_lines(stream: IO[bytes]) -> Iterator[str]:
    """The lines of a recorded session's file as text; `RecordError` names a line that is
    not UTF-8 or is longer than any recorded line (a wrong file, read no further)."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE:
            raise RecordError(f"line {number} is over {MAX_LINE:,} bytes: not a recorded "
                              f"session (JSON lines, as the station writes them)")
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"line {number} is not UTF-8 text: not a recorded session "
                              f"(JSON lines, as the station writes them)") from None


def _json_line(text: str, number: int) -> Json:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"line {number} is not JSON ({e.msg})") from None
    except RecursionError:  # json reads nested arrays and objects by recursing
        raise RecordError(f"line {number}: its brackets nest deeper than any recorded event "
                          f"does: not a recorded session") from None
    except ValueError:  # an integer past Python's 4,300 digits for reading one
        raise RecordError(f"line {number} holds a number thousands of digits long: not a "
                          f"recorded session") from None
    if not isinstance(data, dict):
        raise RecordError(f"line {number} is not a JSON object")
    return data


MAX_KEPT = 1_000_000  # slips waiting in a printer's queue: far past any shift


def _head(data: Json, number: int) -> Json:
    """The header, checked: replay reads its rules, rotation, ports and kept slips."""
    if data.get("schema") != SESSION_SCHEMA:
        raise RecordError(f"line {number}: a recorded session starts with its header "
                          f"(schema {SESSION_SCHEMA}), not {data.get('schema')!r}")
    for key in ("rules", "rotation"):
        if key not in data:
            raise RecordError(f"line {number}: the header has no {key}: a recorded session "
                              f"starts with the header the station wrote")
        if not isinstance(data[key], dict):
            raise RecordError(f"line {number}: the header's {key} is {data[key]!r:.60}, not a "
                              f"JSON object as the station writes it")
    kept = data.get("kept", 0)
    if isinstance(kept, bool) or not isinstance(kept, int) or not 0 <= kept <= MAX_KEPT:
        raise RecordError(f"line {number}: the header's kept (slips kept to print) is "
                          f"{kept!r:.60}, not a count from 0 to {MAX_KEPT:,}")
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, str):
        raise RecordError(f"line {number}: the header's dealer is {dealer!r:.60}, not a name")
    return data


def read_session(lines: Iterable[str]) -> Recorded:
    """A recorded session from its lines; `RecordError` names the line and why."""
    head: Json | None = None
    events: list[Event] = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        data = _json_line(text, number)
        if head is None:
            head = _head(data, number)
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
