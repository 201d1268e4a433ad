"""Settling a round's bonus wagers and their envy (issue 26), after the Pai Gow wagers.

    result = settle_bonuses(hands, pay_card("fortune-8000"), envy_card("envy-5000"),
                            BonusRules(), joker="bug")
    result.seat(3).bonus, result.seat(3).envy, result.lines, result.waiting

`hands` are the round's hands in the order they are settled (from action), every hand that
was played: the dealer's, the (player-)banker's, the players', taken dragon hands. Each
line is a value the slip, the ledger and the felt can show as it is.

Rules (the issue's words; readings in docs/bonus.md):
- A bonus is settled on the best hand among the seven cards, whatever the setting. A fouled
  hand still collects unless `fouled_collects` is off; then its bonus loses.
- A seat's bonus wager of at least the envy card's qualifying amount wins that card's amount
  for every other player's hand in one of its categories: never for a hand of the seat's
  own (its dragon hand included) nor the dealer's (position 0); several such hands pay
  several times. The player-banker's hand is a player's hand; so is a taken dragon hand
  (its taker's). A fouled hand still counts for the others' envy and still wins envy.
- A player-banker may bet the bonus on the banking hand; a dragon hand only when
  `dragon_bonus` is on; the dealer's hand never.
- Lines are paid bonuses first, then envy, each in order from action (`order` otherwise).
- A bonus or envy payout at or above `supervisor_at` waits for a supervisor (each line on
  its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..cards import Card
from ..hands import JokerRule
from ..settlement import Role, money
from ..table import DEALER, position_name
from .categories import Category
from .paytable import BonusError, EnvyCard, PayCard


class PayOrder(Enum):
    BONUSES_THEN_ENVY = "bonuses-then-envy"  # the order
    ENVY_THEN_BONUSES = "envy-then-bonuses"
    SEAT_BY_SEAT = "seat-by-seat"  # each seat's bonus then its envy, seats from action


@dataclass(frozen=True, slots=True)
class BonusRules:
    """The house's settings for the bonus (defaults: the issue's)."""

    fouled_collects: bool = True
    dragon_bonus: bool = False
    order: PayOrder = PayOrder.BONUSES_THEN_ENVY
    supervisor_at: int = 100_000  # cents: $1,000

    def __post_init__(self) -> None:
        if self.supervisor_at <= 0:
            raise BonusError(f"the supervisor's payout threshold is above $0.00, not "
                             f"{money(self.supervisor_at)}")


@dataclass(frozen=True, slots=True)
class BonusHand:
    """One hand of the round as the bonus sees it. `seat` is whose money rides on it (the
    seat that took a dragon hand; None for the dealer's); `wager` the bonus wager in cents,
    None when there is none."""

    position: int
    role: Role
    cards: tuple[Card, ...]
    seat: int | None
    wager: int | None = None
    fouled: bool = False

    @property
    def is_dealers(self) -> bool:
        return self.position == DEALER

    @property
    def counts_for_envy(self) -> bool:
        """A player's hand: the banker's and taken dragons' included, the dealer's not."""
        return not self.is_dealers and self.role is not Role.MUCKED and self.seat is not None


@dataclass(frozen=True, slots=True)
class BonusLine:
    """A seat's bonus on one hand: the category, what the card pays, the win (+), push (0)
    or loss (-) in cents."""

    position: int
    seat: int
    wager: int
    category: Category
    pays: str
    amount: int
    supervisor: bool
    note: str = ""  # why the card's pay does not apply (a fouled hand), else ""

    def text(self) -> str:
        return bonus_text(self.seat, self.position, self.wager, self.category, self.pays,
                          self.amount, self.note)


@dataclass(frozen=True, slots=True)
class EnvyLine:
    """A seat's envy for another player's hand (`from_position`, played by `from_seat`)."""

    position: int  # the hand whose bonus wager qualifies
    seat: int
    from_position: int
    from_seat: int
    category: Category
    amount: int
    supervisor: bool

    def text(self) -> str:
        return envy_text(self.seat, self.category, self.from_position, self.amount)


Line = BonusLine | EnvyLine


def bonus_text(seat: int, position: int, wager: int, category: Category, pays: str,
               amount: int, note: str) -> str:
    """A bonus line in a dealer's words (the one maker: the line settled and the line read
    back from the ledger's row say it alike)."""
    shown = f"{category.label}, {pays}" + (f" ({note})" if note else "")
    dragon = f" on the dragon hand at {position_name(position)}" if position != seat else ""
    return (f"{position_name(seat)} bonus {money(wager)}{dragon}: {shown}: "
            f"{money(amount, sign=True)}")


def envy_text(seat: int, category: Category, from_position: int, amount: int) -> str:
    """An envy line in a dealer's words."""
    return (f"{position_name(seat)} envy: {category.label} at {position_name(from_position)}: "
            f"{money(amount, sign=True)}")


@dataclass(frozen=True, slots=True)
class SeatBonus:
    seat: int
    bonus: tuple[BonusLine, ...]
    envy: tuple[EnvyLine, ...]

    @property
    def net(self) -> int:
        return sum(x.amount for x in self.bonus) + sum(x.amount for x in self.envy)


@dataclass(frozen=True, slots=True)
class BonusSettlement:
    """Every bonus and envy line, in the order they are paid."""

    lines: tuple[Line, ...]
    pay_card: str
    envy_card: str | None

    def seat(self, seat: int) -> SeatBonus:
        return SeatBonus(seat, tuple(x for x in self.lines
                                     if isinstance(x, BonusLine) and x.seat == seat),
                         tuple(x for x in self.lines if isinstance(x, EnvyLine) and x.seat == seat))

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(x.seat for x in self.lines))

    @property
    def waiting(self) -> tuple[Line, ...]:
        """The lines a supervisor must approve before the slip prints."""
        return tuple(x for x in self.lines if x.supervisor)


