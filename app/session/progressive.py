"""The linked progressive at the station (issue 27, docs/progressive.md): a seat's
progressive wager (J, Shift+J, "same as last round"), the meter's reach, and a hit paid
after a supervisor's sign-in.

- The wager is the card's amount, one a seat a round, placed and taken back as the bonus
  is (the core's `Round.place_progressive`); it goes onto the meter with the settlement.
- While the meter cannot be reached (`MeterStatus`, from the window's reading of it) the
  progressive is closed: no new wager is taken; those already taken stay and contribute
  when the round's settlement reaches the ledger.
- A settled round whose seats hit waits (`Progressive.hit_round`) until a supervisor signs
  in (F2, Pay progressive) and the meter pays it as it stands then; while the meter cannot
  be reached it waits for the meter, and is never paid from a guessed amount.
- The hits the ledger owes from before (a station stopped before the sign-in) come as a
  `HitsOwed` event, found in the ledger at start and when the meter is back: listed, and
  paid as a hit at settlement is, one round a sign-in, the oldest first.
"""

from __future__ import annotations

from dataclasses import replace

from app.core.round import Phase, Round
from app.core.settlement import money
from app.core.table import TableError, position_name

from . import checks, words
from .events import HitsOwed, MeterStatus, ProgressivePaid
from .meter import CLOSED
from .parts import Parts

# --- the checks -------------------------------------------------------------------------

def verify_open(p: Parts) -> None:
    """No new progressive wager while the meter cannot be reached, nor while the ledger
    cannot record it."""
    progressive = p.play.progressive
    if not progressive.online:
        # the why (a database's own words, its address) is on a tap of the felt's meter and
        # in the log: in the message it pushed the panel's buttons off a station's screen
        raise TableError(f"{CLOSED}: no new progressive wager is taken until it can; the "
                         f"wagers already taken stay (tap the meter for why)")
    checks.verify_ledger_takes(p, "progressive wager")


def check_place(p: Parts) -> None:
    rnd = p.play.need_round()
    if rnd.rules.progressive is None:
        raise TableError("this table is on no progressive")
    verify_open(p)
    rnd.verify_place_progressive(p.need_position())


def check_withdraw(p: Parts) -> None:
    p.play.need_round().verify_withdraw_progressive(p.need_position())


def check_pay(p: Parts) -> None:
    progressive = p.play.progressive
    if not progressive.due():
        raise TableError("no progressive hit waits to be paid")
    if progressive.paying:
        raise TableError("the hit is being paid: wait for the meter's answer")
    if not progressive.online:
        raise TableError(f"the progressive hit waits for the meter ({progressive.why}): it "
                         f"is paid, after the sign-in, once the meter can be reached; never "
                         f"from a guessed amount")


# --- the steps ----------------------------------------------------------------------------

def place(p: Parts) -> None:
    """J: the selected seat's progressive wager, the card's amount."""
    check_place(p)
    rnd = p.play.need_round()
    seat = p.need_position()
    record = p.play.change(Round.place_progressive, seat)
    p.say(f"{words.name(seat)} progressive {money(record.wager)}. Select the next seat with "
          f"a progressive, or action with {p.deal.action_key(rnd)} when the wagers are in.",
          "ok")


def withdraw(p: Parts) -> None:
    """Shift+J: the selected seat takes back its progressive wager while the bets are open."""
    p.play.need_round()
    seat = p.need_position()
    record = p.play.change(Round.withdraw_progressive, seat)
    p.say(f"{words.name(seat)} takes back the progressive {money(record.wager)}.", "ok")


def after_settle(p: Parts, rnd: Round) -> str:
    """A settled round's hits wait for a supervisor (or for the meter); the words to add to
    the settlement's."""
    slip = rnd.slip
    if slip is None or slip.progressive is None or not slip.progressive.hits():
        return ""
    p.play.progressive.hit_round = rnd
    # kept short: the settlement's words come first, and the panel's buttons stay in sight
    hits = "; ".join(f"{position_name(x.seat)} {x.hand}" for x in slip.progressive.hits())
    if not p.play.progressive.online:
        return (f" PROGRESSIVE HIT: {hits}. It waits for the meter, which cannot be reached "
                f"now; then a supervisor signs in (F2).")
    p.out.show("pay_progressive")  # the pit's sign-in, open for the supervisor
    return f" PROGRESSIVE HIT: {hits}. Paid once a supervisor signs in (F2)."


