"""Every card is kept (the ledger port's `keep_deal`) as it is read, before the round is
given it, and a session rebuilt after a restart puts each back at its place; the shoe is
asked for what followed the last number kept (deal.resume_point)."""

from __future__ import annotations

from app.core.cards import DECK
from app.core.round import Phase
from app.session import CardRead, DealerCommand, DealerSession, MemoryLedger, ShoeStatus
from app.session.deal import resume_point


def _dealing(ledger: MemoryLedger) -> DealerSession:
    s = DealerSession(ledger=ledger, randbelow=lambda n: 2)
    ledger.open_shift("Ann")
    s.handle(ShoeStatus(True, "online", "online"))
    s.handle(DealerCommand("new"))
    s.handle(DealerCommand("select", "1"))
    s.handle(DealerCommand("wager", "25"))
    s.handle(DealerCommand("rng"))
    assert s.round is not None and s.round.phase is Phase.DEALING
    return s


def test_each_card_read_is_kept_before_the_round_takes_it() -> None:
    ledger = MemoryLedger()
    s = _dealing(ledger)
    for i, c in enumerate(DECK[:20]):
        s.handle(CardRead(c, 4 + i, 4))
        assert ledger.deal is not None and len(ledger.deal["cards"]) == i + 1
    assert ledger.deal["cards"][19] == [19, str(DECK[19]), 23]
    assert resume_point(ledger.deal) == (4, 23)


def test_a_session_rebuilt_mid_deal_has_every_card_in_its_place_and_takes_the_rest() -> None:
    ledger = MemoryLedger()
    s = _dealing(ledger)
    for i, c in enumerate(DECK[:20]):
        s.handle(CardRead(c, 4 + i, 4))
    assert s.round is not None
    kept = dict(ledger.deal or {})
    again = DealerSession(ledger=ledger)
    again.handle(ShoeStatus(True, "online", "online"))
    again.resume(s.round, kept)
    assert again.deal.stream == list(DECK[:20])
    assert "20 card(s) read before it stopped are back in their places" in again.message
    assert "after its message 23" in again.message
    for i, c in enumerate(DECK[20:], start=20):  # the shoe's answer to RESEND 24..
        again.handle(CardRead(c, 4 + i, 4))
    rnd = again.round
    assert rnd is not None and rnd.deal is not None and rnd.phase is not Phase.DEALING
    # from action, seven cards a hand: the k-th hand dealt is cards 7k+1 .. 7k+7 of the deal
    assert [set(hand) for hand in rnd.deal.hands] == [set(DECK[7 * k:7 * k + 7])
                                                      for k in range(7)]
    assert set(rnd.deal.leftovers) == set(DECK[49:])


def test_a_card_the_ledger_refuses_to_keep_is_said_and_the_deal_goes_on() -> None:
    ledger = MemoryLedger()
    s = _dealing(ledger)
    ledger.refuse = "the disk is full"
    changes = s.handle(CardRead(DECK[0], 4, 4))
    assert "The ledger did not take this change (the disk is full)" in changes.message
    assert s.deal.stream == [DECK[0]]


def test_once_the_ledger_refuses_a_write_no_new_wager_is_taken_and_the_station_says_why(
        ) -> None:
    from app.session import KeyPressed
    ledger = MemoryLedger()
    s = DealerSession(ledger=ledger)
    ledger.open_shift("Ann")
    s.handle(KeyPressed("N"))
    ledger.refuse = "the station cannot write its journal (database or disk is full)"
    s.handle(DealerCommand("select", "1"))
    first = s.handle(DealerCommand("wager", "25"))  # taken: the round goes on, said
    assert "did not take this change" in first.message
    s.handle(DealerCommand("select", "2"))
    refused = s.handle(DealerCommand("wager", "40"))
    assert not refused.done
    assert "the ledger cannot record now" in refused.message and "disk is full" in \
        refused.message and "no wager is taken" in refused.message
    assert s.round is not None and 2 not in s.round.wagers
    ledger.refuse = None  # room again: the next change goes through and wagers are taken
    s.handle(DealerCommand("select", "1"))
    s.handle(DealerCommand("wager", "30"))
    again = s.handle(DealerCommand("wager", "30"))
    assert again.done, again.message
