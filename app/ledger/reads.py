"""Reading the ledger back: round history with filters, a past round's slip exactly as it
was printed, shift totals, and CSV exports. Money is integer cents throughout.

Totals, in the words of the pit:
  drop        every wager players put against the bank (main and dragon wagers): what the
              table handled. The station sees wagers, not the cash in the drop box.
  win         what the house won: its bank (or its share of a co-bank), the dealer's hand
              against a player banker, and all commission; the negative of what the players
              and player bankers netted. Corrections count.
  commission  all commission collected, a player banker's included. Corrections count.
"""

from __future__ import annotations

import csv
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import IO, Any, TypeVar

from sqlalchemy import Select, case, func, or_, select
from sqlalchemy.orm import Session

from app.core.round_rules import RoundRules
from app.core.settlement import SlipDict, money, slip_text

from . import progressive, slips
from .apply import MISDEAL_PREFIX, ROUND_VOIDED
from .chain import untrusted
from .codec import CodecError, decode_rules
from .columns import uuid_hex
from .errors import LedgerError
from .escape import csv_row, shown
from .models import (
    BankDecision,
    BonusSettlementRow,
    Event,
    HandRow,
    RoundRow,
    SettlementRow,
    Shift,
    Station,
    WagerRow,
)

SelectT = TypeVar("SelectT", bound="Select[*tuple[Any, ...]]")
MIN_REF = 4
PLAYER_ROLES = ("player", "dragon")
SEAT_ROLES = ("player", "dragon", "bank")
EXPORTS = ("rounds", "settlements", "bonus_settlements", "hands", "wagers", "bank_decisions",
           "events")


@dataclass(frozen=True, slots=True)
class Filters:
    table: str | None = None
    shift: str | None = None  # a shift's id or the start of it
    seat: int | None = None
    day: date | None = None  # a calendar day in this machine's time zone
    since: datetime | None = None
    until: datetime | None = None
    status: str | None = None

    def describe(self) -> dict[str, object]:
        return {"table": self.table, "shift": self.shift, "seat": self.seat,
                "date": self.day.isoformat() if self.day else None,
                "since": self.since.isoformat() if self.since else None,
                "until": self.until.isoformat() if self.until else None}


def day_range(day: date) -> tuple[datetime, datetime]:
    """The day from local midnight to the next, as aware datetimes."""
    start = datetime.combine(day, time()).astimezone()
    end = datetime.combine(day + timedelta(days=1), time()).astimezone()
    return start, end


ID_DIGITS = 32  # a UUID written as hex digits, without its dashes
# The ledger keeps round numbers as a 32-bit integer (PostgreSQL's `integer`).
ROUND_NO_MAX = 2**31 - 1


def _as_typed(ref: str) -> str:
    """The reference as a message shows it: a paste of 10,000 characters is not echoed."""
    return repr(ref) if len(ref) <= 40 else f"{ref[:20]!r}... ({len(ref):,} characters)"


RowT = TypeVar("RowT", RoundRow, Shift)


def _by_ref(s: Session, model: type[RowT], ref: str, what: str) -> RowT:
    text = ref.strip().lower().replace("-", "")
    if not MIN_REF <= len(text) <= ID_DIGITS or any(c not in "0123456789abcdef" for c in text):
        raise LedgerError(f"{_as_typed(ref)} is not a {what}: give its id or at least its "
                          f"first {MIN_REF} characters, as the history lists them")
    if len(text) == ID_DIGITS:
        row = s.get(model, uuid.UUID(text))
        if row is None:
            raise LedgerError(f"there is no {what} {ref} in the ledger")
        return row
    rows = list(s.scalars(select(model).where(uuid_hex(model.id).like(f"{text}%")).limit(6)))
    if not rows:
        raise LedgerError(f"there is no {what} whose id starts {ref} in the ledger")
    if len(rows) > 1:
        raise LedgerError(f"{ref} could be {', '.join(str(r.id)[:12] for r in rows)}: give "
                          f"more of the id")
    return rows[0]


