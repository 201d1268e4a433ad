"""The linked progressive as the session holds it between events: whether its meter can
be reached (as the window last read it), and the settled round whose hits wait to be paid
(app/session/progressive.py does the rest)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.round import Round
from app.core.settlement import ProgressiveResult
from app.core.table import position_name

CLOSED = "Progressive closed: the meter cannot be reached"


@dataclass
class Progressive:
    """The meter's reach as last said, and the settled round whose hits wait to be paid."""

    online: bool = True
    why: str = ""
    hit_round: Round | None = None
    paying: bool = False  # a payment asked of the ledger, its answer on its way

    def waiting(self) -> ProgressiveResult | None:
        """The hits that wait, as the slip of their round holds them."""
        rnd = self.hit_round
        if rnd is None or rnd.slip is None or rnd.slip.progressive is None:
            return None
        return rnd.slip.progressive if rnd.slip.progressive.waiting() else None

    def banner(self) -> str | None:
        """What the felt says of the progressive besides the meter: closed, a hit waiting."""
        waiting = self.waiting()
        hits = ("" if waiting is None else
                "; ".join(f"{position_name(x.seat)} {x.hand}" for x in waiting.waiting()))
        if waiting is not None and not self.online:
            return f"Progressive hit waiting for the meter: {hits}"
        if waiting is not None:
            return f"Progressive hit: {hits}. A supervisor signs in to pay it (F2)."
        if not self.online:
            return CLOSED
        return None
