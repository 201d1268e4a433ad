"""Where the program keeps what it can make again: the House Way tables
(app/core/house_way/table.py). `python -m app.cache [CARD ...]` builds the cards' tables now
(at install) rather than on their first use."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from app.core.house_way import WAYS, hand_rules_for, house_way
from app.core.house_way.table import path_of, table_of, use_cache_folder

APP_NAME = "paigow-station"  # as the ledger's data folder (app/ledger/paths.py)


def cache_dir() -> Path:
    """$PAIGOW_CACHE_DIR when set (a test, a bundle), else the user's cache folder."""
    given = os.environ.get("PAIGOW_CACHE_DIR")
    if given:
        return Path(given)
    import platformdirs  # here: only once a table is wanted (one hand set never asks)

    return platformdirs.user_cache_path(APP_NAME, appauthor=False)


def use_cache() -> None:
    """Keep the House Way tables, and what python-escpos reads of its printers, in the
    cache folder (each program calls this at start; the folder is looked up when a table
    or a printer is first wanted)."""
    from drivers.escpos_cache import keep_capabilities_in

    use_cache_folder(cache_dir)
    keep_capabilities_in(lambda: cache_dir() / "escpos")


def main(names: list[str]) -> int:
    use_cache()
    for name in names or WAYS:
        card = house_way(name)
        rules = hand_rules_for(card)
        table = table_of(card, rules, say=lambda text: print(text, flush=True))
        print(f"House Way table of {name}: {len(table):,} entries, kept in "
              f"{path_of(card, rules)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
