"""The session's parts, as the checks and the steps are given them. Each part owns its state
and its methods; a step reads them and asks them to change, and none of them knows the
session (`DealerSession` is these parts plus the events in and the changes out).

- `play`: the round in play, the table's procedure around it, its log and its ledger;
- `deal`: the deal coming in (cards read and typed) and where action came from;
- `keyboard`: the position selected, the field open, a wager asked about, the front picked;
- `devices`: the shoe's status and the slip printer;
- `out`: what the step under way says and asks (the message, the shoe, a view).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.cards import Card
from app.core.round import Round, RoundRules
from app.core.table import Table, TableError

from .deal import Deal
from .devices import Devices
from .keyboard import Keyboard
from .outbox import Outbox
from .play import Play


@dataclass(eq=False)
class Parts:
    """The session's parts, and the questions every step asks of more than one."""

    play: Play
    deal: Deal
    keyboard: Keyboard
    devices: Devices
    out: Outbox

    @property
    def round(self) -> Round | None:
        return self.play.round

    @property
    def rules(self) -> RoundRules:
        return self.play.rules

    @property
    def table(self) -> Table:
        return self.play.table

    @property
    def message(self) -> str:
        return self.out.message

    @property
    def level(self) -> str:
        return self.out.level

    @property
    def log(self) -> list[str]:
        return self.play.log

    def bank_offered(self) -> int | None:
        return self.play.bank_offered()

    def dragon_offered(self) -> int | None:
        return self.play.dragon_offered()

    def dealing(self) -> dict[int, list[Card]]:
        """The cards each position has so far in this deal, read or typed."""
        return self.deal.dealing(self.play.round)

    def need_position(self, what: str = "seat") -> int:
        selected = self.keyboard.selected
        if selected is None:
            raise TableError(f"select a {what} first: keys 1-6 for the seats, 7 for the dealer")
        return selected

    def say(self, text: str, level: str = "info") -> None:
        self.out.say(text, level)

