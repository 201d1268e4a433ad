"""The bonus's exact counts over all 154,143,080 seven-card hands (issue 26): they sum to every
hand, agree with the published counts, and agree with a hand-by-hand evaluation (every hand
of two small decks; a random sample of the whole deck).

Published counts compared with (seven cards of the 52-card deck and a joker, the bug):
- Wizard of Odds, "Pai Gow Mania" (wizardofodds.com/games/pai-gow-poker/appendix/5/), the
  seven-card side bet: five aces 1,128; royal flush 26,132; straight flush 184,832; four of
  a kind 307,472; full house 4,188,528; flush 6,172,088; three of a kind 7,672,500;
  straight 11,034,204; other 124,556,196; house edge 6.37% (0.063667). Its three of a kind
  ranks above the straight, as Fortune's does, and its royal flush is every hand holding
  one (no seven-card category above it).
- Brian Alspach, "7-Card Poker Hands with Joker" (2003, people.math.sfu.ca/~alspach/comp40),
  from his "Pai Gow Poker Computations" (comp38, the Fortune bonus hands): 210,964 hands
  hold a straight flush, seven-card ones included.
The three seven-card categories are counted by hand in docs/bonus.md (32, 72 and 196).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import pytest

from app.core.bonus import Category, PayCard, pay_card
from app.core.bonus.exact import ALL_HANDS, BonusOdds, bonus_odds, count_categories
from app.core.cards import DECK, JOKER, Card, Rank
from app.core.hands import Category as Poker
from app.core.hands import HandRules, ranker

C = Category

PUBLISHED_LOW = {  # Pai Gow Mania's seven-card table, the categories Fortune shares
    C.FIVE_ACES: 1_128, C.FOUR_OF_A_KIND: 307_472, C.FULL_HOUSE: 4_188_528,
    C.FLUSH: 6_172_088, C.THREE_OF_A_KIND: 7_672_500, C.STRAIGHT: 11_034_204,
    C.NOTHING: 124_556_196,
}
PUBLISHED_MANIA = {**PUBLISHED_LOW, C.ROYAL_FLUSH: 26_132, C.STRAIGHT_FLUSH: 184_832}
STRAIGHT_FLUSH_FAMILY = (C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH, C.ROYAL_FLUSH_WITH_ROYAL_MATCH,
                         C.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER, C.ROYAL_FLUSH,
                         C.STRAIGHT_FLUSH)


@pytest.fixture(scope="module")
def fortune_odds() -> BonusOdds:
    return bonus_odds(pay_card("fortune-8000"))


@pytest.fixture(scope="module")
def fortune_counts(fortune_odds) -> dict[Category, int]:
    return fortune_odds.counts


def test_the_counts_sum_to_every_seven_card_hand_of_the_53_cards(fortune_counts):
    assert ALL_HANDS == math.comb(53, 7) == 154_143_080
    assert sum(fortune_counts.values()) == ALL_HANDS


def test_the_fortune_counts_agree_with_the_published_ones(fortune_counts):
    for category, published in PUBLISHED_LOW.items():
        assert fortune_counts[category] == published, category
    assert sum(fortune_counts[c] for c in STRAIGHT_FLUSH_FAMILY) == 210_964  # Alspach
    # docs/bonus.md: 8 runs x 4 suits; 12 natural and 60 joker royals beside a suited K-Q;
    # 49 sets of six suited ranks that the joker makes seven in a row, x 4 suits.
    assert fortune_counts[C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH] == 32
    assert fortune_counts[C.ROYAL_FLUSH_WITH_ROYAL_MATCH] == 72
    assert fortune_counts[C.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER] == 196
    # Every hand holding a royal flush (Pai Gow Mania's row): royal, royal match, or a
    # seven-card straight flush holding one (docs/bonus.md: 4 natural, 36 with the joker).
    assert (fortune_counts[C.ROYAL_FLUSH] + fortune_counts[C.ROYAL_FLUSH_WITH_ROYAL_MATCH]
            + 40 == 26_132)


@pytest.mark.proof  # a second count over every hand (make test counts Fortune's)
def test_pai_gow_manias_card_gives_its_published_counts_and_house_edge():
    odds = bonus_odds(pay_card("pai-gow-mania-seven"))
    assert odds.counts == PUBLISHED_MANIA
    assert abs(float(odds.house_edge) - 0.063667) < 5e-7


def test_the_house_edge_is_the_loss_per_unit_wagered(fortune_odds):
    card, odds = fortune_odds.card, fortune_odds
    back = sum(Fraction(n * card.result(c, 1), ALL_HANDS) for c, n in odds.counts.items())
    assert odds.house_edge == -back


@pytest.mark.proof  # a count over every hand
def test_a_fully_wild_joker_still_counts_every_hand():
    counts = count_categories(pay_card("fortune-8000"), joker="fully-wild")
    assert sum(counts.values()) == ALL_HANDS
    assert counts[C.FIVE_ACES] > 1_128  # five of any rank


# --- the count against a hand-by-hand evaluation ------------------------------------------------

def reference(cards: Sequence[Card], card: PayCard, joker: str = "bug") -> Category:
    """The category by the table's five-card ranker over every five of the seven, and the
    seven-card categories by trying the joker as every card: the rules, slowly."""
    rank5 = ranker(HandRules(joker=joker)).rank5  # type: ignore[arg-type]
    made: set[Category] = set()
    for five in combinations(cards, 5):
        strength = rank5(five)
        kind = Poker(strength >> 20)
        top = (strength >> 16) & 0xF
        if kind is Poker.FIVE_OF_A_KIND:
            made |= {C.FIVE_ACES, C.FOUR_OF_A_KIND, C.THREE_OF_A_KIND}
        if kind is Poker.STRAIGHT_FLUSH:
            made |= {C.STRAIGHT_FLUSH, C.FLUSH, C.STRAIGHT}
            if top == 9:  # the highest of the ten straights: A-K-Q-J-T
                made.add(C.ROYAL_FLUSH)
        made |= {Poker.QUADS: {C.FOUR_OF_A_KIND, C.THREE_OF_A_KIND},
                 Poker.FULL_HOUSE: {C.FULL_HOUSE, C.THREE_OF_A_KIND},
                 Poker.FLUSH: {C.FLUSH}, Poker.STRAIGHT: {C.STRAIGHT},
                 Poker.TRIPS: {C.THREE_OF_A_KIND}}.get(kind, set())
    natural = [c for c in cards if not c.is_joker]
    counts = Counter(int(c.rank) for c in natural if c.rank is not None)
    stand_ins = [14] if joker == "bug" else list(range(2, 15))
    for r in stand_ins if len(natural) < len(cards) else [0]:
        if sum(n >= 2 for n in (counts + Counter({r: 1})).values()) >= 3:
            made.add(C.THREE_PAIRS)
    for seven in _as_naturals(natural, len(natural) < len(cards), joker):
        if len({c.suit for c in seven}) == 1 and _in_a_row(seven):
            made.add(C.NATURAL_SEVEN_CARD_STRAIGHT_FLUSH if len(natural) == 7
                     else C.SEVEN_CARD_STRAIGHT_FLUSH_WITH_JOKER)
        if _royal_match(seven, natural):
            made.add(C.ROYAL_FLUSH_WITH_ROYAL_MATCH)
    return next((c for c in card.order if c in made), C.NOTHING)


def _as_naturals(natural: list[Card], joker_held: bool, joker: str) -> list[list[Card]]:
    if not joker_held:
        return [natural]
    return [[*natural, c] for c in DECK[:52] if c not in natural]


def _in_a_row(seven: Sequence[Card]) -> bool:
    ranks = sorted(int(c.rank) for c in seven if c.rank is not None)
    low = sorted(1 if r == 14 else r for r in ranks)
    return any(r == list(range(r[0], r[0] + 7)) for r in (ranks, low))


def _royal_match(seven: Sequence[Card], natural: list[Card]) -> bool:
    """Five of a suit A to T, and the other two the K and Q of another suit; the bug may
    stand only for a card of the royal (a fully wild joker for any card: the caller tries
    it as every card, the bug only where it completes the royal)."""
    for suit in {c.suit for c in seven}:
        royal = [c for c in seven if c.suit == suit and c.rank is not None and c.rank >= 10]
        rest = [c for c in seven if c not in royal]
        if len(royal) == 5 and len(rest) == 2 and {c.rank for c in rest} == {Rank.KING,
                                                                            Rank.QUEEN}:
            if rest[0].suit == rest[1].suit != suit:
                return _joker_allowed(royal, rest, natural)
    return False


def _joker_allowed(royal: list[Card], rest: list[Card], natural: list[Card]) -> bool:
    stood_for = [c for c in royal + rest if c not in natural]
    return not stood_for or stood_for[0] in royal or _WILD[0]


_WILD = [False]


def sub_deck(ranks: Sequence[int], suits: int) -> list[Card]:
    return [c for c in DECK[:52] if c.rank in ranks and c.index // 13 < suits] + [JOKER]


# The two larger decks (hundreds of thousands of hands each, 5-8 s of CPU a case) in
# `make proof`; the 8-to-ace deck of two suits, which holds the royal match and the
# seven-card straight flushes, in `make test` too.
@pytest.mark.parametrize(("ranks", "suits"), [
    pytest.param((14, 2, 3, 4, 5, 6, 7, 8), 2, marks=pytest.mark.proof),
    ((8, 9, 10, 11, 12, 13, 14), 2),
    pytest.param((10, 11, 12, 13, 14), 3, marks=pytest.mark.proof)])
@pytest.mark.parametrize("joker", ["bug", "fully-wild"])
def test_the_count_of_a_small_deck_is_the_count_of_its_hands_one_by_one(ranks, suits, joker):
    card = pay_card("fortune-5000-push")
    _WILD[0] = joker == "fully-wild"
    deck = sub_deck(ranks, suits)
    by_hand = Counter(reference(h, card, joker) for h in combinations(deck, 7))
    counted = count_categories(card, joker=joker, ranks=ranks, suits=suits)  # type: ignore[arg-type]
    assert sum(counted.values()) == math.comb(len(deck), 7)
    assert {c: n for c, n in counted.items() if n} == dict(by_hand)


def test_a_random_sample_of_the_whole_deck_falls_as_the_exact_count_says(fortune_counts):
    card = pay_card("fortune-8000")
    _WILD[0] = False
    rng = random.Random(26)
    hands = 20_000
    seen = Counter(card.category(rng.sample(DECK, 7)) for _ in range(hands))
    for category, n in fortune_counts.items():
        p = n / ALL_HANDS
        se = math.sqrt(p * (1 - p) / hands) or 1 / hands
        assert abs(seen[category] / hands - p) < 5 * se + 1 / hands, category


def test_the_direct_category_is_the_reference_on_a_random_sample():
    rng = random.Random(7)
    for joker in ("bug", "fully-wild"):
        _WILD[0] = joker == "fully-wild"
        for name in ("fortune-5000-push", "pai-gow-mania-seven"):
            card = pay_card(name)
            for _ in range(300):
                hand = rng.sample(DECK, 7)
                if JOKER not in hand:
                    hand[0] = JOKER
                assert card.category(hand, joker) is reference(hand, card, joker), hand  # type: ignore[arg-type]
