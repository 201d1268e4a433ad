"""The pay and envy cards found by name: the shipped ones (cards/) and a site's own folders."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from .card_file import load_envy_card, load_pay_card
from .paytable import BonusCardError, EnvyCard, PayCard

SHIPPED_CARDS = Path(__file__).with_name("cards")


def _files(folders: Iterable[Path]) -> dict[str, Path]:
    """Every card file by name; a site's folder (later) overrides the shipped one."""
    out: dict[str, Path] = {}
    for folder in (SHIPPED_CARDS, *folders):
        for path in sorted(Path(folder).glob("*.toml")):
            out[path.stem] = path
    return out


@cache
def _kind(path: Path) -> str:
    try:
        kind = tomllib.loads(path.read_text(encoding="utf-8")).get("kind", "bonus")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "bonus"  # a broken file is reported when it is loaded by name
    return str(kind)


def pay_card_names(folders: Iterable[Path] = ()) -> list[str]:
    return [n for n, p in _files(folders).items() if _kind(p) != "envy"]


def envy_card_names(folders: Iterable[Path] = ()) -> list[str]:
    return [n for n, p in _files(folders).items() if _kind(p) == "envy"]


def pay_card(name: str, folders: Iterable[Path] = ()) -> PayCard:
    """The bonus pay table called `name` (the shipped cards, then `folders`)."""
    folders = tuple(folders)
    path = _files(folders).get(name)
    if path is None or _kind(path) == "envy":
        what = "an envy table, not a bonus pay table" if path else "no bonus pay table"
        raise BonusCardError([f"{name!r} is {what}: the pay tables are "
                              f"{', '.join(pay_card_names(folders))}"])
    return load_pay_card(path)


def envy_card(name: str, folders: Iterable[Path] = ()) -> EnvyCard:
    """The envy table called `name` (the shipped cards, then `folders`)."""
    folders = tuple(folders)
    path = _files(folders).get(name)
    if path is None or _kind(path) != "envy":
        raise BonusCardError([f"{name!r} is no envy table: the envy tables are "
                              f"{', '.join(envy_card_names(folders))}"])
    return load_envy_card(path)
