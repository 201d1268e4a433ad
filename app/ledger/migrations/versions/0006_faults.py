"""Station identity: who is running as each station now (`station_claims`).

A station's identity is a UUID made when it is installed (or on its first start), not its
name. Cloned station PCs carry the same identity; the claim row lets the second one see
that the first is live (its `seen_at` within a few seconds) and refuse to start, rather
than merge its rounds into the first's.

Revision ID: 0006_faults
Revises: 0005_floor
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_faults"
down_revision: str | None = "0005_floor"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "station_claims",
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("instance", sa.String(36), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("boot", sa.String(64), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("claimed_at", WHEN, nullable=False),
        sa.Column("seen_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("station_id", name="pk_station_claims"),
    )


def downgrade() -> None:
    op.drop_table("station_claims")
