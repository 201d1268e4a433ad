"""`paigow house-way`: set seven cards the House Way and name the rule that did it."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from app.core.hands import HandRules
from app.core.house_way import WAYS, CardFileError, HouseWay

from .common import add_hand_arguments, hand_rules, rule_card

if TYPE_CHECKING:
    from app.core.house_way.audit import Dominated

NAME = "house-way"
HELP = "set 7 cards the House Way (or --list a rule card)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_hand_arguments(parser, table_default="the table's")
    parser.add_argument("--config", metavar="FILE",
                        help="the site's table config over config/default.toml "
                             "(default: $PAIGOW_CONFIG): its House Way card, joker and wheel "
                             "are used unless --way, --joker or --wheel say otherwise")
    parser.add_argument("--way", metavar="CARD",
                        help="the rule card: a built-in name, a card file's name (config/"
                             "house-ways/NAME.toml) or a .toml path (default: the table's "
                             "House Way; --list without cards names them all)")
    parser.add_argument("--list", action="store_true", help="print the rule card in full")
    parser.add_argument("--check", metavar="CARD",
                        help="check a card file (or any card) over all 154,143,080 seven-card "
                             "hands (a minute or more on one core): a row that never fires, "
                             "a row whose play would foul a hand, a hand no row sets")
    parser.add_argument("--same-as", metavar="CARD",
                        help="with --check: also show every hand the two cards set "
                             "differently (the front or the row)")
    parser.add_argument("--audit", metavar="CARD",
                        help="read the card over all 154,143,080 seven-card hands (about "
                             "30-60 seconds on one core) and list every row that sets some "
                             "hand weaker than another legal setting of it (a front and a "
                             "back as strong, one stronger), with how often and an example")


def find(name: str) -> HouseWay | None:
    """The card, or None after saying on stderr what is wrong and what to do."""
    from app.core.house_way import card_names, house_way

    try:
        return house_way(name)
    except KeyError:
        print(f"paigow: there is no House Way called {name!r}: the cards are "
              f"{', '.join(card_names())} (or give the path of a .toml card file)",
              file=sys.stderr)
    except CardFileError as err:
        print(f"paigow: the card {name!r} cannot be used:\n{err}", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    if args.check:
        return check(args.check, args.same_as, hand_rules(args))
    if args.audit:
        if find(args.audit) is None:
            return 2
        return audit(args.audit, hand_rules(args), args.json)
    chosen = card_and_rules(args)
    if isinstance(chosen, int):
        return chosen
    card, rules = chosen
    if args.list:
        sys.stdout.write(card_text(card))
        return 0
    from app.core.house_way.table import kept

    from .answer import answer_hands

    # A stream of hands is looked up in the card's table when it is kept (the shipped
    # cards' are built at install: python -m app.cache); else, and for a hand given as
    # arguments, the card sets each hand: the same settings. A build pays only over
    # hundreds of thousands of hands, so a command never waits for one.
    table = None if args.cards else kept(card, rules)
    return answer_hands(args, card, rules, table)



def card_and_rules(args: argparse.Namespace) -> tuple[HouseWay, HandRules] | int:
    """The card and hand rules the command uses: the options', else the table's; or the
    exit code after saying what is wrong."""
    way: HouseWay | None = None
    if args.way is not None:
        way = find(args.way)
        if way is None:
            return 2
    rules = hand_rules(args)
    if way is None or args.joker is None or args.wheel is None:
        shipped = None if getattr(args, "config", None) else shipped_rules()
        table_way: HouseWay
        if shipped is not None:
            table_way, table_hands = shipped
        else:
            # What the options leave out is the table's: its card and its hand rules. (The
            # config, and pydantic with it, is read only then.)
            from app.settings import ConfigError

            from .table_options import report_error, table_rules

            try:
                table = table_rules(args)
            except ConfigError as err:
                return report_error(NAME, err)
            table_way, table_hands = table.house_way, table.hands
        way = way or table_way
        rules = hand_rules(args, table_hands)
    if rules.joker == "fully-wild":
        # A card that reads the joker as a bug would waste a wild one (the card written for
        # the wild joker plays it whatever --joker says, so only this way round is refused).
        from app.core.house_way import cards_for, joker_misfit

        misfit = joker_misfit(way, rules.joker)
        if misfit is not None:
            print(f"paigow house-way: {misfit}: give "
                  + " or ".join(f"--way {n}" for n in cards_for("fully-wild"))
                  + " (or --joker bug)", file=sys.stderr)
            return 2
    return way, rules


def shipped_rules() -> tuple[HouseWay, HandRules] | None:
    """The table's card and hand rules when the table is the shipped config/default.toml
    unchanged (no site file, no PAIGOW_<SECTION>__<KEY> in the environment), read without
    the settings' models: a command with one hand answers in a blink. None otherwise (the
    settings read the config then). tests/test_cli_table_config.py checks it against them."""
    if os.environ.get("PAIGOW_CONFIG") or any(
            k.startswith("PAIGOW_") and "__" in k for k in os.environ):
        return None
    import tomllib
    from pathlib import Path

    try:
        path = Path(__file__).resolve().parents[2] / "config" / "default.toml"
        rules = tomllib.loads(path.read_text(encoding="utf-8"))["rules"]
        hands = HandRules(rules.get("joker", "bug"), rules.get("wheel", "second"))
        # The shipped card left unnamed is chosen by the joker (settings.RulesSection).
        way = "fully-wild" if hands.joker == "fully-wild" else rules["house_way"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if way not in WAYS:
        return None
    from app.core.house_way import house_way

    return house_way(way), hands


def card_text(card: HouseWay) -> str:
    out = [card.title, f"Source: {card.source}", ""]
    for section in card.sections:
        out.append(section.title.upper())
        for rule in section.rules:
            out.append(f"  {rule.id:<8} {rule.says}")
            if rule.steps:
                out.append(f"  {'':<8} (steps: {', '.join(s.id for s in rule.steps)})")
        out.append("")
    if card.notes:
        out.append("How this card is read:")
        out.extend(f"  - {n}" for n in card.notes)
    return "\n".join(out) + "\n"


def check(name: str, same_as: str | None, rules: HandRules) -> int:
    """The full check of a card over every hand: 0 when nothing is wrong, 1 with each
    problem named by its row, 2 when the card (or --same-as) cannot even be read."""
    from app.core.classes import ALL_HANDS
    from app.core.house_way.card_file import check_card

    card = find(name)
    other = find(same_as) if same_as else None
    if card is None or (same_as and other is None):
        return 2
    print(f"Checking {card.title} over all {ALL_HANDS:,} hands (a minute or more)...",
          file=sys.stderr, flush=True)
    found = check_card(card, rules, same_as=other)
    if found.problems:
        print("\n".join(found.problems))
        print(f"{len(found.problems)} problems: correct the card and check it again.")
        return 1
    fires = sum(1 for r in card.rules if found.reach.get(r.id))
    also = f"; every hand set as {other.name} sets it" if other else ""
    print(f"{card.title}: over all {found.hands:,} hands every hand is set, {fires} of "
          f"{len(card.rules)} rows fire (the others are marked unreachable), no row's play "
          f"would foul a hand it is asked to set{also}.")
    return 0


def audit(way: str, rules: HandRules, as_json: bool) -> int:
    """Every row of the card that gives up strength on some hands, most hands first."""
    from app.core.cards import cards_text
    from app.core.classes import ALL_HANDS
    from app.core.house_way.audit import share, survey

    found = survey([way], rules, audit=True)[way]
    reach = found.reach
    rows = sorted(found.dominated.values(), key=lambda d: -d.hands)
    if as_json:
        print(json.dumps({"card": way, "hands": ALL_HANDS,
                          "rows": [_row_json(d, reach[d.row]) for d in rows]}))
        return 0
    title = rule_card(way).title
    if not rows:
        print(f"{title}: on all {ALL_HANDS:,} hands no row sets a hand weaker than another "
              "legal setting of it.")
        return 0
    total = sum(d.hands for d in rows)
    print(f"{title}: {len(rows)} rows set some hands weaker than another legal setting "
          f"({total:,} of {ALL_HANDS:,} hands, {share(total)}). The card decides; these "
          "are the hands where a front and a back at least as strong, one stronger, exist.")
    for d in rows:
        print(f"\n{d.row}  {d.says}\n"
              f"  {d.hands:,} hands ({share(d.hands)} of all; {d.hands / reach[d.row]:.1%} "
              f"of the {reach[d.row]:,} this row sets)\n"
              f"  e.g. {cards_text(d.example)}: the card sets {d.played}, "
              f"better {d.better}")
    return 0


def _row_json(d: Dominated, fired: int) -> dict[str, object]:
    from app.core.classes import ALL_HANDS

    assert d.played is not None and d.better is not None
    return {"row": d.row, "says": d.says, "hands": d.hands, "share": d.hands / ALL_HANDS,
            "row_hands": fired, "example": [str(c) for c in d.example],
            "played": {"low": [str(c) for c in d.played.low],
                       "high": [str(c) for c in d.played.high]},
            "better": {"low": [str(c) for c in d.better.low],
                       "high": [str(c) for c in d.better.high]}}
