"""This station's ledger (app/ledger, docs/ledger.md): its store, its shift, the round
taken back at start, its status; and the session's ledger port over it (`StationLedger`).

Every save is on disk in the station's journal before it returns. A station with a
window sends the journal on to the database from the station's pool (`Store.start_retrying`,
started by `Station`), so the window never waits for the network and play goes on while
the database is away; a headless station's store may send on each save instead.

Nothing here imports SQLAlchemy: the ledger's names load when the ledger opens, off the
window's thread (the window paints first).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

from app.core.bonus.categories import Category
from app.core.round import Phase, Round
from app.ledger import LedgerError
from app.session import HitsOwed, OwedHit, PaidHit, PortError, ProgressivePaid, Supervisor

from .jobs import Jobs, Lane

if TYPE_CHECKING:
    from app.core.banker import Eligibility
    from app.ledger import LedgerStatus, Recording, Store
    from app.ledger.meter_feed import MeterFeed
    from app.ledger.people import Person
    from app.ledger.progressive import MeterReading
    from app.session.deal import DealState
    from app.settings import TableConfig

# The parts of the table config that are not the table's rules: kept out of each round's
# config snapshot in the ledger (where the ledger is, who deals, and the PIN above all).
NOT_RULES = {"ledger", "station", "supervisor"}
SEND_EVERY_S = 0.2  # how often the journal is sent on while it holds anything


def config_snapshot(config: TableConfig | None) -> dict[str, object] | None:
    """The table config as a round's snapshot in the ledger: the rules, not the secrets."""
    if config is None:
        return None
    return config.model_dump(mode="json", exclude=NOT_RULES)


class Ledger:
    """This station's ledger: its shift, the round being recorded, its status."""

    def __init__(self, store: Store, config: TableConfig | None = None, *,
                 send_every: float | None = SEND_EVERY_S) -> None:
        """`send_every`: how often the station's pool sends the journal on once the
        station starts (`start`); None: the store sends on each save itself."""
        self.store = store
        self.closed = False
        self.started = False
        self.snapshot = config_snapshot(config)
        self.send_every = send_every
        shift = store.shift
        self._dealer: str | None = shift.dealer if shift else None
        self.since: str | None = shift.opened_at if shift else None

    @classmethod
    def open(cls, config: TableConfig, *, database_url: str | None = None,
             data_dir: str | Path | None = None, station: str | None = None) -> Ledger:
        """The ledger of a table config: `database_url` (or the config's, or the SQLite file
        in the station's data directory). Raises `LedgerError` for a URL that cannot be."""
        url = database_url or config.ledger.database_url or None
        station = station or config.station.name or None
        # heavy: SQLAlchemy and Alembic, loaded off the window's thread (app/ui/main.py)
        from app.ledger import Store

        # The window never waits on the database: saves go to the journal, the pool sends
        # them on.
        store = Store(url, table=config.table.name, station=station, data_dir=data_dir,
                      migrate_now=False, send_on_save=False)
        try:
            store.claim()  # a second station running under this one's identity is refused
        except LedgerError:
            store.close()
            raise
        return cls(store, config)

    def start(self, jobs: Jobs) -> None:
        """Send the journal on from the station's pool, and ask the database once now, so
        the status says at once whether it is there. Once, and never once closed."""
        if self.started or self.closed:
            return
        self.started = True
        if self.send_every is not None:
            self.store.start_retrying(self.send_every, executor=jobs.executor)
        jobs.submit(self._probe)

    def _probe(self) -> None:
        try:
            self.store.drain()
        except Exception:  # noqa: BLE001 - the status says what went wrong
            pass

    # --- the shift ---------------------------------------------------------------------

    @property
    def dealer(self) -> str | None:
        """The dealer whose shift is open, or None."""
        return self._dealer

    def expect_shift(self, dealer: str) -> None:
        """The dealer named is at the table from now (the journal write follows)."""
        self._dealer, self.since = dealer, datetime.now(UTC).isoformat()

    def open_shift(self, dealer: str) -> str:
        info = self.store.open_shift(dealer)
        self._dealer, self.since = info.dealer, info.opened_at
        return info.dealer

    # --- rounds ------------------------------------------------------------------------

    def begin(self, game: Round) -> Recording:
        return self.store.begin(game, config=self.snapshot)

    def resume(self) -> Recording | None:
        rec = self.store.resume()
        shift = self.store.shift  # a round resumed from the database brings its shift
        if shift is not None:
            self._dealer, self.since = shift.dealer, shift.opened_at
        return rec

    def status(self) -> LedgerStatus:
        return self.store.status()

    def close(self) -> None:
        """Send what is left (it stays in the journal if the database is away) and close.
        Once."""
        if self.closed:
            return
        self.closed = True
        self.store.stop_retrying()
        try:
            self.store.drain()
        except Exception:  # noqa: BLE001 - kept in the journal for the next start
            pass
        self.store.close()


