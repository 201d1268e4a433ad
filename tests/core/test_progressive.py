"""The linked progressive's arithmetic and its card (issue 27), from the issue's words: a $1
wager, a share of it feeds the meter and a share the reserve (the next seed); a big hand
wins all of the meter or a part of it; two hits are taken in a fixed order, the second from
what the first left; the meter never goes negative or below its seed; the card is TOML,
checked at load, every problem naming the file, the line and what to write."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.bonus import Category
from app.core.progressive import (
    Meter,
    MeterError,
    ProgressiveCardError,
    Reset,
    TwoHits,
    add,
    contribute,
    load_progressive_card,
    opening,
    progressive_card,
    progressive_card_names,
    take_hits,
)

C = Category
SHIPPED = progressive_card("linked-pai-gow")

PAYS = """\
natural-seven-card-straight-flush = "100%"
royal-flush-with-royal-match = "10%"
seven-card-straight-flush-with-joker = "$2,000"
five-aces = "10%"
royal-flush = "$500"
straight-flush = "$100"
four-of-a-kind = "$75"
"""


def card(tmp_path: Path, head: str = "", pays: str = PAYS, name: str = "ours.toml"):
    path = tmp_path / name
    path.write_text(f'title = "Our progressive"\nsource = "our pit"\nkind = "progressive"\n'
                    f'seed = "$10,000"\nmeter-share = "70%"\nreserve-share = "10%"\n{head}\n'
                    f'[pays]\n{pays}', encoding="utf-8")
    return path


def test_shipped_card_is_the_issues_example():
    assert progressive_card_names() == ["linked-pai-gow"]
    assert (SHIPPED.wager, SHIPPED.meter_bp, SHIPPED.reserve_bp, SHIPPED.seed) == (
        100, 7000, 1000, 1_000_000)
    assert SHIPPED.pay(C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH).text == "100% of the meter"
    assert SHIPPED.pay(C.FIVE_ACES).text == "10% of the meter"
    assert SHIPPED.pay(C.FOUR_OF_A_KIND).text == "$75.00"
    assert SHIPPED.pay(C.FULL_HOUSE) is None
    assert SHIPPED.links("any table")  # no list: every table is linked


def test_each_dollar_wager_feeds_the_meter_and_the_reserve_the_rest_is_the_houses():
    five = contribute(SHIPPED, 5)
    assert (five.total, five.to_meter, five.to_reserve, five.to_house) == (500, 350, 50, 100)
    assert add(opening(SHIPPED), five) == Meter(1_000_350, 50)


def test_a_share_of_a_wager_rounds_down_to_the_cent_and_the_cent_is_the_houses(tmp_path):
    path = card(tmp_path).with_name("third.toml")
    path.write_text(card(tmp_path).read_text().replace('meter-share = "70%"',
                                                        'meter-share = "33.33%"'))
    third = load_progressive_card(path)
    one = contribute(third, 1)
    assert (one.to_meter, one.to_reserve, one.to_house) == (33, 10, 57)


def test_the_top_hand_wins_the_whole_meter_and_the_meter_starts_again_from_the_seed():
    (hit,) = take_hits(SHIPPED, Meter(4_321_099, 300_000), [C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH])
    assert hit.paid == hit.from_meter == 4_321_099
    # the reserve puts up what it has towards the $10,000 seed; the house the rest
    assert (hit.from_reserve, hit.from_house_seed) == (300_000, 700_000)
    assert hit.after == Meter(1_000_000, 0)


def test_a_reserve_larger_than_the_seed_keeps_what_the_seed_did_not_need():
    (hit,) = take_hits(SHIPPED, Meter(2_000_000, 1_500_000), [C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH])
    assert (hit.from_reserve, hit.from_house_seed, hit.after) == (
        1_000_000, 0, Meter(1_000_000, 500_000))


def test_seed_and_reserve_reset_moves_the_whole_reserve_onto_the_meter(tmp_path):
    both = load_progressive_card(card(tmp_path, head='reset = "seed-and-reserve"'))
    assert both.reset is Reset.RESERVE
    (hit,) = take_hits(both, Meter(2_000_000, 1_500_000), [C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH])
    assert hit.after == Meter(1_500_000, 0)


def test_a_part_of_the_meter_is_of_the_meter_as_it_stands_and_the_odd_cent_stays_on_it():
    (hit,) = take_hits(SHIPPED, Meter(1_234_567, 0), [C.FIVE_ACES])
    assert hit.paid == 123_456  # 10% of $12,345.67, rounded down
    assert hit.after == Meter(1_111_111, 0)  # still above the seed: nothing moves onto it


def test_a_part_that_takes_the_meter_below_its_seed_is_topped_up_from_the_reserve():
    (hit,) = take_hits(SHIPPED, Meter(1_050_000, 20_000), [C.FIVE_ACES])
    assert hit.paid == 105_000
    assert (hit.from_reserve, hit.from_house_seed) == (20_000, 35_000)
    assert hit.after == Meter(1_000_000, 0)


def test_a_fixed_amount_is_paid_by_the_house_and_leaves_the_meter_as_it_was():
    meter = Meter(3_000_000, 5_000)
    (hit,) = take_hits(SHIPPED, meter, [C.FOUR_OF_A_KIND])
    assert (hit.paid, hit.from_meter, hit.from_house) == (7_500, 0, 7_500)
    assert hit.before == hit.after == meter


def test_two_hits_in_order_the_second_is_paid_from_what_the_first_left():
    first, second = take_hits(SHIPPED, Meter(5_000_000, 100_000),
                              [C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH, C.FIVE_ACES])
    assert first.paid == 5_000_000
    assert second.before == first.after == Meter(1_000_000, 0)
    assert second.paid == 100_000  # 10% of the seed the first left
    assert second.after == Meter(1_000_000, 0)  # the house tops the seed up again


def test_split_two_top_hands_of_one_round_share_the_meter_equally(tmp_path):
    split = load_progressive_card(card(tmp_path, head='two-hits = "split"'))
    assert split.two_hits is TwoHits.SPLIT
    a, b = take_hits(split, Meter(5_000_001, 0), [C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH] * 2)
    assert (a.paid, b.paid) == (2_500_000, 2_500_000)
    assert a.after == Meter(2_500_001, 0)  # no reset between them
    assert b.after == Meter(1_000_000, 0)  # the cent left and the house's seed


def test_a_hand_the_card_does_not_pay_is_refused():
    with pytest.raises(MeterError, match="full house wins nothing"):
        take_hits(SHIPPED, Meter(1_000_000), [C.FULL_HOUSE])


meter_moves = st.lists(st.one_of(
    st.integers(0, 7).map(lambda n: ("wagers", n)),
    st.lists(st.sampled_from(SHIPPED.order), min_size=1, max_size=3).map(lambda c: ("hits", c))),
    max_size=60)


@settings(max_examples=300, deadline=None)
@given(moves=meter_moves, two_hits=st.sampled_from(list(TwoHits)))
def test_meter_never_below_its_seed_and_always_seed_plus_contributions_less_hits_plus_moves(
        moves, two_hits):
    rules = replace(SHIPPED, two_hits=two_hits)
    meter = opening(rules)
    fed = reserved = taken = from_reserve = house_seed = 0
    for kind, what in moves:
        if kind == "wagers":
            c = contribute(rules, what)
            meter, fed, reserved = add(meter, c), fed + c.to_meter, reserved + c.to_reserve
            continue
        for hit in take_hits(rules, meter, what):
            assert 0 <= hit.from_meter <= hit.before.amount
            assert hit.after.amount == (hit.before.amount - hit.from_meter + hit.from_reserve
                                        + hit.from_house_seed)
            taken += hit.from_meter
            from_reserve += hit.from_reserve
            house_seed += hit.from_house_seed
            meter = hit.after
        assert meter.amount >= rules.seed
    assert meter.amount == rules.seed + fed - taken + from_reserve + house_seed
    assert meter.reserve == reserved - from_reserve >= 0


@pytest.mark.parametrize(("head", "pays", "line", "words"), [
    ("", PAYS.replace('five-aces = "10%"\n', ""), 8, "five-aces is missing"),
    ("", PAYS + 'five-aces = "20%"\n', 16, "five-aces is written twice"),
    ("", PAYS.replace('five-aces = "10%"', 'five-aces = "120%"'), 12, "at most \"100%\""),
    ("", PAYS.replace('"$75"', '"$0"'), 15, "an amount is above $0.00"),
    ("", PAYS + 'full-houses = "$5"\n', 16, "did you mean full-house?"),
    ('reset = "never"', PAYS, 7, "write one of 'seed' or 'seed-and-reserve'"),
    ('two-hits = "both"', PAYS, 7, "'in-order' or 'split'"),
    ('tables = ["PG-1", "PG-1"]', PAYS, 7, "a table is written twice"),
])
def test_a_bad_progressive_card_names_the_file_the_line_and_what_to_write(
        tmp_path, head, pays, line, words):
    path = card(tmp_path, head=head, pays=pays)
    with pytest.raises(ProgressiveCardError) as caught:
        load_progressive_card(path)
    assert f"{path} line {line}: " in str(caught.value)
    assert words in str(caught.value)


def test_shares_above_the_whole_wager_and_a_missing_seed_are_refused_together(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('title = "t"\nsource = "s"\nkind = "progressive"\nmeter-share = "95%"\n'
                    f'reserve-share = "10%"\n[pays]\n{PAYS}', encoding="utf-8")
    with pytest.raises(ProgressiveCardError) as caught:
        load_progressive_card(path)
    problems = caught.value.problems
    assert any("the card has no seed" in p for p in problems)
    assert any(f"{path} line 5: meter-share and reserve-share add up to more than 100%" in p
               for p in problems)


def test_a_bonus_pay_table_is_not_taken_for_a_progressive(tmp_path):
    path = tmp_path / "bonus.toml"
    path.write_text('title = "t"\nsource = "s"\n[pays]\nfive-aces = 400\n', encoding="utf-8")
    with pytest.raises(ProgressiveCardError, match='kind = "progressive"'):
        load_progressive_card(path)
