"""On PostgreSQL the stations connect as a role that may only insert and read; the schema
and its migrations belong to an owner role (issue 15: "the station's database role owns the
tables, so it can disable or drop the append-only triggers and then UPDATE settled rounds";
"a test connects as the station role and is refused UPDATE, DELETE, TRUNCATE and DROP").

Secrets stay secret (issue 23, item 4: with the station's login "`SELECT secret_hash FROM
users` gave argon2 hashes and a 6-digit PIN was brute-forced offline"): the station's login
reads no hash and checks a secret through the owner's functions, which pace the checks of a
name in a way a caller's ROLLBACK does not undo (docs/trust.md, "Secrets stay secret")."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from psycopg import errors

from app.cli import main
from app.core.round import Round
from app.ledger import LedgerError, NotAuthorised, Recording, Store
from app.ledger.database import make_engine, migrate

from .conftest import TABLE
from .logins import MANAGER, MANAGER_SECRET, SUPERVISOR, SUPERVISOR_SECRET, Floor, people_and_keys
from .pg import PgServer
from .play import bets, record_rounds

BURST = 20  # checks of a name the database's pace never refuses (then one every 30 s)


@pytest.fixture()
def floor(pg_up: PgServer, capsys: pytest.CaptureFixture[str]) -> Iterator[Floor]:
    f = Floor(pg_up)
    assert main(["ledger", "setup-roles", "--database-url", f.url(f.owner),
                 "--station-role", f.station, "--table", TABLE]) == 0
    out = capsys.readouterr().out
    assert f"grant(s) to {f.station}: it may read, add rows and fill in the round" in out
    yield f


def _station(floor: Floor, tmp_path: Path) -> Store:
    """The station, connected with the station's login."""
    return Store(floor.url(floor.station), table=TABLE, station="pg-1",
                 data_dir=tmp_path / "station")


def _shift(floor: Floor, tmp_path: Path) -> list[Recording]:
    """People made with the owner's login; a shift played, a round voided and one corrected
    by a supervisor, and the ledger checked, with the station's."""
    people_and_keys(floor, tmp_path)
    with _station(floor, tmp_path) as station:
        station.open_shift("Kim")
        recs = [r for r in record_rounds(station, 3, "roles") if isinstance(r, Recording)]
        slip = recs[0].game.slip
        assert slip is not None
        line = next(ln for ln in slip.lines if ln.outcome is not None)
        station.correct(recs[0].round_id, line.position, net_cents=line.net + 25,
                        reason="a quarter short", by=SUPERVISOR, secret=SUPERVISOR_SECRET)
        game = Round(recs[-1].game.rules, station.rotation())
        in_play = station.begin(game)
        bets(game, random.Random(7), in_play.save)
        in_play.void("a card was exposed", by=SUPERVISOR, secret=SUPERVISOR_SECRET)
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
        voided = conn.execute("SELECT actor FROM events WHERE kind = 'round_voided'"
                              ).fetchall()
    assert settled == (len(recs),) and corrections == [(SUPERVISOR,)]
    assert voided == [(SUPERVISOR,)]


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


# --- secrets stay secret -----------------------------------------------------------------

def _checks(floor: Floor, name: str, guesses: int) -> list[object]:
    """What `paigow_secret_matches` says to the station's login called directly, as an
    attacker would, each call in a transaction rolled back at once (to undo whatever a
    check might have written)."""
    answers = []
    with floor.connect(floor.station, autocommit=False) as conn:
        for n in range(guesses):
            row = conn.execute("SELECT paigow_secret_matches(%s, %s)",
                               (name, f"$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$guess{n}"))
            answers.append(row.fetchone()[0])  # type: ignore[index]
            conn.rollback()
    return answers


def _hours_pass(floor: Floor, name: str, seconds: int) -> None:
    """The database's pace of the name's checks as it stands `seconds` later."""
    with floor.connect(floor.owner) as conn:
        conn.execute("UPDATE paigow_secrets.pace SET since = since - make_interval(secs => %s)"
                     " WHERE name = %s", (seconds, name))


SECRET_READS = [
    "SELECT secret_hash FROM users",
    "SELECT * FROM users",
    "SELECT * FROM paigow_secrets.key",
    "SELECT * FROM paigow_secrets.pace",
    "SELECT paigow_secrets.pace_from_now('Pat Lee')",
]


