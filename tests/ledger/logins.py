"""PostgreSQL logins for the role tests: an owner, a station's login per table, a
database of their own on the session's server, and the people made with the owner's."""

from __future__ import annotations

import uuid
from pathlib import Path

import psycopg

from app.ledger import Store

from .conftest import TABLE
from .pg import PORT, PgServer

MANAGER, MANAGER_SECRET = "Ana Ruiz", "ana-knows-77"
SUPERVISOR, SUPERVISOR_SECRET = "Pat Lee", "tiger-lily-42"


class Floor:
    """A database of its own, its owner, and a station's login (`station`, for the table
    the fixture gives it)."""

    def __init__(self, pg: PgServer) -> None:
        suffix = uuid.uuid4().hex[:8]
        self.pg = pg
        self.owner, self.station = f"paigow_owner_{suffix}", f"paigow_station_{suffix}"
        self.db = f"t_roles_{suffix}"
        pg.execute(f"CREATE ROLE {self.owner} LOGIN")
        pg.execute(f"CREATE ROLE {self.station} LOGIN")
        pg.execute(f"CREATE DATABASE {self.db} OWNER {self.owner}")

    def login(self, table: str) -> str:
        """Another station's login, for `table`, with the rights setup-roles gives it."""
        from app.cli import main

        role = f"{self.station}_{table.lower().replace('-', '_')}"
        self.pg.execute(f"CREATE ROLE {role} LOGIN")
        assert main(["ledger", "setup-roles", "--database-url", self.url(self.owner),
                     "--station-role", role, "--table", table]) == 0
        return role

    def url(self, role: str) -> str:
        return f"postgresql://{role}@/{self.db}?host={self.pg.dir}&port={PORT}"

    def connect(self, role: str, autocommit: bool = True
                ) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(host=str(self.pg.dir), port=PORT, user=role, dbname=self.db,
                               autocommit=autocommit)


def people_and_keys(floor: Floor, tmp_path: Path) -> None:
    """People made with the owner's login, and the station's key enrolled with it."""
    with Store(floor.url(floor.owner), table=TABLE, station="manager-pc",
               data_dir=tmp_path / "owner") as office:
        office.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
        ana = office.authorise(MANAGER, MANAGER_SECRET, "manage users")
        office.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=ana)
        office.enroll(office.authorise(MANAGER, MANAGER_SECRET, "enroll"))
    enroll_station(floor, TABLE, "pg-1", tmp_path / "station")


def enroll_station(floor: Floor, table: str, station: str, data_dir: Path) -> None:
    """The station's key enrolled with the owner's login, on the station's PC."""
    with Store(floor.url(floor.owner), table=table, station=station,
               data_dir=data_dir) as enrolling:
        enrolling.enroll(enrolling.authorise(MANAGER, MANAGER_SECRET, "enroll"))
