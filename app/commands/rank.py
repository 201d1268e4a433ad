"""`paigow rank`: the rank of a five- or two-card hand, or the best five of seven."""

from __future__ import annotations

import argparse

from app.core.cards import Card, cards_text, parse_cards, sort_cards
from app.core.hands import category_of, describe, ranker

from .common import add_hand_arguments, hand_rules, run_lines

NAME = "rank"
HELP = ("rank a 5- or 2-card hand (larger strength wins, equal is a copy); "
        "given 7 cards, rank the best five")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_hand_arguments(parser)


def run(args: argparse.Namespace) -> int:
    rules = hand_rules(args)
    r = ranker(rules)

    def handle(line: str) -> tuple[dict[str, object], str]:
        cards = parse_cards(line, count=(2, 5, 7))
        best: tuple[Card, ...] = ()
        if len(cards) == 7:
            strength, best = r.best5(cards)
        else:
            strength = r.rank(cards)
        description = describe(strength, rules.wheel)
        obj: dict[str, object] = {
            "cards": [str(c) for c in cards],
            "category": category_of(strength).label,
            "description": description,
            "strength": strength,
        }
        text = f"{cards_text(cards)}: {description} (strength {strength})"
        if best:
            obj["best"] = [str(c) for c in sort_cards(best)]
            text += f", best five {cards_text(sort_cards(best))}"
        return obj, text

    return run_lines(args, handle)
