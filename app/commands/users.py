"""`paigow users add|disable|enable|reset|list`: the people who may do a supervisor's action,
kept in the ledger's database (docs/ledger.md, "People").

Changes are the shift manager's: `--by NAME` and that manager's secret. The very first
shift manager is made with `paigow users add NAME --first`, only while the ledger has
nobody. Secrets are asked without echo on a terminal; from a pipe, one per line in the order
asked (the manager's first, then the new one). Exit 0: done; 2: refused, with why; 4: the
database cannot be reached.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.settings import ConfigError, load_config

from .ledger import EXIT_REFUSED, EXIT_UNREACHABLE, _common, _store, say

if TYPE_CHECKING:
    from app.ledger import Store  # the station extra's SQLAlchemy: imported when used
    from app.ledger.people import Person

NAME = "users"
HELP = "the people who may void, correct and override: add, disable, enable, reset, list"
ROLE_CHOICES = ("pit supervisor", "supervisor", "shift manager", "auditor")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="users_command", required=True, metavar="WHAT")

    p = sub.add_parser("add", help="a new person, with their role and secret")
    _common(p)
    p.add_argument("name", metavar="NAME", help="the person's name, as the pit knows them")
    p.add_argument("--role", choices=ROLE_CHOICES, default=None,
                   help="what they may do (default: pit supervisor; --first: shift manager)")
    p.add_argument("--by", metavar="MANAGER", help="the shift manager making the change")
    p.add_argument("--first", action="store_true",
                   help="the first shift manager, only while the ledger has nobody")

    for what, why in (("disable", "the person may no longer sign in"),
                      ("enable", "a disabled person may sign in again"),
                      ("reset", "a new secret for the person (and their lock lifted)")):
        p = sub.add_parser(what, help=why)
        _common(p)
        p.add_argument("name", metavar="NAME")
        p.add_argument("--by", metavar="MANAGER", required=True,
                       help="the shift manager making the change")

    p = sub.add_parser("list", help="everyone, their role, and whether disabled or slowed")
    _common(p)
    p.add_argument("--json", action="store_true", help="one JSON object per person")


def _ask(prompt: str) -> str:
    """A secret: without echo on a terminal, else the next line of the input."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    line = sys.stdin.readline()
    if not line:
        from app.ledger.errors import LedgerError
        raise LedgerError(f"no secret was given ({prompt.strip()}): type it at the prompt, "
                          f"or give one per line on the input")
    return line.rstrip("\r\n")


def _new_secret(name: str) -> str:
    from app.ledger.errors import LedgerError

    secret = _ask(f"{name}'s new secret: ")
    if sys.stdin.isatty() and _ask("the same again: ") != secret:
        raise LedgerError("the two secrets differ: nothing was changed; try again")
    return secret


def _manager(store: Store, by: str | None) -> Person:
    from app.ledger.errors import LedgerError

    if not by:
        raise LedgerError("name the shift manager making the change (--by NAME), or --first "
                          "for the very first one")
    return store.authorise(by, _ask(f"{by}'s secret: "), "manage users")


def run(args: argparse.Namespace) -> int:
    from app.ledger.errors import LedgerError, LedgerUnavailable

    try:
        config = load_config(args.config)
    except ConfigError as err:
        for line in str(err).splitlines():
            say(f"paigow users: config: {line}", file=sys.stderr)
        return EXIT_REFUSED
    url = args.database_url or config.ledger.database_url or None
    try:
        with _store(config, url) as store:
            return COMMANDS[args.users_command](args, store)
    except LedgerUnavailable as err:
        say(f"paigow users: {err}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except LedgerError as err:
        say(f"paigow users: {err}", file=sys.stderr)
        return EXIT_REFUSED


def _add(args: argparse.Namespace, store: Store) -> int:
    from app.ledger.errors import LedgerError

    if args.first:
        if args.by:
            raise LedgerError("--first makes the first shift manager, by nobody: leave out "
                              "--by")
        role = args.role or "shift manager"
        by = None
    else:
        role = args.role or "pit supervisor"
        by = _manager(store, args.by)
    account = store.add_person(args.name, role, _new_secret(args.name), by=by,
                               first=args.first)
    say(f"added: {account.text()}")
    return 0


def _change(what: str) -> Callable[[argparse.Namespace, Store], int]:
    def change(args: argparse.Namespace, store: Store) -> int:
        by = _manager(store, args.by)
        if what == "reset":
            account = store.reset_person(args.name, _new_secret(args.name), by=by)
        else:
            account = getattr(store, f"{what}_person")(args.name, by=by)
        say(f"{account.change}: {account.text()}")
        return 0
    return change


def _list(args: argparse.Namespace, store: Store) -> int:
    accounts = store.accounts()
    for account in accounts:
        say(json.dumps(account.to_dict()) if args.json else account.text())
    if not accounts and not args.json:
        say("nobody yet: make the first shift manager with `paigow users add NAME --first`",
              file=sys.stderr)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, Store], int]] = {
    "add": _add, "disable": _change("disable"), "enable": _change("enable"),
    "reset": _change("reset"), "list": _list,
}
