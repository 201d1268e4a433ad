"""`advise`: every legal setting of a hand and its value against the dealer's House Way,
the House Way's setting marked with what it gives up, the table's commission included."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from app.core.analysis.advise import AdviceError, advise, legal_settings
from app.core.cards import DECK, CardError, parse_cards
from app.core.hands import Setting, foul_reason, ranker
from app.core.house_way import house_way
from app.core.settlement import CommissionPolicy

HANDS = [
    "AS KD 9H 7C 5D 3S 2H",  # no pair: every setting is legal
    "6S 6D 5H 5C KD 9S 8H",  # two pair: the House Way keeps both pairs, a split is better
    "AS AD KH QC 9D 5S 2H",  # one pair: the aces in front would foul
    "AS AD AH AC JK KD KS",  # five aces: every front is legal
    "JK 9D 8H 7C 6S 5D 2H",  # a straight with the joker
]


@pytest.mark.parametrize("text", HANDS)
def test_advise_lists_every_legal_setting_and_only_those(text: str) -> None:
    cards = parse_cards(text)
    legal = {frozenset(front) for front in combinations(cards, 2)
             if foul_reason(Setting.from_front(cards, front), cards) is None}

    advice = advise(cards, samples=500)

    listed = [frozenset(v.setting.low) for v in advice.settings]
    assert len(listed) == len(set(listed)) == len(legal)
    assert set(listed) == legal
    for v in advice.settings:
        assert foul_reason(v.setting, cards) is None
        assert set(v.setting.cards) == set(cards)


def test_a_front_above_the_back_is_a_foul_and_not_listed() -> None:
    settings = legal_settings(parse_cards("AS AD KH QC 9D 5S 2H"))
    assert len(settings) < 21
    assert all({str(c) for c in s.low} != {"AS", "AD"} for s in settings)
    assert len(legal_settings(parse_cards("AS AD AH AC JK KD KS"))) == 21


@pytest.mark.parametrize("way", ["standard", "delaware-park", "trump-plaza"])
@pytest.mark.parametrize("text", HANDS)
def test_advise_marks_the_house_ways_setting_once_and_names_its_rule(
        text: str, way: str) -> None:
    cards = parse_cards(text)
    expected = house_way(way).set(cards)

    advice = advise(cards, way=way, samples=500)

    marked = [v for v in advice.settings if v.house_way]
    assert len(marked) == 1
    assert set(marked[0].setting.low) == set(expected.low)
    assert advice.house_way.rule.id == expected.rule.id
    assert advice.house_way_value is marked[0]


def test_what_the_house_way_gives_up_is_the_best_settings_value_over_it() -> None:
    advice = advise(parse_cards("6S 6D 5H 5C KD 9S 8H"), way="trump-plaza", samples=20_000)

    best, hw = advice.best, advice.house_way_value
    assert best.best and sum(v.best for v in advice.settings) == 1
    assert best.ev == max(v.ev for v in advice.settings)
    assert advice.gives_up == pytest.approx(best.ev - hw.ev)
    # Splitting the 5s in front beats keeping both pairs behind with K-9 in front.
    assert {c.rank for c in best.setting.low} == {5}
    assert advice.gives_up > 4 * advice.gives_up_se > 0
    for v in advice.settings:
        assert v.versus_house_way == pytest.approx(v.ev - hw.ev)


def test_when_the_house_ways_setting_is_the_best_it_gives_up_nothing() -> None:
    advice = advise(parse_cards("JK 9D 8H 7C 6S 5D 2H"), samples=3_000)
    assert advice.best.house_way
    assert advice.gives_up == 0.0 and advice.gives_up_se == 0.0


def test_advise_draws_until_every_setting_is_within_the_error() -> None:
    advice = advise(parse_cards("AS KD 9H 7C 5D 3S 2H"), error=0.01)
    assert advice.error <= 0.01
    assert 2_000 <= advice.samples < 20_000


def test_advise_is_reproducible_for_the_same_hand_and_seed() -> None:
    cards = parse_cards("QS QD AH 9C 7D 4S 2H")
    assert advise(cards, samples=2_000) == advise(cards, samples=2_000)
    assert advise(cards, samples=2_000, seed=1) != advise(cards, samples=2_000)


def test_commission_is_the_settlement_policys_on_every_win() -> None:
    cards = parse_cards("KS KD 9H 7C 6D 3S 2H")
    free = advise(cards, samples=3_000, policy=CommissionPolicy(0))
    table = advise(cards, samples=3_000)  # 5% up to $0.25 on $5: 25c
    odd = advise(cards, samples=3_000, wager=700)  # 35c rounds up to 50c on $7

    for f, t, o in zip(free.settings, table.settings, odd.settings, strict=True):
        assert (f.win, f.push, f.lose) == (t.win, t.push, t.lose) == (o.win, o.push, o.lose)
        assert f.ev == pytest.approx(f.win - f.lose)
        assert t.ev == pytest.approx(f.ev - 0.05 * f.win)
        assert o.ev == pytest.approx(f.ev - 50 / 700 * f.win)
    assert (table.commission, odd.commission) == (25, 50)


def test_values_agree_with_dealer_hands_played_out_by_hand() -> None:
    """An independent estimate (other dealer hands, the House Way card itself) lies within
    four standard errors of advise's for the House Way's setting."""
    cards = parse_cards("TS TD 8H 8C AD 6S 3H")
    advice = advise(cards, samples=20_000)
    hw = advice.house_way_value
    r = ranker()
    front, back = r.rank2(hw.setting.low), r.rank5(hw.setting.high)
    rng = random.Random(99)
    others = [c for c in DECK if c not in cards]
    total, n = 0.0, 4_000
    for _ in range(n):
        dealer = house_way("standard").set(rng.sample(others, 7))
        df, db = r.rank2(dealer.low), r.rank5(dealer.high)
        total += 0.95 if front > df and back > db else -1.0 if front <= df and back <= db \
            else 0.0
    estimate = total / n
    independent_se = 0.75 / n ** 0.5
    assert abs(estimate - hw.ev) <= 4 * (independent_se + hw.se)


@pytest.mark.parametrize("text", ["AS KD 9H 7C 5D 3S", "AS KD 9H 7C 5D 3S 2H 4C"])
def test_advise_takes_seven_cards(text: str) -> None:
    with pytest.raises(CardError, match="7 different cards"):
        advise(parse_cards(text))


def test_advise_refuses_an_unknown_card_or_no_error() -> None:
    with pytest.raises(AdviceError, match="no House Way called 'atlantic'"):
        advise(parse_cards(HANDS[0]), way="atlantic")
    with pytest.raises(AdviceError, match="above 0"):
        advise(parse_cards(HANDS[0]), error=0)
