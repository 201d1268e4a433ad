"""The window reading a shoe over a pseudo-terminal, through the real reader: the simulator
dealing, a shuffler's ACTION, a shoe that never reads the leftovers, and `--demo` itself."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt

from app.core.cards import cards_text, parse_cards
from app.core.round import Phase, Round, RoundRules
from app.core.table import DEALER, Action, ActionSource, Table
from app.ui.main import build, parse_args
from app.ui.screenshots import SHOWCASE, SHOWCASE_RNG, stacked_deck
from app.ui.shoe import PtyDemoShoe, SerialShoe
from drivers.action import Origin
from drivers.shoe.protocol import encode_line
from drivers.shoe.simulator import Injection, PtyLink, ShoeDevice, Simulator

from .conftest import Station


class PtyShoe:
    """A pseudo-terminal for the shoe's cable, the station's reader on it, and simulators
    started on demand on the other end."""

    def __init__(self, path: str) -> None:
        self.link = PtyLink(path)
        self.link.open()
        self.shoe = SerialShoe(str(self.link.link))
        self.sims: list[tuple[Simulator, threading.Thread]] = []

    def deal(self, **options: object) -> Simulator:
        sim = Simulator(self.link, heartbeat=0.2, linger=3.0, **options)  # type: ignore[arg-type]
        runner = threading.Thread(target=sim.run, daemon=True)
        runner.start()
        self.sims.append((sim, runner))
        return sim

    def close(self) -> None:
        for sim, runner in self.sims:
            sim.stop()
            runner.join(5)
        self.shoe.close()
        self.link.close()


@pytest.fixture
def pty(tmp_path) -> Iterator[PtyShoe]:  # noqa: ANN001
    shoe = PtyShoe(str(tmp_path / "shoe"))
    try:
        yield shoe
    finally:
        shoe.close()


def wagers(s: Station, amounts: dict[int, str]) -> None:
    for seat, dollars in amounts.items():
        s.key(str(seat))
        s.key("W")
        s.type(dollars)
        s.key(Qt.Key.Key_Escape)


def house_way_all(s: Station) -> None:
    rnd = s.session.round
    for position in rnd.pending():
        if rnd.can_set_hand(position):
            s.key("7" if position == DEALER else str(position))
            s.key("H")


def core_round(wagered: dict[int, int], action: Action, deck, leftovers=True) -> Round:  # noqa: ANN001
    core = Round(RoundRules())
    for seat, cents in wagered.items():
        core.place_wager(seat, cents)
    core.set_action(action)
    core.deal_stacks([deck[i:i + 7] for i in range(0, 49, 7)],
                     deck[49:53] if leftovers else None)
    for seat in core.dragon_order():
        core.pass_dragon(seat)
    for seat in sorted(wagered):
        core.house_way(seat)
    return core


def device_number(seed: int) -> int:
    """The RNG number the simulator seeded so sends first (a fixed deck draws nothing else)."""
    return random.Random(seed).randint(1, 7)


def test_a_round_dealt_by_the_simulated_shoe_over_a_pty(make_station, qtbot, pty):
    s = make_station(shoe=pty.shoe)
    qtbot.waitUntil(lambda: pty.shoe.online, timeout=60_000)
    assert s.window.devices[0].text() == "Shoe: online"
    assert s.window.devices[0].toolTip() == f"Shoe online: {pty.link.link}"
    s.key("N")
    wagers(s, {1: "25", 3: "50"})
    deck = stacked_deck(SHOWCASE, 3)
    pty.deal(deck=deck, action="none")
    # The shoe deals before action is taken: the cards wait for action.
    qtbot.waitUntil(lambda: s.session.deal.leftovers is not None, timeout=60_000)
    assert s.session.deal.stream == list(deck[:49])
    assert s.session.round.phase is Phase.BETTING
    assert s.window.devices[0].toolTip() == f"Shoe online: {pty.link.link} (PAIGOW-SIM)"
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert {c.card for c in s.seat(5).cards} == set(parse_cards(SHOWCASE[5]))
    s.everyone_passes()
    house_way_all(s)
    s.key("S")
    core = core_round({1: 2500, 3: 5000}, Action.draw(lambda n: SHOWCASE_RNG), deck)
    assert s.session.round.slip.to_dict() == core.settle().to_dict()


def test_action_sent_by_the_shuffler_is_the_rounds_action_with_its_source(
        make_station, qtbot, pty):
    seed = 11
    number = device_number(seed)
    position = Table().count(number)
    deck = stacked_deck(SHOWCASE, position)
    s = make_station(shoe=pty.shoe)
    qtbot.waitUntil(lambda: pty.shoe.online, timeout=60_000)
    s.key("N")
    wagers(s, {1: "25", 3: "50", 5: "10"})
    pty.deal(deck=deck, action="rng", seed=seed)
    s.wait_phase(Phase.SETTING)
    rnd, c = s.session.round, s.session
    assert rnd.action.action == Action(number, ActionSource.RNG, drawn_by="device")
    assert rnd.action.position == position
    assert c.deal.action_input.origin is Origin.DEVICE
    assert c.deal.action_input.device == "PAIGOW-SIM" and c.deal.action_input.seq == 3
    assert s.window.felt.center.action.text() == (
        f"Action: RNG {number} (sent by the shuffler PAIGOW-SIM) -> "
        f"{'dealer' if position == DEALER else f'seat {position}'}")
    assert f"Action RNG {number} sent by the PAIGOW-SIM, message 3" in c.log
    s.everyone_passes()
    house_way_all(s)
    s.key("S")
    assert rnd.slip.to_dict()["action"]["drawn_by"] == "device"
    core = core_round({1: 2500, 3: 5000, 5: 1000},
                      Action(number, ActionSource.RNG, drawn_by="device"), deck)
    assert rnd.slip.to_dict() == core.settle().to_dict()


def test_action_sent_before_the_wagers_waits_and_r_takes_it(make_station, qtbot, pty):
    seed = 5
    number = device_number(seed)
    deck = stacked_deck(SHOWCASE, Table().count(number))
    s = make_station(shoe=pty.shoe)
    qtbot.waitUntil(lambda: pty.shoe.online, timeout=60_000)
    s.key("N")
    pty.deal(deck=deck, action="rng", seed=seed)
    qtbot.waitUntil(lambda: s.session.deal.leftovers is not None, timeout=60_000)
    c = s.session
    assert c.deal.device_action is not None and c.round.action is None
    assert s.window.felt.center.action.text() == (
        f"Action: RNG {number} (sent by the shuffler PAIGOW-SIM) - R takes it")
    assert s.window.panel.buttons["rng"].text() == "Shuffler's action  [R]"
    wagers(s, {2: "30"})
    assert "R (the shuffler's RNG" in s.window.panel.next.text()
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert c.round.action.action.number == number and c.deal.action_input.origin is Origin.DEVICE
    assert s.window.panel.buttons["rng"].text() == "RNG action  [R]"


def test_action_from_the_shuffler_after_the_dealers_is_not_used_and_said_so(
        make_station, qtbot, pty):
    deck = stacked_deck(SHOWCASE, 3)
    s = make_station(shoe=pty.shoe)  # the station's RNG gives 4: seat 3
    qtbot.waitUntil(lambda: pty.shoe.online, timeout=60_000)
    s.key("N")
    wagers(s, {1: "25"})
    s.key("R")
    c = s.session
    assert c.round.action.position == 3 and c.deal.action_input.origin is Origin.STATION_RNG
    seen: list[str] = []
    s.window.changed.connect(lambda: seen.append(c.message))
    pty.deal(deck=deck, action="rng", seed=1)
    s.wait_phase(Phase.SETTING)
    said = (f"The shuffler sent action RNG {device_number(1)} (PAIGOW-SIM, message 3), but "
            f"this round's action is already RNG 4 (drawn by the station) -> seat 3, taken by "
            f"the dealer: the shuffler's number is not used.")
    assert said in seen
    assert any(line.endswith("not used, action already taken") for line in c.log)
    assert c.round.action.position == 3 and c.deal.action_input.origin is Origin.STATION_RNG
    assert {cw.card for cw in s.seat(3).cards} == set(parse_cards(SHOWCASE[3]))


def test_deal_complete_for_a_shoe_that_never_reads_the_leftovers(make_station, qtbot, pty):
    deck = stacked_deck(SHOWCASE, 3)
    s = make_station(shoe=pty.shoe)
    qtbot.waitUntil(lambda: pty.shoe.online, timeout=60_000)
    s.key("N")
    wagers(s, {1: "25", 3: "50"})
    s.key("R")
    b = s.window.panel.buttons
    assert not b["deal_done"].isEnabled()
    assert b["deal_done"].toolTip() == ("Not now: the shoe has read 0 of the 49 cards dealt: "
                                        "the deal is complete when every hand has its seven")
    lines = [encode_line("HELLO", 0, "NOBURN", "1.0"), encode_line("SHUFFLE", 1, "START")]
    lines += [encode_line("CARD", 2 + i, str(c)) for i, c in enumerate(deck[:49])]
    lines.append(encode_line("BEAT", 50))
    pty.link.write(b"".join(lines))
    c = s.session
    qtbot.waitUntil(lambda: len(c.deal.stream) == 49, timeout=60_000)
    assert c.round.phase is Phase.DEALING
    assert s.window.panel.next.text() == ("Next: the 49 cards dealt are read; waiting for the "
                                          "4 left over (BURN) - E if this shoe does not read "
                                          "them.")
    assert b["deal_done"].isEnabled()
    s.key("E")
    rnd = c.round
    assert rnd.phase is Phase.SETTING
    assert not rnd.deal.leftovers_counted and set(rnd.deal.leftovers) == set(deck[49:])
    assert (f"The 4 left over were not read: they are the cards not dealt, "
            f"{cards_text(rnd.deal.leftovers)}.") in s.message
    s.everyone_passes()
    house_way_all(s)
    s.key("S")
    core = core_round({1: 2500, 3: 5000}, Action.draw(lambda n: SHOWCASE_RNG), deck,
                      leftovers=False)
    expected = core.settle()
    assert rnd.slip.to_dict() == expected.to_dict()
    assert "(not read: the cards not dealt)" in rnd.slip.text()


def card_only_deal(make_station, qtbot, pty, **options: object):  # noqa: ANN001, ANN201
    """The dealer takes action (the station's RNG: seat 3), then a shoe that sends no
    SHUFFLE deals the showcase deck card by card over the pty; the station and what the
    dealer was told."""
    deck = stacked_deck(SHOWCASE, 3)
    s = make_station(shoe=pty.shoe)
    qtbot.waitUntil(lambda: pty.shoe.online, timeout=60_000)
    s.key("N")
    wagers(s, {1: "25", 3: "50"})
    s.key("R")
    assert s.session.round.action.position == 3
    told: list[str] = []
    s.window.changed.connect(lambda: told.append(s.session.message))
    pty.deal(deck=deck, action="none", shuffle=False, **options)
    return s, deck, told


def test_a_card_only_shoe_that_loses_the_deals_first_card_leaves_a_hole_at_card_1(
        make_station, qtbot, pty):
    # 500 messages into its count, the shoe loses the deal's first card for good (issue 23:
    # the second card was placed first and the 48 after it each one place early).
    s, deck, told = card_only_deal(make_station, qtbot, pty, device=ShoeDevice(seq=500),
                                   inject=(Injection("lose", 1),))
    c = s.session
    qtbot.waitUntil(lambda: c.deal.leftovers is not None, timeout=60_000)
    assert c.deal.stream == [None, *deck[1:49]]
    assert ("The shoe lost card 1 of the deal (seat 3's hand): the later cards are in their "
            "places. Type the missing card for its position (C), or call a misdeal.") in told
    s.key("3")
    s.key("C")
    s.type(str(deck[0]))
    s.wait_phase(Phase.SETTING)
    assert {cw.card for cw in s.seat(3).cards} == set(parse_cards(SHOWCASE[3]))
    assert {cw.card for cw in s.seat(5).cards} == set(parse_cards(SHOWCASE[5]))


def test_a_shoe_just_switched_on_is_asked_again_for_its_damaged_message_1(
        make_station, qtbot, pty):
    # HELLO,0 then message #1 damaged: before, no gap was seen and the deal started at #2.
    s, deck, told = card_only_deal(make_station, qtbot, pty, inject=(Injection("checksum", 1),))
    s.wait_phase(Phase.SETTING)
    assert s.session.round.deal.leftovers_counted
    assert {cw.card for cw in s.seat(3).cards} == set(parse_cards(SHOWCASE[3]))
    assert {cw.card for cw in s.seat(5).cards} == set(parse_cards(SHOWCASE[5]))
    assert any("asked the shoe to send them again" in m for m in told)


def test_the_demo_deals_over_a_pty_and_falls_back_to_cards_by_hand(qtbot):
    deck = stacked_deck(SHOWCASE, 3)
    window = build(parse_args(["--demo", "--deck", cards_text(deck)]))
    session = window.session
    assert session is not None
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    window.felt.setFocus()
    shoe = window.shoe
    assert isinstance(shoe, PtyDemoShoe)
    s = Station(window, session, shoe, qtbot)
    try:
        qtbot.waitUntil(lambda: shoe.online, timeout=60_000)
        assert window.devices[0].text() == "Shoe: online"
        assert window.devices[0].toolTip() == (f"Shoe online: demo shoe (simulator on "
                                               f"{shoe.link.path})")
        assert shoe.link.path.startswith("/dev/pts/")
        s.key("N")
        wagers(s, {1: "25", 3: "50", 5: "100"})
        s.key("R")
        rnd = session.round
        action = rnd.action
        # The cards arrive one by one over the pseudo-terminal and go to their seats.
        qtbot.waitUntil(lambda: 7 <= len(session.deal.stream) < 49, timeout=60_000)
        first = s.seat(action.position)
        assert all(cw.card is not None for cw in first.cards)
        s.wait_phase(Phase.SETTING)
        assert shoe.deals == 1
        s.everyone_passes()
        house_way_all(s)
        s.key("S")
        core = Round(RoundRules())
        for seat, cents in {1: 2500, 3: 5000, 5: 10000}.items():
            core.place_wager(seat, cents)
        core.set_action(action.action)
        stacks = [deck[i:i + 7] for i in range(0, 49, 7)]
        core.deal_stacks(stacks, deck[49:])
        for seat in core.dragon_order():
            core.pass_dragon(seat)
        for seat in (1, 3, 5):
            core.house_way(seat)
        assert rnd.slip.to_dict() == core.settle().to_dict()

        # Unplugged (O): the reader sees the port go, and the cards are typed by hand.
        s.key("O")
        qtbot.waitUntil(lambda: not shoe.online, timeout=60_000)
        assert window.devices[0].text() == "Shoe: unplugged"
        assert window.devices[0].toolTip() == ("Shoe offline: demo shoe unplugged (O plugs "
                                               "it back) - enter cards by hand (C)")
        s.key("N")
        s.everyone_passes()  # the bank, offered to seats 1, 3 and 5
        wagers(s, {2: "25"})
        s.key("R")
        assert "The shoe is offline: press C" in s.message
        for _ in range(7):
            s.key("C")
            s.type(SHOWCASE[session.keyboard.selected])
        assert session.round.phase is Phase.SETTING
        assert session.round.deal.mode == "by-position"
        assert shoe.deals == 1
        s.key("O")
        qtbot.waitUntil(lambda: shoe.online, timeout=60_000)
    finally:
        window.close()


def test_the_simulator_is_driven_from_outside_by_its_public_calls():
    """What the demo shoe uses: plug in, deal a round now (a given deck), pass the time,
    unplug until plugged back, plug in again - no private part of the driver."""
    import math

    from drivers.shoe.protocol import Burn, CardRead, Hello
    from tests.drivers.helpers import StationLink, cards_of

    link = StationLink()
    clock = [0.0]
    sim = Simulator(link, heartbeat=0, clock=lambda: clock[0])
    assert not sim.plugged and not sim.deal_now()  # unplugged: nothing dealt
    sim.plug()
    assert sim.plugged and isinstance(link.events[0], Hello)
    deck = stacked_deck(SHOWCASE, 3)
    assert sim.deal_now(deck)
    assert cards_of(link.events) == list(deck)
    assert isinstance(link.events[-1], Burn)
    sim.unplug(math.inf)
    assert not sim.plugged
    clock[0] += 1e6
    sim.idle(0)  # however long: it stays out until plugged back
    assert not sim.plugged and not sim.deal_now(deck)
    sim.plug()
    sim.unplug(5)
    clock[0] += 6
    sim.idle(0)  # a timed unplug comes back by itself, as a replugged USB shoe does
    assert sim.plugged
    before = len([e for e in link.events if isinstance(e, CardRead)])
    assert sim.deal_now()  # the next deck: a shuffle of its own
    assert len([e for e in link.events if isinstance(e, CardRead)]) == before + 49
