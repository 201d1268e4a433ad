"""The standard House Way: the whole table of seed 000, row by row in the card's order.

Ids: section prefix + row. A row that says "Follow the steps described for ..." carries
those steps. Readings we had to choose are marked READING and listed in the README.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from .engine import HouseWay, Rule, Section
from .facts import ACE, Facts, Run
from .plays import (
    first,
    highest_pair,
    joker_and_ace,
    lowest_pair,
    nth_highest,
    one_from_trips_and_highest_single,
    one_pair,
    pair_cards,
    pair_of,
    still_flush,
    still_straight,
    three_pairs,
    two,
    two_from_trips,
    two_highest_singles,
    two_pairs,
)
from .steps import flush_steps, run_steps

Cond = Callable[[Facts], bool]
KING, QUEEN, JACK, TEN = 13, 12, 11, 10

FLUSH_3K = flush_steps("FL3", "Flush")
STRAIGHT_3K = run_steps("ST3", "Straight", lambda f: f.run)
FOLLOW_FLUSH = 'Follow the steps described for "Flush and 3-of-a-kind"'
FOLLOW_STRAIGHT = 'Follow the steps described for "Straight and 3-of-a-kind"'


def both(*conds: Cond) -> Cond:
    return lambda f: all(c(f) for c in conds)


def within(section: Cond, rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The same rows, fitting only hands of this section."""
    return tuple(Rule(r.id, r.says, both(section, r.when), r.play, r.steps) for r in rules)


def pair_ace(f: Facts) -> tuple[Card, ...]:
    return tuple(f.natural_aces[:1])


def flush_pair_rows(p: str, section: Cond) -> tuple[Rule, ...]:
    """'Flush and Pair' rows; the Royal Flush section repeats them word for word."""
    def has_joker(f: Facts) -> bool:
        return f.joker is not None

    rows = (
        Rule(f"{p}-P1", "One Pair that uses Joker, and still have a Flush after removing the "
             "Joker and the Ace: The two cards will be the Joker and the Ace",
             when=lambda f: one_pair(f) and f.pair_uses_joker
             and still_flush(f, f.joker, *f.natural_aces[:1]),
             play=joker_and_ace),
        Rule(f"{p}-P2", "One Pair, Joker, and still have a Flush after removing the Pair: "
             "The two cards will be the pair",
             when=lambda f: one_pair(f) and has_joker(f) and still_flush(f, *pair_cards(f, 0)),
             play=lambda f: pair_of(f, f.pairs[0])),
        Rule(f"{p}-P3", "One Pair, Joker, and still have a flush after removing the Joker: "
             + FOLLOW_FLUSH, when=lambda f: one_pair(f) and has_joker(f)
             and still_flush(f, f.joker), steps=FLUSH_3K),
        # READING: "the 2nd and 3rd highest" counts the pair of aces as the highest, so
        # they are the two highest singletons; the 2nd and 3rd cards would be an ace and
        # a king in front of a hand the joker no longer flushes, which fouls.
        Rule(f"{p}-P4", "One Pair composed of Ace and Joker, where the Ace is also used by "
             "the flush: The two cards will be the 2nd and 3rd highest",
             when=lambda f: one_pair(f) and f.pair_uses_joker
             and bool(set(f.natural_aces) & set(f.flush_cards)),
             play=two_highest_singles),
        Rule(f"{p}-P5", "Any other One Pair, Joker: The two cards will be the Joker and the "
             "highest singleton not from the flush",
             when=lambda f: one_pair(f) and has_joker(f),
             play=lambda f: two(f.joker, first([c for c in f.singles if not c.is_joker
                                                 and c not in f.flush_cards]))),
        Rule(f"{p}-P6", "Any other One Pair and flush: " + FOLLOW_FLUSH, when=one_pair,
             steps=FLUSH_3K),
        Rule(f"{p}-2P1", "Two Pairs where one uses a Joker, and still have a flush after "
             "removing a Joker and an Ace: The two cards will be the Joker and the Ace",
             when=lambda f: two_pairs(f) and f.pair_uses_joker
             and still_flush(f, f.joker, *f.natural_aces[:1]),
             play=joker_and_ace),
        # READING: pairs are read low to high, so the "second pair" is the higher one.
        Rule(f"{p}-2P2", "Two Pairs, a Joker, and still have a flush after removing the "
             "second pair: The two cards will be the second pair",
             when=lambda f: two_pairs(f) and has_joker(f) and still_flush(f, *pair_cards(f, 1)),
             play=lambda f: pair_cards(f, 1)),
        Rule(f"{p}-2P3", "Two Pairs where the first ranks 2 or King, and the second ranks "
             "Ace: " + FOLLOW_FLUSH,
             when=lambda f: two_pairs(f) and min(f.pairs) in (2, KING) and max(f.pairs) == ACE,
             steps=FLUSH_3K),
        Rule(f"{p}-2P4", "All other Two Pairs: The two cards will be the lowest pair",
             when=two_pairs, play=lowest_pair),
        Rule(f"{p}-3P", "Three Pairs: The two cards will be the Joker and the Ace",
             when=three_pairs, play=joker_and_ace),
    )
    return within(section, rows)


