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

import contextlib
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar, cast

from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session
from tenacity import (
    Retrying,
    retry_if_exception_type,
    stop_when_event_set,
    wait_chain,
    wait_fixed,
)

from app.core.banker import BankRotation, Eligibility
from app.core.bonus.categories import Category
from app.core.progressive import ProgressiveCard
from app.core.round import BonusApproved, Phase, Record, Round, Settled
from app.session.events import OwedHit
from app.session.ports import PortError, Supervisor
from drivers.private import open_private

from . import anchors, chain, enrollment, keys, people, progressive, reads, roles
from . import recall as recall_module
from .apply import CORRECTION, apply_op, derived_id
from .chain import LedgerSession
from .codec import (
    decode_rotation,
    decode_rules,
    encode_eligibility,
    encode_record,
    encode_rotation,
    encode_rules,
    replay,
)
from .database import WRITE, make_engine, mask, migrate, parse_url
from .errors import LedgerError, LedgerUnavailable, NotAuthorised, RoundSettled
from .journal import Journal, Op
from .models import (
    Event,
    RoundRow,
    SettlementRow,
    Shift,
    Station,
    StationClaim,
    User,
    now,
)
from .paths import data_dir as station_data_dir
from .paths import default_url
from .payloads import (
    Authorised,
    ProgressiveWagersJson,
    RecordJson,
    RecordsOp,
    RoundBeginOp,
)
from .people import Person
from .session_lines import SessionLines

if TYPE_CHECKING:
    from app.settings import TableConfig

    from .meter_feed import MeterFeed

T = TypeVar("T")
QUIET_LAG_S = 2.0  # the longest the journal waits for a quiet moment to be sent
JOURNAL_REFUSED = "journal_refused"  # the alert: an op of the journal was changed
STATION_SPACE = uuid.UUID("0c9e3b8a-5f0d-5b5e-8d61-3f7e7f1c2a10")
BACKOFF_S = (1.0, 2.0, 5.0, 10.0, 30.0)


class _Unsent(Exception):
    """The journal's send found the database away: tried again after a pause."""


IDENTITY_FILE = "station-id"  # the installer's: this machine's identity, whatever its name
LIVE_S = 15.0  # a claim seen this recently belongs to a station that is running


def station_id(table: str, station: str) -> uuid.UUID:
    """The id older stations made from their table and name (two machines with one name
    got one id, and merged: see `identity`)."""
    return uuid.uuid5(STATION_SPACE, f"{table}\x00{station}")


def identity(directory: Path, table: str, station: str) -> uuid.UUID:
    """This station's identity: a UUID made once and kept in its data directory, so two
    machines that share a name (the host name of a cloned PC) are two stations. In order:
    the installer's `station-id` file; else the one made on an earlier start for this table
    and name (`identity/<old id>`); else the old id when its journal is there (a station
    that ran before identities were made: its rounds stay its own); else a new UUID."""
    installed = directory / IDENTITY_FILE
    if installed.is_file():
        return _read_identity(installed)
    old = station_id(table, station)
    kept = directory / "identity" / str(old)
    if kept.is_file():
        return _read_identity(kept)
    made = old if (directory / "journal" / f"{old}.sqlite").exists() else uuid.uuid4()
    try:
        tmp = kept.with_suffix(".tmp")
        with open_private(tmp, "w", encoding="utf-8") as f:  # 0600, its folders 0700
            f.write(f"{made}\n")
        tmp.replace(kept)
    except OSError as e:
        raise LedgerError(f"the station cannot keep its identity in {kept} ({e.strerror}): "
                          f"check the data directory's permissions and free space") from None
    return made


def _read_identity(path: Path) -> uuid.UUID:
    try:
        return uuid.UUID(path.read_text().strip())
    except (OSError, ValueError):
        raise LedgerError(f"{path} should hold this station's identity (a UUID) and does "
                          f"not: restore it from a backup, or delete it to make the station "
                          f"a new one (its rounds so far stay under the old identity)") from None


class StationClaimed(LedgerError):
    """Another station is running under this station's identity now."""


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


def forbidden(error: BaseException) -> bool:
    """The database refused for want of a privilege (PostgreSQL's 42501): the login is a
    station's, which may only read and add rows."""
    return isinstance(error, DBAPIError) and getattr(error.orig, "sqlstate", None) == "42501"


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
    held: int = 0  # writes changed after the station kept them: held, never sent
    held_why: str | None = None  # why the first of them was held

    @property
    def banner(self) -> str | None:
        if self.held:
            return (f"Ledger: {self.held} record(s) kept on this station were changed after "
                    f"they were written ({self.held_why}): held, not sent; the ledger has "
                    f"the alert. Call a supervisor.")
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

    def to_dict(self) -> dict[str, object]:
        return {"database": self.database, "online": self.online, "pending": self.pending,
                "oldest": self.oldest, "offline_since": self.offline_since,
                "error": self.error, "refused": self.refused, "held": self.held,
                "held_why": self.held_why, "banner": self.banner}


