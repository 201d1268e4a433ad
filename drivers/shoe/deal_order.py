"""Where each card the shoe numbers goes in its deal, so a card lost on the line leaves a hole.

A card lost on the line must leave a hole at its own place, not shift every later card one
hand on: so the window places a card by its sequence number counted from the deal's first
card (`app.core.table.place_of_seq`), never by how many cards have arrived. The parser
delivers the shoe's messages in their numbered order, with a LOST fault where some never
came, so every number between the deal's start and a card is accounted for:

- The deal starts after `SHUFFLE END`. A shoe that sends no SHUFFLE starts it at the first
  number after the last one the station knew of when the dealer took action (a HELLO or a
  heartbeat says the shoe's count), so a first card lost on the line is a hole at place 1,
  not a reason to count from the second.
- A message in the deal that is not a card (ACTION, ERROR, BURN, a type the station does
  not know) takes no place: the count of places moves past it. A CARD the shoe could not
  read (a bad card code) keeps its place, a hole for the dealer to type.
- A message that never came is taken for a card, as nearly all of a deal's are: its place
  stays a hole. (If it was not a card, the card the dealer is asked for is on the table
  at the next place and already read: typing it is refused, and the deal is a misdeal.)
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.cards import Card

from .protocol import (
    SEQ_MAX,
    ActionRead,
    Burn,
    CardRead,
    DeviceError,
    Fault,
    FaultKind,
    HandDealt,
    Heartbeat,
    Hello,
    ShoeEvent,
    ShuffleEnd,
    ShuffleStart,
    seq_after,
    seq_distance,
)

CARDS_PER_STACK = 7
WRAP = SEQ_MAX      # the shoe's count runs 1..SEQ_MAX, then starts at 1 again


@dataclass(frozen=True, slots=True)
class Numbered:
    """One card read and where it stands in its deal: by number, or by its HAND stack."""

    card: Card
    seq: int | None         # the CARD's number (None: a card of a HAND stack)
    index: int | None       # its place in the dealing order when a stack says it


def _at_or_after(first: int, seq: int) -> bool:
    return seq_distance(first, seq) <= SEQ_MAX // 2


@dataclass
class DealStart:
    """Follows the shoe's messages in order and says where the current deal's cards go.

    A card numbered `seq` goes to place `seq - first_seq` (with the count's wrap):
    `first_seq` is the deal's first card's number, moved on by one for each message of the
    deal that is not a card.
    """

    first_seq: int | None = None
    _last: int | None = None        # the newest number the shoe is known to have used
    _shuffled: bool = False         # a SHUFFLE came after the last card: it starts the deal
    _unplaced: bool = False         # action taken before any number was known

    def new_deal(self) -> None:
        """The dealer took action: unless a shuffle just began this deal, it starts with the
        shoe's next message."""
        if self._shuffled:
            return
        self.first_seq = None if self._last is None else seq_after(self._last)
        self._unplaced = self._last is None

    def see(self, event: ShoeEvent) -> list[Numbered]:
        """The cards an event carries, each with what places it."""
        match event:
            case Hello(seq=seq) | Heartbeat(seq=seq):
                self._last = seq
                if self._unplaced:          # the deal starts after the count the shoe says
                    self.first_seq, self._unplaced = seq_after(seq), False
            case Fault(kind=FaultKind.RESTART):
                self._last = None           # the shoe's count began again
            case ShuffleStart(seq=seq):
                # The deal starts after SHUFFLE END; if END is lost, at the first card.
                self._numbered(seq)
                self.first_seq, self._shuffled, self._unplaced = None, True, False
            case ShuffleEnd(seq=seq):
                self._numbered(seq)
                self.first_seq, self._shuffled, self._unplaced = seq_after(seq), True, False
            case CardRead(seq=seq, card=c):
                self._card(seq)
                return [Numbered(c, seq, None)]
            case HandDealt(seq=seq, stack=stack, cards=cards):
                self._numbered(seq)
                self._shuffled = self._unplaced = False
                start = (stack - 1) * CARDS_PER_STACK
                return [Numbered(c, None, start + i) for i, c in enumerate(cards)]
            case Fault(kind=FaultKind.MALFORMED, seq=int(seq), raw=raw) if raw.startswith(
                    b"$CARD,"):
                self._card(seq)             # a card it could not read: a hole to type
            case (ActionRead(seq=seq) | Burn(seq=seq) | DeviceError(seq=seq)
                  | Fault(kind=FaultKind.MALFORMED | FaultKind.UNKNOWN, seq=int(seq))):
                self._not_a_card(seq)
        return []

    def _numbered(self, seq: int) -> None:
        # Messages held behind a gap come after the heartbeat that revealed it: never back.
        if self._last is None or 0 < seq_distance(self._last, seq) <= SEQ_MAX // 2:
            self._last = seq

    def _card(self, seq: int) -> None:
        self._numbered(seq)
        if self.first_seq is None:
            self.first_seq = seq
        self._shuffled = self._unplaced = False

    def _not_a_card(self, seq: int) -> None:
        self._numbered(seq)
        if self._unplaced:
            self.first_seq, self._unplaced = seq_after(seq), False
        elif self.first_seq is not None and _at_or_after(self.first_seq, seq):
            self.first_seq = seq_after(self.first_seq)
