"""What the session takes in: the shoe's events, action from a device, the dealer's and the
supervisor's commands, the printer's answer. Each is a frozen value that turns into a
JSON-able dict and back (`event_to_dict` / `event_from_dict`): a recorded session is these
dicts, one a line, in the order the session handled them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # pydantic reads a TypedDict of it on Python 3.11

from app.core.cards import Card, CardError, card, cards_text, parse_cards
from app.core.table import Action, ActionSource
from drivers.action import ActionInput, Origin

if TYPE_CHECKING:
    from pydantic import TypeAdapter


class EventError(ValueError):
    """A recorded event that cannot be read: which one and why."""


@dataclass(frozen=True, slots=True)
class PrintJob:
    """One thing sent to the printer: this round's slip (`slip`), a slip again marked
    REPRINT (`duplicate`), or the slips a failure kept (`kept`)."""

    kind: str
    table: str = ""
    round: int = 0


@dataclass(frozen=True, slots=True)
class PrintOutcome:
    """The printer's answer. `printed`: the job printed; `kept`: a slip that failed is kept
    for reprint; `rounds`: the kept slips printed (table, round); `left`: kept slips still
    waiting; `problem`: the printer reported a problem."""

    job: PrintJob
    printed: bool
    message: str = ""
    kept: bool = False
    rounds: tuple[tuple[str, int], ...] = ()
    left: int = 0
    problem: bool = False


@dataclass(frozen=True, slots=True)
class CardRead:
    """One card read by the shoe; `seq` is the shoe's message number. With `first` (the
    number of the deal's first card) the card goes to its own place in the dealing order,
    so a card lost on the line leaves a hole; without it, cards go in the order read."""

    card: Card
    seq: int | None = None
    first: int | None = None


@dataclass(frozen=True, slots=True)
class LeftoversRead:
    """The cards not dealt, when the shoe reads them (BURN)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Shuffled:
    """A new deck: what was read before belongs to the old one."""


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    """The shoe is online or not; `status` is the whole story, `short` a word or two."""

    online: bool
    status: str
    short: str
    demo: bool = False


@dataclass(frozen=True, slots=True)
class ShoeFault:
    text: str


@dataclass(frozen=True, slots=True)
class DeviceAction:
    """ACTION sent by a shuffler (an RNG number) or a dice shaker (three dice)."""

    number: int
    dice: tuple[int, ...] = ()
    device: str | None = None
    seq: int | None = None

    @classmethod
    def of(cls, inp: ActionInput) -> DeviceAction:
        return cls(inp.action.number, inp.action.dice, inp.device, inp.seq)

    def input(self) -> ActionInput:
        source = ActionSource.DICE if self.dice else ActionSource.RNG
        return ActionInput(Action(self.number, source, self.dice, drawn_by="device"),
                           Origin.DEVICE, self.device, self.seq)


@dataclass(frozen=True, slots=True)
class DealerCommand:
    """A dealer's command from the registry (commands.py) with the text typed for it.
    `draw` is the number the station's RNG drew for it (recorded, so a replay draws none)."""

    command: str
    text: str = ""
    draw: int | None = None


@dataclass(frozen=True, slots=True)
class KeyPressed:
    """A key of the registry's keymap ("N", "Shift+Q", "3", "F1"): the command bound to it
    runs, or the field it opens is asked for (or why not is said)."""

    key: str


@dataclass(frozen=True, slots=True)
class CardPicked:
    """The dealer clicked a card of a position's hand (the front being picked)."""

    position: int
    card: Card


@dataclass(frozen=True, slots=True)
class FrontTyped:
    """The front field's text changed (the cards it names are picked and previewed)."""

    text: str


