"""A station reading deals as the window does, without Qt: the parser, the shoe asked for
what is missing, action taken when the test says, and each card placed by its number
(drivers.shoe.deal_order and app.core.table.place_of_seq)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.cards import Card
from app.core.table import DealMode, Table, TableError, place_of_seq
from drivers.shoe.deal_order import WRAP, DealStart
from drivers.shoe.protocol import ShoeEvent, ShoeParser
from drivers.shoe.simulator import ShoeDevice

TABLE = Table(deal_mode=DealMode.ONE_AT_A_TIME)


@dataclass
class Reading:
    """`shoe` answers RESEND at once; what it cannot send is given up for lost then, as the
    reader does after its three requests. Without a shoe (recorded bytes, whose answers are
    in the recording) the missing are asked for, and given up only at `finish`."""

    shoe: ShoeDevice | None = None
    parser: ShoeParser = field(default_factory=ShoeParser)
    start: DealStart = field(default_factory=DealStart)
    events: list[ShoeEvent] = field(default_factory=list)
    placed: dict[int, Card] = field(default_factory=dict)   # this deal's cards by place
    twice: list[Card] = field(default_factory=list)         # a place that came again
    refused: list[Card] = field(default_factory=list)       # "not in this deal"

    def read(self, data: bytes) -> None:
        self._take(self.parser.feed(data))
        if self.parser.unrequested:
            self._take(self.parser.request_resend())
        asked = self.parser.take_outgoing()
        if self.shoe is not None and asked:
            answers = self.shoe.answer(asked)
            if answers:
                self._take(self.parser.feed(b"".join(answers)))
            if self.parser.missing:
                self._take(self.parser.give_up())

    def read_lines(self, stream: bytes) -> None:
        """Recorded bytes a line at a time, as they came."""
        for line in stream.splitlines(keepends=True):
            self.read(line)

    def action(self) -> None:
        """The dealer takes action: a new deal's cards come next."""
        self.start.new_deal()
        self.placed = {}

    def finish(self) -> None:
        if self.parser.missing:
            self._take(self.parser.give_up())

    def _take(self, events: list[ShoeEvent]) -> None:
        self.events += events
        for event in events:
            for n in self.start.see(event):
                if n.index is not None:
                    index = n.index
                else:
                    assert n.seq is not None and self.start.first_seq is not None
                    try:
                        index = place_of_seq(TABLE, 0, self.start.first_seq, n.seq, WRAP).index
                    except TableError:
                        self.refused.append(n.card)
                        continue
                if index in self.placed:
                    self.twice.append(n.card)
                self.placed[index] = n.card

    def holes(self) -> list[int]:
        return [i for i in range(max(self.placed, default=-1)) if i not in self.placed]