def royal(f: Facts) -> bool:
    return f.royal


def straight_flush(f: Facts) -> bool:
    return f.straight_flush


def flush(f: Facts) -> bool:
    return f.flush


def straight(f: Facts) -> bool:
    return f.run is not None


FIVE_OF_A_KIND = Section(
    "Five of a kind",
    Rule("5K-1", "Hand contains two Kings: The two cards will be the two Kings",
         when=lambda f: len(f.of_rank(ACE)) == 5 and KING in f.pairs,
         play=lambda f: pair_of(f, KING)),
    Rule("5K-2", "Otherwise: The two cards will be two Aces",
         when=lambda f: len(f.of_rank(ACE)) == 5, play=lambda f: f.natural_aces[:2]),
    gate=lambda f: len(f.of_rank(ACE)) == 5,
)

ROYAL_FLUSH = Section(
    "Royal Flush",
    Rule("RF-3K", "Royal Flush and 3-of-a-kind: The two cards will be two from the "
         "3-of-a-kind", when=lambda f: f.royal and bool(f.trips),
         play=lambda f: two_from_trips(f, avoid=f.flush_cards)),
    *flush_pair_rows("RF", royal),
    *within(royal, flush_steps("RF", "Royal Flush")),
    gate=royal,
)

def joker_fills_seven(run: Run | None, f: Facts) -> bool:
    """All seven cards are this one straight (straight flush) and the joker stands in it."""
    return run is not None and run.length == 7 and f.joker is not None and f.joker in run.cards


def seven_straight_flush(f: Facts) -> bool:
    return joker_fills_seven(f.suited_run, f)


def seven_straight(f: Facts) -> bool:
    return joker_fills_seven(f.run, f)


# READING (docs/rules.md): seed 000 says "The Joker can be used to complete a five-card
# flush, straight, or straight flush. Otherwise, the Joker is counted as an Ace", and its
# 7-card rows name a joker inside a straight of all seven cards ("starting with an Ace and
# with a Joker in the second or last position", "starting with a Joker"). Such a joker
# completes the straight, so it is not also an Ace making "One Pair" with the Ace: the
# Straight Flush and Straight pair rows do not take those hands, the 7-card rows do
# (A-JK-3-4-5-6-7: the Ace and the Joker in front, 3-7 behind). Elsewhere the joker still
# pairs with an Ace (the Royal Flush rows say so: "One Pair that uses Joker").
def not_seven_sf(cond: Cond) -> Cond:
    return lambda f: cond(f) and not seven_straight_flush(f)


def not_seven_st(cond: Cond) -> Cond:
    return lambda f: cond(f) and not seven_straight(f)


STRAIGHT_FLUSH = Section(
    "Straight Flush",
    Rule("SF-FH1", "Straight Flush and Full House, 3-of-a-kind ranks Ace: The two cards "
         "will be the Pair", when=lambda f: f.straight_flush and f.full_house
         and f.trips[0] == ACE, play=highest_pair),
    Rule("SF-FH2", "Any other Straight Flush and Full House: The two cards will be the "
         "Joker and the Ace", when=lambda f: f.straight_flush and f.full_house,
         play=joker_and_ace),
    Rule("SF-3K", "Straight Flush and 3-of-a-kind: The two cards will be two from the "
         "3-of-a-kind", when=lambda f: f.straight_flush and bool(f.trips),
         play=lambda f: two_from_trips(f, avoid=_suited_run(f))),
    # READING (docs/rules.md): "One Pair" beside a straight flush is read as the seed's
    # joker sentence says: a joker that completes the straight flush is not also an Ace.
    # 2S 3S 4S 5S AS 2H JK is a Straight Flush and One Pair (the 2s, in front; A-5 of
    # spades behind), not two pairs for "Straight Flush Alone". The Full House rows above
    # keep the joker both ways: seven cards hold a straight flush and a full house only so.
    Rule("SF-P1", "Straight Flush and One Pair that uses Joker: The two cards will be the "
         "Joker and the Ace", when=not_seven_sf(lambda f: f.straight_flush
         and one_pair(f.beside_straight_flush) and f.beside_straight_flush.pair_uses_joker),
         play=joker_and_ace),
    Rule("SF-P2", "Straight Flush and One Pair: The two cards will be the Pair",
         when=not_seven_sf(lambda f: f.straight_flush and one_pair(f.beside_straight_flush)),
         play=lambda f: pair_of(f, f.beside_straight_flush.pairs[0], avoid=_suited_run(f))),
    # READING: "Straight Flush Alone" also takes a straight flush with two pairs, which no
    # row above names: keeping the straight flush is what the rows above all do.
    *within(straight_flush, run_steps("SF", "Straight Flush", lambda f: f.suited_run)),
    gate=straight_flush,
)


