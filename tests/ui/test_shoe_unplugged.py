"""The demo shoe unplugged (O) stays unplugged until O plugs it back (issue 25: "once, the
shoe came back online by itself after O and a typed deal, and a stray 'The shoe read 4H
with no deal open' replaced the dragon's confirmation").

Why it happened: the demo shoe's unplugging waited in the same queue as its deals, behind a
deal under way (the simulator deals a whole round in one go), and `stop_deal`, which the
station asks when a deal ends (the shoe's or a typed one), emptied that queue: an unplugging
asked while a deal ran was dropped. The shoe then dealt on, plugged in and heard, while the
session had taken it for offline: its late cards arrived during the next step, and its
status came back "online" without the dealer. Now plugging is apart from the deals and
done between two cards, and the session uses nothing a shoe the dealer unplugged reads."""

from __future__ import annotations

from app.core.round import Phase
from app.ui.shoe import PtyDemoShoe

from .conftest import Station


def test_a_deal_stopped_right_after_the_unplugging_does_not_drop_it(qtbot):
    shoe = PtyDemoShoe(seed=5, card_delay=0.0)
    try:
        qtbot.waitUntil(lambda: shoe.online, timeout=60_000)
        shoe.set_online(False)
        shoe.stop_deal()  # a deal ended at that moment: the unplugging stays asked

        def unplugged() -> None:
            # The simulator's thread pulls the plug (dropped, it never would); the reader
            # may say offline first, on a missed heartbeat of a busy machine (CI saw it).
            assert not shoe.sim.plugged, "the simulator is still plugged in"
            assert not shoe.online, "the reader still says online"

        qtbot.waitUntil(unplugged, timeout=60_000)
        qtbot.wait(1500)  # the reader tries the port again: nothing comes back
        assert not shoe.online and not shoe.sim.plugged
    finally:
        shoe.close()


def test_o_in_the_middle_of_a_deal_unplugs_the_shoe_at_once_and_no_later_card_is_used(
        make_station, qtbot):
    shoe = PtyDemoShoe(seed=5, card_delay=0.05)
    s: Station = make_station(shoe=shoe)
    try:
        qtbot.waitUntil(lambda: shoe.online, timeout=60_000)
        s.key("N")
        s.key("1")
        s.key("W")
        s.type("25")
        s.key("R")
        session = s.session
        qtbot.waitUntil(lambda: len(session.deal.stream) >= 5, timeout=60_000)
        s.key("O")
        assert s.window.devices[0].text() == "Shoe: unplugged"  # said at once, not orange
        read = len(session.deal.stream)
        qtbot.waitUntil(lambda: not shoe.sim.plugged, timeout=60_000)
        qtbot.wait(3000)  # longer than the rest of the deal would take
        assert len(session.deal.stream) <= read + 1  # at most a card already on the line
        assert session.round is not None and session.round.phase is Phase.DEALING
        assert not session.devices.shoe_online and not shoe.online
        assert s.window.devices[0].text() == "Shoe: unplugged"
    finally:
        shoe.close()


def test_stop_deal_stops_a_demo_deal_already_under_way_and_the_next_deal_is_whole(qtbot):
    """A misdeal or a deal typed by hand ends the deal: the demo shoe's simulator stops
    before its next card and sends no leftovers, and the next deal asked is dealt whole."""
    shoe = PtyDemoShoe(seed=5, card_delay=0.05)
    cards: list[object] = []
    leftovers: list[object] = []
    shoe.card_at.connect(lambda card, *_: cards.append(card))
    shoe.leftovers_read.connect(leftovers.append)
    try:
        qtbot.waitUntil(lambda: shoe.online, timeout=5000)
        shoe.start_deal()
        qtbot.waitUntil(lambda: len(cards) >= 5, timeout=5000)
        shoe.stop_deal()
        read = len(cards)
        qtbot.wait(3000)  # longer than the other 44 cards would take
        assert len(cards) <= read + 1  # at most a card already on the line
        assert leftovers == []
        assert shoe.online  # stopped, not unplugged
        cards.clear()
        shoe.start_deal()
        qtbot.waitUntil(lambda: len(leftovers) == 1, timeout=10000)
        assert len(cards) == 49
    finally:
        shoe.close()
