"""`paigow replay [--json] FILE`: play a recorded session through the dealer session,
headless, and print each settled round's slip (or, with --json, the slips as JSON).

FILE is the station's journal (`journal/<station id>.sqlite` in its data directory, where
a station keeps its sessions: the latest is played, or the one `--session` names, and
`--list` lists them), or a session as JSON lines (a packed one from `sessions/archive/`,
or - for stdin).

A recorded session (app/session/record.py, docs/session.md) holds every event the station
handled, with the RNG's draws and the printer's answers, so the replay needs neither: the
slips are the ones the table printed, byte for byte. A file that cannot be read is refused
with the line and why (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.ledger.errors import LedgerError
from app.ledger.session_lines import SessionLines
from app.session.record import RecordError, read_session, utf8_lines
from app.session.replay import replay
from drivers.printer.layout import slip_text

NAME = "replay"
HELP = "play a recorded dealer session again and print the slips it settled"
EXIT_BAD_INPUT = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="the station's journal, or a session as JSON lines (- reads "
                             "stdin)")
    parser.add_argument("--session", metavar="NAME",
                        help="in a journal: the session to play (default the latest)")
    parser.add_argument("--list", action="store_true",
                        help="in a journal: list its sessions and stop")
    parser.add_argument("--json", action="store_true",
                        help="print the slips as a JSON list (schema paigow.slip/1)")
    parser.add_argument("--columns", type=int, choices=(42, 48), default=42,
                        help="the slip paper's width in characters (default 42)")


def run(args: argparse.Namespace) -> int:
    try:
        # Bytes, decoded line by line: a file that is not text is refused naming its line.
        if args.file == "-":
            recorded = read_session(utf8_lines(sys.stdin.buffer))
        elif _is_journal(Path(args.file)):
            text = _from_journal(Path(args.file), args.session, args.list)
            if text is None:
                return 0 if args.list else EXIT_BAD_INPUT
            recorded = read_session(text.splitlines(keepends=True))
        else:
            with open(args.file, "rb") as f:
                recorded = read_session(utf8_lines(f))
        result = replay(recorded)
    except LedgerError as e:
        print(f"paigow replay: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
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


def _is_journal(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(16) == b"SQLite format 3\x00"


def _from_journal(path: Path, name: str | None, listing: bool) -> str | None:
    """The session's text from a station's journal; None when listed or not there (said)."""
    lines = SessionLines(path, read_only=True)
    try:
        sessions = lines.sessions()
        if listing:
            for s in sessions:
                print(f"{s.name}  {s.lines} lines, last written {s.last_written}")
            return None
        if not sessions:
            print(f"paigow replay: {path} keeps no session (a station that has not played "
                  f"yet, or its sessions are packed in sessions/archive/)", file=sys.stderr)
            return None
        names = [s.name for s in sessions]
        if name is not None and name not in names:
            print(f"paigow replay: {path} keeps no session {name!r}: --list lists them",
                  file=sys.stderr)
            return None
        return lines.text(name or names[-1])
    finally:
        lines.close()
