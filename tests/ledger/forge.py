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
TABLE_CODES = ("stations", "shifts", "rounds", "hands", "wagers", "settlements",
               "bank_decisions", "events", "users", "sign_ins", "station_keys",
               "bonus_settlements", "progressive_moves")


def stored_id(postgres: bool, value: str | uuid.UUID) -> str | bytes:
    """A UUID as the backend keeps it: PostgreSQL's uuid (given as text), 16 bytes on
    SQLite (migration 0015)."""
    return str(value) if postgres else uuid.UUID(str(value)).bytes


def read_hex(value: Any) -> str:
    """A link's hash or signature, kept as bytes since migration 0015, as the hex it
    stands for."""
    return bytes(value).hex() if isinstance(value, bytes | memoryview) else str(value)


def read_id(value: Any) -> str:
    """A link's row id (16 bytes on SQLite since migration 0015) as its 36 characters."""
    return (str(uuid.UUID(bytes=bytes(value))) if isinstance(value, bytes | memoryview)
            else str(value))


def link_rows(row_table: str, row_id: Any, row_hash: Any, rows: bytes | None
              ) -> list[tuple[str, str, str]]:
    """The (table, id, hash) a link covers, read by the recipe: a /2 link ("*") lists its
    rows 49 bytes each (table number, UUID, SHA-256); a /1 link names one row."""
    if row_table != "*":
        return [(row_table, read_id(row_id), read_hex(row_hash))]
    data = bytes(rows or b"")
    return [(TABLE_CODES[data[i]], str(uuid.UUID(bytes=data[i + 1:i + 17])),
             data[i + 17:i + 49].hex()) for i in range(0, len(data), 49)]


def pack_rows(rows: list[tuple[str, str, str]]) -> bytes:
    return b"".join(bytes([TABLE_CODES.index(t)]) + uuid.UUID(i).bytes + bytes.fromhex(h)
                    for t, i, h in rows)


def entry_hash(chain: str, seq: int, row_table: str, row_id: str, row_hash: str,
               prev: str, rows: bytes | None) -> str:
    if row_table == "*":
        return hashlib.sha256(f"paigow.chain/2|{chain}|{seq}|{row_id}|{prev}|".encode()
                              + bytes(rows or b"")).hexdigest()
    return hashlib.sha256(f"paigow.chain/1|{chain}|{seq}|{row_table}|{row_id}|{row_hash}|"
                          f"{prev}".encode()).hexdigest()


def covered(conn: Any, chain: str, after: int = 0) -> list[tuple[int, str, str, str]]:
    """Every (seq, table, id, hash) the links of `chain` after link `after` cover."""
    return [(int(seq), *row) for seq, t, i, h, rows in conn.execute(text(
        "SELECT seq, row_table, row_id, row_hash, rows FROM chain WHERE chain = :c AND "
        "seq > :s ORDER BY seq"), {"c": chain, "s": after})
        for row in link_rows(str(t), i, h, rows)]


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
    the schema would): booleans as 0/1, UUIDs as 16 bytes, times as text."""
    if conn.dialect.name == "postgresql":
        return row
    types = {r[1]: str(r[2]).upper() for r in conn.execute(text(f"PRAGMA table_info({table})"))}
    out: dict[str, Any] = {}
    for k, v in row.items():
        kind = types.get(k, "")
        if v is not None and kind == "BOOLEAN":
            v = bool(v)
        elif v is not None and kind == "BLOB" and len(v) == 16 and (
                k in ("id", "sign_in") or k.endswith("_id")):
            v = uuid.UUID(bytes=bytes(v))
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
            seq, prev = (0, GENESIS) if last is None else (int(last[0]), read_hex(last[1]))
            for table, row_id in rows:
                rid = stored_id(postgres, row_id)
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
                    {"c": chain, "s": seq, "t": table,
                     "r": row_id if postgres else stored_id(postgres, row_id),
                     "h": bytes.fromhex(rhash), "p": bytes.fromhex(prev),
                     "e": bytes.fromhex(entry), "at": datetime.now(UTC).replace(tzinfo=None)
                     if not postgres else datetime.now(UTC), "k": key_id,
                     "sig": bytes.fromhex(sign(entry)) if sign else None})
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
                "ORDER BY at LIMIT 1"), {"new": stored_id(postgres, new)})
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
                         {"id": stored_id(postgres, new), "n": name, "ok": ok,
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
            prev = read_hex(conn.scalar(text("SELECT entry_hash FROM chain WHERE chain = :c "
                                             "AND seq = :s"), {"c": chain, "s": from_seq - 1}))
            links = conn.execute(text("SELECT seq, row_table, row_id, row_hash, rows FROM "
                                      "chain WHERE chain = :c AND seq >= :s ORDER BY seq"),
                                 {"c": chain, "s": from_seq}).all()
            newest: dict[tuple[str, str], int] = {}
            for seq, table, row_id, rhash, rows in links:
                for t, i, _ in link_rows(table, row_id, rhash, rows):
                    newest[(t, i)] = seq
            for seq, table, row_id, rhash, rows in links:
                now = []
                for t, i, h in link_rows(table, row_id, rhash, rows):
                    if newest[(t, i)] == seq:  # a row's earlier links hold earlier states
                        rid = stored_id(postgres, i)
                        h = row_hash(t, plain_row(conn, t, dict(conn.execute(
                            text(f"SELECT * FROM {t} WHERE id = :id"), {"id": rid})
                            .mappings().one())))
                    now.append((t, i, h))
                if table == "*":
                    rows = pack_rows(now)
                else:
                    rhash = now[0][2]
                entry = entry_hash(chain, seq, table, read_id(row_id), read_hex(rhash), prev,
                                   rows)
                conn.execute(text("UPDATE chain SET row_hash = :h, prev_hash = :p, "
                                  "entry_hash = :e, key_id = :k, signature = :sig, "
                                  "rows = :rows WHERE chain = :c AND seq = :s"),
                             {"h": bytes.fromhex(read_hex(rhash)), "p": bytes.fromhex(prev),
                              "e": bytes.fromhex(entry), "k": key_id,
                              "sig": bytes.fromhex(sign(entry)), "rows": rows, "c": chain,
                              "s": seq})
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
            after = sorted({(t, i) for _, t, i, _ in covered(conn, chain, seq)})
            before = {(t, i) for s_, t, i, _ in covered(conn, chain) if s_ <= seq}
            children_first = ("events", "bank_decisions", "settlements", "wagers", "hands",
                              "rounds", "shifts", "stations")
            after.sort(key=lambda r: children_first.index(r[0])
                       if r[0] in children_first else -1)
            for table, row_id in after:
                assert (table, row_id) not in before, \
                    f"{table} {row_id} was linked before the cut too"
                rid = stored_id(postgres, row_id)
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
                {"id": stored_id(postgres, new), "k": key_id, "p": public_hex,
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
