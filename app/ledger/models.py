"""The ledger's tables as typed SQLAlchemy 2 models (the migrations in `migrations/` build
exactly these; a test compares them).

Ids are UUIDs made on the station, so two stations never collide; each table also has the
natural key of what it records (a round's event number, a round's position, a settlement's
entry number) as a unique key, so the same row is never there twice. Money is integer cents
(`*_cents`). JSON is kept as text, exactly as written, so a slip is reprinted byte for byte.

Rows are only ever added: events, hands, wagers, settlements and bank decisions are never
updated or deleted, and a round's row is filled in as the round goes and cannot change once
it is settled (the database refuses, by triggers the migrations install). A correction is a
settlement row that reverses another, and a new one.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .columns import HexBytes, LedgerUuid, UuidText

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ROUND_STATUSES = ("open", "settled", "void")
SETTLEMENT_ENTRIES = ("original", "reversal", "correction")


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC: aware datetimes in, aware UTC datetimes out, on every backend."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("the ledger keeps times with their time zone")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect
                             ) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: dict[Any, Any] = {
        uuid.UUID: LedgerUuid(),
        datetime: UTCDateTime(),
    }


class Station(Base):
    """A dealer station: the table it runs and the machine it is."""

    __tablename__ = "stations"
    __table_args__ = (UniqueConstraint("table_name", "name"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    table_name: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(100))
    first_seen: Mapped[datetime]


class Shift(Base):
    """A dealer's shift at a station."""

    __tablename__ = "shifts"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    station_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("stations.id"), index=True)
    dealer: Mapped[str] = mapped_column(String(100))
    opened_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]


class RoundRow(Base):
    """One round, filled in as it goes; the slip once settled (app/ledger/slips.py: what its
    rows do not hold, the words rendered from it; a round stored before migration 0013 keeps
    the whole slip and its words)."""

    __tablename__ = "rounds"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'settled', 'void')", name="status"),
        Index(None, "station_id", "started_at"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    station_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("stations.id"))
    shift_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("shifts.id"), index=True)
    table_name: Mapped[str] = mapped_column(String(40), index=True)
    round_no: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    phase: Mapped[str] = mapped_column(String(10))
    started_at: Mapped[datetime] = mapped_column(index=True)
    settled_at: Mapped[datetime | None]
    last_seq: Mapped[int] = mapped_column(Integer)
    # the config snapshot: {"rules": paigow.rules/1, "config": the table config or null}
    config: Mapped[str] = mapped_column(Text)
    house_way: Mapped[str] = mapped_column(String(40))
    rotation: Mapped[str] = mapped_column(Text)  # paigow.rotation/1 the round began with
    # action
    action_source: Mapped[str | None] = mapped_column(String(4))
    action_number: Mapped[int | None] = mapped_column(Integer)
    action_dice: Mapped[str | None] = mapped_column(String(8))
    action_drawn_by: Mapped[str | None] = mapped_column(String(16))
    counted_from: Mapped[int | None] = mapped_column(Integer)
    action_position: Mapped[int | None] = mapped_column(Integer)
    direction: Mapped[str | None] = mapped_column(String(20))
    # the bank
    banker_position: Mapped[int | None] = mapped_column(Integer)
    banker_seat: Mapped[int | None] = mapped_column(Integer)
    bank_chips_cents: Mapped[int | None] = mapped_column(BigInteger)
    co_bank: Mapped[bool | None] = mapped_column(Boolean)
    dealer_wager_cents: Mapped[int | None] = mapped_column(BigInteger)
    # the deck as read: the seven hands in the order dealt, and the leftovers
    deal_mode: Mapped[str | None] = mapped_column(String(16))
    deck: Mapped[str | None] = mapped_column(Text)
    leftovers: Mapped[str | None] = mapped_column(String(16))
    leftovers_counted: Mapped[bool | None] = mapped_column(Boolean)
    misdeals: Mapped[int] = mapped_column(Integer)
    void_reason: Mapped[str | None] = mapped_column(Text)
    # once settled
    slip_json: Mapped[str | None] = mapped_column(Text)
    slip_text: Mapped[str | None] = mapped_column(Text)
    wagers_cents: Mapped[int | None] = mapped_column(BigInteger)
    players_net_cents: Mapped[int | None] = mapped_column(BigInteger)
    commission_cents: Mapped[int | None] = mapped_column(BigInteger)
    banker_net_cents: Mapped[int | None] = mapped_column(BigInteger)
    house_net_cents: Mapped[int | None] = mapped_column(BigInteger)
    rotation_after: Mapped[str | None] = mapped_column(Text)