def find_round(s: Session, ref: str, table: str | None = None) -> RoundRow:
    """A round by the number its slip shows (digits; `table` picks among tables) or by
    its id (or the id's first characters, as the history lists them)."""
    number = ref.strip().lstrip("#")
    if number.isascii() and number.isdigit():
        # Read as a number only within the ledger's range: past it, int() of thousands of
        # digits raises, and a number the database's integer cannot hold is refused by
        # the driver. Digits past the range may still start an id.
        if len(number) > len(str(ROUND_NO_MAX)) or int(number) > ROUND_NO_MAX:
            if len(number) > ID_DIGITS:
                raise LedgerError(f"{_as_typed(ref)} is not a round number (1 to "
                                  f"{ROUND_NO_MAX:,}) nor a round's id ({ID_DIGITS} hex "
                                  f"digits at most): give the number on the slip, or the id "
                                  f"as the history lists it")
            return _round_by_id(s, ref)
        stmt = select(RoundRow).where(RoundRow.round_no == int(number))
        if table:
            stmt = stmt.where(RoundRow.table_name == table)
        rows = list(s.scalars(stmt.order_by(RoundRow.started_at).limit(6)))
        if len(rows) == 1:
            return rows[0]
        if len(rows) > 1:
            raise LedgerError(f"round {number} is in the ledger more than once: "
                              + ", ".join(f"table {r.table_name} (id {str(r.id)[:8]})"
                                          for r in rows)
                              + ": give --table, or the round's id")
        if len(number) < MIN_REF:
            raise LedgerError(f"there is no round {number}"
                              + (f" of table {table}" if table else "") + " in the ledger")
    row: RoundRow = _by_ref(s, RoundRow, ref, "round")
    return row


def _round_by_id(s: Session, ref: str) -> RoundRow:
    try:
        row: RoundRow = _by_ref(s, RoundRow, ref, "round")
    except LedgerError:
        raise LedgerError(f"{_as_typed(ref)} is not a round number (1 to {ROUND_NO_MAX:,}) "
                          f"nor a round's id in the ledger: give the number on the slip, or "
                          f"the id as the history lists it") from None
    return row


def find_shift(s: Session, ref: str) -> Shift:
    row: Shift = _by_ref(s, Shift, ref, "shift")
    return row


def _rounds_where(s: Session, stmt: SelectT, f: Filters) -> SelectT:
    if f.table:
        stmt = stmt.where(RoundRow.table_name == f.table)
    if f.shift:
        stmt = stmt.where(RoundRow.shift_id == find_shift(s, f.shift).id)
    if f.seat is not None:
        stmt = stmt.where(or_(RoundRow.banker_seat == f.seat, RoundRow.id.in_(
            select(WagerRow.round_id).where(WagerRow.seat == f.seat))))
    if f.day is not None:
        start, end = day_range(f.day)
        stmt = stmt.where(RoundRow.started_at >= start, RoundRow.started_at < end)
    if f.since is not None:
        stmt = stmt.where(RoundRow.started_at >= f.since)
    if f.until is not None:
        stmt = stmt.where(RoundRow.started_at < f.until)
    if f.status:
        stmt = stmt.where(RoundRow.status == f.status)
    return stmt


# --- history -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RoundSummary:
    id: str
    table: str
    station: str
    shift: str
    dealer: str
    round_no: int
    status: str
    phase: str
    started_at: datetime
    settled_at: datetime | None
    action: str | None
    banker: str
    seats: tuple[int, ...]
    misdeals: int
    wagers_cents: int | None
    players_net_cents: int | None
    commission_cents: int | None
    house_net_cents: int | None

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "table": self.table, "station": self.station,
                "shift": self.shift, "dealer": self.dealer, "round": self.round_no,
                "status": self.status, "phase": self.phase,
                "started_at": self.started_at.isoformat(),
                "settled_at": self.settled_at.isoformat() if self.settled_at else None,
                "action": self.action, "banker": self.banker, "seats": list(self.seats),
                "misdeals": self.misdeals, "wagers_cents": self.wagers_cents,
                "players_net_cents": self.players_net_cents,
                "commission_cents": self.commission_cents,
                "house_net_cents": self.house_net_cents}

    def text(self) -> str:
        when = self.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
        money_part = ""
        if self.status == "settled":
            money_part = (f"  wagers {money(self.wagers_cents or 0)}  house "
                          f"{money(self.house_net_cents or 0, sign=True)}  commission "
                          f"{money(self.commission_cents or 0)}")
        seats = ",".join(str(s) for s in self.seats) or "-"
        # The names are shown, not obeyed: a dealer or table named with ESC sequences or a
        # line end cannot rewrite the screen or add a line (escape.py).
        return shown(f"{self.id[:8]}  {when}  {self.table:<8} round {self.round_no:<4} "
                     f"{self.status:<8} dealer {self.dealer:<10} bank {self.banker:<7} "
                     f"seats {seats:<12} {self.action or ''}{money_part}")


