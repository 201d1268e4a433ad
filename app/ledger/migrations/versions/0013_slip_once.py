"""The ledger keeps each fact once (issue 24, "at most 15 KB of ledger a round"):

- a settled round's `slip_json` keeps the slip less what its rows hold
  (`paigow.ledger-slip/1`, app/ledger/slips.py) and `slip_text` is left empty: the words
  are rendered from the slip by the core;
- a round's events keep what was done, less what the replay makes again (codec.DERIVED);
- the index on events (station_id, at) goes: nothing reads events by station and time (the
  floor's alerts read by time and kind, the chain by round), and it was a tenth of the
  ledger.

The schema changes by that index alone. Nothing already written is rewritten: rounds and
events stored before keep their whole slip, words and records, and read as they did.

Revision ID: 0013_slip_once
Revises: 0012_chain_per_transaction
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0013_slip_once"
down_revision: str | None = "0012_chain_per_transaction"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_events_station_id_at", table_name="events")


def downgrade() -> None:
    # An older station would read a kept slip as the whole slip, and find no words to print.
    found = None if context.is_offline_mode() else op.get_bind().scalar(
        sa.text("SELECT 1 FROM rounds WHERE slip_json LIKE '%paigow.ledger-slip/1%' LIMIT 1"))
    if found:
        raise RuntimeError("the ledger keeps slips less what their rows hold "
                           "(paigow.ledger-slip/1): a station older than migration 0013 "
                           "cannot read them, so the ledger is not taken back past it")
    op.create_index("ix_events_station_id_at", "events", ["station_id", "at"])
