"""The money a dealer's keystrokes may set: the table's limits and the "far above" rule.

They live in the session, not the window, so every driver of the session (the window, a
headless runner, `paigow replay`, the tests) is held to them the same way.

- A wager under the table's minimum or over its maximum is refused, and the refusal names
  the limit (the core's check, worded for the seat).
- A wager far above the seat's previous wager is not set at once: the session asks for a
  yes (Enter again or Y; Esc says no). "Far above" is `JUMP_TIMES` times the previous
  wager *and* at least `JUMP_AT_LEAST` more: a finger on the wrong digit turns $20 into
  $200 or $420, while a player raising from $5 to $30 (six times, but $25 more) is an
  ordinary raise that should not stop the game.
- The previous wager is the seat's wager on the table now (a wager being changed), else
  its main wager in the last round it played at this station (after a restart: the
  ledger's last round with no player banker). A seat with no previous wager is held to the
  limits only: there is nothing to compare with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from app.core.round import Round
from app.core.settlement import money
from app.core.table import TableError

JUMP_TIMES = 5  # more than five times the previous wager ...
JUMP_AT_LEAST = 10_000  # ... and at least $100.00 more: a jump to confirm


@dataclass(frozen=True, slots=True)
class Asking:
    """A wager far above the seat's previous one, waiting for the dealer's yes or no."""

    seat: int
    cents: int
    previous: int

    def words(self) -> str:
        return (f"Seat {self.seat}: {money(self.cents)} is far above its last wager of "
                f"{money(self.previous)}. Enter again (or Y) sets it; Esc cancels it.")


def previous_wager(rnd: Round | None, last_wagers: Mapping[int, int], seat: int) -> int | None:
    """The seat's wager on the table now, else its last main wager at this station."""
    if rnd is not None and seat in rnd.wagers:
        return rnd.wagers[seat]
    return last_wagers.get(seat)


def far_above(previous: int | None, cents: int) -> bool:
    """The jump the dealer confirms: over JUMP_TIMES the previous wager and JUMP_AT_LEAST
    more (no previous wager: never)."""
    if previous is None or previous <= 0:
        return False
    return cents > JUMP_TIMES * previous and cents - previous >= JUMP_AT_LEAST


def verify_wager(rnd: Round, seat: int, cents: int) -> None:
    """Raise why `cents` may not be seat's wager now (the limit named); else nothing."""
    limits = rnd.rules.limits
    if cents > limits.maximum:
        raise TableError(f"Seat {seat}: {money(cents)} is over the table maximum of "
                         f"{money(limits.maximum)}: nothing is set. Type the wager again "
                         f"(W), at most {money(limits.maximum)}.")
    if cents < limits.minimum:
        raise TableError(f"Seat {seat}: {money(cents)} is under the table minimum of "
                         f"{money(limits.minimum)}: nothing is set. Type the wager again "
                         f"(W), at least {money(limits.minimum)}.")
    rnd.verify_place_wager(seat, cents)  # the rest of the core's rules (a banker, a bank)


def asking_for(rnd: Round | None, last_wagers: Mapping[int, int], seat: int,
               cents: int) -> Asking | None:
    """The question to ask before setting this wager, or None to set it at once."""
    previous = previous_wager(rnd, last_wagers, seat)
    if previous is None or not far_above(previous, cents):
        return None
    return Asking(seat, cents, previous)


@dataclass(slots=True)
class SameWagers:
    """Last round's wagers offered again (L): each seat's wager, in seat order, and the
    seats the dealer has left out (a player gone) before Enter sets the rest."""

    wagers: dict[int, int]
    left_out: set[int]
    bonus: dict[int, int] = field(default_factory=dict)  # each seat's bonus wager beside
    progressive: dict[int, int] = field(default_factory=dict)  # and its progressive wager

    def amounts(self, seat: int) -> str:
        """The seat's wager, and its bonus beside it."""
        bonus, progressive = self.bonus.get(seat), self.progressive.get(seat)
        return (money(self.wagers[seat]) + (f" + bonus {money(bonus)}" if bonus else "")
                + (f" + progressive {money(progressive)}" if progressive else ""))

    def seats_words(self) -> str:
        return ", ".join(f"seat {seat} left out ({self.amounts(seat)})"
                         if seat in self.left_out else f"seat {seat} {self.amounts(seat)}"
                         for seat in self.wagers)

    def words(self) -> str:
        return (f"Same wagers as last round: {self.seats_words()}. Enter sets them (or L "
                f"again); a seat's key leaves that seat out, or puts it back; Esc sets none.")
