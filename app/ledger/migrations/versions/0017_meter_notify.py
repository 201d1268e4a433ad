"""The linked progressive's meter says each change (PostgreSQL's LISTEN/NOTIFY, issue 27):
a trigger on `progressive_meters` sends `{"name", "amount", "seq"}` on the channel
`paigow_meter` when a meter opens or moves. The message leaves at the commit of the
transaction that moved the meter, never before and never for a rolled-back one, so a felt
that listens shows only what the ledger holds. Each station's felt listens on one
connection instead of reading the meter twice a second (400 reads a second on a floor of
200 tables; app/ledger/meter_feed.py). SQLite has no such messages: a station on a
SQLite ledger keeps reading.

Revision ID: 0017_meter_notify
Revises: 0016_progressive
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0017_meter_notify"
down_revision: str | None = "0016_progressive"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHANNEL = "paigow_meter"  # app/ledger/meter_feed.py listens on it

PG_NOTIFY = f"""
CREATE FUNCTION paigow_meter_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', json_build_object(
        'name', NEW.name, 'amount', NEW.amount_cents, 'seq', NEW.seq)::text);
    RETURN NULL;
END $$"""

PG_TRIGGER = """
CREATE TRIGGER progressive_meters_notify AFTER INSERT OR UPDATE ON progressive_meters
    FOR EACH ROW EXECUTE FUNCTION paigow_meter_notify()"""


def upgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute(PG_NOTIFY)
        op.execute(PG_TRIGGER)


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER progressive_meters_notify ON progressive_meters")
        op.execute("DROP FUNCTION paigow_meter_notify()")