class StationLedger:
    """The session's ledger port over the station's ledger: the one adapter of the window,
    the floor's demo stations, the fault suite and the benches.

    Given a lane (`writes`), the session never waits: `begin`, `save` and `void` queue a
    job and return. The jobs run in order on the lane, so the round's records reach the
    journal in the order they were made; `_rec` (the round being recorded) is only touched
    by those jobs. A write the journal refuses leaves the records unsaved in the round, so
    the next save writes them (none lost, none twice: the recording counts what is saved),
    and `problem()` says why until a write goes through.

    Without a lane each write is done before the call returns, and a refusal is raised to
    the session as a `PortError` (the session keeps it and tries again: Play.ledger_problem).
    """

    def __init__(self, ledger: Ledger, writes: Lane | None = None,
                 on_written: Callable[[BaseException | None], None] | None = None) -> None:
        self.ledger = ledger
        self.writes = writes
        self.on_written = on_written  # the window: the recording state moved
        self._rec: Recording | None = None
        self._deal: tuple[Round, dict[str, object]] | None = None  # a deal waiting to be kept
        self._deal_lock = threading.Lock()
        self.pending = 0  # writes queued and not yet confirmed on disk
        self.failed: str | None = None  # the last write refused, until one goes through
        self._vouched: dict[str, Person] = {}  # supervisors the ledger checked a moment ago
        # (name, secret) of the person standing at a headless table (the floor's demo): the
        # ledger checks them at each of their voids, as it checks a station's supervisor
        self.supervisor: tuple[str, str] | None = None
        # the ledger's id of each settled round with progressive wagers, for its hit
        self._settled: weakref.WeakKeyDictionary[Round, str] = weakref.WeakKeyDictionary()
        # the window: the answer to a progressive hit's payment, as an event
        self.on_paid: Callable[[ProgressivePaid], None] | None = None

    @property
    def store(self) -> Store:
        return self.ledger.store

    @property
    def recording(self) -> Recording | None:
        """The round being recorded (read it once the lane is idle)."""
        return self._rec

    @property
    def round_id(self) -> str | None:
        return self._rec.round_id if self._rec is not None else None

    def adopt(self, rec: Recording) -> None:
        """The round taken back at start, before any job."""
        self._rec = rec

    @property
    def dealer(self) -> str | None:
        return self.ledger.dealer

    def open_shift(self, dealer: str) -> str:
        name = " ".join(dealer.split())
        if not name:
            raise PortError("type the dealer's name to open a shift")
        self.ledger.expect_shift(name)
        self._write(lambda: self.ledger.open_shift(name))
        return name

    def begin(self, game: Round) -> None:
        def work() -> None:
            self._rec = None
            self._rec = self.ledger.begin(game)
        self._write(work)

    def save(self, game: Round) -> None:
        self._write(lambda: self._save(game))

    def _save(self, game: Round) -> None:
        rec = self._recording_of(game)
        card = game.rules.progressive
        if card is not None and game.phase is Phase.SETTLED and game.progressive_wagers:
            # the contribution rides on the settling op (docs/progressive.md)
            from app.ledger.progressive import card_hash  # with the ledger, off the paint

            rec.progressive = {"card": card.name, "card_hash": card_hash(card),
                               "seats": sorted(game.progressive_wagers)}
            self._settled[game] = rec.round_id
        rec.save()

    # --- the linked progressive ------------------------------------------------------------

    def read_meter(self, name: str) -> MeterReading | None:
        """The meter as it stands in the database (the window asks about twice a second,
        off its thread); `LedgerUnavailable` while the database cannot be reached."""
        return self.store.progressive_meter(name)

    def meter_feed(self, name: str) -> MeterFeed | None:
        """The meter's changes as the database says them (PostgreSQL), for the window to
        listen to on the station's pool; None on SQLite (read it). `LedgerUnavailable`
        while the database cannot be reached."""
        return self.store.progressive_feed(name)

    def pay_progressive(self, game: Round, by: Supervisor) -> ProgressivePaid | None:
        """The settled round's hits that wait, paid from the meter as it stands, after the
        supervisor's sign-in (their Person, the proof the supervisor port gave, or the one
        the pit vouched for). The op is the round's own (`<round id>/hit`): sent again, the
        ledger gives back what it paid. Given a lane, the answer comes to `on_paid`."""
        card, slip, no = game.rules.progressive, game.slip, game.rotation.round_no
        if card is None or slip is None or slip.progressive is None:
            raise PortError("this round has no progressive hit to pay")
        hits = [(x.seat, Category(str(x.category))) for x in slip.progressive.waiting()]
        who, secret = self._signed_in(by)

        def work() -> ProgressivePaid:
            round_id = self._settled.get(game)
            if round_id is None:
                raise LedgerError("this round's settlement was not recorded here: the hit is "
                                  "paid from the station that settled it")
            moves = self.store.take_progressive_hits(card, round_id, hits, f"{round_id}/hit",
                                                     who, secret)
            return ProgressivePaid(no, tuple(PaidHit(m.seat or 0, m.paid, -m.to_meter,
                                                     m.house_paid) for m in moves), by.name)
        return self._paying(no, by.name, work)

    def pay_owed_progressive(self, hits: tuple[OwedHit, ...], by: Supervisor
                             ) -> ProgressivePaid | None:
        """An earlier round's hits the ledger owes (`hits_owed`), paid as at its settlement:
        the same op (`<round id>/hit`), the card stored with the round."""
        who, secret = self._signed_in(by)
        no = hits[0].round_no

        def work() -> ProgressivePaid:
            moves = self.store.pay_owed_progressive(hits, who, secret)
            return ProgressivePaid(no, tuple(PaidHit(m.seat or 0, m.paid, -m.to_meter,
                                                     m.house_paid) for m in moves), by.name)
        return self._paying(no, by.name, work)

    def hits_owed(self) -> HitsOwed:
        """The progressive hits this table's ledger owes and no hit move pays yet (the
        journal sent on first, so a round settled before a stop is there); off the window's
        thread. `LedgerUnavailable` while the database cannot be reached."""
        try:
            self.store.drain()
        except Exception:  # noqa: BLE001 - the read below says whether the database is there
            pass
        return HitsOwed(tuple(self.store.progressive_hits_owed(self.store.table)))

    def _signed_in(self, by: Supervisor) -> tuple[str | Person, str | None]:
        vouched = self._vouched.pop(by.name, None)
        who = cast("str | Person", by.proof or vouched or by.name)
        standing = self.supervisor
        secret = standing[1] if standing is not None and standing[0] == who else None
        return who, secret

    def _paying(self, no: int, by: str, work: Callable[[], ProgressivePaid]
                ) -> ProgressivePaid | None:
        if self.writes is None:
            try:
                return work()
            except LedgerError as e:
                raise PortError(str(e)) from None

        def answered(result: object, error: BaseException | None) -> None:
            answer = (result if isinstance(result, ProgressivePaid) and error is None
                      else ProgressivePaid(no, (), by, f"{error}. Nothing was paid: try "
                                                       f"again (F2, Pay progressive)."))
            if self.on_paid is not None:
                self.on_paid(answer)
        self.writes.submit(work, answered)
        return None

    def vouch(self, person: Person) -> None:
        """The supervisor the ledger has just checked (`Store.authorise`) for the action
        that follows: the ledger's write of it carries the Person, so it records who and
        their sign-in (a name alone is refused by a ledger that has people)."""
        self._vouched[person.name] = person

    def void(self, game: Round, reason: str, by: str) -> None:
        person = self._vouched.pop(by, None)
        standing = self.supervisor

        def work() -> None:
            rec = self._recording_of(game)
            if person is not None:
                rec.void(reason, by=person)
            elif standing is not None:
                rec.void(reason, by=standing[0], secret=standing[1])
            else:
                rec.void(reason, by=by)
            self._rec = None
        self._write(work)

    def misdeal(self, game: Round, reason: str, by: object) -> None:
        """A supervisor's misdeal: `by` is the Supervisor the port gave (its proof, the
        ledger's Person, is what the store checks)."""
        who = getattr(by, "proof", None) or getattr(by, "name", by)

        def work() -> None:
            self._recording_of(game).misdeal(reason, by=who)
            self._rec = None
        self._write(work)

    def approve(self, game: Round, by: object) -> None:
        """The bonus approval saved with the supervisor's proof (the ledger's Person the
        supervisor port gave, or the one the pit vouched for), or the standing supervisor's
        name and secret at a headless table."""
        name = str(getattr(by, "name", by))
        vouched = self._vouched.pop(name, None)  # the pit checked them, as for a void
        who = getattr(by, "proof", None) or vouched or name
        standing = self.supervisor

        def work() -> None:
            rec = self._recording_of(game)
            if isinstance(who, str) and standing is not None and standing[0] == who:
                rec.approve(who, secret=standing[1])
            else:
                rec.approve(who)  # the Person; a name alone where the ledger has no people
        self._write(work)

    def _recording_of(self, game: Round) -> Recording:
        rec = self._rec
        if rec is None or rec.game is not game:
            raise LedgerError("this round was not begun in the ledger; call a supervisor")
        return rec

    def problem(self) -> str | None:
        """Why the ledger cannot record now: the last queued write the journal refused (a
        disk full), until one goes through; the session takes no new wager meanwhile."""
        return self.failed

    def keep_deal(self, game: Round, deal: DealState) -> None:
        """The deal as read so far, into the journal in order with the round's records (a
        restart gets every card back and asks the shoe for the rest). Cards read while a
        write of the deal still waits its turn go with it: the newest deal holds every card
        before it, so one write does (the queue never grows by a card a write)."""
        with self._deal_lock:
            queued = self._deal is not None
            self._deal = (game, dict(deal))
        if queued:
            return

        def work() -> None:
            with self._deal_lock:
                latest, self._deal = self._deal, None
            rec = self._rec
            if latest is not None and rec is not None and rec.game is latest[0]:
                rec.keep_deal(latest[1])
        self._write(work)

    def note_eligibility(self, verdict: Eligibility, then: Callable[[str], None]) -> None:
        """The pit's check of who may bank, recorded with the round in play (or the table)."""
        def work() -> None:
            if self._rec is not None:
                self._rec.note_eligibility(verdict, by="pit")
            else:
                self.store.record_eligibility(verdict, by="pit")

        def done(_r: object, error: BaseException | None) -> None:
            then(" Recorded in the ledger." if error is None else f" Not recorded ({error}).")
        if self.writes is None:
            error: BaseException | None = None
            try:
                work()
            except LedgerError as e:
                error = e
            done(None, error)
        else:
            self.writes.submit(work, done)

    def _write(self, work: Callable[[], object]) -> None:
        if self.writes is None:
            try:
                work()
            except LedgerError as e:  # the journal refused (a disk full): the dealer is told
                raise PortError(str(e)) from None
            return
        if self.writes.closed:
            raise PortError("the station is closing: the ledger takes no more changes")
        self.pending += 1
        self.writes.submit(work, self._written)

    def _written(self, _result: object, error: BaseException | None) -> None:
        self.pending -= 1
        self.failed = None if error is None else str(error)
        if self.on_written is not None:
            self.on_written(error)
