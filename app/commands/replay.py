"""`paigow replay [--json] FILE`: play a recorded session through the dealer session,
headless, and print each settled round's slip (or, with --json, the slips as JSON).

A recorded session (app/session/record.py, docs/session.md) holds every event the station
handled, with the RNG's draws and the printer's answers, so the replay needs neither: the
slips are the ones the table printed, byte for byte. A file that cannot be read is refused
with the line and why (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys

from app.session.record import RecordError, read_session, utf8_lines
from app.session.replay import replay
from drivers.printer.layout import slip_text

NAME = "replay"
HELP = "play a recorded dealer session again and print the slips it settled"
EXIT_BAD_INPUT = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="the recorded session (JSON lines; - reads stdin)")
    parser.add_argument("--json", action="store_true",
                        help="print the slips as a JSON list (schema paigow.slip/1)")
    parser.add_argument("--columns", type=int, choices=(42, 48), default=42,
                        help="the slip paper's width in characters (default 42)")


def run(args: argparse.Namespace) -> int:
    try:
        # Bytes, decoded line by line: a file that is not text is refused naming its line.
        if args.file == "-":
            recorded = read_session(utf8_lines(sys.stdin.buffer))
        else:
            with open(args.file, "rb") as f:
                recorded = read_session(utf8_lines(f))
        result = replay(recorded)
    except OSError as e:
        print(f"paigow replay: {args.file}: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RecordError as e:
        print(f"paigow replay: {args.file}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        sys.stdout.write(json.dumps([s.to_dict() for s in result.slips], indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(slip_text(s, args.columns) for s in result.slips))
    print(f"paigow replay: {len(recorded.events)} events, {len(result.slips)} round(s) "
          f"settled", file=sys.stderr)
    return 0