class Recording:
    """A round being written to the ledger as it goes. Call `save()` after every change of
    `game`; it writes the records made since the last save, in order."""

    def __init__(self, store: Store, round_id: str, game: Round, saved: int) -> None:
        self.store = store
        self.round_id = round_id
        self.game = game
        self.saved = saved
        # how the round's bonus approval was authorised (`approve`), kept until it is saved
        self.approval: Authorised | None = None
        # the round's linked progressive wagers, sent with its settlement (docs/progressive.md)
        self.progressive: ProgressiveWagersJson | None = None

    def save(self, by: str | None = None) -> int:
        """Write the round's new records; returns how many. `by` is who made the change
        (the shift's dealer unless named)."""
        return self.store._save(self, by)

    def note_eligibility(self, verdict: Eligibility, by: str | None = None) -> None:
        """Record a decision on who may bank this round (the pit asked), with its reasons."""
        self.store.record_eligibility(verdict, round_id=self.round_id, by=by)

    def keep_deal(self, deal: Mapping[str, object]) -> None:
        """The deal coming in as the station holds it (every card the shoe read, at its
        place, with the shoe's number; the cards typed; the leftovers), on disk before this
        returns: a station killed mid-deal gets every card back (`deal()`) and asks the shoe
        only for what followed. Kept in the journal until the round is finished."""
        self.store._keep_deal(self, deal)

    def deal(self) -> dict[str, object] | None:
        """The deal kept for this round (`keep_deal`), or None."""
        kept = self.store.journal.meta("deal")
        if not isinstance(kept, dict) or kept.get("round_id") != self.round_id:
            return None
        return {k: v for k, v in kept.items() if k != "round_id"}

    def void(self, reason: str, by: str | Person | None = None,
             secret: str | None = None) -> None:
        """The round is abandoned unsettled (e.g. the table closes mid-round): it stays in
        the ledger as void, with why and who, and the next round begins from the same
        rotation. A supervisor's action: `by` is the Person `Store.authorise` gave, or their
        name with `secret` (a ledger with no people yet takes a name alone)."""
        self.store._void(self, reason, by, secret)

    def approve(self, by: str | Person | None = None, secret: str | None = None) -> int:
        """The round's bonus payouts that waited were approved (its `BonusApproved` record,
        made by the core and not yet saved): saved with who and their sign-in, as a void
        is. `by` is the Person `Store.authorise` gave for "bonus", or their name with
        `secret` (a ledger with no people yet takes a name alone). Returns the records
        saved."""
        return self.store._approve(self, by, secret)

    def misdeal(self, reason: str, by: str | Person | None = None,
                secret: str | None = None) -> None:
        """A supervisor ends the deal as a misdeal: the round ends as a void does (every
        wager returned, the next round from the same rotation), marked misdeal with who
        and why, in the round's row and its event (chained). `by` as for `void`."""
        self.store._void(self, reason, by, secret, misdeal=True)


