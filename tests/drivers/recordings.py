"""The recorded shoe byte streams under tests/drivers/recorded/ and how they were made.

Each `<name>.bin` is what a shoe sent; `<name>.events` is what the station must make of
it (one event per line, see `replay`). The simulator's recordings are made against an
in-process station with a step clock, so they come out the same on every machine;
`quirks.bin` is written by hand: what real devices do that our simulator does not.

Regenerate (after a deliberate protocol change, then read the diff):
    .venv/bin/python -m tests.drivers.recordings
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from drivers.shoe.protocol import Check, checksum
from drivers.shoe.simulator import Injection, ShoeDevice, Simulator

from .helpers import StationLink, StepClock, replay

HERE = Path(__file__).parent / "recorded"

SIMULATED: dict[str, dict[str, Any]] = {
    # A clean round, one CARD message per card, action from the shuffler's RNG.
    "round-cards": dict(seed=7, mode="card", action="rng"),
    # A shuffler dealing seven 7-card stacks, action from a dice shaker.
    "round-hands": dict(seed=8, mode="hand", action="dice"),
    # Every fault the simulator injects, in one round.
    "faults": dict(seed=9, mode="card", action="rng", inject=[
        Injection("checksum", 3), Injection("duplicate", 6), Injection("garbage", 9),
        Injection("drop", 12), Injection("unknown", 15), Injection("long", 18),
        Injection("split", 21), Injection("swap", 24), Injection("disconnect", 30)]),
    # Two rounds back to back (sequence numbers run on).
    "two-rounds": dict(seed=10, mode="card", action="none", rounds=2),
    # A card the shoe lost mid-deal (the 12th): it never comes, even when asked again.
    "lost-card": dict(seed=11, mode="card", action="rng", inject=[Injection("lose", 12)]),
    # An older shoe with two-digit XOR checks (the `checksum = "xor"` setting).
    "legacy-xor": dict(seed=12, mode="card", action="rng", check=Check.XOR),
    # A shoe that reads cards only (no SHUFFLE), 500 messages into its count, that lost the
    # deal's first card: it never comes (issue 23: the next card was taken for the first).
    "cards-only-lost-first": dict(seed=13, mode="card", action="none", shuffle=False,
                                  sent=500, inject=[Injection("lose", 1)]),
    # The same shoe just switched on (HELLO,0), its message #1 damaged on the line: asked
    # for again (issue 23: no gap, no RESEND and no LOST were raised).
    "cards-only-damaged-1": dict(seed=14, mode="card", action="none", shuffle=False,
                                 inject=[Injection("checksum", 1)]),
}


def check_of(name: str) -> Check:
    """The checksum form a recording was made with."""
    return SIMULATED.get(name, {}).get("check", Check.CRC16)


def _line(body: str, *, check: str | None = None, end: bytes = b"\r\n") -> bytes:
    raw = body.encode("ascii")
    return b"$" + raw + b"*" + (check or f"{checksum(raw):04X}").encode() + end


def quirks() -> bytes:
    """Hand-written: LF-only lines, a lowercase checksum, 10H, NULs on an idle line, a
    station request echoed back, noise glued to a line, two messages with no line end
    between them, a message cut off by a new one, a heartbeat that reveals a lost card."""
    return b"".join([
        _line("HELLO,0,ACME-7,2.3.1"),
        b"\x00\x00\r\n",
        _line("SHUFFLE,1,START", end=b"\n"),
        _line("SHUFFLE,2,END,53"),
        _line("CARD,3,10H", check=f"{checksum(b'CARD,3,10H'):04x}"),
        _line("RESEND,1,2"),
        b"~~" + _line("CARD,4,JK"),
        _line("CARD,5,AS", end=b"") + _line("CARD,6,KD"),
        b"$CARD,7,Q" + _line("CARD,7,QC"),
        _line("ERROR,8,MISREAD,card 9 read twice"),
        _line("BEAT,9"),
        _line("CARD,10,2H"),
        _line("CARD,10,2H"),
        _line("ACTION,11,RNG,9"),
        _line("CARD,12,ZZ"),
    ])


def make(name: str) -> bytes:
    if name == "quirks":
        return quirks()
    options = dict(SIMULATED[name])
    check = options.pop("check", Check.CRC16)
    record = io.BytesIO()
    device = ShoeDevice("PAIGOW-SIM", "1.0", check=check, seq=options.pop("sent", 0))
    sim = Simulator(StationLink(check), device=device,
                    heartbeat=3600,
                    unplug_seconds=1.0, clock=StepClock(), record=record,
                    rounds=options.pop("rounds", 1), **options)
    sim.run()
    return record.getvalue()


NAMES = (*SIMULATED, "quirks")


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name in NAMES:
        stream = make(name)
        (HERE / f"{name}.bin").write_bytes(stream)
        events = replay(stream, check=check_of(name))
        (HERE / f"{name}.events").write_text("".join(f"{e}\n" for e in events))
        print(f"wrote {name}.bin ({len(stream)} bytes) and {name}.events")


if __name__ == "__main__":
    main()
