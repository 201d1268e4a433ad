"""The answer lines of `paigow house-way`: each hand set by the card's table
(app/core/house_way/table.py), in text or JSON. `Answers.part` reads lines of seven plainly
typed cards and answers them through the table; answer.py gives it the input, and
answer_vectors.py answers a large file's plain lines in numpy as `part` does."""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Sequence
from itertools import product
from math import prod

from app.core.cards import DECK
from app.core.hands import HandRules
from app.core.house_way import HouseWay, HouseWaySetting
from app.core.house_way.engine import Rule
from app.core.house_way.table import (
    FIVE_OF_A_SUIT,
    PLACE,
    PLUS_THREE,
    PRIME,
    SUIT,
    Table,
    flush_places,
)


def _tokens() -> dict[str, int]:
    """Every way a card is typed that the quick reader takes (its text in any case) -> the
    card's place (table.PLACE: rank, then deck order; its index in the low six bits), so a
    hand's cards sort into place order by themselves."""
    out: dict[str, int] = {}
    for c in DECK:
        for chars in product(*((ch.upper(), ch.lower()) for ch in str(c))):
            out["".join(chars)] = PLACE[c.index]
    return out


TOKENS = _tokens()
# By place: the card's rank prime, its suit count and its text (the table's, by index).
BY_PLACE = max(PLACE) + 1
PRIME_AT = [0] * BY_PLACE
SUIT_AT = [0] * BY_PLACE
for _i, _p in enumerate(PLACE):
    PRIME_AT[_p], SUIT_AT[_p] = PRIME[_i], SUIT[_i]


class Answers:
    """The answer lines to hands, in text or JSON: `line` for any input line (None for a
    line that is not seven plainly typed cards), `setting` for a card's answer."""

    def __init__(self, card: HouseWay, rules: HandRules, table: Table | None,
                 as_json: bool) -> None:
        self.card, self.rules, self.table, self.as_json = card, rules, table, as_json
        names = [str(c) for c in DECK]
        self.names = [json.dumps(n) for n in names] if as_json else names
        self.by_place = [""] * BY_PLACE  # a card's text by its place
        for i, p in enumerate(PLACE):
            self.by_place[p] = self.names[i]
        # What follows the cards, by `row | step << 8` (as a table's entry holds them).
        self.tails = {n | k << 8: self._tail(rule, step)
                      for n, rule in enumerate(card.rules)
                      for k, step in enumerate((None, *rule.steps))}

    def _tail(self, rule: Rule, step: Rule | None) -> str:
        if self.as_json:
            return (f', "rule": {json.dumps(rule.id)}, "says": {json.dumps(rule.says)}, '
                    f'"step": {json.dumps(step.id if step else None)}, '
                    f'"section": {json.dumps(rule.section)}}}\n')
        named = rule.id + (f" -> {step.id}" if step else "")
        says = rule.says + (f" -> {step.id}: {step.says}" if step else "")
        return f"   [{named}] {says}\n"

    def cards_line(self, low: Sequence[str], high: Sequence[str]) -> str:
        """An answer's cards (their texts as `names` has them), before its tail."""
        if self.as_json:
            return f'{{"low": [{low[0]}, {low[1]}], "high": [{", ".join(high)}]'
        return f"{low[0]} {low[1]} | {' '.join(high)}"

    def setting(self, result: HouseWaySetting) -> str:
        """The answer line of the card's (or the table's) setting."""
        row = self.card.rules.index(result.rule)
        step = 0 if result.step is None else 1 + result.rule.steps.index(result.step)
        n = self.names
        return (self.cards_line([n[c.index] for c in result.low],
                                [n[c.index] for c in result.high])
                + self.tails[row | step << 8])

    def line(self, text: str) -> str | None:
        """The table's answer to seven plainly typed different cards, else None."""
        return self.part(text.encode()) or None

    def part(self, data: bytes) -> str | None:
        """The table's answers to whole lines of seven plainly typed different cards, or
        None when a line is anything else (blank lines are passed over)."""
        if self.table is None:
            return None
        # The table's lookup written out here, over cards' places: this loop is the speed
        # of a pipe's hands and of a file too small for numpy (answer_vectors.py).
        tokens, tails, names, cards_line = TOKENS, self.tails, self.by_place, self.cards_line
        prime, suit = PRIME_AT.__getitem__, SUIT_AT.__getitem__
        # A search of the sorted keys: a dict of the table was 0.7-1.7 us a hand quicker,
        # but making it took 0.3 s before any hand, more than it saves on such input.
        keys, column = self.table.keys, self.table.entries
        out = []
        try:
            for raw in data.decode("utf-8", "replace").splitlines():
                words = raw.split()
                if not words:
                    continue
                placed = sorted(map(tokens.__getitem__, words))
                if len(placed) != 7 or len(set(placed)) != 7:
                    return None
                key = prod(map(prime, placed)) << 7
                suits = sum(map(suit, placed))
                if (suits + PLUS_THREE) & FIVE_OF_A_SUIT:
                    key |= flush_places([p & 63 for p in placed], suits)
                e = column[bisect_left(keys, key)]
                a, b = placed[e & 7], placed[e >> 3 & 7]
                if a < b:
                    a, b = b, a
                placed.reverse()  # the back highest first
                placed.remove(a)
                placed.remove(b)
                out.append(cards_line((names[a], names[b]), [*map(names.__getitem__, placed)]))
                out.append(tails[e >> 6])
        except KeyError:  # a word that is not a plainly typed card
            return None
        return "".join(out)
