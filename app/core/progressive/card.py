"""A linked progressive as a value: its wager, where each wager goes, the seed, and what
each hand wins, a share of the meter or a fixed amount (issue 27, docs/progressive.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..bonus.categories import Category
from ..bonus.paytable import BonusCardError, first_made
from ..cards import Card
from ..hands import JokerRule
from ..settlement import money, rate_text

WHOLE_METER_BP = 10_000  # 100% of the meter, in basis points


class ProgressiveCardError(BonusCardError):
    """A progressive card that cannot be used as written: every problem, each naming the
    file, the line and what to write."""


class Reset(Enum):
    """What the meter starts from again once a hit has taken it below the seed."""

    SEED = "seed"  # back to the seed: from the reserve, the house putting up what it lacks
    RESERVE = "seed-and-reserve"  # the whole reserve moves on, and at least the seed


class TwoHits(Enum):
    """How hits of one round at one table share the meter. Hits at different tables are
    always taken in the order the database commits them."""

    IN_ORDER = "in-order"  # each in the order from action, from what the last one left
    SPLIT = "split"  # one category's hits in a round share its share of the meter equally


@dataclass(frozen=True, slots=True)
class ProgressivePay:
    """What a category wins: `share_bp` of the meter as it stands, or `fixed` cents (paid
    by the house, the meter untouched)."""

    category: Category
    share_bp: int | None = None
    fixed: int | None = None

    @property
    def text(self) -> str:
        if self.share_bp is not None:
            return f"{rate_text(self.share_bp)} of the meter"
        return money(self.fixed or 0)


@dataclass(frozen=True, slots=True)
class ProgressiveCard:
    """A linked progressive. Shares are basis points of the wager; what is neither the
    meter's nor the reserve's is the house's. `tables` empty: every table is linked."""

    name: str
    title: str
    source: str
    wager: int
    meter_bp: int
    reserve_bp: int
    seed: int
    reset: Reset
    two_hits: TwoHits
    tables: tuple[str, ...]
    order: tuple[Category, ...]
    pays: tuple[ProgressivePay, ...]

    def links(self, table: str) -> bool:
        return not self.tables or table in self.tables

    def category(self, cards: Sequence[Card], joker: JokerRule = "bug") -> Category:
        """The category the seven cards win in: the first of the card's they make."""
        return first_made(self.order, cards, joker)

    def pay(self, category: Category) -> ProgressivePay | None:
        return next((p for p in self.pays if p.category is category), None)
