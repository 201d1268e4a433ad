"""The pit supervisor's controller: what the supervisor's view (app/ui/supervisor.py) shows
and does, worded from the core and the ledger.

- The round in play: who may bank and why (the core's `Round.eligibility`), the bank
  rotation, a check of a seat's chips recorded in the ledger, and voiding the round.
- History from the ledger (by shift, seat and day), the slip of any settled round exactly
  as printed with its corrections, reprinting it (marked REPRINT), correcting a settlement.
- Shift totals.
- Advice on any hand of any round: every legal setting with its value, the House Way's
  marked (`app.core.analysis.advise`).

Voiding and correcting (and closing the station) need a person: a supervisor's name and
their own PIN or password, checked by the ledger (`Store.authorise`) against its people on
the pit's worker thread (argon2 is slow by design, the database may be far). Wrong tries
are limited per person and recorded in the ledger (`sign_ins`), so a restart clears no lock;
the ledger logs each action with who, when and why. Nothing here raises at the supervisor:
a refusal comes back as `message` with `level`, as the dealer's controller does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from app.core.analysis.advise import Advice, AdviceError, advise_under
from app.core.banker import BankError, BankRotation, Eligibility
from app.core.cards import Card, CardError, parse_cards
from app.core.round import Phase, Round, RoundError, RoundRules
from app.core.settlement import MoneyError, money, parse_money
from app.core.table import DEALER, TableError, position_name
from app.ledger import LedgerError, LedgerUnavailable, NotAuthorised
from app.session import DealerSession, SupervisorCommand
from app.session.commands import misdeal_blocked
from app.session.ports import Supervisor
from app.session.progressive import check_pay
from app.session.words import bank_standing, rotation_lines
from app.station import Ledger

from . import present
from .services import PrintJob
from .station import Station
from .worker import Worker

if TYPE_CHECKING:
    # The window paints before SQLAlchemy loads: the ledger's types are names here.
    from app.ledger import (
        Correction,
        LedgerStatus,
        RoundSummary,
        ShiftSummary,
        Store,
        StoredSlip,
        Totals,
    )
    from app.ledger.floor_status import Request
    from app.ledger.people import Person
    from app.ledger.recall import Recall

    from .floor_link import FloorLink

T = TypeVar("T")
ADVICE_ERROR = 0.01  # the standard error the advice is drawn to (per unit wagered)


def ledger_status() -> type[LedgerStatus]:
    from app.ledger import LedgerStatus

    return LedgerStatus


@dataclass(frozen=True)
class SeatStanding:
    """One seat in the bank's table: may it bank, and why (the core's reasons)."""

    seat: int
    wager: str  # its wager this round
    house_bet: str  # what it wagered against the dealer in the last round with no banker
    verdict: str  # "may bank", "may not bank", "banks", "passed"
    eligible: bool
    reasons: str
    cover: str  # what its chips must cover if it banks now


@dataclass(frozen=True)
class HandChoice:
    """A hand the supervisor may ask advice on."""

    position: int
    title: str  # "seat 3 (KS KD 9C 7H 5S 3D 2C)"
    cards: tuple[Card, ...]
    wager: int  # cents: the hand's wager, else the table minimum
    played: tuple[Card, ...] | None = None  # the two cards it was set with in front
    how: str = ""  # how it was set: "set by the player: FOUL (...)", "House Way PR-1"


@dataclass(frozen=True)
class RoundInPlay:
    heading: str
    rotation: str
    seats: tuple[SeatStanding, ...]
    hands: tuple[HandChoice, ...]
    void_blocked: str | None  # why the round cannot be voided now (None: it can)
    misdeal_blocked: str | None = None  # why no misdeal can be called now
    typing_blocked: str | None = None  # why typing cards cannot be allowed now
    bonus_blocked: str | None = "no bonus payout waits for a supervisor"  # (None: one does)
    bonus_waiting: str = ""  # the payouts that wait, in the dealer's words


class PitController(QObject):
    changed = Signal()

    def __init__(self, station: Station, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.station = station  # the dealer's station: its session, ledger and printer
        self.message = ""
        self.level = "info"
        self.last_supervisor: str | None = None  # the last person the ledger checked here
        self._reads: Worker | None = None  # the pit's reads, a lane of the station's pool
        self.reading = 0  # reads asked for and not yet answered
        self.floor: FloorLink | None = None  # the pit floor's link (app/ui/main.py sets it)

    # --- plumbing ----------------------------------------------------------------------

    @property
    def session(self) -> DealerSession:
        session = self.station.session
        assert session is not None
        return session

    @property
    def ledger(self) -> Ledger | None:
        port = self.station.ledger
        return port.ledger if port is not None else None

    @property
    def dealer_name(self) -> str | None:
        ledger = self.session.play.ledger
        return ledger.dealer if ledger is not None else None

    def _say(self, text: str, level: str = "info") -> None:
        self.message, self.level = text, level
        self.changed.emit()

    def _read(self, what: str, read: Callable[[Store], T],
              then: Callable[[T | None], None]) -> None:
        """A read of the ledger on the pit's own lane (a database that is slow to
        answer holds up neither the window nor the journal's writes); `then(answer)` on the
        GUI thread, None when it failed: a database away or a bad reference is said, not
        raised."""
        ledger = self.ledger
        if ledger is None:
            self._say("This station keeps no ledger: there is no history to read.", "warn")
            then(None)
            return
        store = ledger.store

        def work() -> object:
            status = store.status()
            if not status.online and status.offline_since:
                return status  # known away: said at once, not a connect timeout
            return read(store)

        def done(result: object, error: BaseException | None) -> None:
            self.reading -= 1
            answer: T | None = None
            if isinstance(error, LedgerUnavailable):
                self._say(f"{what}: {error}. The round in play is kept on this station; try "
                          f"again when the database is back.", "error")
            elif isinstance(error, LedgerError):
                self._say(f"{what}: {error}", "error")
            elif error is not None:
                self._say(f"{what}: the ledger could not be read ({error}).", "error")
            elif isinstance(result, ledger_status()):
                # Ask again in the background, so the next try reads once it is back.
                if self._reads is not None and not self._reads.closed:
                    self._reads.submit(self._probe)
                since = result.offline_since or ""
                self._say(f"{what}: the ledger's database is away (since {since[11:19]} UTC; "
                          f"{result.error or 'no answer'}). The round in play is kept on this "
                          f"station; try again when the database is back.", "error")
            else:
                answer = result  # type: ignore[assignment]
            then(answer)

        if self._reads is None:
            self._reads = Worker(self, jobs=self.station.jobs)
        if self._reads.closed:  # the station is closing: an answer may still ask again
            self._say(f"{what}: the station is closing; nothing was read.", "error")
            return
        self.reading += 1
        self._reads.submit(work, done)

    def close(self) -> None:
        """The station closes: the reads under way finish, the pit's worker stops (and the
        floor's heartbeat)."""
        if self._reads is not None:
            self._reads.close()
        if self.floor is not None:
            self.floor.close()

    def _probe(self) -> None:
        if self.ledger is not None:
            try:
                self.ledger.store.drain()
            except Exception:  # noqa: BLE001 - the status bar says what ails the ledger
                pass

    # --- the round in play --------------------------------------------------------------

    def _game(self) -> tuple[Round, bool]:
        """The round in play, or (when none is) the next round as it would open."""
        s = self.session
        rnd = s.round
        if rnd is not None and rnd.phase is not Phase.SETTLED:
            return rnd, True
        rotation = rnd.next_rotation() if rnd is not None else s.play.rotation
        return Round(s.rules, rotation), False

    def round_in_play(self) -> RoundInPlay:
        game, live = self._game()
        rules = game.rules
        no = game.rotation.round_no
        if live:
            phase = present.PHASE_WORDS[game.phase]
            action = (f" - action {game.action.action} -> "
                      f"{position_name(game.action.position)}" if game.action else "")
            heading = (f"Round {no} in play: {phase}{action} - "
                       f"{present.bank_words(game, self.session.bank_offered())}")
        else:
            heading = (f"No round in play. Round {no} opens next (N): who may bank in it, "
                       f"as the table stands")
        seats = tuple(self._standing(game, seat) for seat in rules.table.positions
                      if seat != DEALER)
        hands = tuple(
            HandChoice(p, f"{position_name(p)} ({' '.join(map(str, h.cards))})", h.cards,
                       game.wagers.get(p) or rules.limits.minimum,
                       h.setting.low if h.setting is not None else None,
                       _how(h.set_by.value if h.set_by else None, h.rule, h.foul))
            for p, h in game.hands.items()) if live else ()
        blocked = None if live else "there is no round in play to void"
        held = game.bonus_held if live else None
        return RoundInPlay(heading, rotation_words(game.rotation, game), seats, hands,
                           blocked, misdeal_blocked(self.session),
                           self._typing_blocked(game if live else None),
                           None if held is not None and game.bonus_waiting() else
                           "no bonus payout waits for a supervisor",
                           "; ".join(x.text for x in held.lines) if held else "")

    def _typing_blocked(self, game: Round | None) -> str | None:
        if game is None or game.phase is not Phase.DEALING:
            return "typing cards is allowed for a deal under way"
        if not self.session.devices.shoe_online:
            return "the shoe is offline: the dealer types the cards without a supervisor"
        if self.session.play.typing_allowed is not None:
            return f"{self.session.play.typing_allowed} has allowed typing this deal's cards"
        return None

    @staticmethod
    def _standing(game: Round, seat: int) -> SeatStanding:
        wager = money(game.wagers[seat]) if seat in game.wagers else ""
        bet = game.rotation.house_bet(seat)
        house = money(bet) if bet is not None else ""
        if game.bank.player == seat:
            return SeatStanding(seat, wager, house, "banks", True,
                                f"banks this round with {money(game.bank.stake or 0)}", "")
        could, reasons, cover = bank_standing(game, seat)
        verdict = "may bank" if could else "may not bank"
        return SeatStanding(seat, wager, house, verdict, could, reasons,
                            money(cover) if could else "")

    def check_bank(self, seat: int, chips_text: str) -> Eligibility | None:
        """May this seat bank with these chips now? Recorded in the ledger as a check."""
        game, live = self._game()
        try:
            chips = parse_money(chips_text) if chips_text.strip() else 0
            verdict = game.eligibility(seat, chips)
        except (MoneyError, BankError, RoundError) as e:
            self._say(str(e), "error")
            return None
        said = f"{str(verdict)[0].upper()}{str(verdict)[1:]}."
        level = "ok" if verdict.eligible else "warn"
        port = self.station.ledger
        if port is None:
            self._say(said, level)
            return verdict
        # Written on the worker, with the round in play when there is one; said when done.
        self._say(f"{said} Recording in the ledger...", level)
        port.note_eligibility(verdict, lambda recorded: self._say(f"{said}{recorded}", level))
        return verdict

    # --- who: a person, checked by the ledger ---------------------------------------------

    def authorise(self, name: str, secret: str, action: str,
                  then: Callable[[Person | None], None], what: str | None = None) -> bool:
        """Ask the ledger whether `name` with `secret` may do `action`, on the pit's worker;
        `then(person)` on the GUI thread (None: refused, and said why). False: not asked
        (said why at once; `then` is not called)."""
        if self.ledger is None:
            self._say("This station keeps no ledger, so no supervisor can be checked: "
                      "nothing was done.", "error")
            return False
        if not name.strip():
            self._say("Type the supervisor's name: the ledger records who did it.", "error")
            return False
        if not secret:
            self._say(f"Type {name.strip()}'s PIN or password: nothing was done.", "error")
            return False
        def checked(person: Person | None) -> None:
            if person is not None:
                self.last_supervisor = person.name
            then(person)

        self._read(what or action.capitalize(),
                   lambda store: _noted(store, name, action,
                                        lambda: store.authorise(name, secret, action)),
                   checked)
        return True

    def _reason(self, reason: str) -> bool:
        if not reason.strip():
            self._say("Type why: the ledger logs the reason.", "error")
            return False
        return True

    # --- supervisor actions ----------------------------------------------------------------

    def void(self, secret: str, by: str, reason: str,
             then: Callable[[bool], None] | None = None) -> bool:
        """Void the round in play once the ledger has checked the supervisor; the ledger
        logs who, when and why. True: asked (`then(voided)` follows on the GUI thread);
        False: refused at once, said why."""
        rnd = self.session.round
        if rnd is None or rnd.phase is Phase.SETTLED:
            self._say("There is no round in play to void (a settled round is corrected, not "
                      "voided).", "error")
            return False
        if not by.strip() or not self._reason(reason):
            if not by.strip():
                self._say("Type the supervisor's name: the ledger logs who did it.", "error")
            return False
        no = rnd.rotation.round_no

        def authorised(person: Person | None) -> None:
            done = person is not None and self._void_now(rnd, no, person, reason)
            if then is not None:
                then(done)

        if not self.authorise(by, secret, "void", authorised):
            return False
        self._say(f"Checking {by.strip()} with the ledger...", "info")
        return True

    def floor_request(self) -> Request | None:
        """The floor's request for the round in play, if it asked (the oldest)."""
        floor = self.floor
        if floor is None:
            return None
        return next((r for r in floor.requests if floor.in_play(r)), None)

    def void_for_floor(self, request: Request, secret: str, by: str, reason: str,
                       then: Callable[[bool], None] | None = None) -> bool:
        """The floor's void, done by a supervisor at the station (their own name and
        secret, as any void); the floor is answered with who did it."""
        floor = self.floor

        def done(ok: bool) -> None:
            if ok and floor is not None:
                floor.answer(request, f"voided at the station by {by.strip()}: "
                                      f"{reason.strip()}")
            if then is not None:
                then(ok)

        return self.void(secret, by, reason, then=done)

    def misdeal(self, secret: str, by: str, reason: str,
                then: Callable[[bool], None] | None = None) -> bool:
        """A supervisor's misdeal: the deal ends, every wager goes back, the ledger keeps
        the round marked misdeal with who and why (the person checked on the pit's worker
        first). True: asked (`then(done)` follows); False: refused at once, said why."""
        blocked = misdeal_blocked(self.session)
        if blocked is not None:
            self._say(f"No misdeal: {blocked}.", "error")
            return False
        if not self._reason(reason):
            return False
        return self._supervised("misdeal", by, secret, reason, then)

    def approve_bonus(self, secret: str, by: str, reason: str = "",
                      then: Callable[[bool], None] | None = None) -> bool:
        """A supervisor approves the bonus payouts that wait (their own name and secret,
        checked by the ledger on the pit's worker); the round is then settled."""
        rnd = self.session.round
        if rnd is None or rnd.bonus_held is None or not rnd.bonus_waiting():
            self._say("No bonus payout waits for a supervisor.", "error")
            return False
        return self._supervised("approve_bonus", by, secret, reason, then)

    def progressive_blocked(self) -> str | None:
        """Why no progressive hit can be paid now (None: one waits, and the meter is there)."""
        try:
            check_pay(self.session)
        except TableError as e:
            return str(e)
        return None

    def pay_progressive(self, secret: str, by: str, reason: str = "",
                        then: Callable[[bool], None] | None = None) -> bool:
        """A supervisor signs in for the progressive hits that wait (their own name and
        secret, checked by the ledger on the pit's worker); the meter pays them then."""
        blocked = self.progressive_blocked()
        if blocked is not None:
            self._say(f"Not paid: {blocked}.", "error")
            return False
        return self._supervised("pay_progressive", by, secret, reason, then)

    def allow_typing(self, secret: str, by: str, reason: str,
                     then: Callable[[bool], None] | None = None) -> bool:
        """A supervisor lets the dealer type this deal's cards though the shoe is online (a
        shoe that misreads or cannot give a card back); logged with who and why."""
        rnd = self.session.round
        blocked = self._typing_blocked(rnd)
        if blocked is not None:
            self._say(f"Typing cannot be allowed: {blocked}.", "error")
            return False
        return self._supervised("allow_typing", by, secret, reason, then)

    def _supervised(self, what: str, by: str, secret: str, reason: str,
                    then: Callable[[bool], None] | None) -> bool:
        """`what` done by the session once the ledger has checked the person (on the
        pit's worker); the session's supervisor port is told who was checked, so the GUI
        thread never waits on the check."""
        action = {"allow_typing": "override", "approve_bonus": "bonus",
                  "pay_progressive": "progressive"}.get(what, what)
        rnd = self.session.round

        def authorised(person: Person | None) -> None:
            done = False
            if person is not None and self.session.round is rnd:
                vouch = getattr(self.session.play.supervisors, "vouch", None)
                if vouch is not None:
                    vouch(person, action)
                port = self.station.ledger
                if what in ("approve_bonus", "pay_progressive") and port is not None:
                    port.vouch(person)  # the approval's write carries who, as a void's
                changes = self.station.handle(SupervisorCommand(what, person.name, reason))
                done = changes.done
                self._say(changes.message, "ok" if done else "error")
            elif person is not None:
                self._say("The round changed while the supervisor was checked: nothing was "
                          "done.", "error")
            if then is not None:
                then(done)

        if not by.strip():
            self._say("Type the supervisor's name: the ledger records who did it.", "error")
            return False
        if not self.authorise(by, secret, action, authorised):
            return False
        self._say(f"Checking {by.strip()} with the ledger...", "info")
        return True

    def _void_now(self, rnd: Round, no: int, person: Person, reason: str) -> bool:
        if self.session.round is not rnd or rnd.phase is Phase.SETTLED:
            self._say(f"Round {no} is no longer in play: nothing was voided.", "error")
            return False
        port = self.station.ledger
        if port is not None:
            port.vouch(person)  # the ledger's write carries who, checked a moment ago
        changes = self.station.handle(SupervisorCommand("void", person.name, reason))
        if not changes.done:
            self._say(f"Round {no} was not voided: {changes.message}", "error")
            return False
        self._say(f"Round {no} is void, logged in the ledger: by {person.name}, "
                  f"{reason.strip()}.", "ok")
        return True

    def correct(self, round_id: str, position: int, net_text: str, *, secret: str, by: str,
                reason: str, then: Callable[[bool], None] | None = None) -> bool:
        """Correct a settled round's result at one position: the ledger checks the
        supervisor (their name and secret) and adds a reversal and a corrected row, with
        who, when and why, in one go on the pit's worker. True: asked (`then(written)`
        follows); False: refused at once, said why."""
        try:
            net = parse_money(net_text.strip().lstrip("+"))
        except MoneyError as e:
            self._say(f"The corrected net: {e} (e.g. -25 or +23.75)", "error")
            return False
        if self.ledger is None:
            self._say("This station keeps no ledger: there is nothing to correct.", "error")
            return False
        if not by.strip():
            self._say("Type the supervisor's name: the ledger logs who did it.", "error")
            return False
        if not self._reason(reason):
            return False
        if not secret:
            self._say(f"Type {by.strip()}'s PIN or password: nothing was done.", "error")
            return False

        def corrected(done: Correction | None) -> None:
            if done is not None:
                self.last_supervisor = by.strip()
                self._say(f"Corrected, logged in the ledger: {done.text()}.", "ok")
            if then is not None:
                then(done is not None)

        self._say("Correcting...", "info")
        self._read("Correction", lambda store: _noted(store, by, "correct", lambda: store.correct(
            round_id, position, net_cents=net, reason=reason.strip(), by=by.strip(),
            secret=secret)), corrected)
        return True

    def authorise_close(self, by: str, secret: str, reason: str,
                        then: Callable[[Person | None], None]) -> bool:
        """Closing the station: the ledger checks the supervisor for "close" and records
        who closed it and why (one job on the pit's worker). True: asked (`then(person)`
        follows; None: refused, said why); False: refused at once, said why."""
        if self.ledger is None:
            self._say("This station keeps no ledger, so no supervisor can be checked: "
                      "the station stays open.", "error")
            return False
        if not by.strip():
            self._say("Type the supervisor's name: the ledger records who closed the "
                      "station.", "error")
            return False
        if not secret:
            self._say(f"Type {by.strip()}'s PIN or password: the station stays open.",
                      "error")
            return False
        if not self._reason(reason):
            return False

        def work(store: Store) -> Person:
            person = _noted(store, by, "close", lambda: store.authorise(by, secret, "close"))
            store.note("station_closed", {"reason": reason.strip(),
                                          "sign_in": str(person.sign_in)}, by=person.name)
            return person

        def closing(person: Person | None) -> None:
            if person is not None:
                self.last_supervisor = person.name
            then(person)

        self._say(f"Checking {by.strip()} with the ledger...", "info")
        self._read("Close", work, closing)
        return True

    # --- history, slips, totals ------------------------------------------------------------

    def shifts(self, then: Callable[[list[ShiftSummary]], None]) -> None:
        table = self.session.rules.table.name
        self._read("Shifts", lambda store: store.shifts(table=table),
                   lambda found: then(found or []))

    def history(self, shift: str | None, seat: int | None, day: date | None,
                then: Callable[[list[RoundSummary]], None], limit: int = 500) -> None:
        table = self.session.rules.table.name

        def read(store: Store) -> list[RoundSummary]:
            # What this station wrote a moment ago (a void) is sent first: the history is
            # the database's, and the journal sends on its own time.
            store.drain()
            return store.history(table=table, shift=shift, seat=seat, day=day, limit=limit)

        self._read("History", read, lambda found: then(found or []))

    def after_writes(self, then: Callable[[], None]) -> None:
        """`then()` on the GUI thread once the journal holds what the station has written so
        far (its lane runs in order)."""
        port = self.station.ledger
        writes = port.writes if port is not None else None
        if writes is None:
            then()
            return
        writes.submit(lambda: None, lambda _result, _error: then())

    def recall(self, round_id: str, then: Callable[[Recall | None], None]) -> None:
        """The round shown whole and settled again by the core (app/ledger/recall.py):
        `then(recall)` with its MATCH or differences, None when it could not be read."""
        self._read("Recall", lambda store: store.recall(round_id), then)

    def slip(self, round_id: str, then: Callable[[StoredSlip | None], None]) -> None:
        self._read("Slip", lambda store: store.slip(round_id), then)

    def totals(self, shift: str | None, then: Callable[[Totals | None], None],
               day: date | None = None) -> None:
        table = self.session.rules.table.name
        self._read("Totals", lambda store: store.totals(table=table, shift=shift, day=day),
                   then)

    def reprint(self, stored: StoredSlip) -> bool:
        """Print a past round's slip again from the ledger, marked REPRINT."""
        printer = self.station.printer
        port = self.session.devices.printer
        why = ("no slip printer is set up at this station ([printer] kind = \"none\"): read "
               "the slip on screen; the ledger keeps it" if printer is None or port is None
               or not port.attached else port.problem())
        if why is not None:
            self._say(f"{why[0].upper()}{why[1:]}.", "error")
            return False
        assert printer is not None
        data = stored.data()
        printer.print_slip(data, PrintJob("duplicate", str(data.get("table", "")),
                                          int(data.get("round", 0)), stored.round_id))
        self.station.paint_devices()
        self._say(f"Round {stored.round_no}'s slip is printing again, marked REPRINT.", "ok")
        return True

    # --- advice ----------------------------------------------------------------------------

    def round_rules(self, stored: StoredSlip) -> RoundRules | None:
        """The rules a past round was played by, as the ledger stored them with it (never
        today's config); None, said why, when they cannot be read."""
        try:
            return stored.rules()
        except LedgerError as e:
            self._say(f"No advice on round {stored.round_no}: {e}", "error")
            return None

    def slip_hands(self, stored: StoredSlip, rules: RoundRules | None = None
                   ) -> tuple[HandChoice, ...]:
        minimum = (rules or self.session.rules).limits.minimum
        out = []
        for line in stored.data().get("positions", []):
            cards = parse_cards(line["cards"])
            low = parse_cards(line["low"]) if line["low"] else None
            out.append(HandChoice(line["position"], f"{line['name']} ({line['cards']})",
                                  cards, line.get("wager_cents") or minimum, low,
                                  _how(line.get("set_by"), line.get("house_way_rule"),
                                       line.get("foul"))))
        return tuple(out)

    def receipt(self, stored: StoredSlip) -> str:
        """A past round's slip as the printer lays it out (its columns), from the ledger."""
        from drivers.printer import slip_text

        printer = self.station.printer
        columns = printer.config.columns if printer is not None else 42
        return slip_text(stored.data(), columns, time=stored.settled_at.astimezone())

    def advise(self, hand: HandChoice, *, rules: RoundRules | None = None
               ) -> Advice | None:
        """Every legal setting of the hand with its value, the House Way's marked. `rules`:
        a past round's (`round_rules`), else the round in play's."""
        try:
            return advise_under(rules or self.session.rules, hand.cards, wager=hand.wager,
                                error=ADVICE_ERROR)
        except (AdviceError, CardError) as e:
            self._say(f"No advice for {hand.title}: {e}", "error")
            return None