def _suited_run(f: Facts) -> tuple[Card, ...]:
    return f.suited_run.cards if f.suited_run else ()


def quads(f: Facts) -> bool:
    return bool(f.quads)


FOUR_OF_A_KIND = Section(
    "Four of a Kind",
    Rule("4K-3K1", "4-of-a-kind and 3-of-a-kind, when the rank of the 4-of-a-kind is 1 above "
         "or below the rank of the 3-of-a-kind: The two cards will be two from the "
         "3-of-a-kind", when=lambda f: quads(f) and bool(f.trips)
         and abs(f.quads[0] - f.trips[0]) == 1, play=two_from_trips),
    Rule("4K-3K2", "Any other 4-of-a-kind and 3-of-a-kind: The two cards will be the highest "
         "cards", when=lambda f: quads(f) and bool(f.trips),
         play=lambda f: nth_highest(f, 1, 2)),
    Rule("4K-P1", "4-of-a-kind and a Pair, when the rank of the 4-of-a-kind is greater than "
         "the rank of the Pair: The two cards will be two from the 4-of-a-kind",
         when=lambda f: quads(f) and bool(f.pairs) and f.quads[0] > f.pairs[0],
         play=lambda f: pair_of(f, f.quads[0])),
    Rule("4K-P2", "Any other 4-of-a-kind and a Pair: The two cards will be the Pair",
         when=lambda f: quads(f) and bool(f.pairs), play=highest_pair),
    # READING: quads leave three singletons; the two highest go in front.
    Rule("4K-S", "4-of-a-kind and two singletons: The two cards will be the two singletons",
         when=quads, play=two_highest_singles),
    gate=quads,
)


def plain_full_house(f: Facts) -> bool:
    return f.full_house and not f.flush and f.run is None


def pair_beats_singles(f: Facts) -> bool:
    # READING: a pair always outranks two singletons as a poker hand, so "higher" compares
    # the pair's rank with the singletons' high card; otherwise the next row could not fire.
    return f.pairs[0] > int(f.singles[0].rank or ACE)


FULL_HOUSE = Section(
    "Full House",
    Rule("FH-P1", "Full House and Pair, an Ace 3-of-a-kind, a Pair of 2s and a Pair of 3s: "
         "The two cards will be two Aces", when=lambda f: plain_full_house(f)
         and f.trips == [ACE] and f.pairs == [3, 2], play=lambda f: pair_of(f, ACE)),
    Rule("FH-P2", "Any other Full House and Pair: The two cards will be the higher Pair",
         when=lambda f: plain_full_house(f) and len(f.trips) == 1 and len(f.pairs) == 2,
         play=highest_pair),
    Rule("FH-S1", "Full House where the Pair is higher than the Two Singletons hand: The two "
         "cards will be the Pair", when=lambda f: plain_full_house(f) and len(f.pairs) == 1
         and len(f.singles) == 2 and pair_beats_singles(f), play=highest_pair),
    Rule("FH-S2", "Full House where the Pair is lower than the Two Singletons hand: The two "
         "cards will be the Two Singletons", when=lambda f: plain_full_house(f)
         and len(f.pairs) == 1 and len(f.singles) == 2, play=two_highest_singles),
    gate=plain_full_house,
)

FLUSH = Section(
    "Flush",
    Rule("FL-FH1", "Flush and Full House, 3 Aces in the Full House: The two cards will be "
         "the pair", when=lambda f: f.flush and f.full_house and f.trips[0] == ACE,
         play=highest_pair),
    Rule("FL-FH2", "Flush and Full House, 3 Tens or better in the Full House: The two cards "
         "will be two from the 3-of-a-kind", when=lambda f: f.flush and f.full_house
         and f.trips[0] >= TEN, play=lambda f: two_from_trips(f, avoid=f.flush_cards)),
    Rule("FL-FH3", "Any other Flush and Full House: The two cards will be the Joker and the "
         "Ace", when=lambda f: f.flush and f.full_house, play=joker_and_ace),
    *within(lambda f: f.flush and bool(f.trips), FLUSH_3K),
    *flush_pair_rows("FL", flush),
    Rule("FL-X", "Otherwise: " + FOLLOW_FLUSH, when=flush, steps=FLUSH_3K),
    gate=flush,
)


