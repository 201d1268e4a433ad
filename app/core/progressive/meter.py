"""The meter's arithmetic, in integer cents, with nothing else in it: what a wager adds,
and what a hit takes (issue 27). The ledger applies these under the meter row's lock, so
the meter a hit sees is the one the last commit left.

Rules chosen where the issue leaves room (docs/progressive.md):
- A wager's shares are rounded down to the cent; the cents left over are the house's.
- A share of the meter is of the meter as it stands when the hit is taken, rounded down to
  the cent; the cent left stays on the meter.
- Fixed amounts are paid by the house, as the table pays its other bets; the meter pays
  only shares of itself.
- After a hit the meter never stays below its seed: the reserve tops it up, and the house
  puts up what the reserve lacks. Those moves are recorded with the hit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..bonus.categories import Category
from .card import WHOLE_METER_BP, ProgressiveCard, ProgressivePay, Reset, TwoHits


class MeterError(ValueError):
    """A move the meter cannot take: what is wrong."""


@dataclass(frozen=True, slots=True)
class Meter:
    """The jackpot shown (`amount`) and the reserve kept for the next seed, in cents."""

    amount: int
    reserve: int = 0


@dataclass(frozen=True, slots=True)
class Contribution:
    """Where `wagers` progressive wagers went."""

    wagers: int
    total: int
    to_meter: int
    to_reserve: int

    @property
    def to_house(self) -> int:
        return self.total - self.to_meter - self.to_reserve


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit taken from the meter: what it paid and where the money came from. The
    meter after = before - from_meter + from_reserve + from_house_seed."""

    category: Category
    paid: int
    from_meter: int
    from_house: int  # a fixed amount: the house pays it
    from_reserve: int  # moved onto the meter to bring it back to the seed
    from_house_seed: int  # what the house put up when the reserve fell short
    before: Meter
    after: Meter


def opening(card: ProgressiveCard) -> Meter:
    """A new meter: the seed, put up by the house, and an empty reserve."""
    return Meter(card.seed, 0)


def contribute(card: ProgressiveCard, wagers: int) -> Contribution:
    """The shares of `wagers` wagers of the card's amount; the cents left are the house's."""
    if wagers < 0:
        raise MeterError(f"a round has no fewer than 0 progressive wagers, not {wagers}")
    total = wagers * card.wager
    to_meter = total * card.meter_bp // WHOLE_METER_BP
    to_reserve = total * card.reserve_bp // WHOLE_METER_BP
    return Contribution(wagers, total, to_meter, to_reserve)


def add(meter: Meter, contribution: Contribution) -> Meter:
    return Meter(meter.amount + contribution.to_meter,
                 meter.reserve + contribution.to_reserve)


def take_hits(card: ProgressiveCard, meter: Meter, categories: Sequence[Category]
              ) -> tuple[Hit, ...]:
    """One round's hits, in the order from action, taken from `meter` as it stands.

    In order (the card's "in-order"): each takes its share of what the last one left, the
    meter brought back to the seed after each. Split: each takes its share of the meter as
    it stood before the round's first hit, divided among the round's hits of its category;
    the meter comes back to the seed once, after the last."""
    hits: list[Hit] = []
    now = meter
    shared = Counter(categories) if card.two_hits is TwoHits.SPLIT else None
    last_share = max((n for n, c in enumerate(categories) if _pay(card, c).share_bp), default=-1)
    for n, category in enumerate(categories):
        pay = _pay(card, category)
        if pay.share_bp is None:
            hits.append(Hit(category, pay.fixed or 0, 0, pay.fixed or 0, 0, 0, now, now))
            continue
        base, sharing = (meter.amount, shared[category]) if shared else (now.amount, 1)
        from_meter = min(base * pay.share_bp // WHOLE_METER_BP // sharing, now.amount)
        left = Meter(now.amount - from_meter, now.reserve)
        last = shared is None or n == last_share
        after, from_reserve, from_house = _reset(card, left) if last else (left, 0, 0)
        hits.append(Hit(category, from_meter, from_meter, 0, from_reserve, from_house, now,
                        after))
        now = after
    return tuple(hits)


def _pay(card: ProgressiveCard, category: Category) -> ProgressivePay:
    pay = card.pay(category)
    if pay is None:
        raise MeterError(f"{category.label} wins nothing on the progressive {card.title}")
    return pay


def _reset(card: ProgressiveCard, left: Meter) -> tuple[Meter, int, int]:
    """The meter after a hit left it at `left`, what the reserve and the house put on."""
    if card.reset is Reset.RESERVE and left.amount < card.seed:
        from_reserve = left.reserve
    else:
        from_reserve = min(left.reserve, max(0, card.seed - left.amount))
    amount = left.amount + from_reserve
    from_house = max(0, card.seed - amount)
    return Meter(amount + from_house, left.reserve - from_reserve), from_reserve, from_house
