"""Side bets on a hand's seven cards: the Fortune bonus, its envy, and other bonuses whose
pay tables are data cards (docs/bonus.md).

The interface, for the station, the slip, the ledger and the floor:

- `Category`: every category a card may name (`.value` the card's word, `.label` the
  dealer's); `FORTUNE_CATEGORIES` the Fortune bonus's from the top; `made(cards, joker)`.
- `pay_card(name)` / `envy_card(name)` (the shipped cards in cards/, or a site's folders),
  `load_pay_card(path)` / `load_envy_card(path)`: a `PayCard` / `EnvyCard`, or a
  `BonusCardError` naming the file, the line and what to write.
- `settle_bonuses(hands, pay_card, envy_card, BonusRules(), joker)`: the round's
  `BonusLine`s and `EnvyLine`s in the order they are paid, per seat with `.seat(n)`, and
  `.waiting` (the lines a supervisor must approve). Bad input is a `BonusError`.
- `exact.bonus_odds(card)`: the exact counts over all 154,143,080 hands and the house edge.
"""

from .card_file import load_envy_card, load_pay_card
from .categories import FORTUNE_CATEGORIES, Category, made
from .paytable import BonusCardError, BonusError, EnvyCard, EnvyRow, PayCard, PayRow
from .settle import (
    BonusHand,
    BonusLine,
    BonusRules,
    BonusSettlement,
    EnvyLine,
    PayOrder,
    SeatBonus,
    settle_bonuses,
)
from .shipped import SHIPPED_CARDS, envy_card, envy_card_names, pay_card, pay_card_names

__all__ = [
    "FORTUNE_CATEGORIES", "SHIPPED_CARDS", "BonusCardError", "BonusError", "BonusHand",
    "BonusLine", "BonusRules", "BonusSettlement", "Category", "EnvyCard", "EnvyLine",
    "EnvyRow", "PayCard", "PayOrder", "PayRow", "SeatBonus", "envy_card", "envy_card_names",
    "load_envy_card", "load_pay_card", "made", "pay_card", "pay_card_names", "settle_bonuses",
]
