"""Delaware Park's House Way (seed 003), every line of its HOUSE WAY text in the card's order.

The card's words: the "high hand" is the five-card hand (back); the "top hand", "second
highest hand" and "lowest ranking hand" are the two-card hand (front). Ids: "DP-" + the
line. A line that says "Use the ... Rule" carries that rule as its step. Where the text is
terse we read it as Trump Plaza's clearer card does (../shared/house-ways/trump-plaza.md),
Delaware Park's own words ruling; each such choice is a READING here and in `CARD.notes`.
"""

from __future__ import annotations

from collections.abc import Callable

from .engine import HouseWay, Rule, Section
from .facts import ACE, Facts
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
    two_from_trips,
    two_highest_singles,
    two_pairs,
)

Play = Callable[[Facts], Front]
KING = 13

# "Low = 2, 3, 4, 5, 6  Medium = 7, 8, 9, 10  High = J, Q, K, Ace": the card's words for
# the rank of a pair (Two Pairs) and of a four of a kind; the joker counts as an ace.
LOW = frozenset(range(2, 7))
MEDIUM = frozenset(range(7, 11))
HIGH = frozenset(range(11, 15))
TIERS = "Low = 2, 3, 4, 5, 6 Medium = 7, 8, 9, 10 High = J, Q, K, Ace"


def tier(rank: int) -> str:
    return "Low" if rank in LOW else "Medium" if rank in MEDIUM else "High"


def pairs_are(*combos: str) -> Cond:
    """Two pairs whose tiers, lower pair first, are one of `combos` ("Low + Medium")."""
    wanted = frozenset(combos)
    return lambda f: two_pairs(f) and f"{tier(f.pairs[1])} + {tier(f.pairs[0])}" in wanted


def split_unless_in_front(*ranks: int) -> Play:
    """'Always split unless there is a <rank> to play in the second highest hand': the
    lower pair in front, or, when a card of `ranks` stands outside the pairs, both pairs
    behind and that card in front with the next highest."""
    def play(f: Facts) -> Front:
        if highest_single_is(f, *ranks):
            return two_highest_singles(f)
        return lowest_pair(f)
    return play


def quads_of(ranks: frozenset[int]) -> Cond:
    """Four of a kind of these ranks and three singletons (no other pair or set)."""
    return lambda f: bool(f.quads) and f.quads[0] in ranks and not f.pairs and not f.trips


def split_quads_unless_ace(f: Facts) -> Front:
    if highest_single_is(f, ACE):
        return two_highest_singles(f)
    return pair_of(f, f.quads[0])


def keep_unless_aces(f: Facts) -> Front:
    if f.trips[0] == ACE:
        return one_from_trips_and_highest_single(f)
    return two_highest_singles(f)


def pair_in_top_only_if_kept(f: Facts) -> Front:
    """'Play pair in top hand only if a straight or flush can be preserved'; else the
    straight or flush stays behind with the highest two cards it leaves."""
    return pair_in_front_keeping(f, f.pairs[0]) or best_keep(keeps(f))


def pair_of_set_in_top(f: Facts) -> Front:
    """'Play the pair in the top hand': two of the three, the straight or flush kept."""
    return pair_in_front_keeping(f, f.trips[0]) or best_keep(keeps(f))


# A hand of the card's first column: no straight, flush or straight flush among the seven
# (those are read by "All Straights, Flushes, ...") and not five aces.
plain = neither(straight_or_flush, five_aces)


def full_house(f: Facts) -> bool:
    """Three of a kind and one pair (and two singletons)."""
    return len(f.trips) == 1 and len(f.pairs) == 1


