"""Records that prove themselves: every row the ledger writes is covered by a link of its
table's hash chain, so a row changed, removed or slipped in behind the ledger's back is
found.

One chain per casino table (its name, "PG-1"), in the side table `chain`, numbered 1, 2, 3
... across every kind of row of that table: stations, shifts, rounds, hands, wagers,
settlements (originals, reversals, corrections), bank decisions and events (voids,
corrections, notes and alerts are events). The users and their sign-in tries are the chain
"people".

A table's link covers one write transaction (format "paigow.chain/2", since migration
0012): its `row_table` is "*", its `row_id` the round the transaction wrote (or its first
row's id when it wrote no round's rows; rows of two rounds get a link each), `row_hash` is
empty, and `rows` holds every row it covers, 49 bytes each: the table's number in
TABLE_CODES (one byte), the row's UUID (16 bytes) and the SHA-256 of its canonical content
(32 bytes), in the order they were written. Then

    entry_hash = SHA-256 of the bytes "paigow.chain/2|chain|seq|row_id|prev_hash|"
                 followed by `rows`
    prev_hash  = the entry_hash of the link before (64 zeros for the first)

A people's link, and every link written before 0012 (kept as written, never rewritten),
covers one row ("paigow.chain/1"):

    row_hash   = SHA-256 of the row's canonical content (below)
    entry_hash = SHA-256 of "paigow.chain/1|chain|seq|row_table|row_id|row_hash|prev_hash"

The canonical content of a row is the JSON text of {"table": name, "row": {column: value}}
with every column of the row that is not null (so a later migration that adds a column,
empty in the old rows, leaves their hashes as they were), keys sorted, no spaces
(separators "," and ":"), non-ASCII kept as UTF-8; values: text as is, integers,
true/false, UUIDs as 36-character lower-case text, times in UTC as
"YYYY-MM-DDTHH:MM:SS.ffffffZ". So anyone can recompute it
from an export with a few lines of any language.

A round's row and a shift's row are filled in as the round goes (and a shift is closed):
each transaction that changes one covers its new content, and a row must match the newest
link (of either format) that covers it.

The links are written by `LedgerSession` just before a transaction commits, in the same
transaction as the rows, so a row is never there without its link; each is signed by the
writer's key (keys.py). `verify` walks a chain.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import cast

from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    RowMapping,
    Table,
    TypeDecorator,
    bindparam,
    event,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import Executable
from sqlalchemy.types import TypeEngine

from . import columns, keys
from .models import (
    BankDecision,
    Base,
    BonusSettlementRow,
    ChainEntry,
    ChainUnsigned,
    Event,
    HandRow,
    ProgressiveMove,
    RoundRow,
    SettlementRow,
    Shift,
    SignIn,
    Station,
    StationKey,
    User,
    WagerRow,
    now,
)

FORMAT = "paigow.chain/1"
FORMAT_TX = "paigow.chain/2"
TX = "*"  # the row_table of a /2 link: a transaction's
GENESIS = "0" * 64
PEOPLE = "people"  # the chain of the users, their sign-in tries and the enrolled keys
PEOPLE_TABLES = ("users", "sign_ins", "station_keys")
SIGNER = "paigow_signer"  # the execution option that carries the keys.Signer of a writer

MODELS: dict[str, type[Base]] = {m.__tablename__: m for m in (
    Station, Shift, RoundRow, HandRow, WagerRow, SettlementRow, BonusSettlementRow,
    BankDecision, Event, User, SignIn, StationKey, ProgressiveMove)}
CHAINED = tuple(MODELS)
"""Every table whose rows are chained, in the order a chain is checked."""

TABLE_CODES = ("stations", "shifts", "rounds", "hands", "wagers", "settlements",
               "bank_decisions", "events", "users", "sign_ins", "station_keys",
               "bonus_settlements", "progressive_moves")
"""A /2 link's one-byte table numbers: part of the format, so only ever added to."""
ROW_BYTES = 1 + 16 + 32

BY_ROUND = ("hands", "wagers", "settlements", "bonus_settlements")
BY_STATION = ("shifts", "events", "bank_decisions", "progressive_moves")


# --- hashing ---------------------------------------------------------------------------------

def _value(v: object) -> str | int | None:
    if isinstance(v, datetime):
        if v.tzinfo is None:  # the ledger keeps UTC; a naive time read back is UTC
            v = v.replace(tzinfo=UTC)
        return v.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(v, uuid.UUID):
        return str(v)
    if v is None or isinstance(v, bool | int | str):
        return v
    raise TypeError(f"the chain has no canonical form for {type(v).__name__}")