class Store:
    """The ledger of one station's table, and the reads of every table in the database."""

    def __init__(self, database_url: str | None = None, *, table: str = "PG-1",
                 station: str | None = None, data_dir: str | Path | None = None,
                 migrate_now: bool = True, send_on_save: bool = True,
                 station_id: str | None = None) -> None:
        """`station_id`: the station's identity (else `identity()` finds or makes it).
        `send_on_save=False`: a save only writes the station's journal (on disk before
        it returns) and the retry thread (`start_retrying`) sends it on, so a database that
        is slow or away never holds up the caller, a dealer's window above all."""
        self.data_dir = station_data_dir(data_dir)
        self.send_on_save = send_on_save
        self.url = parse_url(database_url or default_url(self.data_dir))
        self.database = mask(self.url)
        self.table = table
        self.station = station or socket.gethostname() or "station"
        self.station_id = station_id or str(identity(self.data_dir, table, self.station))
        self.instance = str(uuid.uuid4())  # this run of the station (its live claim)
        self.boot = _boot_id()  # this machine since it started: another PC has another
        self.claim_note: str | None = None  # why the claim was not checked at start
        self.engine: Engine = make_engine(self.url)
        self.signer = keys.load_or_make(self.data_dir)  # signs every link it writes
        self._writes = chain.signing(self.engine.execution_options(**WRITE), self.signer)
        self._reads = chain.signing(self.engine, self.signer)  # its own key is known to it
        self._lock = threading.RLock()  # the journal and what it remembers
        self._sending = threading.Lock()  # one send to the database at a time
        self._journal: Journal | None = None
        self._sessions: SessionLines | None = None
        self._head: anchors.Head | None = None  # this table's chain, as last seen
        self._migrated = False
        self._failures = 0
        self._next_try = 0.0
        self._offline_since: str | None = None
        self._error: str | None = None
        self._refused: str | None = None
        self._retrying: Future[None] | None = None
        self._own_executor: ThreadPoolExecutor | None = None
        self._stop = threading.Event()
        if migrate_now:
            try:
                self._ensure_migrated()
            except Exception as e:
                if not unreachable(e):
                    raise
                self._went_offline(e)

    @classmethod
    def from_config(cls, config: TableConfig, *, database_url: str | None = None,
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
            if self._sessions is not None:
                self._sessions.close()
                self._sessions = None
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
        engine = self._writes if writes else self._reads

        def read() -> T:
            with LedgerSession(engine) as s:
                return fn(s)
        return self._reaching(read)

    def _read_plain(self, fn: Callable[[Connection], T]) -> T:
        """A read of rows that are not chained, through a connection, without a session:
        the felt's meter, about twice a second (0.28-0.32 ms of CPU a read against
        0.32-0.47 ms through a session, measured side by side on PostgreSQL)."""
        def read() -> T:
            with self._reads.connect() as c:
                return fn(c)
        return self._reaching(read)

    def _reaching(self, read: Callable[[], T]) -> T:
        """`read()`, the database's failures said in words: LedgerUnavailable while it
        cannot be reached, LedgerError when it refuses the login."""
        try:
            self._ensure_migrated()
            return read()
        except LedgerError:
            raise
        except Exception as e:
            if unreachable(e):
                raise LedgerUnavailable(f"the ledger's database ({self.database}) cannot be "
                                        f"reached: {reason(e)}") from None
            if forbidden(e):
                raise LedgerError(f"the ledger's database refused this login "
                                  f"({self.url.username}): {reason(e)}. A station's login "
                                  f"reads and adds rows only: people are changed, and the "
                                  f"schema migrated, with the owner's login") from None
            raise

    # --- who runs as this station ----------------------------------------------------

    def claim(self, live_s: float = LIVE_S) -> bool:
        """Take this station's identity for this run, at start. Refused (`StationClaimed`,
        in words) while another process holds it and was seen in the last `live_s`
        seconds: a PC cloned from a running station, say, which would merge its rounds
        into the other's. This station's own run before a restart (killed, say) is known by
        the run the journal last wrote on this machine since it booted, and is taken over at
        once (a disk copied from a running station names that run too, but on another
        machine). False: the database
        could not be reached, so nothing was checked (`claim_note` says so; play goes on
        into the journal, and the claim is taken by the next heartbeat)."""
        last = self.journal.meta("instance")
        host, pid = socket.gethostname(), os.getpid()

        def run(s: Session) -> None:
            at = now()
            row = s.get(StationClaim, uuid.UUID(self.station_id), with_for_update=True)
            restarted = row is not None and row.instance == last and row.boot == self.boot
            if row is not None and row.instance != self.instance and not restarted:
                age = (at - _aware(row.seen_at)).total_seconds()
                if age < live_s:
                    raise StationClaimed(
                        f"Another station is running as this one (identity "
                        f"{self.station_id[:8]}, table {self.table}): {row.host} (process "
                        f"{row.pid}) was last seen {max(age, 0):.0f} s ago. Two stations "
                        f"with one identity would mix their rounds. Stop the other station; "
                        f"if this PC was copied from it, give this one its own identity: "
                        f"delete {self.data_dir / IDENTITY_FILE} (or {self.data_dir}/identity)"
                        f" here and start again.")
            if row is None:
                s.add(StationClaim(station_id=uuid.UUID(self.station_id),
                                   instance=self.instance, host=host, boot=self.boot,
                                   pid=pid,
                                   name=self.station, claimed_at=at, seen_at=at))
            else:
                row.instance, row.host, row.pid, row.name = self.instance, host, pid, self.station
                row.boot = self.boot
                row.claimed_at = row.seen_at = at
            s.commit()

        for attempt in (1, 2):
            try:
                self._read(run, writes=True)
                break
            except LedgerUnavailable as e:
                self.claim_note = (f"this station's identity was not checked at start (the "
                                   f"database could not be reached: {e})")
                return False
            except IntegrityError:
                if attempt == 2:  # two started at once: the other took it first
                    raise
        self.journal.append([], {"instance": self.instance})
        self.claim_note = None
        return True

    def beat(self) -> bool:
        """This run is still the station (its claim's `seen_at`, written in place). False:
        not written (the database is away), or another run holds the identity now."""
        def run(s: Session) -> bool:
            row = s.get(StationClaim, uuid.UUID(self.station_id), with_for_update=True)
            if row is None or row.instance != self.instance:
                return False
            row.seen_at = now()
            s.commit()
            return True
        try:
            return self._read(run, writes=True)
        except LedgerError:
            return False

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
                self._journal = Journal(self.journal_path, self.signer)
            return self._journal

    @property
    def session_lines(self) -> SessionLines:
        """The dealer session's lines, kept in the journal's file (created on first use)."""
        _ = self.journal  # the file made, and its ops' tables, first
        with self._lock:
            if self._sessions is None:
                self._sessions = SessionLines(self.journal_path)
            return self._sessions

    def _writer(self) -> Journal:
        """The journal, with this station made known to the ledger (once)."""
        journal = self.journal
        with self._lock:
            if journal.meta("station") is None:
                journal.append([self._op("station", None, {
                    "id": self.station_id, "table_name": self.table, "name": self.station})],
                    {"station": self.station_id})
        return journal

    def _op(self, kind: str, round_id: str | None, payload: Mapping[str, object],
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

    def begin(self, game: Round, *, config: TableConfig | Mapping[str, object] | None = None,
              by: str | None = None) -> Recording:
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
            self.journal.append([op], {"open_round": round_id, "deal": None})
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
            payload: dict[str, object] = {
                "round_id": rec.round_id, "first_seq": rec.saved + 1,
                "actor": by or (shift.dealer if shift else None),
                "records": [self._encode(rec, record) for record in new]}
            meta: dict[str, object] = {}
            settled = next((r for r in new if isinstance(r, Settled)), None)
            if settled is not None:
                payload["slip_json"] = json.dumps(settled.slip.to_dict(),
                                                  separators=(",", ":"))
                payload["slip_text"] = settled.slip.text()
                rotation = encode_rotation(game.next_rotation())
                payload["rotation_after"] = rotation
                if rec.progressive:
                    payload["progressive"] = rec.progressive
                meta = {"open_round": None, "rotation": rotation, "deal": None}
            ops = [self._op("records", rec.round_id, payload)]
            self.journal.append(ops, meta)
            rec.saved += len(new)  # not len(game.log): the round may have moved on meanwhile
        self._deliver()
        return len(new)

    def _encode(self, rec: Recording, record: Record) -> RecordJson:
        """A record as the journal takes it; a bonus approval with how it was authorised
        (the supervisor's sign-in, as a void's event has it), refused without one where
        the ledger has people: a name alone approves nothing."""
        data = encode_record(record)
        if isinstance(record, BonusApproved):
            if rec.approval is None:
                rec.approval = _authorised(self._supervisor(None, None, "bonus approval"))
            data["authorised"] = rec.approval
        return data

    def _approve(self, rec: Recording, by: str | Person | None, secret: str | None) -> int:
        waiting = [r for r in rec.game.log[rec.saved:] if isinstance(r, BonusApproved)]
        if not waiting:
            raise LedgerError(f"round {rec.round_id[:8]} has no bonus approval to save: the "
                              f"core's approve_bonus comes first")
        person = self._supervisor(by, secret, "bonus")
        name = person.name if person is not None else by if isinstance(by, str) else None
        if name is not None and waiting[-1].supervisor != name:
            raise NotAuthorised(f"the round records {waiting[-1].supervisor} approving, not "
                                f"{name}: the supervisor who approves gives their own secret. "
                                f"Nothing was saved.")
        if person is not None:
            self._read(lambda s: people.confirm(s, person, "bonus"))
        rec.approval = _authorised(person)
        return self._save(rec, name)  # the approval's event names the supervisor

    def _keep_deal(self, rec: Recording, deal: Mapping[str, object]) -> None:
        with self._lock:
            if self.journal.meta("open_round") != rec.round_id:
                raise RoundSettled(f"round {rec.round_id[:8]} is no longer in play here: its "
                                   f"deal is not kept")
            self.journal.append([], {"deal": {**deal, "round_id": rec.round_id}})

    def _void(self, rec: Recording, reason: str, by: str | Person | None,
              secret: str | None, misdeal: bool = False) -> None:
        what = "misdeal" if misdeal else "void"
        if rec.game.phase is Phase.SETTLED:
            raise RoundSettled(f"round {rec.round_id[:8]} is settled: it cannot be "
                               f"{'called a misdeal' if misdeal else 'voided'}; record a "
                               f"correction")
        person = self._supervisor(by, secret, what)
        if person is not None:
            self._read(lambda s: people.confirm(s, person, what))
        name = person.name if person is not None else by if isinstance(by, str) else None
        self._save(rec, name)
        with self._lock:
            shift = self.shift
            self.journal.append([self._op("round_void", rec.round_id, {
                "round_id": rec.round_id, "reason": reason,
                "actor": name or (shift.dealer if shift else None),
                **({"misdeal": True} if misdeal else {}),
                "authorised": _authorised(person)})], {"open_round": None, "deal": None})
        self._deliver()

    def resume(self) -> Recording | None:
        """The round this station had in play when it stopped, rebuilt with every card and
        wager (from the journal; from the database if the journal is gone), or None."""
        with self._lock:
            round_id = self.journal.meta("open_round")
            ops = self.journal.round_ops(round_id) if round_id is not None else []
            changed = [op for op in ops if op.fault is not None or op.held is not None]
            if changed:
                # the round's record was changed after the station wrote it: it is not
                # replayed (nor sent); the alert goes to the ledger, the round stays open
                # there for a supervisor to void, and the table starts a new one
                for op in changed:
                    if op.held is None and op.fault is not None:
                        self.journal.hold(op, op.fault)
                self.journal.append([], {"open_round": None})
                round_id = None
            if round_id is not None:
                # none of them changed since the station signed them (above): as it wrote them
                begin = cast(RoundBeginOp, next(op.payload for op in ops
                                                if op.kind == "round_begin"))
                records = [r for op in ops if op.kind == "records"
                           for r in cast(RecordsOp, op.payload)["records"]]
                game = replay(decode_rules(begin["config"]["rules"]),
                              decode_rotation(begin["rotation"]), records)
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
        meta: dict[str, object] = {"open_round": round_id}
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

    def note(self, kind: str, payload: Mapping[str, object], *, by: str | None,
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

    # --- people ------------------------------------------------------------------------

    def authorise(self, name: str, secret: str, action: str) -> Person:
        """The person, if `secret` is theirs and their role may do `action` (void, correct,
        misdeal, override, close, manage users, read); else NotAuthorised, saying why. Every
        try is recorded (never the secret); wrong tries slow the name's next try (people.py)."""
        # the slow hash is checked first, so that no writing transaction (on SQLite, the
        # whole file) waits on it
        checked = self._read(lambda s: people.precheck(s, name, secret, self.station))

        def run(s: Session) -> Person:
            with s.begin():
                got = people.authorise(s, name, secret, action, self.station, checked)
            if isinstance(got, NotAuthorised):
                raise got
            return got

        person = self._read(run, writes=True)
        self._remember_people()
        return person

    def _remember_people(self) -> None:
        with self._lock:
            if not self.journal.meta("people"):
                self.journal.append([], {"people": True})

    def has_people(self) -> bool:
        """Whether the ledger has named people (then a name alone authorises nothing). The
        station remembers having seen them, for when the database is away."""
        try:
            found = self._read(people.anyone)
        except LedgerUnavailable:
            return bool(self.journal.meta("people"))
        if found:
            self._remember_people()
        return found

    def progressive_meter(self, name: str) -> progressive.MeterReading | None:
        """The meter called `name` as it stands (None: not opened yet); LedgerUnavailable
        while the database cannot be reached. A read: it never waits for a writer's lock."""
        return self._read_plain(lambda c: progressive.meter(c, name))

    def progressive_feed(self, name: str) -> MeterFeed | None:
        """The meter called `name` as the database says each change (PostgreSQL's
        LISTEN/NOTIFY), or None on SQLite, which says nothing: read it instead.
        LedgerUnavailable while the database cannot be reached."""
        if self.engine.dialect.name != "postgresql":
            return None
        self._read(lambda s: None)  # migrated, so the meter's trigger is there to say it
        from .meter_feed import MeterFeed  # psycopg: loaded already on PostgreSQL only

        return MeterFeed(self.engine, name)

    def progressive_hits_owed(self, table: str | None = None, meter: str | None = None
                              ) -> list[OwedHit]:
        """The progressive hits owed and unpaid (`progressive.hits_owed`), oldest first;
        LedgerUnavailable while the database cannot be reached."""
        return self._read(lambda s: progressive.hits_owed(s, table, meter))

    def pay_owed_progressive(self, hits: Sequence[OwedHit], by: str | Person | None,
                             secret: str | None = None) -> tuple[progressive.Move, ...]:
        """One round's hits owed, as `progressive_hits_owed` found them, paid exactly as at
        its settlement: by the card stored with the round, under the same op (a hit paid
        meanwhile is given back, never paid twice)."""
        rounds = {h.round_id for h in hits}
        if len(rounds) != 1:
            raise LedgerError("one round's progressive hits are paid at a time: nothing was "
                              "paid")
        round_id, name = hits[0].round_id, hits[0].card
        card = self._read(lambda s: progressive.round_card(s, uuid.UUID(round_id), name))
        return self.take_progressive_hits(card, round_id,
                                          [(h.seat, Category(h.category)) for h in hits],
                                          progressive.hit_op(round_id), by, secret)

    def take_progressive_hits(self, card: ProgressiveCard, round_id: str,
                              hits: Sequence[tuple[int, Category]], op_id: str,
                              by: str | Person | None, secret: str | None = None
                              ) -> tuple[progressive.Move, ...]:
        """A round's progressive hits, paid from the meter as it stands now, after a
        supervisor's sign-in (`by`: the Person `authorise(..., "progressive")` gave, or a
        name with `secret`). The round's records are sent first (a hit names its round);
        `op_id`, made once by the caller, makes a retry give back what was paid."""
        person = self._supervisor(by, secret, "progressive")
        name = person.name if person is not None else by if isinstance(by, str) else None
        if not name:
            raise NotAuthorised("a progressive hit is paid after a supervisor's sign-in: "
                                "give their name and secret. Nothing was paid.")
        if self.drain().pending:
            raise LedgerError("the round's records are still waiting to be sent to the "
                              "ledger: the hit is paid from the meter once they are there "
                              "(check the database). Nothing was paid.")

        def run(s: Session) -> tuple[progressive.Move, ...]:
            with s.begin():
                if person is not None:
                    people.confirm(s, person, "progressive")
                return progressive.take_hits(
                    s, card, uuid.UUID(round_id), uuid.UUID(self.station_id), hits, op_id,
                    name, None if person is None else person.sign_in)
        return self._read(run, writes=True)

    def _supervisor(self, by: str | Person | None, secret: str | None,
                    action: str) -> Person | None:
        """Who does a supervisor's action: the Person, or None for a ledger that has no
        people yet (the station's own PIN check, in the window, is all there is)."""
        if isinstance(by, Person):
            return by
        if secret is not None:
            return self.authorise(by or "", secret, action)
        if self.has_people():
            raise NotAuthorised(f"this ledger has named supervisors: a {action} needs the "
                                f"supervisor's name and their own secret. Nothing was done.")
        return None

    def add_person(self, name: str, role: str, secret: str, *, by: Person | None,
                   first: bool = False) -> people.Account:
        """A new person (by a shift manager; `first`: the first shift manager, only while
        the ledger has nobody)."""
        return self._people_change(lambda s: people.add(s, name, role, secret, by, first),
                                   by)

    def disable_person(self, name: str, *, by: Person) -> people.Account:
        return self._people_change(lambda s: people.disable(s, name, by), by)

    def enable_person(self, name: str, *, by: Person) -> people.Account:
        return self._people_change(lambda s: people.enable(s, name, by), by)

    def reset_person(self, name: str, secret: str, *, by: Person) -> people.Account:
        """A new secret for the person; any wait of theirs is lifted."""
        return self._people_change(lambda s: people.reset(s, name, secret, by), by)

    def _people_change(self, change: Callable[[Session], User],
                       by: Person | None) -> people.Account:
        def run(s: Session) -> people.Account:
            with s.begin():
                if by is not None:
                    people.confirm(s, by, "manage users")
                row = change(s)
                name = row.name
            return next(a for a in people.accounts(s) if a.name == name)

        account = self._read(run, writes=True)
        self._remember_people()
        return account

    def accounts(self) -> list[people.Account]:
        """Everyone in the ledger as they stand now."""
        return self._read(people.accounts)

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
            self._send_alerts(quiet=True)
            seen = self._head
            sent = False
            while batch := journal.pending():
                for op in batch:
                    if op.fault is not None:  # never applied, never dropped: held
                        journal.hold(op, op.fault)
                        self._send_alerts(quiet=True)
                        continue
                    self._send(op)
                    journal.delivered(op)
                    sent = True
            self._send_alerts()
            if (sent and self._head is seen) or self._head is None:
                self._note_head()  # what was sent linked nothing of this table's chain
        except Exception as e:
            if unreachable(e):
                self._went_offline(e)
            elif isinstance(e, LedgerError | IntegrityError):
                self._refused = reason(e)
                with contextlib.suppress(Exception):  # the refusal is what the status says
                    self._send_alerts(quiet=True)  # an alert never waits behind a refusal
            else:
                raise
        else:
            self._failures, self._next_try = 0, 0.0
            self._offline_since = self._error = self._refused = None
        return self.status()

    def _send_alerts(self, quiet: bool = False) -> None:
        """Record in the ledger each op held back since the last time, as an alert event
        (what it was, its number, why; never what it held), outside the queue so that
        nothing waiting in it holds the alert up. `quiet`: a refusal (the station itself
        not yet in the ledger, say) leaves it for after the queue."""
        for held in self.journal.unalerted():
            try:
                self._send_alert(held)
            except (IntegrityError, LedgerError):
                if quiet:
                    return
                raise

    def _send_alert(self, held: Op) -> None:
        at = now().isoformat()
        self._send(Op(f"{held.op_id}/held", "note", None, {
            "id": str(derived_id(held.op_id, "held")), "station_id": self.station_id,
            "shift_id": None, "round_id": None, "kind": JOURNAL_REFUSED, "actor": None,
            "payload": {"op": held.seq, "op_id": held.op_id, "op_kind": held.kind,
                        "round_id": held.round_id, "why": held.held},
            "at": at}, at))
        self.journal.alerted(held)

    def _send(self, op: Op) -> None:
        for attempt in (1, 2):
            try:
                with LedgerSession(self._writes) as s:
                    with s.begin():
                        apply_op(s, op)
                    linked = s.info.get(chain.LINKED, {})
                if self.table in linked:  # the head this send left: no read to learn it
                    seq, entry = linked[self.table]
                    self._head = anchors.Head(self.table, seq, entry)
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
            held = self.journal.held() if exists else []
            online = self._offline_since is None
            return LedgerStatus(self.database, online, pending, oldest, self._offline_since,
                                self._error, self._refused, len(held),
                                held[0].held if held else None)

    def start_retrying(self, every: float = 2.0, executor: Executor | None = None) -> None:
        """Send what the journal holds in the background, looking every `every` seconds, on
        `executor` (the station's pool, app/station/jobs.py; else a thread of the store's
        own). It is sent at a quiet moment: not while the station is still writing (a deal
        under way: the sending is Python that holds the interpreter's lock the window needs
        for the next card), and at the latest `QUIET_LAG_S` after it began to wait. A send
        that finds the database away is tried again after a pause that grows (`BACKOFF_S`).
        The journal on disk has it all the while."""
        if self._retrying is not None:
            return
        self._stop.clear()
        if executor is None:
            executor = self._own_executor = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="ledger-retry")
        self._retrying = executor.submit(self._send_until_stopped, every)

    def _send_until_stopped(self, every: float) -> None:
        def pause(seconds: float) -> None:  # cut short when the store stops
            self._stop.wait(seconds)

        send = Retrying(retry=retry_if_exception_type(_Unsent),
                        wait=wait_chain(*(wait_fixed(s) for s in BACKOFF_S)),
                        stop=stop_when_event_set(self._stop), sleep=pause, reraise=True)
        beaten = 0.0
        seen, waiting = 0, 0.0  # ops seen at the last look; since when they wait
        while not self._stop.wait(every):
            now = time.monotonic()
            if now - beaten >= LIVE_S / 3:
                beaten = now
                self._keep_claim()
            try:
                pending = self.journal.counts()[0]
                if not pending:
                    seen = 0
                    continue
                waiting = waiting if seen else now
                writing, seen = pending > seen, pending
                if not writing or now - waiting >= QUIET_LAG_S:
                    send(self._send_or_raise)
                    seen = 0
            except Exception:  # noqa: BLE001 - the status says what went wrong
                continue

    def _send_or_raise(self) -> None:
        """One send of the journal; `_Unsent` when the database was away (tried again)."""
        if not self._stop.is_set() and not self.drain().online:
            raise _Unsent(self._error)

    def _keep_claim(self) -> None:
        """The heartbeat of this run's claim; a claim not checked at start (the database
        was away) is checked now, and a refusal is what the status says from then on."""
        try:
            if self.claim_note is not None:
                self.claim()
            elif self.journal.meta("instance") == self.instance:
                self.beat()
        except StationClaimed as e:
            self._refused = str(e)
        except Exception:  # noqa: BLE001 - the next beat tries again
            pass

    def stop_retrying(self) -> None:
        if self._retrying is not None:
            self._stop.set()
            with contextlib.suppress(TimeoutError):  # a send still waiting on the network
                self._retrying.result(timeout=10)
            self._retrying = None
        if self._own_executor is not None:
            self._own_executor.shutdown(wait=False)
            self._own_executor = None

    # --- reads -------------------------------------------------------------------------

    def history(self, *, table: str | None = None, shift: str | None = None,
                seat: int | None = None, day: date | None = None,
                since: datetime | None = None, until: datetime | None = None,
                status: str | None = None, limit: int | None = None
                ) -> list[reads.RoundSummary]:
        """Rounds, newest first, with the filters given."""
        f = reads.Filters(table, shift, seat, day, since, until, status)
        return self._read(lambda s: reads.history(s, f, limit))

    def recall(self, ref: str, table: str | None = None) -> recall_module.Recall:
        """The round `ref` shown whole and its settlement recomputed by the core
        (app/ledger/recall.py: a `Recall`, `match` or its differences)."""
        return self._read(lambda s: recall_module.recall(s, ref, table))

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

    def correct(self, ref: str, position: int, *, net_cents: int, reason: str,
                by: str | Person, secret: str | None = None, outcome: str | None = None,
                win_cents: int | None = None, commission_cents: int | None = None
                ) -> reads.Correction:
        """Correct a settled round's result at one position: a row that reverses the
        current one and a row with the corrected amounts. The round itself never changes.
        A supervisor's action: `by` is the Person `authorise` gave, or their name with
        `secret` (a ledger with no people yet takes a name alone)."""
        reason = reason.strip()
        name = by.name if isinstance(by, Person) else by.strip()
        if not reason or not name:
            raise LedgerError("a correction says why and who made it")
        person = self._supervisor(name if not isinstance(by, Person) else by, secret,
                                  "correct")
        by = name

        def write(s: Session) -> reads.Correction:
            with s.begin():
                if person is not None:
                    people.confirm(s, person, "correct")
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
                                "was_net_cents": cur.net_cents, "reason": reason,
                                "authorised": _authorised(person)})))
                return reads.correction_of(rnd, back, new)

        try:
            return self._read(write, writes=True)
        except IntegrityError:
            raise LedgerError("someone corrected that position at the same moment: read the "
                              "round again and decide") from None

    # --- the keys that sign the ledger (app/ledger/enrollment.py) ---------------------------

    def enroll(self, by: Person, *, floor: bool = False) -> enrollment.KeyState:
        """Enroll this station's signing key (the floor's, `floor`) for its table."""
        def run(s: Session) -> enrollment.KeyState:
            with s.begin():
                row = enrollment.enroll(
                    s, self.signer.public_hex, kind="floor" if floor else "station",
                    label=self.station, station_id=None if floor else self.station_id,
                    table_name=self.table, by=by)
                kid = row.key_id
            found = enrollment.state(s, kid)
            assert found is not None
            return found

        return self._read(run, writes=True)

    def revoke(self, key_id: str, reason: str, by: Person) -> enrollment.KeyState:
        def run(s: Session) -> enrollment.KeyState:
            with s.begin():
                kid = enrollment.revoke(s, key_id, reason, by).key_id
            found = enrollment.state(s, kid)
            assert found is not None
            return found

        return self._read(run, writes=True)

    def enrolled(self) -> bool:
        """Whether a supervisor has enrolled this station's key (and not revoked it)."""
        found = self._read(lambda s: enrollment.state(s, self.signer.key_id))
        return found is not None and found.enrolled

    def login_refusal(self) -> str | None:
        """Why this login may not write this station's table, in words (None: it may)."""
        return self._read(lambda s: roles.refusal(s, self.table))

    def keys(self) -> list[enrollment.KeyState]:
        return self._read(enrollment.states)

    def verify(self, table: str | None = None) -> list[chain.ChainReport]:
        """Walk the hash chain of `table` (every chain when None): each report says how
        many rows were checked and the first that does not match (docs/ledger.md)."""
        def walk(s: Session) -> list[chain.ChainReport]:
            conn = chain.snapshot(s)
            names = [table] if table else chain.chains(conn)
            return [chain.verify(conn, name) for name in names]

        return self._read(walk)

    def check_anchors(self, given: list[anchors.Head]) -> list[anchors.Mismatch]:
        """The chains held against head codes kept outside the database (anchors.py)."""
        return self._read(lambda s: anchors.check(chain.snapshot(s), given))

    def head_code(self) -> str | None:
        """The head of this table's chain as the station last saw it, as printed on its
        slips: kept after each send, so asking costs nothing."""
        return self._head.code if self._head is not None else None

    def _note_head(self) -> None:
        try:
            self._head = self._read(lambda s: anchors.head(s.connection(), self.table))
        except LedgerError:
            pass  # the next send tries again; the slip prints the head last seen

    def station_row(self) -> Station | None:
        return self._read(lambda s: s.get(Station, uuid.UUID(self.station_id)))