def _action_text(r: RoundRow) -> str | None:
    if r.action_number is None:
        return None
    how = f"dice {r.action_dice} = {r.action_number}" if r.action_dice else \
        f"RNG {r.action_number}"
    where = "dealer" if r.action_position == 0 else f"seat {r.action_position}"
    return f"{how} -> {where}"


def history(s: Session, f: Filters, limit: int | None = None) -> list[RoundSummary]:
    stmt = (select(RoundRow, Station.name, Shift.dealer)
            .join(Station, Station.id == RoundRow.station_id)
            .join(Shift, Shift.id == RoundRow.shift_id)
            .order_by(RoundRow.started_at.desc(), RoundRow.round_no.desc()))
    stmt = _rounds_where(s, stmt, f)
    if limit:
        stmt = stmt.limit(limit)
    rows = s.execute(stmt).all()
    seats: dict[uuid.UUID, set[int]] = {}
    ids = [r.id for r, _, _ in rows]
    for chunk in range(0, len(ids), 500):
        for rid, seat in s.execute(select(WagerRow.round_id, WagerRow.seat).where(
                WagerRow.round_id.in_(ids[chunk:chunk + 500]), WagerRow.seat.is_not(None))):
            if seat is not None:
                seats.setdefault(rid, set()).add(seat)
    out = []
    for r, station, dealer in rows:
        banker = "house" if r.banker_seat is None else f"seat {r.banker_seat}"
        taken = seats.get(r.id, set()) | ({r.banker_seat} if r.banker_seat else set())
        out.append(RoundSummary(
            str(r.id), r.table_name, station, str(r.shift_id), dealer, r.round_no,
            "misdeal" if r.status == "void" and (r.void_reason or "").startswith(
                MISDEAL_PREFIX) else r.status,
            r.phase, r.started_at, r.settled_at, _action_text(r), banker, tuple(sorted(taken)),
            r.misdeals, r.wagers_cents, r.players_net_cents, r.commission_cents,
            r.house_net_cents))
    return out


# --- slips and corrections -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Correction:
    round_id: str
    position: int
    seat: int | None
    was_net_cents: int
    net_cents: int
    reason: str
    by: str
    at: datetime
    reversal_id: str
    correction_id: str

    def to_dict(self) -> dict[str, object]:
        return {"round": self.round_id, "position": self.position, "seat": self.seat,
                "was_net_cents": self.was_net_cents, "net_cents": self.net_cents,
                "reason": self.reason, "by": self.by, "at": self.at.isoformat(),
                "reversal": self.reversal_id, "correction": self.correction_id}

    def text(self) -> str:
        where = "dealer" if self.position == 0 else f"position {self.position}"
        return shown(f"correction {self.at.astimezone():%Y-%m-%d %H:%M} {where}: net "
                     f"{money(self.was_net_cents, sign=True)} -> "
                     f"{money(self.net_cents, sign=True)} by {self.by}: {self.reason}")


def correction_of(rnd: RoundRow, back: SettlementRow, new: SettlementRow) -> Correction:
    return Correction(str(rnd.id), new.position, new.seat, -back.net_cents, new.net_cents,
                      new.reason or "", new.by or "", new.at, str(back.id), str(new.id))


@dataclass(frozen=True, slots=True)
class StoredSlip:
    round_id: str
    table: str
    round_no: int
    settled_at: datetime
    text: str  # exactly as printed at the settlement
    json: str  # exactly as `paigow settle --json` prints it
    corrections: tuple[Correction, ...] = field(default=())
    config: str = ""  # the round's stored {"rules": paigow.rules/1, "config": ...}

    def data(self) -> SlipDict:
        """The slip as `paigow settle --json` printed it (the ledger wrote it so)."""
        out: SlipDict = json.loads(self.json)
        return out

    def rules(self) -> RoundRules:
        """The rules the round was played by, as stored with it (never today's config):
        what the pit's advice on its hands uses. CodecError says why they cannot be read."""
        try:
            stored = json.loads(self.config)["rules"]
        except (ValueError, KeyError, TypeError):
            raise CodecError(f"round {self.round_id[:8]} has no rules stored with it: "
                             f"migrate the ledger (paigow ledger migrate)") from None
        return decode_rules(stored)


