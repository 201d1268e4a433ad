"""Shared pieces for the driver tests: an event collector, a simulator on a thread,
an in-process station for deterministic recordings, and the replay used by golden files."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from app.core.cards import DECK, Card
from drivers.shoe.protocol import (
    Burn,
    CardRead,
    Check,
    Fault,
    FaultKind,
    HandDealt,
    ShoeEvent,
    ShoeParser,
)
from drivers.shoe.simulator import Simulator
from drivers.shoe.transport import ShoeConfig, ShoeReader

WAIT = 10.0     # generous: a loaded CI machine must not fail a test by being slow


def shuffled_deck(seed: int) -> tuple[Card, ...]:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def cards_of(events: Iterable[ShoeEvent]) -> list[Card]:
    """Every card delivered, in order: CARD by CARD, HAND stacks, then BURN."""
    out: list[Card] = []
    for e in events:
        if isinstance(e, CardRead):
            out.append(e.card)
        elif isinstance(e, HandDealt | Burn):
            out.extend(e.cards)
    return out


def fault_kinds(events: Iterable[ShoeEvent]) -> list[FaultKind]:
    return [e.kind for e in events if isinstance(e, Fault)]


@dataclass
class Collector:
    """Receives events on the reader's thread; the test waits for what it expects."""

    events: list[ShoeEvent] = field(default_factory=list)
    _cond: threading.Condition = field(default_factory=threading.Condition)

    def __call__(self, event: ShoeEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait_for(self, check: Callable[[list[ShoeEvent]], bool], timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not check(self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("timed out; events so far:\n" +
                                         "\n".join(map(str, self.events)))
                self._cond.wait(left)

    def wait_for_event(self, kind: type, timeout: float = WAIT, count: int = 1) -> None:
        self.wait_for(lambda evs: sum(isinstance(e, kind) for e in evs) >= count, timeout)

    def snapshot(self) -> list[ShoeEvent]:
        with self._cond:
            return list(self.events)


def fast_config(port: str, **kw: float) -> ShoeConfig:
    values: dict[str, float] = dict(read_timeout=0.01, heartbeat_timeout=0, reconnect_min=0.02,
                                    reconnect_max=0.1, resend_delay=0.05, resend_timeout=0.3)
    values.update(kw)
    return ShoeConfig(port, **values)  # type: ignore[arg-type]


@contextmanager
def reading(config: ShoeConfig, **kw: object) -> Iterator[tuple[ShoeReader, Collector]]:
    collector = Collector()
    reader = ShoeReader(config, on_event=collector, **kw)  # type: ignore[arg-type]
    reader.start()
    try:
        yield reader, collector
    finally:
        reader.stop()


@contextmanager
def running(sim: Simulator) -> Iterator[threading.Thread]:
    errors: list[BaseException] = []

    def target() -> None:
        try:
            sim.run()
        except BaseException as e:  # noqa: BLE001 - reported to the test below
            errors.append(e)

    thread = threading.Thread(target=target, name="shoe-sim", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        sim.stop()
        thread.join(WAIT)
    if errors:
        raise errors[0]


# ------------------------------------------------------- in-process station


class StationLink:
    """A simulator link whose other end is a ShoeParser asking for resends at once.

    Used to make recordings that do not depend on timing: what the simulator writes is
    recorded, and the station's RESEND requests come straight back.
    """

    name = "station"

    def __init__(self, check: Check = Check.CRC16) -> None:
        self.parser = ShoeParser(check=check)
        self.events: list[ShoeEvent] = []
        self._replies = bytearray()

    def open(self) -> None:
        pass

    def close(self) -> None:
        self.events += self.parser.link_lost()

    def write(self, data: bytes) -> None:
        self.events += self.parser.feed(data)
        if self.parser.unrequested:
            self.events += self.parser.request_resend()
        self._replies += self.parser.take_outgoing()

    def read(self, timeout: float) -> bytes:
        data = bytes(self._replies)
        self._replies.clear()
        return data


class StepClock:
    """A clock that moves a fixed step each time it is read: runs are repeatable."""

    def __init__(self, step: float = 0.1) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def replay(stream: bytes, chunk: int | None = None,
           check: Check = Check.CRC16) -> list[ShoeEvent]:
    """Events for a recorded stream, as a station that asks for resends at once sees it.

    The stream is fed a line at a time (or `chunk` bytes at a time); after each piece a
    gap is asked for and an interval of faults ends (as if a second passed), and at the end
    anything still missing is given up.
    """
    parser = ShoeParser(check=check)
    events: list[ShoeEvent] = []
    if chunk is None:
        pieces = stream.split(b"\n")
        pieces = [p + b"\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    else:
        pieces = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]
    for piece in pieces:
        events += parser.feed(piece)
        if parser.unrequested:
            events += parser.request_resend()
        events += parser.summary()
    events += parser.link_lost()
    if parser.missing:
        events += parser.give_up()
    return events
