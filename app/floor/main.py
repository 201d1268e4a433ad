"""`paigow-floor`: the pit floor's web server, its demo, and its users.

    paigow-floor --database-url postgresql://paigow@db/paigow      # serve a real floor
    paigow-floor --demo                                            # four simulated tables
    paigow-floor user add NAME --role pit-supervisor               # (also `paigow floor user`)

The server listens on 127.0.0.1 unless `--host` says otherwise; put TLS in front of it
(docs/floor.md) before opening it to the casino's network. The session cookie is signed
with the secret in `--secret-file` (made, readable by its owner only, when missing).
"""

from __future__ import annotations

import argparse
import getpass
import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

from drivers.private import open_private

DEMO_USER = "demo"
DEMO_PROGRESSIVE = "linked-pai-gow"  # the shipped card every demo table is on
DEMO_ROLE = "pit-supervisor"
EXIT_REFUSED = 2
EXIT_UNREACHABLE = 4  # as `paigow ledger`: the database cannot be reached


class Refused(Exception):
    """The floor cannot start as asked: the sentence says why and what to do (exit 2)."""


def secret_key(path: Path | None) -> str:
    """The cookie-signing secret: from the file (made 0600 when missing), or one for this
    run only (sessions end when the server stops). `Refused` when the file is no secret."""
    if path is None:
        return secrets.token_urlsafe(48)
    try:
        if not path.exists():
            with open_private(path, "x", encoding="utf-8") as f:  # 0600, its folders 0700
                f.write(secrets.token_urlsafe(48))
        key = path.read_text(encoding="utf-8").strip()
    except OSError as e:
        raise Refused(f"the secret file {path} cannot be used ({e.strerror or e}): give a "
                      f"file this user may read, or a new name for the floor to make "
                      f"one") from None
    except UnicodeDecodeError:
        raise Refused(f"the secret file {path} is not text: it is not a secret the floor "
                      f"made; give another name and the floor makes one") from None
    if len(key) < MIN_SECRET:
        raise Refused(f"the secret file {path} holds {len(key)} characters: a cookie-signing "
                      f"secret is at least {MIN_SECRET}; delete it (or give a new name) and "
                      f"the floor makes one")
    return key


MIN_SECRET = 32  # characters; the floor makes 64 (48 random bytes)


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text[:6]) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r:.40} is not a TCP port: 1 to 65535")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    # NaN is outside every range: a station would never show offline.
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"{text!r:.40} is not a number of seconds from above "
                                         f"0 to 86400 (a day)")
    return value


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database-url", help="the ledger's database (as the stations')")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8080)
    p.add_argument("--secret-file", type=Path,
                   help="the cookie-signing secret (made when missing)")
    p.add_argument("--https-only", action="store_true",
                   help="send the session cookie over https only (behind TLS)")
    p.add_argument("--offline-after", type=_seconds, default=10.0, metavar="SECONDS",
                   help="a station with no heartbeat this long shows offline (default 10)")
    p.add_argument("--config", type=Path, metavar="FILE",
                   help="the site's config file, for its [floor] section: the gaming day "
                        "the shift report counts by (else PAIGOW_CONFIG; default: 06:00 "
                        "local, shifts at 14:00 and 22:00)")
    p.add_argument("--demo", action="store_true",
                   help="a demo floor: a fresh SQLite ledger and four simulated tables")
    p.add_argument("--tables", type=int, default=4, help="the demo's tables (default 4)")
    p.add_argument("--round-seconds", type=float, default=8.0,
                   help="the demo's pace: about one round per table this often")


def add_user_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database-url", required=True, help="the ledger's database")
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = sub.add_parser("add", help="add a floor user (asks for the password)")
    add.add_argument("name")
    add.add_argument("--role", required=True,
                     choices=("pit-supervisor", "shift-manager", "auditor"))
    pw = sub.add_parser("password", help="set a user's password (asks for it)")
    pw.add_argument("name")
    rm = sub.add_parser("remove", help="disable a user (the log keeps their name)")
    rm.add_argument("name")
    role = sub.add_parser("role", help="give a user another role (their sessions end)")
    role.add_argument("name")
    role.add_argument("--role", required=True,
                      choices=("pit-supervisor", "shift-manager", "auditor"))
    sub.add_parser("list", help="the floor's users")


def ask_password() -> str:
    env = os.environ.get("PAIGOW_FLOOR_PASSWORD")
    if env:  # for scripts; never on the command line, where `ps` shows it
        return env
    first = getpass.getpass("Password: ")
    if first != getpass.getpass("Again: "):
        raise ValueError("the two passwords differ: nothing was changed")
    return first


