"""The pit floor: each station's heartbeat and live state, the floor's alerts and their
acknowledgements, the floor's users (argon2 hashes only), the log of what they did, and
what the floor asked a station to do (void the round in play).

Revision ID: 0005_floor
Revises: 0002_append_only
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_floor"
down_revision: str | None = "0004_trust"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "station_status",
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("table_name", sa.String(40), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("dealer", sa.String(100), nullable=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=True),
        sa.Column("round_id", sa.Uuid(), nullable=True),
        sa.Column("banker", sa.String(40), nullable=True),
        sa.Column("action_position", sa.Integer(), nullable=True),
        sa.Column("wagers", sa.Text(), nullable=False),
        sa.Column("devices", sa.Text(), nullable=False),
        sa.Column("last_settled_at", WHEN, nullable=True),
        sa.Column("heartbeat_at", WHEN, nullable=False),
        sa.Column("changed_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("station_id", name="pk_station_status"),
    )
    op.create_index("ix_station_status_table_name", "station_status", ["table_name"])
    op.create_table(
        "floor_alerts",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("table_name", sa.String(40), nullable=False),
        sa.Column("station_id", sa.Uuid(), nullable=True),
        sa.Column("round_id", sa.Uuid(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("raised_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_floor_alerts"),
        sa.UniqueConstraint("key", name="uq_floor_alerts_key"),
    )
    op.create_index("ix_floor_alerts_table_name", "floor_alerts", ["table_name"])
    op.create_index("ix_floor_alerts_raised_at", "floor_alerts", ["raised_at"])
    op.create_table(
        "floor_acks",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("alert_id", sa.Uuid(), nullable=False),
        sa.Column("by", sa.String(100), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_floor_acks"),
        sa.ForeignKeyConstraint(["alert_id"], ["floor_alerts.id"],
                                name="fk_floor_acks_alert_id_floor_alerts"),
        sa.UniqueConstraint("alert_id", name="uq_floor_acks_alert_id"),
    )
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
    op.create_table(
        "floor_log",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("actor", sa.String(100), nullable=True),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_floor_log"),
    )
    op.create_index("ix_floor_log_at", "floor_log", ["at"])
    op.create_table(
        "floor_requests",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("round_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("by", sa.String(100), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("requested_at", WHEN, nullable=False),
        sa.Column("done_at", WHEN, nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_floor_requests"),
    )
    op.create_index("ix_floor_requests_station_id", "floor_requests", ["station_id"])


def downgrade() -> None:
    op.drop_table("floor_requests")
    op.drop_table("floor_log")
    op.drop_table("floor_users")
    op.drop_table("floor_acks")
    op.drop_table("floor_alerts")
    op.drop_table("station_status")