class HandRow(Base):
    """A position's seven cards and how they were set: by whom, the House Way rule, a foul
    and its penalty (`forfeit`, or `reset` the House Way)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("round_id", "position"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    round_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("rounds.id"))
    position: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer)
    cards: Mapped[str] = mapped_column(String(24))
    low: Mapped[str | None] = mapped_column(String(8))
    high: Mapped[str | None] = mapped_column(String(16))
    set_by: Mapped[str | None] = mapped_column(String(10))
    rule_id: Mapped[str | None] = mapped_column(String(16))
    rule_says: Mapped[str | None] = mapped_column(Text)
    foul: Mapped[str | None] = mapped_column(Text)
    penalty: Mapped[str | None] = mapped_column(String(10))
    at: Mapped[datetime]


class WagerRow(Base):
    """A wager at a position once the bets close: a seat's main wager, a dragon's, or the
    house's on the dealer's hand against a player banker."""

    __tablename__ = "wagers"
    __table_args__ = (UniqueConstraint("round_id", "position"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    round_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("rounds.id"))
    position: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[datetime]


class SettlementRow(Base):
    """What a position won or lost. `entry` is `original` (from the slip), `reversal` (the
    negative of an earlier row, which it names) or `correction` (the amount as corrected)."""

    __tablename__ = "settlements"
    __table_args__ = (
        UniqueConstraint("round_id", "position", "entry_no"),
        CheckConstraint("entry IN ('original', 'reversal', 'correction')", name="entry"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    round_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("rounds.id"))
    position: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(8))
    entry: Mapped[str] = mapped_column(String(12))
    entry_no: Mapped[int] = mapped_column(Integer)
    reverses_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("settlements.id"),
                                                          unique=True)
    outcome: Mapped[str | None] = mapped_column(String(10))
    wager_cents: Mapped[int] = mapped_column(BigInteger)
    win_cents: Mapped[int] = mapped_column(BigInteger)
    commission_cents: Mapped[int] = mapped_column(BigInteger)
    net_cents: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str | None] = mapped_column(Text)
    by: Mapped[str | None] = mapped_column(String(100))
    at: Mapped[datetime]


class BonusSettlementRow(Base):
    """A bonus or envy line of a settled round (issue 26, migration 0014_bonus_rows), in the
    order paid (`line_no`, from 1): the seat paid, the hand whose bonus wager it is
    (`position`; a dragon hand's position for its taker's bonus), for an envy line the hand
    that paid it (`from_position`), the category its seven cards made, the wager it rides on
    and what it paid (+ won, 0 push, - lost), whether it waited for a supervisor, and why
    the card's pay did not apply (a fouled hand). The words are made again from these and
    the pay card stored with the round (app.core.bonus.payout); the slip keeps none of it."""

    __tablename__ = "bonus_settlements"
    __table_args__ = (
        UniqueConstraint("round_id", "line_no"),
        CheckConstraint("kind IN ('bonus', 'envy')", name="kind"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    round_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("rounds.id"))
    line_no: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(5))
    seat: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    from_position: Mapped[int | None] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String(40))
    wager_cents: Mapped[int] = mapped_column(BigInteger)
    paid_cents: Mapped[int] = mapped_column(BigInteger)
    supervisor: Mapped[bool] = mapped_column(Boolean)
    note: Mapped[str | None] = mapped_column(Text)
    at: Mapped[datetime]


class BankDecision(Base):
    """A decision on who may bank, with every reason: asked by the pit (`checked`) or made
    when the seat took the bank (`took`)."""

    __tablename__ = "bank_decisions"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    station_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("stations.id"))
    round_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    eligible: Mapped[bool] = mapped_column(Boolean)
    reasons: Mapped[str] = mapped_column(Text)  # JSON list of the reasons, in order
    chips_cents: Mapped[int] = mapped_column(BigInteger)
    cover_cents: Mapped[int] = mapped_column(BigInteger)
    decision: Mapped[str] = mapped_column(String(8))
    actor: Mapped[str | None] = mapped_column(String(100))
    at: Mapped[datetime]


class Event(Base):
    """The append-only log: who did what when. A round's events are numbered: 0 is the
    round begun, n is `Round.log[n - 1]`; the payload is the record's JSON less what the
    replay makes again (codec.stored_record), enough to rebuild the round."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("round_id", "seq"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    station_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("stations.id"))
    shift_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("shifts.id"))
    round_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("rounds.id"))
    seq: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    actor: Mapped[str | None] = mapped_column(String(100))
    at: Mapped[datetime]
    payload: Mapped[str] = mapped_column(Text)


