"""Action inputs: where the number that finds action comes from, recorded with it.

Three sources, each giving the core's `Action` (app/core/table.py) wrapped in an
`ActionInput` that says where it came from:

- the station's own RNG: a number 1-7 drawn with `secrets` (`draw_rng`);
- dice thrown at the table and entered by the dealer: three values 1-6, checked (`dice`);
- a shuffler or electronic dice shaker that sends ACTION over serial (`from_device`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from app.core.table import Action, ActionSource

from .shoe.protocol import ActionRead

RNG_MAX = 7
DIE_FACES = range(1, 7)


class ActionError(ValueError):
    """Action input that cannot be used; the text says what to enter instead."""


class Origin(Enum):
    """Who produced the action number."""

    STATION_RNG = "station-rng"     # drawn by the station with `secrets`
    DEALER = "dealer"               # dice thrown and entered by the dealer
    DEVICE = "device"               # sent by a shuffler or dice shaker (ACTION message)


@dataclass(frozen=True, slots=True)
class ActionInput:
    """An action number and its source: origin, and for a device its name and message seq."""

    action: Action
    origin: Origin
    device: str | None = None
    seq: int | None = None

    @property
    def number(self) -> int:
        return self.action.number

    @property
    def source(self) -> str:
        """The source in words, for the slip and the ledger."""
        if self.origin is Origin.STATION_RNG:
            return "station RNG (secrets)"
        if self.origin is Origin.DEALER:
            return "dice entered by the dealer"
        where = self.device or "shuffler"
        return f"{where}, message {self.seq}" if self.seq is not None else where

    def __str__(self) -> str:
        return f"action {self.action} from {self.source}"


def draw_rng(randbelow: Callable[[int], int] = secrets.randbelow) -> ActionInput:
    """A 1-7 number drawn by the station with `secrets` (a CSPRNG)."""
    return ActionInput(Action(randbelow(RNG_MAX) + 1, ActionSource.RNG, drawn_by="secrets"),
                       Origin.STATION_RNG)


_EXAMPLE = "enter the three dice as they landed, e.g. 3 5 6"


def parse_dice(text: str | Iterable[int]) -> tuple[int, int, int]:
    """Three dice from the dealer: `3 5 6`, `3,5,6`, `3+5+6`, `356` or three numbers."""
    if isinstance(text, str):
        raw = text.strip()
        tokens = re.split(r"[\s,+\-/]+", raw) if re.search(r"[\s,+\-/]", raw) else list(raw)
        tokens = [t for t in tokens if t]
        for t in tokens:
            if not (t.isascii() and t.isdigit()):  # "³" and "٣" are digits int() refuses
                raise ActionError(f"{t!r} is not a die: {_EXAMPLE}")
        values = [int(t) for t in tokens]
    else:
        values = list(text)
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool):
                raise ActionError(f"{v!r} is not a die: {_EXAMPLE}")
    if len(values) != 3:
        got = " ".join(map(str, values)) or "nothing"
        raise ActionError(f"Action takes three dice, got {len(values)} ({got}): {_EXAMPLE}")
    for v in values:
        if v not in DIE_FACES:
            raise ActionError(f"A die shows 1 to 6, not {v}: read the dice again and "
                              f"{_EXAMPLE}")
    return values[0], values[1], values[2]


def dice(text: str | Iterable[int]) -> ActionInput:
    """Dice thrown at the table and entered by the dealer (total 3-18)."""
    d = parse_dice(text)
    return ActionInput(Action.from_dice(*d), Origin.DEALER)


def from_device(event: ActionRead, device: str | None = None) -> ActionInput:
    """The ACTION a shuffler or shaker sent over serial; `device` names it (from HELLO)."""
    if event.method == "RNG":
        (n,) = event.values
        if not 1 <= n <= RNG_MAX:
            raise ActionError(f"The shuffler sent action {n}; it must be 1 to {RNG_MAX}: "
                              "draw or throw action by hand")
        action = Action(n, ActionSource.RNG, drawn_by="device")
    else:
        try:
            d = parse_dice(event.values)
        except ActionError as e:
            raise ActionError(f"The dice shaker sent bad dice ({e}); throw the dice by hand") \
                from None
        action = Action(sum(d), ActionSource.DICE, d, drawn_by="device")
    return ActionInput(action, Origin.DEVICE, device, event.seq)
