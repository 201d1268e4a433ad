"""Trump Plaza's House Way (Atlantic City), every line of the paraphrased card in its order.

The card is ../shared/house-ways/trump-plaza.md: the one the best-known public analyses of
the game use (a player and a dealer both setting it: the player wins 28.6%, pushes 41.5%,
loses 29.9%, a house edge near 2.7%), so `paigow simulate` can check the station against
them. Front = the two-card hand, back = the five-card hand. Ids: "TP-" + the line. A line
that says the hand "follows its own rule" carries that rule as its steps. Where the text
is terse we choose a reading, marked READING here and listed in `CARD.notes`.
"""

from __future__ import annotations

from collections.abc import Callable

from .engine import HouseWay, Rule, Section
from .facts import ACE, Facts, value
from .phrases import (
    Cond,
    best_keep,
    both,
    first_legal,
    five_aces,
    highest_front_keeping,
    highest_single_is,
    keeps,
    neither,
    no_pair,
    pair_in_front_keeping,
    six_or_seven,
    straight_or_flush,
    two_highest_natural_singles,
    within,
)
from .plays import (
    Front,
    highest_pair,
    lowest_pair,
    nth_highest,
    one_from_trips_and_highest_single,
    one_pair,
    one_trips,
    pair_of,
    three_pairs,
    two,
    two_from_trips,
    two_highest_singles,
    two_pairs,
)

Play = Callable[[Facts], Front]
KING = 13

# "Pairs: low 2-6, medium 7-10, high J-K (aces apart)": the card's words for the rank of a
# pair (two pair) and of a four of a kind; the joker counts as an ace.
LOW = frozenset(range(2, 7))
MEDIUM = frozenset(range(7, 11))
HIGH = frozenset(range(11, 14))
TIERS = "low 2-6, medium 7-10, high J-K, aces apart"


def tier(rank: int) -> str:
    if rank == ACE:
        return "aces"
    return "low" if rank in LOW else "medium" if rank in MEDIUM else "high"


def pairs_are(*combos: str) -> Cond:
    """Two pairs whose tiers, lower pair first, are one of `combos` ("low+medium");
    "aces+any" is a pair of aces with any other pair."""
    wanted = frozenset(combos)

    def test(f: Facts) -> bool:
        if not two_pairs(f):
            return False
        lower, higher = tier(f.pairs[1]), tier(f.pairs[0])
        return f"{lower}+{higher}" in wanted or (higher == "aces" and "aces+any" in wanted)
    return test


def split_unless_in_front(*ranks: int) -> Play:
    """'Split unless a <rank> can go in front (then keep both pairs back with it in
    front)': the lower pair in front; but when a single of `ranks` (the joker is an ace)
    stands outside the pairs, both pairs stay back and it goes in front with the next
    highest single."""
    def play(f: Facts) -> Front:
        if highest_single_is(f, *ranks):
            return two_highest_singles(f)
        return lowest_pair(f)
    return play


def quads_of(ranks: frozenset[int]) -> Cond:
    """Four of a kind of these ranks and three singles (no other pair or set)."""
    return lambda f: bool(f.quads) and f.quads[0] in ranks and not f.pairs and not f.trips


def split_quads_unless(*ranks: int) -> Play:
    """'Split unless a <rank> can go in front': two of the four in front and two back;
    but when a single of `ranks` (the joker is an ace) can go in front, the four stay
    back and it goes in front with the next highest single."""
    def play(f: Facts) -> Front:
        if highest_single_is(f, *ranks):
            return two_highest_singles(f)
        return pair_of(f, f.quads[0])
    return play


def pair_in_front_only_if_kept(f: Facts) -> Front:
    """'Put the pair in front only if the straight/flush survives'; else the straight or
    flush stays back with the highest two cards it leaves."""
    return pair_in_front_keeping(f, f.pairs[0]) or best_keep(keeps(f))


def pair_of_trips_in_front(f: Facts) -> Front:
    """'With trips, the pair in front': two of the three, the straight or flush kept."""
    return pair_in_front_keeping(f, f.trips[0]) or best_keep(keeps(f))


