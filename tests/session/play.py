"""Playing rounds through the dealer session by events only: keys, typed commands, the
shoe's cards. Shared by the tests and by make_recorded.py (the golden recorded session)."""

from __future__ import annotations

from collections.abc import Mapping

from app.core.cards import DECK, Card, parse_cards
from app.core.table import DEALER, Table
from app.session import (
    CardRead,
    Changes,
    DealerCommand,
    DealerSession,
    KeyPressed,
    LeftoversRead,
    ShoeStatus,
)
from app.session.procedure import to_set

# Hands by strength, none a straight or a flush, no joker: who wins is plain.
STRONG = "AS AH AD KS KH QS QH"  # aces full: both hands beat a high-card bank
BANK_WEAK = "2C 3D 4H 6S 8C 9D JH"  # jack high, no pair
WEAKER = "2H 3C 5D 6H 7C 9S TC"  # ten high: loses both hands to jack high
WEAKER_TOO = "2D 3S 5C 6C 7H 9H TD"  # ten high as well, other cards
MIDDLE = "AC KD QD 9C 8D 7D 4S"  # ace high, no pair (a foul with A K in front)


def stacked(table: Table, action: int, hands: Mapping[int, str],
            leftovers: str | None = None) -> list[Card]:
    """The shoe's cards for a deal in stacks from `action`: the hands named, the rest of the
    deck (in deck order) for the others and the four left over."""
    named = {p: list(parse_cards(text)) for p, text in hands.items()}
    used = {c for cards in named.values() for c in cards}
    last = list(parse_cards(leftovers)) if leftovers else []
    used |= set(last)
    rest = [c for c in DECK if c not in used]
    out: list[Card] = []
    for p in table.around(action):
        if p in named:
            out += named[p]
        else:
            out += rest[:7]
            rest = rest[7:]
    return out + (last or rest[:4])


class Play:
    """A session and the events a dealer and a shoe send it."""

    def __init__(self, s: DealerSession) -> None:
        self.s = s
        self.seq = 0

    def key(self, key: str) -> Changes:
        return self.s.handle(KeyPressed(key))

    def cmd(self, command: str, text: str = "") -> Changes:
        return self.s.handle(DealerCommand(command, text))

    def seat(self, position: int) -> Changes:
        return self.key("7" if position == DEALER else str(position))

    def shoe(self, online: bool) -> Changes:
        return self.s.handle(ShoeStatus(online, "online: test shoe" if online else
                                        "offline: test shoe unplugged", "online" if online
                                        else "offline", demo=True))

    def wagers(self, amounts: Mapping[int, str]) -> None:
        for seat, dollars in amounts.items():
            self.seat(seat)
            self.cmd("wager", dollars)

    def read(self, cards: list[Card]) -> Changes:
        changes = None
        for c in cards:
            self.seq += 1
            changes = self.s.handle(CardRead(c, self.seq))
        assert changes is not None
        return changes

    def burn(self, cards: list[Card]) -> Changes:
        self.seq += 1
        return self.s.handle(LeftoversRead(tuple(cards)))

    def house_way_all(self) -> Changes | None:
        changes = None
        while (waiting := to_set(self.s)):
            self.seat(waiting[0])
            changes = self.key("H")
        return changes
