"""`paigow floor user add|password|remove|list`: the pit floor's users (the server itself
is `paigow-floor`)."""

from __future__ import annotations

import argparse

NAME = "floor"
HELP = "the pit floor's users: paigow floor user add NAME --role ROLE --database-url URL"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="floor_command", required=True, metavar="WHAT")
    from app.floor.main import add_user_arguments

    add_user_arguments(sub.add_parser("user", help="add, remove, list floor users"))


def run(args: argparse.Namespace) -> int:
    from app.floor.main import run_user

    return run_user(args)
