"""A linked progressive in the ledger (issue 27, docs/progressive.md):

- `progressive_meters`: each meter as it stands, one row written in place by every linked
  station under its lock. A live value, not chained; the database refuses a meter row that
  is not what its newest move left (below), so the row never shows money no move explains;
  never deleted.
- `progressive_moves`: every move of a meter (opened at its seed, a round's contribution,
  a hit), chained in its station's table's chain, only ever added, numbered per meter
  (`meter_seq`, unique) in the order the writers took the lock, and unique by the
  operation that made it (`op_id`, `op_part`), so an operation sent twice is one move.
- On PostgreSQL, as migration 0011 does for the other tables: a station's login adds moves
  of its own table's station (and round) only, and may add and update a meter row (the
  one thing every table shares) but never delete one. The logins setup-roles made before
  get the rights now, so no station stops to be set up again.

Revision ID: 0016_progressive
Revises: 0014_bonus_rows (the order is 0013 -> 0015_compact -> 0014_bonus_rows -> this)
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.ledger.columns import LedgerUuid

revision: str = "0016_progressive"
down_revision: str | None = "0014_bonus_rows"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHEN = sa.DateTime(timezone=True)
MOVES_ONLY_GROW = "progressive_moves only grows: a move is never changed or deleted"
METER_STAYS = "progressive_meters rows are never deleted: a meter is money owed to players"
METER_FROM_MOVES = ("a progressive meter shows what its newest move left: add the move "
                    "first, numbered one after the last, with the same card and seed")
METER_OPENS_AT_SEED = "a progressive meter opens at its seed with an empty reserve, move 1"

PG_METER_CHECK = f"""
CREATE FUNCTION paigow_meter_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.seq <> 1 OR NEW.amount_cents <> NEW.seed_cents OR NEW.reserve_cents <> 0 THEN
            RAISE EXCEPTION 'ledger: {METER_OPENS_AT_SEED}'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END IF;
    IF NEW.name <> OLD.name OR NEW.seq <= OLD.seq OR NEW.seed_cents <> OLD.seed_cents
       OR NEW.card_hash <> OLD.card_hash OR NOT EXISTS (
           SELECT 1 FROM public.progressive_moves m
           WHERE m.meter = NEW.name AND m.meter_seq = NEW.seq
             AND m.meter_after_cents = NEW.amount_cents
             AND m.reserve_after_cents = NEW.reserve_cents) THEN
        RAISE EXCEPTION 'ledger: {METER_FROM_MOVES}'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$"""

SQLITE_METER_CHECKS = (
    f"""CREATE TRIGGER ledger_progressive_meters_open BEFORE INSERT ON progressive_meters
    FOR EACH ROW WHEN NEW.seq <> 1 OR NEW.amount_cents <> NEW.seed_cents
                      OR NEW.reserve_cents <> 0
    BEGIN SELECT RAISE(ABORT, 'ledger: {METER_OPENS_AT_SEED}'); END""",
    f"""CREATE TRIGGER ledger_progressive_meters_moves BEFORE UPDATE ON progressive_meters
    FOR EACH ROW WHEN NEW.name <> OLD.name OR NEW.seq <= OLD.seq
                      OR NEW.seed_cents <> OLD.seed_cents OR NEW.card_hash <> OLD.card_hash
                      OR NOT EXISTS (SELECT 1 FROM progressive_moves m
                                     WHERE m.meter = NEW.name AND m.meter_seq = NEW.seq
                                       AND m.meter_after_cents = NEW.amount_cents
                                       AND m.reserve_after_cents = NEW.reserve_cents)
    BEGIN SELECT RAISE(ABORT, 'ledger: {METER_FROM_MOVES}'); END""",
    f"""CREATE TRIGGER ledger_progressive_meters_no_delete BEFORE DELETE ON progressive_meters
    FOR EACH ROW BEGIN SELECT RAISE(ABORT, 'ledger: {METER_STAYS}'); END""",
    *(f"""CREATE TRIGGER ledger_progressive_moves_append_only_{o.lower()} BEFORE {o}
    ON progressive_moves FOR EACH ROW BEGIN SELECT RAISE(ABORT, 'ledger: {MOVES_ONLY_GROW}');
    END""" for o in ("UPDATE", "DELETE")),
)
SQLITE_TRIGGERS = ("ledger_progressive_meters_open", "ledger_progressive_meters_moves",
                   "ledger_progressive_meters_no_delete",
                   "ledger_progressive_moves_append_only_update",
                   "ledger_progressive_moves_append_only_delete")

# 0011's checks, as its policies write them: a move of the login's own table's station
OWN_MOVES = ("paigow_writes_station(station_id) AND (round_id IS NULL OR "
             "paigow_writes_round(round_id))")
PG_SECURITY = (
    # paigow_ledger_refuse() is 0002's
    "CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON progressive_moves "
    f"FOR EACH ROW EXECUTE FUNCTION paigow_ledger_refuse('{MOVES_ONLY_GROW}')",
    "CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON progressive_moves "
    f"FOR EACH STATEMENT EXECUTE FUNCTION paigow_ledger_refuse('{MOVES_ONLY_GROW}')",
    "CREATE TRIGGER ledger_meter_moves BEFORE INSERT OR UPDATE ON progressive_meters "
    "FOR EACH ROW EXECUTE FUNCTION paigow_meter_moves()",
    "CREATE TRIGGER ledger_no_delete BEFORE DELETE ON progressive_meters "
    f"FOR EACH ROW EXECUTE FUNCTION paigow_ledger_refuse('{METER_STAYS}')",
    "CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON progressive_meters "
    f"FOR EACH STATEMENT EXECUTE FUNCTION paigow_ledger_refuse('{METER_STAYS}')",
    "ALTER TABLE progressive_moves ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY paigow_reads ON progressive_moves FOR SELECT USING (true)",
    "CREATE POLICY paigow_own_table_adds ON progressive_moves FOR INSERT "
    f"WITH CHECK ({OWN_MOVES})",
)
# The logins setup-roles made before this migration: the rights its grants now give.
GRANT_TO_STATIONS = """
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT DISTINCT role FROM station_logins LOOP
        EXECUTE format('GRANT INSERT ON public.progressive_moves TO %I', r.role);
        EXECUTE format('GRANT INSERT, UPDATE ON public.progressive_meters TO %I', r.role);
    END LOOP;