def pay(p: Parts, by: str, secret: str) -> None:
    """A supervisor signs in for the oldest round whose hits wait; the ledger pays them
    from the meter as it stands now (the answer now, or later as a `ProgressivePaid`
    event)."""
    check_pay(p)
    who = p.play.authorise(by, secret, "progressive")
    due = p.play.progressive.due()[0]
    ledger = p.play.ledger
    if ledger is None:
        raise TableError("this station has no ledger: the progressive's meter is in the "
                         "ledger, so no hit can be paid here")
    if due.owed:
        answer = ledger.pay_owed_progressive(due.owed, who)
    else:
        rnd = p.play.progressive.hit_round
        assert rnd is not None
        answer = ledger.pay_progressive(rnd, who)
    if answer is None:
        p.play.progressive.paying = True
        p.say(f"{who.name} signed in: paying the progressive hit from the meter...", "info")
        return
    p.out.paid.append(answer)
    paid(p, answer)


def paid(p: Parts, answer: ProgressivePaid) -> None:
    """The ledger's answer: the hits paid (the slip shows what each took), or why not."""
    progressive = p.play.progressive
    progressive.paying = False
    rnd = progressive.hit_round
    owed = [d for d in progressive.due() if d.owed and d.round_no == answer.round]
    live = rnd is not None and rnd.rotation.round_no == answer.round and rnd.slip is not None
    if not live and not owed:
        raise TableError(f"the meter's answer is for round {answer.round}, whose hit no "
                         f"longer waits here")
    if answer.error:
        p.say(f"The progressive hit is not paid: {answer.error}", "error")
        return
    progressive.paid(answer.round)
    said = "; ".join(f"{position_name(h.seat)} {money(h.paid)}" for h in answer.hits)
    p.out.note(f"Progressive hit of round {answer.round} paid (signed in by {answer.by}): "
               f"{said}")
    then = ""
    if live and rnd is not None and rnd.slip is not None:
        result = rnd.slip.progressive
        assert result is not None
        by_seat = {h.seat: h for h in answer.hits}
        lines = tuple(replace(x, paid=by_seat[x.seat].paid,
                              from_meter=by_seat[x.seat].from_meter,
                              fixed=by_seat[x.seat].fixed, by=answer.by)
                      if x.seat in by_seat else x for x in result.lines)
        rnd.progressive_paid(replace(result, lines=lines))
        progressive.hit_round = None
        p.out.settled(rnd.slip)
        then = " P prints the slip with it." if p.devices.printer_attached else ""
    if not live or rnd is not p.round or (rnd is not None and rnd.phase is not Phase.SETTLED):
        then = " Shift+P in the pit's history prints that round's slip again."
    more = progressive.due()
    if more:
        then += (f" Another progressive hit waits: {more[0].words()}. A supervisor signs in "
                 f"again (F2, Pay progressive).")
    p.say(f"Progressive paid from the meter, signed in by {answer.by}: {said}.{then}", "ok")


def owed(p: Parts, event: HitsOwed) -> None:
    """The hits the ledger owes, as the station found them there: listed, each round paid
    after a supervisor's sign-in (this run's own round waiting stays as it is)."""
    progressive = p.play.progressive
    known = {d.round_no for d in progressive.due()}
    progressive.owed = event.hits
    new = [d for d in progressive.due() if d.owed and d.round_no not in known]
    if not new:
        return
    words = "; ".join(d.words() for d in new)
    p.out.note(f"Progressive hit waiting: {words}")
    if not progressive.online:
        p.say(f"Progressive hit waiting: {words}. It is paid once the meter can be reached, "
              f"after a supervisor's sign-in (F2, Pay progressive).", "warn")
        return
    p.say(f"Progressive hit waiting: {words}. A supervisor signs in to pay it (F2, Pay "
          f"progressive).", "warn")


def meter_status(p: Parts, event: MeterStatus) -> None:
    progressive = p.play.progressive
    if progressive.online == event.online and progressive.why == event.why:
        return
    progressive.online, progressive.why = event.online, event.why
    if event.online:
        p.say("The progressive's meter is back: progressive wagers are taken again."
              + (" The hit that waited is paid after a supervisor's sign-in (F2, Pay "
                 "progressive)." if progressive.due() else ""), "ok")
        return
    p.out.note(f"{CLOSED} ({event.why})")
    p.say(f"{CLOSED}. No new progressive wager is taken; the wagers already taken stay and "
          f"go to the meter with the settlement (tap the meter for why).", "warn")
