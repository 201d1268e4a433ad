"""On PostgreSQL the stations connect as a role that may only insert and read; the schema
and its migrations belong to an owner role (issue 15: "the station's database role owns the
tables, so it can disable or drop the append-only triggers and then UPDATE settled rounds";
"a test connects as the station role and is refused UPDATE, DELETE, TRUNCATE and DROP")."""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import errors

from app.cli import main
from app.ledger import Recording, Store

from .conftest import TABLE
from .pg import PORT, PgServer
from .play import record_rounds

MANAGER, MANAGER_SECRET = "Ana Ruiz", "ana-knows-77"
SUPERVISOR, SUPERVISOR_SECRET = "Pat Lee", "tiger-lily-42"


class Floor:
    def __init__(self, pg: PgServer) -> None:
        suffix = uuid.uuid4().hex[:8]
        self.pg = pg
        self.owner, self.station = f"paigow_owner_{suffix}", f"paigow_station_{suffix}"
        self.db = f"t_roles_{suffix}"
        pg.execute(f"CREATE ROLE {self.owner} LOGIN")
        pg.execute(f"CREATE ROLE {self.station} LOGIN")
        pg.execute(f"CREATE DATABASE {self.db} OWNER {self.owner}")

    def url(self, role: str) -> str:
        return f"postgresql://{role}@/{self.db}?host={self.pg.dir}&port={PORT}"

    def connect(self, role: str) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(host=str(self.pg.dir), port=PORT, user=role, dbname=self.db,
                               autocommit=True)


@pytest.fixture()
def floor(pg_up: PgServer, capsys: pytest.CaptureFixture[str]) -> Iterator[Floor]:
    f = Floor(pg_up)
    assert main(["ledger", "setup-roles", "--database-url", f.url(f.owner),
                 "--station-role", f.station]) == 0
    out = capsys.readouterr().out
    assert f"grant(s) to {f.station}: it may read, add rows and fill in the round" in out
    yield f


def _shift(floor: Floor, tmp_path: Path) -> list[Recording]:
    """People made with the owner's login; a shift played, corrected and checked with the
    station's."""
    with Store(floor.url(floor.owner), table=TABLE, station="manager-pc",
               data_dir=tmp_path / "owner") as office:
        office.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
        ana = office.authorise(MANAGER, MANAGER_SECRET, "manage users")
        office.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=ana)
        office.enroll(office.authorise(MANAGER, MANAGER_SECRET, "enroll"))
    # the station's key is enrolled with the owner's login, on the station's PC
    with Store(floor.url(floor.owner), table=TABLE, station="pg-1",
               data_dir=tmp_path / "station") as enrolling:
        enrolling.enroll(enrolling.authorise(MANAGER, MANAGER_SECRET, "enroll"))
    with Store(floor.url(floor.station), table=TABLE, station="pg-1",
               data_dir=tmp_path / "station") as station:
        station.open_shift("Kim")
        recs = [r for r in record_rounds(station, 3, "roles") if isinstance(r, Recording)]
        slip = recs[0].game.slip
        assert slip is not None
        line = next(ln for ln in slip.lines if ln.outcome is not None)
        station.correct(recs[0].round_id, line.position, net_cents=line.net + 25,
                        reason="a quarter short", by=SUPERVISOR, secret=SUPERVISOR_SECRET)
        station.close_shift()
        status = station.drain()
        assert (status.pending, status.refused, status.held) == (0, None, 0)
        assert all(r.intact for r in station.verify())
    return recs


def test_a_whole_shift_records_through_the_station_role(floor: Floor, tmp_path: Path) -> None:
    recs = _shift(floor, tmp_path)
    with floor.connect(floor.station) as conn:
        settled = conn.execute("SELECT count(*) FROM rounds WHERE status = 'settled'"
                               ).fetchone()
        corrections = conn.execute("SELECT \"by\" FROM settlements WHERE entry = "
                                   "'correction'").fetchall()
    assert settled == (len(recs),) and corrections == [(SUPERVISOR,)]


