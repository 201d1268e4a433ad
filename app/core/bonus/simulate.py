"""A seat's bonus and envy over dealt rounds: what the exact figures cannot give.

The house edge with N other players is exact (exact.BonusOdds.edge_with: the envy's average
adds up per player). How much a round's result spreads does not: the seven hands come from
one deck, so they are not independent, and the spread of their sum is found by dealing.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..cards import DECK
from ..hands import JokerRule
from .paytable import EnvyCard, PayCard


@dataclass(frozen=True, slots=True)
class SeatRounds:
    rounds: int
    players: int
    wager: int  # cents
    mean: float  # the seat's average result per unit wagered (bonus and envy)
    sd: float  # a round's standard deviation, per unit wagered

    @property
    def house_edge(self) -> float:
        return -self.mean

    @property
    def se(self) -> float:
        return self.sd / math.sqrt(self.rounds)


def simulate_seat(card: PayCard, envy: EnvyCard | None, players: int, rounds: int,
                  wager: int = 500, seed: int = 0, joker: JokerRule = "bug") -> SeatRounds:
    """Deal `rounds` rounds of the seat's hand and `players` other players' hands."""
    rng = random.Random(seed)
    qualifies = envy is not None and wager >= envy.qualifying
    total = square = 0.0
    for _ in range(rounds):
        cards = rng.sample(DECK, 7 * (players + 1))
        cents = card.result(card.category(cards[:7], joker), wager)
        if qualifies and envy is not None:
            cents += sum(envy.amount(envy.category(cards[7 * k:7 * k + 7], joker))
                         for k in range(1, players + 1))
        x = cents / wager
        total += x
        square += x * x
    mean = total / rounds
    sd = math.sqrt(max(square / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1))
    return SeatRounds(rounds, players, wager, mean, sd)
