"""The fully wild joker's House Way (seed 004, Cordova: "the Joker is FULLY WILD and can be
played in place of any card"), written as a casino's card for a joker-wild table.

Seed 004 gives no House Way of its own, and the other cards read the joker as an ace that
only fills straights and flushes, so at a fully wild table they throw away what the joker
can make (`9S 9H JK KC 7H 4S 2D` played by the standard card puts `KC 9S` in front of a
pair of nines; the joker makes three nines). This card reads the joker the way a
joker-wild card does: **the joker completes the best hand the seven cards can make** -
five of a kind, a straight flush, four of a kind, a full house, a flush, a straight, three
of a kind, two pair - **else it pairs the highest singleton**. The hand is then played by
the section of that best hand, in the order a casino's card reads, each row in a casino's
words. Where the rows say "pair", "three of a kind" or "single", the joker is counted with
the rank it completes (the rank it has most of, the highest such rank), never as a single.

The card is played under the fully wild joker whatever table asks it (it means nothing
under a bug); `app.settings` refuses it at a table whose joker is a bug. Front = the
two-card hand, back = the five-card hand. Ids: "FW-" + the row. A choice the words leave
open is marked READING here and listed in `CARD.notes` and docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from ..cards import Card, sort_cards
from ..hands import DEFAULT_RULES, Category, HandRules, category_of, ranker
from .engine import HouseWay, Rule, Section
from .facts import ACE, Facts
from .phrases import STRAIGHT_OR_FLUSH, Keep, best_keep, highest_single_is, within
from .plays import (
    Front,
    first,
    highest_pair,
    lowest_pair,
    nth_highest,
    one_from_trips_and_highest_single,
    pair_of,
    three_pairs,
    two,
    two_from_trips,
    two_highest_singles,
    two_pairs,
)
from .trump_plaza import HIGH, LOW, MEDIUM, TIERS, pairs_are, split_unless_in_front

Cond = Callable[[Facts], bool]
KING = 13
STRAIGHT_FLUSH_ONLY = frozenset({Category.STRAIGHT_FLUSH})


class WildFacts(Facts):
    """Facts of a hand under the fully wild joker: the joker joins the rank it completes.

    READING: "the joker completes the best hand" in pairs, sets and singles is the rank the
    hand holds most of (the highest of those): four make five of a kind, three make four,
    the higher of two pairs makes a full house, a pair makes three, and with no pair the
    joker pairs the highest singleton. Straights and flushes use it to fill, as ever.
    """

    @cached_property
    def wild_rank(self) -> int | None:
        """The rank the joker counts as in groups, or None without a joker."""
        if self.joker is None:
            return None
        counts: dict[int, int] = {}
        for c in self.cards:
            if c.rank is not None:
                counts[int(c.rank)] = counts.get(int(c.rank), 0) + 1
        return max(counts, key=lambda r: (counts[r], r))

    @cached_property
    def groups(self) -> dict[int, list[Card]]:
        out: dict[int, list[Card]] = {}
        for c in sort_cards(self.cards):
            if c.rank is not None:
                out.setdefault(int(c.rank), []).append(c)
        if self.joker is not None and self.wild_rank is not None:
            out[self.wild_rank].append(self.joker)  # last of its rank: naturals go first
        return dict(sorted(out.items(), reverse=True))

    @cached_property
    def by_value(self) -> list[Card]:
        """All seven highest first, the joker as the rank it completes."""
        def worth(c: Card) -> tuple[int, bool]:
            return (self.wild_rank or ACE, False) if c.rank is None else (int(c.rank), True)
        return sorted(self.cards, key=worth, reverse=True)

    @cached_property
    def splits(self) -> tuple[Keep, ...]:
        """The 21 ways to set the hand, in the order a dealer fans the cards, each with
        its strengths: ranked once, read by every row."""
        r = ranker(self.rules)
        out = []
        for front in combinations(sort_cards(self.cards), 2):
            back = self.without(*front)
            out.append(Keep((front[0], front[1]), back, r.rank2(front), r.rank5(back)))
        return tuple(out)

    @cached_property
    def best(self) -> Category:
        """The best five-card hand the seven make (the joker any card): read from the
        groups (the joker where it joins) and the straights and flushes it may fill, in
        the order of the ranks. Tested against the ranker's best five of the seven."""
        most = max(len(cs) for cs in self.groups.values())
        if most == 5:
            return Category.FIVE_OF_A_KIND
        if self.suited_run is not None:
            return Category.STRAIGHT_FLUSH
        if most == 4:
            return Category.QUADS
        if self.full_house:
            return Category.FULL_HOUSE
        if self.flush:
            return Category.FLUSH
        if self.run is not None:
            return Category.STRAIGHT
        if most == 3:
            return Category.TRIPS
        return (Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR)[min(len(self.pairs), 2)]


