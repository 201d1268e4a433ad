"""The window reading the simulated shoe over a pseudo-terminal, through the real reader."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from app.core.cards import parse_cards
from app.core.round import Phase, Round, RoundRules
from app.core.table import Action
from app.ui.screenshots import SHOWCASE, SHOWCASE_RNG, stacked_deck
from app.ui.shoe import SerialShoe
from drivers.shoe.simulator import PtyLink, Simulator


def test_a_round_dealt_by_the_simulated_shoe_over_a_pty(make_station, qtbot, tmp_path):
    link = PtyLink(str(tmp_path / "shoe"))
    link.open()
    shoe = SerialShoe(str(link.link))
    try:
        s = make_station(shoe=shoe)
        qtbot.waitUntil(lambda: shoe.online, timeout=5000)
        assert s.window.devices[0].text() == f"Shoe: online: {link.link}"
        s.key("N")
        for seat, dollars in ((1, "25"), (3, "50")):
            s.key(str(seat))
            s.key("W")
            s.type(dollars)
            s.key(Qt.Key.Key_Escape)
        deck = stacked_deck(SHOWCASE, 3)
        sim = Simulator(link, deck=deck, action="none", heartbeat=0.2, linger=3.0)
        runner = threading.Thread(target=sim.run, daemon=True)
        runner.start()
        # The shoe deals before action is taken: the cards wait for action.
        qtbot.waitUntil(lambda: s.controller.leftovers is not None, timeout=10000)
        assert s.controller.stream == list(deck[:49])
        assert s.controller.round.phase is Phase.BETTING
        s.key("R")
        s.wait_phase(Phase.SETTING)
        assert {c.card for c in s.seat(5).cards} == set(parse_cards(SHOWCASE[5]))
        for seat in (3, 1):
            s.key(str(seat))
            s.key("H")
        s.key("S")
        core = Round(RoundRules())
        core.place_wager(1, 2500)
        core.place_wager(3, 5000)
        core.set_action(Action.draw(lambda n: SHOWCASE_RNG))
        core.deal_stacks([deck[i:i + 7] for i in range(0, 49, 7)], deck[49:])
        core.house_way(3)
        core.house_way(1)
        assert s.controller.round.slip.to_dict() == core.settle().to_dict()
        sim.stop()
        runner.join(5)
    finally:
        shoe.close()
        link.close()
