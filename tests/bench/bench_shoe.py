"""Benchmark (not a test): shoe latency from a line written on a pty to the card event.

A pseudo-terminal pair stands for the shoe's cable: each CARD line is written on the
master side and timed until the reader (pyserial on the slave side, the real ShoeReader
thread and parser) delivers its CardRead to the listener. One card at a time, 10,000 cards.

    .venv/bin/python -m tests.bench.bench_shoe        target: median under 5 ms

Also the parser alone on a megabyte of line noise (random bytes, `$` only, over-long
lines), read 4 KB at a time as a serial port gives it: the work must stay proportional to
the bytes (target: well under a second per megabyte).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import threading
import time
import tty

from app.core.cards import DECK
from drivers.shoe.protocol import CardRead, ShoeEvent, ShoeParser, encode_line
from drivers.shoe.transport import ShoeConfig, ShoeOnline, ShoeReader

CARDS = 10_000


def measure(cards: int = CARDS) -> list[float]:
    """Latencies in seconds, one per card."""
    master, slave = os.openpty()
    tty.setraw(slave)
    online = threading.Event()
    delivered = threading.Event()
    arrived: dict[int, float] = {}

    def on_event(event: ShoeEvent) -> None:
        if isinstance(event, CardRead):
            arrived[event.seq] = time.perf_counter()
            delivered.set()
        elif isinstance(event, ShoeOnline):
            online.set()

    config = ShoeConfig(os.ttyname(slave), read_timeout=0.05, heartbeat_timeout=0)
    reader = ShoeReader(config, on_event=on_event)
    reader.start()
    latencies: list[float] = []
    try:
        if not online.wait(5):
            raise RuntimeError("the reader did not open the pseudo-terminal")
        lines = [encode_line("CARD", seq, str(DECK[seq % len(DECK)]))
                 for seq in range(1, cards + 1)]
        for seq, line in enumerate(lines, 1):
            delivered.clear()
            sent = time.perf_counter()
            os.write(master, line)
            if not delivered.wait(5):
                raise RuntimeError(f"card {seq} was not delivered")
            latencies.append(arrived[seq] - sent)
    finally:
        reader.stop()
        os.close(master)
        os.close(slave)
    return latencies


NOISE = {
    "random": lambda: random.Random(1).randbytes(1 << 20),
    "dollars": lambda: b"$" * (1 << 20),
    "long-lines": lambda: (b"$CARD," + b"7" * 5000 + b"\r\n") * 209,
}


def parse_noise(stream: bytes, chunk: int = 4096) -> tuple[float, int]:
    """Seconds the parser takes for the stream, and how many events it gave."""
    parser = ShoeParser()
    start = time.perf_counter()
    events = 0
    for i in range(0, len(stream), chunk):
        events += len(parser.feed(stream[i:i + chunk]))
    events += len(parser.summary())
    return time.perf_counter() - start, events


def main() -> int:
    for name, make in NOISE.items():
        stream = make()
        seconds, events = parse_noise(stream)
        per_mb = seconds / (len(stream) / (1 << 20))
        print(f"bench shoe-noise {name} {per_mb * 1000:.1f}ms/MB events={events}")
    latencies = measure()
    median = statistics.median(latencies) * 1000
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    print(f"bench shoe-latency median={median:.3f}ms p99={p99:.3f}ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