def run_user(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from app.ledger import LedgerError
    from app.ledger.database import make_engine, mask_text, migrate
    from app.ledger.escape import shown
    from app.ledger.store import reason, unreachable

    from .auth import AuthError, add_user, remove_user, set_password, set_role, users

    try:
        engine = make_engine(args.database_url)
        migrate(engine)
        if args.action == "add":
            add_user(engine, args.name, args.role, ask_password(), by=getpass.getuser())
            print(f"floor user {args.name!r} added ({args.role})")
        elif args.action == "password":
            set_password(engine, args.name, ask_password(), by=getpass.getuser())
            print(f"password of {args.name!r} set")
        elif args.action == "remove":
            remove_user(engine, args.name, by=getpass.getuser())
            print(f"floor user {args.name!r} removed")
        elif args.action == "role":
            set_role(engine, args.name, args.role, by=getpass.getuser())
            print(f"floor user {args.name!r} is now {args.role}")
        else:
            for name, role, disabled, slowed in users(engine):
                state = " (removed)" if disabled else (
                    f" (wrong tries: every try waits until {slowed:%H:%M:%S} UTC)"
                    if slowed else "")
                # Shown, not obeyed: a name written into the database with ESC sequences.
                print(shown(f"{name:24} {role}{state}"))
    except (AuthError, LedgerError, ValueError) as e:
        print(shown(f"paigow-floor: {e}"), file=sys.stderr)
        return EXIT_REFUSED
    except DBAPIError as e:  # the driver's error, said in its one line as the ledger says it
        if unreachable(e):
            print(f"paigow-floor: the ledger's database ({mask_text(args.database_url)}) "
                  f"cannot be reached: {reason(e)}", file=sys.stderr)
            return EXIT_UNREACHABLE
        print(f"paigow-floor: the database refused: {reason(e)}", file=sys.stderr)
        return EXIT_REFUSED
    return 0


def serve(args: argparse.Namespace, key: str) -> int:
    import uvicorn

    from app.ledger.database import make_engine, migrate
    from app.settings import ConfigError, load_config

    from .app import FloorSettings, create_app
    from .auth import add_user

    try:
        gaming_day = load_config(args.config).floor.gaming_day()
    except ConfigError as e:
        print(f"paigow-floor: {e}", file=sys.stderr)
        return EXIT_REFUSED
    folder: str | None = None
    demo = None
    url = args.database_url
    try:
        if args.demo:
            from app.core.progressive import progressive_card

            from .stations import DemoFloor

            folder = tempfile.mkdtemp(prefix="paigow-floor-demo-")
            url = url or f"sqlite:///{folder}/ledger.sqlite"
            engine = make_engine(url)
            migrate(engine)
            password = secrets.token_urlsafe(9)
            add_user(engine, DEMO_USER, DEMO_ROLE, password, by="demo")
            engine.dispose()
            # every demo table on the shipped linked progressive: its page has a meter
            demo = DemoFloor(url, folder, tables=args.tables, round_s=args.round_seconds,
                             supervisor=(DEMO_USER, password),
                             progressive=progressive_card(DEMO_PROGRESSIVE))
            demo.start()
        if not url:
            print("paigow-floor: give the ledger's database with --database-url (or try "
                  "--demo)", file=sys.stderr)
            return EXIT_REFUSED
        settings = FloorSettings(database_url=url, secret_key=key,
                                 https_only=args.https_only, offline_s=args.offline_after,
                                 data_dir=folder, gaming_day=gaming_day)
        app = create_app(settings)
        print(f"The pit floor is at http://{args.host}:{args.port}/", flush=True)
        if args.demo:
            print(f"Demo floor: {args.tables} simulated tables. Log in as {DEMO_USER!r} with "
                  f"password {password!r} ({DEMO_ROLE}). Ctrl+C stops it.", flush=True)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
        return 0
    finally:
        if demo is not None:
            demo.stop()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["user"]:
        p = argparse.ArgumentParser(prog="paigow-floor user",
                                    description="manage the floor's users")
        add_user_arguments(p)
        return run_user(p.parse_args(argv[1:]))
    p = argparse.ArgumentParser(prog="paigow-floor", description=__doc__.split("\n")[0],
                                epilog="paigow-floor user --help: the floor's users")
    add_serve_arguments(p)
    args = p.parse_args(argv)
    try:  # before the ledger's modules load (1.5 s of CPU): a file that is no secret at once
        key = secret_key(args.secret_file)
    except Refused as e:
        print(f"paigow-floor: {e}", file=sys.stderr)
        return EXIT_REFUSED
    from sqlalchemy.exc import DBAPIError

    from app.ledger import LedgerError
    from app.ledger.database import mask_text
    from app.ledger.store import reason, unreachable

    try:
        return serve(args, key)
    except KeyboardInterrupt:
        return 130
    except (Refused, LedgerError) as e:
        print(f"paigow-floor: {e}", file=sys.stderr)
        return EXIT_REFUSED
    except DBAPIError as e:  # the driver's error, said in its one line as the ledger says it
        if not unreachable(e):
            print(f"paigow-floor: the database refused: {reason(e)}", file=sys.stderr)
            return EXIT_REFUSED
        print(f"paigow-floor: the ledger's database ({mask_text(args.database_url or '')}) "
              f"cannot be reached: {reason(e)}", file=sys.stderr)
        return EXIT_UNREACHABLE


if __name__ == "__main__":
    sys.exit(main())