def _noted(store: Store, name: str, action: str, act: Callable[[], T]) -> T:
    """A supervisor's action tried: a refusal is also written as a station note
    (`pin_refused`: who, for what, why; never the secret), which the pit floor raises as an
    alert; the person's try itself is in `sign_ins`."""
    try:
        return act()
    except NotAuthorised as e:
        try:
            store.note("pin_refused", {"why": str(e), "action": action},
                       by=" ".join(name.split()) or None)
        except LedgerError:
            pass  # the refusal stands; the status bar says what ails the ledger
        raise


def _how(set_by: str | None, rule: str | None, foul: str | None) -> str:
    if set_by is None:
        return "not set"
    how = {"player": "set by the player", "house-way": "set the House Way",
           "reset": "reset the House Way",
           "after-bank": "set by the dealer the House Way after the bank"}.get(set_by, set_by)
    if rule and set_by != "player":
        how += f" (rule {rule})"
    return how + (f" - FOUL: {foul}" if foul else "")


def rotation_words(rotation: BankRotation, game: Round) -> str:
    """The bank rotation as the pit reads it."""
    return "\n".join(rotation_lines(rotation, game.rules))


def money_or_blank(cents: int | None, sign: bool = False) -> str:
    return "" if cents is None else money(cents, sign=sign)


def seats_text(seats: Sequence[int]) -> str:
    return ",".join(map(str, seats)) or "-"


class VouchedSupervisors:
    """The station's supervisor port: the pit checks a person with the ledger on its worker
    (argon2 and the database, never on the GUI thread) and vouches for them for the one
    action that follows; a person not vouched for is checked by the ledger here (a
    headless use of the station's session)."""

    def __init__(self, store: Store) -> None:
        from app.ledger.store import StoreSupervisors

        self.checked = StoreSupervisors(store)
        self._vouched: dict[tuple[str, str], Person] = {}

    def vouch(self, person: Person, action: str) -> None:
        self._vouched[(person.name, action)] = person

    def authorise(self, name: str, secret: str, action: str) -> Supervisor:
        person = self._vouched.pop((name, action), None)
        if person is not None:
            return Supervisor(person.name, person)
        who: Supervisor = self.checked.authorise(name, secret, action)
        return who
