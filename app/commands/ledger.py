"""`paigow ledger history|slip|recall|totals|shifts|export|status|migrate|verify`: read the ledger
back, and check that no record of it was changed.

The database is `--database-url`, else the config's `ledger.database_url` (config/default.toml,
`--config FILE` or $PAIGOW_CONFIG, PAIGOW_LEDGER__DATABASE_URL), else the station's own
SQLite file in its data directory. Exit 2: refused (a bad id, date or option) with why;
exit 4: the database cannot be reached; exit 1: a chain does not match (verify), a round's
recomputed settlement does not match what the ledger paid (recall).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from app.ledger.escape import shown_lines
from app.settings import ConfigError, TableConfig, load_config

if TYPE_CHECKING:
    from app.ledger import Store  # the station extra's SQLAlchemy: imported when used

T = TypeVar("T")

NAME = "ledger"
HELP = ("read the ledger: round history, a past slip, shift totals, CSV export; verify "
        "that no record was changed")

EXIT_REFUSED = 2
EXIT_UNREACHABLE = 4
EXIT_BROKEN = 1  # verify: a chain does not match


def say(*parts: object, file: TextIO | None = None) -> None:
    """`print` for what this command tells a person: every control character but the line
    end is shown as its escape (app/ledger/escape.py), whatever row or name it came from,
    so nothing in the ledger can clear the screen or rewrite what the terminal shows."""
    print(shown_lines(" ".join(str(p) for p in parts)), file=file or sys.stdout)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: write YYYY-MM-DD") from None


def _moment(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time: write YYYY-MM-DD or "
                                         f"YYYY-MM-DDTHH:MM") from None
    return value if value.tzinfo else value.astimezone()


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rows: 0 (all) or more")
    return int(text)


def _seat(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat: 1-6 (0 for the dealer)")
    return int(text)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database-url", metavar="URL",
                   help="the ledger's database (default: the config's ledger.database_url, "
                        "else this station's SQLite file)")
    p.add_argument("--config", metavar="FILE",
                   help="the site's table config over config/default.toml "
                        "(default: $PAIGOW_CONFIG)")


def _filters(p: argparse.ArgumentParser, seat: bool = True) -> None:
    p.add_argument("--table", help="only this table (its name, as on the slip)")
    p.add_argument("--shift", metavar="ID", help="only this shift (its id or the start of it)")
    if seat:
        p.add_argument("--seat", type=_seat, help="only rounds this seat played or banked")
    p.add_argument("--date", type=_day, metavar="YYYY-MM-DD",
                   help="only rounds begun that day (this machine's time zone)")
    p.add_argument("--since", type=_moment, metavar="TIME", help="begun at or after")
    p.add_argument("--until", type=_moment, metavar="TIME", help="begun before")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="ledger_command", required=True, metavar="WHAT")

    p = sub.add_parser("history", help="rounds, newest first, with filters")
    _common(p)
    _filters(p)
    p.add_argument("--status", choices=("open", "settled", "void"))
    p.add_argument("--limit", type=_count, default=50, help="at most this many (default 50; "
                                                            "0: all)")
    p.add_argument("--json", action="store_true", help="one JSON object per round")

    p = sub.add_parser("slip", help="reprint the slip of a past round exactly")
    _common(p)
    p.add_argument("round", metavar="ROUND",
                   help="the round's number as its slip shows it (e.g. 12), or its id (or "
                        "the id's first characters, as the history lists them)")
    p.add_argument("--table", help="the table, where more than one has that round number")
    p.add_argument("--json", action="store_true",
                   help="the slip as JSON (paigow.slip/1), as `paigow settle --json` printed")

    p = sub.add_parser("recall", help="a round shown whole (cards in order, settings and "
                                      "their rules, payouts, who) and its settlement "
                                      "recomputed: MATCH or the difference (exit 1)")
    _common(p)
    p.add_argument("round", metavar="ROUND", help="the round's number or id")
    p.add_argument("--table", help="the table, when several have that round number")
    p.add_argument("--json", action="store_true", help="as one JSON object")

    p = sub.add_parser("totals", help="drop, win, commission and every seat's money")
    _common(p)
    _filters(p, seat=False)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("shifts", help="the shifts, newest first (their ids for --shift)")
    _common(p)
    p.add_argument("--table")
    p.add_argument("--limit", type=_count, default=20, help="at most this many (0: all)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("export", help="CSV of rounds, settlements, bonus_settlements (the "
                                      "bonus and envy lines), hands, wagers, bank_decisions "
                                      "or events")
    _common(p)
    # app.ledger.reads.EXPORTS, written out: the parser loads no SQLAlchemy
    p.add_argument("what", nargs="?", default="settlements",
                   choices=("rounds", "settlements", "bonus_settlements", "hands", "wagers",
                            "bank_decisions", "events"))
    _filters(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")

    p = sub.add_parser("status", help="this station's journal: what waits to be sent")
    _common(p)
    p.add_argument("--station", help="the station's name (default: this machine's)")
    p.add_argument("--send", action="store_true", help="send what waits now")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("verify", help="check the hash chains: name the first row that was "
                                      "changed, removed or added behind the ledger's back")
    _common(p)
    p.add_argument("--table", help="only this table's chain (default: every table's, and "
                                   "the people's)")
    p.add_argument("--json", action="store_true", help="one JSON object per chain")
    p.add_argument("--head", action="append", default=[], metavar="CODE",
                   help="a head code from a slip or shift report (\"PG-1 #1234 ab12...\"): "
                        "the chain must still hold that link (repeatable)")
    p.add_argument("--checkpoints", metavar="FILE", type=Path,
                   help="the floor's checkpoints.jsonl: the chains must hold every table's "
                        "newest; else says after where the history changed")

    p = sub.add_parser("setup-roles", help="PostgreSQL: give a station's login read and "
                                           "insert only, for its own table's rows (run as "
                                           "the owner of the tables)")
    _common(p)
    p.add_argument("--station-role", metavar="ROLE", default="paigow_station",
                   help="the role the table's station connects as (default paigow_station; "
                        "a DBA creates it)")
    p.add_argument("--table", metavar="NAME", action="append", default=[],
                   help="the table whose rows this login may write, as the station's [table] "
                        "name (PG-1); one login per table (repeatable for a login that "
                        "serves more than one)")
    p.add_argument("--sql", action="store_true", help="print the grants instead of running "
                                                      "them")

    p = sub.add_parser("migrate", help="create the ledger or bring it to the newest schema")
    _common(p)
    p.add_argument("--sql", action="store_true",
                   help="print the SQL for a DBA instead of running it")
    p.add_argument("--create", action="store_true",
                   help="make a new, empty SQLite ledger where none is (other commands refuse "
                        "a path with no ledger)")


def run(args: argparse.Namespace) -> int:
    return on_ledger("ledger", args,
                     lambda config, url: COMMANDS[args.ledger_command](args, config, url))


def on_ledger(command: str, args: argparse.Namespace,
              do: Callable[[TableConfig, str | None], int]) -> int:
    """`do` with the config and the ledger's URL (the command line's, else the config's);
    a bad config, a ledger that refuses or one that is away: a sentence and its exit code
    (every `paigow` command on the ledger answers these alike)."""
    from app.ledger.errors import LedgerError, LedgerUnavailable

    try:
        config = load_config(args.config)
    except ConfigError as err:
        for line in str(err).splitlines():
            say(f"paigow {command}: config: {line}", file=sys.stderr)
        return EXIT_REFUSED
    url = args.database_url or config.ledger.database_url or None
    try:
        return do(config, url)
    except LedgerUnavailable as err:
        say(f"paigow {command}: {err}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except LedgerError as err:
        say(f"paigow {command}: {err}", file=sys.stderr)
        return EXIT_REFUSED


def _store(config: TableConfig, url: str | None, station: str | None = None) -> Store:
    from app.ledger import Store

    _refuse_missing_file(url)
    return Store(url, table=config.table.name, station=station)


def _refuse_missing_file(url: str | None, create: bool = False) -> None:
    """A SQLite ledger that is not there is a mistyped path, not a new ledger: only the
    station's first start, or `migrate --create`, makes one (with its folders)."""
    from app.ledger.database import parse_url
    from app.ledger.errors import LedgerError
    from app.ledger.paths import default_url

    u = parse_url(url or default_url())
    if create or u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:"):
        return
    path = Path(u.database).expanduser()
    if path.exists():  # a file that is not a ledger, or a folder, is said when it is opened
        return
    where = "this station's ledger" if not url else "the ledger"
    raise LedgerError(f"there is no ledger at {path} ({where}): check the path or "
                      f"--database-url; a station makes its ledger on its first start, and "
                      f"`paigow ledger migrate --create` makes an empty one there")