REFUSED = [
    "UPDATE events SET kind = 'x'",
    "UPDATE settlements SET net_cents = 100000",
    "UPDATE rounds SET config = '{}'",  # a round's rules are not a column it fills in
    "UPDATE users SET role = 'shift manager'",
    "DELETE FROM events",
    "DELETE FROM chain",
    "TRUNCATE events",
    "TRUNCATE rounds CASCADE",
    "DROP TABLE events",
    "DROP TRIGGER ledger_final ON rounds",
    "ALTER TABLE rounds DISABLE TRIGGER ledger_final",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "ALTER TABLE settlements ADD COLUMN note text",
    "SET session_replication_role = replica",
    "INSERT INTO users (id, name, version, role, secret_hash, disabled, change, changed_by, "
    "at) VALUES (gen_random_uuid(), 'Mallory', 1, 'shift manager', 'x', false, 'added', "
    "'Mallory', now())",
    "CREATE TABLE mine (x int)",
]


def test_the_station_role_is_refused_what_would_change_the_record(
        floor: Floor, tmp_path: Path) -> None:
    _shift(floor, tmp_path)
    refused = []
    with floor.connect(floor.station) as conn:
        for sql in REFUSED:
            try:
                conn.execute(sql)  # type: ignore[arg-type]
            except errors.InsufficientPrivilege:
                refused.append(sql)
    assert refused == REFUSED
    with floor.connect(floor.station) as conn:  # and nothing of it happened
        assert conn.execute("SELECT count(*) FROM users WHERE name = 'Mallory'").fetchone() \
            == (0,)


def test_a_settled_round_cannot_be_filled_in_again_even_by_the_station(
        floor: Floor, tmp_path: Path) -> None:
    """The columns a round is filled in with are the station's to write while it is in
    play; once settled, the triggers (which the role cannot switch off) refuse."""
    _shift(floor, tmp_path)
    with floor.connect(floor.station) as conn, pytest.raises(
            errors.IntegrityConstraintViolation, match="a settled round cannot change"):
        conn.execute("UPDATE rounds SET house_net_cents = 0 WHERE status = 'settled'")


def test_people_are_changed_only_with_the_owner_s_login(
        floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _shift(floor, tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{MANAGER_SECRET}\nmallory-pw-1\n"))
    code = main(["users", "add", "Mallory", "--by", MANAGER, "--role", "shift manager",
                 "--database-url", floor.url(floor.station)])
    err = capsys.readouterr().err
    assert code == 2
    assert "the ledger's database refused this login" in err
    assert "people are changed, and the schema migrated, with the owner's login" in err


def test_a_station_s_login_cannot_enroll_a_key_of_its_own_making(
        floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _shift(floor, tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{MANAGER_SECRET}\n"))
    code = main(["stations", "enroll", "--by", MANAGER, "--data-dir", str(tmp_path / "rogue"),
                 "--database-url", floor.url(floor.station)])
    assert code == 2
    assert "the ledger's database refused this login" in capsys.readouterr().err
    with floor.connect(floor.station) as conn, pytest.raises(errors.InsufficientPrivilege):
        conn.execute("INSERT INTO chain_unsigned (chain, upto_seq) VALUES ('PG-1', 100000)")


def test_setup_roles_refuses_the_station_s_own_login_and_sqlite(
        floor: Floor, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ledger", "setup-roles", "--database-url", floor.url(floor.station),
                 "--station-role", floor.station]) == 2
    assert f"connected as {floor.station}" in capsys.readouterr().err
    assert main(["ledger", "setup-roles", "--database-url",
                 f"sqlite:///{tmp_path / 'x.sqlite'}"]) == 2
    assert "setup-roles is for a PostgreSQL ledger" in capsys.readouterr().err
