"""The progressive cards found by name: the shipped ones (cards/) and a site's own folders."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .card import ProgressiveCard, ProgressiveCardError
from .card_file import load_progressive_card

SHIPPED_PROGRESSIVES = Path(__file__).with_name("cards")
_site: list[Path] = []  # the casino's own folder, named by the station's config


def use_site_progressives(folder: str | Path | None) -> None:
    """Look for progressive cards in the casino's own folder too (after the shipped ones,
    so a file there overrides one of the same name), or no longer (None); the settings call
    this with `[progressive] cards_folder`. One site a process: a later call replaces it."""
    _site[:] = [] if folder is None or not str(folder).strip() else [Path(folder)]


def site_progressive_folders() -> tuple[Path, ...]:
    return tuple(_site)


def _files(folders: Iterable[Path]) -> dict[str, Path]:
    """Every card file by name; a site's folder (later) overrides the shipped one."""
    out: dict[str, Path] = {}
    for folder in (SHIPPED_PROGRESSIVES, *_site, *folders):
        for path in sorted(Path(folder).glob("*.toml")):
            out[path.stem] = path
    return out


def progressive_card_names(folders: Iterable[Path] = ()) -> list[str]:
    return list(_files(folders))


def progressive_card(name: str, folders: Iterable[Path] = ()) -> ProgressiveCard:
    """The progressive card called `name` (the shipped cards, then `folders`)."""
    folders = tuple(folders)
    path = _files(folders).get(name)
    if path is None:
        raise ProgressiveCardError([f"{name!r} is no progressive card: the cards are "
                                    f"{', '.join(progressive_card_names(folders))}"])
    return load_progressive_card(path)
