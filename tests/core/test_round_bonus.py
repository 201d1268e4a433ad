"""Golden rounds of the Fortune bonus at the table, from issue 26's words: the bonus wager
beside the Pai Gow wager with its own limits, settled after the Pai Gow wagers on each
hand's seven cards, the envy for other players' hands, and a big payout that waits for a
supervisor. Every hand of interest is written out; the others are filled from the deck and
checked to pay no envy, so the amounts below are the issue's rules alone."""

from __future__ import annotations

import pytest

from app.core.banker import BankRotation
from app.core.bonus import BonusRules, Category, made
from app.core.bonus.table_bonus import TableBonus
from app.core.cards import DECK, Card, parse_cards
from app.core.round import BonusApproved, BonusHeld, Round, RoundError, RoundRules
from app.core.settlement import Slip
from app.core.table import Action

ENVY_HANDS = {Category.FOUR_OF_A_KIND, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH,
              Category.FIVE_ACES, Category.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER,
              Category.ROYAL_FLUSH_WITH_ROYAL_MATCH, Category.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH}


def fortune(**rules: object) -> RoundRules:
    return RoundRules(bonus=TableBonus(rules=BonusRules(**rules)))  # type: ignore[arg-type]


def hands_of(named: dict[int, str]) -> dict[int, tuple[Card, ...]]:
    out = {p: parse_cards(text) for p, text in named.items()}
    used = {c for h in out.values() for c in h}
    rest = [c for c in DECK if c not in used]
    for p in range(7):
        if p in out:
            continue
        # Seven cards that make no envy hand, so that only the written hands pay envy.
        for start in range(len(rest) - 6):
            pick = tuple(rest[start:start + 7])
            if not made(pick) & ENVY_HANDS:
                break
        out[p] = pick
        rest = [c for c in rest if c not in pick]
    return out


def deal(game: Round, named: dict[int, str], rng: int = 1) -> None:
    game.set_action(Action.from_rng(rng))
    game.deal_by_position(hands_of(named))


def settle_by_house_way(game: Round) -> Slip:
    for p in game.pending():
        if game.can_set_hand(p):
            game.house_way(p)
    return game.settle()


def lines(slip: Slip) -> list[tuple[str, int, int, int | None]]:
    """(kind, seat, amount, from position) of each bonus line, in the order paid."""
    assert slip.bonus is not None
    return [(x.kind, x.seat, x.amount, x.from_position) for x in slip.bonus.lines]


def test_envy_from_two_other_seats_four_of_a_kind_is_paid_twice_after_the_bonuses() -> None:
    game = Round(fortune())
    for seat in (1, 2, 3):
        game.place_wager(seat, 1000)
    game.place_bonus(1, 500)
    game.place_bonus(3, 500)
    deal(game, {1: "2S 4H 6D 3C TS QH KD", 2: "9S 9H 9D 9C 2H 5D JC",
                3: "8S 8H 8D 8C 3H 5S JD"})
    slip = settle_by_house_way(game)
    # Bonuses first (seat 1 has nothing: it loses; seat 3's four of a kind pays 25 to 1),
    # then the envy: $5 to seat 1 for seat 2's and for seat 3's four of a kind, $5 to seat 3
    # for seat 2's (never for its own hand).
    assert lines(slip) == [("bonus", 1, -500, None), ("bonus", 3, 12_500, None),
                           ("envy", 1, 500, 2), ("envy", 1, 500, 3), ("envy", 3, 500, 2)]
    assert slip.bonus is not None
    assert slip.bonus.seat_net(1) == 500 and slip.bonus.seat_net(3) == 13_000
    assert slip.bonus.wagers == 1000 and slip.bonus.net == 13_500
    # The Pai Gow wagers are settled as they always were; the bonus is the house's apart.
    assert slip.totals.players_net + slip.totals.banker_net + slip.totals.house_net == 0
    assert ("bonus", "fortune-8000, envy envy-5000, $1.00 to $100.00") in slip.rules


def test_the_player_bankers_own_bonus_is_paid_on_the_banking_hand() -> None:
    game = Round(fortune(), BankRotation.resume(house_bets={4: 1000}, offer_from=4))
    game.place_wager(1, 1000)
    game.take_bank(4, 100_000)
    game.place_bonus(4, 1000)  # the banker has no wager against the bank: the bank counts
    game.place_bonus(1, 500)
    deal(game, {4: "KS KH KD KC 5S 2D 7H", 1: "2S 4H 6D 3C TS QH 9D"})
    slip = settle_by_house_way(game)
    # The banker's four kings pay its bonus 25 to 1, and seat 1 its envy: the
    # player-banker's hand is a player's hand. Action 1 is the bank's seat: it is paid first.
    assert lines(slip) == [("bonus", 4, 25_000, None), ("bonus", 1, -500, None),
                           ("envy", 1, 500, 4)]