def corrections(s: Session, rnd: RoundRow) -> tuple[Correction, ...]:
    rows = list(s.scalars(select(SettlementRow).where(SettlementRow.round_id == rnd.id,
                                                      SettlementRow.entry != "original")
                          .order_by(SettlementRow.position, SettlementRow.entry_no)))
    out = []
    for back, new in zip(rows[::2], rows[1::2], strict=False):
        out.append(correction_of(rnd, back, new))
    return tuple(out)


def slip(s: Session, ref: str, table: str | None = None) -> StoredSlip:
    rnd = find_round(s, ref, table)
    if rnd.status != "settled" or rnd.slip_json is None:
        raise LedgerError(f"round {str(rnd.id)[:8]} is {rnd.status}: it has no slip"
                          + (" yet" if rnd.status == "open" else ""))
    assert rnd.settled_at is not None
    try:
        kept = slips.whole(s, rnd, json.loads(rnd.slip_json))
        # a progressive hit as its moves paid it: the slip kept was made before the sign-in
        data = progressive.as_paid(kept, progressive.round_moves(s, rnd.id))
        # the words as printed: kept by a round stored before 0013, else rendered
        words = (rnd.slip_text if rnd.slip_text is not None and data is kept
                 else slip_text(data))
    except (RecursionError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise LedgerError(f"round {str(rnd.id)[:8]}: the slip stored with it cannot be read "
                          f"({type(e).__name__}: {e}): a station never stores that, so the "
                          f"ledger was changed outside the stations; run `paigow ledger "
                          f"verify` and call the auditor") from None
    # shown as `paigow settle --json` prints it
    shown = json.dumps(data, indent=2)
    return StoredSlip(str(rnd.id), rnd.table_name, rnd.round_no, rnd.settled_at,
                      words, shown, corrections(s, rnd), rnd.config)


# --- totals --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SeatTotals:
    seat: int
    hands: int  # main and dragon hands settled
    banked: int  # rounds banked
    wagered_cents: int
    commission_cents: int
    net_cents: int  # after commission, corrections included

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "hands": self.hands, "banked": self.banked,
                "wagered_cents": self.wagered_cents, "commission_cents": self.commission_cents,
                "net_cents": self.net_cents}


@dataclass(frozen=True, slots=True)
class Totals:
    filters: dict[str, object]
    rounds: int
    drop_cents: int
    win_cents: int
    commission_cents: int
    players_net_cents: int
    banker_net_cents: int
    corrections: int
    seats: tuple[SeatTotals, ...]
    left_out: int = 0  # settlement rows that are no record (chain.untrusted): not counted

    def to_dict(self) -> dict[str, object]:
        return {"filters": self.filters, "rounds": self.rounds, "drop_cents": self.drop_cents,
                "win_cents": self.win_cents, "commission_cents": self.commission_cents,
                "players_net_cents": self.players_net_cents,
                "banker_net_cents": self.banker_net_cents, "corrections": self.corrections,
                "left_out": self.left_out, "seats": [seat.to_dict() for seat in self.seats]}

    def text(self) -> str:
        scope = ", ".join(f"{k} {v}" for k, v in self.filters.items() if v is not None)
        out = [f"Totals ({scope or 'every table'}): {self.rounds} settled round(s)"
               + (f", {self.corrections} correction(s)" if self.corrections else ""),
               f"  drop {money(self.drop_cents)}   win {money(self.win_cents, sign=True)}   "
               f"commission {money(self.commission_cents)}",
               "  seat  hands  banked  wagered      commission  net"]
        if self.left_out:
            out.insert(1, f"  {self.left_out} settlement row(s) left out: they are no record "
                          f"(not signed by an enrolled station); paigow ledger verify names "
                          f"them")
        for t in self.seats:
            out.append(f"  {t.seat:<5} {t.hands:<6} {t.banked:<7} {money(t.wagered_cents):<12} "
                       f"{money(t.commission_cents):<11} {money(t.net_cents, sign=True)}")
        return "\n".join(shown(line) for line in out)


