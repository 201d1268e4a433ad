"""Seeds 001 and 004 at the window, by keys: A shows the House Way (set nothing), H at a table
that sets it after the bank leaves the seven cards in one pile, a resplit foul waits."""

from __future__ import annotations

from app.core.cards import parse_cards
from app.core.house_way import set_house_way
from app.core.round import AskedHouseWay, FoulPenalty, RoundRules
from app.core.settlement import SetBy
from app.ui.screenshots import SHOWCASE

from .test_window import deal, open_and_wager


def test_a_shows_the_house_way_for_the_selected_hand_without_setting_it(make_station):
    """Seed 001: "The player can ask the house for help when deciding how to split the hand.
    The house would then show how it would split the hand." """
    s = make_station()
    open_and_wager(s)
    deal(s)
    s.key("5")
    s.key("A")
    way = set_house_way(parse_cards(SHOWCASE[5]))
    assert s.session.round.hands[5].setting is None
    assert s.message.startswith("House Way for Seat 5: ")
    assert f"rule {way.rule.id}" in s.message
    assert any(line.startswith("House Way shown to seat 5: ") for line in s.session.log)
    assert s.window.panel.buttons["show_house_way"].text() == "Show House Way  [A]"


def test_h_leaves_the_seven_cards_in_one_pile_until_the_bank_is_set(make_station):
    """Seed 004: "players have the option of setting their hands themselves or having the
    dealer set it House Way after the bank hand is opened. When a hand is played House Way,
    all seven cards are left in one pile on the table." """
    s = make_station(rules=RoundRules(asked_house_way=AskedHouseWay.AFTER_BANK))
    open_and_wager(s)
    deal(s)
    rnd = s.session.round
    for seat in (1, 2, 3, 5, 6):
        s.key(str(seat))
        s.key("H")
    assert rnd.piles() == (3, 5, 6, 1, 2)
    assert s.seat(5).note.text().startswith("Asked for the House Way: seven cards in one pile")
    assert "one pile" in s.message
    s.key("S")
    assert rnd.slip is not None
    assert all(rnd.slip.line(p).set_by is SetBy.AFTER_BANK for p in (1, 2, 3, 5, 6))


def test_a_resplit_foul_goes_back_to_the_player_and_the_round_waits(make_station):
    """Seed 001, online: "The player may re-split the hand. The game only continues when the
    five-card hand has a higher poker rank than the two-card hand." """
    s = make_station(rules=RoundRules(foul_penalty=FoulPenalty.RESPLIT))
    open_and_wager(s)
    deal(s)
    s.click_card(3, "KS")
    s.click_card(3, "KD")
    assert s.seat(3).note.text().endswith("it goes back to the player to set again")
    s.key("F")
    rnd = s.session.round
    assert rnd.hands[3].setting is None and 3 in rnd.pending()
    assert "goes back to the player to set again" in s.message
    assert any("returned to the player to set again" in line for line in s.session.log)
    s.key("H")
    assert rnd.hands[3].set_by is SetBy.HOUSE_WAY
