"""A linked progressive's meter in the ledger (issue 27, docs/progressive.md): one row per
meter that every linked station writes in place (`progressive_meters`), and a chained,
append-only row per move (`progressive_moves`). The money rules are the core's
(app.core.progressive); this module applies them under the meter row's lock.

Each function runs inside the caller's writing transaction (a `LedgerSession` on the
store's writing engine) and takes the meter's lock first: `SELECT ... FOR UPDATE` on
PostgreSQL; on SQLite the writing transaction (BEGIN IMMEDIATE) holds the whole file. So
moves of every station are numbered one after another (`meter_seq`) in the order their
transactions took the lock, and a hit is paid from the meter as the last commit left it.

- `contribute(...)`: a settled round's progressive wagers onto the meter. Applied in the
  transaction that settles the round (apply.py), so the round and its contribution are
  committed together or not at all; the op sent again is one move (its `op_id`).
- `take_hits(...)`: a round's hits, after a supervisor's sign-in; an op already taken
  gives back what it paid, never takes again.
- `meter(...)`: the meter as it stands. `audit(...)`: the moves walked in order against
  the meter, to the cent, or the first row that does not add up, and how.
- `hits_owed(...)`: the hits a settled round's stored slip has and no hit move pays yet
  (its op `<round id>/hit` never committed): found in the ledger, so a hit that waited when
  its station stopped is offered again at the next start, and the audit names it.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import cast

from sqlalchemy import Connection, RowMapping, Table, bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from app.core.bonus.categories import Category
from app.core.progressive import (
    Meter,
    MeterError,
    ProgressiveCard,
    ProgressiveCardError,
    progressive_card,
    site_progressive_folders,
)
from app.core.progressive import add as add_to
from app.core.progressive import contribute as shares_of
from app.core.progressive import take_hits as hits_from
from app.core.settlement import ProgressiveLineDict, SlipDict, money
from app.session.events import OwedHit

from . import chain
from .errors import LedgerError
from .models import ProgressiveMeter, ProgressiveMove, RoundRow, now

METERS = cast(Table, ProgressiveMeter.__table__)
OPEN, CONTRIBUTION, HIT = "open", "contribution", "hit"


@cache
def card_hash(card: ProgressiveCard) -> str:
    """SHA-256 of what the card's money rules are (not its title or notes): every move of
    a meter is made by the card the meter was opened with, and a station with another
    card is refused rather than feeding the meter by other shares."""
    rules = {"name": card.name, "wager": card.wager, "meter_bp": card.meter_bp,
             "reserve_bp": card.reserve_bp, "seed": card.seed, "reset": card.reset.value,
             "two_hits": card.two_hits.value, "tables": list(card.tables),
             "order": [c.value for c in card.order],
             "pays": [[p.category.value, p.share_bp, p.fixed] for p in card.pays]}
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"paigow.progressive-card/1|{text}".encode()).hexdigest()


def card_named(name: str, expected_hash: str | None = None) -> ProgressiveCard:
    """The card a station names in its op (the shipped cards, and the casino's own folder
    the station's config names: `[progressive] cards_folder`), checked against the hash the
    station sent: a site whose card differs from this program's is refused in words."""
    try:
        card = _card(name, site_progressive_folders())
    except ProgressiveCardError as e:
        raise LedgerError(f"the progressive {name!r} is not a card this program has "
                          f"({e}): update the program on this machine") from None
    if expected_hash is not None and card_hash(card) != expected_hash:
        raise LedgerError(f"the station played the progressive {name!r} under another card "
                          f"than this program's: every linked table must have the same card; "
                          f"call the shift manager. Nothing was recorded.")
    return card


@cache
def _card(name: str, folders: tuple[Path, ...]) -> ProgressiveCard:
    # read once a process (per folder): every settlement with progressive wagers names it
    return progressive_card(name, folders)


@dataclass(frozen=True, slots=True)
class MeterReading:
    """A meter as it stands: the jackpot shown, the reserve, its seed, how many moves."""

    name: str
    amount: int
    reserve: int
    seed: int
    seq: int
    card_hash: str
    updated_at: datetime

    def text(self) -> str:
        return (f"{self.name}: meter {money(self.amount)}, reserve {money(self.reserve)}, "
                f"seed {money(self.seed)}, {self.seq} move(s)")


@dataclass(frozen=True, slots=True)
class Move:
    """A move as recorded: what it was, what it paid or took, the meter before and after."""

    seq: int
    kind: str
    op_id: str
    op_part: int
    round_id: str | None
    seat: int | None
    category: str | None
    wagers: int
    amount: int
    to_meter: int
    to_reserve: int
    reserve_to_meter: int
    house: int
    house_paid: int
    before: Meter
    after: Meter
    by: str | None

    @classmethod
    def of(cls, row: ProgressiveMove) -> Move:
        return cls(row.meter_seq, row.kind, row.op_id, row.op_part,
                   None if row.round_id is None else str(row.round_id), row.seat,
                   row.category, row.wagers, row.amount_cents, row.to_meter_cents,
                   row.to_reserve_cents, row.reserve_to_meter_cents, row.house_cents,
                   row.house_paid_cents, Meter(row.meter_before_cents, row.reserve_before_cents),
                   Meter(row.meter_after_cents, row.reserve_after_cents), row.by)

    @property
    def paid(self) -> int:
        """What a hit paid the player: its share of the meter and any fixed amount."""
        return self.amount if self.kind == HIT else 0


# --- the meter's lock --------------------------------------------------------------------

def _locked(s: Session, card: ProgressiveCard, station_id: uuid.UUID, at: datetime
            ) -> RowMapping:
    """The meter row, locked for this transaction; opened at the card's seed (with its
    'open' move) if it is not there. Two stations opening it at once: one insert wins, the
    other does nothing and waits for the lock."""
    # The meter's row lock is the one every linked table waits for: taken last, after this
    # station's chain lock and with this transaction's own rows already linked, it is held
    # for the move alone. Held through a settlement's whole link (84% of its time) it let
    # one meter take about 20 settlements a second (bench progressive, docs/floor.md).
    chain.hold_station_chain(s.connection(), station_id)
    chain.link_now(s)
    digest = card_hash(card)
    dialect = s.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    # RETURNING, not the rowcount: psycopg gives -1 for an INSERT ... ON CONFLICT
    opened = s.scalar(insert(METERS).values(
        name=card.name, amount_cents=card.seed, reserve_cents=0, seed_cents=card.seed,
        seq=1, card_hash=digest, updated_at=at).on_conflict_do_nothing(index_elements=["name"])
        .returning(METERS.c.name))
    if opened is not None:
        s.add(ProgressiveMove(
            id=uuid.uuid4(), meter=card.name, meter_seq=1, kind=OPEN, station_id=station_id,
            round_id=None, op_id=f"open/{card.name}", op_part=0, seats=None, wagers=0,
            category=None, seat=None, amount_cents=0, to_meter_cents=0, to_reserve_cents=0,
            reserve_to_meter_cents=0, house_cents=card.seed, house_paid_cents=0,
            meter_before_cents=0, meter_after_cents=card.seed, reserve_before_cents=0,
            reserve_after_cents=0, by=None, sign_in=None, at=at))
        s.flush()
    row = s.execute(select(METERS).where(METERS.c.name == card.name).with_for_update()
                    ).mappings().one()
    if row["card_hash"] != digest:
        raise LedgerError(f"the progressive meter {card.name} was opened under another card "
                          f"than this station's: every linked table must have the same card "
                          f"(the wager, the shares, the seed and the pays); call the shift "
                          f"manager. Nothing was recorded.")
    return row


def _recorded(s: Session, op_id: str) -> list[Move]:
    rows = s.scalars(select(ProgressiveMove).where(ProgressiveMove.op_id == op_id)
                     .order_by(ProgressiveMove.op_part))
    return [Move.of(r) for r in rows]


def _set_meter(s: Session, name: str, after: Meter, seq: int, at: datetime) -> None:
    # after the move's INSERT is flushed: the database takes only what a move left
    s.flush()
    s.execute(update(METERS).where(METERS.c.name == name).values(
        amount_cents=after.amount, reserve_cents=after.reserve, seq=seq, updated_at=at))


def _move(card: ProgressiveCard, seq: int, kind: str, station_id: uuid.UUID,
          round_id: uuid.UUID | None, op_id: str, op_part: int, before: Meter, after: Meter,
          at: datetime, **money_: object) -> ProgressiveMove:
    values: dict[str, object] = {
        "seats": None, "wagers": 0, "category": None, "seat": None, "amount_cents": 0,
        "to_meter_cents": 0, "to_reserve_cents": 0, "reserve_to_meter_cents": 0,
        "house_cents": 0, "house_paid_cents": 0, "by": None, "sign_in": None, **money_}
    return ProgressiveMove(
        id=uuid.uuid4(), meter=card.name, meter_seq=seq, kind=kind, station_id=station_id,
        round_id=round_id, op_id=op_id, op_part=op_part,
        meter_before_cents=before.amount, meter_after_cents=after.amount,
        reserve_before_cents=before.reserve, reserve_after_cents=after.reserve, at=at,
        **values)


# --- what the stations write -------------------------------------------------------------

def open_meter(s: Session, card: ProgressiveCard, station_id: uuid.UUID,
               at: datetime | None = None) -> MeterReading:
    """The meter, opened at the card's seed if it was not there."""
    return _reading(_locked(s, card, station_id, at or now()))


def contribute(s: Session, card: ProgressiveCard, round_id: uuid.UUID | None,
               station_id: uuid.UUID, seats: Sequence[int], op_id: str,
               at: datetime | None = None) -> Move | None:
    """A round's progressive wagers (one a seat) onto the meter and the reserve, as the
    card shares them; the move, or the one recorded before for this op (never twice).
    None: no seat wagered."""
    if not seats:
        return None
    at = at or now()
    row = _locked(s, card, station_id, at)
    done = _recorded(s, op_id)
    if done:
        return done[0]
    if len(set(seats)) != len(seats):
        raise LedgerError(f"a seat has one progressive wager a round: seats {list(seats)}")
    c = shares_of(card, len(seats))
    before = Meter(int(row["amount_cents"]), int(row["reserve_cents"]))
    after = add_to(before, c)
    seq = int(row["seq"]) + 1
    move = _move(card, seq, CONTRIBUTION, station_id, round_id, op_id, 0, before, after, at,
                 seats=",".join(str(n) for n in seats), wagers=c.wagers,
                 amount_cents=c.total, to_meter_cents=c.to_meter,
                 to_reserve_cents=c.to_reserve)
    s.add(move)
    _set_meter(s, card.name, after, seq, at)
    return Move.of(move)


def take_hits(s: Session, card: ProgressiveCard, round_id: uuid.UUID | None,
              station_id: uuid.UUID, hits: Sequence[tuple[int, Category]], op_id: str,
              by: str, sign_in: uuid.UUID | None = None, at: datetime | None = None
              ) -> tuple[Move, ...]:
    """A round's hits ((seat, category) in the order from action), paid from the meter as
    it stands at this commit; the meter back to its seed after (the core's rules). An op
    already taken gives back what it paid and takes nothing again."""
    if not hits:
        return ()
    at = at or now()
    row = _locked(s, card, station_id, at)
    done = _recorded(s, op_id)
    if done:
        return tuple(done)
    before = Meter(int(row["amount_cents"]), int(row["reserve_cents"]))
    try:
        taken = hits_from(card, before, [c for _, c in hits])
    except MeterError as e:
        raise LedgerError(f"{e}: nothing was taken from the meter") from None
    seq = int(row["seq"])
    moves: list[ProgressiveMove] = []
    for part, ((seat, category), hit) in enumerate(zip(hits, taken, strict=True)):
        seq += 1
        moves.append(_move(card, seq, HIT, station_id, round_id, op_id, part, hit.before,
                           hit.after, at, seat=seat, category=category.value,
                           amount_cents=hit.paid, to_meter_cents=-hit.from_meter,
                           reserve_to_meter_cents=hit.from_reserve,
                           house_cents=hit.from_house_seed, house_paid_cents=hit.from_house,
                           by=by, sign_in=sign_in))
    s.add_all(moves)
    _set_meter(s, card.name, taken[-1].after, seq, at)
    return tuple(Move.of(m) for m in moves)


def _reading(row: RowMapping) -> MeterReading:
    return MeterReading(str(row["name"]), int(row["amount_cents"]), int(row["reserve_cents"]),
                        int(row["seed_cents"]), int(row["seq"]), str(row["card_hash"]),
                        row["updated_at"])


_METER = select(METERS).where(METERS.c.name == bindparam("name"))  # made once: read often


def meter(s: Session | Connection, name: str) -> MeterReading | None:
    row = s.execute(_METER, {"name": name}).mappings().first()
    return None if row is None else _reading(row)


def round_moves(s: Session, round_id: uuid.UUID) -> list[Move]:
    """A round's moves on any meter (its contribution, its hits), in the order taken: for
    the round's recall."""
    rows = s.scalars(select(ProgressiveMove).where(ProgressiveMove.round_id == round_id)
                     .order_by(ProgressiveMove.meter, ProgressiveMove.meter_seq))
    return [Move.of(r) for r in rows]


def moves_words(moves: Sequence[Move]) -> list[str]:
    """A round's progressive as its recall shows it: the wagers and where they went, each
    hit and what it paid, from the meter or by the house, and who signed in."""
    out: list[str] = []
    for m in moves:
        if m.kind == CONTRIBUTION:
            out.append(f"  {m.wagers} wager(s) {money(m.amount)}: {money(m.to_meter)} to the "
                       f"meter, {money(m.to_reserve)} to the reserve (move {m.seq})")
        elif m.kind == HIT:
            hand = Category(m.category).label if m.category else "?"
            where = (f"{money(-m.to_meter)} from the meter ({money(m.before.amount)} -> "
                     f"{money(m.after.amount)})" if m.to_meter else "")
            house = f"{money(m.house_paid)} by the house" if m.house_paid else ""
            out.append(f"  HIT seat {m.seat} {hand}: paid {money(m.amount)}, "
                       + ", ".join(x for x in (where, house) if x)
                       + f"; signed in by {m.by} (move {m.seq})")
    return out


# --- the hits owed ------------------------------------------------------------------------

def hit_op(round_id: str) -> str:
    """The op that pays a round's hits: the same whether the station pays it at the
    settlement or after a restart, so a hit already paid is given back, never paid again."""
    return f"{round_id}/hit"


def hits_owed(s: Session, table: str | None = None, meter: str | None = None
              ) -> list[OwedHit]:
    """The hits owed and unpaid (of one table, of one meter), oldest round first: a settled
    round whose stored slip has a progressive line with a hit, and no hit move of that
    round. The slip as stored is the one made at the settlement, so its hits never say
    paid; the moves say which were."""
    paid = select(ProgressiveMove.round_id).where(ProgressiveMove.kind == HIT,
                                                  ProgressiveMove.round_id == RoundRow.id)
    fed = select(ProgressiveMove.round_id).where(ProgressiveMove.kind == CONTRIBUTION,
                                                 ProgressiveMove.round_id == RoundRow.id)
    # Only a round with progressive wagers (its contribution) can have hit; the LIKE only
    # spares reading every such slip (a hit line names its category; json with no spaces,
    # as apply.py writes it): the slip itself decides.
    stmt = (select(RoundRow.id, RoundRow.table_name, RoundRow.round_no, RoundRow.slip_json)
            .where(RoundRow.status == "settled", fed.exists(), ~paid.exists(),
                   RoundRow.slip_json.like('%"category":"%'))
            .order_by(RoundRow.settled_at, RoundRow.round_no))
    if table is not None:
        stmt = stmt.where(RoundRow.table_name == table)
    out: list[OwedHit] = []
    for round_id, table_name, round_no, text in s.execute(stmt):
        try:
            slip = json.loads(text or "")
            card, lines = str(slip["progressive"]["card"]), slip["progressive"]["lines"]
        except (ValueError, KeyError, TypeError):
            continue  # no progressive on this slip (a bonus line named a category)
        if meter is not None and card != meter:
            continue
        out += [OwedHit(str(round_id), round_no, x["seat"], str(x["category"]),
                        str(x["hand"]), str(x["pays"]), card, table_name)
                for x in cast(list[ProgressiveLineDict], lines) if x.get("category")]
    return out


def round_card(s: Session, round_id: uuid.UUID, name: str) -> ProgressiveCard:
    """The card a round was played under, as stored with its rules (never today's config);
    the card of that name this program has, for a round whose rules cannot be read."""
    from .codec import CodecError, decode_rules

    rnd = s.get(RoundRow, round_id)
    try:
        card = decode_rules(json.loads(rnd.config)["rules"]).progressive if rnd else None
    except (ValueError, KeyError, TypeError, CodecError):
        card = None
    return card if card is not None and card.name == name else card_named(name)


def owed_words(hit: OwedHit) -> str:
    """How the audit names a hit owed (after its table), as the station lists it."""
    return f"round {hit.round_no} seat {hit.seat}, {hit.hand}"


def as_paid(slip: SlipDict, moves: Sequence[Move]) -> SlipDict:
    """The slip with each progressive hit as the round's hit moves paid it (the slip kept is
    the one made at the settlement, before any sign-in): what it paid, from the meter and
    from the house, and who signed in. A hit with no move stays waiting to be paid."""
    progressive = slip.get("progressive")
    paid = {m.seat: m for m in moves if m.kind == HIT}
    if progressive is None or not paid:
        return slip
    lines = []
    for line in progressive["lines"]:
        m = paid.get(line["seat"])
        if line["category"] is not None and m is not None:
            line = line.copy()
            line["paid_cents"], line["from_meter_cents"] = m.amount, -m.to_meter
            line["fixed_cents"], line["by"] = m.house_paid, m.by
        lines.append(line)
    out, shown = slip.copy(), progressive.copy()
    shown["lines"] = lines
    out["progressive"] = shown
    return out


def meters(s: Session) -> list[str]:
    return list(s.scalars(select(METERS.c.name).order_by(METERS.c.name)))


# --- the audit ---------------------------------------------------------------------------

@dataclass(slots=True)
class Sums:
    """The meter's money by where it came from, over every move."""

    seed: int = 0  # put up by the house when the meter opened
    contributions: int = 0  # the wagers' shares onto the meter
    wagers: int = 0
    hits: int = 0  # paid from the meter
    reserve_moves: int = 0  # the reserve put back onto the meter after hits
    house_seeds: int = 0  # put up by the house when the reserve fell short
    to_reserve: int = 0  # the wagers' shares into the reserve
    fixed_paid: int = 0  # fixed amounts the house paid (the meter untouched)

    @property
    def meter(self) -> int:
        return self.seed + self.contributions - self.hits + self.reserve_moves + self.house_seeds

    @property
    def reserve(self) -> int:
        return self.to_reserve - self.reserve_moves


@dataclass(slots=True)
class Audit:
    """The meter checked against its moves: exact, or the problems, the first first."""

    name: str
    reading: MeterReading | None
    moves: int = 0
    sums: Sums = field(default_factory=Sums)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    owed: list[OwedHit] = field(default_factory=list)  # hits settled and not yet paid

    @property
    def exact(self) -> bool:
        return self.reading is not None and not self.problems

    def text(self) -> str:
        if self.reading is None:
            return f"{self.name}: no such progressive meter in this ledger"
        m, t = self.reading, self.sums
        lines = [
            m.text(),
            f"  seed {money(t.seed)} + contributions {money(t.contributions)} "
            f"({t.wagers} wager(s)) - hits {money(t.hits)} + reserve moves "
            f"{money(t.reserve_moves)} + house seeds {money(t.house_seeds)} = "
            f"{money(t.meter)}",
            f"  reserve: {money(t.to_reserve)} in - {money(t.reserve_moves)} moved = "
            f"{money(t.reserve)}; fixed amounts paid by the house {money(t.fixed_paid)}",
            *(f"  note: {n}" for n in self.notes),
        ]
        # owed to players, not yet the meter's: the meter is exact without them
        lines += [f"  HIT OWED: table {h.table} {owed_words(h)} ({h.pays}): settled and not "
                  f"yet paid; a supervisor signs in at that table's station to pay it (F2, "
                  f"Pay progressive)" for h in self.owed]
        if self.exact:
            lines.append(f"  {self.moves} move(s): exact to the cent")
        else:
            lines.append(f"  NOT EXACT: {self.problems[0]}")
            lines += [f"  also: {p}" for p in self.problems[1:]]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        t = self.sums
        return {"meter": self.name, "exact": self.exact, "moves": self.moves,
                "amount_cents": None if self.reading is None else self.reading.amount,
                "reserve_cents": None if self.reading is None else self.reading.reserve,
                "seed_cents": t.seed, "contributions_cents": t.contributions,
                "wagers": t.wagers, "hits_cents": t.hits,
                "reserve_moves_cents": t.reserve_moves, "house_seeds_cents": t.house_seeds,
                "to_reserve_cents": t.to_reserve, "fixed_paid_cents": t.fixed_paid,
                "problems": self.problems, "notes": self.notes,
                "owed": [{"round_id": h.round_id, "table": h.table, "round_no": h.round_no,
                          "seat": h.seat,
                          "category": h.category, "hand": h.hand, "pays": h.pays}
                         for h in self.owed]}


def _name(m: Move, round_no: int | None) -> str:
    what = {OPEN: "the opening", CONTRIBUTION: "a contribution", HIT: "a hit"}.get(
        m.kind, m.kind)
    where = f" of round {round_no}" if round_no is not None else ""
    seat = f", seat {m.seat} {m.category}" if m.kind == HIT else ""
    return f"move {m.seq} ({what}{where}{seat})"


def _row_problems(m: Move, card: ProgressiveCard | None, seed: int) -> list[str]:
    """What is wrong with one move on its own (its sums, its kind, the card's shares)."""
    out: list[str] = []
    if m.after.amount != m.before.amount + m.to_meter + m.reserve_to_meter + m.house:
        out.append(f"its meter after, {money(m.after.amount)}, is not its meter before "
                   f"{money(m.before.amount)} and its moves "
                   f"({money(m.to_meter + m.reserve_to_meter + m.house)})")
    if m.after.reserve != m.before.reserve + m.to_reserve - m.reserve_to_meter:
        out.append(f"its reserve after, {money(m.after.reserve)}, is not its reserve before "
                   f"{money(m.before.reserve)} and its moves")
    if m.kind == CONTRIBUTION:
        if min(m.to_meter, m.to_reserve) < 0 or m.reserve_to_meter or m.house or m.house_paid:
            out.append("a contribution only adds to the meter and the reserve")
        if card is not None:
            c = shares_of(card, m.wagers)
            if (m.amount, m.to_meter, m.to_reserve) != (c.total, c.to_meter, c.to_reserve):
                out.append(f"its {m.wagers} wager(s) of {money(card.wager)} are "
                           f"{money(c.total)}, {money(c.to_meter)} to the meter and "
                           f"{money(c.to_reserve)} to the reserve by the card; the row says "
                           f"{money(m.amount)}, {money(m.to_meter)} and "
                           f"{money(m.to_reserve)}")
    elif m.kind == HIT:
        if m.to_meter > 0 or m.to_reserve or -m.to_meter > m.before.amount:
            out.append("a hit takes at most the meter as it stood, and adds nothing")
        if m.amount != -m.to_meter + m.house_paid:
            out.append(f"it paid {money(m.amount)}, but took {money(-m.to_meter)} from the "
                       f"meter and {money(m.house_paid)} from the house")
    elif m.kind == OPEN and (m.seq != 1 or m.before != Meter(0, 0) or m.to_meter
                             or m.to_reserve):
        out.append("a meter opens once, as its first move, at its seed")
    if m.after.amount < seed:
        out.append(f"it leaves the meter at {money(m.after.amount)}, below its seed "
                   f"{money(seed)}")
    return out


def _hit_problems(card: ProgressiveCard, op: list[Move]) -> list[str]:
    """One operation's hits taken again by the card from the meter they found."""
    try:
        again = hits_from(card, op[0].before, [Category(m.category) for m in op])
    except (MeterError, ValueError) as e:
        return [f"its hand does not win on the card: {e}"]
    for m, h in zip(op, again, strict=True):
        if (m.amount, -m.to_meter, m.after) != (h.paid, h.from_meter, h.after):
            return [f"{_name(m, None)} paid {money(m.amount)} and left the meter at "
                    f"{money(m.after.amount)}; the card pays {money(h.paid)} from the meter "
                    f"it found and leaves {money(h.after.amount)}"]
    return []


def audit(s: Session, name: str, card: ProgressiveCard | None = None) -> Audit:
    """Walk the meter's moves in order (meter_seq): none missing, each beginning where the
    one before ended and adding up, made by the card's shares and pays (when `card` is the
    meter's), never below the seed; the meter row what the last one left; and the meter =
    seed + contributions - hits + reserve moves + house seeds, to the cent."""
    from .models import RoundRow

    reading = meter(s, name)
    result = Audit(name, reading)
    if reading is None:
        return result
    if card is not None and card_hash(card) != reading.card_hash:
        result.notes.append(f"the card called {name} here is not the one the meter was "
                            f"opened with: its shares and pays were not checked")
        card = None
    elif card is None:
        result.notes.append("the meter's card is not known here: its shares and pays "
                            "were not checked")
    rows = s.execute(select(ProgressiveMove, RoundRow.round_no)
                     .join(RoundRow, RoundRow.id == ProgressiveMove.round_id, isouter=True)
                     .where(ProgressiveMove.meter == name)
                     .order_by(ProgressiveMove.meter_seq)).all()
    t = result.sums
    previous: Move | None = None
    ops: dict[str, list[Move]] = {}
    for move_row, round_no in rows:
        m = Move.of(move_row)
        label = _name(m, round_no)
        expected = 1 if previous is None else previous.seq + 1
        if m.seq != expected:
            result.problems.append(
                f"move {expected} is missing (deleted): {label} follows move {expected - 1}")
        elif previous is not None and m.before != previous.after:
            result.problems.append(
                f"{label} begins from a meter of {money(m.before.amount)} and a reserve of "
                f"{money(m.before.reserve)}, but move {previous.seq} left "
                f"{money(previous.after.amount)} and {money(previous.after.reserve)}")
        result.problems += [f"{label}: {p}" for p in _row_problems(m, card, reading.seed)]
        if m.kind == OPEN:
            t.seed += m.house
        elif m.kind == CONTRIBUTION:
            t.contributions += m.to_meter
            t.to_reserve += m.to_reserve
            t.wagers += m.wagers
        else:
            t.hits -= m.to_meter
            t.house_seeds += m.house
            t.fixed_paid += m.house_paid
            ops.setdefault(m.op_id, []).append(m)
        t.reserve_moves += m.reserve_to_meter
        previous = m
        result.moves += 1
    if card is not None:
        for op in ops.values():
            result.problems += _hit_problems(card, op)
    last = previous
    if last is None:
        result.problems.append("the meter has no moves: not even its opening")
    elif (last.seq, last.after) != (reading.seq, Meter(reading.amount, reading.reserve)):
        result.problems.append(
            f"the meter shows {money(reading.amount)} (reserve {money(reading.reserve)}) "
            f"after {reading.seq} move(s), but its last move, {last.seq}, left "
            f"{money(last.after.amount)} (reserve {money(last.after.reserve)})")
    result.owed = hits_owed(s, meter=name)
    if (t.meter, t.reserve) != (reading.amount, reading.reserve):
        result.problems.append(
            f"the meter shows {money(reading.amount)}, but seed + contributions - hits + "
            f"reserve moves + house seeds = {money(t.meter)} (reserve {money(reading.reserve)}"
            f" shown, {money(t.reserve)} by the moves)")
    return result
