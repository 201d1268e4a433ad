"""The ledger: stations, shifts, rounds, hands, wagers, settlements, bank decisions, events.

Revision ID: 0001_ledger
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_ledger"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)
CENTS = sa.BigInteger()


def _id() -> sa.Column[object]:
    return sa.Column("id", sa.Uuid(), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "stations", _id(),
        sa.Column("table_name", sa.String(40), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("first_seen", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_stations"),
        sa.UniqueConstraint("table_name", "name", name="uq_stations_table_name_name"),
    )
    op.create_table(
        "shifts", _id(),
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("dealer", sa.String(100), nullable=False),
        sa.Column("opened_at", WHEN, nullable=False),
        sa.Column("closed_at", WHEN, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_shifts"),
        sa.ForeignKeyConstraint(["station_id"], ["stations.id"],
                                name="fk_shifts_station_id_stations"),
    )
    op.create_index("ix_shifts_station_id", "shifts", ["station_id"])
    op.create_table(
        "rounds", _id(),
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("shift_id", sa.Uuid(), nullable=False),
        sa.Column("table_name", sa.String(40), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("started_at", WHEN, nullable=False),
        sa.Column("settled_at", WHEN, nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("house_way", sa.String(40), nullable=False),
        sa.Column("rotation", sa.Text(), nullable=False),
        sa.Column("action_source", sa.String(4), nullable=True),
        sa.Column("action_number", sa.Integer(), nullable=True),
        sa.Column("action_dice", sa.String(8), nullable=True),
        sa.Column("action_drawn_by", sa.String(16), nullable=True),
        sa.Column("counted_from", sa.Integer(), nullable=True),
        sa.Column("action_position", sa.Integer(), nullable=True),
        sa.Column("direction", sa.String(20), nullable=True),
        sa.Column("banker_position", sa.Integer(), nullable=True),
        sa.Column("banker_seat", sa.Integer(), nullable=True),
        sa.Column("bank_chips_cents", CENTS, nullable=True),
        sa.Column("co_bank", sa.Boolean(), nullable=True),
        sa.Column("dealer_wager_cents", CENTS, nullable=True),
        sa.Column("deal_mode", sa.String(16), nullable=True),
        sa.Column("deck", sa.Text(), nullable=True),
        sa.Column("leftovers", sa.String(16), nullable=True),
        sa.Column("leftovers_counted", sa.Boolean(), nullable=True),
        sa.Column("misdeals", sa.Integer(), nullable=False),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("slip_json", sa.Text(), nullable=True),
        sa.Column("slip_text", sa.Text(), nullable=True),
        sa.Column("wagers_cents", CENTS, nullable=True),
        sa.Column("players_net_cents", CENTS, nullable=True),
        sa.Column("commission_cents", CENTS, nullable=True),
        sa.Column("banker_net_cents", CENTS, nullable=True),
        sa.Column("house_net_cents", CENTS, nullable=True),
        sa.Column("rotation_after", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_rounds"),
        sa.ForeignKeyConstraint(["station_id"], ["stations.id"],
                                name="fk_rounds_station_id_stations"),
        sa.ForeignKeyConstraint(["shift_id"], ["shifts.id"],
                                name="fk_rounds_shift_id_shifts"),
        sa.CheckConstraint("status IN ('open', 'settled', 'void')", name=op.f("ck_rounds_status")),
    )
    op.create_index("ix_rounds_shift_id", "rounds", ["shift_id"])
    op.create_index("ix_rounds_table_name", "rounds", ["table_name"])
    op.create_index("ix_rounds_started_at", "rounds", ["started_at"])
    op.create_index("ix_rounds_station_id_started_at", "rounds", ["station_id", "started_at"])
    op.create_table(
        "hands", _id(),
        sa.Column("round_id", sa.Uuid(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("cards", sa.String(24), nullable=False),
        sa.Column("low", sa.String(8), nullable=True),
        sa.Column("high", sa.String(16), nullable=True),
        sa.Column("set_by", sa.String(10), nullable=True),
        sa.Column("rule_id", sa.String(16), nullable=True),
        sa.Column("rule_says", sa.Text(), nullable=True),
        sa.Column("foul", sa.Text(), nullable=True),
        sa.Column("penalty", sa.String(10), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_hands"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name="fk_hands_round_id_rounds"),
        sa.UniqueConstraint("round_id", "position", name="uq_hands_round_id_position"),
    )
    op.create_table(
        "wagers", _id(),
        sa.Column("round_id", sa.Uuid(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("amount_cents", CENTS, nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_wagers"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name="fk_wagers_round_id_rounds"),
        sa.UniqueConstraint("round_id", "position", name="uq_wagers_round_id_position"),
    )
    op.create_table(
        "settlements", _id(),
        sa.Column("round_id", sa.Uuid(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("entry", sa.String(12), nullable=False),
        sa.Column("entry_no", sa.Integer(), nullable=False),
        sa.Column("reverses_id", sa.Uuid(), nullable=True),
        sa.Column("outcome", sa.String(10), nullable=True),
        sa.Column("wager_cents", CENTS, nullable=False),
        sa.Column("win_cents", CENTS, nullable=False),
        sa.Column("commission_cents", CENTS, nullable=False),
        sa.Column("net_cents", CENTS, nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("by", sa.String(100), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_settlements"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"],
                                name="fk_settlements_round_id_rounds"),
        sa.ForeignKeyConstraint(["reverses_id"], ["settlements.id"],
                                name="fk_settlements_reverses_id_settlements"),
        sa.UniqueConstraint("round_id", "position", "entry_no",
                            name="uq_settlements_round_id_position_entry_no"),
        sa.UniqueConstraint("reverses_id", name="uq_settlements_reverses_id"),
        sa.CheckConstraint("entry IN ('original', 'reversal', 'correction')",
                           name=op.f("ck_settlements_entry")),
    )
    op.create_table(
        "bank_decisions", _id(),
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("round_id", sa.Uuid(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("eligible", sa.Boolean(), nullable=False),
        sa.Column("reasons", sa.Text(), nullable=False),
        sa.Column("chips_cents", CENTS, nullable=False),
        sa.Column("cover_cents", CENTS, nullable=False),
        sa.Column("decision", sa.String(8), nullable=False),
        sa.Column("actor", sa.String(100), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_bank_decisions"),
        sa.ForeignKeyConstraint(["station_id"], ["stations.id"],
                                name="fk_bank_decisions_station_id_stations"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"],
                                name="fk_bank_decisions_round_id_rounds"),
    )
    op.create_index("ix_bank_decisions_round_id", "bank_decisions", ["round_id"])
    op.create_table(
        "events", _id(),
        sa.Column("station_id", sa.Uuid(), nullable=False),
        sa.Column("shift_id", sa.Uuid(), nullable=True),
        sa.Column("round_id", sa.Uuid(), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("actor", sa.String(100), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.ForeignKeyConstraint(["station_id"], ["stations.id"],
                                name="fk_events_station_id_stations"),
        sa.ForeignKeyConstraint(["shift_id"], ["shifts.id"], name="fk_events_shift_id_shifts"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name="fk_events_round_id_rounds"),
        sa.UniqueConstraint("round_id", "seq", name="uq_events_round_id_seq"),
    )
    op.create_index("ix_events_station_id_at", "events", ["station_id", "at"])


def downgrade() -> None:
    for table in ("events", "bank_decisions", "settlements", "wagers", "hands", "rounds",
                  "shifts", "stations"):
        op.drop_table(table)
