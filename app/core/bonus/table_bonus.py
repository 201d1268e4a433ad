"""The bonus as one table offers it: the pay and envy cards, the bonus wager's own limits, and
the house's settings; and the same as data, stored with every round played under it.

    TableBonus(pay_card("fortune-8000"), envy_card("envy-5000"))
    data = table_bonus_to_data(bonus)          # JSON-able, inside the round's paigow.rules/1
    bonus = table_bonus_from_data(data)        # BonusError says what cannot be read

The cards are stored whole (every category and what it pays), not by name: a round recalls
and settles by the table it was played under even after the casino edits or removes the card
file, and on a machine that never had it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict, cast

from ..settlement import money
from .categories import Category
from .paytable import BonusError, EnvyCard, EnvyRow, PayCard, PayRow
from .settle import BonusRules, PayOrder
from .shipped import envy_card, pay_card


def _fortune() -> PayCard:
    return pay_card("fortune-8000")


def _envy() -> EnvyCard | None:
    return envy_card("envy-5000")


@dataclass(frozen=True, slots=True)
class TableBonus:
    """The bonus at a table. `minimum`/`maximum` are the bonus wager's own limits (cents);
    `requires_wager`: a seat bets the bonus only beside a Pai Gow wager (the banking hand of
    a player-banker counts as one)."""

    pays: PayCard = field(default_factory=_fortune)
    envy: EnvyCard | None = field(default_factory=_envy)
    minimum: int = 100  # $1
    maximum: int = 10_000  # $100
    requires_wager: bool = True
    rules: BonusRules = field(default_factory=BonusRules)

    def __post_init__(self) -> None:
        if self.minimum <= 0:
            raise BonusError(f"the least bonus wager must be above $0.00, not "
                             f"{money(self.minimum)}")
        if self.maximum < self.minimum:
            raise BonusError(f"the bonus wager's maximum {money(self.maximum)} is below its "
                             f"minimum {money(self.minimum)}")

    def summary(self) -> str:
        """The bonus in a line, for the slip's rules."""
        envy = f", envy {self.envy.name}" if self.envy else ""
        return (f"{self.pays.name}{envy}, {money(self.minimum)} to {money(self.maximum)}"
                + ("" if self.rules.fouled_collects else ", a fouled hand's bonus loses"))


# --- as data --------------------------------------------------------------------------------

class PayCardData(TypedDict):
    name: str
    title: str
    source: str
    pays: list[list[object]]  # [category word, to one (0: push)], from the top


class EnvyCardData(TypedDict):
    name: str
    title: str
    source: str
    qualifying_cents: int
    amounts: list[list[object]]  # [category word, cents], from the top


class TableBonusData(TypedDict):
    pay_card: PayCardData
    envy_card: EnvyCardData | None
    minimum_cents: int
    maximum_cents: int
    requires_wager: bool
    fouled_collects: bool
    dragon_bonus: bool
    order: str
    approval_cents: int


def table_bonus_to_data(bonus: TableBonus) -> dict[str, object]:
    p, e, r = bonus.pays, bonus.envy, bonus.rules
    data: TableBonusData = {
        "pay_card": {"name": p.name, "title": p.title, "source": p.source,
                     "pays": [[c.value, _to_one(p, c)] for c in p.order]},
        "envy_card": None if e is None else {
            "name": e.name, "title": e.title, "source": e.source,
            "qualifying_cents": e.qualifying,
            "amounts": [[c.value, e.amount(c)] for c in e.order]},
        "minimum_cents": bonus.minimum,
        "maximum_cents": bonus.maximum,
        "requires_wager": bonus.requires_wager,
        "fouled_collects": r.fouled_collects,
        "dragon_bonus": r.dragon_bonus,
        "order": r.order.value,
        "approval_cents": r.supervisor_at,
    }
    return dict(data)


def _to_one(card: PayCard, category: Category) -> int:
    row = card.row(category)
    assert row is not None  # a card pays each of its categories
    return row.to_one


def table_bonus_from_data(stored: Mapping[str, object]) -> TableBonus:
    """The bonus a round was played under, as stored; BonusError in words when unreadable."""
    data = cast(TableBonusData, stored)
    try:
        p, e = data["pay_card"], data["envy_card"]
        pays = PayCard(p["name"], p["title"], p["source"],
                       tuple(Category(str(w)) for w, _ in p["pays"]),
                       tuple(PayRow(Category(str(w)), int(cast(int, n))) for w, n in p["pays"]))
        envy = None if e is None else EnvyCard(
            e["name"], e["title"], e["source"],
            tuple(Category(str(w)) for w, _ in e["amounts"]),
            tuple(EnvyRow(Category(str(w)), int(cast(int, n))) for w, n in e["amounts"]),
            int(e["qualifying_cents"]))
        return TableBonus(pays, envy, int(data["minimum_cents"]), int(data["maximum_cents"]),
                          bool(data["requires_wager"]),
                          BonusRules(bool(data["fouled_collects"]), bool(data["dragon_bonus"]),
                                     PayOrder(data["order"]), int(data["approval_cents"])))
    except BonusError:
        raise
    except (KeyError, TypeError, ValueError) as err:
        raise BonusError(f"the round's bonus cannot be read: {err!r}") from None