# --- the lines that other lines name ("Use the Two Pair Rule") ---------------------------
TWO_PAIR_RULE = (
    # READING: Low/Medium/High name the ranks of the two pairs; "split" puts the lower pair
    # in the two-card hand and keeps the higher one behind; "a King or Ace to play in the
    # second highest hand" is a K or A (or the joker) outside the pairs: both pairs stay
    # behind and it goes in front with the next highest single.
    Rule("DP-2P-LL", "Low + Low/Low + Medium = always split unless there is an King or Ace "
         "to play in the second highest hand.",
         when=pairs_are("Low + Low", "Low + Medium"), play=split_unless_in_front(KING, ACE)),
    Rule("DP-2P-LH", "Low + High/Medium + Medium = always split unless there is an Ace to "
         "play in the second highest hand.",
         when=pairs_are("Low + High", "Medium + Medium"), play=split_unless_in_front(ACE)),
    Rule("DP-2P-MH", "Medium + High/High + High = always split.",
         when=pairs_are("Medium + High", "High + High"), play=lowest_pair),
)

THREE_PAIR_RULE = Rule(
    "DP-3P", "Always play the highest pair in the top hand.", when=three_pairs,
    play=highest_pair)

# READING: "Always split" holds for every pair, 2s included (Trump Plaza's exception for a
# pair of 2s with A-K is not on Delaware Park's card).
FULL_HOUSE_RULE = Rule(
    "DP-FH", "Always split, play pair in the top hand.", when=full_house, play=highest_pair)


NO_PAIR = Section(
    "No Pair",
    # READING: the joker is an ace, so it is the highest card when there is no pair.
    Rule("DP-NP", "Use the highest card in the high hand. Use the second and third highest "
         "ranked cards for the second highest hand.", when=both(plain, no_pair),
         play=lambda f: nth_highest(f, 2, 3)),
)

ONE_PAIR = Section(
    "One Pair",
    # READING: the two highest singles. Under the fully-wild joker (a table option, seed
    # 004) the joker and a single are a pair; when that would outrank the pair behind, the
    # joker stays behind with the pair and the two highest natural singles go in front.
    Rule("DP-1P", "Always use the pair as the high hand and use the highest ranking cards for "
         "the lowest ranking hand.", when=both(plain, one_pair),
         play=first_legal(two_highest_singles, two_highest_natural_singles)),
)

TWO_PAIRS = Section(
    f"Two Pairs ({TIERS})",
    *within(plain, TWO_PAIR_RULE),
)

THREE_PAIRS = Section(
    "Three Pairs",
    *within(plain, (THREE_PAIR_RULE,)),
)

THREE_OF_A_KIND = Section(
    "Three of a Kind",
    # READING: "keep" is the three of a kind behind with the two highest singles in front;
    # with three aces (or two and the joker) one ace goes in front with the highest single
    # and a pair of aces stays behind.
    Rule("DP-3K", "Always keep, unless Aces, then play one of the Aces top hand.",
         when=both(plain, one_trips), play=keep_unless_aces),
)

# READING: "(Two) Three of a Kind" here and "Two/Three of a Kind" among the full houses say
# the same thing of the same hand (two sets of three and a single; never a straight or a
# flush): a pair of the higher set in front. The card keeps both lines: this one sets the
# hand when all seven are natural cards, the later one when the joker is among them. The
# split only names the line; the setting is the same.
TWO_THREE_OF_A_KIND = Section(
    "(Two) Three of a Kind",
    Rule("DP-3K3K", "Play pair of the highest three of a kind for the top hand.",
         when=lambda f: len(f.trips) == 2 and f.joker is None, play=two_from_trips),
)

