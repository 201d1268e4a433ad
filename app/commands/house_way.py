"""`paigow house-way`: set seven cards the House Way and name the rule that did it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.core.cards import parse_cards
from app.core.house_way import WAYS, HouseWay, house_way

from .common import add_hand_arguments, hand_rules, run_lines

NAME = "house-way"
HELP = "set 7 cards the House Way (or --list a rule card)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_hand_arguments(parser)
    parser.add_argument("--way", choices=tuple(WAYS), default="standard",
                        help="the rule card (default: standard)")
    parser.add_argument("--list", action="store_true", help="print the rule card in full")


def run(args: argparse.Namespace) -> int:
    card = house_way(args.way)
    if args.list:
        sys.stdout.write(card_text(card))
        return 0
    rules = hand_rules(args)

    def handle(line: str) -> tuple[dict[str, Any], str]:
        result = card.set(parse_cards(line, count=7), rules)
        obj = {"low": [str(c) for c in result.low], "high": [str(c) for c in result.high],
               "rule": result.rule.id, "says": result.rule.says,
               "step": result.step.id if result.step else None, "section": result.rule.section}
        named = result.rule.id + (f" -> {result.step.id}" if result.step else "")
        return obj, f"{result.setting}   [{named}] {result.says}"

    return run_lines(args, handle)


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