def best_is(category: Category) -> Cond:
    def test(f: Facts) -> bool:
        assert isinstance(f, WildFacts), "the fully wild card reads WildFacts"
        return f.best is category
    return test


def n_of_a_kind(n: int) -> Callable[[Facts], list[int]]:
    return lambda f: f.ranks_with(n)


fives = n_of_a_kind(5)


def sets_and_pairs(f: Facts) -> list[int]:
    """Ranks with two cards or more (the joker counted where it joins), highest first."""
    return sorted((r for r, cs in f.groups.items() if len(cs) >= 2), reverse=True)


def keeps_of(f: Facts, categories: frozenset[Category]) -> list[Keep]:
    """Every setting whose five-card hand is one of `categories` (`phrases.keeps`, from the
    hand's strengths ranked once)."""
    assert isinstance(f, WildFacts), "the fully wild card reads WildFacts"
    return [k for k in f.splits if category_of(k.back_strength) in categories]


def highest_pair_keeping(categories: frozenset[Category]) -> Callable[[Facts], Front]:
    """The highest pair (two of a three or four of a kind) that can go in front with a
    hand of `categories` still behind (the strongest such five); None if none can."""
    def play(f: Facts) -> Front:
        found = keeps_of(f, categories)
        for rank in sets_and_pairs(f):
            cards = f.of_rank(rank)
            front = best_keep([k for k in found if k.front[0] in cards and k.front[1] in cards])
            if front is not None:
                return front
        return None
    return play


def keep_behind(categories: frozenset[Category]) -> Callable[[Facts], Front]:
    """Of every five-card hand of `categories` the seven make, the one that lets the
    highest two-card hand go in front (equal fronts: the stronger five behind)."""
    return lambda f: best_keep(keeps_of(f, categories))


def quads_with_singles(ranks: frozenset[int]) -> Cond:
    return lambda f: bool(f.quads) and f.quads[0] in ranks and not f.pairs and not f.trips


def joker_beside_a_higher_single(f: Facts) -> Front:
    """The joker and the highest single, when that single outranks the rank the joker
    completes: a higher pair in front than two of the set would be, and the set, one card
    smaller, still behind. None otherwise."""
    assert isinstance(f, WildFacts), "the fully wild card reads WildFacts"
    if f.joker is None or f.wild_rank is None or not f.singles:
        return None
    single = f.singles[0]
    return (f.joker, single) if single.rank is not None and single.rank > f.wild_rank else None


def split_four_unless(*ranks: int) -> Callable[[Facts], Front]:
    """'Split unless a <rank> can go in front': such a single goes in front with the next
    (the four stay together); else the four split. READING: a four made with the joker
    splits by the joker when a single outranks the four (the joker and that single, a
    higher pair, in front; three of a kind behind); otherwise two natural cards of the four
    go in front."""
    def play(f: Facts) -> Front:
        if highest_single_is(f, *ranks):
            return two_highest_singles(f)
        return joker_beside_a_higher_single(f) or pair_of(f, f.quads[0])
    return play


# --- rows that other rows follow -------------------------------------------------------------
TWO_PAIR_RULE = (
    # READING: the two pair rule of a casino card (Trump Plaza's tiers, the well-known one;
    # DESIGN.md): the tiers name each pair's rank; "split" puts the lower pair in front;
    # "unless a King or Ace can go in front" is such a single outside the pairs: both
    # pairs stay behind and it goes in front with the next highest single. A two pair hand
    # never holds the joker here: with two pairs the joker makes a full house.
    Rule("FW-2P-LOW", "Two pair, low+low or low+medium: split unless a King or Ace can go in "
         "front (then both pairs behind, the King or Ace in front).",
         when=pairs_are("low+low", "low+medium"), play=split_unless_in_front(KING, ACE)),
    Rule("FW-2P-MID", "Two pair, low+high or medium+medium: split unless an Ace can go in "
         "front.", when=pairs_are("low+high", "medium+medium"),
         play=split_unless_in_front(ACE)),
    Rule("FW-2P-HIGH", "Two pair, medium+high, high+high, or Aces with any pair: always "
         "split (the lower pair in front).",
         when=pairs_are("medium+high", "high+high", "aces+any"), play=lowest_pair),
)


