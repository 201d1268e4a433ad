"""`paigow advise CARDS`: every legal setting of a seven-card hand with its value against
the dealer's House Way, the House Way's setting marked and what it gives up."""

from __future__ import annotations

import argparse

from app.core.analysis.advise import AdviceError, advise
from app.core.cards import parse_cards
from app.settings import ConfigError

from .common import InputError, run_lines
from .table_options import OptionError, add_table_arguments, report_error, table_choice

NAME = "advise"
HELP = ("every legal setting of 7 cards with its expected value against the dealer's House "
        "Way (commission included), the House Way's marked")


def _error(text: str) -> float:
    try:
        value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number like 0.01 or 1%") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0 and 1 (or 0% and 100%)")
    return value


MAX_SAMPLES = 10_000_000  # about a minute of work: past it the answer is no better


def _samples(text: str) -> int:
    try:
        value = float(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of dealer hands") from None
    # The range first: int() of an infinity raises, and NaN is outside every range.
    if not 1 <= value <= MAX_SAMPLES or value != int(value):
        raise argparse.ArgumentTypeError(f"{text!r}: draw from 1 to {MAX_SAMPLES:,} dealer "
                                         f"hands (--error sets the precision instead)")
    return int(value)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="*", metavar="CARDS",
                        help="7 cards such as AS KD 9H 7C 5D 3S JK; none: one hand per line "
                             "on stdin")
    parser.add_argument("--error", type=_error, default=0.01,
                        help="draw dealer hands until every setting's standard error is at "
                             "most this, per unit wagered (default: 0.01, i.e. 1%%)")
    parser.add_argument("--samples", type=_samples, default=None, metavar="N",
                        help=f"draw exactly N dealer hands instead (at most {MAX_SAMPLES:,})")
    parser.add_argument("--seed", type=int, default=0,
                        help="the same hand, seed and error give the same figures")
    parser.add_argument("--json", action="store_true", help="one JSON object per hand")
    add_table_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        table = table_choice(args)
    except (ConfigError, OptionError) as err:
        return report_error(NAME, err)

    def handle(line: str) -> tuple[dict[str, object], str]:
        cards = parse_cards(line, count=7)
        try:
            advice = advise(cards, way=table.way, dealer_way=table.dealer_way,
                            rules=table.rules, policy=table.policy, wager=table.wager,
                            error=args.error, samples=args.samples, seed=args.seed)
        except AdviceError as err:
            raise InputError(str(err)) from None
        return advice.to_dict(), advice.text()

    return run_lines(args, handle)
