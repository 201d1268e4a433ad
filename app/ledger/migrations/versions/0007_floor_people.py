"""The floor's users become the ledger's people: one `users` table for the stations and the
pit floor (issue 15: "kept in the ledger database so every station and the pit floor share
them"). Each `floor_users` row becomes a person (version 1, "added" by "(floor users)"), its
role in the people's words (pit-supervisor -> pit supervisor, shift-manager -> shift
manager, auditor), its argon2 hash as it was (the same library's format, so every password
still works), disabled as it was. A floor user whose name is a person already is not
copied: the station's person stands, and `floor_log` says so. Then `floor_users` goes; its
lock counts start again in `sign_ins`, where a lock lives from now on.

Downgrade: `floor_users` again, from each person's newest row (a "supervisor" becomes a
pit-supervisor); the people stay.

Revision ID: 0007_floor_people
Revises: 0006_faults
Create Date: 2026-11-27
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import context, op

revision: str = "0007_floor_people"
down_revision: str | None = "0006_faults"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)
TO_PEOPLE = {"pit-supervisor": "pit supervisor", "shift-manager": "shift manager",
             "auditor": "auditor"}
TO_FLOOR = {"pit supervisor": "pit-supervisor", "supervisor": "pit-supervisor",
            "shift manager": "shift-manager", "auditor": "auditor"}
BY = "(floor users)"

floor_users = sa.table(
    "floor_users", sa.column("id", sa.Uuid()), sa.column("name", sa.String()),
    sa.column("role", sa.String()), sa.column("password_hash", sa.String()),
    sa.column("failed", sa.Integer()), sa.column("locked_until", WHEN),
    sa.column("disabled", sa.Boolean()), sa.column("created_at", WHEN))
users = sa.table(
    "users", sa.column("id", sa.Uuid()), sa.column("name", sa.String()),
    sa.column("version", sa.Integer()), sa.column("role", sa.String()),
    sa.column("secret_hash", sa.String()), sa.column("disabled", sa.Boolean()),
    sa.column("change", sa.String()), sa.column("changed_by", sa.String()),
    sa.column("at", WHEN))
floor_log = sa.table(
    "floor_log", sa.column("id", sa.Uuid()), sa.column("at", WHEN),
    sa.column("actor", sa.String()), sa.column("action", sa.String()),
    sa.column("detail", sa.Text()))


def upgrade() -> None:
    from app.ledger.chain import append, stored_as_text

    if context.is_offline_mode():  # the SQL for a DBA: a new ledger has no floor users
        op.drop_table("floor_users")
        return
    conn = op.get_bind()
    people = {name for (name,) in conn.execute(sa.select(users.c.name))}
    at = datetime.now(UTC)
    added: list[tuple[str, str]] = []
    for row in conn.execute(sa.select(floor_users).order_by(floor_users.c.created_at)):
        if row.name in people:
            conn.execute(floor_log.insert().values(
                id=uuid.uuid4(), at=at, actor=None, action="user_merged",
                detail=json.dumps({"name": row.name, "kept": "the ledger's person",
                                   "floor_role": row.role}, sort_keys=True)))
            continue
        person = uuid.uuid4()
        conn.execute(users.insert().values(
            id=person, name=row.name, version=1, role=TO_PEOPLE[row.role],
            secret_hash=row.password_hash, disabled=bool(row.disabled), change="added",
            changed_by=BY, at=row.created_at))
        added.append(("users", str(person)))
        people.add(row.name)
    # the people's chain: each new person linked, as any change is; the rows as this
    # ledger stores them until 0015 (ids as text on SQLite)
    append(conn, added, tables=stored_as_text())
    op.drop_table("floor_users")


def downgrade() -> None:
    op.create_table(
        "floor_users",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("locked_until", WHEN, nullable=True),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_floor_users"),
        sa.UniqueConstraint("name", name="uq_floor_users_name"),
        sa.CheckConstraint("role IN ('pit-supervisor', 'shift-manager', 'auditor')",
                           name="ck_floor_users_role"),
    )
    if context.is_offline_mode():
        return
    conn = op.get_bind()
    newest: dict[str, sa.Row[tuple[object, ...]]] = {}
    for row in conn.execute(sa.select(users).order_by(users.c.name, users.c.version)):
        newest[row.name] = row
    for row in newest.values():
        conn.execute(floor_users.insert().values(
            id=uuid.uuid4(), name=row.name, role=TO_FLOOR.get(row.role, "auditor"),
            password_hash=row.secret_hash, failed=0, locked_until=None,
            disabled=bool(row.disabled), created_at=row.at))
