"""The store: what the station and the pit call to write and read the ledger.

Writing (one station, one table):

    store = Store(config.ledger.database_url or None, table="PG-1")
    store.open_shift("Kim")
    rec = store.resume() or store.begin(Round(rules, store.rotation()), config=config)
    rec.game.place_wager(1, 2500); rec.save()        # after every change of the round
    rec.game.set_action(action); rec.save()          # and so on, to the settlement:
    rec.game.settle(); rec.save()                    # the slip, the settlement rows
    store.status().banner                            # None, or what the window shows

Every write goes to the station's journal first (on disk before `save()` returns), then to the
database; when the database cannot be reached the journal keeps it and `drain()` (called by
each save, by `start_retrying()`, or by hand) sends it when it can. A killed station calls
`resume()` and gets the round back with every card and wager.

Reading (any station, the pit, the `paigow ledger` command): `history`, `slip`, `totals`,
`shifts`, `export_csv`; `correct` writes a correction (a reversal and a new row).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any, TypeVar

from sqlalchemy import Engine, select
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session

from app.core.banker import BankRotation, Eligibility
from app.core.round import Phase, Round, Settled

from . import reads
from .apply import CORRECTION, apply_op, derived_id
from .codec import (
    decode_rotation,
    decode_rules,
    encode_eligibility,
    encode_record,
    encode_rotation,
    encode_rules,
    replay,
)
from .database import WRITE, default_url, make_engine, mask, migrate, parse_url
from .database import data_dir as station_data_dir
from .errors import LedgerError, LedgerUnavailable, RoundSettled
from .journal import Journal, Op
from .models import Event, RoundRow, SettlementRow, Shift, Station, now

T = TypeVar("T")
STATION_SPACE = uuid.UUID("0c9e3b8a-5f0d-5b5e-8d61-3f7e7f1c2a10")
BACKOFF_S = (1.0, 2.0, 5.0, 10.0, 30.0)


def station_id(table: str, station: str) -> uuid.UUID:
    """A station's id, made on the station from its table and its name."""
    return uuid.uuid5(STATION_SPACE, f"{table}\x00{station}")


def unreachable(error: BaseException) -> bool:
    """The database could not be reached or answered with a transient failure (try again),
    as against a refusal of what was written."""
    if isinstance(error, IntegrityError):
        return False
    if isinstance(error, OperationalError | InterfaceError | PoolTimeout):
        return True
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, OSError | TimeoutError)


def reason(error: BaseException) -> str:
    """What went wrong, in one line (the driver's message, not a traceback)."""
    if isinstance(error, DBAPIError):
        text = str(error.orig).strip().splitlines()
        return text[0] if text else type(error.orig).__name__
    return str(error) or type(error).__name__


@dataclass(frozen=True, slots=True)
class ShiftInfo:
    id: str
    dealer: str
    opened_at: str


@dataclass(frozen=True, slots=True)
class LedgerStatus:
    """What the window shows about the ledger. `banner` is None while all is well."""

    database: str  # the URL, any password hidden
    online: bool
    pending: int  # writes kept on this station, not yet in the database
    oldest: str | None  # when the oldest of them was made
    offline_since: str | None
    error: str | None  # why the database could not be reached
    refused: str | None  # why the database refused a write (a supervisor must look)

    @property
    def banner(self) -> str | None:
        if self.refused:
            return (f"Ledger: the database refused a record ({self.refused}). Nothing is lost: "
                    f"{self.pending} kept on this station. Call a supervisor.")
        if not self.online:
            since = f" since {self.offline_since[11:19]} UTC" if self.offline_since else ""
            return (f"Ledger offline{since}: {self.pending} record(s) kept safely on this "
                    f"station, retrying. Play can go on. ({self.error})")
        if self.pending:
            return f"Ledger: sending {self.pending} record(s) kept on this station."
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"database": self.database, "online": self.online, "pending": self.pending,
                "oldest": self.oldest, "offline_since": self.offline_since,
                "error": self.error, "refused": self.refused, "banner": self.banner}