@dataclass(frozen=True, slots=True)
class SupervisorCommand:
    """A supervisor's command: `what` ("void", "misdeal", "allow_typing", "approve_bonus":
    the bonus payouts that wait, "pay_progressive": the progressive hits that wait), who,
    and why.
    `secret` is the supervisor's own, checked by the session's supervisor port when it has
    one; it is never written to a recorded session (nor shown by repr)."""

    what: str
    by: str
    reason: str = ""
    secret: str = field(default="", repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Printed:
    """The printer's answer to a job the session sent it."""

    outcome: PrintOutcome


@dataclass(frozen=True, slots=True)
class MeterStatus:
    """Whether the linked progressive's meter can be reached (the window reads it about
    twice a second; this comes only when that changes). While it cannot, the station takes
    no new progressive wager and pays no hit (docs/progressive.md)."""

    online: bool
    why: str = ""


@dataclass(frozen=True, slots=True)
class PaidHit:
    """A hit as the meter paid it: the meter's share and any fixed amount (the house's)."""

    seat: int
    paid: int
    from_meter: int = 0
    fixed: int = 0


@dataclass(frozen=True, slots=True)
class ProgressivePaid:
    """The ledger's answer to a progressive hit's payment: the hits paid, with the
    supervisor who signed in for them; or `error`, in words (nothing was paid)."""

    round: int
    hits: tuple[PaidHit, ...] = ()
    by: str = ""
    error: str = ""


@dataclass(frozen=True, slots=True)
class OwedHit:
    """A progressive hit the ledger owes: a settled round's slip has it, and no hit move was
    recorded for it (the op `<round id>/hit`). Found in the ledger, never in memory, so a
    hit that waited when its station stopped is offered again at the next start."""

    round_id: str
    round_no: int
    seat: int
    category: str  # the card's word, e.g. "five-aces"
    hand: str  # the dealer's words, e.g. "five aces"
    pays: str  # "10% of the meter" or "$75.00"
    card: str  # the progressive's card (its meter's name)
    table: str = ""  # the table that settled it (a meter links many)


@dataclass(frozen=True, slots=True)
class HitsOwed:
    """The progressive hits this table's ledger owes, as the station last looked (at start,
    and when the meter can be reached again): each is paid after a supervisor's sign-in."""

    hits: tuple[OwedHit, ...] = ()


Event = (CardRead | LeftoversRead | Shuffled | ShoeStatus | ShoeFault | DeviceAction
         | DealerCommand | KeyPressed | CardPicked | FrontTyped | SupervisorCommand | Printed
         | MeterStatus | ProgressivePaid | HitsOwed)


# --- to and from JSON ---------------------------------------------------------------------
# Each kind of event as a recorded line holds it; one TypeAdapter checks a line against them
# all, by its `kind` (the cards' text is read as the event is made).


class CardJson(TypedDict):
    kind: Literal["card"]
    card: str
    seq: NotRequired[int | None]
    first: NotRequired[int | None]  # written only when given: older recordings lack it


class LeftoversJson(TypedDict):
    kind: Literal["leftovers"]
    cards: str


class ShuffleJson(TypedDict):
    kind: Literal["shuffle"]


class ShoeStatusJson(TypedDict):
    kind: Literal["shoe_status"]
    online: bool
    status: str
    short: str
    demo: NotRequired[bool]


class ShoeFaultJson(TypedDict):
    kind: Literal["shoe_fault"]
    text: str


class DeviceActionJson(TypedDict):
    kind: Literal["device_action"]
    number: int
    dice: NotRequired[list[int]]
    device: NotRequired[str | None]
    seq: NotRequired[int | None]


class CommandJson(TypedDict):
    kind: Literal["command"]
    command: str
    text: NotRequired[str]
    draw: NotRequired[int | None]


class KeyJson(TypedDict):
    kind: Literal["key"]
    key: str


class PickJson(TypedDict):
    kind: Literal["pick"]
    position: int
    card: str


class FrontTypedJson(TypedDict):
    kind: Literal["front_typed"]
    text: str


class SupervisorJson(TypedDict):
    kind: Literal["supervisor"]
    what: str
    by: str
    reason: NotRequired[str]


class PrintJobJson(TypedDict):
    kind: str
    table: str
    round: int


class PrintedJson(TypedDict):
    kind: Literal["printed"]
    job: PrintJobJson
    printed: bool
    message: str
    kept: bool
    rounds: list[tuple[str, int]]
    left: int
    problem: bool


class MeterStatusJson(TypedDict):
    kind: Literal["meter_status"]
    online: bool
    why: str


class PaidHitJson(TypedDict):
    seat: int
    paid: int
    from_meter: int
    fixed: int


class ProgressivePaidJson(TypedDict):
    kind: Literal["progressive_paid"]
    round: int
    hits: list[PaidHitJson]
    by: str
    error: str


class OwedHitJson(TypedDict):
    round_id: str
    round_no: int
    seat: int
    category: str
    hand: str
    pays: str
    card: str
    table: NotRequired[str]


class HitsOwedJson(TypedDict):
    kind: Literal["hits_owed"]
    hits: list[OwedHitJson]


EventJson = (CardJson | LeftoversJson | ShuffleJson | ShoeStatusJson | ShoeFaultJson
             | DeviceActionJson | CommandJson | KeyJson | PickJson | FrontTypedJson
             | SupervisorJson | PrintedJson | MeterStatusJson | ProgressivePaidJson
             | HitsOwedJson)

@cache
def _event_json() -> TypeAdapter[EventJson]:
    # pydantic loads with the first recorded line read, not with the window: its first
    # paint waits for nothing heavy (tests/ui/test_opening.py).
    from pydantic import Field, TypeAdapter

    return TypeAdapter(Annotated[EventJson, Field(discriminator="kind")])

KINDS = ("card", "leftovers", "shuffle", "shoe_status", "shoe_fault", "device_action",
         "command", "key", "pick", "front_typed", "supervisor", "printed", "meter_status",
         "progressive_paid", "hits_owed")


def event_to_dict(event: Event) -> EventJson:
    """The event as a JSON-able dict; `kind` names it."""
    match event:
        case CardRead(card=c, seq=seq, first=first):
            placed: CardJson = {"kind": "card", "card": str(c), "seq": seq}
            if first is not None:  # written only when given: older recordings stay as they are
                placed["first"] = first
            return placed
        case LeftoversRead(cards=cards):
            return {"kind": "leftovers", "cards": cards_text(cards)}
        case Shuffled():
            return {"kind": "shuffle"}
        case ShoeStatus(online=online, status=status, short=short, demo=demo):
            return {"kind": "shoe_status", "online": online, "status": status, "short": short,
                    "demo": demo}
        case ShoeFault(text=text):
            return {"kind": "shoe_fault", "text": text}
        case DeviceAction(number=number, dice=dice, device=device, seq=seq):
            return {"kind": "device_action", "number": number, "dice": list(dice),
                    "device": device, "seq": seq}
        case DealerCommand(command=command, text=text, draw=draw):
            out: CommandJson = {"kind": "command", "command": command, "text": text}
            if draw is not None:
                out["draw"] = draw
            return out
        case KeyPressed(key=key):
            return {"kind": "key", "key": key}
        case CardPicked(position=position, card=c):
            return {"kind": "pick", "position": position, "card": str(c)}
        case FrontTyped(text=text):
            return {"kind": "front_typed", "text": text}
        case SupervisorCommand(what=what, by=by, reason=reason):
            return {"kind": "supervisor", "what": what, "by": by, "reason": reason}
        case Printed(outcome=o):
            return {"kind": "printed",
                    "job": {"kind": o.job.kind, "table": o.job.table, "round": o.job.round},
                    "printed": o.printed, "message": o.message, "kept": o.kept,
                    "rounds": list(o.rounds), "left": o.left, "problem": o.problem}
        case MeterStatus(online=online, why=why):
            return {"kind": "meter_status", "online": online, "why": why}
        case ProgressivePaid(round=no, hits=hits, by=by, error=error):
            return {"kind": "progressive_paid", "round": no, "by": by, "error": error,
                    "hits": [{"seat": h.seat, "paid": h.paid, "from_meter": h.from_meter,
                              "fixed": h.fixed} for h in hits]}
        case HitsOwed(hits=owed):
            return {"kind": "hits_owed",
                    "hits": [{"round_id": h.round_id, "round_no": h.round_no, "seat": h.seat,
                              "category": h.category, "hand": h.hand, "pays": h.pays,
                              "card": h.card, "table": h.table}
                             for h in owed]}
    raise EventError(f"not an event: {event!r}")


def _event(d: EventJson) -> Event:
    """The event a checked dict describes."""
    if d["kind"] == "card":
        return CardRead(card(d["card"]), d.get("seq"), d.get("first"))
    if d["kind"] == "leftovers":
        return LeftoversRead(parse_cards(d["cards"]))
    if d["kind"] == "shuffle":
        return Shuffled()
    if d["kind"] == "shoe_status":
        return ShoeStatus(d["online"], d["status"], d["short"], d.get("demo", False))
    if d["kind"] == "shoe_fault":
        return ShoeFault(d["text"])
    if d["kind"] == "device_action":
        return DeviceAction(d["number"], tuple(d.get("dice", ())), d.get("device"),
                            d.get("seq"))
    if d["kind"] == "command":
        return DealerCommand(d["command"], d.get("text", ""), d.get("draw"))
    if d["kind"] == "key":
        return KeyPressed(d["key"])
    if d["kind"] == "pick":
        return CardPicked(d["position"], card(d["card"]))
    if d["kind"] == "front_typed":
        return FrontTyped(d["text"])
    if d["kind"] == "supervisor":
        return SupervisorCommand(d["what"], d["by"], d.get("reason", ""))
    if d["kind"] == "meter_status":
        return MeterStatus(d["online"], d["why"])
    if d["kind"] == "progressive_paid":
        return ProgressivePaid(d["round"], tuple(PaidHit(h["seat"], h["paid"], h["from_meter"],
                                                         h["fixed"]) for h in d["hits"]),
                               d["by"], d["error"])
    if d["kind"] == "hits_owed":
        return HitsOwed(tuple(OwedHit(h["round_id"], h["round_no"], h["seat"], h["category"],
                                      h["hand"], h["pays"], h["card"], h.get("table", ""))
                            for h in d["hits"]))
    j = d["job"]
    return Printed(PrintOutcome(PrintJob(j["kind"], j["table"], j["round"]), d["printed"],
                                d["message"], d["kept"], tuple(d["rounds"]), d["left"],
                                d["problem"]))


def event_from_dict(data: Mapping[str, object]) -> Event:
    """The event a dict describes; `EventError` says what is wrong with it."""
    kind = data.get("kind")
    if kind not in KINDS:
        raise EventError(f"{kind!r} is not a kind of event: one of " + ", ".join(KINDS))
    from pydantic import ValidationError

    try:
        return _event(_event_json().validate_python(data))
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:])  # past the union's own tag
        raise EventError(f"a {kind} event cannot be read ({where}: {first['msg']})") from None
    except CardError as e:
        raise EventError(f"a {kind} event cannot be read ({e})") from None
