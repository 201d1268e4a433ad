"""A station's login writes only its own table (issue 23, item 8: "the same login can close
another table's round in play or fake its tile"). Two tables, PG-1 and PG-2, each with its
own login as setup-roles gives it, on a real PostgreSQL; the attacker holds PG-2's login
and writes plain SQL, as one would with psql."""

from __future__ import annotations

import io
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import errors

from app.cli import main
from app.core.round import Round
from app.core.round_rules import RoundRules
from app.core.table import Table
from app.ledger import LedgerError, Store
from app.ledger.database import make_engine, migrate
from app.ledger.floor_status import FloorStatus, live_state
from app.ui.main import supervisors

from .conftest import TABLE
from .logins import Floor, enroll_station, people_and_keys
from .pg import PgServer
from .play import bets, record_rounds

OTHER = "PG-2"


class Tables:
    """PG-1 with a settled round and one in play, its tile and a floor request; PG-2 with
    a settled round; each written with its own login."""

    def __init__(self, floor: Floor, tmp_path: Path) -> None:
        self.floor = floor
        self.other = floor.login(OTHER)
        people_and_keys(floor, tmp_path)
        enroll_station(floor, OTHER, "pg-2", tmp_path / "pg-2")
        with Store(floor.url(self.other), table=OTHER, station="pg-2",
                   data_dir=tmp_path / "pg-2") as pg2:
            pg2.open_shift("Lou")
            record_rounds(pg2, 1, "pg-2", RoundRules(table=Table(name=OTHER)))
            assert pg2.drain().pending == 0
            self.other_station = pg2.station_id
        self.store = Store(floor.url(floor.station), table=TABLE, station="pg-1",
                           data_dir=tmp_path / "station")
        self.store.open_shift("Kim")
        record_rounds(self.store, 1, "pg-1")
        self.game = Round(RoundRules(), self.store.rotation())
        self.in_play = self.store.begin(self.game)
        bets(self.game, random.Random(3), self.in_play.save)
        assert self.store.drain().pending == 0
        self.station = self.store.station_id
        tile = FloorStatus(floor.url(floor.station), table=TABLE, station="pg-1",
                           identity=self.station)
        assert tile.beat(live_state(self.game, round_id=self.in_play.round_id, dealer="Kim"))
        tile.close()
        with floor.connect(floor.owner) as conn:  # the floor asks PG-1 to void it
            conn.execute("INSERT INTO floor_requests (id, station_id, round_id, kind, by, "
                         "reason, requested_at) VALUES (%s, %s, %s, 'void', 'Pat Lee', "
                         "'exposed card', now())",
                         (uuid.uuid4(), self.station, self.in_play.round_id))
        self.store.claim()

    def attacker(self) -> psycopg.Connection[tuple[object, ...]]:
        return self.floor.connect(self.other)

    def snapshot(self) -> list[object]:
        """What PG-1 has, read with the owner's login."""
        with self.floor.connect(self.floor.owner) as conn:
            return [conn.execute(sql, {"s": self.station}).fetchall() for sql in (
                "SELECT id, status, void_reason, settled_at FROM rounds "
                "WHERE station_id = %(s)s ORDER BY round_no",
                "SELECT state, dealer, round_id, heartbeat_at FROM station_status "
                "WHERE table_name = 'PG-1'",
                "SELECT closed_at FROM shifts WHERE station_id = %(s)s",
                "SELECT done_at, outcome FROM floor_requests WHERE station_id = %(s)s",
                "SELECT instance, host FROM station_claims WHERE station_id = %(s)s",
                "SELECT count(*) FROM chain WHERE chain = 'PG-1'",
            )]


@pytest.fixture()
def tables(pg_up: PgServer, tmp_path: Path) -> Iterator[Tables]:
    floor = Floor(pg_up)
    assert main(["ledger", "setup-roles", "--database-url", floor.url(floor.owner),
                 "--station-role", floor.station, "--table", TABLE]) == 0
    t = Tables(floor, tmp_path)
    yield t
    t.store.close()