# A hand of the card's first lines: no straight, flush or straight flush among the seven
# (those are read by "Straights and flushes") and not five aces.
plain = neither(straight_or_flush, five_aces)


def full_house(f: Facts) -> bool:
    """Three of a kind and one pair (and two singles)."""
    return len(f.trips) == 1 and len(f.pairs) == 1 and not f.quads


def deuces_with_ace_king(f: Facts) -> bool:
    """A full house whose pair is 2s and whose two singles are an ace (or the joker) and
    a king."""
    return full_house(f) and f.pairs == [2] and \
        sorted(value(c) for c in f.singles) == [KING, ACE]


# --- the lines that other lines name ("follow their own rules") --------------------------
TWO_PAIR_RULE = (
    # READING: low/medium/high name the ranks of the two pairs (the joker is an ace);
    # "split" puts the lower pair in front and keeps the higher one back; "a K or A can go
    # in front" is a K or an A (or the joker) among the three singles: both pairs stay back
    # and it goes in front with the next highest single.
    Rule("TP-2P-LL", "Two pair, low+low or low+medium: split unless a K or A can go in front "
         "(then keep both pairs back with the K/A in front).",
         when=pairs_are("low+low", "low+medium"), play=split_unless_in_front(KING, ACE)),
    Rule("TP-2P-LH", "Two pair, low+high or medium+medium: split unless an A can go in front.",
         when=pairs_are("low+high", "medium+medium"), play=split_unless_in_front(ACE)),
    Rule("TP-2P-MH", "Two pair, medium+high, high+high, or aces with any pair: always split "
         "(the lower pair in front).",
         when=pairs_are("medium+high", "high+high", "aces+any"), play=lowest_pair),
)

THREE_PAIR_RULE = Rule(
    "TP-3P", "Three pair: highest pair in front.", when=three_pairs, play=highest_pair)

FULL_HOUSE_RULE = (
    # READING: "A-K can go in front" is the full house's two singles: an ace (or the
    # joker) and a king. Then the full house stays back and A-K goes in front.
    Rule("TP-FH-22", "Full house: split unless the pair is 2s and A-K can go in front "
         "(then the full house stays back, A-K in front).", when=deuces_with_ace_king,
         play=two_highest_singles),
    Rule("TP-FH", "Full house: split (pair in front).", when=full_house, play=highest_pair),
)


NO_PAIR = Section(
    "No pair",
    # READING: the joker is an ace, so with no pair it is the highest card and stays back.
    Rule("TP-NP", "No pair: highest card back, the next two in front.",
         when=both(plain, no_pair), play=lambda f: nth_highest(f, 2, 3)),
)

ONE_PAIR = Section(
    "One pair",
    # READING: the two highest singles. Under the fully-wild joker (a table option) the
    # joker and a single would be a pair; when that would outrank the pair back, the joker
    # stays back with the pair and the two highest natural singles go in front.
    Rule("TP-1P", "One pair: pair back, the two highest other cards in front.",
         when=both(plain, one_pair),
         play=first_legal(two_highest_singles, two_highest_natural_singles)),
)

TWO_PAIR = Section(
    f"Two pair ({TIERS})",
    *within(plain, TWO_PAIR_RULE),
)

THREE_PAIR = Section(
    "Three pair",
    *within(plain, (THREE_PAIR_RULE,)),
)

THREE_OF_A_KIND = Section(
    "Three of a kind",
    # READING: "keep back" is the three of a kind back with the two highest singles in
    # front. Three aces include two aces and the joker: one natural ace goes in front with
    # the highest single, a pair of aces stays back.
    Rule("TP-3K", "Three of a kind: keep back.",
         when=lambda f: plain(f) and one_trips(f) and f.trips[0] != ACE,
         play=two_highest_singles),
    Rule("TP-3K-AAA", "Three of a kind, except three aces: a pair of aces back, one ace in "
         "front.", when=lambda f: plain(f) and one_trips(f) and f.trips[0] == ACE,
         play=one_from_trips_and_highest_single),
    # Two sets of three are three ranks: never a straight or a flush.
    Rule("TP-3K3K", "Two sets of trips: a pair from the higher set in front.",
         when=lambda f: len(f.trips) == 2, play=two_from_trips),
)

