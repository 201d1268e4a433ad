"""What every `paigow` subcommand shares: hands from arguments or stdin, one result per
line, `--json`, and errors a dealer can act on (exit 2, never a traceback)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Mapping

from app.core.cards import CardError
from app.core.hands import DEFAULT_RULES, HandRules
from app.core.house_way import HouseWay, HouseWayError, house_way

# A line's answer: its JSON object (--json) and its text.
Handler = Callable[[str], tuple[Mapping[str, object], str]]


class InputError(ValueError):
    """A line of input that is not what the command takes."""


def add_hand_arguments(parser: argparse.ArgumentParser, metavar: str = "CARDS", *,
                       table_default: str = "the shipped table's") -> None:
    parser.add_argument("cards", nargs="*", metavar=metavar,
                        help="cards such as AS KD 10H JK; none: read one hand per line on stdin")
    parser.add_argument("--json", action="store_true", help="one JSON object per input line")
    parser.add_argument("--joker", choices=("bug", "fully-wild"), default=None,
                        help=f"the joker is a bug (ace, or completes straights and flushes) "
                             f"or fully wild (default: {table_default}, {DEFAULT_RULES.joker})")
    parser.add_argument("--wheel", choices=("second", "lowest"), default=None,
                        help=f"where A-2-3-4-5 ranks among straights (default: "
                             f"{table_default}, {DEFAULT_RULES.wheel})")


def rule_card(name: str) -> HouseWay:
    """An argparse type: the House Way card a name stands for, found as the config finds
    it (an unknown name lists the cards there are)."""
    try:
        return house_way(name)
    except KeyError as e:
        raise argparse.ArgumentTypeError(str(e.args[0])) from None


def hand_rules(args: argparse.Namespace, table: HandRules = DEFAULT_RULES) -> HandRules:
    """The hand rules the options give, each one not given as `table` has it."""
    return HandRules(joker=args.joker or table.joker, wheel=args.wheel or table.wheel)


def lines(args: argparse.Namespace) -> Iterator[str]:
    if args.cards:
        yield " ".join(args.cards)
        return
    if sys.stdin.isatty():  # a person at a terminal, not a pipe: say what we wait for
        print(f"paigow {args.command}: reading hands from the keyboard, one per line (such as "
              f"AS KD TH 9C 5S 3D JK); Ctrl-D ends. Or give the cards as arguments.",
              file=sys.stderr, flush=True)
    for line in sys.stdin:
        if line.strip():
            yield line.strip()


def run_lines(args: argparse.Namespace, handle: Handler) -> int:
    """Answer each input line in order; a bad line is reported and the rest go on."""
    code = 0
    for number, line in enumerate(lines(args), start=1):
        try:
            obj, text = handle(line)
        except HouseWayError as err:
            code = 2
            print(f"paigow: {err}: set this hand by hand and report it as a defect of the "
                  "rule card", file=sys.stderr, flush=True)
            continue
        except (CardError, InputError) as err:
            code = 2
            where = "" if args.cards else f"line {number}: "
            if args.json:
                print(json.dumps({"input": line, "error": str(err)}), flush=True)
            print(f"paigow: {where}{err}", file=sys.stderr, flush=True)
            continue
        print(json.dumps(obj) if args.json else text, flush=True)
    return code