# Another table's rows changed in place: each statement matches no row for PG-2's login.
UPDATES = [
    "UPDATE rounds SET status = 'void', void_reason = 'closed from PG-2' "
    "WHERE table_name = 'PG-1' AND status = 'open'",
    "UPDATE rounds SET phase = 'settled', settled_at = now() WHERE table_name = 'PG-1'",
    "UPDATE station_status SET state = 'idle', dealer = 'Mallory', round_id = NULL, "
    "heartbeat_at = now() WHERE table_name = 'PG-1'",
    "UPDATE shifts SET closed_at = now() WHERE station_id = %(s)s",
    "UPDATE floor_requests SET done_at = now(), outcome = 'done' WHERE station_id = %(s)s",
    "UPDATE station_claims SET instance = 'mallory', host = 'mallory-pc' "
    "WHERE station_id = %(s)s",
]


def test_one_table_s_login_cannot_close_another_s_round_or_change_its_tile(
        tables: Tables) -> None:
    before = tables.snapshot()
    matched = []
    with tables.attacker() as conn:
        for sql in UPDATES:
            matched.append(conn.execute(sql, {"s": tables.station}).rowcount)  # type: ignore[arg-type]
    assert matched == [0] * len(UPDATES)
    assert tables.snapshot() == before
    # and PG-1's own station still plays its round in play to the end
    from .play import finish
    finish(tables.game, tables.in_play.save, random.Random(4))
    assert tables.store.drain().pending == 0
    assert all(r.intact for r in tables.store.verify())


def _copy(table: str, where: str, **changed: str) -> str:
    """`INSERT INTO table SELECT ...`: a row of PG-1's copied whole but for `changed`
    (SQL expressions by column), as an attacker copies a row to be sure it is well formed."""
    return f"""
DO $$
DECLARE cols text;
DECLARE picks text;
BEGIN
    SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position),
           string_agg(CASE column_name {_whens(changed)}
                      ELSE quote_ident(column_name) END, ', ' ORDER BY ordinal_position)
      INTO cols, picks
      FROM information_schema.columns WHERE table_name = '{table}';
    EXECUTE format('INSERT INTO {table} (%s) SELECT %s FROM {table} WHERE {where} LIMIT 1',
                   cols, picks);
END $$"""


