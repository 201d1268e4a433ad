"""A real PostgreSQL server for the tests: initdb and pg_ctl into a temporary directory,
listening only on a unix socket there. initdb refuses to run as root, so as root the server
is run by the `postgres` system user (the postgresql package makes it)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

INSTALL = ("the ledger tests need the PostgreSQL server (initdb, pg_ctl): install the "
           "'postgresql' package (apt-get install postgresql; `make test` does it)")
PORT = 5432  # names the socket file; the server opens no TCP port


def find_bin() -> Path:
    for pattern in ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin"):
        for found in sorted(glob.glob(pattern), reverse=True):
            if (Path(found) / "initdb").exists() and (Path(found) / "pg_ctl").exists():
                return Path(found)
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).parent
    raise FileNotFoundError(INSTALL)


class PgServer:
    def __init__(self) -> None:
        self.bin = find_bin()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                raise FileNotFoundError("running as root, the tests start PostgreSQL as the "
                                        "'postgres' system user, which is missing: "
                                        + INSTALL) from None
        self.dir = Path(tempfile.mkdtemp(prefix="paigow-pg-", dir="/tmp"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        if self.as_root:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.running = False

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [str(a) for a in args]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                              cwd=self.dir)
        if check and proc.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}\n{log}")
        return proc

    def init(self) -> PgServer:
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        return self

    def start(self) -> None:
        opts = (f"-k {self.dir} -c listen_addresses='' -p {PORT} -c fsync=off "
                f"-c synchronous_commit=off -c full_page_writes=off -c max_connections=100")
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-o", opts, "-w",
                  "-t", "60", "start")
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        if self.running:
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop",
                      check=False)
            self.running = False

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.dir}&port={PORT}"

    def execute(self, sql: str) -> None:
        with psycopg.connect(host=str(self.dir), port=PORT, user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def create_database(self, template: str | None = None) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        # FILE_COPY: the template's files copied whole (with fsync off its checkpoints cost
        # nothing), 90-140 ms a database against 130-190 ms for the default WAL_LOG, which
        # logs every page (measured on this server, ten of each, alternating).
        self.execute(f"CREATE DATABASE {name}"
                     + (f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""))
        return name


@contextmanager
def running_server() -> Iterator[PgServer]:
    """A fresh PostgreSQL server for a fixture, destroyed afterwards; no server binaries
    fails the test with what to install (never a skip)."""
    import pytest

    try:
        server = PgServer()
    except FileNotFoundError as e:
        pytest.fail(str(e), pytrace=False)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.destroy()
