"""What an intruder with the database's owner login can do: switch the append-only triggers
off (drop them on SQLite, replication mode on PostgreSQL) and write plain SQL."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import text

from app.ledger.database import make_engine


def tamper(url: str, *statements: str, **params: Any) -> None:
    """Run the statements around the ledger's triggers, in one transaction."""
    postgres = url.startswith("postgresql")
    params = {k: (str(v) if postgres else v.bytes) if isinstance(v, uuid.UUID) else v
              for k, v in params.items()}
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SET LOCAL session_replication_role = replica"))
            else:
                for (name,) in conn.execute(text(
                        "SELECT name FROM sqlite_master WHERE type = 'trigger'")).all():
                    conn.execute(text(f"DROP TRIGGER {name}"))
            for sql in statements:
                conn.execute(text(sql), params)
    finally:
        engine.dispose()


def sql_uuid(url: str, value: uuid.UUID | None = None) -> str:
    """A UUID as plain SQL writes it on that backend (its 16 bytes on SQLite)."""
    value = value or uuid.uuid4()
    return f"CAST('{value}' AS uuid)" if url.startswith("postgresql") else f"X'{value.hex}'"


def forged_correction(url: str) -> str:
    """The hand-written "correction" the audit found: one INSERT, no PIN, no event, $5,000
    to a player (the triggers let an INSERT through: the ledger only adds rows)."""
    return (f"INSERT INTO settlements (id, round_id, position, seat, role, entry, entry_no, "
            f"reverses_id, outcome, wager_cents, win_cents, commission_cents, net_cents, "
            f"reason, \"by\", at) SELECT {sql_uuid(url)}, round_id, position, seat, role, "
            f"'correction', 99, NULL, outcome, wager_cents, 500000, 0, 500000, 'recount', "
            f"'Lee', at FROM settlements WHERE entry = 'original' AND role = 'player' "
            f"ORDER BY at LIMIT 1")
