"""Same wagers as last round (L): last round's wagers shown seat by seat, then set at once by
Enter (or Y, or L again). A seat's key leaves that seat out (its player has gone) or puts it
back; Esc sets none. Each wager is set as a typed one is (wager_limits.verify_wager: the
table's limits, a seat that banks, a bank that must cover it); one refused is named with
why, and the rest are set. Any seat is changed after as usual (its key, W; X takes it back).
"""

from __future__ import annotations

from app.core.round import Round
from app.core.table import TableError

from . import checks, progressive
from .outbox import DEALER_ERRORS
from .parts import Parts
from .wager_limits import SameWagers, verify_wager

# While the offer is open these keys answer it; any other is refused until then.
ANSWERS = {"Enter": "set", "Y": "set", "L": "set", "Esc": "leave"}


def offer(p: Parts) -> None:
    """L: last round's wagers for the seats with none yet, shown; nothing set."""
    checks.same_wagers(p)
    rnd = p.play.need_round()
    wagers = {seat: cents for seat, cents in sorted(p.play.last_round.items())
              if seat not in rnd.wagers}
    bonus = {seat: cents for seat, cents in p.play.last_bonus.items() if seat in wagers
             and rnd.rules.bonus is not None}
    card = rnd.rules.progressive
    progressive = ({seat: card.wager for seat in sorted(p.play.last_progressive)
                    if seat in wagers} if card is not None else {})
    same = SameWagers(wagers, set(), bonus, progressive)
    p.keyboard.same = same
    p.say(same.words(), "info")


def answer(p: Parts, key: str) -> bool:
    """A key while the offer is open: Enter / Y / L set them, Esc sets none, 1-6 leave a
    seat out or put it back; any other key does nothing until then."""
    same = p.keyboard.same
    assert same is not None
    what = ANSWERS.get(key)
    if what == "set":
        return p.out.attempt(lambda: set_them(p))
    if what == "leave":
        leave(p)
        return True
    if key.isdigit() and int(key) in same.wagers:
        toggle(p, int(key))
        return True
    p.say(f"{same.words()} ({key} does nothing until then.)", "warn")
    return False


def toggle(p: Parts, seat: int) -> None:
    same = p.keyboard.same
    assert same is not None
    if seat not in same.wagers:
        raise TableError(f"seat {seat} had no wager last round: {same.words()}")
    same.left_out ^= {seat}
    p.say(same.words(), "info")


def leave(p: Parts) -> None:
    p.keyboard.same = None
    p.say("Nothing set: last round's wagers are left. Type each wager (a seat's key, W).",
          "info")


def set_them(p: Parts) -> None:
    """Each seat's wager as last round, set one by one with the checks of a typed wager."""
    same = p.keyboard.same
    assert same is not None
    rnd = p.play.need_round()
    checks.verify_ledger_takes(p, "wager")
    p.keyboard.same = None
    placed: list[int] = []
    refused: list[str] = []
    for seat, cents in same.wagers.items():
        if seat in same.left_out:
            continue
        try:
            verify_wager(rnd, seat, cents)
            p.play.change(Round.place_wager, seat, cents)
        except DEALER_ERRORS as e:
            refused.append(f"seat {seat} - {refusal(rnd, seat, str(e))}")
            continue
        placed.append(seat)
        if seat in same.bonus:
            try:  # the bonus's own limits may have changed since
                p.play.change(Round.place_bonus, seat, same.bonus[seat])
            except DEALER_ERRORS as e:
                refused.append(f"seat {seat}'s bonus - {e}")
        if seat in same.progressive:
            try:  # not while the meter cannot be reached
                progressive.verify_open(p)
                p.play.change(Round.place_progressive, seat)
            except DEALER_ERRORS as e:
                refused.append(f"seat {seat}'s progressive - {e}")
    if placed:
        p.keyboard.select(placed[0])
    said = ("Same wagers as last round: " + ", ".join(
        f"seat {seat} {same.amounts(seat)}" for seat in placed) + " set."
        if placed else "No wager of last round is set.")
    out = [f"seat {s}" for s in same.wagers if s in same.left_out]
    if out:
        said += f" Left out: {', '.join(out)}."
    if refused:
        said += " Not set: " + "; ".join(refused) + "."
    said += (f" Change a seat with its key and W (X takes it back); action with "
             f"{p.deal.action_key(rnd)} when the wagers are in.")
    p.say(said, "warn" if refused else "ok")


def refusal(rnd: Round, seat: int, why: str) -> str:
    """The core's reason, as the dealer says it of this seat."""
    if rnd.bank.player == seat:
        return f"seat {seat} banks this round and wagers nothing against its own bank"
    why = why.removeprefix(f"Seat {seat}: ")
    return why.split(": nothing is set")[0]