def straight_or_flush_rows(p: str, noun: str) -> tuple[Rule, ...]:
    """The Flush and the Straight sections read alike."""
    return (
        # READING: "follows the two pair rule": the hand is set as two pair, even when the
        # straight or flush is given up (Trump Plaza and Delaware Park say the same).
        Rule(f"FW-{p}-2P", f"{noun} and two pairs: follow the two pair rule.",
             when=two_pairs, steps=TWO_PAIR_RULE),
        # READING: the highest pair that can go (with three of a kind, two of the three;
        # the joker may be one of them) while a straight, flush or straight flush stays
        # behind; the strongest such five goes behind.
        Rule(f"FW-{p}-P", f"{noun} and a pair or three of a kind: the highest pair in front "
             "(two of the three) when a straight or flush still stays behind.",
             when=lambda f: bool(sets_and_pairs(f)),
             play=highest_pair_keeping(STRAIGHT_OR_FLUSH)),
        # READING: "the highest two cards" is the strongest two-card hand: the joker beside
        # a card outside the straight or flush is a pair, so it goes in front when the five
        # behind are still a straight or flush without it. Of a 6- or 7-card straight or
        # flush the lower one stays behind so the higher cards go in front; a straight may
        # stand behind instead of a flush if it lets a higher two-card hand go in front.
        Rule(f"FW-{p}", f"{noun}: keep the straight or flush behind that lets the highest "
             "two cards go in front.", when=lambda f: True,
             play=keep_behind(STRAIGHT_OR_FLUSH)),
    )


FIVE_OF_A_KIND = Section(
    "Five of a kind",
    *within(best_is(Category.FIVE_OF_A_KIND), (
        # Seed 000: "Five of a kind | Hand contains two Kings | The two cards will be the
        # two Kings" (there five aces are the only five of a kind).
        Rule("FW-5K-KK", "Five Aces and a pair of Kings: the two Kings in front.",
             when=lambda f: fives(f) == [ACE] and KING in f.pairs,
             play=lambda f: pair_of(f, KING)),
        # READING: a single above the five's rank goes in front with the joker (a pair
        # higher than two of the five would be, four of a kind behind, where two of the
        # five in front would leave only three behind).
        Rule("FW-5K-J", "Five of a kind and a higher single: the joker and the highest single "
             "in front, four of a kind behind.",
             when=lambda f: not f.pairs and joker_beside_a_higher_single(f) is not None,
             play=joker_beside_a_higher_single),
        # READING: a pair above the five's rank goes in front (the five stay together);
        # a lower pair stays behind with three of the five, a full house, and two of the
        # five go in front - the stronger front, a back that still wins almost always.
        Rule("FW-5K-P", "Five of a kind and a higher pair: the pair in front, the five of a "
             "kind behind.", when=lambda f: bool(f.pairs) and f.pairs[0] > fives(f)[0],
             play=highest_pair),
        # Seed 000: "Otherwise | The two cards will be two Aces", for every rank here (no
        # card outranks the five, or only a lower pair is beside them).
        Rule("FW-5K", "Any other five of a kind: two of the five in front, three of a kind "
             "(a full house with a pair) behind.", when=lambda f: bool(fives(f)),
             play=lambda f: pair_of(f, fives(f)[0])),
    )),
    gate=best_is(Category.FIVE_OF_A_KIND),
)

STRAIGHT_FLUSH = Section(
    "Straight flush (a royal flush is the highest)",
    *within(best_is(Category.STRAIGHT_FLUSH), (
        # READING: a pair (or two of a three or four of a kind) goes in front only if a
        # straight flush, flush or straight still stands behind; the straight flush is
        # kept when it can be.
        Rule("FW-SF-P", "Straight flush and a pair or more: the highest pair in front when a "
             "straight or flush still stays behind.",
             when=lambda f: bool(sets_and_pairs(f)),
             play=highest_pair_keeping(STRAIGHT_OR_FLUSH)),
        # READING: the straight flush is never given up for a plain straight or flush; of a
        # 6- or 7-card straight flush the lower one stays behind so the higher cards (the
        # joker with its partner, a pair) go in front.
        Rule("FW-SF", "Straight flush: the straight flush behind, the highest two other cards "
             "in front.", when=lambda f: True, play=keep_behind(STRAIGHT_FLUSH_ONLY)),
    )),
    gate=best_is(Category.STRAIGHT_FLUSH),
)

