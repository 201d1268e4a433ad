"""A linked progressive jackpot: one meter fed by every linked table's $1 wagers and taken
by a big hand (issue 27, docs/progressive.md). Pure: the ledger keeps the meter and applies
these rules under the meter row's lock.

- `progressive_card(name)` / `load_progressive_card(path)`: a `ProgressiveCard` (the wager,
  the shares, the seed and reset, the pay table, the linked tables), or a
  `ProgressiveCardError` naming the file, the line and what to write.
- `contribute(card, wagers)`: where a round's wagers go; `add(meter, contribution)`.
- `take_hits(card, meter, categories)`: one round's hits, each with the meter before and
  after and where the money came from.
"""

from .card import ProgressiveCard, ProgressiveCardError, ProgressivePay, Reset, TwoHits
from .card_data import progressive_from_data, progressive_to_data
from .card_file import load_progressive_card
from .meter import Contribution, Hit, Meter, MeterError, add, contribute, opening, take_hits
from .shipped import (
    SHIPPED_PROGRESSIVES,
    progressive_card,
    progressive_card_names,
    site_progressive_folders,
    use_site_progressives,
)

__all__ = [
    "SHIPPED_PROGRESSIVES", "Contribution", "Hit", "Meter", "MeterError", "ProgressiveCard",
    "ProgressiveCardError", "ProgressivePay", "Reset", "TwoHits", "add", "contribute",
    "load_progressive_card", "opening", "progressive_card", "progressive_card_names",
    "progressive_from_data", "progressive_to_data", "take_hits", "site_progressive_folders",
    "use_site_progressives",
]