@pytest.mark.parametrize(("collects", "amount"), [(True, 2000), (False, -500)])
def test_a_fouled_hands_bonus_collects_or_loses_as_the_house_says(collects: bool,
                                                                   amount: int) -> None:
    game = Round(fortune(fouled_collects=collects))
    game.place_wager(1, 1000)
    game.place_bonus(1, 500)
    deal(game, {1: "2H 5H 8H TH KH 3C 4D"})
    set_ = game.set_hand(1, parse_cards("KH TH"))  # K-T in front over 8 high: a foul
    assert set_.hand.forfeit  # type: ignore[union-attr]
    slip = game.settle()
    assert slip.line(1).net == -1000  # the Pai Gow wager is forfeit either way
    assert lines(slip) == [("bonus", 1, amount, None)]  # the flush pays 4 to 1, or loses
    assert slip.bonus is not None
    assert slip.bonus.lines[0].note == ("" if collects else "fouled hand: the bonus loses")


def test_the_dealers_five_aces_pay_no_envy() -> None:
    game = Round(fortune())
    game.place_wager(1, 1000)
    game.place_bonus(1, 500)
    deal(game, {0: "AS AH AD AC JK 2D 3C", 1: "2S 4H 6D 3H TS QH KD"})
    slip = settle_by_house_way(game)
    assert lines(slip) == [("bonus", 1, -500, None)]


def test_a_payout_at_the_threshold_waits_for_a_supervisor_before_the_round_settles() -> None:
    game = Round(fortune())
    game.place_wager(1, 1000)
    game.place_wager(2, 1000)
    game.place_bonus(1, 10_000)
    game.place_bonus(2, 500)
    deal(game, {1: "AS AH AD AC JK 2D 7C", 2: "3S 4H 6D 8H TS QH KD"})
    for p in (1, 2):
        game.house_way(p)
    # Five aces pay 400 to 1: $40,000, over the $1,000 threshold. Seat 2's $250 envy does
    # not wait on its own, but the round does.
    waiting = game.bonus_waiting()
    assert [(x.seat, x.amount, x.hand) for x in waiting] == [(1, 4_000_000, "five aces")]
    with pytest.raises(RoundError, match="a supervisor approves this payout before the round "
                                         "is settled and the slip printed"):
        game.settle()
    held = game.hold_bonus()
    assert isinstance(held, BonusHeld) and held.lines == waiting
    with pytest.raises(RoundError, match="a supervisor"):
        game.settle()
    approved = game.approve_bonus("Pat Lee")
    assert isinstance(approved, BonusApproved) and approved.supervisor == "Pat Lee"
    slip = game.settle()
    assert lines(slip) == [("bonus", 1, 4_000_000, None), ("bonus", 2, -500, None),
                           ("envy", 2, 25_000, 1)]
    assert slip.bonus is not None and slip.bonus.approved_by == "Pat Lee"
    assert "approved by Pat Lee" in slip.text()
    assert slip.to_dict()["bonus"]["lines"][0]["supervisor"] is True


def test_a_bonus_over_its_maximum_or_under_its_minimum_is_refused_in_dealer_words() -> None:
    game = Round(fortune())
    game.place_wager(1, 1000)
    with pytest.raises(RoundError, match=r"\$150.00 is over the bonus maximum of \$100.00"):
        game.place_bonus(1, 15_000)
    with pytest.raises(RoundError, match=r"\$0.50 is under the bonus minimum of \$1.00"):
        game.place_bonus(1, 50)


def test_a_bonus_on_a_seat_with_no_pai_gow_wager_is_refused_where_the_house_requires_one(
) -> None:
    game = Round(fortune())
    with pytest.raises(RoundError, match="seat 2 has no Pai Gow wager: the bonus is taken "
                                         "only beside one"):
        game.place_bonus(2, 500)
    lenient = Round(RoundRules(bonus=TableBonus(requires_wager=False)))
    lenient.place_wager(1, 1000)
    assert lenient.place_bonus(2, 500).wager == 500


def test_bets_close_only_with_every_bonus_beside_a_pai_gow_wager() -> None:
    game = Round(fortune())
    game.place_wager(1, 1000)
    game.place_wager(2, 1000)
    game.place_bonus(2, 500)
    game.withdraw_wager(2)
    with pytest.raises(RoundError, match="seat 2 has a bonus wager and no Pai Gow wager"):
        game.set_action(Action.from_rng(1))
    game.withdraw_bonus(2)
    game.set_action(Action.from_rng(1))