class Recording:
    """A round being written to the ledger as it goes. Call `save()` after every change of
    `game`; it writes the records made since the last save, in order."""

    def __init__(self, store: Store, round_id: str, game: Round, saved: int) -> None:
        self.store = store
        self.round_id = round_id
        self.game = game
        self.saved = saved

    def save(self, by: str | None = None) -> int:
        """Write the round's new records; returns how many. `by` is who made the change
        (the shift's dealer unless named)."""
        return self.store._save(self, by)

    def note_eligibility(self, verdict: Eligibility, by: str | None = None) -> None:
        """Record a decision on who may bank this round (the pit asked), with its reasons."""
        self.store.record_eligibility(verdict, round_id=self.round_id, by=by)

    def void(self, reason: str, by: str | None = None) -> None:
        """The round is abandoned unsettled (e.g. the table closes mid-round): it stays in
        the ledger as void, with why, and the next round begins from the same rotation."""
        self.store._void(self, reason, by)


class Store:
    """The ledger of one station's table, and the reads of every table in the database."""

    def __init__(self, database_url: str | None = None, *, table: str = "PG-1",
                 station: str | None = None, data_dir: str | Path | None = None,
                 migrate_now: bool = True, send_on_save: bool = True) -> None:
        """`send_on_save=False`: a save only writes the station's journal (on disk before
        it returns) and the retry thread (`start_retrying`) sends it on, so a database that
        is slow or away never holds up the caller, a dealer's window above all."""
        self.data_dir = station_data_dir(data_dir)
        self.send_on_save = send_on_save
        self.url = parse_url(database_url or default_url(self.data_dir))
        self.database = mask(self.url)
        self.table = table
        self.station = station or socket.gethostname() or "station"
        self.station_id = str(station_id(table, self.station))
        self.engine: Engine = make_engine(self.url)
        self._writes = self.engine.execution_options(**WRITE)
        self._lock = threading.RLock()  # the journal and what it remembers
        self._sending = threading.Lock()  # one send to the database at a time
        self._journal: Journal | None = None
        self._migrated = False
        self._failures = 0
        self._next_try = 0.0
        self._offline_since: str | None = None
        self._error: str | None = None
        self._refused: str | None = None
        self._retrying: threading.Thread | None = None
        self._stop = threading.Event()
        if migrate_now:
            try:
                self._ensure_migrated()
            except Exception as e:
                if not unreachable(e):
                    raise
                self._went_offline(e)

    @classmethod
    def from_config(cls, config: Any, *, database_url: str | None = None,
                    station: str | None = None, data_dir: str | Path | None = None
                    ) -> Store:
        """The store for a table config (app.settings.TableConfig): its ledger.database_url
        (or the default file), its table's name and the station's name (or the host's)."""
        url = database_url or config.ledger.database_url or None
        station = station or config.station.name or None
        return cls(url, table=config.table.name, station=station, data_dir=data_dir)

    def close(self) -> None:
        self.stop_retrying()
        with self._lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the database ------------------------------------------------------------------

    def _ensure_migrated(self) -> None:
        if not self._migrated:
            migrate(self.engine)
            self._migrated = True

    def _read(self, fn: Callable[[Session], T], *, writes: bool = False) -> T:
        try:
            self._ensure_migrated()
            with Session(self._writes if writes else self.engine) as s:
                return fn(s)
        except LedgerError:
            raise
        except Exception as e:
            if unreachable(e):
                raise LedgerUnavailable(f"the ledger's database ({self.database}) cannot be "
                                        f"reached: {reason(e)}") from None
            raise

    def revision(self) -> str | None:
        from .database import current_revision
        return current_revision(self.engine)

    # --- the journal -------------------------------------------------------------------

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal" / f"{self.station_id}.sqlite"

    @property
    def journal(self) -> Journal:
        """The station's journal (created on first use)."""
        with self._lock:
            if self._journal is None:
                self._journal = Journal(self.journal_path)
            return self._journal

    def _writer(self) -> Journal:
        """The journal, with this station made known to the ledger (once)."""
        journal = self.journal
        with self._lock:
            if journal.meta("station") is None:
                journal.append([self._op("station", None, {
                    "id": self.station_id, "table_name": self.table, "name": self.station})],
                    {"station": self.station_id})
        return journal

    def _op(self, kind: str, round_id: str | None, payload: dict[str, Any],
            at: datetime | None = None) -> Op:
        when = (at or now()).isoformat()
        return Op(str(uuid.uuid4()), kind, round_id, {**payload, "at": when}, when)

    # --- shifts ------------------------------------------------------------------------

    @property
    def shift(self) -> ShiftInfo | None:
        data = self.journal.meta("shift")
        return None if data is None else ShiftInfo(**data)

    def open_shift(self, dealer: str) -> ShiftInfo:
        """A dealer's shift begins (closing the one before, if any)."""
        dealer = dealer.strip()
        if not dealer:
            raise LedgerError("name the dealer who opens the shift")
        with self._lock:
            ops = self._close_ops()
            info = ShiftInfo(str(uuid.uuid4()), dealer, now().isoformat())
            ops.append(self._op("shift_open", None, {"id": info.id, "dealer": dealer,
                                                     "station_id": self.station_id}))
            self._writer().append(ops, {"shift": {"id": info.id, "dealer": dealer,
                                                "opened_at": info.opened_at}})
        self._deliver()
        return info

    def close_shift(self, by: str | None = None) -> None:
        with self._lock:
            ops = self._close_ops(by)
            if ops:
                self.journal.append(ops, {"shift": None})
        self._deliver()

    def _close_ops(self, by: str | None = None) -> list[Op]:
        current = self.shift
        if current is None:
            return []
        return [self._op("shift_close", None, {"id": current.id, "station_id": self.station_id,
                                               "actor": by or current.dealer})]

    # --- rounds ------------------------------------------------------------------------

    def rotation(self) -> BankRotation:
        """What the table remembers for its next round: from this station's last settled
        round (the journal, else the database), or a fresh table."""
        data = self.journal.meta("rotation")
        if data is not None:
            return decode_rotation(data)
        try:
            last = self._read(lambda s: s.scalar(
                select(RoundRow.rotation_after)
                .where(RoundRow.station_id == uuid.UUID(self.station_id),
                       RoundRow.status == "settled")
                .order_by(RoundRow.settled_at.desc()).limit(1)))
        except LedgerUnavailable:
            last = None
        return decode_rotation(json.loads(last)) if last else BankRotation()

    def begin(self, game: Round, *, config: Any = None, by: str | None = None) -> Recording:
        """Start recording a round (and write what it has done so far). `config` is the
        table config it was built from (kept as the round's config snapshot, less the
        ledger's own section)."""
        if game.table.name != self.table:
            raise LedgerError(f"this station records table {self.table}, not "
                              f"{game.table.name}")
        shift = self.shift
        if shift is None:
            raise LedgerError("no shift is open: open one with the dealer's name first")
        with self._lock:
            open_round = self.journal.meta("open_round")
            if open_round is not None:
                raise LedgerError(f"round {open_round[:8]} is still in play: resume it and "
                                  f"settle or void it first")
            self._writer()
            round_id = str(uuid.uuid4())
            snapshot = {"rules": encode_rules(game.rules), "config": _config_dump(config)}
            op = self._op("round_begin", round_id, {
                "id": round_id, "station_id": self.station_id, "shift_id": shift.id,
                "table_name": self.table, "round_no": game.rotation.round_no,
                "config": snapshot, "rotation": encode_rotation(game.rotation),
                "actor": by or shift.dealer})
            self.journal.append([op], {"open_round": round_id})
        rec = Recording(self, round_id, game, 0)
        if game.log:
            self._save(rec, by)
        else:
            self._deliver()
        return rec

    def _save(self, rec: Recording, by: str | None) -> int:
        game = rec.game
        with self._lock:
            new = game.log[rec.saved:]
            if not new:
                return 0
            if self.journal.meta("open_round") != rec.round_id:
                raise RoundSettled(f"round {rec.round_id[:8]} is no longer in play here (settled "
                                   f"or void): it cannot change")
            shift = self.shift
            payload: dict[str, Any] = {
                "round_id": rec.round_id, "first_seq": rec.saved + 1,
                "actor": by or (shift.dealer if shift else None),
                "records": [encode_record(record) for record in new]}
            meta: dict[str, Any] = {}
            settled = next((r for r in new if isinstance(r, Settled)), None)
            if settled is not None:
                payload["slip_json"] = json.dumps(settled.slip.to_dict(), indent=2)
                payload["slip_text"] = settled.slip.text()
                rotation = encode_rotation(game.next_rotation())
                payload["rotation_after"] = rotation
                meta = {"open_round": None, "rotation": rotation}
            ops = [self._op("records", rec.round_id, payload)]
            self.journal.append(ops, meta)
            rec.saved += len(new)  # not len(game.log): the round may have moved on meanwhile
        self._deliver()
        return len(new)

    def _void(self, rec: Recording, reason: str, by: str | None) -> None:
        if rec.game.phase is Phase.SETTLED:
            raise RoundSettled(f"round {rec.round_id[:8]} is settled: it cannot be voided; "
                               f"record a correction")
        self._save(rec, by)
        with self._lock:
            shift = self.shift
            self.journal.append([self._op("round_void", rec.round_id, {
                "round_id": rec.round_id, "reason": reason,
                "actor": by or (shift.dealer if shift else None)})], {"open_round": None})
        self._deliver()

    def resume(self) -> Recording | None:
        """The round this station had in play when it stopped, rebuilt with every card and
        wager (from the journal; from the database if the journal is gone), or None."""
        with self._lock:
            round_id = self.journal.meta("open_round")
            if round_id is not None:
                ops = self.journal.round_ops(round_id)
                begin = next(op for op in ops if op.kind == "round_begin")
                records = [r for op in ops if op.kind == "records"
                           for r in op.payload["records"]]
                game = replay(decode_rules(begin.payload["config"]["rules"]),
                              decode_rotation(begin.payload["rotation"]), records)
                rec = Recording(self, round_id, game, len(game.log))
            finished_unsent = self.journal.has_round_ops()
        self._deliver()  # what the station had not sent when it stopped
        if round_id is not None:
            return rec
        if finished_unsent:  # rounds finished here, still to be sent: none is in play
            return None
        return self._resume_from_database()

    def _resume_from_database(self) -> Recording | None:
        def find(s: Session) -> tuple[RoundRow, list[str], Shift | None] | None:
            rnd = s.scalar(select(RoundRow).where(
                RoundRow.station_id == uuid.UUID(self.station_id), RoundRow.status == "open")
                .order_by(RoundRow.started_at.desc()).limit(1))
            if rnd is None:
                return None
            payloads = list(s.scalars(select(Event.payload).where(
                Event.round_id == rnd.id, Event.seq > 0).order_by(Event.seq)))
            return rnd, payloads, s.get(Shift, rnd.shift_id)

        try:
            found = self._read(find)
        except LedgerUnavailable:
            return None
        if found is None:
            return None
        rnd, payloads, shift = found
        records = [json.loads(p) for p in payloads]
        game = replay(decode_rules(json.loads(rnd.config)["rules"]),
                      decode_rotation(json.loads(rnd.rotation)), records)
        round_id = str(rnd.id)
        meta: dict[str, Any] = {"open_round": round_id}
        if shift is not None and shift.closed_at is None and self.shift is None:
            meta["shift"] = {"id": str(shift.id), "dealer": shift.dealer,
                             "opened_at": shift.opened_at.isoformat()}
        begin = self._op("round_begin", round_id, {
            "id": round_id, "station_id": self.station_id, "shift_id": str(rnd.shift_id),
            "table_name": rnd.table_name, "round_no": rnd.round_no,
            "config": json.loads(rnd.config), "rotation": json.loads(rnd.rotation)},
            at=rnd.started_at)
        kept = [begin]
        if records:
            kept.append(self._op("records", round_id, {
                "round_id": round_id, "first_seq": 1, "actor": None, "records": records}))
        with self._lock:
            self._writer().append(kept, meta)
            # they are in the database already: sending them again changes nothing
        self._deliver()
        return Recording(self, round_id, game, len(game.log))

    def record_eligibility(self, verdict: Eligibility, *, round_id: str | None = None,
                           by: str | None = None) -> None:
        """Record a decision on who may bank, with its reasons."""
        shift = self.shift
        with self._lock:
            self._writer().append([self._op("bank_decision", round_id, {
                "id": str(uuid.uuid4()), "station_id": self.station_id,
                "shift_id": shift.id if shift else None, "round_id": round_id,
                "verdict": encode_eligibility(verdict),
                "actor": by or (shift.dealer if shift else None)})])
        self._deliver()

    def note(self, kind: str, payload: dict[str, Any], *, by: str | None,
             round_id: str | None = None) -> None:
        """Log something done at the station that is not a change of a round, for the
        auditors: a supervisor's PIN refused, say. `kind` is at most 24 characters."""
        if not kind or len(kind) > 24:
            raise LedgerError(f"an event's kind is 1 to 24 characters, not {kind!r}")
        shift = self.shift
        with self._lock:
            self._writer().append([self._op("note", round_id, {
                "id": str(uuid.uuid4()), "station_id": self.station_id,
                "shift_id": shift.id if shift else None, "round_id": round_id,
                "kind": kind, "actor": by, "payload": payload})])
        self._deliver()

    # --- delivery ----------------------------------------------------------------------

    def _deliver(self) -> None:
        """Send now unless the database failed a moment ago (then the retry sends it) or a
        send is under way (it sends this too), or the retry thread does the sending."""
        if not self.send_on_save:
            return
        if time.monotonic() >= self._next_try and self._sending.acquire(blocking=False):
            try:
                self._drain()
            finally:
                self._sending.release()

    def drain(self) -> LedgerStatus:
        """Send everything the journal holds to the database, in order; on a failure keep
        it and say so in the status."""
        with self._sending:
            return self._drain()

    def _drain(self) -> LedgerStatus:
        journal = self.journal
        try:
            self._ensure_migrated()
            while batch := journal.pending():
                for op in batch:
                    self._send(op)
                    journal.delivered(op)
        except Exception as e:
            if unreachable(e):
                self._went_offline(e)
            elif isinstance(e, LedgerError | IntegrityError):
                self._refused = reason(e)
            else:
                raise
        else:
            self._failures, self._next_try = 0, 0.0
            self._offline_since = self._error = self._refused = None
        return self.status()

    def _send(self, op: Op) -> None:
        for attempt in (1, 2):
            try:
                with Session(self._writes) as s, s.begin():
                    apply_op(s, op)
                return
            except IntegrityError:
                if attempt == 2:  # not a race with another writer: refused
                    raise

    def _went_offline(self, error: BaseException) -> None:
        self._failures += 1
        delay = BACKOFF_S[min(self._failures, len(BACKOFF_S)) - 1]
        self._next_try = time.monotonic() + delay
        self._error = reason(error)
        if self._offline_since is None:
            self._offline_since = now().isoformat()

    def status(self) -> LedgerStatus:
        with self._lock:
            exists = self._journal is not None or self.journal_path.exists()
            pending, oldest = self.journal.counts() if exists else (0, None)
            online = self._offline_since is None
            return LedgerStatus(self.database, online, pending, oldest, self._offline_since,
                                self._error, self._refused)

    def start_retrying(self, every: float = 2.0) -> None:
        """Send what the journal holds every `every` seconds in the background (a window can
        instead call `drain()` from its own timer)."""
        if self._retrying is not None:
            return
        self._stop.clear()

        def loop() -> None:
            while not self._stop.wait(every):
                try:
                    if self.journal.counts()[0] and time.monotonic() >= self._next_try:
                        self.drain()
                except Exception:  # noqa: BLE001 - the status says what went wrong
                    continue

        self._retrying = threading.Thread(target=loop, name="ledger-retry", daemon=True)
        self._retrying.start()

    def stop_retrying(self) -> None:
        if self._retrying is not None:
            self._stop.set()
            self._retrying.join(timeout=10)
            self._retrying = None

    # --- reads -------------------------------------------------------------------------

    def history(self, *, table: str | None = None, shift: str | None = None,
                seat: int | None = None, day: date | None = None,
                since: datetime | None = None, until: datetime | None = None,
                status: str | None = None, limit: int | None = None
                ) -> list[reads.RoundSummary]:
        """Rounds, newest first, with the filters given."""
        f = reads.Filters(table, shift, seat, day, since, until, status)
        return self._read(lambda s: reads.history(s, f, limit))

    def slip(self, ref: str, table: str | None = None) -> reads.StoredSlip:
        """A past round's slip exactly as printed (text and JSON), and any corrections: by
        the round number the slip shows (of `table`, if given) or by the round's id."""
        return self._read(lambda s: reads.slip(s, ref, table))

    def totals(self, *, table: str | None = None, shift: str | None = None,
               day: date | None = None, since: datetime | None = None,
               until: datetime | None = None) -> reads.Totals:
        """Drop, win, commission and every seat's money over the settled rounds chosen."""
        f = reads.Filters(table, shift, None, day, since, until, "settled")
        return self._read(lambda s: reads.totals(s, f))

    def shifts(self, *, table: str | None = None, limit: int | None = None
               ) -> list[reads.ShiftSummary]:
        return self._read(lambda s: reads.shifts(s, table, limit))

    def export_csv(self, out: IO[str], what: str = "settlements", *,
                   table: str | None = None, shift: str | None = None,
                   seat: int | None = None, day: date | None = None,
                   since: datetime | None = None, until: datetime | None = None) -> int:
        """Write `what` (rounds, settlements, hands, wagers, bank_decisions, events) as CSV;
        returns the number of rows."""
        f = reads.Filters(table, shift, seat, day, since, until, None)
        return self._read(lambda s: reads.export_csv(s, out, what, f))

    def correct(self, ref: str, position: int, *, net_cents: int, reason: str, by: str,
                outcome: str | None = None, win_cents: int | None = None,
                commission_cents: int | None = None) -> reads.Correction:
        """Correct a settled round's result at one position: a row that reverses the
        current one and a row with the corrected amounts. The round itself never changes."""
        reason, by = reason.strip(), by.strip()
        if not reason or not by:
            raise LedgerError("a correction says why and who made it")

        def write(s: Session) -> reads.Correction:
            with s.begin():
                rnd = reads.find_round(s, ref)
                if rnd.status != "settled":
                    raise LedgerError(f"round {str(rnd.id)[:8]} is {rnd.status}: only a "
                                      f"settled round is corrected")
                rows = list(s.scalars(select(SettlementRow).where(
                    SettlementRow.round_id == rnd.id, SettlementRow.position == position)
                    .order_by(SettlementRow.entry_no)))
                reversed_ids = {r.reverses_id for r in rows if r.reverses_id}
                current = [r for r in rows if r.entry != "reversal"
                           and r.id not in reversed_ids]
                if not current:
                    raise LedgerError(f"round {str(rnd.id)[:8]} has no settlement at "
                                      f"position {position}")
                cur = current[-1]
                at = now()
                n = rows[-1].entry_no
                back = SettlementRow(
                    id=derived_id(cur.id, "reversal"), round_id=rnd.id, position=position,
                    seat=cur.seat, role=cur.role, entry="reversal", entry_no=n + 1,
                    reverses_id=cur.id, outcome=cur.outcome, wager_cents=-cur.wager_cents,
                    win_cents=-cur.win_cents, commission_cents=-cur.commission_cents,
                    net_cents=-cur.net_cents, reason=reason, by=by, at=at)
                new = SettlementRow(
                    id=uuid.uuid4(), round_id=rnd.id, position=position, seat=cur.seat,
                    role=cur.role, entry="correction", entry_no=n + 2, reverses_id=None,
                    outcome=outcome or cur.outcome, wager_cents=cur.wager_cents,
                    win_cents=cur.win_cents if win_cents is None else win_cents,
                    commission_cents=(cur.commission_cents if commission_cents is None
                                      else commission_cents),
                    net_cents=net_cents, reason=reason, by=by, at=at)
                s.add_all([back, new])
                s.flush()
                s.add(Event(id=uuid.uuid4(), station_id=rnd.station_id, shift_id=None,
                            round_id=rnd.id, seq=None, kind=CORRECTION, actor=by, at=at,
                            payload=json.dumps({
                                "position": position, "reverses": str(cur.id),
                                "correction": str(new.id), "net_cents": net_cents,
                                "was_net_cents": cur.net_cents, "reason": reason})))
                return reads.correction_of(rnd, back, new)

        try:
            return self._read(write, writes=True)
        except IntegrityError:
            raise LedgerError("someone corrected that position at the same moment: read the "
                              "round again and decide") from None

    def station_row(self) -> Station | None:
        return self._read(lambda s: s.get(Station, uuid.UUID(self.station_id)))


def _config_dump(config: Any) -> Any:
    if config is None:
        return None
    data = config.model_dump(mode="json") if hasattr(config, "model_dump") else dict(config)
    data.pop("ledger", None)  # where the ledger is (and any password) is not the table's rule
    return data
