"""Migration 0007_floor_people: the floor's users become the ledger's people (issue 15:
"kept in the ledger database so every station and the pit floor share them"; issue 16:
"roles pit supervisor / shift manager / auditor"). Every floor password still works, the
people's chain still verifies, a name already a person keeps the person, and down again
gives the floor its own table back. On SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from alembic import command
from argon2 import PasswordHasher
from sqlalchemy import Boolean, DateTime, Uuid, column, insert, inspect, select, table
from sqlalchemy.orm import Session

from app.floor import auth
from app.ledger import Store, chain, people
from app.ledger.database import HEAD, alembic_config, make_engine, migrate
from app.ledger.models import FloorLog, User

from .enrolled import enroll
from .old_storage import TABLES as OLD

LIGHT = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
WHEN = DateTime(timezone=True)
FLOOR_USERS = table("floor_users", column("id", Uuid()), column("name"), column("role"),
                    column("password_hash"), column("failed"), column("locked_until", WHEN),
                    column("disabled", Boolean()), column("created_at", WHEN))


def test_floor_users_become_people_whose_passwords_roles_and_chain_hold(
        empty_database_url: str, tmp_path) -> None:  # noqa: ANN001
    engine = make_engine(empty_database_url)
    migrate(engine, "0005_floor")
    at = datetime(2026, 11, 1, tzinfo=UTC)
    with engine.begin() as conn:
        for name, role, disabled in (("Pat Lee", "pit-supervisor", False),
                                     ("Max Ode", "shift-manager", False),
                                     ("Aud Ito", "auditor", False),
                                     ("Old Hand", "pit-supervisor", True)):
            conn.execute(FLOOR_USERS.insert().values(
                id=uuid.uuid4(), name=name, role=role,
                password_hash=LIGHT.hash(f"{name} password"), failed=0, locked_until=None,
                disabled=disabled, created_at=at))
    migrate(engine)
    assert "floor_users" not in inspect(engine).get_table_names()
    with Session(engine) as s:
        people = {u.name: (u.role, u.disabled, u.version, u.changed_by)
                  for u in s.scalars(select(User))}
    assert people == {"Pat Lee": ("pit supervisor", False, 1, "(floor users)"),
                      "Max Ode": ("shift manager", False, 1, "(floor users)"),
                      "Aud Ito": ("auditor", False, 1, "(floor users)"),
                      "Old Hand": ("pit supervisor", True, 1, "(floor users)")}
    # Every password works as it did, at the floor and at a station.
    with Store(empty_database_url, table="PG-1", station="s",
               data_dir=tmp_path / "s2") as store:
        floor = chain.signing(engine, store.signer)  # a floor signs its logins' tries
        assert auth.verify(floor, "Max Ode", "Max Ode password").role == "shift manager"
        assert store.authorise("Pat Lee", "Pat Lee password", "void").name == "Pat Lee"
        enroll(store, "Max Ode", "Max Ode password")
        reports = store.verify()
        assert reports and all(r.intact for r in reports), [r.text() for r in reports]
    engine.dispose()


def test_a_floor_user_already_a_person_keeps_the_person_and_down_again_brings_them_back(
        empty_database_url: str, tmp_path) -> None:  # noqa: ANN001
    engine = make_engine(empty_database_url)
    migrate(engine, "0005_floor")
    # at 0005 on purpose (people exist from 0004), written as a station of then would:
    # unsigned (signing began with 0008), and with no pace of its checks (0010 makes it)
    # (ids and its link's hashes kept as text, as before migration 0015)
    with engine.begin() as conn:
        pat = uuid.uuid4()
        conn.execute(insert(OLD["users"]).values(
            id=pat, name="Pat Lee", version=1, role="shift manager",
            secret_hash=LIGHT.hash("station-secret-1"), disabled=False, change="added",
            changed_by=people.FIRST, at=datetime.now(UTC)))
        chain.append(conn, [("users", str(pat))], tables=OLD)
    with engine.begin() as conn:
        conn.execute(FLOOR_USERS.insert().values(
            id=uuid.uuid4(), name="Pat Lee", role="auditor",
            password_hash=LIGHT.hash("floor password"), failed=0, locked_until=None,
            disabled=False, created_at=datetime.now(UTC)))
    migrate(engine)
    with Session(engine) as s:
        pat = list(s.scalars(select(User).where(User.name == "Pat Lee")))
        merged = list(s.scalars(select(FloorLog).where(FloorLog.action == "user_merged")))
    assert [(u.role, u.version) for u in pat] == [("shift manager", 1)]
    assert len(merged) == 1 and "Pat Lee" in merged[0].detail
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005_floor")
    with engine.connect() as conn:
        back = [(r.name, r.role, r.disabled) for r in conn.execute(select(FLOOR_USERS))]
    assert back == [("Pat Lee", "shift-manager", False)]
    assert migrate(engine) == HEAD  # up again, past 0007 to the newest
    engine.dispose()
