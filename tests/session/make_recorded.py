"""Make the golden recorded session (run once; its output is committed):

    PYTHONPATH=. python -m tests.session.make_recorded

A short shift played through the session by events only: the dealer's shift opened, a house
bank round, a misdeal and the deal again, a player bank with a foul, a dragon, a slip the
printer kept and printed again. It writes tests/session/recorded/shift.jsonl (the events)
and shift.slips.txt (the slips the session settled, as printed). test_replay.py replays the
file and must print the same slips, like a perft file in a chess engine.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from itertools import count
from pathlib import Path

from app.core.round import RoundRules
from app.core.settlement import Slip
from app.core.table import DEALER
from app.session import DealerSession, FrontTyped, MemoryLedger, MemoryPrinter
from app.session.record import JsonlRecorder
from drivers.printer.layout import slip_text

from .play import BANK_WEAK, MIDDLE, STRONG, WEAKER, WEAKER_TOO, Play, stacked

HERE = Path(__file__).parent / "recorded"
DRAWS = (1, 1, 3, 5)  # randbelow's answers: the RNG's draws, recorded in the file
START = datetime(2025, 3, 14, 21, 0, tzinfo=UTC)


def play_shift(stream: io.StringIO) -> tuple[DealerSession, MemoryLedger, MemoryPrinter]:
    ledger, printer = MemoryLedger(), MemoryPrinter()
    draws, ticks = iter(DRAWS), count()
    s = DealerSession(RoundRules(), ledger=ledger, printer=printer,
                      recorder=JsonlRecorder(stream), randbelow=lambda _n: next(draws),
                      clock=lambda: START + timedelta(seconds=next(ticks)))
    p = Play(s)
    p.key("N")  # refused: no shift yet
    p.key("F3")
    p.cmd("shift", "Ann Lee")
    p.shoe(True)
    # Round 1: the dealer banks; seat 1 wins, seat 3 loses.
    p.key("N")
    p.wagers({1: "25", 3: "40"})
    p.key("R")  # draw 1: action 2 -> seat 1
    p.read(stacked(s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    p.key("Shift+Q")
    p.house_way_all()
    p.key("S")
    p.key("P")
    # Round 2: seat 1 passes the bank, seat 3 takes it... after a misdeal.
    p.key("N")
    p.key("Q")  # seat 1 passes; seat 3 is offered
    p.key("Q")  # seat 3 passes too: the dealer banks
    p.wagers({1: "30", 5: "25"})
    p.key("R")  # draw 1: seat 1
    cards = stacked(s.table, 1, {1: MIDDLE, 5: WEAKER, DEALER: WEAKER_TOO})
    p.read(cards[:52] + [cards[3]])  # a card read twice: misdeal
    p.key("R")  # draw 3: action 4 -> seat 3
    cards = stacked(s.table, 3, {1: MIDDLE, 5: WEAKER, DEALER: WEAKER_TOO})
    p.read(cards[:49])
    p.burn(cards[49:])
    p.key("G")
    p.cmd("dragon", "20")  # seat 5 (first from action) takes seat 3's unused hand
    p.key("Shift+Q")
    p.seat(1)
    s.handle(FrontTyped("AC KD"))  # a foul: the hand forfeits
    p.key("F")
    p.house_way_all()
    p.key("S")
    printer.fail = "The printer is out of paper: load a roll, then P."
    p.key("P")
    p.key("P")  # the kept slip
    # Round 3: seat 5 banks (it wagered against the dealer last round).
    p.key("N")
    while s.bank_offered() not in (5, None):
        p.key("Q")
    p.key("B")
    p.cmd("bank", "300")
    p.wagers({1: "25", 3: "25"})
    p.key("R")  # draw 5: action 6 counted from seat 5
    rnd = s.round
    assert rnd is not None and rnd.action is not None
    p.read(stacked(s.table, rnd.action.position,
                   {1: STRONG, 3: WEAKER, 5: BANK_WEAK, DEALER: WEAKER_TOO}))
    p.key("Shift+Q")
    p.house_way_all()
    p.key("S")
    p.key("P")
    p.key("Shift+P")
    return s, ledger, printer


def printed_slips(printer: MemoryPrinter) -> list[Slip]:
    """The slips as they first printed (a kept slip when it printed at last)."""
    return [slip for job, slip in printer.printed if job.kind == "slip"]


def main() -> None:
    stream = io.StringIO()
    _, _, printer = play_shift(stream)
    HERE.mkdir(exist_ok=True)
    (HERE / "shift.jsonl").write_text(stream.getvalue())
    slips = printed_slips(printer)
    (HERE / "shift.slips.txt").write_text("\n".join(slip_text(s) for s in slips))
    print(f"{len(stream.getvalue().splitlines())} lines, {len(slips)} slips")


if __name__ == "__main__":
    main()
