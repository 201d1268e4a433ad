"""`paigow progressive audit [--meter NAME]`: a linked progressive's meter checked against
every move the ledger holds of it (docs/progressive.md): the meter = seed + contributions
- hits + reserve moves + house seeds, to the cent, each move beginning where the one
before it ended; or the first row where it does not hold, and how.

Exit 0: every meter exact; 1: a meter is not (the row is named); 2: refused, with why (no
such meter, no ledger there); 4: the database cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import sys

from .ledger import EXIT_BROKEN, _common, on_ledger, say

NAME = "progressive"
HELP = "the linked progressive: audit the meter against every contribution and hit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="progressive_command", required=True, metavar="WHAT")
    p = sub.add_parser("audit", help="the meter = seed + contributions - hits + reserve "
                                     "moves, to the cent; else the first row that breaks it "
                                     "(exit 1)")
    _common(p)
    p.add_argument("--meter", metavar="NAME",
                   help="only this meter (its card's name; default: every meter)")
    p.add_argument("--json", action="store_true", help="one JSON object per meter")


def run(args: argparse.Namespace) -> int:
    return on_ledger("progressive", args, lambda _config, url: _audit(args, url))


def _audit(args: argparse.Namespace, url: str | None) -> int:
    from sqlalchemy.orm import Session

    from app.core.progressive import ProgressiveCardError, progressive_card
    from app.ledger.database import make_engine, mask
    from app.ledger.errors import LedgerError, LedgerUnavailable
    from app.ledger.paths import default_url
    from app.ledger.progressive import Audit, audit, meters
    from app.ledger.store import reason, unreachable

    from .ledger import _refuse_missing_file

    _refuse_missing_file(url)
    engine = make_engine(url or default_url())
    try:
        with Session(engine) as s:
            names = [args.meter] if args.meter else meters(s)
            found: list[Audit] = []
            for name in names:
                try:
                    card = progressive_card(name)
                except ProgressiveCardError:
                    card = None  # the audit says its shares were not checked
                found.append(audit(s, name, card))
    except LedgerError:
        raise
    except Exception as e:
        if unreachable(e):
            raise LedgerUnavailable(f"the ledger's database ({mask(engine.url)}) cannot be "
                                    f"reached: {reason(e)}") from None
        raise LedgerError(f"the ledger at {mask(engine.url)} cannot be audited: {reason(e)} "
                          f"(is it migrated? paigow ledger migrate)") from None
    finally:
        engine.dispose()
    if not found:
        say("the ledger holds no progressive meter yet: nothing to audit", file=sys.stderr)
        return 0
    missing = [a.name for a in found if a.reading is None]
    if missing:
        raise LedgerError(f"there is no progressive meter {missing[0]!r} in this ledger: "
                          f"leave --meter out to audit every meter there is")
    for a in found:
        say(json.dumps(a.to_dict()) if args.json else a.text())
    return 0 if all(a.exact for a in found) else EXIT_BROKEN
