"""Hand ranking with the joker, copies and fouls, checked against the seed texts."""

from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from app.core import hands
from app.core.cards import DECK, parse_cards
from app.core.hands import (
    ALL_RULES,
    DEFAULT_RULES,
    Category,
    HandRules,
    Setting,
    _shipped_tables,
    built_tables,
    category_of,
    describe,
    foul_reason,
    is_foul,
    rank2,
    rank5,
    ranker,
)


def r5(text, rules=DEFAULT_RULES):
    return rank5(parse_cards(text, count=5), rules)


def r2(text, rules=DEFAULT_RULES):
    return rank2(parse_cards(text, count=2), rules)


def cat(text, rules=DEFAULT_RULES):
    return category_of(r5(text, rules))


def test_every_five_card_hand_of_the_53_card_deck_counts_as_published():
    rank = ranker(HandRules("bug", "second")).rank5
    counts = Counter(category_of(rank(h)) for h in combinations(DECK, 5))
    assert counts == {
        Category.FIVE_OF_A_KIND: 1, Category.STRAIGHT_FLUSH: 204, Category.QUADS: 828,
        Category.FULL_HOUSE: 4368, Category.FLUSH: 7804, Category.STRAIGHT: 20532,
        Category.TRIPS: 63360, Category.TWO_PAIR: 138600, Category.PAIR: 1215024,
        Category.HIGH_CARD: 1418964,
    }
    assert sum(counts.values()) == 2869685


def test_five_aces_beat_a_royal_flush():
    assert cat("AS AH AD AC JK") == Category.FIVE_OF_A_KIND
    assert r5("AS AH AD AC JK") > r5("AS KS QS JS TS")


def test_royal_flush_is_the_top_straight_flush():
    assert r5("AS KS QS JS TS") > r5("KH QH JH TH 9H")
    assert describe(r5("AS KS QS JS TS")) == "royal flush"


@pytest.mark.parametrize("higher, lower", [
    ("AS KD QH JC TS", "AH 2D 3C 4S 5H"),   # broadway, then the wheel
    ("AH 2D 3C 4S 5H", "KS QD JH TC 9S"),   # the wheel is second highest
    ("KS QD JH TC 9S", "6S 5D 4H 3C 2S"),
])
def test_a_2_3_4_5_is_the_second_highest_straight(higher, lower):
    assert r5(higher) > r5(lower)


def test_a_2_3_4_5_straight_flush_is_second_highest_straight_flush():
    assert r5("AS KS QS JS TS") > r5("AH 2H 3H 4H 5H") > r5("KD QD JD TD 9D")


def test_wheel_lowest_option_ranks_a_2_3_4_5_below_every_straight():
    lowest = HandRules(wheel="lowest")
    assert r5("AH 2D 3C 4S 5H", lowest) < r5("6S 5D 4H 3C 2S", lowest)
    assert cat("AH 2D 3C 4S 5H", lowest) == Category.STRAIGHT


def test_bug_joker_is_an_ace_when_it_completes_nothing():
    assert cat("JK AS KD 7C 4H") == Category.PAIR
    assert describe(r5("JK AS KD 7C 4H")) == "pair of Aces"
    assert cat("JK AS AD 7C 4H") == Category.TRIPS
    assert cat("JK KS KD 7C 4H") == Category.PAIR  # kings, with an ace kicker
    assert r5("JK KS KD 7C 4H") == r5("AC KS KD 7C 4H")


def test_bug_joker_completes_a_straight_with_its_highest_card():
    assert cat("JK 9S 8D 7C 6H") == Category.STRAIGHT
    assert r5("JK 9S 8D 7C 6H") == r5("TS 9S 8D 7C 6H")
    assert r5("JK KS QD JC TH") == r5("AS KS QD JC TH")


def test_bug_joker_fills_the_gap_of_a_straight():
    assert r5("JK 9S 8D 6C 5H") == r5("7S 9S 8D 6C 5H")


def test_bug_joker_in_a_flush_is_the_highest_rank_the_flush_lacks():
    assert cat("JK AS QS 7S 3S") == Category.FLUSH
    assert r5("JK AS QS 7S 3S") == r5("AD KD QD 7D 3D")
    assert r5("JK KS QS 7S 3S") == r5("AD KD QD 7D 3D")


def test_bug_joker_completes_a_straight_flush():
    assert cat("JK 9S 8S 7S 5S") == Category.STRAIGHT_FLUSH
    assert r5("JK KS QS JS TS") == r5("AS KS QS JS TS")


