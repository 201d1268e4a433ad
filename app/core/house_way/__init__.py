"""House Way rule cards, found by name: `house_way("standard").set(cards)`."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import import_module
from typing import cast

from ..cards import Card
from ..hands import DEFAULT_RULES, HandRules
from .engine import HouseWay, HouseWayError, HouseWaySetting, Rule, Section

# Adding a casino's House Way adds a module here and one line below.
WAYS: dict[str, str] = {
    "standard": "standard",
    "delaware-park": "delaware_park",
    "trump-plaza": "trump_plaza",
    "fully-wild": "fully_wild",  # seed 004's fully wild joker; the card a wild table plays
}


@cache
def house_way(name: str) -> HouseWay:
    if name not in WAYS:
        raise KeyError(f"no House Way called {name!r}; the cards are: {', '.join(WAYS)}")
    card: HouseWay = import_module(f"{__name__}.{WAYS[name]}").CARD
    return card


def hand_rules_for(way: str, rules: HandRules = DEFAULT_RULES) -> HandRules:
    """The rules a card's settings are played (and judged) under: the table's, except
    that a card written for one joker (`fully-wild`) always plays that joker."""
    card = house_way(way)
    played_under = getattr(card, "played_under", None)
    return rules if played_under is None else cast(HandRules, played_under(rules))


def set_house_way(cards: Iterable[Card], way: str = "standard",
                  rules: HandRules = DEFAULT_RULES) -> HouseWaySetting:
    return house_way(way).set(cards, rules)


__all__ = ["WAYS", "HouseWay", "HouseWayError", "HouseWaySetting", "Rule", "Section",
           "hand_rules_for", "house_way", "set_house_way"]