STRAIGHTS = Section(
    "All Straights, Flushes, Straight Flushes, Royal Flushes",
    # READING: "with No Pair" and "with 6th or 7th Card" are one rule: of every straight,
    # flush or straight flush the seven make, the five-card hand is the one that leaves the
    # highest two-card hand in front (of equal fronts, the stronger five). "With No Pair"
    # names the hands whose straights and flushes are five cards; "with 6th or 7th Card"
    # those where a sixth or seventh card extends the straight or the flush, so the lower
    # straight or flush plays behind. A straight flush is given up for a straight or a
    # flush that leaves higher cards in front, as the line says ("play the category").
    Rule("DP-SF-NP", "with No Pair: When choosing whether to play a straight, flush or "
         "straight flush, play the category that will allow the highest two cards to be "
         "played in the front.", when=lambda f: no_pair(f) and not six_or_seven(f),
         play=highest_front_keeping()),
    Rule("DP-SF-67", "with 6th or 7th Card: Play the lower Straight or Flush in the high hand "
         "in order to place the highest cards in the top hand.",
         when=lambda f: no_pair(f) and six_or_seven(f), play=highest_front_keeping()),
    # READING: the pair goes in front when the other five still make a straight, flush or
    # straight flush; otherwise the straight or flush stays behind (it is never broken to
    # play one pair) with the highest two cards it leaves in front.
    Rule("DP-SF-1P", "with One Pair: Play pair in top hand only if a straight or flush can be "
         "preserved.", when=one_pair, play=pair_in_top_only_if_kept),
    # READING: "Use the Two Pair Rule" / "Three Pair Rule" / "Full House Rule": the hand is
    # set exactly as that rule sets it, even when the straight or flush is given up (Trump
    # Plaza: "two pair, three pair and full house follow their own rules").
    Rule("DP-SF-2P", "with Two Pair: Use the Two Pair Rule", when=two_pairs,
         steps=TWO_PAIR_RULE),
    Rule("DP-SF-3P", "with Three Pair: Use the Three Pair Rule", when=three_pairs,
         steps=(THREE_PAIR_RULE,)),
    # READING: two of the three go in front and the straight or flush stays behind. When no
    # two of them can go without breaking it (the joker is one of three aces and fills the
    # straight or flush) it stays behind with the highest two cards it leaves in front,
    # which is "Three of a Kind"'s own setting for aces: one ace in front.
    Rule("DP-SF-3K", "with Three of a kind: Play the pair in the top hand.", when=one_trips,
         play=pair_of_set_in_top),
    Rule("DP-SF-FH", "with Full House: Use Full House Rule.", when=full_house,
         steps=(FULL_HOUSE_RULE,)),
    # READING: a four of a kind (or five aces) with a straight or flush is read by the Four
    # of a Kind lines: this section names no four of a kind.
    gate=lambda f: straight_or_flush(f) and not f.quads and not five_aces(f),
)

FULL_HOUSE = Section(
    "Full House Rule",
    FULL_HOUSE_RULE,
)

THREE_OF_A_KIND_AND_TWO_PAIR = Section(
    "Three of a Kind & Two Pair",
    # READING: "the highest pair" is the higher of the two pairs; the full house stays
    # behind.
    Rule("DP-FH-2P", "Play the highest pair in the top hand.",
         when=lambda f: len(f.trips) == 1 and len(f.pairs) == 2, play=highest_pair),
)

TWO_OR_THREE_OF_A_KIND = Section(
    "Two/Three of a Kind",
    # READING: see "(Two) Three of a Kind": the same hand, here with the joker among the
    # seven (an ace: in the higher set or the single card).
    Rule("DP-FH-3K3K", "Play highest rank cards as pair in the top hand.",
         when=lambda f: len(f.trips) == 2 and f.joker is not None, play=two_from_trips),
)

FOUR_OF_A_KIND = Section(
    "Four of a Kind",
    # READING: "Never Split": the four behind, the two highest singles in front. "Split":
    # two of the four in front, two behind with the singles. "Unless Ace can be played on
    # top hand": an ace (or the joker) among the singles: the four stay behind, the ace
    # goes in front with the next highest single.
    Rule("DP-4K-LOW", "Low = 2,3,4,5,6 - Never Split", when=quads_of(LOW),
         play=two_highest_singles),
    Rule("DP-4K-MED", "Medium = 7,8,9,10 - Split, unless Ace can be played on top hand",
         when=quads_of(MEDIUM), play=split_quads_unless_ace),
    Rule("DP-4K-HIGH", "High = J,Q,K, Ace - Always Split", when=quads_of(HIGH),
         play=lambda f: pair_of(f, f.quads[0])),
    gate=lambda f: bool(f.quads),
)

FOUR_OF_A_KIND_PAIR = Section(
    "Four of a Kind/Pair",
    # READING: with a three of a kind beside the four, "the pair" is two of the three
    # (Trump Plaza: "the pair (or a pair from the trips) in front").
    Rule("DP-4K-PAIR", "Play the pair in the top hand.",
         when=lambda f: bool(f.quads) and bool(f.pairs or f.trips),
         play=lambda f: highest_pair(f) if f.pairs else two_from_trips(f)),
)