def has_ranks(f: Facts, *ranks: int) -> bool:
    return all(f.of_rank(r) for r in ranks)


def ace_and_highest_single(f: Facts) -> Sequence[Card] | None:
    ace = first(f.natural_aces)
    return two(ace, first([c for c in f.singles if c is not ace and not c.is_joker]))


BROADWAY = (ACE, KING, QUEEN, JACK, TEN)

STRAIGHT = Section(
    "Straight",
    Rule("ST-FH1", "Straight and Full House, 3 Aces and One Pair: The two cards will be the "
         "pair", when=lambda f: straight(f) and f.full_house and f.trips[0] == ACE,
         play=highest_pair),
    Rule("ST-FH2", "3-of-a-kind higher than Ten and One Pair: The two cards will be two "
         "cards from the 3-of-a-kind", when=lambda f: straight(f) and f.full_house
         and f.trips[0] > TEN, play=lambda f: two_from_trips(f, avoid=_run(f))),
    Rule("ST-FH3", "Any other 3-of-a-kind and One Pair: The two cards will be the Joker and "
         "the Ace", when=lambda f: straight(f) and f.full_house, play=joker_and_ace),
    *within(lambda f: straight(f) and bool(f.trips), STRAIGHT_3K),
    Rule("ST-P1", "One Pair with a Joker and a Straight without Ace: The two cards will be "
         "the Ace and the highest singleton",
         when=not_seven_st(lambda f: straight(f) and one_pair(f) and f.pair_uses_joker
                           and still_straight(f, *f.natural_aces)),
         play=ace_and_highest_single),
    Rule("ST-P2", "One Pair, Joker, and still have a Straight after removing the pair: The "
         "two cards will be the pair", when=not_seven_st(lambda f: straight(f) and one_pair(f)
         and f.joker is not None and still_straight(f, *pair_cards(f, 0))),
         play=lambda f: pair_of(f, f.pairs[0])),
    Rule("ST-P3", "One Pair ranking King, and a Straight containing Ace, King, Queen, Jack and "
         "10: The two cards will be the Ace and the Queen", when=lambda f: straight(f)
         and one_pair(f) and f.pairs[0] == KING and has_ranks(f, *BROADWAY),
         play=lambda f: two(first(f.of_rank(ACE)), first(f.of_rank(QUEEN)))),
    Rule("ST-P4", "One Pair ranking Queen, Jack or 10, and a Straight containing Ace, King, "
         "Queen, Jack and 10: The two cards will be the Ace and the King",
         when=lambda f: straight(f) and one_pair(f) and f.pairs[0] in (QUEEN, JACK, TEN)
         and has_ranks(f, *BROADWAY),
         play=lambda f: two(first(f.of_rank(ACE)), first(f.of_rank(KING)))),
    Rule("ST-P5", "All other One Pair: " + FOLLOW_STRAIGHT,
         when=not_seven_st(lambda f: straight(f) and one_pair(f)), steps=STRAIGHT_3K),
    Rule("ST-2P1", "Two Pairs, and still have a straight after removing the first pair: The "
         "two cards will be the first pair", when=lambda f: straight(f) and two_pairs(f)
         and still_straight(f, *pair_cards(f, 0)), play=lambda f: pair_cards(f, 0)),
    Rule("ST-2P2", "Two Pairs, Joker, and still have a Straight after removing an Ace and the "
         "Joker: The two cards will be the Ace and the Joker",
         when=lambda f: straight(f) and two_pairs(f) and f.joker is not None
         and bool(f.natural_aces) and still_straight(f, f.joker, f.natural_aces[0]),
         play=joker_and_ace),
    Rule("ST-2P3", "Two Pairs, and still have a straight after removing the second pair: The "
         "two cards will be the second pair", when=lambda f: straight(f) and two_pairs(f)
         and still_straight(f, *pair_cards(f, 1)), play=lambda f: pair_cards(f, 1)),
    Rule("ST-2P4", "Two Pairs where the first ranks 2, second ranks lower than 5, and hand "
         "lacks Aces and Joker: " + FOLLOW_STRAIGHT,
         when=lambda f: straight(f) and two_pairs(f) and min(f.pairs) == 2
         and max(f.pairs) < 5 and not f.of_rank(ACE), steps=STRAIGHT_3K),
    Rule("ST-2P5", "All other Two Pairs: The two cards will be the lowest pair",
         when=lambda f: straight(f) and two_pairs(f), play=lowest_pair),
    Rule("ST-3P", "Three Pairs: The two cards will be the Ace and the Joker",
         when=lambda f: straight(f) and three_pairs(f), play=joker_and_ace),
    # READING (DESIGN.md): a straight with no pair follows the 5/6/7-card straight steps.
    Rule("ST-X", "A straight with no pair: " + FOLLOW_STRAIGHT,
         when=straight, steps=STRAIGHT_3K),
    gate=straight,
)