def test_a_table_without_the_bonus_takes_none_and_its_slip_reads_as_before() -> None:
    game = Round(RoundRules())
    game.place_wager(1, 1000)
    with pytest.raises(RoundError, match="this table takes no bonus wager"):
        game.place_bonus(1, 500)
    plain = Round(fortune())
    plain.place_wager(1, 1000)
    for g in (game, plain):
        deal(g, {})
        slip = settle_by_house_way(g)
        assert slip.bonus is None and "bonus" not in slip.to_dict()
        assert [k for k, _ in slip.rules] == [k for k, _ in RoundRules().summary()]


# --- a dragon hand's bonus, where the house allows it (issue 26: "A dragon hand has no bonus
# unless the house allows it.") ----------------------------------------------------------

def dragon_round(**rules: object) -> Round:
    """Seats 1 and 2 play, seat 1 takes seat 3's unused hand as its dragon: four kings."""
    game = Round(fortune(**rules))
    game.place_wager(1, 1000)
    game.place_wager(2, 1000)
    game.place_bonus(1, 500)
    game.place_bonus(2, 500)
    deal(game, {1: "2S 4H 6D 3C TS QH 8D", 2: "2H 4D 6C 3S 9H JD 7S",
                3: "KS KH KD KC 5S 3H 7H"})
    seat = game.offer_dragon()
    while seat != 1:
        assert seat is not None
        game.pass_dragon(seat)
        seat = game.offer_dragon()
    game.take_dragon(1, 1000, position=3)
    return game


def test_a_dragon_hands_bonus_where_the_house_allows_it_is_the_takers_and_pays_on_its_cards(
) -> None:
    game = dragon_round(dragon_bonus=True)
    game.place_dragon_bonus(3, 500)
    assert game.dragon_bonus_wagers == {3: 500}
    slip = settle_by_house_way(game)
    assert slip.bonus is not None and slip.bonus.wagers == 1500
    got = lines(slip)
    # the dragon's four kings pay its bonus 25 to 1, to its taker, seat 1
    assert ("bonus", 1, 12_500, None) in got
    # seat 2 wins $5 envy for the dragon hand: a taken dragon is its taker's hand, a player's
    assert ("envy", 2, 500, 3) in got
    # seat 1 wins no envy for its own dragon hand, on either of its bonus wagers
    assert not [x for x in got if x[0] == "envy" and x[1] == 1]
    assert [x[0] for x in got] == ["bonus", "bonus", "bonus", "envy"]  # bonuses, then envy


def test_a_dragon_hands_bonus_is_refused_in_dealer_words_where_the_house_does_not_allow_it(
) -> None:
    game = dragon_round()
    with pytest.raises(RoundError, match="the dragon hand at seat 3 takes no bonus: the house "
                                         "does not allow a bonus on a dragon hand here"):
        game.place_dragon_bonus(3, 500)
    assert game.dragon_bonus_wagers == {}


def test_a_dragon_bonus_goes_on_a_taken_dragon_within_the_bonus_limits_before_a_hand_is_set(
) -> None:
    game = dragon_round(dragon_bonus=True)
    with pytest.raises(RoundError, match="seat 4's hand is not a dragon hand taken"):
        game.place_dragon_bonus(4, 500)
    with pytest.raises(RoundError, match=r"\$150.00 is over the bonus maximum of \$100.00"):
        game.place_dragon_bonus(3, 15_000)
    game.house_way(1)
    with pytest.raises(RoundError, match="placed before any hand is set"):
        game.place_dragon_bonus(3, 500)


def test_a_dragon_hands_bonus_is_taken_back_before_any_hand_is_set_and_then_pays_nothing(
) -> None:
    """As a seat's bonus is taken back while the bets are open, the taker's bonus on a
    dragon hand is taken back while it could still be placed: before any hand is set."""
    game = dragon_round(dragon_bonus=True)
    game.place_dragon_bonus(3, 500)
    with pytest.raises(RoundError, match="the dragon hand at seat 4 has no bonus to take back"):
        game.withdraw_dragon_bonus(4)
    taken = game.withdraw_dragon_bonus(3)
    assert (taken.seat, taken.position, taken.wager) == (1, 3, 500)
    assert game.log[-1] == taken and game.dragon_bonus_wagers == {}
    slip = settle_by_house_way(game)
    assert slip.bonus is not None and slip.bonus.wagers == 1000  # seats 1 and 2 only
    # no line rides on the dragon hand; seat 2 still wins envy for its kings
    assert [x for x in lines(slip) if x[0] == "bonus"] == [("bonus", 1, -500, None),
                                                           ("bonus", 2, -500, None)]
    assert ("envy", 2, 500, 3) in lines(slip)


def test_a_dragon_hands_bonus_is_not_taken_back_once_a_hand_is_set() -> None:
    game = dragon_round(dragon_bonus=True)
    game.place_dragon_bonus(3, 500)
    game.house_way(1)
    with pytest.raises(RoundError, match="taken back before any hand is set"):
        game.withdraw_dragon_bonus(3)
    assert game.dragon_bonus_wagers == {3: 500}
