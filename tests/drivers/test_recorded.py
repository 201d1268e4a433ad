"""Golden recordings: byte streams a shoe sent, and the events the station must make of them."""

from __future__ import annotations

import random

import pytest

from app.core.cards import DECK

from .helpers import cards_of, replay
from .recordings import HERE, NAMES, SIMULATED, check_of, make


def golden(name: str) -> list[str]:
    return (HERE / f"{name}.events").read_text().splitlines()


@pytest.mark.parametrize("name", NAMES)
def test_recorded_stream_gives_the_golden_events(name: str) -> None:
    stream = (HERE / f"{name}.bin").read_bytes()
    assert [str(e) for e in replay(stream, check=check_of(name))] == golden(name)


@pytest.mark.parametrize("name", NAMES)
def test_recorded_stream_read_one_byte_at_a_time_gives_the_same_events(name: str) -> None:
    stream = (HERE / f"{name}.bin").read_bytes()
    assert [str(e) for e in replay(stream, chunk=1, check=check_of(name))] == golden(name)


@pytest.mark.parametrize("name", ["round-cards", "round-hands", "two-rounds"])
def test_recorded_stream_read_in_any_chunks_gives_the_same_events(name: str) -> None:
    stream = (HERE / f"{name}.bin").read_bytes()
    for seed in range(5):
        rng = random.Random(seed)
        chunk = rng.randint(2, 64)
        assert [str(e) for e in replay(stream, chunk=chunk)] == golden(name)


@pytest.mark.parametrize("name", NAMES)
def test_simulator_still_sends_exactly_the_recorded_bytes(name: str) -> None:
    assert make(name) == (HERE / f"{name}.bin").read_bytes()


@pytest.mark.parametrize("name", [n for n in SIMULATED if not any(
    i.kind == "lose" for i in SIMULATED[n].get("inject", ()))])
def test_every_recorded_round_delivers_each_card_of_the_deck_once(name: str) -> None:
    cards = cards_of(replay((HERE / f"{name}.bin").read_bytes(), check=check_of(name)))
    rounds = SIMULATED[name].get("rounds", 1)
    assert len(cards) == 53 * rounds
    for r in range(rounds):
        assert sorted(cards[53 * r:53 * (r + 1)], key=lambda c: c.index) == list(DECK)