class ChainEntry(Base):
    """One link of a table's hash chain (app/ledger/chain.py, docs/ledger.md): the rows one
    write transaction added or filled in (`rows`, each with the SHA-256 of its canonical
    content; a /1 link, the people's or one from before migration 0012, names one row in
    row_table/row_id/row_hash), and the hash that ties it to the link before it. One chain
    per casino table (`chain` is its name, e.g. "PG-1"), plus "people" for the users."""

    __tablename__ = "chain"
    __table_args__ = (Index(None, "row_table", "row_id"),)

    chain: Mapped[str] = mapped_column(String(40), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    row_table: Mapped[str] = mapped_column(String(20))
    # Since migration 0015 the row id, the hashes and the signature are kept as their
    # bytes (columns.py); Python sees them as the text they are hashed and signed as.
    row_id: Mapped[str] = mapped_column(UuidText())
    row_hash: Mapped[str] = mapped_column(HexBytes())
    prev_hash: Mapped[str] = mapped_column(HexBytes())
    entry_hash: Mapped[str] = mapped_column(HexBytes())
    at: Mapped[datetime]
    # Who wrote the link (app/ledger/keys.py): the id of an enrolled key and its Ed25519
    # signature of entry_hash. Empty only in links written before signing began
    # (`chain_unsigned`).
    key_id: Mapped[str | None] = mapped_column(String(16))
    signature: Mapped[str | None] = mapped_column(HexBytes())
    # A /2 link's rows (one link per write transaction, migration 0012): 49 bytes a row,
    # its table, id and hash (chain.pack). Empty in a /1 link, which names one row.
    rows: Mapped[bytes | None] = mapped_column(LargeBinary)


class ChainUnsigned(Base):
    """How many links each chain held when signing began (migration 0008): those may carry
    no signature; any later link without one is named by verify. Written by the migration
    only (the owner's); a station's login cannot add to it."""

    __tablename__ = "chain_unsigned"

    chain: Mapped[str] = mapped_column(String(40), primary_key=True)
    upto_seq: Mapped[int] = mapped_column(Integer)


class StationKey(Base):
    """A signing key enrolled or revoked by a supervisor (`paigow stations enroll`): a new
    row for each, never changed. A station's key signs its own table's chain (and the
    people's); the floor's key (kind "floor") signs any table's."""

    __tablename__ = "station_keys"
    __table_args__ = (
        Index(None, "key_id"),
        CheckConstraint("action IN ('enrolled', 'revoked')", name="action"),
        CheckConstraint("kind IN ('station', 'floor')", name="kind"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    key_id: Mapped[str] = mapped_column(String(16))
    public_key: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(10))
    station_id: Mapped[uuid.UUID | None]
    table_name: Mapped[str | None] = mapped_column(String(40))
    label: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(10))
    by: Mapped[str] = mapped_column(String(100))
    sign_in: Mapped[uuid.UUID | None]
    reason: Mapped[str | None] = mapped_column(Text)
    at: Mapped[datetime]


class User(Base):
    """A person who may do a supervisor's action, as one version of their account: every
    change (added, disabled, enabled, reset, role) is a new row, so the table only grows
    and says who changed what and when. The secret is kept only as an argon2 hash."""

    __tablename__ = "users"
    __table_args__ = (
        UniqueConstraint("name", "version"),
        CheckConstraint("role IN ('pit supervisor', 'supervisor', 'shift manager', "
                        "'auditor')", name="role"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(20))
    secret_hash: Mapped[str] = mapped_column(Text)
    disabled: Mapped[bool] = mapped_column(Boolean)
    change: Mapped[str] = mapped_column(String(10))
    changed_by: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime]


class SignIn(Base):
    """A try of a person's secret for an action: right or wrong, where, never the secret.
    Wrong tries in a row lock the person (counted from these rows, so a restart of a
    station does not clear it)."""

    __tablename__ = "sign_ins"
    __table_args__ = (Index(None, "name", "at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(24))
    ok: Mapped[bool] = mapped_column(Boolean)
    station: Mapped[str | None] = mapped_column(String(100))
    at: Mapped[datetime]


# --- the pit floor (migration 0005_floor) ------------------------------------------------------
# What the floor needs that the rounds do not hold: each station's live state (its
# heartbeat, written in place: a live view, not a record), the alerts the floor raised and
# their acknowledgements, the floor's own users and the log of what they did.

# The roles the floor's forms and `paigow floor user` name, as the people's roles.
FLOOR_ROLES = ("pit-supervisor", "shift-manager", "auditor")


class StationStatus(Base):
    """A station's heartbeat and live state, one row per station, written in place. No
    foreign key to `stations`: the heartbeat is sent at once while the station's own row
    may still wait in its journal."""

    __tablename__ = "station_status"

    station_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    table_name: Mapped[str] = mapped_column(String(40), index=True)
    name: Mapped[str] = mapped_column(String(100))
    dealer: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[str] = mapped_column(String(10))  # idle, betting, dealing, setting, settled
    round_no: Mapped[int | None] = mapped_column(Integer)
    round_id: Mapped[uuid.UUID | None]
    banker: Mapped[str | None] = mapped_column(String(40))
    action_position: Mapped[int | None] = mapped_column(Integer)
    wagers: Mapped[str] = mapped_column(Text)  # JSON: position -> cents
    devices: Mapped[str] = mapped_column(Text)  # JSON: shoe/printer/database -> [ok, words]
    last_settled_at: Mapped[datetime | None]
    heartbeat_at: Mapped[datetime]
    changed_at: Mapped[datetime]  # when anything but the heartbeat last changed


class FloorAlert(Base):
    """Something the pit must see: a foul, a void, a correction, a supervisor's override,
    a player banker who could not cover, a wager over the limit, a round open too long, a
    station offline. `key` names the occurrence, so two floor servers raise it once."""

    __tablename__ = "floor_alerts"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[str] = mapped_column(String(24))
    table_name: Mapped[str] = mapped_column(String(40), index=True)
    station_id: Mapped[uuid.UUID | None]
    round_id: Mapped[uuid.UUID | None]
    text: Mapped[str] = mapped_column(Text)
    raised_at: Mapped[datetime] = mapped_column(index=True)


class FloorAck(Base):
    """A supervisor acknowledged an alert: who, when, and their note. Once per alert."""

    __tablename__ = "floor_acks"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    alert_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("floor_alerts.id"), unique=True)
    by: Mapped[str] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime]


class FloorLog(Base):
    """What a floor user did, and when: a login (or a refusal), an acknowledgement, a void,
    a correction, a report downloaded."""

    __tablename__ = "floor_log"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(index=True)
    actor: Mapped[str | None] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(24))
    detail: Mapped[str] = mapped_column(Text)  # JSON


