"""A long shift does not grow the round log for ever (issue 24, item 4: "the session's
`log` is never cleared between rounds, and the panel's list only grows (about 18,000 items
by round 781)"): the session keeps the newest LOG_KEPT lines, and each step still says
every line it added."""

from __future__ import annotations

from app.core.table import DEALER
from app.session import DealerSession, MemoryLedger, MemoryPrinter
from app.session.play import LOG_KEPT

from .play import BANK_WEAK, STRONG, WEAKER, Play, stacked


def _round(p: Play) -> list[str]:
    """A whole round; the lines each step said it added, in order."""
    said = list(p.key("N").log)
    if p.s.bank_offered() is not None:
        said += p.key("Shift+Q").log
    for seat in (1, 3):
        said += p.seat(seat).log + p.cmd("wager", "25").log
    said += p.key("R").log
    said += p.read(stacked(p.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK})).log
    said += p.key("Shift+Q").log
    for seat in (DEALER, 1, 3):
        said += p.seat(seat).log + p.key("H").log
    said += p.key("S").log
    return said


def test_the_log_keeps_the_newest_lines_and_every_step_still_says_what_it_added() -> None:
    p = Play(DealerSession(None, ledger=MemoryLedger(shift="Ann"), printer=MemoryPrinter(),
                           randbelow=lambda _n: 0))
    p.shoe(True)
    said: list[str] = []
    rounds = 0
    while p.s.play.lines_logged <= 3 * LOG_KEPT:
        said += _round(p)
        rounds += 1
    assert p.s.round is not None and p.s.round.slip is not None  # each round settled
    assert len(said) == p.s.play.lines_logged > 3 * LOG_KEPT
    assert p.s.log == said[-LOG_KEPT:]  # the newest lines, in order
    assert sum(line.endswith("opened ---") for line in said) == rounds