def totals(s: Session, f: Filters) -> Totals:
    settled = _rounds_where(s, select(RoundRow.id), Filters(
        f.table, f.shift, None, f.day, f.since, f.until, "settled")).subquery()
    found = s.execute(
        select(SettlementRow.id, SettlementRow.seat, SettlementRow.role, SettlementRow.entry,
               SettlementRow.wager_cents, SettlementRow.commission_cents,
               SettlementRow.net_cents)
        .where(SettlementRow.round_id.in_(select(settled.c.id)))).all()
    forged = untrusted(s.connection(), "settlements", [str(r[0]) for r in found])
    rows = [r for r in found if str(r[0]) not in forged]
    n_rounds = s.scalar(select(func.count()).select_from(settled)) or 0
    drop = players = bankers = commission = n_corrections = 0
    seats: dict[int, list[int]] = {}
    for _, seat, role, entry, wager, comm, net in rows:
        if role not in SEAT_ROLES or seat is None:
            continue  # the dealer's hand against a player banker is the house's
        original = entry == "original"
        n_corrections += entry == "correction"
        commission += comm
        if role == "bank":
            bankers += net
        else:
            players += net
            drop += wager if original else 0
        t = seats.setdefault(seat, [0, 0, 0, 0, 0])
        if original:
            t[0] += role != "bank"
            t[1] += role == "bank"
            t[2] += wager if role != "bank" else 0
        t[3] += comm
        t[4] += net
    return Totals(f.describe(), n_rounds, drop, -(players + bankers), commission, players,
                  bankers, n_corrections,
                  tuple(SeatTotals(seat, *t) for seat, t in sorted(seats.items())),
                  len(forged))


# --- shifts --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ShiftSummary:
    id: str
    table: str
    station: str
    dealer: str
    opened_at: datetime
    closed_at: datetime | None
    rounds: int

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "table": self.table, "station": self.station,
                "dealer": self.dealer, "opened_at": self.opened_at.isoformat(),
                "closed_at": self.closed_at.isoformat() if self.closed_at else None,
                "rounds": self.rounds}

    def text(self) -> str:
        closed = (f"{self.closed_at.astimezone():%Y-%m-%d %H:%M}" if self.closed_at
                  else "open")
        return shown(f"{self.id[:8]}  {self.table:<8} {self.dealer:<12} "
                     f"{self.opened_at.astimezone():%Y-%m-%d %H:%M} - {closed:<16} "
                     f"{self.rounds} round(s)  station {self.station}")


def shifts(s: Session, table: str | None, limit: int | None) -> list[ShiftSummary]:
    counted = (select(RoundRow.shift_id, func.count().label("n"))
               .where(RoundRow.status == "settled").group_by(RoundRow.shift_id).subquery())
    stmt = (select(Shift, Station.table_name, Station.name, counted.c.n)
            .join(Station, Station.id == Shift.station_id)
            .outerjoin(counted, counted.c.shift_id == Shift.id)
            .order_by(Shift.opened_at.desc()))
    if table:
        stmt = stmt.where(Station.table_name == table)
    if limit:
        stmt = stmt.limit(limit)
    return [ShiftSummary(str(sh.id), t, st, sh.dealer, sh.opened_at, sh.closed_at, n or 0)
            for sh, t, st, n in s.execute(stmt)]


# --- CSV -----------------------------------------------------------------------------------

ROUND_COLUMNS = ("id", "table_name", "round_no", "status", "started_at", "settled_at",
                 "shift_id", "action_source", "action_number", "action_dice",
                 "action_drawn_by", "counted_from", "action_position", "direction",
                 "banker_position", "banker_seat", "bank_chips_cents", "co_bank",
                 "dealer_wager_cents", "house_way", "deal_mode", "deck", "leftovers",
                 "leftovers_counted", "misdeals", "wagers_cents", "players_net_cents",
                 "commission_cents", "banker_net_cents", "house_net_cents", "void_reason")
CHILD_COLUMNS: dict[str, tuple[type[SettlementRow | BonusSettlementRow | HandRow | WagerRow],
                               tuple[str, ...]]] = {
    "settlements": (SettlementRow, ("id", "round_id", "position", "seat", "role", "entry",
                                    "entry_no", "reverses_id", "outcome", "wager_cents",
                                    "win_cents", "commission_cents", "net_cents", "reason",
                                    "by", "at")),
    "hands": (HandRow, ("id", "round_id", "position", "role", "seat", "cards", "low", "high",
                        "set_by", "rule_id", "rule_says", "foul", "penalty", "at")),
    "wagers": (WagerRow, ("id", "round_id", "position", "seat", "kind", "amount_cents", "at")),
    # the bonus and envy lines in the order paid (migration 0014; none for a round before)
    "bonus_settlements": (BonusSettlementRow, (
        "id", "round_id", "line_no", "kind", "seat", "position", "from_position", "category",
        "wager_cents", "paid_cents", "supervisor", "note", "at")),
}


