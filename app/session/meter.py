"""The linked progressive as the session holds it between events: whether its meter can
be reached (as the window last read it), the settled round of this run whose hits wait to
be paid, and the hits the ledger owes from before (app/session/progressive.py does the
rest)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.round import Round
from app.core.settlement import ProgressiveResult
from app.core.table import position_name

from .events import OwedHit

CLOSED = "Progressive closed: the meter cannot be reached"


@dataclass(frozen=True, slots=True)
class Due:
    """One round's hits that wait to be paid: one supervisor's sign-in pays them."""

    round_no: int
    hits: tuple[tuple[int, str, str], ...]  # (seat, hand, what it pays), from action
    owed: tuple[OwedHit, ...] = ()  # found in the ledger; () for this run's own round

    def words(self, pays: bool = False) -> str:
        """'round 6 seat 1, five aces; round 6 seat 2, four of a kind' (`pays`: each with
        what it pays)."""
        return "; ".join(f"round {self.round_no} {position_name(seat)}, {hand}"
                         + (f" ({what})" if pays else "") for seat, hand, what in self.hits)


@dataclass
class Progressive:
    """The meter's reach as last said, the settled round whose hits wait to be paid, and
    the hits the ledger owes (looked for at start and when the meter is back)."""

    online: bool = True
    why: str = ""
    hit_round: Round | None = None
    paying: bool = False  # a payment asked of the ledger, its answer on its way
    owed: tuple[OwedHit, ...] = ()

    def waiting(self) -> ProgressiveResult | None:
        """The hits of this run's settled round that wait, as its slip holds them."""
        rnd = self.hit_round
        if rnd is None or rnd.slip is None or rnd.slip.progressive is None:
            return None
        return rnd.slip.progressive if rnd.slip.progressive.waiting() else None

    def due(self) -> tuple[Due, ...]:
        """Every round whose hits wait, oldest first: those the ledger owes from before,
        then this run's (its own, which the ledger may list too once it has it)."""
        live = self.waiting()
        live_no = self.hit_round.rotation.round_no if self.hit_round is not None else None
        rounds: dict[int, list[OwedHit]] = {}
        for hit in self.owed:
            if live is None or hit.round_no != live_no:
                rounds.setdefault(hit.round_no, []).append(hit)
        out = [Due(no, tuple((h.seat, h.hand, h.pays) for h in hits), tuple(hits))
               for no, hits in rounds.items()]
        if live is not None and live_no is not None:
            out.append(Due(live_no, tuple((x.seat, x.hand or "", x.pays or "")
                                          for x in live.waiting())))
        return tuple(out)

    def paid(self, round_no: int) -> None:
        """The round's hits are paid: no longer owed."""
        self.owed = tuple(h for h in self.owed if h.round_no != round_no)

    def banner(self) -> str | None:
        """What the felt says of the progressive besides the meter: closed, a hit waiting."""
        due = self.due()
        hits = "; ".join(d.words() for d in due)
        if due and not self.online:
            return f"Progressive hit waiting for the meter: {hits}"
        if due:
            return f"Progressive hit waiting: {hits}. A supervisor signs in to pay it (F2)."
        if not self.online:
            return CLOSED
        return None
