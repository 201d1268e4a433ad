"""The round in play and its recording: the table's rules, the bank rotation, the round (the
core's `Round`), what the table's procedure adds to it (seats passed over for the bank, the
co-bank switch, a supervisor's leave to type cards, each seat's last wager), the round's
log, and the ledger it is saved to at once, change by change.

Every change of the round goes through `change` (saved to the ledger, its records handed
to the step's changes); `dry` asks what a change would do without making it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from app.core.banker import BankRotation
from app.core.cards import DECK
from app.core.round import BankPassed, BonusApproved, Phase, Round, RoundRules
from app.core.table import Table, TableError

from . import words
from .meter import Progressive
from .outbox import Outbox
from .ports import LedgerPort, PortError, Supervisor, SupervisorPort

T = TypeVar("T")
P = ParamSpec("P")
LOG_KEPT = 500  # lines of the round log kept in memory: a few rounds' worth


class Play:
    """The round in play, its procedure around the core, its log and its ledger."""

    def __init__(self, rules: RoundRules, rotation: BankRotation, out: Outbox,
                 ledger: LedgerPort | None = None,
                 supervisors: SupervisorPort | None = None) -> None:
        self.rules = rules
        self.rotation = rotation
        self.out = out
        self.ledger = ledger
        self.supervisors = supervisors  # None: who is named is taken (a replay, no people)
        self.round: Round | None = None
        self.opened_with = rotation
        # Each seat's last main wager here (the jump rule); after a restart, the ledger's.
        self.last_wagers: dict[int, int] = dict(rotation.house_bets)
        # The last round's main wagers, seat by seat (L sets them again); after a restart,
        # the ledger's last round with no player banker.
        self.last_round: dict[int, int] = dict(rotation.house_bets)
        self.last_bonus: dict[int, int] = {}  # and its bonus wagers (L sets them too)
        self.last_progressive: set[int] = set()  # and the seats with a progressive wager
        self.progressive = Progressive()  # the meter's reach, a hit waiting to be paid
        self.passed_over: dict[int, str] = {}  # seats passed over for the bank, and why
        self.co_bank = False
        self.typing_allowed: str | None = None  # the supervisor who let the dealer type
        self.log: list[str] = []  # the newest lines, at most LOG_KEPT (a shift is long)
        self.lines_logged = 0  # every line ever added: what a step added is the difference
        self._logged = 0  # the round's records already in the log
        self._ledger_down: str | None = None  # the last write the ledger refused, if no
        # write has gone through since

    @property
    def table(self) -> Table:
        return self.rules.table

    def need_round(self) -> Round:
        if self.round is None:
            raise TableError("no round is open: press N to open one")
        return self.round

    # --- a round opened and ended -------------------------------------------------------------

    def next_rotation(self) -> BankRotation:
        """The rotation the next round opens with."""
        return self.round.next_rotation() if self.round is not None else self.rotation

    def keep_last_wagers(self) -> None:
        """A settled round's wagers are each seat's last (the jump rule)."""
        if self.round is not None and self.round.phase is Phase.SETTLED:
            self.last_wagers.update(self.round.wagers)
            self.last_round = dict(self.round.wagers)
            self.last_bonus = dict(self.round.bonus_wagers)
            self.last_progressive = set(self.round.progressive_wagers)

    def open(self, game: Round) -> None:
        """A new round (or one taken back) is the round in play from now on."""
        self.round = game
        self.opened_with = game.rotation
        self._logged = 0
        self.passed_over = {}
        self.co_bank = False
        self.typing_allowed = None

    def end(self, *, typing_too: bool) -> None:
        """The round is void or a misdeal: no round is in play, and the next opens from the
        same rotation (its wagers went back: L offers them again). `typing_too`: the leave
        to type cards ends as well."""
        if self.round is not None and self.round.wagers:
            self.last_round = dict(self.round.wagers)
            self.last_bonus = dict(self.round.bonus_wagers)
            self.last_progressive = set(self.round.progressive_wagers)
        self.rotation = self.opened_with
        self.round = None
        self.co_bank = False
        if typing_too:
            self.typing_allowed = None

    def toggle_co_bank(self) -> bool:
        self.co_bank = not self.co_bank
        return self.co_bank

    def allow_typing(self, supervisor: str) -> None:
        self.typing_allowed = supervisor

    def add_log(self, *lines: str) -> None:
        """Lines at the end of the log. The oldest go once it holds LOG_KEPT: a station
        that runs all week would otherwise hold every line of every round (the ledger and
        the session file keep them all)."""
        self.log.extend(lines)
        self.lines_logged += len(lines)
        if len(self.log) > LOG_KEPT:
            del self.log[:len(self.log) - LOG_KEPT]

    def new_lines(self, since: int) -> tuple[str, ...]:
        """The lines added since the count was `since` (that are still kept)."""
        added = self.lines_logged - since
        return tuple(self.log[len(self.log) - min(added, len(self.log)):]) if added else ()

    def write_log(self, notes: list[str]) -> None:
        """The round's new records as lines of the log, then the step's notes."""
        if self.round is not None:
            for record in self.round.log[self._logged:]:
                text = words.record_text(record)
                if isinstance(record, BankPassed) and record.seat in self.passed_over:
                    text += f" (passed over: {self.passed_over[record.seat]})"
                self.add_log(text)
            self._logged = len(self.round.log)
        self.add_log(*notes)

    # --- changing the round --------------------------------------------------------------------

    def change(self, act: Callable[Concatenate[Round, P], T], *args: P.args,
               **kwargs: P.kwargs) -> T:
        """Change the round (`change(Round.place_wager, seat, cents)`), and save the change
        to the ledger at once (a misdeal too)."""
        rnd = self.need_round()
        start = len(rnd.log)
        try:
            return act(rnd, *args, **kwargs)
        finally:
            self.out.recorded(rnd.log[start:])
            self.save()

    def approve_bonus(self, who: Supervisor) -> BonusApproved:
        """The supervisor approves the bonus payouts that wait; the ledger saves the
        approval with the proof the supervisor port gave (their sign-in), not the name
        alone."""
        rnd = self.need_round()
        start = len(rnd.log)
        try:
            return rnd.approve_bonus(who.name)
        finally:
            self.out.recorded(rnd.log[start:])
            if self.ledger is not None and len(rnd.log) > start:
                try:
                    self.ledger.approve(rnd, who)
                    self._ledger_down = None
                except PortError as e:
                    self.ledger_refused(e)

    def dry(self, act: Callable[Concatenate[Round, P], T], *args: P.args,
            **kwargs: P.kwargs) -> T:
        """What the round would answer to a change, without making it (on a copy; the 53
        cards are shared, never copied: a card is itself, not equal to another)."""
        return act(copy.deepcopy(self.need_round(), {id(c): c for c in DECK}), *args, **kwargs)

    # --- the ledger ----------------------------------------------------------------------------

    def save(self) -> None:
        """Write the round's new records to the ledger. A refusal is shown; the round goes
        on."""
        if self.ledger is None or self.round is None:
            return
        try:
            self.ledger.save(self.round)
            self._ledger_down = None
        except PortError as e:
            self.ledger_refused(e)

    def ledger_problem(self) -> str | None:
        """Why the ledger cannot record now (its port's `problem()`, or the last write it
        refused here), or None."""
        ask = getattr(self.ledger, "problem", None)
        said = ask() if callable(ask) else None
        if said:
            return str(said)
        if self._ledger_down is not None and self.ledger is not None and self.round:
            try:  # try again: the records not yet taken go with this write
                self.ledger.save(self.round)
                self._ledger_down = None
            except PortError as e:
                self._ledger_down = str(e)
        return self._ledger_down

    def ledger_refused(self, e: PortError) -> None:
        """A write the ledger refused: logged, and said last (no step's words hide it)."""
        self._ledger_down = str(e)
        self.out.note(f"Ledger: {e}")
        self.out.ledger_refused(f"The ledger did not take this change ({e}). Call a "
                                f"supervisor; the round goes on.")

    def authorise(self, by: str, secret: str, action: str) -> Supervisor:
        """The supervisor doing `action`, checked by the supervisor port (PortError in
        words: nothing is done); with no port, the name given (a replay, or a ledger that
        checks the person itself)."""
        if not by.strip():
            raise TableError(f"a {action} names the supervisor who does it")
        if self.supervisors is None:
            return Supervisor(by.strip())
        return self.supervisors.authorise(by.strip(), secret, action)

    # --- what is on offer ----------------------------------------------------------------------

    def bank_offered(self) -> int | None:
        """The seat the bank is offered to now, or None (the dealer banks, or it is taken)."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.BETTING:
            return None
        seat = rnd.offer_bank()
        return seat if rnd.can_pass_bank(seat) else None

    def dragon_offered(self) -> int | None:
        """The seat the dragon hand is offered to now, or None."""
        return self.round.offer_dragon() if self.round is not None else None

    def pass_over_bank(self) -> None:
        """Pass the offer over seats the core says may not bank, whatever their chips."""
        rnd = self.round
        while rnd is not None and (seat := self.bank_offered()) is not None:
            could, reasons, _ = words.bank_standing(rnd, seat)
            if could:
                return
            self.passed_over[seat] = reasons
            self.change(Round.pass_bank, seat)