def verify_hands(hands: Sequence[BonusHand], rules: BonusRules) -> None:
    """Raise BonusError, in a dealer's words, for a round the bonus cannot settle."""
    seen: dict[Card, int] = {}
    for hand in hands:
        where = position_name(hand.position)
        for c in hand.cards:
            if c in seen:
                raise BonusError(f"{c} is in the hands of {position_name(seen[c])} and {where}: "
                                 "check the cards dealt")
            seen[c] = hand.position
        if hand.wager is None:
            continue
        if hand.wager <= 0:
            raise BonusError(f"the bonus wager at {where} must be above $0.00, not "
                             f"{money(hand.wager)}")
        if hand.is_dealers or hand.seat is None:
            raise BonusError("the dealer's hand takes no bonus wager: take it off")
        if hand.role is Role.DRAGON and not rules.dragon_bonus:
            raise BonusError(f"the dragon hand at {where} takes no bonus at this table: "
                             "take the bonus wager off")
        if hand.role is Role.MUCKED:
            raise BonusError(f"the hand at {where} is not played: it takes no bonus")


def settle_bonuses(hands: Sequence[BonusHand], pays: PayCard, envy: EnvyCard | None,
                   rules: BonusRules = BonusRules(), joker: JokerRule = "bug"
                   ) -> BonusSettlement:
    """Every bonus and envy line of the round, in the order they are paid."""
    verify_hands(hands, rules)
    bonuses: list[Line] = [_bonus(h, pays, rules, joker) for h in hands if h.wager is not None]
    envies: list[Line] = [*_envy(hands, envy, rules, joker)] if envy is not None else []
    if rules.order is PayOrder.ENVY_THEN_BONUSES:
        lines: list[Line] = [*envies, *bonuses]
    elif rules.order is PayOrder.SEAT_BY_SEAT:
        seats = dict.fromkeys(x.seat for x in [*bonuses, *envies])
        lines = [x for s in seats for x in [*bonuses, *envies] if x.seat == s]
    else:
        lines = [*bonuses, *envies]
    return BonusSettlement(tuple(lines), pays.name, envy.name if envy else None)


def _bonus(hand: BonusHand, pays: PayCard, rules: BonusRules, joker: JokerRule) -> BonusLine:
    assert hand.wager is not None and hand.seat is not None  # verify_hands
    category = pays.category(hand.cards, joker)
    amount = pays.result(category, hand.wager)
    note = ""
    if hand.fouled and not rules.fouled_collects and amount >= 0:
        amount, note = -hand.wager, "fouled hand: the bonus loses"
    return BonusLine(hand.position, hand.seat, hand.wager, category, pays.pays_text(category),
                     amount, amount >= rules.supervisor_at, note)


def _envy(hands: Sequence[BonusHand], envy: EnvyCard, rules: BonusRules, joker: JokerRule
          ) -> list[EnvyLine]:
    """For each qualifying wager (in order), a line for each other player's envy hand."""
    found = [(h, envy.category(h.cards, joker)) for h in hands if h.counts_for_envy]
    qualifying = [(h, c) for h, c in found if envy.amount(c) > 0]
    lines = []
    for hand in hands:
        if hand.wager is None or hand.wager < envy.qualifying or hand.seat is None:
            continue
        for other, category in qualifying:
            if other.seat == hand.seat:
                continue  # the seat's own hands, its dragon hand included
            assert other.seat is not None
            amount = envy.amount(category)
            lines.append(EnvyLine(hand.position, hand.seat, other.position, other.seat,
                                  category, amount, amount >= rules.supervisor_at))
    return lines
