"""The ledger and the printer as the session sees them: only the calls it makes.

The session is synchronous. The station's real ledger (app/ledger) and slip printer
(drivers/printer) are wrapped by the window to fit these; the printer may answer later (it
returns None and the answer comes back as a `Printed` event). A port that refuses raises
`PortError` with words for the dealer; the session shows them and the round goes on.

`MemoryLedger` and `MemoryPrinter` keep everything in lists: the tests and `paigow replay`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from app.core.bonus.categories import Category
from app.core.progressive import Meter, progressive_card, take_hits
from app.core.progressive import contribute as shares_of
from app.core.round import Phase, Record, Round
from app.core.settlement import Slip

from .deal import DealState
from .events import Event, OwedHit, PaidHit, PrintJob, PrintOutcome, ProgressivePaid


class PortError(Exception):
    """The ledger or the printer refused: what happened, in the dealer's words."""


class LedgerPort(Protocol):
    @property
    def dealer(self) -> str | None:
        """The dealer whose shift is open, or None."""

    def open_shift(self, dealer: str) -> str:
        """Open a shift for the dealer named; returns the name as recorded."""

    def begin(self, game: Round) -> None:
        """A new round is recorded from now on."""

    def save(self, game: Round) -> None:
        """The round's records not yet saved (on disk before this returns)."""

    def void(self, game: Round, reason: str, by: str) -> None:
        """The round in play is void: who and why."""

    def keep_deal(self, game: Round, deal: DealState) -> None:
        """The deal coming in as the station holds it (Deal.state), on disk before
        the round is given it: a station restarted mid-deal gets it back (Deal.restore)."""


    def misdeal(self, game: Round, reason: str, by: object) -> None:
        """A supervisor ends the deal as a misdeal: the round ends (every wager back),
        marked misdeal with who and why. `by` is what the supervisor port gave."""

    def approve(self, game: Round, by: object) -> None:
        """A supervisor approved the bonus payouts that waited (the round's approval, made):
        saved with their proof, as a misdeal is. `by` is what the supervisor port gave."""

    def pay_progressive(self, game: Round, by: Supervisor) -> ProgressivePaid | None:
        """The settled round's progressive hits, paid from the meter as it stands now, after
        the supervisor's sign-in (`by`, as the supervisor port gave it). The answer now, or
        None: it comes later as a `ProgressivePaid` event. A retry never pays twice."""

    def pay_owed_progressive(self, hits: tuple[OwedHit, ...], by: Supervisor
                             ) -> ProgressivePaid | None:
        """One earlier round's hits the ledger owes (`HitsOwed`), paid as at its settlement
        (the same op: a hit paid meanwhile is given back, never paid twice)."""


@dataclass(frozen=True)
class Supervisor:
    """Who did a supervisor's action: the name as recorded, and the proof the supervisor
    port gave (the ledger's Person; None where no one checks, as in a replay)."""

    name: str
    proof: object = None


class SupervisorPort(Protocol):
    def authorise(self, name: str, secret: str, action: str) -> Supervisor:
        """The supervisor, if the secret is theirs and they may do `action`; else PortError
        saying why (nothing was done)."""


class PrinterPort(Protocol):
    def problem(self) -> str | None:
        """Why nothing can be printed now, in the dealer's words (None: it can)."""

    @property
    def attached(self) -> bool:
        """A slip printer is set up at this station."""

    @property
    def kept_count(self) -> int:
        """Slips a failure kept for reprint."""

    def print_slip(self, slip: Slip, job: PrintJob) -> PrintOutcome | None:
        """Print the slip (marked REPRINT for a `duplicate` job); None: the answer comes
        later as a `Printed` event."""

    def reprint_kept(self) -> PrintOutcome | None:
        """Print the kept slips, oldest first."""


class RecorderPort(Protocol):
    def start(self, head: Mapping[str, object]) -> None:
        """What the session was started with (record.header), before any event."""

    def append(self, event: Event, at: str) -> None:
        """One event the session handled, as it handled it, and when."""


# --- in memory: the tests and replay ------------------------------------------------------

