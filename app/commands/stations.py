"""`paigow stations enroll|revoke|list`: the keys that may sign the ledger (docs/trust.md).

`enroll` is run on the station's own PC (its key never leaves it) by a supervisor who gives
their name and secret; on PostgreSQL it needs the owner's login, as `paigow users` does, so
a station's login cannot enroll a key of its own making. `--floor` enrolls the pit floor's
key (its data directory: `--data-dir`), which may sign every table's records. `revoke`
ends a key (a stolen PC's, say): links it signs from then on are named by verify.
Exit 0: done; 2: refused, with why; 4: the database cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.settings import ConfigError, load_config

from .ledger import EXIT_REFUSED, EXIT_UNREACHABLE, _common, _refuse_missing_file
from .users import _ask

if TYPE_CHECKING:
    from app.ledger import Store  # the station extra's SQLAlchemy: imported when used

NAME = "stations"
HELP = "the keys that sign the ledger: enroll this station's, revoke one, list them"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="stations_command", required=True, metavar="WHAT")
    p = sub.add_parser("enroll", help="enroll this station's signing key for its table")
    _common(p)
    p.add_argument("--by", metavar="NAME", required=True,
                   help="the supervisor enrolling it (their secret is asked)")
    p.add_argument("--floor", action="store_true",
                   help="the pit floor's key (it signs every table's records)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="where the key is (default: this station's data directory)")
    p = sub.add_parser("revoke", help="end a key: what it signs from now on is named by verify")
    _common(p)
    p.add_argument("key", metavar="KEY", help="the key's id, or its start (paigow stations list)")
    p.add_argument("--by", metavar="NAME", required=True)
    p.add_argument("--reason", required=True, help="why (e.g. 'the PC was stolen')")
    p = sub.add_parser("list", help="every key enrolled or revoked, and this station's own")
    _common(p)
    p.add_argument("--data-dir", metavar="DIR")
    p.add_argument("--json", action="store_true", help="one JSON object per key")


def _store(args: argparse.Namespace) -> Store:
    from app.ledger import Store

    config = load_config(args.config)
    url = args.database_url or config.ledger.database_url or None
    _refuse_missing_file(url)
    floor = getattr(args, "floor", False)
    return Store(url, table="floor" if floor else config.table.name,
                 station="floor" if floor else (config.station.name or None),
                 data_dir=getattr(args, "data_dir", None))


def run(args: argparse.Namespace) -> int:
    from app.ledger.errors import LedgerError, LedgerUnavailable

    try:
        with _store(args) as store:
            return COMMANDS[args.stations_command](args, store)
    except ConfigError as err:
        for line in str(err).splitlines():
            print(f"paigow stations: config: {line}", file=sys.stderr)
        return EXIT_REFUSED
    except LedgerUnavailable as err:
        print(f"paigow stations: {err}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except LedgerError as err:
        print(f"paigow stations: {err}", file=sys.stderr)
        return EXIT_REFUSED


def _enroll(args: argparse.Namespace, store: Store) -> int:
    by = store.authorise(args.by, _ask(f"{args.by}'s secret: "), "enroll")
    key = store.enroll(by, floor=args.floor)
    print(f"enrolled: {key.text()}")
    return 0


def _revoke(args: argparse.Namespace, store: Store) -> int:
    by = store.authorise(args.by, _ask(f"{args.by}'s secret: "), "enroll")
    key = store.revoke(args.key, args.reason, by)
    print(f"revoked: {key.text()}")
    return 0


def _list(args: argparse.Namespace, store: Store) -> int:
    from app.ledger.keys import fingerprint

    found = store.keys()
    for key in found:
        print(json.dumps(key.to_dict()) if args.json else key.text())
    if not args.json:
        mine = store.signer.key_id
        state = next(("enrolled" if k.enrolled else "revoked" for k in found
                      if k.key_id == mine), "not enrolled: paigow stations enroll --by NAME")
        print(f"this station's key: {fingerprint(mine)} ({state})", file=sys.stderr)
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, Store], int]] = {
    "enroll": _enroll, "revoke": _revoke, "list": _list,
}
