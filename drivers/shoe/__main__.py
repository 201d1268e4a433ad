"""`python -m drivers.shoe PORT`: print what a shoe sends, as the station reads it.

A bench tool for installers and shoe makers: point it at the shoe's port (or at
`paigow shoe-sim`'s pseudo-terminal) and watch events, faults and reconnects. Ctrl-C stops.
"""

from __future__ import annotations

import argparse
import sys
import time

from .transport import ShoeConfig, ShoeConfigError, ShoeReader


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drivers.shoe",
                                     description="print the events a shoe sends")
    parser.add_argument("port", help="serial port, /dev/serial/by-id name or pyserial URL")
    parser.add_argument("--baud", type=int, default=9600)
    parser.add_argument("--heartbeat-timeout", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
    args = parser.parse_args(argv)
    try:
        config = ShoeConfig(args.port, args.baud, heartbeat_timeout=args.heartbeat_timeout)
    except ShoeConfigError as e:
        print(e, file=sys.stderr)
        return 2
    start = time.monotonic()

    def show(event: object) -> None:
        print(f"{time.monotonic() - start:8.3f}  {event}", flush=True)

    reader = ShoeReader(config, on_event=show)
    reader.start()
    try:
        while args.seconds <= 0 or time.monotonic() - start < args.seconds:
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    reader.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
