"""A simulation's pieces played in numpy batches (over a million rounds a second a core):
the same rounds as app/core/analysis/simulate.play, each hand's strengths looked up in its
card's table (app/core/house_way/table.py) for a whole batch at once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from app.core.analysis.simulate import MASK, Tally, worker_seed
from app.core.hands import DEFAULT_RULES, HandRules
from app.core.house_way import house_way
from app.core.house_way.table import (
    FIVE_OF_A_SUIT,
    JOKER_INDEX,
    PLACE,
    PLUS_THREE,
    PRIME,
    SHIFT,
    SUIT,
    Table,
    table_of,
)

BATCH = 65_536  # rounds a batch: big enough that numpy's per-call cost is nothing
Arr = np.ndarray[Any, Any]

PRIMES = np.array(PRIME, dtype=np.int64)
SUITS = np.array(SUIT, dtype=np.int64)
PLACES = np.array(PLACE, dtype=np.int64)
SUIT_OF = np.array([k // 13 for k in range(JOKER_INDEX)] + [4], dtype=np.int64)
PLACE_BITS = 1 << np.arange(7, dtype=np.int64)


@dataclass(frozen=True)
class Strengths:
    """A table's keys and strengths as arrays."""

    keys: Arr
    strengths: Arr

    @classmethod
    def of(cls, table: Table) -> Strengths:
        return cls(np.frombuffer(table.keys, dtype=np.int64),
                   np.frombuffer(table.strengths, dtype=np.int64))

    def of_hands(self, hands: Arr) -> Arr:
        """Packed strengths (front << SHIFT | back) of the card's setting of each row of
        seven card indexes."""
        found: Arr = self.strengths[self.at(hands)]
        return found

    def at(self, hands: Arr) -> Arr:
        """Where each row of seven card indexes is in the table: its key (table.hand_key)
        found among the keys; a KeyError when a row has none."""
        # Place by place over the rows (a row of `hands.T` is one place of every hand, in
        # a row of memory as `deal` lays them): 3.8 -> 1.4 ms a batch for each of the
        # product and the sum, against numpy's reduction along rows of seven (measured).
        places = hands.T
        key = PRIMES[places[0]]
        suits = SUITS[places[0]]
        for place in places[1:]:
            key *= PRIMES[place]
            suits += SUITS[place]
        key <<= 7
        flush = np.flatnonzero((suits + PLUS_THREE) & FIVE_OF_A_SUIT)
        if len(flush):
            placed = np.sort(PLACES[hands[flush]], axis=1) & 63  # card indexes, place order
            s = suits[flush]
            suit = np.zeros(len(flush), dtype=np.int64)
            for k in range(1, 4):  # the one suit that holds five (the joker counted)
                suit[((s >> (4 * k)) & 0xF) >= 5] = k
            held = (SUIT_OF[placed] == suit[:, None]) | (placed == JOKER_INDEX)
            key[flush] |= (held * PLACE_BITS).sum(axis=1)
        # The keys looked for in order: the search then walks the table's keys (3.6 MB)
        # front to back, where keys in deal order miss the cache at each step: 17 -> 8 ms
        # a batch of 65,536 hands, the sort included (measured).
        order = np.argsort(key)
        at = np.empty_like(order)
        at[order] = np.searchsorted(self.keys, key[order])
        if not np.array_equal(self.keys[np.minimum(at, len(self.keys) - 1)], key):
            raise KeyError("a hand has no entry in its card's table")
        return at


ONE = np.uint64(1)


def deal(rng: np.random.Generator, rounds: int, cards: int = 14) -> Arr:
    """`rounds` deals of `cards` different cards of the 53: each card drawn from the 53
    and drawn again while it is one already dealt in its row (a bit mask a row), so every
    deal is equally likely; the same generator calls for the same seed. A round a row; in
    memory each place's cards of every round lie together (the transpose of an array a
    place a row), as `Strengths.of_hands` reads them."""
    used = np.zeros(rounds, dtype=np.uint64)
    dealt = np.empty((cards, rounds), dtype=np.int16)
    for i in range(cards):
        x = rng.integers(0, 53, size=rounds, dtype=np.int64).astype(np.uint64)
        again = np.flatnonzero((used >> x) & ONE)
        while len(again):
            y = rng.integers(0, 53, size=len(again), dtype=np.int64).astype(np.uint64)
            x[again] = y
            again = again[((used[again] >> y) & ONE) != 0]
        used |= ONE << x
        dealt[i] = x
    return dealt.T


def tally(mine: Arr, bank: Arr) -> Tally:
    """Outcomes of the player's packed strengths against the banker's (copies go to the
    banker): win both hands to win, lose both to lose, else push."""
    front, bank_front = mine >> SHIFT, bank >> SHIFT
    back, bank_back = mine & MASK, bank & MASK
    front_win, back_win = front > bank_front, back > bank_back
    front_copy, back_copy = front == bank_front, back == bank_back
    wins = int(np.count_nonzero(front_win & back_win))
    losses = int(np.count_nonzero(~front_win & ~back_win))
    return Tally(len(mine), wins, len(mine) - wins - losses, losses,
                 int(np.count_nonzero(front_copy)), int(np.count_nonzero(back_copy)),
                 int(np.count_nonzero(front_copy | back_copy)))


def play(rounds: int, seed: int, worker: int, way: str, dealer_way: str,
         rules: HandRules = DEFAULT_RULES) -> Tally:
    """Piece k's rounds in numpy batches (the same seed and piece give the same tally)."""
    rng = np.random.Generator(np.random.PCG64(worker_seed(seed, worker)))
    player = Strengths.of(table_of(house_way(way), rules))
    dealer = player if dealer_way == way else Strengths.of(table_of(house_way(dealer_way),
                                                                    rules))
    total = Tally()
    for start in range(0, rounds, BATCH):
        dealt = deal(rng, min(BATCH, rounds - start))
        total += tally(player.of_hands(dealt[:, :7]), dealer.of_hands(dealt[:, 7:]))
    return total
