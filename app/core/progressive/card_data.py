"""A progressive card as a round keeps it among its rules (app/core/rules_data.py): every
value that decides a wager, a share and a pay, so a round read back is played by the card
it was played under, not by today's file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from ..bonus.categories import Category
from .card import ProgressiveCard, ProgressiveCardError, ProgressivePay, Reset, TwoHits


def progressive_to_data(card: ProgressiveCard) -> dict[str, object]:
    return {"name": card.name, "title": card.title, "source": card.source,
            "wager_cents": card.wager, "meter_bp": card.meter_bp,
            "reserve_bp": card.reserve_bp, "seed_cents": card.seed,
            "reset": card.reset.value, "two_hits": card.two_hits.value,
            "tables": list(card.tables), "order": [c.value for c in card.order],
            "pays": [[p.category.value, p.share_bp, p.fixed] for p in card.pays]}


def progressive_from_data(stored: Mapping[str, object]) -> ProgressiveCard:
    """The card a round was played under, as stored; ProgressiveCardError when unreadable."""
    data = cast(dict[str, object], stored)
    try:
        pays = cast(list[list[object]], data["pays"])
        return ProgressiveCard(
            str(data["name"]), str(data["title"]), str(data["source"]),
            int(cast(int, data["wager_cents"])), int(cast(int, data["meter_bp"])),
            int(cast(int, data["reserve_bp"])), int(cast(int, data["seed_cents"])),
            Reset(data["reset"]), TwoHits(data["two_hits"]),
            tuple(str(t) for t in cast(list[object], data["tables"])),
            tuple(Category(str(c)) for c in cast(list[object], data["order"])),
            tuple(ProgressivePay(Category(str(c)), cast("int | None", share),
                                 cast("int | None", fixed)) for c, share, fixed in pays))
    except (KeyError, TypeError, ValueError) as e:
        raise ProgressiveCardError([f"the round's progressive card cannot be read: {e!r}"]
                                   ) from None