STRAIGHTS = Section(
    "Straights and flushes (and straight flushes)",
    # READING: "with no pair" and "with a 6th or 7th card" are one rule: of every
    # straight, flush or straight flush the seven make, the five-card hand is the one that
    # leaves the highest two-card hand in front (of equal fronts, the stronger five). "No
    # pair" names the hands whose straights and flushes are five cards; "a 6th or 7th card"
    # those where a sixth or seventh card extends the straight or the flush, so the lower
    # straight or flush plays back. A straight flush is given up for a straight or a flush
    # that leaves higher cards in front, as the line says ("play the category").
    Rule("TP-SF-NP", "With no pair: play the category that leaves the highest two cards in "
         "front.", when=lambda f: no_pair(f) and not six_or_seven(f),
         play=highest_front_keeping()),
    Rule("TP-SF-67", "With a 6th or 7th card: play the lower straight or flush back so the "
         "higher cards go in front.", when=lambda f: no_pair(f) and six_or_seven(f),
         play=highest_front_keeping()),
    # READING: the pair goes in front when the other five still make a straight, flush or
    # straight flush; otherwise the straight or flush stays back (it is never broken to
    # play one pair) with the highest two cards it leaves in front.
    Rule("TP-SF-1P", "With one pair: put the pair in front only if the straight/flush "
         "survives.", when=one_pair, play=pair_in_front_only_if_kept),
    # READING: two of the three go in front and the straight or flush stays back. When no
    # two of them can go without breaking it (the joker is one of three aces and fills the
    # straight or flush) it stays back with the highest two cards it leaves in front.
    Rule("TP-SF-3K", "With trips: the pair in front (full house rule).", when=one_trips,
         play=pair_of_trips_in_front),
    # READING: "follow their own rules": the hand is set exactly as that rule sets it, even
    # when the straight or flush is given up.
    Rule("TP-SF-2P", "Two pair follows its own rule.", when=two_pairs, steps=TWO_PAIR_RULE),
    Rule("TP-SF-3P", "Three pair follows its own rule.", when=three_pairs,
         steps=(THREE_PAIR_RULE,)),
    # READING: a full house with a straight or a flush has the joker among three aces (it
    # fills the straight or flush too), so its pair is never beside an ace single: of the
    # full house rule only the split can apply, and it is the step this line carries.
    Rule("TP-SF-FH", "Full house follows its own rule.", when=full_house,
         steps=FULL_HOUSE_RULE[1:]),
    # READING: a four of a kind (or five aces) with a straight is read by the four of a
    # kind (five aces) lines: this section names neither.
    gate=lambda f: straight_or_flush(f) and not f.quads and not five_aces(f),
)

FULL_HOUSE = Section(
    "Full house",
    *FULL_HOUSE_RULE,
    # READING: "the highest pair" is the higher of the two pairs; the full house stays back.
    Rule("TP-FH-2P", "Trips plus two pair: the highest pair in front.",
         when=lambda f: len(f.trips) == 1 and len(f.pairs) == 2, play=highest_pair),
)

FOUR_OF_A_KIND = Section(
    "Four of a kind",
    # READING: "keep together": the four back, the two highest singles in front. "Split":
    # two of the four in front, two back with the singles. "Unless a K or better (an A)
    # can go in front": such a single (the joker is an ace): the four stay back, it goes in
    # front with the next highest single. Four aces include three aces and the joker.
    Rule("TP-4K-LOW", "Four of a kind, 2-6: keep together.", when=quads_of(LOW),
         play=two_highest_singles),
    Rule("TP-4K-MED", "Four of a kind, 7-10: split unless a K or better can go in front.",
         when=quads_of(MEDIUM), play=split_quads_unless(KING, ACE)),
    Rule("TP-4K-HIGH", "Four of a kind, J-K: split unless an A can go in front.",
         when=quads_of(HIGH), play=split_quads_unless(ACE)),
    Rule("TP-4K-ACES", "Four of a kind, aces: always split.", when=quads_of(frozenset({ACE})),
         play=lambda f: pair_of(f, ACE)),
    # READING: with a three of a kind beside the four, "a pair from the trips" is two of
    # the three.
    Rule("TP-4K-PAIR", "Quads with a pair or with trips: the pair (or a pair from the trips) "
         "in front.", when=lambda f: bool(f.quads) and bool(f.pairs or f.trips),
         play=lambda f: highest_pair(f) if f.pairs else two_from_trips(f)),
    gate=lambda f: bool(f.quads),
)

