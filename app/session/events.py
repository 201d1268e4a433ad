"""What the session takes in: the shoe's events, action from a device, the dealer's and the
supervisor's commands, the printer's answer. Each is a frozen value that turns into a
JSON-able dict and back (`event_to_dict` / `event_from_dict`): a recorded session is these
dicts, one a line, in the order the session handled them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.core.cards import Card, card, cards_text, parse_cards
from app.core.table import Action, ActionSource
from drivers.action import ActionInput, Origin

Json = dict[str, Any]


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
    """A supervisor's command: `what` ("void", "misdeal", "allow_typing"), who, and why.
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


Event = (CardRead | LeftoversRead | Shuffled | ShoeStatus | ShoeFault | DeviceAction
         | DealerCommand | KeyPressed | CardPicked | FrontTyped | SupervisorCommand | Printed)


# --- to and from JSON ---------------------------------------------------------------------

def _job(job: PrintJob) -> Json:
    return {"kind": job.kind, "table": job.table, "round": job.round}


def event_to_dict(event: Event) -> Json:
    """The event as a JSON-able dict; `kind` names it."""
    match event:
        case CardRead(card=c, seq=seq, first=first):
            placed: Json = {"kind": "card", "card": str(c), "seq": seq}
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
            out: Json = {"kind": "command", "command": command, "text": text}
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
            return {"kind": "printed", "job": _job(o.job), "printed": o.printed,
                    "message": o.message, "kept": o.kept,
                    "rounds": [[t, n] for t, n in o.rounds], "left": o.left,
                    "problem": o.problem}
    raise EventError(f"not an event: {event!r}")


def _printed(d: Mapping[str, Any]) -> Printed:
    j = d["job"]
    job = PrintJob(str(j["kind"]), str(j["table"]), int(j["round"]))
    return Printed(PrintOutcome(job, bool(d["printed"]), str(d["message"]), bool(d["kept"]),
                                tuple((str(t), int(n)) for t, n in d["rounds"]),
                                int(d["left"]), bool(d["problem"])))


_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "card": lambda d: CardRead(card(d["card"]), d.get("seq"), d.get("first")),
    "leftovers": lambda d: LeftoversRead(parse_cards(d["cards"])),
    "shuffle": lambda d: Shuffled(),
    "shoe_status": lambda d: ShoeStatus(bool(d["online"]), str(d["status"]), str(d["short"]),
                                        bool(d.get("demo", False))),
    "shoe_fault": lambda d: ShoeFault(str(d["text"])),
    "device_action": lambda d: DeviceAction(int(d["number"]), tuple(d.get("dice", ())),
                                            d.get("device"), d.get("seq")),
    "command": lambda d: DealerCommand(str(d["command"]), str(d.get("text", "")),
                                       d.get("draw")),
    "key": lambda d: KeyPressed(str(d["key"])),
    "pick": lambda d: CardPicked(int(d["position"]), card(d["card"])),
    "front_typed": lambda d: FrontTyped(str(d["text"])),
    "supervisor": lambda d: SupervisorCommand(str(d["what"]), str(d["by"]),
                                              str(d.get("reason", ""))),
    "printed": _printed,
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a dict describes; `EventError` says what is wrong with it."""
    kind = data.get("kind")
    reader = _READERS.get(str(kind))
    if reader is None:
        raise EventError(f"{kind!r} is not a kind of event: one of " + ", ".join(_READERS))
    try:
        return reader(data)
    except (KeyError, TypeError, ValueError) as e:
        raise EventError(f"a {kind} event cannot be read ({e!r})") from None
