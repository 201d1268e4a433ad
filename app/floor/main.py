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

DEMO_USER = "demo"
DEMO_ROLE = "pit-supervisor"
EXIT_REFUSED = 2


def secret_key(path: Path | None) -> str:
    """The cookie-signing secret: from the file (made 0600 when missing), or one for this
    run only (sessions end when the server stops)."""
    if path is None:
        return secrets.token_urlsafe(48)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database-url", help="the ledger's database (as the stations')")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--secret-file", type=Path,
                   help="the cookie-signing secret (made when missing)")
    p.add_argument("--https-only", action="store_true",
                   help="send the session cookie over https only (behind TLS)")
    p.add_argument("--offline-after", type=float, default=10.0, metavar="SECONDS",
                   help="a station with no heartbeat this long shows offline (default 10)")
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
    from app.ledger import LedgerError
    from app.ledger.database import make_engine, migrate

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
                print(f"{name:24} {role}{state}")
    except (AuthError, LedgerError, ValueError) as e:
        print(f"paigow-floor: {e}", file=sys.stderr)
        return EXIT_REFUSED
    return 0


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.ledger.database import make_engine, migrate

    from .app import FloorSettings, create_app
    from .auth import add_user

    folder: str | None = None
    demo = None
    url = args.database_url
    try:
        if args.demo:
            from .stations import DemoFloor

            folder = tempfile.mkdtemp(prefix="paigow-floor-demo-")
            url = url or f"sqlite:///{folder}/ledger.sqlite"
            engine = make_engine(url)
            migrate(engine)
            password = secrets.token_urlsafe(9)
            add_user(engine, DEMO_USER, DEMO_ROLE, password, by="demo")
            engine.dispose()
            demo = DemoFloor(url, folder, tables=args.tables, round_s=args.round_seconds,
                             supervisor=(DEMO_USER, password))
            demo.start()
        if not url:
            print("paigow-floor: give the ledger's database with --database-url (or try "
                  "--demo)", file=sys.stderr)
            return EXIT_REFUSED
        settings = FloorSettings(database_url=url, secret_key=secret_key(args.secret_file),
                                 https_only=args.https_only, offline_s=args.offline_after,
                                 data_dir=folder)
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
    try:
        return serve(p.parse_args(argv))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
