"""What the pit's analysis commands (simulate, advise, odds) share: the table's config
(commission, wager, joker and wheel, House Way), read once, and options over it."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from app.core.hands import HandRules
from app.core.house_way import HouseWay, cards_for, joker_misfit
from app.core.round_rules import RoundRules
from app.core.settlement import CommissionPolicy, MoneyError, parse_money
from app.settings import ConfigError, TableConfig, load_config

from .common import rule_card


class OptionError(ValueError):
    """An option the command cannot take: what and why."""


@dataclass(frozen=True, slots=True)
class TableChoice:
    """The table the analysis plays at: its config, with the command's options over it."""

    way: HouseWay
    dealer_way: HouseWay
    rules: HandRules
    policy: CommissionPolicy
    wager: int  # cents


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="the site's table config over config/default.toml "
                             "(default: $PAIGOW_CONFIG)")


def add_table_arguments(parser: argparse.ArgumentParser, *, ways: bool = True,
                        money: bool = True) -> None:
    add_config_argument(parser)
    if ways:
        parser.add_argument("--way", type=rule_card, metavar="CARD",
                            help="the player's House Way card (default: the table's)")
        parser.add_argument("--dealer-way", type=rule_card, metavar="CARD",
                            help="the bank's House Way card (default: the player's)")
    if money:
        parser.add_argument("--wager", metavar="DOLLARS",
                            help="the wager each round, for the commission's rounding "
                                 "(default: the table minimum)")


def table_choice(args: argparse.Namespace) -> TableChoice:
    """The config (shipped, site, environment) with the options over it; a bad config or
    option raises ConfigError or OptionError."""
    rules = table_rules(args)
    way = getattr(args, "way", None) or rules.house_way
    dealer_way = getattr(args, "dealer_way", None) or way
    for card in (way, dealer_way):
        fit_the_joker(card, rules.hands)
    wager = rules.limits.minimum
    if getattr(args, "wager", None) is not None:
        try:
            wager = parse_money(args.wager)
        except MoneyError as err:
            raise OptionError(f"--wager: {err}") from None
        if wager <= 0:
            raise OptionError(f"--wager: {args.wager!r} is not above zero")
    return TableChoice(way, dealer_way, rules.hands, rules.commission, wager)


def fit_the_joker(card: HouseWay, hands: HandRules) -> None:
    """Refuse a card written for another joker than the table's: it plays another game."""
    misfit = joker_misfit(card, hands.joker)
    if misfit is None:
        return
    if hands.joker == "fully-wild":
        raise OptionError(f"{misfit}: give " + " or ".join(
            f"--way {n}" for n in cards_for("fully-wild")) + ", or use a config whose joker "
            "is a bug")
    raise OptionError(f"{misfit}: use a config with joker = \"fully-wild\" (such as "
                      "config/cordova.toml)")


def table_config(args: argparse.Namespace) -> TableConfig:
    """The table's config: the shipped file, `--config FILE` (else $PAIGOW_CONFIG), the
    environment. A bad one raises ConfigError."""
    return load_config(getattr(args, "config", None))


def table_rules(args: argparse.Namespace) -> RoundRules:
    """The rules of a round at the table `--config` describes (its House Way card, hand
    rules, commission and limits), built where every command builds them."""
    return table_config(args).round_rules()


def report_error(command: str, err: Exception) -> int:
    """Say what was wrong, one line each, and give the exit code for bad input (2)."""
    for line in str(err).splitlines():
        where = "config: " if isinstance(err, ConfigError) else ""
        print(f"paigow {command}: {where}{line}", file=sys.stderr)
    return 2


def on_a_terminal() -> bool:
    """Both output streams are a terminal: a progress bar helps and harms nothing."""
    return sys.stdout.isatty() and sys.stderr.isatty()


def positive_int(text: str) -> int:
    """An argparse type: a whole number 1 or more (1_000_000 and 1,000,000 read too)."""
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not 1 or more")
    return value
