"""`paigow edge`: the house edge of each House Way card, both the player and the bank
setting it, to the precision asked (0.01% by default: about 220 million rounds a card, a
few minutes on two cores with the numpy engine), beside the published figures."""

from __future__ import annotations

import argparse
import json
import math
import sys

from app.core.analysis.simulate import Simulation, SimulationError, simulate
from app.core.house_way import WAYS, HouseWay, house_way, joker_misfit
from app.core.house_way.table import cores
from app.settings import ConfigError

from .simulate import numpy_installed, numpy_missing, vector_player
from .table_options import (
    OptionError,
    add_config_argument,
    fit_the_joker,
    on_a_terminal,
    positive_int,
    report_error,
    table_choice,
)

NAME = "edge"
HELP = ("the house edge of each House Way card (player and bank both setting it) to a "
        "precision, beside the published figures")

# Wizard of Odds, Pai Gow Poker: the player and the banker both setting the house way,
# a 5% commission on wins (win, push, loss and the house edge).
PUBLISHED = {"source": "Wizard of Odds (both hands set the house way, 5% commission)",
             "win": 0.2861, "push": 0.4148, "lose": 0.2991, "house_edge": 0.0272}
Z95 = 1.959964
SPREAD = 0.76  # a round's standard deviation in units wagered (0.746 measured): sizes runs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--way", action="append", metavar="CARD",
                        help="a card to measure (again for more; default: every built-in "
                             "card the table's joker can play)")
    parser.add_argument("--precision", type=_percent, default=0.0001, metavar="PCT",
                        help="half the width of the 95%% interval of each edge (default: "
                             "0.01%%; 0.1%% takes a hundredth of the time)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the same seed gives the same figures (default: 0)")
    parser.add_argument("--workers", type=positive_int, default=None, metavar="K",
                        help=f"processes to play in (default: every core, {cores()} here)")
    parser.add_argument("--wager", metavar="DOLLARS",
                        help="the wager each round, for the commission's rounding "
                             "(default: the table minimum)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_config_argument(parser)


def _percent(text: str) -> float:
    try:
        value = float(text.strip().rstrip("%")) / 100
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a percentage such as 0.01%")\
            from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0% and 100%")
    return value


def rounds_for(precision: float) -> int:
    """Rounds for a 95% interval of +-precision (rounded up to a million)."""
    n = (Z95 * SPREAD / precision) ** 2
    return max(1_000_000, math.ceil(n / 1_000_000) * 1_000_000)


def run(args: argparse.Namespace) -> int:
    try:
        base = table_choice(argparse.Namespace(config=args.config, wager=args.wager))
        names = args.way or [n for n in WAYS if joker_misfit(n, base.rules.joker) is None]
        cards: list[HouseWay] = []
        for name in names:
            try:
                card = house_way(name)
            except KeyError as e:
                raise OptionError(str(e.args[0])) from None
            fit_the_joker(card, base.rules)
            cards.append(card)
    except (ConfigError, OptionError) as err:
        return report_error(NAME, err)
    rounds = rounds_for(args.precision)
    if not numpy_installed():
        return numpy_missing(NAME, f"{rounds:,} rounds a card")
    if not args.json:
        print(f"House edge, player and bank both setting the card, {base.policy} commission "
              f"on wins; {rounds:,} rounds a card for a 95% interval of "
              f"±{args.precision:.4%}:", flush=True)
    results: list[Simulation] = []
    for card in cards:
        player = vector_player(card, card, base.rules)
        bar = _bar(rounds, card.name)
        try:
            result = simulate(rounds, way=card, seed=args.seed, workers=args.workers,
                              policy=base.policy, wager=base.wager, rules=base.rules,
                              progress=bar.update if bar is not None else None,
                              player=player)
        except SimulationError as err:
            return report_error(NAME, err)
        finally:
            if bar is not None:
                bar.close()
        results.append(result)
        if not args.json:
            print(_line(result), flush=True)
    if args.json:
        print(json.dumps({"published": PUBLISHED, "precision": args.precision,
                          "cards": [r.to_dict() for r in results]}, indent=2))
    else:
        p = PUBLISHED
        print(f"  {'published':<14} {p['house_edge']:8.2%}            win {p['win']:.2%}  "
              f"push {p['push']:.2%}  loss {p['lose']:.2%}   ({p['source']})")
    return 0


def _line(r: Simulation) -> str:
    low, high = r.house_edge_interval
    return (f"  {r.way:<14} {r.house_edge:8.4%} ± {(high - low) / 2:.4%}  win {r.win_rate:.2%}"
            f"  push {r.push_rate:.2%}  loss {r.loss_rate:.2%}   "
            f"({r.rounds_per_second:,.0f} rounds/s)")


def _bar(total: int, name: str):  # type: ignore[no-untyped-def]
    if not on_a_terminal():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="round", unit_scale=True, file=sys.stderr, desc=name,
                leave=False)
