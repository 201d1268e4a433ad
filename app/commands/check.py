"""`paigow check "LOW | HIGH"`: is a player's setting a foul, and why."""

from __future__ import annotations

import argparse

from app.core.cards import parse_cards
from app.core.hands import Setting, foul_reason

from .common import InputError, add_hand_arguments, hand_rules, run_lines

NAME = "check"
HELP = 'check a setting written "LOW | HIGH" (two cards | five cards) for a foul'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_hand_arguments(parser, metavar="SPLIT")


def run(args: argparse.Namespace) -> int:
    rules = hand_rules(args)

    def handle(line: str) -> tuple[dict[str, object], str]:
        if line.count("|") != 1:
            raise InputError(f"{line!r} has no single '|': write the two-card hand, '|', "
                             "then the five-card hand, e.g. \"KS QD | AS AH 7C 5D 2H\"")
        low_text, high_text = line.split("|")
        parse_cards(low_text + " " + high_text)  # a card on both sides is bad input
        setting = Setting.of(parse_cards(low_text), parse_cards(high_text))
        reason = foul_reason(setting, rules=rules)
        obj = {"low": [str(c) for c in setting.low], "high": [str(c) for c in setting.high],
               "foul": reason is not None, "reason": reason}
        text = f"{setting}: " + (f"FOUL: {reason}" if reason else "legal")
        return obj, text

    return run_lines(args, handle)
