"""`paigow house-way`'s run over its input: each hand set by the card's table
(app/core/house_way/table.py), or by the card itself when one hand is asked and the table
is not built yet (the same setting). A line of seven plainly typed cards is answered by
`Answers` (answer_lines.py); any other line (`10H`, suit glyphs, commas, a mistake) by
`parse_cards`, which names what is wrong. A large file is answered in numpy batches
(answer_vectors.py), in input order.

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
from collections.abc import Iterator, Sequence

from app.core.cards import Card, CardError, parse_cards
from app.core.hands import HandRules
from app.core.house_way import HouseWay, HouseWayError
from app.core.house_way.table import Table

from .answer_lines import Answers
from .common import InputError

CHUNK = 1 << 20  # a read of a file; a pipe gives what it holds (64 KiB at most)
# Hands in a file from which it is answered in numpy batches (when numpy is installed: the
# `analysis` extra): importing numpy costs about what 15,000 hands do here.
VECTORS_FROM = 20_000
BOM = b"\xef\xbb\xbf"  # a spreadsheet's "UTF-8 with BOM" export begins so: not a card
BATCH = 1 << 14  # lines a batch (16,384 and 65,536 answer as fast: measured)


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
        """A large file of hands in batches: a batch of plain lines answered in numpy
        (answer_vectors.py), any other batch here, line by line, saying what is wrong;
        without numpy, the whole file here."""
        try:
            from .answer_vectors import Vectors
        except ModuleNotFoundError as err:
            if err.name != "numpy":
                raise
            self.chunk(data)
            return

        vectors = Vectors(self.answers)
        for part in _parts(data, BATCH * 21):
            answered = vectors.answer(part)
            if answered is None:
                self.chunk(part)
                continue
            self.number += part.count(b"\n")
            sys.stdout.flush()
            sys.stdout.buffer.write(answered)
        sys.stdout.flush()


def _parts(data: bytes, size: int) -> Iterator[bytes]:
    """Parts of whole lines, each about `size` bytes."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start + size) + 1 or len(data)
        yield data[start:end]
        start = end


def answer_hands(args: argparse.Namespace, card: HouseWay, rules: HandRules,
                 table: Table | None) -> int:
    """Answer every hand of the arguments or stdin in order; 2 when any line was wrong."""
    command = Command(args, Answers(card, rules, table, bool(args.json)))
    for batch in _batches(args, table is not None):
        if isinstance(batch, list):
            command.lines(batch)
        elif len(batch) >= VECTORS_FROM * 21:
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
        data = b"".join(iter(lambda: os.read(fd, 1 << 24), b"")).removeprefix(BOM)
        if data:
            yield data if data.endswith(b"\n") else data + b"\n"
        return
    rest, first = b"", True
    while data := os.read(fd, CHUNK):
        if first:
            data, first = data.removeprefix(BOM), False
        data = rest + data
        end = data.rfind(b"\n") + 1
        rest = data[end:]
        if end:
            yield data[:end]
    if rest.strip():
        yield rest + b"\n"