FOUR_OF_A_KIND = Section(
    f"Four of a kind ({TIERS})",
    *within(best_is(Category.QUADS), (
        Rule("FW-4K-3K", "Four of a kind and three of a kind: two of the three in front.",
             when=lambda f: bool(f.quads) and bool(f.trips), play=two_from_trips),
        Rule("FW-4K-P", "Four of a kind and a pair: the pair in front.",
             when=lambda f: bool(f.quads) and bool(f.pairs), play=highest_pair),
        # READING: "keep together" is the four behind, the two highest singles in front;
        # "split" is two of the four in front (natural cards; the joker stays behind),
        # except that a four made with the joker splits by the joker when a single
        # outranks it (`split_four_unless`).
        Rule("FW-4K-LOW", "Four of a kind, 2s to 6s: keep together.",
             when=quads_with_singles(LOW), play=two_highest_singles),
        Rule("FW-4K-MED", "Four of a kind, 7s to 10s: split unless a King or Ace can go in "
             "front.", when=quads_with_singles(MEDIUM), play=split_four_unless(KING, ACE)),
        Rule("FW-4K-HIGH", "Four of a kind, Jacks to Kings: split unless an Ace can go in "
             "front.", when=quads_with_singles(HIGH), play=split_four_unless(ACE)),
        Rule("FW-4K-A", "Four Aces: always split.", when=quads_with_singles(frozenset({ACE})),
             play=lambda f: pair_of(f, ACE)),
    )),
    gate=best_is(Category.QUADS),
)

FULL_HOUSE = Section(
    "Full house",
    *within(best_is(Category.FULL_HOUSE), (
        Rule("FW-FH-3K3K", "Two three of a kinds: two from the higher three in front.",
             when=lambda f: len(f.trips) == 2, play=two_from_trips),
        Rule("FW-FH-2P", "Three of a kind and two pairs: the higher pair in front.",
             when=lambda f: bool(f.trips) and len(f.pairs) == 2, play=highest_pair),
        # READING: always split, the three of a kind behind, the pair in front (a pair of
        # 2s too); the joker joins the higher pair to make the three.
        Rule("FW-FH", "Full house: the pair in front, the three of a kind behind.",
             when=lambda f: bool(f.trips) and bool(f.pairs), play=highest_pair),
    )),
    gate=best_is(Category.FULL_HOUSE),
)

FLUSH = Section(
    "Flush",
    *within(best_is(Category.FLUSH), straight_or_flush_rows("FL", "Flush")),
    gate=best_is(Category.FLUSH),
)

STRAIGHT = Section(
    "Straight",
    *within(best_is(Category.STRAIGHT), straight_or_flush_rows("ST", "Straight")),
    gate=best_is(Category.STRAIGHT),
)

THREE_OF_A_KIND = Section(
    "Three of a kind",
    *within(best_is(Category.TRIPS), (
        # Seed 000: "3 Aces or 2 Aces and 1 Joker | one from the 3-of-a-kind and the
        # highest singleton". READING: with the joker one of the three, the one that goes
        # in front is the joker: beside the highest single it is a pair, and the pair of
        # Aces behind is the same (a natural Ace in front would be weaker on both hands).
        Rule("FW-3K-A", "Three Aces: one of them in front with the highest single (the joker, "
             "if it is one: a pair), a pair of Aces behind.", when=lambda f: f.trips == [ACE],
             play=lambda f: two(f.joker, first(f.singles)) if f.joker in f.of_rank(ACE)
             else one_from_trips_and_highest_single(f)),
        # Seed 000: "Any other 3-of-a-kind | The two cards will be the two highest
        # singletons". `9S 9H JK KC 7H 4S 2D`: three nines behind, KC 7H in front.
        Rule("FW-3K", "Any other three of a kind: keep it behind, the two highest singles in "
             "front.", when=lambda f: bool(f.trips), play=two_highest_singles),
    )),
    gate=best_is(Category.TRIPS),
)

TWO_PAIR = Section(
    f"Two pair ({TIERS})",
    *within(best_is(Category.TWO_PAIR), TWO_PAIR_RULE),
    # Seed 000: "Three pairs | The two cards will be the highest pair".
    *within(best_is(Category.TWO_PAIR), (
        Rule("FW-3P", "Three pairs: the highest pair in front.", when=three_pairs,
             play=highest_pair),
    )),
    gate=best_is(Category.TWO_PAIR),
)