def _run(f: Facts) -> tuple[Card, ...]:
    return f.run.cards if f.run else ()


def singles_at_least(n: int, rank: int) -> Cond:
    return lambda f: len(f.singles) >= n and all(
        int(c.rank or ACE) >= rank for c in f.singles[:n])


THREE_OF_A_KIND = Section(
    "Three of a kind",
    Rule("3K-1", "One 3-of-a-kind, 3 Aces or 2 Aces and 1 Joker: The two cards will be one "
         "from the 3-of-a-kind and the highest singleton", when=lambda f: f.trips == [ACE]
         and not f.pairs, play=one_from_trips_and_highest_single),
    # READING: "2 others equal to or higher than Ten" are the two highest singletons.
    Rule("3K-2", "3 Kings & 2 others equal to or higher than Ten cards: The two cards will "
         "be the two highest singletons", when=lambda f: f.trips == [KING] and not f.pairs
         and singles_at_least(2, TEN)(f), play=two_highest_singles),
    Rule("3K-3", "3 Kings: The two cards will be one from the 3-of-a-kind and the highest "
         "singleton", when=lambda f: f.trips == [KING] and not f.pairs,
         play=one_from_trips_and_highest_single),
    Rule("3K-4", "Any other 3-of-a-kind: The two cards will be the two highest singletons",
         when=lambda f: len(f.trips) == 1 and not f.pairs, play=two_highest_singles),
    Rule("3K-5", "Two 3-of-a-kind: The two cards will be two cards from the highest "
         "3-of-a-kind", when=lambda f: len(f.trips) == 2, play=two_from_trips),
    gate=lambda f: bool(f.trips),
)

PAIRS = Section(
    "Pairs",
    Rule("PR-1", "One pair: The two cards will be the two highest singletons",
         when=one_pair, play=two_highest_singles),
    Rule("PR-2", "Two pairs: The two cards will be the lowest pair", when=two_pairs,
         play=lowest_pair),
    Rule("PR-3", "Three pairs: The two cards will be the highest pair", when=three_pairs,
         play=highest_pair),
    gate=lambda f: bool(f.pairs),
)


def places(f: Facts, *allowed: tuple[int, ...]) -> bool:
    return all(int(f.by_value[i].rank or ACE) in ranks for i, ranks in enumerate(allowed))


HIGH_CARD = Section(
    "High Card",
    Rule("HC-1", "1st highest [Joker|A], 2nd highest [K|Q], 3rd highest [8|9|10], 4th highest "
         "[7|8]: The two cards will be 2nd & 4th highest",
         when=lambda f: places(f, (ACE,), (KING, QUEEN), (8, 9, 10), (7, 8)),
         play=lambda f: nth_highest(f, 2, 4)),
    Rule("HC-2", "Otherwise: The two cards will be 2nd & 3rd highest", when=lambda f: True,
         play=lambda f: nth_highest(f, 2, 3)),
)

CARD = HouseWay(
    name="standard",
    title="Standard House Way (seed 000)",
    source="../shared/seeds/000: 'The House Way' table, every row in the card's order",
    sections=(FIVE_OF_A_KIND, ROYAL_FLUSH, STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, FLUSH,
              STRAIGHT, THREE_OF_A_KIND, PAIRS, HIGH_CARD),
    notes=(
        "Pairs, trips and quads count the joker as an ace; straights and flushes may use it.",
        "Beside a straight flush ('Straight Flush and Pair'), a joker that completes the "
        "straight flush is that card, not also an ace: 2S 3S 4S 5S AS 2H JK is one pair.",
        "A hand is in the first section whose row fits: a full house with a flush or a "
        "straight is played by the Flush or Straight rows that name it.",
        "Straights are read low to high: 'first' is the lowest card, 'last' the highest; "
        "'starting with an Ace' is A-2-3-...; a joker that could stand at either end of a "
        "straight stands at the higher end, and of equally long straights the higher is played.",
        "Pairs are read low to high: the 'first pair' is the lower, the 'second' the higher.",
        "A row fits only if its play is legal; a card never asks for a foul.",
    ),
)