def _write(out: IO[str], header: Sequence[str], rows: Sequence[Sequence[object]]) -> int:
    """The rows as CSV, each cell as `csv_cell` writes it: amounts stay numbers, and no text
    a spreadsheet would run as a formula (docs/ledger.md, "Exports")."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow(csv_row(row))
    return len(rows)


def _reasons(stored: str) -> str:
    """A bank decision's reasons (a JSON list of sentences) as one cell; stored text that
    is not such a list (written outside the stations) is exported as it is stored."""
    try:
        reasons = json.loads(stored)
    except (ValueError, RecursionError):
        return stored
    if isinstance(reasons, list) and all(isinstance(r, str) for r in reasons):
        return "; ".join(reasons)
    return stored


def export_csv(s: Session, out: IO[str], what: str, f: Filters) -> int:
    if what not in EXPORTS:
        raise LedgerError(f"there is no export called {what!r}: the exports are "
                          + ", ".join(EXPORTS))
    chosen = _rounds_where(s, select(RoundRow.id), f).subquery()
    if what == "rounds":
        stmt = (select(*(getattr(RoundRow, c) for c in ROUND_COLUMNS), Station.name,
                       Shift.dealer)
                .join(Station, Station.id == RoundRow.station_id)
                .join(Shift, Shift.id == RoundRow.shift_id)
                .where(RoundRow.id.in_(select(chosen.c.id)))
                .order_by(RoundRow.started_at, RoundRow.round_no))
        return _write(out, (*ROUND_COLUMNS, "station", "dealer"),
                      [tuple(r) for r in s.execute(stmt)])
    if what in CHILD_COLUMNS:
        model, columns = CHILD_COLUMNS[what]
        order = [RoundRow.started_at, BonusSettlementRow.line_no
                 if model is BonusSettlementRow else model.position]
        if model is SettlementRow:
            order.append(SettlementRow.entry_no)
        stmt = (select(RoundRow.table_name, RoundRow.round_no,
                       *(getattr(model, c) for c in columns))
                .join(RoundRow, RoundRow.id == model.round_id)
                .where(model.round_id.in_(select(chosen.c.id))).order_by(*order))
        if f.seat is not None:
            stmt = stmt.where(model.seat == f.seat)
        return _write(out, ("table_name", "round_no", *columns),
                      [tuple(r) for r in s.execute(stmt)])
    any_filter = any(v is not None for v in (f.table, f.shift, f.seat, f.day, f.since,
                                             f.until))
    if what == "bank_decisions":
        columns = ("id", "round_id", "seat", "eligible", "reasons", "chips_cents",
                   "cover_cents", "decision", "actor", "at")
        stmt = (select(Station.table_name, *(getattr(BankDecision, c) for c in columns))
                .join(Station, Station.id == BankDecision.station_id)
                .order_by(BankDecision.at))
        if any_filter:
            stmt = stmt.where(BankDecision.round_id.in_(select(chosen.c.id)))
        rows = [(*r[:5], _reasons(r[5]), *r[6:]) for r in s.execute(stmt)]
        return _write(out, ("table_name", *columns), rows)
    columns = ("id", "round_id", "seq", "kind", "actor", "at", "payload")
    # A round's records and its void name their shift through the round (since migration
    # 0015); a correction or a note names its own, or none.
    own = or_(Event.seq.is_not(None), Event.kind == ROUND_VOIDED)
    shift = func.coalesce(Event.shift_id, case((own, RoundRow.shift_id)))
    stmt = (select(Station.table_name, shift, *(getattr(Event, c) for c in columns))
            .join(Station, Station.id == Event.station_id)
            .outerjoin(RoundRow, RoundRow.id == Event.round_id)
            .order_by(Event.at, Event.seq))
    if any_filter:
        stmt = stmt.where(Event.round_id.in_(select(chosen.c.id)))
    return _write(out, ("table_name", "shift_id", *columns), [tuple(r) for r in s.execute(stmt)])
