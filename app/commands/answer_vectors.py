"""A large file of hands answered in numpy batches: each line seven two-letter cards with one
space between (`AS KD TH 9C 5S 3D JK`, in any case), as `paigow shoe-sim`, a spreadsheet's
export or the bench writes them. The card's table is looked up as `simulate` looks it up
(app/commands/vectors.py), and each answer line is the one `Answers.part` writes. A batch
with any other line (a `10H`, a card typed twice, a short line) is not answered here: the
command answers it line by line and says what is wrong (app/commands/answer.py).

Why numpy: the line-by-line reader costs 5-9 us a hand in Python, which keeps it under 30
times pokersolver's pace even on two cores; this answers 200,000 hands in 0.35-0.47 s on one
core, the process's start and numpy's import included (`make bench`: 43.6x)."""

from __future__ import annotations

from typing import Any

import numpy as np

from app.core.house_way.table import PLACE

from .answer_lines import BY_PLACE, TOKENS, Answers
from .vectors import Strengths

LINE = 21  # seven cards of two letters, six spaces and the line's end
CARD_AT = np.arange(7) * 3  # where each card's two letters start in a line
Arr = np.ndarray[Any, Any]


def _place_of_letters() -> Arr:
    """A card's place (table.PLACE) by its two letters (first << 8 | second); -1 for any
    other two letters."""
    out = np.full(1 << 16, -1, dtype=np.int16)
    for text, place in TOKENS.items():
        if len(text) == 2:
            out[ord(text[0]) << 8 | ord(text[1])] = place
    return out


PLACE_OF = _place_of_letters()
INDEX_OF = np.zeros(BY_PLACE, dtype=np.int64)  # a place's card index
INDEX_OF[list(PLACE)] = np.arange(len(PLACE))


class Vectors:
    """The answers of `answers` (text or JSON), a batch of plain lines at a time."""

    def __init__(self, answers: Answers) -> None:
        assert answers.table is not None
        self.strengths = Strengths.of(answers.table)
        self.entries = np.frombuffer(answers.table.entries, dtype=np.uint32)
        # A line's cards as Answers.part writes them, with "??" where each card goes.
        slot = '"??"' if answers.as_json else "??"
        self.template = np.frombuffer(answers.cards_line([slot] * 2, [slot] * 5).encode(),
                                      dtype=np.uint8)
        text = self.template.tobytes()
        self.slots = [i for i in range(len(text) - 1) if text[i:i + 2] == b"??"]
        self.letters = np.zeros((BY_PLACE, 2), dtype=np.uint8)
        for place, name in enumerate(answers.by_place):
            if name:
                self.letters[place] = np.frombuffer(name.strip('"').encode(), np.uint8)
        tails = np.empty(max(answers.tails) + 1, dtype=object)
        for key, tail in answers.tails.items():
            tails[key] = tail.encode()
        self.tails = tails

    def answer(self, data: bytes) -> bytes | None:
        """The answer lines to `data` (whole lines), or None when a line is not seven plain
        different cards."""
        placed = self._placed(data)
        if placed is None:
            return None
        try:
            entries = self.entries[self.strengths.at(INDEX_OF[placed])]
        except KeyError:  # a hand the card leaves unset: said line by line
            return None
        rows = self._cards(placed, entries)
        lines: list[bytes] = [b""] * (2 * len(rows))
        lines[0::2] = rows.view(f"S{rows.shape[1]}").ravel().tolist()
        lines[1::2] = self.tails[entries >> 6].tolist()
        return b"".join(lines)

    @staticmethod
    def _placed(data: bytes) -> Arr | None:
        """Each line's seven places, sorted (rank order, as a table's entry counts them)."""
        if not data or len(data) % LINE:
            return None
        lines = np.frombuffer(data, dtype=np.uint8).reshape(-1, LINE)
        if (lines[:, 2:LINE - 1:3] != ord(" ")).any() or (lines[:, -1] != ord("\n")).any():
            return None
        letters = lines[:, CARD_AT].astype(np.int32) << 8 | lines[:, CARD_AT + 1]
        placed = np.sort(PLACE_OF[letters], axis=1)
        if (placed[:, 0] < 0).any() or (placed[:, 1:] == placed[:, :-1]).any():
            return None
        return placed

    def _cards(self, placed: Arr, entries: Arr) -> Arr:
        """Each line's cards, front then back (highest first), as letters in the template."""
        n = np.arange(len(placed))
        a, b = placed[n, entries & 7], placed[n, entries >> 3 & 7]
        back = np.ones(placed.shape, dtype=bool)
        back[n, entries & 7] = back[n, entries >> 3 & 7] = False
        cards = np.column_stack((np.maximum(a, b), np.minimum(a, b),
                                 placed[back].reshape(-1, 5)[:, ::-1]))
        rows = np.tile(self.template, (len(placed), 1))
        for k, at in enumerate(self.slots):
            rows[:, at:at + 2] = self.letters[cards[:, k]]
        return rows