FIVE_ACES = Section(
    "Five Aces",
    # READING: always, even beside a pair of kings (Trump Plaza's exception is not on this
    # card); two natural aces go in front and three aces, the joker among them, stay
    # behind.
    Rule("DP-5A", "Always split, playing a pair of Aces in the top hand.", when=five_aces,
         play=lambda f: f.natural_aces[:2]),
)

CARD = HouseWay(
    name="delaware-park",
    title="Delaware Park House Way (seed 003)",
    source="../shared/seeds/003: 'HOUSE WAY', every line in the card's order",
    sections=(NO_PAIR, ONE_PAIR, TWO_PAIRS, THREE_PAIRS, THREE_OF_A_KIND, TWO_THREE_OF_A_KIND,
              STRAIGHTS, FULL_HOUSE, THREE_OF_A_KIND_AND_TWO_PAIR, TWO_OR_THREE_OF_A_KIND,
              FOUR_OF_A_KIND, FOUR_OF_A_KIND_PAIR, FIVE_ACES),
    notes=(
        "The 'high hand' is the five-card hand; the 'top hand', 'second highest hand' and "
        "'lowest ranking hand' are the two-card hand.",
        "Pairs, sets and singles count the joker as an ace; straights and flushes may use it.",
        "The first column (No Pair to (Two) Three of a Kind) takes hands with no straight or "
        "flush; a hand with a straight, flush or straight flush is read by 'All Straights, "
        "Flushes, ...' unless it holds four of a kind or five aces (their own lines).",
        "No Pair: the joker is the highest card when there is no pair.",
        "One Pair: the two highest singles in front; under the fully-wild joker (a table "
        "option) when the joker and a single would be a pair above the one behind, the "
        "joker stays with the pair and the two highest natural singles go in front.",
        "Two Pairs: Low/Medium/High name the pairs' ranks; split = the lower pair in front; "
        "'a King or Ace (an Ace) to play in the second highest hand' = such a card (or the "
        "joker) outside the pairs: both pairs behind, it and the next single in front.",
        "Three of a Kind: keep = the set behind, the two highest singles in front; aces: one "
        "ace in front with the highest single, a pair of aces behind.",
        "(Two) Three of a Kind and Two/Three of a Kind are the same hand and the same play "
        "(a pair of the higher set in front); the first names hands without the joker, the "
        "second hands with it.",
        "with No Pair / with 6th or 7th Card: of every straight, flush or straight flush the "
        "seven make, play behind the one that leaves the highest two cards in front (equal "
        "fronts: the stronger five); 'No Pair' is when every straight and flush is five "
        "cards, '6th or 7th Card' when one is six or seven. A straight flush gives way to a "
        "straight or flush that leaves higher cards in front.",
        "with One Pair: the pair goes in front if the other five still make a straight or "
        "flush; otherwise the straight or flush stays behind with the highest two cards "
        "left in front.",
        "with Two Pair / Three Pair / Full House: set exactly by that rule, even when the "
        "straight or flush is given up.",
        "with Three of a kind: two of the three in front, the straight or flush behind; if "
        "no two can go (the joker is one of three aces and fills it), the straight or flush "
        "stays with the highest two cards in front.",
        "Full House Rule: always split, a pair of 2s too (no A-K exception on this card).",
        "Three of a Kind & Two Pair: the higher of the two pairs in front.",
        "Four of a Kind: never split = the four behind, the two highest singles in front; "
        "split = two of the four in front; 'unless Ace can be played on top hand' = an ace "
        "(or the joker) single: the four behind, it and the next single in front.",
        "Four of a Kind/Pair: with a three of a kind instead of a pair, two of the three go "
        "in front.",
        "Five Aces: always two aces in front, even with a pair of kings.",
        "'Highest Straight A, K, Q, J, 10' and 'Second Highest Straight A, 2, 3, 4, 5' rank "
        "hands (the ranker's wheel = \"second\"); they set none.",
    ),
)