END $$"""


def upgrade() -> None:
    op.create_table(
        "progressive_meters",
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("reserve_cents", sa.BigInteger(), nullable=False),
        sa.Column("seed_cents", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("card_hash", sa.String(64), nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_progressive_meters"),
        sa.CheckConstraint("amount_cents >= seed_cents AND reserve_cents >= 0 AND seq >= 1",
                           name="ck_progressive_meters_never_below_seed"),
    )
    op.create_table(
        "progressive_moves",
        sa.Column("id", LedgerUuid(), nullable=False),  # 16 bytes, as 0015 keeps every id
        sa.Column("meter", sa.String(60), nullable=False),
        sa.Column("meter_seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("station_id", LedgerUuid(), nullable=False),
        sa.Column("round_id", LedgerUuid(), nullable=True),
        sa.Column("op_id", sa.String(80), nullable=False),
        sa.Column("op_part", sa.Integer(), nullable=False),
        sa.Column("seats", sa.String(40), nullable=True),
        sa.Column("wagers", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(40), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        *(sa.Column(f"{c}_cents", sa.BigInteger(), nullable=False) for c in (
            "amount", "to_meter", "to_reserve", "reserve_to_meter", "house", "house_paid",
            "meter_before", "meter_after", "reserve_before", "reserve_after")),
        sa.Column("by", sa.String(100), nullable=True),
        sa.Column("sign_in", LedgerUuid(), nullable=True),
        sa.Column("at", WHEN, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_progressive_moves"),
        sa.ForeignKeyConstraint(["meter"], ["progressive_meters.name"],
                                name="fk_progressive_moves_meter_progressive_meters"),
        sa.ForeignKeyConstraint(["station_id"], ["stations.id"],
                                name="fk_progressive_moves_station_id_stations"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"],
                                name="fk_progressive_moves_round_id_rounds"),
        sa.UniqueConstraint("meter", "meter_seq", name="uq_progressive_moves_meter_meter_seq"),
        sa.UniqueConstraint("op_id", "op_part", name="uq_progressive_moves_op_id_op_part"),
        sa.CheckConstraint("kind IN ('open', 'contribution', 'hit')",
                           name="ck_progressive_moves_kind"),
        sa.CheckConstraint("meter_after_cents = meter_before_cents + to_meter_cents + "
                           "reserve_to_meter_cents + house_cents",
                           name="ck_progressive_moves_meter_adds_up"),
        sa.CheckConstraint("reserve_after_cents = reserve_before_cents + to_reserve_cents - "
                           "reserve_to_meter_cents", name="ck_progressive_moves_reserve_adds_up"),
    )
    op.create_index("ix_progressive_moves_round_id", "progressive_moves", ["round_id"])
    if op.get_context().dialect.name != "postgresql":
        for sql in SQLITE_METER_CHECKS:
            op.execute(sql)
        return
    op.execute(PG_METER_CHECK)
    for sql in PG_SECURITY:
        op.execute(sql)
    op.execute(GRANT_TO_STATIONS)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TABLE progressive_moves")  # its triggers and policies with it
        op.execute("DROP TABLE progressive_meters")
        op.execute("DROP FUNCTION paigow_meter_moves()")
        return
    for name in SQLITE_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.drop_index("ix_progressive_moves_round_id", "progressive_moves")
    op.drop_table("progressive_moves")
    op.drop_table("progressive_meters")
