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
from ..hands import DEFAULT_RULES, HandRules, JokerRule
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


def written_for(way: str | HouseWay) -> JokerRule:
    """The joker a card reads: "fully-wild" for a card written for a fully wild joker,
    else "bug" (the other built-in cards and every card file read it as an ace that
    completes straights and flushes)."""
    return hand_rules_for(way, HandRules(joker="bug")).joker


def cards_for(joker: JokerRule) -> list[str]:
    """The built-in cards written for this joker (card files all read a bug)."""
    return [name for name in WAYS if written_for(name) == joker]


def joker_misfit(way: str | HouseWay, joker: JokerRule) -> str | None:
    """Why a table whose joker is `joker` cannot play this card, or None when it fits.

    A card read under a joker it was not written for plays a different game: the standard
    card at a fully wild table sets 9S 9H JK KC 7H 4S 2D as king-nine high in front, where
    the joker makes three nines. A round's rules as stored are not checked (a past round
    replays as it was played); the config and the commands refuse a table like that."""
    card = house_way(way) if isinstance(way, str) else way
    if written_for(card) == joker:
        return None
    if joker == "fully-wild":
        fits = ", ".join(f'"{n}"' for n in cards_for("fully-wild"))
        return (f'the "{card.name}" House Way reads the joker as an ace that only completes '
                f"straights and flushes, so it wastes a fully wild joker (it splits the nines "
                f"of 9S 9H JK KC 7H 4S 2D, which the joker makes three of); the House Way "
                f"cards for a fully wild joker are: {fits}")
    return f'the "{card.name}" House Way plays the joker as any card, not as a bug'


def set_house_way(cards: Iterable[Card], way: str | HouseWay = "standard",
                  rules: HandRules = DEFAULT_RULES) -> HouseWaySetting:
    card = house_way(way) if isinstance(way, str) else way
    return card.set(cards, rules)


__all__ = ["SHIPPED_CARDS", "WAYS", "CardFileError", "HouseWay", "HouseWayError",
           "HouseWaySetting", "Rule", "Section", "card_files", "card_names", "cards_for",
           "hand_rules_for", "house_way", "joker_misfit", "set_house_way", "use_site_cards",
           "written_for"]
