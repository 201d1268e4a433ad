"""The `paigow` command: one subcommand per module in app/commands."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

# Each module has NAME, HELP, add_arguments(parser) and run(args) -> exit code.
COMMANDS = (
    "rank",
    "check",
    "house_way",
    "shoe_sim",
    "settle",
    "ledger",
    "progressive",
    "users",
    "stations",
    "print_slip",
    "simulate",
    "advise",
    "odds",
    "edge",
    "bonus",
    "replay",
    "floor",
)


def chosen(argv: Sequence[str]) -> str | None:
    """The module of the subcommand named in argv, if it names one (before any option)."""
    for arg in argv:
        if arg.startswith("-"):
            return None  # `paigow --help` and friends: every command is listed
        module = arg.replace("-", "_")
        return module if module in COMMANDS else None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of `only` (a command's own run imports nothing
    the other commands need: the analysis, the ledger, Qt's printer pieces)."""
    import argparse
    from importlib import import_module

    parser = argparse.ArgumentParser(
        prog="paigow", description="Pai Gow Poker dealer station tools")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in (only,) if only else COMMANDS:
        module = import_module(f"app.commands.{name}")
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    only = chosen(argv)
    from app.cache import use_cache

    use_cache()  # the House Way tables are kept in the user's cache
    try:
        args = build_parser(only).parse_args(argv)
        code: int = args.run(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except RuntimeError as err:
        # A card (a card file) that leaves some hand unset cannot be played over many
        # hands (simulate, edge); a command that sets hands one by one says so per line.
        # (Imported here: a command that runs well never loads the engine for this.)
        from app.core.house_way import HouseWayError

        if not isinstance(err, HouseWayError):
            raise
        print(f"paigow: {err}: the rule card sets no such hand; check it with paigow "
              f"house-way --check CARD and add a row for it", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`paigow ... | head`): stop quietly, as a shell tool does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    sys.exit(main())