FIVE_ACES = Section(
    "Five aces",
    Rule("TP-5A-KK", "Five aces: unless a pair of kings can go in front (then the kings in "
         "front).", when=lambda f: five_aces(f) and KING in f.pairs,
         play=lambda f: pair_of(f, KING)),
    # READING: two natural aces go in front; three aces, the joker among them, stay back.
    Rule("TP-5A", "Five aces: three aces back and two in front.", when=five_aces,
         play=lambda f: two(f.natural_aces[0], f.natural_aces[1])),
    gate=five_aces,
)

CARD = HouseWay(
    name="trump-plaza",
    title="Trump Plaza House Way (Atlantic City, paraphrased)",
    source="../shared/house-ways/trump-plaza.md: every line in the card's order",
    sections=(NO_PAIR, ONE_PAIR, TWO_PAIR, THREE_PAIR, THREE_OF_A_KIND, STRAIGHTS,
              FULL_HOUSE, FOUR_OF_A_KIND, FIVE_ACES),
    notes=(
        "Front = the two-card hand, back = the five-card hand.",
        "Pairs, sets and singles count the joker as an ace; straights and flushes may use it.",
        "The lines No pair to Three of a kind take hands with no straight or flush; a hand "
        "with a straight, flush or straight flush is read by 'Straights and flushes' unless "
        "it holds four of a kind or five aces (their own lines).",
        "No pair: the joker is the highest card when there is no pair, and stays back.",
        "One pair: the two highest singles in front; under the fully-wild joker (a table "
        "option) when the joker and a single would be a pair above the one back, the joker "
        "stays with the pair and the two highest natural singles go in front.",
        "Two pair: low/medium/high name the pairs' ranks (aces apart: a pair of aces with "
        "any pair always splits); split = the lower pair in front; 'a K or A (an A) can go "
        "in front' = such a single (or the joker) outside the pairs: both pairs back, it "
        "and the next single in front.",
        "Three of a kind: keep back = the set back, the two highest singles in front; three "
        "aces (two and the joker too): one natural ace in front with the highest single.",
        "Straights and flushes with no pair / with a 6th or 7th card: of every straight, "
        "flush or straight flush the seven make, play back the one that leaves the highest "
        "two cards in front (equal fronts: the stronger five). A straight flush gives way "
        "to a straight or flush that leaves higher cards in front.",
        "With one pair: the pair goes in front if the other five still make a straight or "
        "flush; otherwise the straight or flush stays back with the highest two cards left "
        "in front.",
        "With trips: two of the three in front, the straight or flush back; if no two can "
        "go (the joker is one of three aces and fills it), the straight or flush stays with "
        "the highest two cards in front.",
        "Two pair, three pair and full house with a straight or flush: set exactly by their "
        "own rule, even when the straight or flush is given up.",
        "Full house: 'A-K can go in front' = the two singles are an ace (or the joker) and "
        "a king; then the full house stays back. Trips plus two pair: the higher pair in "
        "front.",
        "Four of a kind: keep together = the four back, the two highest singles in front; "
        "split = two of the four in front; 'unless a K or better (an A) can go in front' = "
        "such a single (or the joker): the four back, it and the next single in front. "
        "Quads with trips: two of the three in front.",
        "Five aces: two natural aces in front, unless a pair of kings can go there.",
    ),
)
