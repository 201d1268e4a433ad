"""The dealer's window, driven as a dealer drives it: keys, clicks, fields (offscreen)."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter

from app.core.cards import DECK, CardError, card, parse_cards
from app.core.house_way import set_house_way
from app.core.round import FoulPenalty, Phase, Round, RoundRules
from app.core.settlement import money
from app.core.table import Action, ActionSource, Table
from app.session import glossary
from app.ui import theme
from app.ui.cards import paint_card
from app.ui.main import main
from app.ui.screenshots import SHOWCASE, stacked_deck
from app.ui.shoe import PtyDemoShoe
from app.ui.window import MainWindow

WAGERS = {1: "25", 2: "10", 3: "50", 5: "100", 6: "15"}


def open_and_wager(s, wagers=WAGERS) -> None:  # noqa: ANN001
    s.key("N")
    for seat, dollars in wagers.items():
        s.key(str(seat))
        s.key("W")
        s.type(dollars)
        s.key(Qt.Key.Key_Escape)


def deal(s) -> None:  # noqa: ANN001
    """Action, the deal, and no one takes the dragon (seat 4's hand is unused)."""
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert s.session.dragon_offered() is not None
    s.everyone_passes()
    assert s.session.dragon_offered() is None


def test_window_opens_with_the_bank_six_seats_and_the_devices(make_station):
    s = make_station()
    felt = s.window.felt
    assert sorted(felt.seats) == [0, 1, 2, 3, 4, 5, 6]
    assert felt.seats[0].title.text() == "DEALER  [7]"
    assert felt.seats[3].title.text() == "SEAT 3  [3]"
    devices = [d.text() for d in s.window.devices]
    assert devices[0].startswith("Shoe: online")
    assert devices[1].startswith("Printer:")
    assert devices[2].startswith("Database:")
    assert all(d.isVisible() for d in s.window.devices)
    assert s.window.panel.buttons["new"].text() == "New round  [N]"
    assert s.window.panel.buttons["rng"].text() == "RNG action  [R]"


def test_a_whole_round_by_keys_and_clicks_settles_clockwise_from_action(make_station):
    s = make_station()
    open_and_wager(s)
    rnd = s.session.round
    assert rnd.wagers == {1: 2500, 2: 1000, 3: 5000, 5: 10000, 6: 1500}
    assert s.seat(5).wager.text() == "$100.00"
    deal(s)
    assert rnd.action.position == 3
    assert s.seat(3).action_badge.isVisible()
    assert [s.seat(p).order_badge.text() for p in (3, 4, 5, 6, 0, 1, 2)] == [
        "#1", "#2", "#3", "#4", "#5", "#6", "#7"]
    assert "Clockwise: 3 > 4 > 5 > 6 > D > 1 > 2" in s.window.felt.center.order.text()
    assert {c.card for c in s.seat(5).cards} == set(parse_cards(SHOWCASE[5]))

    # Seat 3 puts the Kings in front: a foul that forfeits; seat 1 sets 7-6; the rest House Way.
    s.click_card(3, "KS")
    s.click_card(3, "KD")
    s.key("F")
    s.click_card(1, "7S")
    s.click_card(1, "6C")
    s.key("F")
    for seat in (5, 6, 2):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    assert rnd.phase is Phase.SETTLED

    # The same round played on the core alone gives the same slip.
    core = Round(RoundRules())
    for seat, dollars in WAGERS.items():
        core.place_wager(seat, int(dollars) * 100)
    core.set_action(Action.draw(lambda n: 3))
    deck = stacked_deck(SHOWCASE, 3)
    core.deal_stacks([deck[i:i + 7] for i in range(0, 49, 7)], deck[49:])
    core.set_hand(3, parse_cards("KS KD"))
    core.set_hand(1, parse_cards("7S 6C"))
    for seat in (5, 6, 2):
        core.house_way(seat)
    expected = core.settle()
    assert rnd.slip.to_dict() == expected.to_dict()

    table = s.window.panel.slip.table
    rows = [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]
    assert [r[1] for r in rows] == [line.name for line in expected.lines]
    assert [r[1] for r in rows][:3] == ["seat 3", "seat 4", "seat 5"]
    assert rows[0][2] == "LOSE" and rows[0][5] == "-$50.00"
    t = expected.totals
    totals = s.window.panel.slip.totals.text()
    assert f"Players net {money(t.players_net, sign=True)}" in totals
    assert f"Commission {money(t.commission)}" in totals
    for line in expected.lines:
        if line.outcome is not None:
            assert s.seat(line.position).result.text().startswith(line.outcome.value.upper())
    assert s.window.panel.buttons["new"].isEnabled()


def test_house_way_on_a_seat_shows_the_rule_that_set_it(make_station):
    s = make_station()
    open_and_wager(s)
    deal(s)
    s.key("5")
    s.key("H")
    way = set_house_way(parse_cards(SHOWCASE[5]))
    seat = s.seat(5)
    assert seat.state.rule_id == way.rule.id
    # the felt names the kind of hand in the card's words; the row's id is the pit's and F1's
    assert seat.note.text() == "House Way: " + way.rule.says.split(":")[0]
    assert [c.card for c in seat.cards[:2]] == list(way.low)
    assert way.rule.id in s.message


def test_a_foul_shows_its_reason_and_penalty_as_soon_as_two_cards_are_clicked(make_station):
    s = make_station()
    open_and_wager(s)
    deal(s)
    s.click_card(3, "KS")
    assert s.seat(3).note.text() == ""
    s.click_card(3, "KD")
    note = s.seat(3).note.text()
    assert note.startswith("If set: FOUL: the two-card hand (pair of Kings) outranks the "
                           "five-card hand")
    assert note.endswith("the hand forfeits")
    assert s.session.round.hands[3].setting is None  # only a preview so far
    assert [cw.selected for cw in s.seat(3).cards[:2]] == [True, True]
    s.key("F")
    hand = s.session.round.hands[3]
    assert hand.forfeit and "outranks" in hand.foul
    assert s.seat(3).note.text() == f"FOUL: {hand.foul} - the hand forfeits"
    assert s.window.panel.message.property("level") == "error"


def test_a_foul_is_reset_the_house_way_when_the_table_says_so(make_station):
    s = make_station(rules=RoundRules(foul_penalty=FoulPenalty.HOUSE_WAY))
    open_and_wager(s)
    deal(s)
    s.click_card(3, "KS")
    s.click_card(3, "KD")
    assert "reset by the House Way" in s.seat(3).note.text()
    s.key("F")
    hand = s.session.round.hands[3]
    assert hand.foul is not None and not hand.forfeit
    assert s.seat(3).note.text() == (f"FOUL: {hand.foul} - reset by the House Way: "
                                     f"{glossary.house_way_kind(hand.rule_says).lower()}")


def test_typing_the_front_with_the_keyboard_sets_it(make_station):
    s = make_station()
    open_and_wager(s)
    deal(s)
    s.key("1")
    s.key("F")
    assert s.session.keyboard.entry.field.name == "front"  # open; the keyboard stays on the table
    s.type("7s 6c")
    hand = s.session.round.hands[1]
    assert hand.setting.low == tuple(parse_cards("7S 6C")) and hand.foul is None
    assert s.seat(1).note.text() == "Set by the player: the dealer entered the front"


def test_a_bad_card_typed_by_hand_shows_the_core_message(make_station):
    s = make_station(online=False)
    open_and_wager(s, {1: "25"})
    s.key("R")
    assert s.session.round.phase is Phase.DEALING
    assert s.session.keyboard.selected == 3
    s.key("C")
    s.type("AS ZZ")
    with pytest.raises(CardError) as bad:
        parse_cards("ZZ")
    assert s.message.startswith(str(bad.value))
    assert s.window.panel.message.property("level") == "error"
    # only the bad card is refused: the field is open again with the rest of the line
    assert s.session.keyboard.entry is not None
    assert s.session.keyboard.entry.text.split() == ["AS"]
    s.type("KD")
    s.key("C")
    s.type("KD")
    assert s.message.startswith("KD is already dealt to seat 3")
    assert [c.card for c in s.seat(3).cards if c.card] == list(parse_cards("AS KD"))


def test_the_deal_typed_by_hand_with_the_shoe_offline(make_station):
    s = make_station(online=False)
    assert s.window.devices[0].text() == "Shoe: unplugged"
    open_and_wager(s, {1: "25"})
    s.key("R")
    for position in (3, 4, 5, 6, 0, 1, 2):
        assert s.session.keyboard.selected == position
        s.key("C")  # each position's cards: C, the seven, Enter
        s.type(SHOWCASE[position])
    assert s.session.round.phase is Phase.SETTING
    assert s.session.round.deal.mode == "by-position"
    assert {c.card for c in s.seat(6).cards} == set(parse_cards(SHOWCASE[6]))


def test_disabled_actions_say_why_in_their_tooltips(make_station):
    s = make_station()
    b = s.window.panel.buttons
    assert not b["rng"].isEnabled()
    assert b["rng"].toolTip() == "Not now: no round is open: press N to open one"
    s.key("N")
    rnd = s.session.round
    assert not b["rng"].isEnabled()
    assert b["rng"].toolTip() == "Not now: there are no wagers on the table: place a wager " \
                                 "before action"
    # an RNG table says so of the dice, in the dealer's words (issue 25)
    assert b["dice"].toolTip() == ("Not now: this table takes action from the station's "
                                   "random number, not dice: press R (the dice are not used "
                                   "here)")
    with pytest.raises(Exception) as why:
        rnd.verify_settle()
    assert not b["settle"].isEnabled()
    assert b["settle"].toolTip() == f"Not now: {why.value}"
    assert not b["house_way"].isEnabled()
    assert "wagers are still being taken" in b["house_way"].toolTip()
    assert not b["new"].isEnabled() and "settle it (S)" in b["new"].toolTip()
    assert not b["print"].isEnabled() and "settle the round first" in b["print"].toolTip()
    # A key for something not allowed now says why instead of acting.
    s.key("R")
    assert rnd.action is None
    assert s.message == "there are no wagers on the table: place a wager before action"
    s.key("7")
    s.key("W")
    assert s.message == "0 is not a seat: the seats are 1-6"
    s.key("1")
    s.key("W")
    s.type("25")
    assert b["dice"].toolTip() == ("Not now: this table takes action from the station's "
                                   "random number, not dice: press R (the dice are not used "
                                   "here)")
    assert "takes action from the station's random number, not dice" in b["dice"].toolTip()
    s.key(Qt.Key.Key_Escape)
    s.key("D")
    assert "takes action from the station's random number, not dice" in s.message
    assert b["rng"].isEnabled() and b["rng"].toolTip().startswith("Action from the station's RNG")


def test_dice_are_typed_and_checked(make_station):
    rules = RoundRules(table=Table(action_source=ActionSource.DICE))
    s = make_station(rules=rules, action=6)
    open_and_wager(s, {2: "25"})
    assert not s.window.panel.buttons["rng"].isEnabled()
    s.key("D")
    s.type("3 5 9")
    assert "A die shows 1 to 6, not 9" in s.message
    assert s.session.round.action is None
    s.key("D")  # Enter closed the field: D opens it again
    s.type("3 5 6")
    s.wait_phase(Phase.SETTING)
    assert s.session.round.action.position == 6  # 14 counted from the dealer as 1
    assert "dice 3+5+6 = 14 -> seat 6" in s.window.felt.center.action.text()


def test_a_misdeal_stops_the_round_and_action_is_taken_again(make_station):
    deck = list(stacked_deck(SHOWCASE, 3))
    deck[10] = deck[3]  # a card read twice
    s = make_station(deck=tuple(deck))
    open_and_wager(s, {1: "25"})
    s.key("R")
    s.wait_phase(Phase.MISDEAL)
    assert s.message.startswith("Misdeal: ")
    assert "dealt twice" in s.message and "Take action again (R (RNG))" in s.message
    assert s.window.panel.buttons["rng"].isEnabled()
    assert s.session.round.wagers == {1: 2500}


def test_the_bank_hand_stays_face_down_until_the_players_have_set(make_station):
    s = make_station()
    open_and_wager(s, {1: "25"})
    deal(s)
    dealer = s.seat(0)
    assert all(cw.face_down for cw in dealer.cards)
    assert all(cw.toolTip() == "" for cw in dealer.cards)
    s.key("1")
    s.key("H")
    assert not any(cw.face_down for cw in dealer.cards)
    assert s.window.panel.buttons["settle"].isEnabled()


def _render(c, selected=False) -> QImage:  # noqa: ANN001
    img = QImage(100, 140, QImage.Format.Format_ARGB32)
    img.fill(QColor("black"))
    p = QPainter(img)
    paint_card(p, QRectF(5, 5, 90, 126), c, selected=selected)
    p.end()
    return img


def _has(img: QImage, colour: QColor) -> bool:
    return any(img.pixelColor(x, y) == colour for x in range(img.width())
               for y in range(0, img.height(), 2))


def test_card_faces_are_red_or_black_and_the_joker_is_distinct(qapp):
    red, black, ink = theme.CARD_RED, theme.CARD_BLACK, theme.JOKER_INK
    assert _has(_render(card("AH")), red) and not _has(_render(card("AH")), black)
    assert _has(_render(card("7D")), red)
    assert _has(_render(card("KS")), black) and not _has(_render(card("KS")), red)
    joker = _render(card("JK"))
    assert _has(joker, ink) and not _has(joker, red) and not _has(joker, black)
    assert _has(_render(card("5C"), selected=True), theme.SELECTED)
    assert not _has(_render(card("5C")), theme.SELECTED)
    for c in DECK:  # every face paints something of its own colour
        assert _has(_render(c), ink if c.is_joker else red if str(c)[1] in "HD" else black)


def test_paigow_dealer_demo_opens_the_station_full_size_on_the_simulated_shoe(
        qapp, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    seen: dict[str, object] = {}
    ticks: list[int] = []
    timer = QTimer()

    def look() -> None:
        ticks.append(1)
        windows = [w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow)
                   and w.isVisible()]
        if not windows:
            return
        w = windows[-1]
        seen.update(maximized=bool(w.windowState() & Qt.WindowState.WindowMaximized),
                    shoe=w.devices[0].text(), shoe_detail=w.devices[0].toolTip(),
                    phase=w.panel.phase.text(),
                    pty=isinstance(w.shoe, PtyDemoShoe))
        if str(seen["shoe"]).startswith("Shoe: online") or len(ticks) > 100:
            timer.stop()
            w.close()
            qapp.quit()

    timer.timeout.connect(look)
    timer.start(50)
    assert main(["--demo"]) == 0
    assert seen["maximized"] and seen["pty"] and seen["phase"] == "NO ROUND OPEN"
    assert seen["shoe"] == "Shoe: online"
    assert str(seen["shoe_detail"]).startswith("Shoe online: demo shoe (simulator on /dev/pts/")


def test_a_bad_config_stops_the_station_with_the_file_and_key(qapp, tmp_path, capsys):
    bad = tmp_path / "site.toml"
    bad.write_text('[wagers]\nminimum = "lots"\n')
    assert main(["--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "site.toml" in err and "wagers.minimum" in err


def test_a_config_whose_rules_are_not_a_section_stops_the_station_with_exit_2(
        qapp, tmp_path, capsys):
    # Exit 1 is a crash to the kiosk's unit, which restarts the station every 3 s; exit 2
    # is a config to correct (issue 23).
    bad = tmp_path / "site.toml"
    bad.write_text('rules = "ZZ"\n')
    assert main(["--config", str(bad), "--data-dir", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "site.toml: rules: is a section, not 'ZZ': write [rules]" in err


def test_a_no_play_table_shows_the_no_play_button_after_the_bank(make_station):
    # Seed 004: "A "NO PLAY" button follows the bank; no bet can be placed there, and the
    # spot is not counted for action."
    from dataclasses import replace

    from app.core.round import RoundRules

    rules = RoundRules()
    s = make_station(rules=replace(rules, table=replace(rules.table, no_play=True)))
    felt = s.window.felt
    s.qtbot.waitUntil(lambda: felt.no_play.isVisible(), timeout=3000)
    assert felt.no_play.text() == "NO PLAY"
    assert felt.no_play_between == (0, 1)  # the dealer's bank, then seat 1 clockwise
    spot = felt.no_play.geometry().center()
    dealer, seat1 = felt.seats[0].geometry(), felt.seats[1].geometry()
    assert seat1.center().x() < spot.x() < dealer.center().x()


def test_a_table_without_a_no_play_spot_shows_none(make_station):
    s = make_station()
    assert not s.window.felt.no_play.isVisible()