class FloorRequest(Base):
    """The floor asks a station to do what only the station may do to the round it has in
    play (void it): the station does it as its own pit view would, with the same records,
    and says so here (`done_at`, `outcome`)."""

    __tablename__ = "floor_requests"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    station_id: Mapped[uuid.UUID] = mapped_column(index=True)
    round_id: Mapped[uuid.UUID]
    kind: Mapped[str] = mapped_column(String(10))
    by: Mapped[str] = mapped_column(String(100))
    reason: Mapped[str] = mapped_column(Text)
    requested_at: Mapped[datetime]
    done_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(Text)


class FloorLogout(Base):
    """A person logged out of the floor (migration 0009_floor_logouts): every floor session of
    theirs that logged in before it has ended, a copied cookie included. Only ever added."""

    __tablename__ = "floor_logouts"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    at: Mapped[datetime]


class StationClaim(Base):
    """Who runs as a station now: the process (`instance`, made at each start) that holds
    its identity, and when it was last seen. Written in place, like the heartbeat: a
    live mark, not a record. A second process claiming a live identity is refused."""

    __tablename__ = "station_claims"

    station_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    instance: Mapped[str] = mapped_column(String(36))
    host: Mapped[str] = mapped_column(String(255))
    boot: Mapped[str] = mapped_column(String(64))  # the machine's boot id (Linux)
    pid: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    claimed_at: Mapped[datetime]
    seen_at: Mapped[datetime]


class StationLogin(Base):
    """Which table a station's PostgreSQL login may write (migration 0011_table_logins):
    the row-level security of every table a station writes lets a login add and fill in
    rows of its own table only ("*": any table, what an upgraded ledger's shared login
    keeps until `paigow ledger setup-roles --table` names one). Written by the owner's
    setup-roles; read by the policies, as the login they check."""

    __tablename__ = "station_logins"

    role: Mapped[str] = mapped_column(String(63), primary_key=True)
    table_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    granted_at: Mapped[datetime]


