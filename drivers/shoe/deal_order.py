"""Which sequence number a deal's first card has, so every card is placed by its number.

A card lost on the line must leave a hole at its own place, not shift every later card one
hand on: so the window places a card by its sequence number counted from the deal's first
card (`app.core.table.place_of_seq`), never by how many cards have arrived. The first card's
number follows from the messages before it: the one after `SHUFFLE END`, or after the
`ACTION` that follows it; a shoe that sends no SHUFFLE starts the count at the first card
after the dealer takes action.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.cards import Card

from .protocol import (
    SEQ_MAX,
    ActionRead,
    CardRead,
    HandDealt,
    ShoeEvent,
    ShuffleEnd,
    ShuffleStart,
    seq_after,
)

CARDS_PER_STACK = 7
WRAP = SEQ_MAX      # the shoe's count runs 1..SEQ_MAX, then starts at 1 again


@dataclass(frozen=True, slots=True)
class Numbered:
    """One card read and where it stands in its deal: by number, or by its HAND stack."""

    card: Card
    seq: int | None         # the CARD's number (None: a card of a HAND stack)
    index: int | None       # its place in the dealing order when a stack says it


@dataclass
class DealStart:
    """Follows the shoe's messages and knows the number of the current deal's first card."""

    first_seq: int | None = None
    _cards_since_shuffle: int = 0

    def new_deal(self) -> None:
        """The dealer took action: a shoe that sent no SHUFFLE since the last deal's cards
        starts this deal at its next card."""
        if self._cards_since_shuffle:
            self.first_seq = None
            self._cards_since_shuffle = 0

    def see(self, event: ShoeEvent) -> list[Numbered]:
        """The cards an event carries, each with what places it."""
        match event:
            case ShuffleStart():
                self.first_seq, self._cards_since_shuffle = None, 0
            case ShuffleEnd(seq=seq):
                self.first_seq, self._cards_since_shuffle = seq_after(seq), 0
            case ActionRead(seq=seq) if seq == self.first_seq:
                self.first_seq = seq_after(seq)
            case CardRead(seq=seq, card=c):
                if self.first_seq is None:
                    self.first_seq = seq
                self._cards_since_shuffle += 1
                return [Numbered(c, seq, None)]
            case HandDealt(stack=stack, cards=cards):
                self._cards_since_shuffle += len(cards)
                start = (stack - 1) * CARDS_PER_STACK
                return [Numbered(c, None, start + i) for i, c in enumerate(cards)]
        return []