def _whens(changed: dict[str, str]) -> str:
    def literal(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"
    return " ".join(f"WHEN {literal(c)} THEN {literal(e)}" for c, e in changed.items())


PG1_ROUND = "round_id IN (SELECT id FROM rounds WHERE table_name = ''PG-1'')"
PG1_STATION = "station_id IN (SELECT id FROM stations WHERE table_name = ''PG-1'')"
NEW_ID = "gen_random_uuid()"

# Rows of PG-1 added with PG-2's login: each is refused.
ADDS = {
    "a round": _copy("rounds", "table_name = ''PG-1''", id=NEW_ID, round_no="round_no + 1000",
                     status="'open'", settled_at="NULL", slip_json="NULL", slip_text="NULL"),
    "a station": _copy("stations", "table_name = ''PG-1''", id=NEW_ID, name="'rogue'"),
    "a shift": _copy("shifts", PG1_STATION, id=NEW_ID, dealer="'Mallory'"),
    "a hand": _copy("hands", PG1_ROUND, id=NEW_ID, position="position + 100"),
    "a wager": _copy("wagers", PG1_ROUND, id=NEW_ID, position="position + 100",
                     amount_cents="500000"),
    "a correction": _copy("settlements", PG1_ROUND, id=NEW_ID, entry="'correction'",
                          entry_no="entry_no + 100", reverses_id="NULL",
                          net_cents="500000", reason="'owed'"),
    "an event": _copy("events", PG1_STATION, id=NEW_ID, seq="seq + 1000"),
    # PG-2's own station, but PG-1's round: the event would show in PG-1's recall
    "an event of its own on PG-1's round": _copy(
        "events", PG1_ROUND, id=NEW_ID, seq="seq + 2000",
        station_id="(SELECT id FROM stations WHERE table_name = 'PG-2')"),
    "a chain link": _copy("chain", "chain = ''PG-1''", seq="seq + 100000"),
    "a tile": _copy("station_status", "table_name = ''PG-1''", station_id=NEW_ID,
                    dealer="'Mallory'"),
}
# (PG-1's claim is taken only by an UPDATE, above: a claim is one row per station)


def test_one_table_s_login_cannot_add_rows_to_another_table(tables: Tables) -> None:
    before = tables.snapshot()
    refused = []
    for what, sql in ADDS.items():
        with tables.attacker() as conn:
            try:
                conn.execute(sql)  # type: ignore[arg-type]
            except errors.InsufficientPrivilege as e:
                assert "row-level security" in str(e)
                refused.append(what)
    assert refused == list(ADDS)
    assert tables.snapshot() == before


def test_a_login_still_writes_its_own_table_and_the_people_s_sign_ins(tables: Tables) -> None:
    """The same copies, of PG-2's own rows, go through: the refusals above are the
    table's, not a want of INSERT."""
    own = {
        "a wager": _copy("wagers", PG1_ROUND.replace("PG-1", "PG-2"), id=NEW_ID,
                         position="position + 100"),
        "a tile": _copy("station_status", "true", station_id=NEW_ID, table_name="'PG-2'"),
    }
    with tables.attacker() as conn:
        for sql in own.values():
            conn.execute(sql)  # type: ignore[arg-type]
        conn.execute("INSERT INTO sign_ins (id, name, action, ok, station, at) VALUES "
                     "(gen_random_uuid(), 'Pat Lee', 'void', false, 'pg-2', now())")
        assert conn.execute("SELECT count(*) FROM station_status WHERE table_name = 'PG-2'"
                            ).fetchone() == (1,)


def test_a_station_started_with_another_table_s_login_refuses_to_start(
        tables: Tables, tmp_path: Path) -> None:
    """Every round it played would be refused and wait in its journal: it says so at
    start, as a config error (exit 2), and which login to use."""
    with Store(tables.floor.url(tables.other), table=TABLE, station="pg-1b",
               data_dir=tmp_path / "pg-1b") as wrong:
        assert wrong.login_refusal() == (
            f"this station's database login ({tables.other}) writes table PG-2 only, and "
            f"this station is table PG-1: its rounds would all be refused. Start it with "
            f"table PG-1's login, or have the ledger's owner run paigow ledger setup-roles "
            f"--station-role {tables.other} --table PG-1")
        with pytest.raises(LedgerError, match=r"writes table PG-2 only, and this station is "
                                              r"table PG-1"):
            supervisors(_Ledger(wrong), demo=False)  # type: ignore[arg-type]
    assert tables.store.login_refusal() is None


class _Ledger:
    def __init__(self, store: Store) -> None:
        self.store = store


def test_setup_roles_asks_which_table_the_login_writes(
        tables: Tables, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ledger", "setup-roles", "--database-url", tables.floor.url(
        tables.floor.owner), "--station-role", tables.floor.station]) == 2
    assert "give the table this login writes: --table PG-1" in capsys.readouterr().err
    assert main(["ledger", "setup-roles", "--database-url", tables.floor.url(
        tables.floor.owner), "--station-role", tables.floor.station, "--table", "*"]) == 2
    assert "'*' is not a table's name" in capsys.readouterr().err


def test_an_upgraded_ledger_s_shared_login_writes_every_table_until_setup_roles_names_one(
        pg_up: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A casino that upgrades with `paigow ledger migrate` alone: its one shared station
    login keeps writing every table (no station stops mid-shift); setup-roles with --table
    then narrows it to one."""
    floor = Floor(pg_up)
    engine = make_engine(floor.url(floor.owner))
    migrate(engine, "0010_secrets")
    with floor.connect(floor.owner) as conn:  # the setup-roles of before, in short
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {floor.station}")  # type: ignore[arg-type]
        conn.execute(f"GRANT INSERT ON stations, sign_ins TO {floor.station}")  # type: ignore[arg-type]
    migrate(engine)
    engine.dispose()
    add = ("INSERT INTO stations (id, table_name, name, first_seen) "
           "VALUES (gen_random_uuid(), %s, gen_random_uuid()::text, now())")
    with floor.connect(floor.station) as conn:
        conn.execute(add, ("PG-7",))
        conn.execute(add, ("PG-8",))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["ledger", "setup-roles", "--database-url", floor.url(floor.owner),
                 "--station-role", floor.station, "--table", "PG-7"]) == 0
    with floor.connect(floor.station) as conn:
        conn.execute(add, ("PG-7",))
        with pytest.raises(errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(add, ("PG-8",))
        assert conn.execute("SELECT role, table_name FROM station_logins").fetchall() == [
            (floor.station, "PG-7")]
