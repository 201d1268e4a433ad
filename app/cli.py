"""The `paigow` command: one subcommand per module in app/commands."""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

# Each module has NAME, HELP, add_arguments(parser) and run(args) -> exit code.
COMMANDS = (
    "rank",
    "check",
    "house_way",
    "shoe_sim",
    "settle",
    "ledger",
    "users",
    "print_slip",
    "simulate",
    "advise",
    "odds",
    "replay",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paigow", description="Pai Gow Poker dealer station tools")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = import_module(f"app.commands.{name}")
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`paigow ... | head`): stop quietly, as a shell tool does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    sys.exit(main())
