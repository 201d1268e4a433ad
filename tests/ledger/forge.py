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


def plain_row(conn: Any, table: str, row: dict[str, Any]) -> dict[str, Any]:
    """A row as SQLite hands it back, typed by the columns' declared types (as any reader of
    the schema would): booleans as 0/1, UUIDs as 32 hex digits, times as text."""
    if conn.dialect.name == "postgresql":
        return row
    types = {r[1]: str(r[2]).upper() for r in conn.execute(text(f"PRAGMA table_info({table})"))}
    out: dict[str, Any] = {}
    for k, v in row.items():
        kind = types.get(k, "")
        if v is not None and kind == "BOOLEAN":
            v = bool(v)
        elif v is not None and kind == "CHAR(32)":
            v = uuid.UUID(v)
        elif v is not None and kind.startswith(("DATETIME", "TIMESTAMP")):
            v = datetime.fromisoformat(v)
        out[k] = v
    return out


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
                row = plain_row(conn, table, dict(conn.execute(
                    text(f"SELECT * FROM {table} WHERE id = :id"), {"id": rid})
                    .mappings().one()))
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


def _triggers_off(conn: Any) -> None:
    """As the owner may: PostgreSQL's replication role skips triggers; SQLite's are dropped."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SET LOCAL session_replication_role = replica"))
    else:
        for (name,) in conn.execute(text("SELECT name FROM sqlite_master WHERE type = "
                                         "'trigger'")).all():
            conn.execute(text(f"DROP TRIGGER {name}"))


def rewrite_from(url: str, chain: str, from_seq: int, sign: Callable[[str], str],
                 key_id: str, *statements: str) -> None:
    """The database owner's rewrite: run `statements` with the triggers off, then recompute
    every link of `chain` from `from_seq` on (row hashes as the rows now are) and sign each
    with the attacker's own key."""
    postgres = url.startswith("postgresql")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            _triggers_off(conn)
            for sql in statements:
                conn.execute(text(sql))
            prev = str(conn.scalar(text("SELECT entry_hash FROM chain WHERE chain = :c AND "
                                        "seq = :s"), {"c": chain, "s": from_seq - 1}))
            links = conn.execute(text("SELECT seq, row_table, row_id, row_hash FROM chain "
                                      "WHERE chain = :c AND seq >= :s ORDER BY seq"),
                                 {"c": chain, "s": from_seq}).all()
            newest = {row_id: seq for seq, _, row_id, _ in links}
            for seq, table, row_id, rhash in links:
                if newest[row_id] == seq:  # a row's earlier links hold its earlier states
                    rid = row_id if postgres else uuid.UUID(row_id).hex
                    row = plain_row(conn, table, dict(conn.execute(
                        text(f"SELECT * FROM {table} WHERE id = :id"), {"id": rid})
                        .mappings().one()))
                    rhash = row_hash(table, row)
                entry = hashlib.sha256(
                    f"paigow.chain/1|{chain}|{seq}|{table}|{row_id}|{rhash}|{prev}"
                    .encode()).hexdigest()
                conn.execute(text("UPDATE chain SET row_hash = :h, prev_hash = :p, "
                                  "entry_hash = :e, key_id = :k, signature = :sig WHERE "
                                  "chain = :c AND seq = :s"),
                             {"h": rhash, "p": prev, "e": entry, "k": key_id,
                              "sig": sign(entry), "c": chain, "s": seq})
                prev = entry
    finally:
        engine.dispose()


def truncate_after(url: str, chain: str, seq: int) -> int:
    """The owner's cut: every link of `chain` after `seq` deleted, with the rows only they
    named; returns how many rows went."""
    postgres = url.startswith("postgresql")
    engine = make_engine(url)
    gone = 0
    try:
        with engine.begin() as conn:
            _triggers_off(conn)
            after = [tuple(r) for r in conn.execute(text(
                "SELECT DISTINCT row_table, row_id FROM chain WHERE chain = :c AND seq > :s"),
                {"c": chain, "s": seq}).all()]
            children_first = ("events", "bank_decisions", "settlements", "wagers", "hands",
                              "rounds", "shifts", "stations")
            after.sort(key=lambda r: children_first.index(r[0])
                       if r[0] in children_first else -1)
            for table, row_id in after:
                before = conn.scalar(text("SELECT COUNT(*) FROM chain WHERE chain = :c AND "
                                          "seq <= :s AND row_id = :r"),
                                     {"c": chain, "s": seq, "r": row_id})
                assert before == 0, f"{table} {row_id} was linked before the cut too"
                rid = row_id if postgres else uuid.UUID(row_id).hex
                gone += conn.execute(text(f"DELETE FROM {table} WHERE id = :id"),
                                     {"id": rid}).rowcount
            conn.execute(text("DELETE FROM chain WHERE chain = :c AND seq > :s"),
                         {"c": chain, "s": seq})
    finally:
        engine.dispose()
    return gone


def owner_enrolls(url: str, public_hex: str, key_id: str, sign: Callable[[str], str],
                  table: str) -> None:
    """The owner enrolls a key of their own making with plain SQL, linked and signed by it."""
    postgres = url.startswith("postgresql")
    new, at = uuid.uuid4(), datetime.now(UTC)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO station_keys (id, key_id, public_key, kind, station_id, "
                "table_name, label, action, \"by\", sign_in, reason, at) VALUES (:id, :k, :p, "
                "'station', NULL, :t, 'pg-1', 'enrolled', 'Morgan Keys', NULL, NULL, :at)"),
                {"id": str(new) if postgres else new.hex, "k": key_id, "p": public_hex,
                 "t": table, "at": at if postgres else at.replace(tzinfo=None)})
    finally:
        engine.dispose()
    forge_links(url, "people", [("station_keys", str(new))], key_id=key_id, sign=sign)


def attacker_key() -> tuple[str, str, Callable[[str], str]]:
    """An Ed25519 key of the attacker's own making: its public half, its id by the
    published recipe, and a signer of entry hashes."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(serialization.Encoding.Raw,
                                               serialization.PublicFormat.Raw).hex()
    kid = hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]
    return public, kid, lambda entry: private.sign(f"paigow.sig/1|{entry}".encode()).hex()
