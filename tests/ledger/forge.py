"""What an attacker with a database login writes: rows by plain SQL, and their chain links
made by the published recipe (docs/ledger.md) with hashlib alone, as anyone could from the
documentation. None of the ledger's own chain code is used."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text

from app.ledger.database import make_engine

GENESIS = "0" * 64


def _canonical_value(column: str, value: Any) -> Any:
    if isinstance(value, datetime):
        value = value if value.tzinfo else value.replace(tzinfo=UTC)
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, str) and (column == "id" or column.endswith("_id")
                                   or column in ("sign_in",)):
        try:  # SQLite keeps a UUID as 32 hex digits
            return str(uuid.UUID(value))
        except ValueError:
            return value
    if isinstance(value, str) and column in ("at", "first_seen", "opened_at", "started_at",
                                             "closed_at", "settled_at"):
        try:
            return _canonical_value(column, datetime.fromisoformat(value))
        except ValueError:
            return value
    return value


def row_hash(table: str, row: dict[str, Any]) -> str:
    content = {"table": table, "row": {k: _canonical_value(k, v) for k, v in row.items()
                                       if v is not None}}
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode()).hexdigest()


def forge_links(url: str, chain: str, rows: list[tuple[str, str]], *,
                key_id: str | None = None,
                sign: Callable[[str], str] | None = None) -> None:
    """Link each (table, id) at the head of `chain`, by the recipe; optionally with a key
    id and a signature of each entry hash by `sign` (a made-up one, or a stolen key's)."""
    postgres = url.startswith("postgresql")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            last = conn.execute(text("SELECT seq, entry_hash FROM chain WHERE chain = :c "
                                     "ORDER BY seq DESC LIMIT 1"), {"c": chain}).first()
            seq, prev = (0, GENESIS) if last is None else (int(last[0]), str(last[1]))
            for table, row_id in rows:
                rid = row_id if postgres else uuid.UUID(row_id).hex
                row = dict(conn.execute(text(f"SELECT * FROM {table} WHERE id = :id"),
                                        {"id": rid}).mappings().one())
                if not postgres:  # SQLite's booleans come back as 0/1
                    row = {k: (bool(v) if k in ("ok", "disabled", "took", "checked") else v)
                           for k, v in row.items()}
                seq += 1
                rhash = row_hash(table, row)
                entry = hashlib.sha256(
                    f"paigow.chain/1|{chain}|{seq}|{table}|{row_id}|{rhash}|{prev}"
                    .encode()).hexdigest()
                conn.execute(text(
                    "INSERT INTO chain (chain, seq, row_table, row_id, row_hash, prev_hash, "
                    "entry_hash, at, key_id, signature) VALUES (:c, :s, :t, :r, :h, :p, :e, "
                    ":at, :k, :sig)"),
                    {"c": chain, "s": seq, "t": table, "r": row_id, "h": rhash, "p": prev,
                     "e": entry, "at": datetime.now(UTC).replace(tzinfo=None)
                     if not postgres else datetime.now(UTC), "k": key_id,
                     "sig": sign(entry) if sign else None})
                prev = entry
    finally:
        engine.dispose()


def forged_correction(url: str) -> str:
    """A +$5,000 correction of a settled player's seat, INSERTed as the station's login may;
    returns its id."""
    postgres = url.startswith("postgresql")
    new = uuid.uuid4()
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO settlements (id, round_id, position, seat, role, entry, entry_no, "
                "reverses_id, outcome, wager_cents, win_cents, commission_cents, net_cents, "
                "reason, \"by\", at) SELECT :new, round_id, position, seat, role, "
                "'correction', 99, NULL, outcome, wager_cents, 500000, 0, 500000, 'recount', "
                "'Lee', at FROM settlements WHERE entry = 'original' AND role = 'player' "
                "ORDER BY at LIMIT 1"), {"new": str(new) if postgres else new.hex})
    finally:
        engine.dispose()
    return str(new)


def forged_sign_in(url: str, name: str, *, ok: bool = True,
                   at: datetime | None = None) -> str:
    """A sign-in try for `name`, written by plain SQL (the station's login may INSERT)."""
    postgres = url.startswith("postgresql")
    new = uuid.uuid4()
    when = at or datetime.now(UTC)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO sign_ins (id, name, action, ok, station, at) "
                              "VALUES (:id, :n, 'correct', :ok, 'pg-1', :at)"),
                         {"id": str(new) if postgres else new.hex, "n": name, "ok": ok,
                          "at": when if postgres else when.astimezone(UTC)
                          .replace(tzinfo=None)})
    finally:
        engine.dispose()
    return str(new)