def test_the_station_s_login_reads_no_secret_hash_while_its_shift_goes_through(
        floor: Floor, tmp_path: Path) -> None:
    """The attack: `SELECT secret_hash FROM users` with the station's login gave the argon2
    hashes to guess offline. The same whole shift (a void and a correction by a supervisor
    who gives their secret at the station included) goes through while every read of a
    hash, or of what paces the checks, is refused."""
    _shift(floor, tmp_path)
    refused = []
    for sql in SECRET_READS:
        with floor.connect(floor.station) as conn:
            try:
                conn.execute(sql)  # type: ignore[arg-type]
            except errors.InsufficientPrivilege:
                refused.append(sql)
    assert refused == SECRET_READS
    with floor.connect(floor.station) as conn:  # everything else of a person is read
        people = conn.execute("SELECT name, role, disabled FROM users ORDER BY name"
                              ).fetchall()
    assert people == [(MANAGER, "shift manager", False), (SUPERVISOR, "pit supervisor", False)]


def test_checks_called_directly_are_paced_though_each_is_rolled_back(
        floor: Floor, tmp_path: Path) -> None:
    """A check writes nothing a ROLLBACK could undo: after the burst, a guesser calling the
    function directly is refused (NULL, nothing compared) however it ends its transactions,
    and the station's own path then says to wait, its secret unchecked."""
    people_and_keys(floor, tmp_path)
    answers = _checks(floor, SUPERVISOR, BURST + 5)
    assert answers == [False] * BURST + [None] * 5
    with _station(floor, tmp_path) as station, pytest.raises(
            NotAuthorised, match=r"^Too many tries of Pat Lee's secret: try again in "
                                 r"\d+ seconds .*the secret was not checked"):
        station.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void")
    assert _checks(floor, MANAGER, 1) == [False]  # the pace is the name's alone


def test_refused_checks_cost_nothing_so_a_guesser_cannot_lock_the_person_out(
        floor: Floor, tmp_path: Path) -> None:
    """A lock is not a weapon: a thousand calls refused while the pace runs out do not push
    the person's next check back; once the next one is due (30 s), it is taken."""
    people_and_keys(floor, tmp_path)
    assert _checks(floor, SUPERVISOR, BURST + 1000)[BURST:] == [None] * 1000
    _hours_pass(floor, SUPERVISOR, 30)
    with _station(floor, tmp_path) as station:
        assert station.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    assert _checks(floor, SUPERVISOR, 1) == [None]  # and it was the one due


@pytest.mark.real_argon2  # the shape of the shipped cost's salt
def test_a_name_nobody_has_gets_a_salt_of_the_same_shape_the_same_on_every_call(
        floor: Floor, tmp_path: Path) -> None:
    people_and_keys(floor, tmp_path)
    lib = PasswordHasher()
    shape = re.compile(rf"^\$argon2id\$v=19\$m={lib.memory_cost},t={lib.time_cost},"
                       rf"p={lib.parallelism}\$[A-Za-z0-9+/]{{22}}$")
    with floor.connect(floor.station) as conn:
        names = [SUPERVISOR, "Mallory Vance", "Mallory Vance", "Mallory Vancf"]
        salts = [conn.execute("SELECT paigow_secret_salt(%s)", (name,)).fetchone()
                 for name in names]
    real, nobody, again, other = (str(row[0]) for row in salts if row is not None)
    with floor.connect(floor.owner) as conn:
        stored = conn.execute("SELECT secret_hash FROM users WHERE name = %s",
                              (SUPERVISOR,)).fetchone()
    assert stored is not None and real == stored[0].rsplit("$", 1)[0]
    assert shape.match(real) and shape.match(nobody)
    assert again == nobody and other != nobody


def test_a_reset_secret_works_at_once_even_while_the_old_one_is_being_guessed(
        floor: Floor, tmp_path: Path) -> None:
    people_and_keys(floor, tmp_path)
    assert None in _checks(floor, SUPERVISOR, BURST + 1)  # the name's checks used up
    with Store(floor.url(floor.owner), table=TABLE, station="manager-pc",
               data_dir=tmp_path / "owner") as office:
        ana = office.authorise(MANAGER, MANAGER_SECRET, "manage users")
        office.reset_person(SUPERVISOR, "new-lily-43", by=ana)
    with _station(floor, tmp_path) as station:
        assert station.authorise(SUPERVISOR, "new-lily-43", "void").name == SUPERVISOR
        with pytest.raises(NotAuthorised, match="^Wrong name or secret for Pat Lee"):
            station.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void")


def _tries_taken(floor: Floor, name: str) -> int:
    with floor.connect(floor.owner) as conn:
        row = conn.execute("SELECT tries, tries_base FROM paigow_secrets.pace "
                           "WHERE name = %s", (name,)).fetchone()
        assert row is not None
        last = conn.execute(f"SELECT last_value FROM paigow_secrets.{row[0]}"  # type: ignore[arg-type]
                            ).fetchone()
    assert last is not None
    return int(last[0]) - int(row[1])


