"""The deal coming in, as the station holds it before the round is given it: each card the
shoe read at its place in the dealing order (a card lost on the line leaves a hole), the
shoe's numbers, the cards typed by position, the leftovers; and where this round's action
came from (the station's RNG, dice, a device) and a device's action not yet taken.

It is kept through a restart (`state` / `restore`, the ledger's journal).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, NotRequired

from typing_extensions import TypedDict  # pydantic reads a TypedDict of it on Python 3.11

from app.core.cards import Card, card
from app.core.round import ActionCounted, Phase, Round
from app.core.table import CARDS_PER_HAND, HANDS, LEFTOVERS, ActionSource, holes_in
from drivers.action import ActionInput, Origin

from . import words

if TYPE_CHECKING:
    from pydantic import TypeAdapter

DEALT = HANDS * CARDS_PER_HAND  # 49
DECK_SIZE = DEALT + LEFTOVERS  # 53


class DealState(TypedDict):
    """The deal as the ledger's journal keeps it through a restart (JSON)."""

    first: NotRequired[int | None]  # the shoe's number of the deal's first card
    cards: NotRequired[list[tuple[int, str, int | None]]]  # place, card, the shoe's number
    places: NotRequired[int]
    manual: NotRequired[dict[int, list[str]]]  # typed by position (JSON keys are text)
    leftovers: NotRequired[list[str] | None]


@cache
def _deal_state() -> TypeAdapter[DealState]:
    # pydantic loads when a kept deal comes back, not with the window.
    from pydantic import TypeAdapter

    return TypeAdapter(DealState)


def action_input_of(counted: ActionCounted) -> ActionInput:
    """Where a recorded action came from (a round taken back from the ledger)."""
    action = counted.action
    if action.drawn_by == "device":
        return ActionInput(action, Origin.DEVICE)
    if action.source is ActionSource.DICE:
        return ActionInput(action, Origin.DEALER)
    return ActionInput(action, Origin.STATION_RNG)


