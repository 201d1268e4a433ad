"""Issue 11: "A dragon hand's cards are not shown until a player has taken it." The hand of
a place with no wager arrives face down while the shoe deals, stays face down while it is
offered, is opened when a seat takes it, and a hand no one took is mucked unseen."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.core.cards import Card
from app.core.round import Phase
from app.ui.screenshots import SHOWCASE, stacked_deck
from app.ui.shoe import DemoShoe

from .conftest import SHOWCASE_ACTION


def shown(cards: list) -> list[Card]:  # noqa: ANN001 - the seat's CardWidgets
    """The faces a seat shows: every card dealt to it that is not face down."""
    return [cw.card for cw in cards if cw.card is not None and not cw.face_down]


def wagers(s, amounts: dict[int, str]) -> None:  # noqa: ANN001 - the Station
    for seat, dollars in amounts.items():
        s.key(str(seat))
        s.key("W")
        s.type(dollars)
        s.key(Qt.Key.Key_Escape)  # back to the table, whatever the field does after Enter


def test_a_hand_with_no_wager_arrives_face_down_while_the_shoe_deals(make_station):
    # A card every 40 ms: seat 4's seven cards (dealt second from action on seat 3) are in
    # long before the last of the 53.
    shoe = DemoShoe([stacked_deck(SHOWCASE, SHOWCASE_ACTION)], interval_ms=40)
    s = make_station(shoe=shoe)
    s.key("N")
    wagers(s, {1: "25", 3: "50", 5: "100"})
    s.key("R")
    s.qtbot.waitUntil(lambda: len(s.session.dealing().get(4, ())) == 7, timeout=60_000)
    assert s.session.round is not None and s.session.round.phase is Phase.DEALING
    four = s.seat(4).cards
    assert sum(cw.card is not None for cw in four) == 7
    assert all(cw.face_down for cw in four if cw.card is not None)
    assert shown(four) == []
    assert all(cw.toolTip() == "" for cw in four)  # no card named in a tooltip either
    assert len(shown(s.seat(3).cards)) == 7  # a seat with a wager shows its hand as dealt
    s.wait_phase(Phase.SETTING)
    assert shown(s.seat(4).cards) == []  # on offer: taken unseen


def test_the_dragon_is_opened_when_a_seat_takes_it_and_the_others_are_mucked_unseen(
        make_station):
    s = make_station()
    s.key("N")
    wagers(s, {1: "25", 3: "50", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    rnd = s.session.round
    assert rnd is not None and rnd.dragon_hands() == (4, 6, 2)
    for unused in (4, 6, 2):
        assert shown(s.seat(unused).cards) == []
    s.key("Q")  # seat 3 passes; seat 5 takes it for $40
    s.key("G")
    s.window.panel.fields["dragon"].clear()
    s.type("40")
    assert rnd.dragons == {4: (5, 4000)}
    assert len(shown(s.seat(4).cards)) == 7
    for mucked in (6, 2):
        assert s.seat(mucked).state.mucked
        assert shown(s.seat(mucked).cards) == []


def test_no_one_takes_the_dragon_every_unused_hand_stays_unseen(make_station):
    s = make_station()
    s.key("N")
    wagers(s, {1: "25", 3: "50", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    assert s.session.dragon_offered() is None
    for unused in (4, 6, 2):
        assert shown(s.seat(unused).cards) == []
    s.key("S")  # the round settles with every hand set the House Way
    for unused in (4, 6, 2):
        assert shown(s.seat(unused).cards) == []