# The floor's users are the ledger's people (`users`, migration 0007_floor_people).
FLOOR_TABLES = ("station_status", "floor_alerts", "floor_acks", "floor_log", "floor_requests",
                "floor_logouts")
TABLES = ("stations", "shifts", "rounds", "hands", "wagers", "settlements",
          "bonus_settlements", "bank_decisions", "events", "chain", "users", "sign_ins",
          *FLOOR_TABLES, "station_claims", "station_logins")


# --- the linked progressive (migration 0016_progressive, docs/progressive.md) ---------------

class ProgressiveMeter(Base):
    """A linked progressive's meter as it stands: the one row every linked station writes,
    in place, under its lock (app/ledger/progressive.py). Not chained (a live value, like
    `station_status`): its moves are, and the audit checks it against them; the database
    refuses a meter row that is not what its newest move left (migration 0016)."""

    __tablename__ = "progressive_meters"
    __table_args__ = (
        CheckConstraint("amount_cents >= seed_cents AND reserve_cents >= 0 AND seq >= 1",
                        name="never_below_seed"),
    )

    name: Mapped[str] = mapped_column(String(60), primary_key=True)  # the card's name
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    reserve_cents: Mapped[int] = mapped_column(BigInteger)
    seed_cents: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int] = mapped_column(Integer)  # its moves so far
    card_hash: Mapped[str] = mapped_column(String(64))  # the card every move was made by
    updated_at: Mapped[datetime]


class ProgressiveMove(Base):
    """One move of a meter, chained in its station's table's chain and never changed: the
    meter opened at its seed, a round's contribution, or a hit. `meter_seq` is the order
    the writers' moves took (one after another under the meter's lock); `op_id` with
    `op_part` names the operation that made it, so a resent operation is never doubled.

    The meter after = before + to_meter (a contribution's share, or minus a hit's) +
    reserve_to_meter (the reserve put back onto the meter after a hit) + house (the seed
    or a top-up put up by the house); the reserve after = before + to_reserve -
    reserve_to_meter. A hit pays the player `amount` = its share of the meter + the fixed
    amount the house pays (`house_paid`)."""

    __tablename__ = "progressive_moves"
    __table_args__ = (
        UniqueConstraint("meter", "meter_seq"),
        UniqueConstraint("op_id", "op_part"),
        CheckConstraint("kind IN ('open', 'contribution', 'hit')", name="kind"),
        CheckConstraint("meter_after_cents = meter_before_cents + to_meter_cents + "
                        "reserve_to_meter_cents + house_cents", name="meter_adds_up"),
        CheckConstraint("reserve_after_cents = reserve_before_cents + to_reserve_cents - "
                        "reserve_to_meter_cents", name="reserve_adds_up"),
        Index(None, "round_id"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    meter: Mapped[str] = mapped_column(String(60), ForeignKey("progressive_meters.name"))
    meter_seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(12))
    station_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("stations.id"))
    round_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("rounds.id"))
    op_id: Mapped[str] = mapped_column(String(80))
    op_part: Mapped[int] = mapped_column(Integer)
    seats: Mapped[str | None] = mapped_column(String(40))  # a contribution's, "1,3,5"
    wagers: Mapped[int] = mapped_column(Integer)
    category: Mapped[str | None] = mapped_column(String(40))  # a hit's hand
    seat: Mapped[int | None] = mapped_column(Integer)  # a hit's seat
    amount_cents: Mapped[int] = mapped_column(BigInteger)  # wagers taken, or paid
    to_meter_cents: Mapped[int] = mapped_column(BigInteger)
    to_reserve_cents: Mapped[int] = mapped_column(BigInteger)
    reserve_to_meter_cents: Mapped[int] = mapped_column(BigInteger)
    house_cents: Mapped[int] = mapped_column(BigInteger)
    house_paid_cents: Mapped[int] = mapped_column(BigInteger)
    meter_before_cents: Mapped[int] = mapped_column(BigInteger)
    meter_after_cents: Mapped[int] = mapped_column(BigInteger)
    reserve_before_cents: Mapped[int] = mapped_column(BigInteger)
    reserve_after_cents: Mapped[int] = mapped_column(BigInteger)
    by: Mapped[str | None] = mapped_column(String(100))  # the supervisor of a hit
    sign_in: Mapped[uuid.UUID | None]  # their right try, in `sign_ins`
    at: Mapped[datetime]


PROGRESSIVE_TABLES = ("progressive_meters", "progressive_moves")