def _boot_id() -> str:
    """This machine's boot id (Linux); a copy of the station's disk on another PC, or this
    one after a reboot, has another. Elsewhere: empty (a restart waits out the claim)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:64]
    except OSError:
        return ""


def _aware(at: datetime) -> datetime:
    """SQLite gives times back without their zone; the ledger writes them in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _authorised(person: Person | None) -> Authorised:
    """How a supervisor's action was authorised, as its event records it (never a secret)."""
    if person is None:
        return {"by": "the station's PIN (the ledger has no named people yet)"}
    return {"by": "the person's own secret", "role": person.role,
            "sign_in": str(person.sign_in)}


def _config_dump(config: TableConfig | Mapping[str, object] | None) -> object:
    """The table config a round keeps beside its rules, without where the ledger is (and
    its password) or any secret such as the supervisor's PIN (app.settings decides which)."""
    if config is None:
        return None
    if hasattr(config, "snapshot"):
        return config.snapshot()
    from app.settings import NOT_IN_SNAPSHOT  # pydantic-settings: 0.1 s of a process's start

    data = dict(config)
    for section in NOT_IN_SNAPSHOT:
        data.pop(section, None)
    return data


class StoreSupervisors:
    """The dealer session's supervisor port over the ledger's people (`Store.authorise`):
    the session's `Supervisor` carries the Person, which the round's void or misdeal then
    shows the store. A refusal is the people's own words."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def authorise(self, name: str, secret: str, action: str) -> Supervisor:
        try:
            person = self.store.authorise(name, secret, action)
        except LedgerError as e:  # NotAuthorised is one: wrong secret, locked, role
            raise PortError(str(e)) from None
        return Supervisor(person.name, person)