class Deal:
    """The cards read and typed for the deal under way, and the round's action source."""

    def __init__(self, randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self.randbelow = randbelow  # the station's RNG (a replay has none)
        self.stream: list[Card | None] = []  # by place in the dealing order; None: a hole
        self.seqs: dict[int, int] = {}  # place -> the shoe's number of the card read there
        self.first_seq: int | None = None  # the shoe's number of the deal's first card
        self.manual: dict[int, list[Card]] = {}
        self.leftovers: tuple[Card, ...] | None = None
        self.action_input: ActionInput | None = None  # the round's action and its source
        self.device_action: ActionInput | None = None  # sent by a device, not yet taken

    # --- the cards ---------------------------------------------------------------------------

    def clear(self) -> None:
        self.stream, self.manual, self.leftovers = [], {}, None
        self.seqs, self.first_seq = {}, None

    def read(self, c: Card) -> None:
        """A card the shoe read, in the order read."""
        self.stream.append(c)

    def holes(self) -> tuple[int, ...]:
        return holes_in(i for i, held in enumerate(self.stream) if held is not None)

    def open_place(self, index: int) -> Card | None:
        """The place `index` of the dealing order, made if the deal is not that long yet; the
        card already there, if any."""
        self.stream.extend([None] * (index + 1 - len(self.stream)))
        return self.stream[index]

    def place(self, index: int, c: Card, seq: int, first_seq: int) -> None:
        """A card the shoe numbered, at its own place (`open_place` made the place)."""
        self.stream[index] = c
        if first_seq:  # 0: a shuffler's stack, placed by its number, not the shoe's count
            self.seqs[index], self.first_seq = seq, first_seq

    def typed(self, position: int, cards: tuple[Card, ...]) -> None:
        self.manual.setdefault(position, []).extend(cards)

    def leftovers_read(self, cards: tuple[Card, ...]) -> None:
        self.leftovers = cards

    def new_deck(self) -> int:
        """A new shuffle: the cards read and a device's action for the old deck are void;
        how many cards were read."""
        void = len(self.stream)
        self.stream, self.leftovers, self.device_action = [], None, None
        self.seqs, self.first_seq = {}, None
        return void

    def dealing(self, rnd: Round | None) -> dict[int, list[Card]]:
        """The cards each position has so far in this deal, read or typed."""
        out: dict[int, list[Card]] = {}
        if rnd is not None and rnd.action is not None and rnd.phase is Phase.DEALING:
            order = rnd.table.deal_order(rnd.action.position)
            for c, p in zip(self.stream[:DEALT], order, strict=False):
                if p is not None and c is not None:  # None: a card the shoe lost
                    out.setdefault(p, []).append(c)
        for p, cards in self.manual.items():
            out.setdefault(p, []).extend(cards)
        return out

    def short_by_a_hole(self, rnd: Round, position: int) -> bool:
        """The shoe lost a card of this position's hand (a hole in the deal): it is typed."""
        if rnd.action is None:
            return False
        order = rnd.table.deal_order(rnd.action.position)
        return any(c is None and p == position
                   for c, p in zip(self.stream[:DEALT], order, strict=False))

    # --- action ------------------------------------------------------------------------------

    def action_taken(self, inp: ActionInput) -> None:
        """The round's action is counted: the cards typed before it are dropped."""
        self.action_input, self.device_action = inp, None
        self.manual = {}

    def device_sent(self, inp: ActionInput | None) -> None:
        """A device's action waiting for R (None: dropped)."""
        self.device_action = inp

    def round_opened(self) -> None:
        """A new round: its action is not taken yet (a device's may be waiting)."""
        self.action_input = None

    def forget_action(self) -> None:
        """The round is over (void, misdeal) or taken back: no action is known."""
        self.action_input, self.device_action = None, None

    def taken_back(self, counted: ActionCounted | None) -> None:
        self.action_input = action_input_of(counted) if counted is not None else None
        self.device_action = None

    def action_key(self, rnd: Round) -> str:
        """The key that takes action now, in words."""
        if self.device_action is not None:
            return f"R (the {self.device_name()}'s {self.device_action.action})"
        return "R (RNG)" if rnd.table.action_source is ActionSource.RNG else "D (dice)"

    def device_name(self) -> str:
        inp = self.device_action or self.action_input
        return words.device_name(inp) if inp is not None else "shuffler"

    # --- kept through a restart ----------------------------------------------------------------

    def state(self) -> DealState:
        """The deal as the station holds it, as JSON: each card read at its place with the
        shoe's number, the deal's first number, the cards typed by position, the
        leftovers."""
        return {
            "first": self.first_seq,
            "cards": [(i, str(c), self.seqs.get(i)) for i, c in enumerate(self.stream)
                      if c is not None],
            "places": len(self.stream),
            "manual": {p: [str(c) for c in cards] for p, cards in self.manual.items()},
            "leftovers": None if self.leftovers is None else [str(c) for c in self.leftovers],
        }

    def restore(self, kept: Mapping[str, object]) -> int:
        """The deal kept before a restart, every card back at its place; how many cards."""
        deal = _deal_state().validate_python(kept)
        cards = [(i, card(text), seq) for i, text, seq in deal.get("cards", ())]
        places = max([deal.get("places", 0), *(i + 1 for i, _, _ in cards)])
        self.stream = [None] * places
        for i, c, seq in cards:
            self.stream[i] = c
            if seq is not None:
                self.seqs[i] = seq
        self.first_seq = deal.get("first")
        self.manual = {p: [card(t) for t in texts]
                       for p, texts in deal.get("manual", {}).items()}
        left = deal.get("leftovers")
        self.leftovers = None if left is None else tuple(card(t) for t in left)
        return len(cards) + sum(len(v) for v in self.manual.values())


def resume_point(kept: Mapping[str, object] | None) -> tuple[int | None, int | None]:
    """(the deal's first card's number, the number of the last card kept): the shoe is
    asked for every message after the last, and each card is placed from the first."""
    if not kept:
        return None, None
    deal = _deal_state().validate_python(kept)
    numbered = [(i, seq) for i, _, seq in deal.get("cards", ()) if seq is not None]
    return deal.get("first"), (max(numbered)[1] if numbered else None)