def test_a_right_secret_authorises_through_the_station_s_login_checked_by_the_database(
        floor: Floor, tmp_path: Path) -> None:
    """The station cannot read the hash, so the database's function checked it: one
    check taken from the person's pace for each try, right or wrong."""
    people_and_keys(floor, tmp_path)
    before = _tries_taken(floor, SUPERVISOR)
    with _station(floor, tmp_path) as station:
        assert station.authorise(SUPERVISOR, SUPERVISOR_SECRET, "correct").role \
            == "pit supervisor"
        with pytest.raises(NotAuthorised, match="^Wrong name or secret for Pat Lee"):
            station.authorise(SUPERVISOR, "tiger-lily-24", "correct")
    assert _tries_taken(floor, SUPERVISOR) == before + 2


def test_verify_with_the_station_s_login_says_the_people_s_chain_needs_the_owner_s(
        floor: Floor, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _shift(floor, tmp_path)
    assert main(["ledger", "verify", "--database-url", floor.url(floor.station)]) == 2
    said = capsys.readouterr()
    assert re.search(r"^PG-1: \d+ rows checked, chain intact$", said.out, re.M)
    assert re.search(r"^people: not checked whole: the people's chain needs the owner's or "
                     r"an auditor's login to check", said.out, re.M)
    assert "this login could not check every chain" in said.err
    assert main(["ledger", "verify", "--database-url", floor.url(floor.owner)]) == 0
    assert re.search(r"^people: \d+ rows checked, chain intact$", capsys.readouterr().out,
                     re.M)


def test_an_upgraded_ledger_s_station_login_loses_the_hashes_and_its_people_are_paced(
        pg_up: PgServer) -> None:
    """A casino that upgrades with `paigow ledger migrate` alone: its station's login, set
    up by the setup-roles of before (SELECT on every table), no longer reads a hash, and
    the people it had are paced each on their own."""
    floor = Floor(pg_up)
    engine = make_engine(floor.url(floor.owner))
    migrate(engine, "0009_floor_logouts")
    with floor.connect(floor.owner) as conn:
        conn.execute("INSERT INTO users (id, name, version, role, secret_hash, disabled, "
                     "change, changed_by, at) VALUES (gen_random_uuid(), %s, 1, "
                     "'pit supervisor', %s, false, 'added', '(installation)', now())",
                     (SUPERVISOR, PasswordHasher().hash(SUPERVISOR_SECRET)))
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {floor.station}")  # type: ignore[arg-type]
        conn.execute(f"GRANT INSERT ON sign_ins TO {floor.station}")  # type: ignore[arg-type]
    migrate(engine)
    engine.dispose()
    with floor.connect(floor.station) as conn, pytest.raises(errors.InsufficientPrivilege):
        conn.execute("SELECT secret_hash FROM users")
    assert _checks(floor, SUPERVISOR, BURST + 1) == [False] * BURST + [None]
    assert _checks(floor, "Mallory Vance", 1) == [False]  # nobody's pace is another


def test_a_station_whose_login_may_not_check_secrets_says_the_owner_runs_setup_roles(
        floor: Floor, tmp_path: Path) -> None:
    people_and_keys(floor, tmp_path)
    with floor.connect(floor.owner) as conn:
        conn.execute(f"REVOKE EXECUTE ON FUNCTION paigow_secret_salt(text), "  # type: ignore[arg-type]
                     f"paigow_secret_matches(text, text) FROM {floor.station}")
    with _station(floor, tmp_path) as station, pytest.raises(
            LedgerError, match=r"^this login may not check a secret .*: the owner runs "
                               r"`paigow ledger setup-roles --station-role ROLE` again"):
        station.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void")


def test_the_station_role_adds_a_bonus_round_s_lines_and_may_never_change_them(
        floor: Floor, tmp_path: Path) -> None:
    """Migration 0014: the bonus and envy rows are added with the round's settlement rows
    through the station's login, and like them are never updated, deleted or truncated."""
    from app.core.bonus import BonusRules
    from app.core.bonus.table_bonus import TableBonus
    from app.core.round import RoundRules

    people_and_keys(floor, tmp_path)
    # no payout waits for a supervisor: this test is the rows', not the approval's
    rules = RoundRules(bonus=TableBonus(rules=BonusRules(supervisor_at=10**12)))
    with _station(floor, tmp_path) as station:
        station.open_shift("Kim")
        record_rounds(station, 4, "bonus rows", rules)
        status = station.drain()
        assert (status.pending, status.refused, status.held) == (0, None, 0)
        assert all(r.intact for r in station.verify())
    refused = []
    with floor.connect(floor.station) as conn:
        (lines,) = conn.execute("SELECT count(*) FROM bonus_settlements").fetchone() or (0,)
        assert lines > 0
        for sql in ("UPDATE bonus_settlements SET paid_cents = 100000",
                    "DELETE FROM bonus_settlements", "TRUNCATE bonus_settlements"):
            try:
                conn.execute(sql)  # type: ignore[arg-type]
            except errors.InsufficientPrivilege:
                refused.append(sql)
    assert len(refused) == 3
