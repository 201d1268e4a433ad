"""`paigow house-way`'s full answers: the card's table sets every hand that cannot make a
flush (app/core/house_way/tables.py), its flush entries (when kept) those that can, the
card itself any hand no table answers and any line the fast reader does not take (`10H`,
suit glyphs, commas, a mistake: read by `parse_cards`, which names what is wrong). The
output is the card's, line for line, byte for byte (tests/test_cli_house_way_speed.py).

A stream of plainly typed hands is answered a chunk at a time from the card's pack
(app/commands/house_way_fast.py), which the command reads before importing any of this
when it can; this module answers what the pack does not, in input order.

Input is read as it comes (`os.read` returns what the pipe holds, at least one line's
worth), and the answers to everything read are written in one go: a file of hands is
answered in large chunks, and a hand fed through a pipe one at a time is answered at once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import product
from math import prod
from typing import TYPE_CHECKING, Any

from app.core.cards import DECK, CardError, parse_cards
from app.core.hands import HandRules
from app.core.house_way import HouseWay, HouseWayError
from app.core.house_way.tables import (
    FIVE_OF_A_SUIT,
    NO_ENTRY,
    PLACE,
    PLUS_THREE,
    PRIME,
    SUIT,
    FlushEntries,
    SettingTable,
    shape_key,
)

from .common import InputError
from .house_way_fast import LINE

if TYPE_CHECKING:
    from .house_way_fast import Pack

CHUNK = 1 << 20  # a read of a file; a pipe gives what it holds (64 KiB at most)


def _tokens() -> dict[str, int]:
    """Every way a card is typed that the fast reader takes: its text in any case."""
    out: dict[str, int] = {}
    for c in DECK:
        text = str(c)
        for chars in product(*((ch.upper(), ch.lower()) for ch in text)):
            out["".join(chars)] = c.index
    return out


TOKENS = _tokens()
TEXT = tuple(str(c) for c in DECK)
QUOTED = tuple(json.dumps(t) for t in TEXT)


def _tails(table: SettingTable, as_json: bool) -> dict[int, str]:
    """What follows the cards in an answer, for every row and step of the card (keyed as
    the table's entries are, `row | step << 8`)."""
    out: dict[int, str] = {}
    for number, row in enumerate(table.rows):
        for step in range(len(row.steps) + 1):
            named, says = row.id, row.says
            step_id = None
            if step:
                step_id, step_says = row.steps[step - 1]
                named += f" -> {step_id}"
                says = f"{row.says} -> {step_id}: {step_says}"
            if as_json:
                out[number | step << 8] = (
                    f', "rule": {json.dumps(row.id)}, "says": {json.dumps(row.says)}, '
                    f'"step": {json.dumps(step_id)}, "section": {json.dumps(row.section)}}}\n')
            else:
                out[number | step << 8] = f"   [{named}] {says}\n"
    return out


class Answers:
    """`paigow house-way`'s answers to lines and chunks of lines, written in order as they
    are found: a chunk by the card's pack (app/commands/house_way_fast.py) when it has one
    and the chunk is plainly typed, else line by line (the table's answer, else the card's,
    which says what is wrong). `number` counts the lines answered; `code` is 2 once any
    line was wrong."""

    def __init__(self, args: argparse.Namespace, way: str | HouseWay, rules: HandRules,
                 table: SettingTable | None, pack: Pack | None = None) -> None:
        self.args = args
        self.as_json = bool(args.json)
        self.slow = _by_card(way, rules)
        self.fast: Callable[[str], str | None] | None = None
        if table is not None:
            from app.core.house_way.tables import flush_entries

            flushes = None if args.cards else flush_entries(way, table.rules)
            self.fast = _by_table(table, self.as_json, few=bool(args.cards),
                                  card=_card_of(way), flushes=flushes)
        self.pack = pack
        self.number = 0
        self.code = 0
        self._out: list[str] = []

    def flush(self) -> None:
        if self._out:
            sys.stdout.write("".join(self._out))
            self._out.clear()
        sys.stdout.flush()

    def by_line(self, line: bytes) -> bytes | None:
        """A plainly typed hand's answer by the table (the card for a possible flush)."""
        found = self.fast(line.decode()) if self.fast is not None else None
        return None if found is None else found.encode()

    def chunk(self, data: bytes) -> None:
        """Whole lines as read (bytes)."""
        if self.pack is not None:
            answered = self.pack.answer(data, self.as_json,
                                        None if self.pack.flushes else self.by_line)
            if answered is not None:
                self.flush()
                _write_bytes(answered)
                self.number += len(data) // LINE
                return
        text = data.decode("utf-8", "replace")
        self.lines([s for s in (line.strip() for line in text.splitlines()) if s])

    def lines(self, batch: Sequence[str]) -> None:
        """Lines of text, each stripped and not blank."""
        fast, slow, as_json, out = self.fast, self.slow, self.as_json, self._out
        for line in batch:
            self.number += 1
            answer = fast(line) if fast is not None else None
            if answer is not None:
                out.append(answer)
                continue
            try:
                obj, text = slow(line)
            except HouseWayError as err:
                self.code = 2
                self.flush()
                print(f"paigow: {err}: set this hand by hand and report it as a defect of "
                      "the rule card", file=sys.stderr, flush=True)
                continue
            except (CardError, InputError) as err:
                self.code = 2
                self.flush()
                where = "" if self.args.cards else f"line {self.number}: "
                if as_json:
                    print(json.dumps({"input": line, "error": str(err)}), flush=True)
                print(f"paigow: {where}{err}", file=sys.stderr, flush=True)
                continue
            out.append((json.dumps(obj) if as_json else text) + "\n")
        self.flush()


def answer_hands(args: argparse.Namespace, way: str | HouseWay, rules: HandRules,
                 table: SettingTable | None, pack: Pack | None = None) -> int:
    """Answer every hand of the arguments or stdin in order; 2 when any line was wrong."""
    answers = Answers(args, way, rules, table, pack)
    for batch in _batches(args):
        if isinstance(batch, bytes):
            answers.chunk(batch)
        else:
            answers.lines(batch)
    return answers.code


def _write_bytes(data: bytes) -> None:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:
        sys.stdout.write(data.decode())
        sys.stdout.flush()


def _batches(args: argparse.Namespace) -> Iterator[list[str] | bytes]:
    """The input in batches of what has arrived: raw bytes of whole lines from a file or
    a pipe, else (arguments, a test's StringIO) the non-blank lines, stripped."""
    if args.cards:
        yield [" ".join(args.cards)]
        return
    if sys.stdin.isatty():  # a person at a terminal, not a pipe: say what we wait for
        print(f"paigow {args.command}: reading hands from the keyboard, one per line (such as "
              f"AS KD TH 9C 5S 3D JK); Ctrl-D ends. Or give the cards as arguments.",
              file=sys.stderr, flush=True)
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's StringIO)
        yield [s for s in (line.strip() for line in sys.stdin) if s]
        return
    rest = b""
    while True:
        data = os.read(fd, CHUNK)
        if not data:
            break
        data = rest + data
        end = data.rfind(b"\n") + 1
        rest = data[end:]
        if end:
            yield data[:end]
    last = rest.decode("utf-8", "replace").strip()
    if last:
        yield [last]


def _by_card(way: str | HouseWay, rules: HandRules
             ) -> Callable[[str], tuple[dict[str, Any], str]]:
    """The card itself sets the line (imported on the first line that needs it)."""
    found: list[HouseWay] = []

    def handle(line: str) -> tuple[dict[str, Any], str]:
        if not found:
            from app.core.house_way import house_way

            found.append(house_way(way) if isinstance(way, str) else way)
        result = found[0].set(parse_cards(line, count=7), rules)
        obj = {"low": [str(c) for c in result.low], "high": [str(c) for c in result.high],
               "rule": result.rule.id, "says": result.rule.says,
               "step": result.step.id if result.step else None, "section": result.rule.section}
        named = result.rule.id + (f" -> {result.step.id}" if result.step else "")
        return obj, f"{result.setting}   [{named}] {result.says}"

    return handle


def _card_of(way: str | HouseWay) -> Callable[[], HouseWay]:
    """The card itself, imported on first need (a table answers most hands without it)."""
    found: list[HouseWay] = []

    def card() -> HouseWay:
        if not found:
            from app.core.house_way import house_way

            found.append(house_way(way) if isinstance(way, str) else way)
        return found[0]

    return card


def _by_table(table: SettingTable, as_json: bool, few: bool = False,
              card: Callable[[], HouseWay] | None = None,
              flushes: FlushEntries | None = None) -> Callable[[str], str | None]:
    """The answer to a line of seven plainly typed cards, from the table (or, for a hand
    that can make a flush, from the card, printed the same way); None for any other line
    (the card's own answer says what is wrong). `few`: one hand or so, found by bisection
    rather than a dict made for them."""
    tokens, tails = TOKENS, _tails(table, as_json)
    place, prime, suit = PLACE.__getitem__, PRIME.__getitem__, SUIT.__getitem__
    names = QUOTED if as_json else TEXT

    def find(key: int) -> int:
        # The dict is made on the first line answered here (a file answered in numpy
        # chunks never needs it); one hand is found by bisection.
        return table.entry_of(key) if few else table.entries[key]

    rows: dict[str, tuple[int, dict[str, int]]] = {
        r.id: (n, {s[0]: k + 1 for k, s in enumerate(r.steps)}) for n, r in enumerate(table.rows)}

    def by_card(hand: list[int]) -> str | None:
        if card is None:
            return None
        try:
            result = card().set([DECK[i] for i in hand], table.rules)
        except HouseWayError:
            return None  # the card's own answer reports it
        number, steps = rows[result.rule.id]
        step = 0 if result.step is None else steps[result.step.id]
        low = [names[c.index] for c in result.low]
        high = [names[c.index] for c in result.high]
        return _line(low, high, as_json) + tails[number | step << 8]

    def answer(line: str) -> str | None:
        words = line.split()
        if len(words) != 7:
            return None
        try:
            hand = [tokens[w] for w in words]
        except KeyError:
            return None
        if len(set(hand)) != 7:
            return None
        suits = sum(map(suit, hand))
        placed = sorted(hand, key=place)
        if (suits + PLUS_THREE) & FIVE_OF_A_SUIT:
            e = NO_ENTRY if flushes is None else flushes.get(shape_key(placed, suits))
            if e == NO_ENTRY:
                return by_card(hand)
        else:
            e = find(prod(map(prime, hand)))
        a, b = placed[e & 7], placed[e >> 3 & 7]
        if place(a) < place(b):
            a, b = b, a
        high = [names[i] for i in reversed(placed) if i != a and i != b]
        return _line([names[a], names[b]], high, as_json) + tails[e >> 6]

    return answer


def _line(low: list[str], high: list[str], as_json: bool) -> str:
    if as_json:
        return f'{{"low": [{low[0]}, {low[1]}], "high": [{", ".join(high)}]'
    return f"{low[0]} {low[1]} | {' '.join(high)}"