def test_bug_joker_does_not_make_quads_of_anything_but_aces():
    assert cat("JK KS KD KC 2H") == Category.TRIPS
    assert cat("JK AS AD AC 2H") == Category.QUADS
    assert cat("JK KS KD KC KH") == Category.QUADS  # four kings, ace kicker


def test_fully_wild_joker_is_any_card():
    wild = HandRules(joker="fully-wild")
    assert cat("JK KS KD KC 2H", wild) == Category.QUADS
    assert cat("JK 7S 7D 7C 7H", wild) == Category.FIVE_OF_A_KIND
    assert r2("JK 9D", wild) == r2("9S 9D", wild)


def test_two_card_hand_joker_is_an_ace():
    assert r2("JK AD") == r2("AS AD")
    assert r2("JK 9D") == r2("AS 9D")
    assert describe(r2("JK 9D")) == "high card, A-9"


def test_two_card_pair_beats_any_two_card_high_hand():
    assert r2("2S 2D") > r2("AS KD")
    assert r2("AS AD") > r2("KS KD")


def test_equal_hands_are_copies():
    assert r5("AS KD 9C 7H 5S") == r5("AH KC 9D 7S 5C")
    assert r2("QS JD") == r2("QH JC")
    assert r5("AS KS QS JS TS") == r5("AH KH QH JH TH")


def test_kickers_break_ties_in_rank_order():
    assert r5("KS KD 9C 7H 5S") > r5("KH KC 9D 7S 4C")
    assert r5("AS QS 9S 7S 5S") > r5("AH JH TH 9H 7H")
    assert r5("9S 9D 4C 4H AS") > r5("9H 9C 4D 4S KS")


@pytest.mark.parametrize("low, high, reason", [
    ("AS AD", "KS QH 7C 5D 2H", "pair of Aces"),
    ("KS QD", "KH JC 9S 4D 3H", "high card, K-Q"),
    ("8S 8D", "7S 7D AC KH QS", "pair of 8s"),
])
def test_two_card_hand_that_outranks_the_five_card_hand_is_a_foul(low, high, reason):
    setting = Setting.of(parse_cards(low), parse_cards(high))
    assert is_foul(setting)
    assert reason in foul_reason(setting)


@pytest.mark.parametrize("low, high", [
    ("KS QD", "AS 7H 5C 3D 2H"),
    ("AS KD", "AH KC 9S 4D 3H"),     # same two top cards: the five-card hand is not beaten
    ("8S 8D", "8H 8C AC KH QS"),
    ("JK KD", "QS QD 9C 7H 5S"),
])
def test_five_card_hand_at_least_as_high_is_legal(low, high):
    assert not is_foul(Setting.of(parse_cards(low), parse_cards(high)))


def test_a_split_that_is_not_two_and_five_is_a_foul():
    setting = Setting.of(parse_cards("AS KD 3C"), parse_cards("QH JC 9S 4D"))
    assert foul_reason(setting) == "the hands must be 2 + 5 cards, not 3 + 4"


def test_a_setting_of_other_cards_than_dealt_is_a_foul():
    dealt = parse_cards("AS KD QH JC 9S 4D 3H")
    setting = Setting.of(parse_cards("AS KD"), parse_cards("QH JC 9S 4D 2H"))
    assert "not the seven cards dealt" in foul_reason(setting, dealt)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.joker}-{r.wheel}")
def test_shipped_rank_tables_agree_with_the_rules_as_written_on_every_entry(
        rules: HandRules) -> None:
    """app/core/rank_tables.bin (read, not built, by every process) against the reference
    evaluator: `python -m app.core.hands` writes it again when the rules change."""
    shipped = _shipped_tables(rules)
    built = built_tables(rules)
    assert shipped.suited == built.suited
    assert shipped.unsuited == built.unsuited


@pytest.mark.parametrize("damage", ["cut short", "another format"])
def test_a_damaged_rank_tables_file_gives_no_tables_so_they_are_built(
        damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file cut short or of another format gives no tables (the ranker then builds them
    from the rules as written) rather than wrong strengths; the whole file gives each rule
    set its own."""
    whole = hands.TABLES_FILE.read_bytes()
    assert _shipped_tables(HandRules("fully-wild", "lowest")) == built_tables(
        HandRules("fully-wild", "lowest"))
    damaged = tmp_path / "rank_tables.bin"
    damaged.write_bytes(whole[:-100] if damage == "cut short" else
                        whole.replace(hands.TABLES_FORMAT.encode(), b"paigow-rank-tables/0"))
    monkeypatch.setattr(hands, "TABLES_FILE", damaged)
    assert _shipped_tables(DEFAULT_RULES) is None
