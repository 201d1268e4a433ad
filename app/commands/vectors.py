"""The House Way's tables in numpy: a simulation's rounds dealt and settled a batch at a
time (one million rounds a second a core), with no Python per hand.

The core stays standard library only: the tables are built and kept by
app/core/house_way/tables.py (by the card itself); this module reads them into arrays.
A hand's strengths are looked up by its key: the ranks' prime product when no suit can make
a flush, else the flush key (the product and the flush suit's ranks); a key no table holds
(none should) is set by the card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.core.analysis.simulate import Tally, worker_seed
from app.core.cards import DECK
from app.core.hands import DEFAULT_RULES, HandRules
from app.core.house_way import HouseWay
from app.core.house_way.tables import (
    PRIME,
    RANKBIT,
    SHIFT,
    SUIT,
    flush_strengths,
    setting_table,
)

BATCH = 65_536  # rounds a batch: big enough that numpy's per-call cost is nothing
MASK = (1 << SHIFT) - 1
Arr = np.ndarray[Any, Any]

PRIMES = np.array(PRIME, dtype=np.int64)
SUITS = np.array(SUIT, dtype=np.int64)
RANKBITS = np.array(RANKBIT, dtype=np.int64)
SUIT_OF = np.array([4 if c.is_joker else c.index // 13 for c in DECK], dtype=np.int8)


class Lookup:
    """key -> value for a fixed set of int64 keys (none zero), found for a whole array of
    keys at once: an open-addressing hash table (a multiplicative hash, linear probing),
    a probe or two a key where a binary search takes seventeen."""

    GOLDEN = np.uint64(0x9E3779B97F4A7C15)

    def __init__(self, keys: Arr, values: Arr) -> None:
        self.bits = max(10, int(len(keys) * 4 - 1).bit_length())
        self.mask = (1 << self.bits) - 1
        self.keys = np.zeros(1 << self.bits, dtype=np.int64)  # 0: an empty slot
        self.values = np.full(1 << self.bits, -1, dtype=np.int64)
        slot = self._hash(keys)
        pending = np.arange(len(keys))
        while len(pending):
            at = slot[pending]
            free = self.keys[at] == 0
            _, first = np.unique(at[free], return_index=True)  # one key per free slot
            placed = pending[free][first]
            self.keys[slot[placed]] = keys[placed]
            self.values[slot[placed]] = values[placed]
            done = np.zeros(len(keys), dtype=bool)
            done[placed] = True
            pending = pending[~done[pending]]
            moved = self.keys[slot[pending]] != 0
            slot[pending[moved]] = (slot[pending[moved]] + 1) & self.mask

    def _hash(self, keys: Arr) -> Arr:
        mixed = keys.astype(np.uint64) * self.GOLDEN
        return (mixed >> np.uint64(64 - self.bits)).astype(np.int64)

    def find(self, wanted: Arr) -> Arr:
        """The value of each wanted key, -1 where the table has none."""
        slot = self._hash(wanted)
        found = self.keys[slot]
        out = np.where(found == wanted, self.values[slot], -1)
        rest = np.flatnonzero((found != wanted) & (found != 0))
        while len(rest):
            slot[rest] = (slot[rest] + 1) & self.mask
            found = self.keys[slot[rest]]
            hit = found == wanted[rest]
            out[rest[hit]] = self.values[slot[rest[hit]]]
            rest = rest[~hit & (found != 0)]
        return out


@dataclass(frozen=True)
class Strengths:
    """One card's strengths by key, flush-free and flush keys in one hash table."""

    way: str | HouseWay
    rules: HandRules
    table: Lookup

    @classmethod
    def of(cls, way: str | HouseWay, rules: HandRules = DEFAULT_RULES,
           progress: Callable[[int], None] | None = None) -> Strengths:
        table = setting_table(way, rules, progress)
        flush = flush_strengths(way, rules, progress)
        keys = np.concatenate([np.frombuffer(table._keys, dtype=np.int64),
                               np.frombuffer(flush.keys, dtype=np.int64)])
        values = np.concatenate([np.frombuffer(table._strengths, dtype=np.int64),
                                 np.frombuffer(flush.strengths, dtype=np.int64)])
        return cls(way, rules, Lookup(keys, values))

    def of_hands(self, hands: Arr) -> Arr:
        """Packed strengths (front << SHIFT | back) of the card's setting of each row of
        seven card indexes."""
        key = PRIMES[hands].prod(axis=1)
        suits = SUITS[hands].sum(axis=1)
        flush = ((suits + 0x3333) & 0x8888) != 0
        if flush.any():
            rows = hands[flush]
            s = suits[flush]
            suit = np.zeros(len(rows), dtype=np.int8)
            for k in range(1, 4):  # the one suit that holds five (the joker counted)
                suit[((s >> (4 * k)) & 0xF) >= 5] = k
            in_suit = (SUIT_OF[rows] == suit[:, None]) | (rows == 52)
            bits = (RANKBITS[rows] * in_suit).sum(axis=1)
            key[flush] = -((key[flush] << 15) | bits)
        out = self.table.find(key)
        missing = out < 0
        if missing.any():  # no table holds the key (none should): the card sets the hand
            out[missing] = [self._by_card(h) for h in hands[missing]]
        return out

    def _by_card(self, hand: Arr) -> int:
        from app.core.analysis.fast import WaySetter

        return WaySetter(self.way, self.rules).setting_strengths([int(i) for i in hand])


ONE = np.uint64(1)


def deal(rng: np.random.Generator, rounds: int, cards: int = 14) -> Arr:
    """`rounds` deals of `cards` different cards of the 53: each card drawn from the 53
    and drawn again while it is one already dealt in its row (a bit mask a row), so every
    deal is equally likely; the same generator calls for the same seed."""
    used = np.zeros(rounds, dtype=np.uint64)
    dealt = np.empty((rounds, cards), dtype=np.int16)
    for i in range(cards):
        x = rng.integers(0, 53, size=rounds, dtype=np.int64).astype(np.uint64)
        again = np.flatnonzero((used >> x) & ONE)
        while len(again):
            y = rng.integers(0, 53, size=len(again), dtype=np.int64).astype(np.uint64)
            x[again] = y
            again = again[((used[again] >> y) & ONE) != 0]
        used |= ONE << x
        dealt[:, i] = x
    return dealt


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
         rules: HandRules = DEFAULT_RULES,
         progress: Callable[[int], None] | None = None) -> Tally:
    """Worker k's rounds, dealt and settled in numpy batches (the same seed and worker give
    the same tally)."""
    rng = np.random.Generator(np.random.PCG64(worker_seed(seed, worker)))
    player = Strengths.of(way, rules)
    dealer = player if dealer_way == way else Strengths.of(dealer_way, rules)
    total = Tally()
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)
        dealt = deal(rng, n)
        total += tally(player.of_hands(dealt[:, :7]), dealer.of_hands(dealt[:, 7:]))
        done += n
        if progress is not None:
            progress(n)
    return total