def _history(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    with _store(config, url) as store:
        rounds = store.history(table=args.table, shift=args.shift, seat=args.seat,
                               day=args.date, since=args.since, until=args.until,
                               status=args.status, limit=args.limit or None)
    for r in rounds:
        say(json.dumps(r.to_dict()) if args.json else r.text())
    if not rounds and not args.json:
        say("no rounds", file=sys.stderr)
    return 0


def _slip(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    with _store(config, url) as store:
        stored = store.slip(args.round, args.table)
    say(stored.json if args.json else stored.text)
    for c in stored.corrections:
        say(f"paigow ledger: {c.text()}", file=sys.stderr)
    return 0


def _recall(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    with _store(config, url) as store:
        found = store.recall(args.round, args.table)
    say(json.dumps(found.to_dict()) if args.json else found.text())
    return 0 if found.match else EXIT_BROKEN


def _totals(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    with _store(config, url) as store:
        t = store.totals(table=args.table, shift=args.shift, day=args.date, since=args.since,
                         until=args.until)
    say(json.dumps(t.to_dict(), indent=2) if args.json else t.text())
    return 0


def _shifts(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    with _store(config, url) as store:
        found = store.shifts(table=args.table, limit=args.limit or None)
    for sh in found:
        say(json.dumps(sh.to_dict()) if args.json else sh.text())
    return 0


def _export(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    from app.ledger.errors import LedgerError

    with _store(config, url) as store:
        kw = dict(table=args.table, shift=args.shift, seat=args.seat, day=args.date,
                  since=args.since, until=args.until)
        if args.output:
            try:
                out = open(args.output, "w", newline="", encoding="utf-8")  # noqa: SIM115
            except OSError as e:
                raise LedgerError(f"cannot write {args.output}: {e.strerror or e} (give a "
                                  f"file name in a folder you may write to)") from None
            with out:
                n = store.export_csv(out, args.what, **kw)
            say(f"{n} {args.what} row(s) written to {args.output}", file=sys.stderr)
        elif sys.stdout.isatty():
            # Read by a person, not a program: shown as every other read is. Written to a
            # pipe or a file, the cells stay exactly as stored.
            buf = io.StringIO()
            store.export_csv(buf, args.what, **kw)
            say(buf.getvalue().removesuffix("\n"))
        else:
            store.export_csv(sys.stdout, args.what, **kw)
    return 0


def _status(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    with _store(config, url, args.station) as store:
        status = store.drain() if args.send else store.status()
        revision = None if not status.online else _quiet(store.revision)
    if args.json:
        say(json.dumps({**status.to_dict(), "revision": revision}))
    else:
        say(f"database: {status.database} ({'reachable' if status.online else 'offline'}"
              + (f", schema {revision}" if revision else "") + ")")
        say(f"kept on this station, not yet sent: {status.pending}"
              + (f" (oldest {status.oldest})" if status.oldest else ""))
        if status.held:
            say(f"held, never sent (changed after the station wrote them): {status.held}")
        if status.banner:
            say(status.banner)
    return 0


def _verify(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    from app.ledger import anchors

    given = [anchors.parse_code(code, args.table) for code in args.head]
    if args.checkpoints is not None:
        given += list(anchors.read_checkpoints(args.checkpoints))
    with _store(config, url) as store:
        reports = store.verify(args.table)
        mismatches = store.check_anchors(given) if given else []
    if not reports:
        say("the ledger holds no rows yet: nothing to check", file=sys.stderr)
    for report in reports:
        say(json.dumps(report.to_dict()) if args.json else report.text())
    for m in mismatches:
        say(json.dumps({"chain": m.chain, "anchor": m.detail, "holds_up_to": m.since_seq})
            if args.json else m.text())
    if given and not mismatches and not args.json:
        say(f"{len(given)} anchor(s) from outside the database: the chains hold them")
    if all(r.intact for r in reports) and not mismatches:
        if any(r.unchecked for r in reports):
            # nothing found wrong, but not all of it could be looked at: not a clean bill
            if not args.json:
                say("paigow ledger: this login could not check every chain (above): "
                    "verify with the owner's login, or an auditor's that may read "
                    "users.secret_hash", file=sys.stderr)
            return EXIT_REFUSED
        return 0
    if not args.json:
        say("paigow ledger: the ledger was changed outside the stations: keep this copy "
              "as it is and call the auditor", file=sys.stderr)
    return EXIT_BROKEN


def _setup_roles(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    from app.ledger.database import make_engine, mask, migrate, parse_url
    from app.ledger.errors import LedgerError, LedgerUnavailable
    from app.ledger.roles import grants, setup
    from app.ledger.store import reason, unreachable

    if not url or parse_url(url).get_backend_name() != "postgresql":
        raise LedgerError("setup-roles is for a PostgreSQL ledger: give the owner's "
                          "--database-url postgresql://OWNER@host/paigow")
    if args.sql:
        database = parse_url(url).database or "paigow"
        print(";\n".join(grants(args.station_role, database, args.table)) + ";")
        return 0
    engine = make_engine(url)
    try:
        revision = migrate(engine)
        with engine.begin() as conn:
            done = setup(conn, args.station_role, args.table)
    except LedgerError:
        raise
    except Exception as e:
        if unreachable(e):
            raise LedgerUnavailable(f"the ledger's database ({mask(engine.url)}) cannot be "
                                    f"reached: {reason(e)}") from None
        raise LedgerError(f"the database refused: {reason(e)}") from None
    finally:
        engine.dispose()
    say(f"{mask(engine.url)}: schema {revision}; {len(done)} grant(s) to "
          f"{args.station_role}: it may read, add rows and fill in the round in play "
          f"of table {', '.join(sorted(set(args.table)))} only; no UPDATE of a record, "
          f"DELETE, TRUNCATE, DROP or ALTER")
    return 0


def _quiet(fn: Callable[[], T]) -> T | None:
    try:
        return fn()
    except Exception:  # noqa: BLE001 - the status line says offline instead
        return None


def _migrate(args: argparse.Namespace, config: TableConfig, url: str | None) -> int:
    from app.ledger.database import make_engine, mask, migrate, migration_sql
    from app.ledger.errors import LedgerUnavailable
    from app.ledger.paths import default_url
    from app.ledger.store import reason, unreachable

    if args.sql:
        print(migration_sql(url or default_url()))
        return 0
    _refuse_missing_file(url, create=args.create)
    engine = make_engine(url or default_url())
    try:
        revision = migrate(engine)
    except Exception as e:
        if unreachable(e):
            raise LedgerUnavailable(f"the ledger's database ({mask(engine.url)}) cannot be "
                                    f"reached: {reason(e)}") from None
        raise
    finally:
        engine.dispose()
    say(f"{mask(engine.url)}: schema {revision}")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, TableConfig, str | None], int]] = {
    "history": _history, "slip": _slip, "totals": _totals, "shifts": _shifts,
    "export": _export, "status": _status, "migrate": _migrate,
    "verify": _verify, "recall": _recall, "setup-roles": _setup_roles,
}