@dataclass
class MemoryLedger:
    """A ledger in lists: each round's records as saved, the voids, the shifts."""

    shift: str | None = None
    rounds: list[tuple[int, list[Record]]] = field(default_factory=list)
    voids: list[tuple[int, str, str]] = field(default_factory=list)
    approvals: list[tuple[int, str]] = field(default_factory=list)  # bonus payouts approved
    shifts: list[str] = field(default_factory=list)
    refuse: str | None = None  # set: every save is refused with these words
    deal: dict[str, object] | None = None  # the deal kept for the round in play
    deals_kept: int = 0  # how many times it was kept (once per card read or typed)
    # The progressive's meter as this ledger keeps it (None: opened at the card's seed
    # with the first move), each settled round's progressive seats, each hit op paid.
    meter: Meter | None = None
    contributions: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    hits_paid: dict[int, ProgressivePaid] = field(default_factory=dict)
    meter_refuse: str | None = None  # set: the meter cannot be reached, in these words
    pays_later: bool = False  # a replay: the recorded answer (`ProgressivePaid`) pays

    @property
    def dealer(self) -> str | None:
        return self.shift

    def open_shift(self, dealer: str) -> str:
        name = " ".join(dealer.split())
        if not name:
            raise PortError("type the dealer's name to open a shift")
        self.shift = name
        self.shifts.append(name)
        return name

    def begin(self, game: Round) -> None:
        self.rounds.append((game.rotation.round_no, []))

    def save(self, game: Round) -> None:
        if self.refuse is not None:
            raise PortError(self.refuse)
        saved = self.rounds[-1][1]
        saved.extend(game.log[len(saved):])
        card, no = game.rules.progressive, game.rotation.round_no
        if (card is not None and game.phase is Phase.SETTLED and game.progressive_wagers
                and all(n != no for n, _ in self.contributions)):
            # the wagers go onto the meter with the settlement, as the ledger's do
            self.contributions.append((no, tuple(game.progressive_wagers)))
            c = shares_of(card, len(game.progressive_wagers))
            m = self.meter or Meter(card.seed)
            self.meter = Meter(m.amount + c.to_meter, m.reserve + c.to_reserve)

    def pay_progressive(self, game: Round, by: Supervisor) -> ProgressivePaid | None:
        card, slip, no = game.rules.progressive, game.slip, game.rotation.round_no
        if self.pays_later:
            return None
        if self.meter_refuse is not None:
            raise PortError(self.meter_refuse)
        if no in self.hits_paid:  # the op again: what was paid, never taken twice
            return self.hits_paid[no]
        assert card is not None and slip is not None and slip.progressive is not None
        hits = slip.progressive.hits()
        taken = take_hits(card, self.meter or Meter(card.seed),
                          [Category(str(x.category)) for x in hits])
        self.meter = taken[-1].after
        answer = ProgressivePaid(no, tuple(PaidHit(x.seat, h.paid, h.from_meter,
                                                   h.from_house)
                                           for x, h in zip(hits, taken, strict=True)),
                                 by.name)
        self.hits_paid[no] = answer
        return answer

    def pay_owed_progressive(self, hits: tuple[OwedHit, ...], by: Supervisor
                             ) -> ProgressivePaid | None:
        no = hits[0].round_no
        if self.pays_later:
            return None
        if self.meter_refuse is not None:
            raise PortError(self.meter_refuse)
        if no in self.hits_paid:
            return self.hits_paid[no]
        card = progressive_card(hits[0].card)
        taken = take_hits(card, self.meter or Meter(card.seed),
                          [Category(h.category) for h in hits])
        self.meter = taken[-1].after
        answer = ProgressivePaid(no, tuple(PaidHit(x.seat, h.paid, h.from_meter, h.from_house)
                                           for x, h in zip(hits, taken, strict=True)),
                                 by.name)
        self.hits_paid[no] = answer
        return answer

    def void(self, game: Round, reason: str, by: str) -> None:
        self.voids.append((game.rotation.round_no, reason, by))
        self.deal = None

    def approve(self, game: Round, by: object) -> None:
        name = by.name if isinstance(by, Supervisor) else str(by)
        self.approvals.append((game.rotation.round_no, name))
        self.save(game)

    def misdeal(self, game: Round, reason: str, by: object) -> None:
        name = by.name if isinstance(by, Supervisor) else str(by)
        self.voids.append((game.rotation.round_no, f"misdeal: {reason}", name))
        self.deal = None

    def keep_deal(self, game: Round, deal: DealState) -> None:
        if self.refuse is not None:
            raise PortError(self.refuse)
        self.deal = {"round_no": game.rotation.round_no, **deal}
        self.deals_kept += 1

    def records(self) -> list[Record]:
        return [r for _, records in self.rounds for r in records]


@dataclass
class MemoryPrinter:
    """A printer that prints at once into a list (`printed`: job and slip)."""

    printed: list[tuple[PrintJob, Slip]] = field(default_factory=list)
    fail: str | None = None  # set: the next slip fails with these words and is kept
    kept: list[tuple[PrintJob, Slip]] = field(default_factory=list)

    @property
    def attached(self) -> bool:
        return True

    @property
    def kept_count(self) -> int:
        return len(self.kept)

    def problem(self) -> str | None:
        return None

    def print_slip(self, slip: Slip, job: PrintJob) -> PrintOutcome:
        if self.fail is not None:
            message, self.fail = self.fail, None
            self.kept.append((job, slip))
            return PrintOutcome(job, False, message, kept=True, problem=True)
        self.printed.append((job, slip))
        return PrintOutcome(job, True)

    def reprint_kept(self) -> PrintOutcome:
        done = tuple((job.table, job.round) for job, _ in self.kept)
        self.printed.extend(self.kept)
        self.kept = []
        return PrintOutcome(PrintJob("kept"), True, f"{len(done)} kept slip(s) printed.",
                            rounds=done)


@dataclass
class AnsweredPrinter:
    """A printer whose answers are already recorded (replay): it takes every job and the
    answer comes from the recorded `Printed` event."""

    sent: list[tuple[PrintJob, Slip | None]] = field(default_factory=list)
    kept: int = 0

    @property
    def attached(self) -> bool:
        return True

    @property
    def kept_count(self) -> int:
        return self.kept

    def problem(self) -> str | None:
        return None

    def print_slip(self, slip: Slip, job: PrintJob) -> None:
        self.sent.append((job, slip))

    def reprint_kept(self) -> None:
        self.sent.append((PrintJob("kept"), None))

    def answered(self, outcome: PrintOutcome) -> None:
        """The recorded answer: the slips it keeps from now on."""
        self.kept = outcome.left if outcome.job.kind == "kept" else self.kept + int(outcome.kept)


@dataclass
class MemorySupervisors:
    """Supervisors by name and secret (tests): a wrong secret is refused in words."""

    secrets: dict[str, str] = field(default_factory=dict)
    tries: list[tuple[str, str, bool]] = field(default_factory=list)  # name, action, ok

    def authorise(self, name: str, secret: str, action: str) -> Supervisor:
        ok = bool(secret) and self.secrets.get(name.strip()) == secret
        self.tries.append((name, action, ok))
        if not ok:
            raise PortError(f"{name.strip() or 'no one'} is not a supervisor with that secret: "
                            f"nothing was done; try again")
        return Supervisor(name.strip(), ("memory", name.strip()))
