"""A bonus pay table and an envy table as values: which categories, in what order, pay what.

Both are read from card files (card_file.py); the shipped ones are in cards/."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..hands import JokerRule
from ..settlement import money
from .categories import Category, made


class BonusError(ValueError):
    """Something about a bonus that cannot stand: what is wrong and what to do."""


class BonusCardError(BonusError):
    """A pay or envy card that cannot be used as written: every problem, each naming the
    file, the line and what to write."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True, slots=True)
class PayRow:
    category: Category
    to_one: int  # 0: a push

    @property
    def text(self) -> str:
        return "push" if self.to_one == 0 else f"{self.to_one:,} to 1"


@dataclass(frozen=True, slots=True)
class EnvyRow:
    category: Category
    amount: int  # cents, whatever the wager

    @property
    def text(self) -> str:
        return money(self.amount)


def first_made(order: Sequence[Category], cards: Sequence[Card], joker: JokerRule
               ) -> Category:
    """The first of `order` that the cards make, else NOTHING."""
    found = made(cards, joker)
    return next((c for c in order if c in found), Category.NOTHING)


@dataclass(frozen=True, slots=True)
class PayCard:
    """A bonus pay table. `order` is its categories from the top; `rows` what each pays."""

    name: str
    title: str
    source: str
    order: tuple[Category, ...]
    rows: tuple[PayRow, ...]

    def category(self, cards: Sequence[Card], joker: JokerRule = "bug") -> Category:
        """The category the seven cards are paid in: the first of the card's they make."""
        return first_made(self.order, cards, joker)

    def row(self, category: Category) -> PayRow | None:
        return next((r for r in self.rows if r.category is category), None)

    def pays_text(self, category: Category) -> str:
        row = self.row(category)
        return row.text if row else "loses"

    def result(self, category: Category, wager: int) -> int:
        """The bonus wager's win (+), push (0) or loss (-) in cents."""
        row = self.row(category)
        return -wager if row is None else wager * row.to_one


@dataclass(frozen=True, slots=True)
class EnvyCard:
    """An envy table: a fixed amount for another player's hand in each category, to a seat
    whose bonus wager is at least `qualifying` cents."""

    name: str
    title: str
    source: str
    order: tuple[Category, ...]
    rows: tuple[EnvyRow, ...]
    qualifying: int = 500

    def category(self, cards: Sequence[Card], joker: JokerRule = "bug") -> Category:
        return first_made(self.order, cards, joker)

    def amount(self, category: Category) -> int:
        """What another player's hand in `category` pays each qualifying seat (0: none)."""
        return next((r.amount for r in self.rows if r.category is category), 0)