def canonical(table: str, row: Mapping[str, object]) -> bytes:
    """The row's canonical content (module docstring): what its hash is taken of."""
    content = {"table": table,
               "row": {k: _value(v) for k, v in row.items() if v is not None}}
    return json.dumps(content, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def row_hash(table: str, row: Mapping[str, object]) -> str:
    return hashlib.sha256(canonical(table, row)).hexdigest()


def link_hash(chain: str, seq: int, row_table: str, row_id: str, rhash: str,
              prev_hash: str) -> str:
    text_ = "|".join((FORMAT, chain, str(seq), row_table, row_id, rhash, prev_hash))
    return hashlib.sha256(text_.encode("utf-8")).hexdigest()


def pack(rows: Iterable[tuple[str, str, str]]) -> bytes:
    """The `rows` of a /2 link: (table, row id, row hash hex) each as 49 bytes."""
    return b"".join(bytes([TABLE_CODES.index(t)]) + uuid.UUID(i).bytes + bytes.fromhex(h)
                    for t, i, h in rows)


def unpack(blob: bytes) -> list[tuple[str, str, str]] | None:
    """A /2 link's rows as (table, row id, row hash hex); None if the bytes are no such
    list (the link was edited)."""
    data = bytes(blob)
    if len(data) % ROW_BYTES:
        return None
    out = []
    for at in range(0, len(data), ROW_BYTES):
        code = data[at]
        if code >= len(TABLE_CODES):
            return None
        out.append((TABLE_CODES[code], str(uuid.UUID(bytes=data[at + 1:at + 17])),
                    data[at + 17:at + ROW_BYTES].hex()))
    return out


def tx_hash(chain: str, seq: int, subject: str, prev_hash: str, rows: bytes) -> str:
    """The entry hash of a /2 link (module docstring)."""
    head = "|".join((FORMAT_TX, chain, str(seq), subject, prev_hash, ""))
    return hashlib.sha256(head.encode("utf-8") + bytes(rows)).hexdigest()


def entry_of(chain: str, link: RowMapping) -> str:
    """What a stored link's entry hash must be, from what it holds (either format)."""
    if link["row_table"] == TX:
        return tx_hash(chain, int(link["seq"]), str(link["row_id"]), str(link["prev_hash"]),
                       link["rows"] or b"")
    return link_hash(chain, int(link["seq"]), str(link["row_table"]), str(link["row_id"]),
                     str(link["row_hash"]), str(link["prev_hash"]))


def covered(link: RowMapping) -> list[tuple[str, str, str]] | None:
    """The (table, row id, row hash) a stored link vouches for; None: its rows are unreadable."""
    if link["row_table"] == TX:
        return unpack(link["rows"] or b"")
    return [(str(link["row_table"]), str(link["row_id"]), str(link["row_hash"]))]


# --- writing links -----------------------------------------------------------------------

Tables = Mapping[str, Table]
"""The chained tables and `chain` by name, when not as the models declare them: as a
ledger before migration 0015 stored them (columns.stored_as_text), for the migrations
that link rows before it."""


def _table(name: str, tables: Tables | None = None) -> Table:
    return tables[name] if tables is not None else _table_of(MODELS[name])


def _chain_table(tables: Tables | None = None) -> Table:
    return tables["chain"] if tables is not None else _table_of(ChainEntry)


def stored_as_text() -> dict[str, Table]:
    """The chained tables and `chain` as migrations before 0015 find them."""
    models: list[type[Base]] = [*MODELS.values(), ChainEntry]
    return columns.stored_as_text([_table_of(m) for m in models])


# The statements a write runs each time, made once per table: building and keying a
# statement costs more of the interpreter than the database takes to run it.

@cache
def _by_id(t: Table) -> Executable:
    return select(t).where(t.c.id == bindparam("id"))


@cache
def _table_name_of(t: Table) -> Executable:
    return select(t.c.table_name).where(t.c.id == bindparam("id"))


@cache
def _last_link(c: Table) -> Executable:
    return (select(c.c.seq, c.c.entry_hash).where(c.c.chain == bindparam("chain"))
            .order_by(c.c.seq.desc()).limit(1))


@cache
def _new_link(c: Table) -> Insert:
    return insert(c)


def _row(conn: Connection, table: str, row_id: str, tables: Tables | None = None
         ) -> Mapping[str, object] | None:
    found = conn.execute(_by_id(_table(table, tables)),
                         {"id": uuid.UUID(row_id)}).mappings().first()
    return None if found is None else dict(found)


def chain_of(conn: Connection, table: str, row: Mapping[str, object],
             tables: Tables | None = None,
             names: dict[tuple[str, object], str] | None = None) -> str:
    """Which chain a row belongs to: its casino table's name (or "people"). `names`: the
    tables of rounds and stations found so far in this transaction (a settlement's rows
    all ask for one round's)."""
    if table in PEOPLE_TABLES:
        return PEOPLE
    if table in ("stations", "rounds"):
        name: object = row["table_name"]
        if names is not None:
            names[(table, row["id"])] = str(name)
        return str(name)
    parent = ("rounds", row["round_id"]) if table in BY_ROUND else \
        ("stations", row["station_id"])
    if names is not None and parent in names:
        return names[parent]
    name = conn.scalar(_table_name_of(_table(parent[0], tables)), {"id": parent[1]})
    if name is None:
        raise LookupError(f"{table} row {row['id']} belongs to no table")
    if names is not None:
        names[parent] = str(name)
    return str(name)


def _lock(conn: Connection, chain: str) -> None:
    """One writer at a time per chain: on PostgreSQL a lock for the transaction (SQLite's
    writing transactions hold the whole file already)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                     {"key": f"paigow-chain:{chain}"})


Heads = dict[str, tuple[int, str]]
"""Each chain's last link, by chain: its number and entry hash."""


def _heads(conn: Connection, heads: Heads, chain: str, tables: Tables | None = None
           ) -> tuple[int, str]:
    if chain not in heads:
        _lock(conn, chain)
        last = conn.execute(_last_link(_chain_table(tables)), {"chain": chain}).first()
        heads[chain] = (0, GENESIS) if last is None else (int(last[0]), str(last[1]))
    return heads[chain]


def _signed(signer: keys.Signer | None, entry: str) -> dict[str, str]:
    # no signer: a migration's sealing, whose schema may not have the columns yet
    return {} if signer is None else {"key_id": signer.key_id, "signature": signer.sign(entry)}


Written = Mapping[tuple[str, str], Mapping[str, object]]
"""Rows as a transaction wrote them, by (table, row id): what need not be read back."""


def _touched_rows(conn: Connection, touched: Iterable[tuple[str, str]],
                  written: Written | None = None, tables: Tables | None = None
                  ) -> list[tuple[str, str, str, Mapping[str, object]]]:
    rows: list[tuple[str, str, str, Mapping[str, object]]] = []
    known = written or {}
    names: dict[tuple[str, object], str] = {}  # a round's or a station's table, asked once
    for table, row_id in touched:
        row = known.get((table, row_id)) or _row(conn, table, row_id, tables)
        if row is not None:
            rows.append((chain_of(conn, table, row, tables, names), table, row_id, row))
    return rows


def append(conn: Connection, touched: Iterable[tuple[str, str]],
           signer: keys.Signer | None = None, written: Written | None = None,
           heads: Heads | None = None, tables: Tables | None = None) -> int:
    """Add a /1 link for each (table, row id), with the row's content as it is now in this
    transaction (from `written`, else read), signed by `signer` (a link with none is named
    by verify); returns how many links were added. `heads` is left with each chain's last
    link (seq, entry hash) as this transaction leaves it. `tables`: a migration's, before
    0015 (stored_as_text)."""
    rows = _touched_rows(conn, touched, written, tables)
    heads = {} if heads is None else heads
    c = _chain_table(tables)
    at = now()
    for chain, table, row_id, row in rows:
        seq, prev = _heads(conn, heads, chain, tables)
        seq += 1
        rhash = row_hash(table, row)
        entry = link_hash(chain, seq, table, row_id, rhash, prev)
        conn.execute(_new_link(c), dict(chain=chain, seq=seq, row_table=table, row_id=row_id,
                                       row_hash=rhash, prev_hash=prev, entry_hash=entry,
                                       at=at, **_signed(signer, entry)))
        heads[chain] = (seq, entry)
    return len(rows)


def _subject(table: str, row: Mapping[str, object]) -> str | None:
    """The round a row belongs to (the id a /2 link is found by), if any."""
    if table == "rounds":
        return str(row["id"])
    found = row.get("round_id")
    return None if found is None else str(found)


def append_transaction(conn: Connection, touched: Iterable[tuple[str, str]],
                       signer: keys.Signer | None = None,
                       written: Written | None = None, heads: Heads | None = None) -> int:
    """Link a transaction's rows (each as it is now: from `written`, else read): one /2
    link per table's chain and round written, the people's rows a /1 link each; returns
    how many links were added (`heads`: as `append`)."""
    rows = _touched_rows(conn, touched, written)
    people = [(t, i) for chain, t, i, _ in rows if chain == PEOPLE]
    groups: dict[tuple[str, str | None], list[tuple[str, str, str]]] = {}
    firsts: dict[tuple[str, str | None], str] = {}
    for chain, table, row_id, row in rows:
        if chain == PEOPLE:
            continue
        key = (chain, _subject(table, row))
        groups.setdefault(key, []).append((table, row_id, row_hash(table, row)))
        firsts.setdefault(key, row_id)
    heads = {} if heads is None else heads
    at = now()
    for (chain, subject), covered_rows in groups.items():
        seq, prev = _heads(conn, heads, chain)
        seq += 1
        found_by = subject or firsts[(chain, subject)]
        blob = pack(covered_rows)
        entry = tx_hash(chain, seq, found_by, prev, blob)
        conn.execute(_new_link(_chain_table()),
                     dict(chain=chain, seq=seq, row_table=TX, row_id=found_by,
                          row_hash="", prev_hash=prev, entry_hash=entry,
                          rows=blob, at=at, **_signed(signer, entry)))
        heads[chain] = (seq, entry)
    return len(groups) + (append(conn, people, signer, written, heads) if people else 0)


TOUCHED = "paigow_chain_touched"
LINKED = "paigow_chain_linked"
"""A LedgerSession's info: the heads (`Heads`) its last commit left its chains at."""


def signing(engine: Engine, signer: keys.Signer) -> Engine:
    """The engine whose LedgerSessions sign every link they write with `signer`: the
    station's (or the floor's) own key, carried as an execution option so every writer that
    is handed an engine signs without knowing how."""
    return engine.execution_options(**{SIGNER: signer})


class LedgerSession(Session):
    """A session whose commits link every row it added or changed into its chain."""


@event.listens_for(LedgerSession, "after_flush")
def _note_touched(session: Session, _context: object) -> None:
    touched: dict[tuple[str, str], Base] = session.info.setdefault(TOUCHED, {})
    for obj in (*session.new, *session.dirty):
        name = getattr(obj, "__tablename__", None)
        if name in MODELS and (obj in session.new or session.is_modified(obj)):
            touched[(name, str(obj.id))] = obj


@cache
def _read_back_types(model: type[Base]) -> tuple[tuple[str, type], ...]:
    """Each column's attribute and the Python type the database gives its values back as."""
    mapper = inspect(model)
    out: list[tuple[str, type]] = []
    for col in _table_of(model).columns:
        kind = col.type
        if isinstance(kind, TypeDecorator):  # UTCDateTime: the DateTime it is made of
            kind = cast(TypeEngine[object], kind.impl_instance)
        out.append((mapper.get_property_by_column(col).key, kind.python_type))
    return tuple(out)


def _as_written(obj: Base) -> dict[str, object] | None:
    """The row the session just flushed for `obj`, as reading it back would give it (the
    link's hash is of that): its attributes, each of the exact type the database returns.
    None when one is not (an id given as text, a flag as 1, a value expired): the row is
    then read back. Reading back each row a transaction wrote was the most of a save."""
    state = inspect(obj)
    if not state.persistent:
        return None
    values = state.dict
    row: dict[str, object] = {}
    for column, (key, kind) in zip(_table_of(type(obj)).columns, _read_back_types(type(obj)),
                                   strict=True):
        if key not in values:
            return None
        value = values[key]
        if value is not None and type(value) is not kind:
            return None
        if isinstance(value, datetime) and value.tzinfo is None:
            return None
        row[column.name] = value
    return row


LINKING = "paigow_chain_linking"
"""A LedgerSession's info: the heads its open transaction has linked so far (link_now)."""


def link_now(session: Session) -> None:
    """Link the rows this transaction has written so far now, not at its commit: a writer
    about to take a lock every linked table shares (a progressive meter's row) links its
    own rows first, so that lock is held for its few last rows only. Rows written after
    are linked at the commit, in a link of their own."""
    session.flush()
    touched: dict[tuple[str, str], Base] = session.info.pop(TOUCHED, {})
    if touched:
        conn = session.connection()
        written = {key: row for key, obj in touched.items()
                   if (row := _as_written(obj)) is not None}
        heads: Heads = session.info.setdefault(LINKING, {})
        append_transaction(conn, sorted(touched, key=lambda k: (CHAINED.index(k[0]), k[1])),
                           conn.get_execution_options().get(SIGNER), written, heads)


def hold_station_chain(conn: Connection, station_id: uuid.UUID) -> None:
    """Take the chain lock of a station's table now, as its next link would: a writer that
    will also take a shared lock takes this one first, so every writer takes its locks in
    one order (the table's chain, the people's, then the meter's) and none waits in a
    circle."""
    name = conn.scalar(_table_name_of(_table("stations")), {"id": station_id})
    if name is not None:
        _lock(conn, str(name))


@event.listens_for(LedgerSession, "before_commit")
def _link_touched(session: Session) -> None:
    link_now(session)
    session.info[LINKED] = session.info.pop(LINKING, {})


@event.listens_for(LedgerSession, "after_rollback")
def _forget_touched(session: Session) -> None:
    session.info.pop(TOUCHED, None)
    session.info.pop(LINKING, None)
    session.info.pop(LINKED, None)


def seal_existing(conn: Connection, tables: Tables | None = None) -> int:
    """Link every row that has no link yet (the rows a ledger held before it had chains),
    in the order they were written; returns how many. `tables`: as for append."""
    c = _chain_table(tables)
    linked = {(t, i) for t, i in conn.execute(select(c.c.row_table, c.c.row_id))}
    todo: list[tuple[str | int | None, str, str]] = []
    present = set(inspect(conn).get_table_names())  # an older migration has fewer tables
    for table in (t for t in CHAINED if t in present):
        t = _table(table, tables)
        when = next(col for col in ("at", "first_seen", "opened_at", "started_at")
                    if col in t.c)
        for row_id, at in conn.execute(select(t.c.id, t.c[when])):
            if (table, str(row_id)) not in linked:
                todo.append((_value(at), table, str(row_id)))
    todo.sort(key=lambda x: (x[0], CHAINED.index(x[1]), x[2]))
    return append(conn, [(table, row_id) for _, table, row_id in todo], tables=tables)


# --- checking a chain --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a chain that does not match: `kind` is edited, missing, out of order
    or unchained (a row written behind the ledger's back)."""

    chain: str
    kind: str
    table: str
    row_id: str
    detail: str
    seq: int | None = None

    def text(self) -> str:
        return f"{self.chain}: {self.detail}"

    def to_dict(self) -> dict[str, object]:
        return {"chain": self.chain, "kind": self.kind, "table": self.table,
                "row_id": self.row_id, "seq": self.seq, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class ChainReport:
    chain: str
    rows: int  # rows of the ledger checked against their links
    links: int
    problems: list[Problem] = field(default_factory=list)
    head: str = GENESIS  # the last link's entry_hash: what an auditor keeps day by day
    unchecked: str | None = None  # what this login could not check, and why

    @property
    def intact(self) -> bool:
        """Nothing that was checked is wrong (`unchecked` says what was not checked)."""
        return not self.problems

    def text(self) -> str:
        if self.intact:
            said = f"{self.chain}: {self.rows} rows checked, chain intact"
            if self.unchecked:
                said = (f"{self.chain}: not checked whole: {self.unchecked}; the links and "
                        f"the {self.rows} other rows are intact")
            return said
        more = len(self.problems) - 1
        return (self.problems[0].text() + (f" ({more} more problem(s) after it)" if more
                                           else "")
                + f"; {self.rows} rows checked"
                + (f"; {self.unchecked}" if self.unchecked else ""))

    def to_dict(self) -> dict[str, object]:
        return {"chain": self.chain, "rows": self.rows, "links": self.links,
                "intact": self.intact, "head": self.head, "unchecked": self.unchecked,
                "problems": [p.to_dict() for p in self.problems]}


def snapshot(session: Session) -> Connection:
    """The session's connection reading one snapshot of the database for its whole
    transaction: a chain walked while stations write reads its links and its rows as of one
    moment. PostgreSQL's default (read committed) would show the rows a station added after
    the links were read, as rows with no link. (SQLite's read transaction is one snapshot
    already.) Called before the session's first statement."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        return session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    return session.connection()


def chains(conn: Connection) -> list[str]:
    """Every chain the database has: each casino table's, and "people" if any."""
    c = ChainEntry.__table__
    names = {str(n) for n in conn.scalars(select(c.c.chain).distinct())}
    for table in ("stations", "rounds"):
        t = _table(table)
        names |= {str(n) for n in conn.scalars(select(t.c.table_name).distinct())}
    for table in PEOPLE_TABLES:
        if conn.scalar(select(_table(table).c.id).limit(1)) is not None:
            names.add(PEOPLE)
    return sorted(names)


SECRET = ("users", "secret_hash")  # the one column a station's login may not read
NEEDS_OWNER = ("the people's chain needs the owner's or an auditor's login to check: this "
               "login may not read the secret hashes, so the users rows were not checked "
               "against their links (give --database-url postgresql://OWNER@...)")


def may_read_secrets(conn: Connection) -> bool:
    """Whether this login may read `users.secret_hash` (a station's PostgreSQL login may
    not: docs/trust.md, "Secrets stay secret"). A SQLite file is read whole."""
    if conn.dialect.name != "postgresql":
        return True
    return bool(conn.scalar(text("SELECT has_column_privilege('users', 'secret_hash', "
                                 "'SELECT')")))


def _rows_of(conn: Connection, chain: str, table: str,
             secrets: bool = True) -> Iterator[Mapping[str, object]]:
    """The chain's rows of `table`; without `secrets`, users rows less their hash (only
    whether each is there, and linked, can then be told)."""
    t = _table(table)
    if chain == PEOPLE:
        if table not in PEOPLE_TABLES:
            query = None
        elif secrets or table != SECRET[0]:
            query = select(t)
        else:
            query = select(*[c for c in t.c if c.name != SECRET[1]])
    elif table in PEOPLE_TABLES:
        query = None
    elif table in ("stations", "rounds"):
        query = select(t).where(t.c.table_name == chain)
    elif table in BY_ROUND:
        r = _table("rounds")
        query = select(t).join(r, t.c.round_id == r.c.id).where(r.c.table_name == chain)
    else:
        s = _table("stations")
        query = select(t).join(s, t.c.station_id == s.c.id).where(s.c.table_name == chain)
    if query is None:
        return iter(())
    return (dict(m) for m in conn.execute(query).mappings())


def describe(conn: Connection, table: str, row_id: str,
             row: Mapping[str, object] | None = None) -> str:
    """A row as an auditor would look for it: its table, its id and what it is."""
    what = f"{table} row {row_id}"
    if row is None:
        return what
    round_no = None
    if table == "rounds":
        round_no = row.get("round_no")
    elif row.get("round_id") is not None:
        r = _table("rounds")
        round_no = conn.scalar(select(r.c.round_no).where(r.c.id == row["round_id"]))
    parts = [f"round {round_no}"] if round_no is not None else []
    if table in ("hands", "wagers", "settlements"):
        parts.append(f"position {row['position']}")
    if table == "settlements":
        parts.append(f"{row['entry']} entry {row['entry_no']}")
    if table == "bonus_settlements":
        parts.append(f"seat {row['seat']}'s {row['kind']}, line {row['line_no']} paid")
    if table == "events":
        parts.append(f"event {row['kind']}" + (f" #{row['seq']}" if row["seq"] is not None
                                               else ""))
    if table in ("users", "sign_ins"):
        parts.append(str(row["name"]))
    if table == "progressive_moves":
        parts.append(f"{row['kind']} {row['meter_seq']} of the progressive {row['meter']}")
    if table == "station_keys":
        parts.append(f"{row['action']} key {keys.fingerprint(str(row['key_id']))} of "
                     f"{row['label']}")
    return what + (f" ({', '.join(parts)})" if parts else "")


@dataclass(frozen=True, slots=True)
class EnrolledKey:
    """A key as the ledger's `station_keys` rows make it: whose, for which table (None: the
    floor's, any table), since when, and revoked when."""

    key_id: str
    public_key: str
    kind: str
    table_name: str | None
    label: str
    enrolled_at: datetime
    revoked_at: datetime | None


def keyring(conn: Connection) -> dict[str, EnrolledKey]:
    """Every key a supervisor enrolled, by id, as its rows say now."""
    k = _table("station_keys")
    ring: dict[str, EnrolledKey] = {}
    for row in conn.execute(select(k).order_by(k.c.at)).mappings():
        kid, at = str(row["key_id"]), _aware(row["at"])
        if row["action"] == "enrolled":
            ring[kid] = EnrolledKey(kid, str(row["public_key"]), str(row["kind"]),
                                    row["table_name"], str(row["label"]), at, None)
        elif kid in ring and ring[kid].revoked_at is None:
            old = ring[kid]
            ring[kid] = EnrolledKey(kid, old.public_key, old.kind, old.table_name, old.label,
                                    old.enrolled_at, at)
    return ring


def _aware(at: datetime) -> datetime:
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at


def unsigned_upto(conn: Connection, chain: str) -> int:
    """The links of the chain written before signing began (they may carry none)."""
    u = _table_of(ChainUnsigned)
    return int(conn.scalar(select(u.c.upto_seq).where(u.c.chain == chain)) or 0)


def _table_of(model: type[Base]) -> Table:
    # every model is declared on a Table (not a select): its __table__ is one
    return cast(Table, model.__table__)


def link_name(link: RowMapping) -> str:
    """A link as verify names it: its number and what it covers."""
    if link["row_table"] == TX:
        rows = unpack(link["rows"] or b"")
        what = f"{len(rows)} rows" if rows is not None else "rows that cannot be read"
        return f"link {link['seq']} (a write of {what}, found by {link['row_id']})"
    return f"link {link['seq']} ({link['row_table']} row {link['row_id']})"


def signature_problem(chain: str, link: RowMapping, ring: Mapping[str, EnrolledKey],
                      legacy: int) -> Problem | None:
    """Why a link's signature does not make it a record of an enrolled station (or None)."""
    seq = int(link["seq"])
    where = link_name(link)
    kid, signature = link["key_id"], link["signature"]
    if not kid or not signature:
        if seq <= legacy:
            return None
        return Problem(chain, "unsigned", "chain", str(seq),
                       f"{where} carries no signature: no enrolled station wrote it (it was "
                       f"written behind the ledger's back)", seq)
    key = ring.get(str(kid))
    shown = keys.fingerprint(str(kid))
    if key is None:
        return Problem(chain, "unenrolled", "chain", str(seq),
                       f"{where} is signed by key {shown}, which no supervisor has enrolled: "
                       f"if it is a station's, enroll it there (paigow stations enroll); "
                       f"otherwise the link was forged", seq)
    if not keys.signature_holds(key.public_key, str(link["entry_hash"]), str(signature)):
        return Problem(chain, "forged", "chain", str(seq),
                       f"{where} carries a signature that is not key {shown}'s ({key.label}): "
                       f"the link was forged or changed", seq)
    if key.revoked_at is not None and _aware(link["at"]) >= key.revoked_at:
        return Problem(chain, "revoked", "chain", str(seq),
                       f"{where} is signed by {key.label}'s key {shown}, revoked at "
                       f"{key.revoked_at:%Y-%m-%d %H:%M:%S} UTC, after it was revoked", seq)
    if key.table_name is not None and chain != PEOPLE and key.table_name != chain:
        return Problem(chain, "wrong table", "chain", str(seq),
                       f"{where} is signed by {key.label}'s key {shown}, a station of table "
                       f"{key.table_name}, not of {chain}", seq)
    return None


def verify(conn: Connection, chain: str) -> ChainReport:
    """Walk one chain: every link in order, unaltered and signed by an enrolled key allowed
    to write it, every row matching its newest link, no link without its row and no row
    without a link."""
    c = ChainEntry.__table__
    problems: list[Problem] = []
    ring, legacy = keyring(conn), unsigned_upto(conn, chain)
    latest: dict[tuple[str, str], tuple[int, str]] = {}
    prev, expected = GENESIS, 1
    entries = list(conn.execute(select(c).where(c.c.chain == chain).order_by(c.c.seq))
                   .mappings())
    by_hash = {str(e["entry_hash"]): int(e["seq"]) for e in entries}
    for e in entries:
        seq = int(e["seq"])
        where = link_name(e)
        if seq > expected:
            problems.append(Problem(chain, "missing", "chain", str(expected),
                                    f"link {expected} of the chain is missing (deleted): "
                                    f"{where} follows link {expected - 1}", expected))
        elif e["prev_hash"] != prev:
            follows = by_hash.get(str(e["prev_hash"]))
            detail = (f"{where} is out of order: it was written after the link now "
                      f"numbered {follows}, not after link {seq - 1}" if follows is not None else
                      f"{where} is out of order: the link before it is not the one it was "
                      f"written after")
            problems.append(Problem(chain, "out of order", "chain", str(seq), detail, seq))
        named = covered(e)
        if named is None or entry_of(chain, e) != e["entry_hash"]:
            problems.append(Problem(chain, "edited", "chain", str(seq),
                                    f"{where} was edited: its hash does not match what it "
                                    f"holds", seq))
        signed = signature_problem(chain, e, ring, legacy)
        if signed is not None:
            problems.append(signed)
        prev, expected = str(e["entry_hash"]), seq + 1
        for table, row_id, rhash in named or ():
            latest[(table, row_id)] = (seq, rhash)
    rows = 0
    seen: set[tuple[str, str]] = set()
    unlinked: list[tuple[str, Problem]] = []
    secrets = chain != PEOPLE or may_read_secrets(conn)
    for table in CHAINED:
        for row in _rows_of(conn, chain, table, secrets):
            key = (table, str(row["id"]))
            seen.add(key)
            link = latest.get(key)
            whole = secrets or table != SECRET[0]  # else only there and linked is told
            if whole:
                rows += 1
            if link is None:
                name = describe(conn, table, key[1], row)
                at = next((_value(row[k]) for k in ("at", "first_seen", "opened_at",
                                                    "started_at") if k in row), "")
                unlinked.append((str(at), Problem(
                    chain, "unchained", table, key[1],
                    f"{name} is not in the chain: it was written behind the ledger's back "
                    f"(not by a station)")))
            elif whole and row_hash(table, row) != link[1]:
                problems.append(Problem(
                    chain, "edited", table, key[1],
                    f"{describe(conn, table, key[1], row)} was edited: it does not match "
                    f"the hash its link {link[0]} holds", link[0]))
    for key, (seq, _) in latest.items():
        if key not in seen:
            problems.append(Problem(chain, "missing", key[0], key[1],
                                    f"{key[0]} row {key[1]} is missing (deleted): link {seq} "
                                    f"of the chain names it", seq))
    problems.sort(key=lambda p: p.seq or 0)
    problems.extend(p for _, p in sorted(unlinked, key=lambda x: x[0]))
    return ChainReport(chain, rows, len(entries), problems, prev,
                       None if secrets else NEEDS_OWNER)


# --- rows that count ---------------------------------------------------------------------

def _newest_links(conn: Connection, table: str, wanted: list[str]
                  ) -> dict[str, RowMapping]:
    """The newest link that names each of these rows: a /1 link found by the row's id, a /2
    link by the round the row belongs to (or the row's own id, for a row of no round)."""
    c = _chain_table()
    t = _table(table)
    newest: dict[str, RowMapping] = {}

    def keep(row_id: str, link: RowMapping) -> None:
        kept = newest.get(row_id)
        if kept is None or int(link["seq"]) > int(kept["seq"]):
            newest[row_id] = link

    for start in range(0, len(wanted), 500):
        part = wanted[start:start + 500]
        for found in conn.execute(select(c).where(c.c.row_table == table,
                                                  c.c.row_id.in_(part))).mappings():
            keep(str(found["row_id"]), found)
        subjects = set(part)
        if "round_id" in t.c:
            subjects |= {str(r) for r in conn.scalars(
                select(t.c.round_id).where(t.c.id.in_([uuid.UUID(i) for i in part])))
                if r is not None}
        asked = set(part)
        for found in conn.execute(select(c).where(c.c.row_table == TX,
                                                  c.c.row_id.in_(sorted(subjects)))
                                  ).mappings():
            for t_name, row_id, _ in unpack(found["rows"] or b"") or ():
                if t_name == table and row_id in asked:
                    keep(row_id, found)
    return newest


def untrusted(conn: Connection, table: str, ids: Iterable[str],
              also: keys.Signer | None = None) -> dict[str, str]:
    """Of these rows, those that are no record: no link names them, or their newest link is
    not signed by an enrolled key allowed to write its chain (verify's rule). By id, why.
    What reads money or approvals (totals, recall, a person's tries) counts none of them.
    `also`: the asking writer's own key, trusted for its own rows even before enrollment
    (a station counts the wrong tries typed at it, enrolled or not)."""
    wanted = [str(i) for i in ids]
    newest = _newest_links(conn, table, wanted)
    ring: dict[str, EnrolledKey] | None = None
    legacy: dict[str, int] = {}
    out: dict[str, str] = {}
    for row_id in wanted:
        link = newest.get(row_id)
        if link is None:
            out[row_id] = "it is in no chain: written behind the ledger's back"
            continue
        if ring is None:
            ring = keyring(conn)
            if also is not None and also.key_id not in ring:
                ring[also.key_id] = EnrolledKey(also.key_id, also.public_hex, "floor", None,
                                                "this station", now(), None)
        name = str(link["chain"])
        if name not in legacy:
            legacy[name] = unsigned_upto(conn, name)
        problem = signature_problem(name, link, ring, legacy[name])
        if problem is not None:
            out[row_id] = problem.detail
    return out
