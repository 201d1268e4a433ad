"""The JSON the ledger keeps: a round's record as an event holds it (codec.encode_record
writes it), and each op's payload as the station's journal holds it (the store writes them,
apply reads them into the database).

These say the shape a station writes. What is read back from a journal or the database is
not checked against them key by key: the journal's ops are signed by the station that wrote
them, and what reads the events (replay, recall) refuses a misshapen record in words.
"""

from __future__ import annotations

from typing import NotRequired, Required, TypedDict

from app.core.settlement import BonusLineDict, SlipDict

Json = dict[str, object]


# --- a round's records ---------------------------------------------------------------------

class EligibilityJson(TypedDict):
    seat: int
    eligible: bool
    reasons: list[str]
    chips_cents: int
    cover_cents: int


class ActionJson(TypedDict):
    number: int
    source: str
    dice: list[int]
    drawn_by: str


class DealJson(TypedDict):
    order: list[int]
    hands: list[str]
    leftovers: str
    leftovers_counted: bool
    mode: str


class HandJson(TypedDict):
    position: int
    # made again by the replay: an event written since migration 0013 keeps none of these
    # (codec.DERIVED_HAND); the record the station makes, and the journal's, has them all
    role: NotRequired[str]
    player: NotRequired[int | None]
    cards: NotRequired[str]
    wager_cents: NotRequired[int]
    rule_says: NotRequired[str | None]
    low: str | None
    high: str | None
    set_by: str | None
    rule: str | None
    foul: str | None
    forfeit: bool


class RecordJson(TypedDict, total=False):
    """One record of `Round.log`: `type` names it, and says which of the other keys it has
    (codec.encode_record); every key means the same in every record that has it."""

    type: Required[str]
    rule: str
    seat: int
    position: int
    wager_cents: int
    player: int | None
    chips_cents: int | None
    co_bank: bool
    dealer_wager_cents: int
    eligibility: EligibilityJson | None
    action: ActionJson
    bank: int
    direction: str
    deal: DealJson
    problems: list[str]
    hand: HandJson
    low: str
    high: str
    way: str
    house_way_rule: str
    house_way_says: str
    slip: SlipDict  # a ledger written before migration 0012 keeps it in the event too
    supervisor: str  # a bonus payout approved (issue 26)
    lines: list[BonusLineDict]  # the bonus payouts held for, or approved by, a supervisor
    authorised: Authorised  # the ledger's: how a bonus approval was authorised (its sign-in)


# --- the journal's ops -----------------------------------------------------------------------
# Each op's payload also has `at`, the ISO time the station made it (Store._op adds it).

class StationOp(TypedDict):
    id: str
    table_name: str
    name: str
    at: str


class ShiftOpenOp(TypedDict):
    id: str
    station_id: str
    dealer: str
    at: str


class ShiftCloseOp(TypedDict):
    id: str
    station_id: str
    actor: NotRequired[str | None]
    at: str


class RoundSnapshot(TypedDict):
    """What a round is played under: its rules (paigow.rules/1) and the table config
    beside them, without any secret."""

    rules: Json
    config: object


class RoundBeginOp(TypedDict):
    id: str
    station_id: str
    shift_id: str
    table_name: str
    round_no: int
    config: RoundSnapshot
    rotation: Json  # paigow.rotation/1
    actor: NotRequired[str | None]  # a round resumed from the ledger names none
    at: str


class ProgressiveWagersJson(TypedDict):
    """A round's linked progressive wagers, one a seat, brought by the op that settles it
    (docs/progressive.md): the card's name (the meter's) and the SHA-256 of its money
    rules (`progressive.card_hash`), so a station under another card is refused."""

    card: str
    card_hash: str
    seats: list[int]


class RecordsOp(TypedDict):
    """The records one save made, numbered from `first_seq`; the one that settles the round
    brings the slip and the rotation after it, and its progressive wagers if any (their
    contribution is written in the same transaction as the settlement)."""

    round_id: str
    first_seq: int
    actor: NotRequired[str | None]
    records: list[RecordJson]
    slip_json: NotRequired[str]
    slip_text: NotRequired[str]
    rotation_after: NotRequired[Json]
    progressive: NotRequired[ProgressiveWagersJson]
    at: str


class Authorised(TypedDict):
    """How a supervisor's action was authorised (never a secret)."""

    by: str
    role: NotRequired[str]
    sign_in: NotRequired[str]


class RoundVoidOp(TypedDict):
    round_id: str
    reason: str
    actor: NotRequired[str | None]
    misdeal: NotRequired[bool]
    authorised: NotRequired[Authorised]  # a journal of an older station may lack it
    at: str


class BankDecisionOp(TypedDict):
    id: str
    station_id: str
    shift_id: NotRequired[str | None]
    round_id: NotRequired[str | None]
    verdict: EligibilityJson
    actor: NotRequired[str | None]
    at: str


class NoteOp(TypedDict):
    id: str
    station_id: str
    shift_id: str | None
    round_id: str | None
    kind: str
    actor: str | None
    payload: Json
    at: str
