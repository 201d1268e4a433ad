"""House Way rule cards, found by name: `house_way("standard").set(cards)`.

A name is a built-in card (WAYS, written in Python) or a card file (TOML, card_file.py):
NAME.toml in the site's own house-ways folder (beside its config file, see
`use_site_cards`) or in the shipped config/house-ways/; a file whose name is a built-in
card's is named with its ending ("trump-plaza.toml"); a path to a .toml file is read as it
is. Built-in cards come first, then the site's files, then the shipped files.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import cast

from ..cards import Card
from ..hands import DEFAULT_RULES, HandRules
from .engine import CardFileError, HouseWay, HouseWayError, HouseWaySetting, Rule, Section

# Adding a casino's House Way adds a module here and one line below.
WAYS: dict[str, str] = {
    "standard": "standard",
    "delaware-park": "delaware_park",
    "trump-plaza": "trump_plaza",
    "fully-wild": "fully_wild",  # seed 004's fully wild joker; the card a wild table plays
}

# The card files shipped with the station (beside config/default.toml).
SHIPPED_CARDS = Path(__file__).resolve().parents[3] / "config" / "house-ways"
_site: list[Path] = []


def use_site_cards(folder: str | Path | None) -> None:
    """Look for card files in the site's own folder too (before the shipped ones), or no
    longer (None); the settings call this with the house-ways folder beside the site's
    config file. One site a process: a later call replaces the folder."""
    wanted = [] if folder is None else [Path(folder)]
    if _site != wanted:
        _site[:] = wanted
        house_way.cache_clear()


def card_folders() -> tuple[Path, ...]:
    return (*_site, SHIPPED_CARDS)


def card_files() -> dict[str, Path]:
    """Every card file a name can reach, by that name (the site's first)."""
    found: dict[str, Path] = {}
    for folder in card_folders():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            name = path.name if path.stem in WAYS else path.stem
            found.setdefault(name, path)
    return found


def card_names() -> list[str]:
    """Every name `house_way` takes: the built-in cards, then the card files."""
    return [*WAYS, *(n for n in card_files() if n not in WAYS)]


def _file_for(name: str) -> Path | None:
    """A card file by its name ("NAME" or "NAME.toml" in the folders), else by its path."""
    files = card_files()
    found = files.get(name) or files.get(name.removesuffix(".toml"))
    if found is None and name.endswith(".toml") and Path(name).is_file():
        found = Path(name)
    return found


@cache
def house_way(name: str) -> HouseWay:
    """The card called `name`; a card file is read and its words checked (a
    `CardFileError` names every problem); an unknown name is a KeyError listing the cards."""
    if name in WAYS:
        card: HouseWay = import_module(f"{__name__}.{WAYS[name]}").CARD
        return card
    path = _file_for(name)
    if path is None:
        raise KeyError(f"no House Way called {name!r}; the cards are: "
                       + ", ".join(card_names()))
    from .card_file import load_card  # the TOML reader only when a card file is named

    return load_card(path, name)


def hand_rules_for(way: str | HouseWay, rules: HandRules = DEFAULT_RULES) -> HandRules:
    """The rules a card's settings are played (and judged) under: the table's, except
    that a card written for one joker (`fully-wild`) always plays that joker."""
    card = house_way(way) if isinstance(way, str) else way
    played_under = getattr(card, "played_under", None)
    return rules if played_under is None else cast(HandRules, played_under(rules))


def set_house_way(cards: Iterable[Card], way: str | HouseWay = "standard",
                  rules: HandRules = DEFAULT_RULES) -> HouseWaySetting:
    card = house_way(way) if isinstance(way, str) else way
    return card.set(cards, rules)


__all__ = ["SHIPPED_CARDS", "WAYS", "CardFileError", "HouseWay", "HouseWayError",
           "HouseWaySetting", "Rule", "Section", "card_files", "card_names", "hand_rules_for",
           "house_way", "set_house_way", "use_site_cards"]
