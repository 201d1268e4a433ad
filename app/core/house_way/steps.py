"""Step lists that rule cards share: how to play a 5-, 6- or 7-card straight or flush."""

from __future__ import annotations

from collections.abc import Callable

from ..cards import Card
from .engine import Rule
from .facts import Facts, Run
from .plays import (
    ace_first,
    first,
    flush_size,
    highest_in_flush,
    non_flush,
    outside,
    two,
)

RunOf = Callable[[Facts], Run | None]


def flush_steps(prefix: str, noun: str = "Flush") -> tuple[Rule, ...]:
    """5/6/7-card flush with and without the joker (seed 000, "Flush and 3-of-a-kind")."""
    return (
        Rule(f"{prefix}-5", f"5-card {noun}: The two cards will be the two non-flush",
             when=lambda f: f.flush_size == 5, play=lambda f: non_flush(f)[:2]),
        Rule(f"{prefix}-6J", f"6-card {noun} with Joker: The two cards will be the Joker and "
             "the non-flush", when=flush_size(6, joker=True),
             play=lambda f: two(f.joker, first(non_flush(f)))),
        Rule(f"{prefix}-6", f"6-card {noun} without Joker: The two cards will be the highest "
             "card in the flush and the non-flush", when=flush_size(6, joker=False),
             play=lambda f: two(highest_in_flush(f), first(non_flush(f)))),
        Rule(f"{prefix}-7J", f"7-card {noun} with Joker: The two cards will be the Joker and "
             "the highest card in the flush", when=flush_size(7, joker=True),
             play=lambda f: two(f.joker, highest_in_flush(f))),
        Rule(f"{prefix}-7", f"7-card {noun} without Joker: The two cards will be the highest "
             "cards in the Flush", when=flush_size(7, joker=False),
             play=lambda f: f.flush_cards[:2]),
    )


def run_steps(prefix: str, noun: str, run_of: RunOf) -> tuple[Rule, ...]:
    """5/6/7-card straight (flush) steps; the straight is read low to high (DESIGN.md)."""

    def length(n: int) -> Callable[[Facts], bool]:
        return lambda f: (r := run_of(f)) is not None and r.length == n

    def joker_at(n: int, *places: int) -> Callable[[Facts], bool]:
        return lambda f: (r := run_of(f)) is not None and r.length == n \
            and r.position_of_joker() in places

    def ace_starts(n: int) -> Callable[[Facts], bool]:
        return lambda f: (r := run_of(f)) is not None and r.length == n and ace_first(r)

    def run(f: Facts) -> Run:
        r = run_of(f)
        assert r is not None
        return r

    def rest(f: Facts) -> Card | None:
        return first(outside(f, run(f)))

    return (
        Rule(f"{prefix}-5", f"5-card {noun}: The two cards will be the two non-straights",
             when=length(5), play=lambda f: outside(f, run(f))[:2]),
        Rule(f"{prefix}-6A", f"6-card {noun} starting with Ace: The two cards will be the Ace "
             "and the non-straight", when=ace_starts(6),
             play=lambda f: two(run(f).first, rest(f))),
        Rule(f"{prefix}-6J", f"6-card {noun} with Joker in the first or last position of the "
             "straight: The two cards will be the Joker and the non-straight",
             when=joker_at(6, 1, 6), play=lambda f: two(f.joker, rest(f))),
        Rule(f"{prefix}-6", f"Any other 6-card {noun}: The two cards will be the last card in "
             "the straight and the non-straight", when=length(6),
             play=lambda f: two(run(f).last, rest(f))),
        Rule(f"{prefix}-7AJ", f"7-card {noun} starting with an Ace and with a Joker in the "
             "second or last position of the straight: The two cards will be the Ace and the "
             "Joker", when=lambda f: ace_starts(7)(f) and joker_at(7, 2, 7)(f),
             play=lambda f: two(run(f).first, f.joker)),
        Rule(f"{prefix}-7A", f"Any other 7-card {noun} starting with an Ace: The two cards "
             "will be the Ace and the last card in the straight", when=ace_starts(7),
             play=lambda f: two(run(f).first, run(f).last)),
        Rule(f"{prefix}-7J1", f"7-card {noun} starting with a Joker: The two cards will be "
             "the Joker and the last card in the straight", when=joker_at(7, 1),
             play=lambda f: two(f.joker, run(f).last)),
        Rule(f"{prefix}-7J2", f"7-card {noun} with a Joker in the second position of the "
             "straight: The two cards will be the Joker and the first card in the straight",
             when=joker_at(7, 2), play=lambda f: two(f.joker, run(f).first)),
        Rule(f"{prefix}-7J7", f"7-card {noun} ending with a Joker: The two cards will be the "
             "Joker and the sixth card in the straight", when=joker_at(7, 7),
             play=lambda f: two(f.joker, run(f).cards[5])),
        Rule(f"{prefix}-7J6", f"7-card {noun} with a Joker in the sixth position of the "
             "straight: The two cards will be the Joker and the last card in the straight",
             when=joker_at(7, 6), play=lambda f: two(f.joker, run(f).last)),
        Rule(f"{prefix}-7", f"Any other 7-card {noun}: The two cards will be the two last "
             "cards in the straight", when=length(7), play=lambda f: run(f).cards[-2:]),
    )

