"""`paigow shoe-sim`: a simulated card-reading shoe, the station's demo device.

It opens a pseudo-terminal (and points a stable symlink at it) or writes to a given port,
and deals rounds in the station's shoe protocol (README.md, "The shoe protocol"), answering the
station's RESEND requests and sending heartbeats, with faults injected on request.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
from typing import BinaryIO

from drivers.shoe.protocol import Check
from drivers.shoe.simulator import (
    ACTIONS,
    FAULTS,
    MODES,
    Injection,
    Link,
    PtyLink,
    SerialLink,
    ShoeDevice,
    Simulator,
    SimulatorError,
    fixed_deck,
)

NAME = "shoe-sim"
HELP = "simulate a card-reading shoe on a pseudo-terminal or a serial port (demo and tests)"

DEFAULT_LINK = os.path.join(tempfile.gettempdir(), "paigow-shoe-sim")


MAX_SECONDS = 86_400


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    # NaN is outside every range, and a pause past a day is a typo that never wakes up.
    if not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 to "
                                         f"{MAX_SECONDS:,} (a day)")
    return value


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (0 or more)")
    return int(text)


def _injection(text: str) -> Injection:
    try:
        return Injection.parse(text)
    except SimulatorError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", help="write to this serial port or pyserial URL instead of "
                       "opening a pseudo-terminal")
    where.add_argument("--link", default=DEFAULT_LINK,
                       help="symlink that always points at the current pseudo-terminal, like "
                       f"/dev/serial/by-id (default {DEFAULT_LINK}; 'none' for no link)")
    parser.add_argument("--baud", type=int, default=9600, help="speed for --port (default 9600)")
    parser.add_argument("--rounds", type=_count, default=0,
                        help="rounds to deal, 0 for until Ctrl-C (default 0)")
    parser.add_argument("--mode", choices=MODES, default="card",
                        help="card: one CARD message per card; hand: a HAND message per 7-card "
                        "stack, as a shuffler deals (default card)")
    deck = parser.add_mutually_exclusive_group()
    deck.add_argument("--seed", type=int, help="shuffle with this seed (same rounds every run)")
    deck.add_argument("--deck", help="deal this fixed deck every round: all 53 cards in order")
    parser.add_argument("--action", choices=ACTIONS, default="rng",
                        help="the ACTION the shoe sends each round (default rng)")
    parser.add_argument("--card-delay", type=_seconds, default=0.5, metavar="SECONDS",
                        help="pause before each card or stack (default 0.5)")
    parser.add_argument("--round-pause", type=_seconds, default=5.0, metavar="SECONDS",
                        help="pause between rounds (default 5)")
    parser.add_argument("--heartbeat", type=_seconds, default=1.0, metavar="SECONDS",
                        help="heartbeat interval when idle, 0 for none (default 1)")
    parser.add_argument("--inject", type=_injection, action="append", default=[],
                        metavar="FAULT[@N]",
                        help=f"inject a fault at the Nth card of every round (random N without "
                        f"@): {', '.join(FAULTS)}; repeat for more")
    parser.add_argument("--unplug-seconds", type=_seconds, default=2.0, metavar="SECONDS",
                        help="how long a 'disconnect' fault keeps the shoe unplugged (default 2)")
    parser.add_argument("--linger", type=_seconds, default=2.0, metavar="SECONDS",
                        help="after the last round, keep answering the station (default 2)")
    parser.add_argument("--record", metavar="FILE", help="also write every byte sent to FILE")
    parser.add_argument("--model", default="PAIGOW-SIM", help="model name in HELLO")
    parser.add_argument("--firmware", default="1.0", help="firmware version in HELLO")
    parser.add_argument("--checksum", choices=[c.value for c in Check], default="crc16",
                        help="crc16: the protocol's 4-digit CRC; xor: the 2-digit XOR of an "
                        "older shoe (the station's shoe.checksum must match; default crc16)")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _say(text: str) -> None:
    print(f"shoe-sim: {text}", flush=True)


def run(args: argparse.Namespace) -> int:
    record: BinaryIO | None = None
    link: Link
    pty: PtyLink | None = None
    try:
        deck = fixed_deck(args.deck) if args.deck else None
        if args.port:
            link = SerialLink(args.port, args.baud)
        else:
            target = None if args.link in ("", "none") else args.link
            if target and os.path.lexists(target) and not os.path.islink(target):
                raise SimulatorError(f"--link {target} exists and is not a symlink: choose "
                                     "another path")
            link = pty = PtyLink(target)
        if args.record:
            try:
                record = open(args.record, "wb")  # noqa: SIM115 - closed below
            except OSError as e:
                raise SimulatorError(f"--record {args.record}: {e.strerror}") from None
        device = ShoeDevice(args.model, args.firmware, check=Check(args.checksum))
        sim = Simulator(link, device=device, mode=args.mode,
                        rounds=args.rounds, deck=deck, seed=args.seed, action=args.action,
                        card_delay=args.card_delay, round_pause=args.round_pause,
                        heartbeat=args.heartbeat, inject=args.inject,
                        unplug_seconds=args.unplug_seconds, linger=args.linger, record=record,
                        on_status=_say)
        if pty is not None:
            def status(text: str) -> None:
                if text.startswith("shoe plugged in"):
                    where = pty.path + (f" (via {pty.link})" if pty.link else "")
                    text = f"shoe plugged in on {where}: set the station's shoe port to " \
                           f"{pty.link or pty.path}"
                _say(text)
            sim.on_status = status
        if args.inject:
            _say("injecting " + ", ".join(map(str, args.inject)))
        if threading.current_thread() is threading.main_thread():  # a process of its own:
            # `kill`, a closed terminal and Ctrl-C stop it alike, so the link is removed.
            # SIGINT is set too: a process started in the background by a shell inherits
            # it ignored, and Python then leaves it ignored (the simulator ran on).
            for stop in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(stop, _interrupt)
        try:
            sim.run()
        except KeyboardInterrupt:
            _say("stopped")
        return 0
    except (SimulatorError, OSError) as e:
        print(f"shoe-sim: {e}", file=sys.stderr)
        return 2
    finally:
        if record is not None:
            record.close()
        if pty is not None:
            pty.remove_link()
