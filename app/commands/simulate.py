"""`paigow simulate`: the house edge of a House Way, by playing N rounds of a player
against the bank, both setting the House Way, with the table's commission."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.core.analysis.simulate import Player, SimulationError, simulate
from app.core.hands import HandRules
from app.core.house_way import HouseWay
from app.core.house_way.table import cores, table_of
from app.settings import ConfigError

from .table_options import (
    OptionError,
    add_table_arguments,
    on_a_terminal,
    positive_int,
    report_error,
    table_choice,
)

if TYPE_CHECKING:
    from tqdm import tqdm

# From this many rounds the numpy engine plays; fewer are played by the standard library's
# loop, which needs no numpy. Both read the card's table, and the choice depends on the
# rounds alone, so a seed gives the same figures every time.
VECTOR_FROM = 1_000_000

NAME = "simulate"
HELP = ("play N rounds of a player against the bank, both setting the House Way: win, push "
        "and loss rates, the house edge with its 95%% interval, copies")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=positive_int, default=1_000_000, metavar="N",
                        help="rounds to play (default: 1,000,000)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the same seed gives the same figures (default: 0)")
    parser.add_argument("--workers", type=positive_int, default=None, metavar="K",
                        help=f"processes to play in (default: every core, {cores()} here)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_table_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        table = table_choice(args)
    except (ConfigError, OptionError) as err:
        return report_error(NAME, err)
    bar = None
    if on_a_terminal():
        try:
            from tqdm import tqdm
        except ImportError:  # the station extra is not installed: no bar, same figures
            pass
        else:
            bar = tqdm(total=args.hands, unit="round", unit_scale=True, file=sys.stderr,
                       desc="simulate", leave=False)
    player = None
    if args.hands >= VECTOR_FROM:
        if not numpy_installed():
            return numpy_missing(NAME, f"{args.hands:,} rounds (from {VECTOR_FROM:,} on)",
                                 "; fewer, such as --hands 100000, are played without it "
                                 "(about 10,000 rounds a second a core)")
        player = vector_player(table.way, table.dealer_way, table.rules)
    try:
        result = simulate(args.hands, way=table.way, dealer_way=table.dealer_way,
                          seed=args.seed, workers=args.workers, policy=table.policy,
                          wager=table.wager, rules=table.rules,
                          progress=_advance(bar) if bar is not None else None, player=player)
    except SimulationError as err:
        return report_error(NAME, err)
    finally:
        if bar is not None:
            bar.close()
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.text())
    return 0


def numpy_installed() -> bool:
    """numpy, the analysis extra, is there for the numpy engine (app/commands/vectors.py)."""
    try:
        from . import vectors  # noqa: F401
    except ImportError:
        return False
    return True


ANALYSIS_EXTRA = ("pip install 'paigow-station[analysis]' (in a checkout: "
                  "pip install -e '.[analysis]')")


def numpy_missing(command: str, what: str, otherwise: str = "") -> int:
    """Refuse many rounds without numpy, saying what to install: the standard library's loop
    would play them to the same odds, but for many minutes to hours."""
    print(f"paigow {command}: {what} are played by the numpy engine, and numpy (the analysis "
          f"extra) is not installed: {ANALYSIS_EXTRA}{otherwise}", file=sys.stderr)
    return 2


def vector_player(way: HouseWay, dealer_way: HouseWay, rules: HandRules) -> Player | None:
    """The numpy engine (app/commands/vectors.py), both cards' tables ready (built once a
    card, said on stderr); None without numpy (the standard library's `play` then, slower,
    to the same odds)."""
    for card in {way.name: way, dealer_way.name: dealer_way}.values():
        table_of(card, rules, say=lambda text: print(f"paigow: {text}", file=sys.stderr,
                                                     flush=True))
    try:
        from . import vectors
    except ImportError:
        return None
    return vectors.play


def _advance(bar: tqdm[Any]) -> Callable[[int], None]:
    """The bar moved on by the rounds each report says were played."""
    def advance(rounds: int) -> None:
        bar.update(rounds)
    return advance