ONE_PAIR = Section(
    "One pair",
    # Seed 000: "One pair | The two cards will be the two highest singletons". With no
    # other pair the joker pairs the highest singleton, and that pair stays behind.
    *within(best_is(Category.PAIR), (
        Rule("FW-1P", "One pair (the joker pairs the highest single): the pair behind, the "
             "two highest singles in front.", when=lambda f: bool(f.pairs),
             play=two_highest_singles),
    )),
    gate=best_is(Category.PAIR),
)

NO_PAIR = Section(
    "No pair",
    # Only without the joker: with it there is always a pair or better.
    *within(best_is(Category.HIGH_CARD), (
        Rule("FW-NP", "No pair: the highest card behind, the second and third highest in "
             "front.", when=lambda f: True, play=lambda f: nth_highest(f, 2, 3)),
    )),
    gate=best_is(Category.HIGH_CARD),
)


@dataclass(frozen=True)
class WildJokerWay(HouseWay):
    """A card written for the fully wild joker: its rows read the hand with `WildFacts`
    and it is always played with the joker as any card (the table's wheel kept)."""

    @staticmethod
    def played_under(rules: HandRules = DEFAULT_RULES) -> HandRules:
        return HandRules(joker="fully-wild", wheel=rules.wheel)

    def facts(self, seven: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> Facts:
        # The engine's loop reads the hand with WildFacts, in deck order as every card does.
        return WildFacts(tuple(sorted(seven, key=lambda c: c.index)), self.played_under(rules))

CARD = WildJokerWay(
    name="fully-wild",
    title="Fully wild joker House Way (Cordova, seed 004: the joker is any card)",
    source="../shared/seeds/004: 'the Joker is FULLY WILD and can be played in place of any "
           "card'; the rows are a casino's joker-wild card in the order of the hand ranks",
    sections=(FIVE_OF_A_KIND, STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, FLUSH, STRAIGHT,
              THREE_OF_A_KIND, TWO_PAIR, ONE_PAIR, NO_PAIR),
    notes=(
        "Front = the two-card hand, back = the five-card hand. The joker is any card "
        "(seed 004), whatever joker the table was asked with.",
        "The joker completes the best hand the seven cards make; the hand is played by the "
        "section of that hand (five of a kind, straight flush, ..., no pair).",
        "In pairs, sets and singles the joker counts as the rank the hand holds most of "
        "(the highest such rank): four make five of a kind, three make four, the higher of "
        "two pairs a full house, a pair three of a kind; with no pair it pairs the highest "
        "singleton. It is never a single.",
        "Five of a kind: a higher pair goes in front (five Aces and two Kings: the Kings, as "
        "seed 000); a higher single goes in front with the joker (four of a kind behind); "
        "otherwise two of the five go in front.",
        "Straight flush: the highest pair goes in front if a straight or flush still stays "
        "behind; else the straight flush stays behind (never given up for a plain straight "
        "or flush) with the highest two cards in front.",
        "Four of a kind: tiers low 2-6 (keep together), medium 7-10 (split unless a King or "
        "Ace can go in front), high J-K (split unless an Ace), Aces (always split); a four "
        "made with the joker splits by the joker when a single outranks it (the joker and "
        "that single in front, three of a kind behind); with a pair or a three of a kind, "
        "the pair (two of the three) in front.",
        "Full house: always split, the pair in front; with two pairs, the higher pair; two "
        "three of a kinds, two of the higher in front.",
        "Flush and straight: with two pairs, the two pair rule sets the hand; with a pair or "
        "three of a kind, the highest pair goes in front if a straight or flush stays "
        "behind; else the straight or flush that lets the highest two cards go in front "
        "stays behind (the joker beside another card is a pair).",
        "Three of a kind: kept behind with the two highest singles in front; three Aces: one "
        "Ace in front with the highest single, the joker if it is one of them (a pair).",
        "Two pair: Trump Plaza's tiers (low 2-6, medium 7-10, high J-K, Aces apart); split "
        "= the lower pair in front; 'a King or Ace can go in front' = such a single: both "
        "pairs behind. Three pairs: the highest pair in front.",
        "One pair (the joker's too): the pair behind, the two highest singles in front. No "
        "pair (only without the joker): the highest card behind, the next two in front.",
    ),
)
