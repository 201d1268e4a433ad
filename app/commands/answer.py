"""`paigow house-way`'s answers: each hand set by the card's table
(app/core/house_way/table.py), or by the card itself when one hand is asked and the table
is not built yet (the same setting). A line of seven plainly typed cards is read here; any
other line (`10H`, suit glyphs, commas, a mistake) by `parse_cards`, which names what is
wrong. A large file is answered in parts on every core, written in input order.

Input is read as it comes (`os.read` returns what the pipe holds), and the answers to
everything read are written in one go: a file of hands is answered in large chunks, and a
hand fed through a pipe one at a time is answered at once.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import product
from math import prod

from app.core.cards import DECK, Card, CardError, parse_cards
from app.core.hands import HandRules
from app.core.house_way import HouseWay, HouseWayError, HouseWaySetting
from app.core.house_way.engine import Rule
from app.core.house_way.table import (
    FIVE_OF_A_SUIT,
    PLACE,
    PLUS_THREE,
    PRIME,
    SUIT,
    Table,
    cores,
    flush_places,
)

from .common import InputError

CHUNK = 1 << 20  # a read of a file; a pipe gives what it holds (64 KiB at most)
PARALLEL_FROM = 50_000  # hands in a file from which it is answered on every core


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

    def _cards(self, low: Sequence[int], high: Sequence[int]) -> str:
        n = self.names
        if self.as_json:
            return (f'{{"low": [{n[low[0]]}, {n[low[1]]}], '
                    f'"high": [{", ".join(n[i] for i in high)}]')
        return f"{n[low[0]]} {n[low[1]]} | {' '.join(n[i] for i in high)}"

    def setting(self, result: HouseWaySetting) -> str:
        """The answer line of the card's (or the table's) setting."""
        row = self.card.rules.index(result.rule)
        step = 0 if result.step is None else 1 + result.rule.steps.index(result.step)
        return (self._cards([c.index for c in result.low], [c.index for c in result.high])
                + self.tails[row | step << 8])

    def line(self, text: str) -> str | None:
        """The table's answer to seven plainly typed different cards, else None."""
        return self.part(text.encode()) or None

    def part(self, data: bytes) -> str | None:
        """The table's answers to whole lines of seven plainly typed different cards, or
        None when a line is anything else (blank lines are passed over)."""
        if self.table is None:
            return None
        # The table's lookup written out here, over cards' places: this loop is the
        # command's speed.
        tokens, tails, names, as_json = TOKENS, self.tails, self.by_place, self.as_json
        prime, suit = PRIME_AT.__getitem__, SUIT_AT.__getitem__
        # A search of the sorted keys: a dict of the table was 0.7-1.7 us a hand quicker,
        # but making it took 0.3 s before any hand, more than it saved below about 200,000
        # hands a core (measured; the workers fork from it, so it was made on one core).
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
                back = (", " if as_json else " ").join(map(names.__getitem__, placed))
                if as_json:
                    out.append(f'{{"low": [{names[a]}, {names[b]}], "high": [{back}]')
                else:
                    out.append(f"{names[a]} {names[b]} | {back}")
                out.append(tails[e >> 6])
        except KeyError:  # a word that is not a plainly typed card
            return None
        return "".join(out)


class Command:
    """`paigow house-way`'s run over the input: answers written in input order; `code` is
    2 once any line was wrong."""

    def __init__(self, args: argparse.Namespace, answers: Answers) -> None:
        self.args = args
        self.answers = answers
        self.number = 0
        self.code = 0

    def lines(self, batch: Sequence[str]) -> None:
        """Lines of text, each answered (or its mistake said) in order."""
        out: list[str] = []
        for text in batch:
            self.number += 1
            answer = self.answers.line(text)
            if answer is None:
                answer = self._by_parser(text, out)
            if answer is not None:
                out.append(answer)
        sys.stdout.write("".join(out))
        sys.stdout.flush()

    def _by_parser(self, text: str, out: list[str]) -> str | None:
        answers = self.answers
        try:
            cards: Sequence[Card] = parse_cards(text, count=7)
            # Without a table (a hand given as arguments) the card sets it: the same
            # setting, without looking for the kept table.
            result = (answers.table.set(cards) if answers.table is not None else
                      answers.card.set(cards, answers.rules))
        except HouseWayError as err:
            self._said(out, f"paigow: {err}: set this hand by hand and report it as a "
                            "defect of the rule card")
            return None
        except (CardError, InputError) as err:
            where = "" if self.args.cards else f"line {self.number}: "
            if self.args.json:
                out.append(json.dumps({"input": text, "error": str(err)}) + "\n")
            self._said(out, f"paigow: {where}{err}")
            return None
        return answers.setting(result)

    def _said(self, out: list[str], message: str) -> None:
        """A mistake said on stderr, after the answers before it."""
        self.code = 2
        sys.stdout.write("".join(out))
        sys.stdout.flush()
        out.clear()
        print(message, file=sys.stderr, flush=True)

    def chunk(self, data: bytes) -> None:
        self.lines([s for s in (raw.strip() for raw in
                                data.decode("utf-8", "replace").splitlines()) if s])

    def file(self, data: bytes) -> None:
        """A whole file of hands, in parts on every core: a part with a line that the quick
        reader does not take is answered again here, line by line, saying what is wrong."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        parts = _parts(data, cores())
        with ProcessPoolExecutor(len(parts), mp_context=multiprocessing.get_context("fork"),
                                 initializer=_start_worker,
                                 initargs=(self.answers,)) as pool:
            for part, answered in zip(parts, pool.map(_answer_part, parts), strict=True):
                if answered is None:
                    self.chunk(part)
                    continue
                self.number += sum(1 for raw in part.splitlines() if raw.strip())
                sys.stdout.write(answered)
        sys.stdout.flush()


_worker: list[Answers] = []  # a worker's answers (given at its start, never pickled)


def _start_worker(answers: Answers) -> None:
    _worker[:] = [answers]


def _answer_part(data: bytes) -> str | None:
    return _worker[0].part(data)


def _parts(data: bytes, k: int) -> list[bytes]:
    """k contiguous parts of whole lines."""
    out, start = [], 0
    for n in range(1, k + 1):
        end = len(data) if n == k else data.find(b"\n", len(data) * n // k) + 1 or len(data)
        if end > start:
            out.append(data[start:end])
        start = max(start, end)
    return out


def answer_hands(args: argparse.Namespace, card: HouseWay, rules: HandRules,
                 table: Table | None) -> int:
    """Answer every hand of the arguments or stdin in order; 2 when any line was wrong."""
    command = Command(args, Answers(card, rules, table, bool(args.json)))
    for batch in _batches(args, table is not None):
        if isinstance(batch, list):
            command.lines(batch)
        elif len(batch) >= PARALLEL_FROM * 21 and cores() > 1:
            command.file(batch)
        else:
            command.chunk(batch)
    return command.code


def _batches(args: argparse.Namespace, whole_files: bool) -> Iterator[list[str] | bytes]:
    """The input in batches of what has arrived: a regular file whole, or the whole lines
    a pipe holds, as bytes; else (arguments, a test's StringIO) the lines."""
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
    if whole_files and stat.S_ISREG(os.fstat(fd).st_mode):
        data = b"".join(iter(lambda: os.read(fd, 1 << 24), b""))
        if data:
            yield data if data.endswith(b"\n") else data + b"\n"
        return
    rest = b""
    while data := os.read(fd, CHUNK):
        data = rest + data
        end = data.rfind(b"\n") + 1
        rest = data[end:]
        if end:
            yield data[:end]
    if rest.strip():
        yield rest + b"\n"
