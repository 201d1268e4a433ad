"""Every rule card read over all 154,143,080 seven-card hands: how many hands each row (and
each step a row follows) sets, and where a row's setting gives up strength.

A row is *dominated* on a hand when another legal setting of the same seven cards has a
two-card hand at least as strong and a five-card hand at least as strong, one of them
stronger. The card's words still rule at the table (the casino decides); this shows where.

The hands are read as `app.core.classes.hand_classes()`: the row that fires and its
setting's strengths are the same for every hand of a class, so each class is set once and
counted with its weight. One pass serves several cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..cards import Card
from ..classes import ALL_HANDS, hand_classes
from ..hands import DEFAULT_RULES, HandRules, Setting, ranker
from . import hand_rules_for, house_way
from .engine import HouseWaySetting
from .table import table_of

PAIRS_OF_SEVEN = tuple(combinations(range(7), 2))  # the 21 ways to choose the two-card hand


def row_id(result: HouseWaySetting) -> str:
    """The row that set a hand as the golden files write it: `rule` or `rule/step`."""
    return result.rule.id if result.step is None else f"{result.rule.id}/{result.step.id}"


@dataclass
class Dominated:
    """Where one row gives up strength: over how many hands, and one hand for an example
    (the class that stands for the most hands)."""

    row: str
    says: str
    hands: int = 0
    example: tuple[Card, ...] = ()
    example_weight: int = 0
    played: Setting | None = None
    better: Setting | None = None


@dataclass
class Survey:
    """One card over every hand: hands per row (`rule` or `rule/step`) and dominated rows."""

    way: str
    reach: dict[str, int] = field(default_factory=dict)
    dominated: dict[str, Dominated] = field(default_factory=dict)
    # Hands the card set as a foul under the joker it plays (a card never may), and one.
    fouls: int = 0
    foul_example: tuple[Card, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.reach.values())

    def rule_reach(self) -> dict[str, int]:
        """Hands per rule of the card, every rule listed (0 for one that never fires)."""
        out = dict.fromkeys((r.id for r in house_way(self.way).rules), 0)
        for key, n in self.reach.items():
            out[key.split("/")[0]] += n
        return out

    def steps_played(self) -> set[str]:
        return {key.split("/")[1] for key, n in self.reach.items() if "/" in key and n}


def survey(ways: Sequence[str], rules: HandRules = DEFAULT_RULES, audit: bool = False,
           classes: Iterable[tuple[tuple[Card, ...], int]] | None = None
           ) -> dict[str, Survey]:
    """Set every hand with each card once; with `audit`, also compare each setting with
    the other 20 ways to set the hand. A card's table is built first when it is not kept."""
    # Each card is judged under the joker it plays (the fully wild card: any card), and
    # each hand is set by the card's table: what the station and the commands answer.
    played = {w: hand_rules_for(w, rules) for w in ways}
    tables = {w: table_of(house_way(w), played[w]) for w in ways}
    out = {w: Survey(w) for w in ways}
    for hand, weight in (hand_classes() if classes is None else classes):
        options: dict[HandRules, list[tuple[int, int, int]]] = {}
        for way, table in tables.items():
            result = table.set(hand)
            key = row_id(result)
            found = out[way]
            found.reach[key] = found.reach.get(key, 0) + weight
            r = ranker(played[way])
            front, back = r.rank2(result.low), r.rank5(result.high)
            if front > back:
                found.fouls += weight
                found.foul_example = found.foul_example or tuple(hand)
            if not audit:
                continue
            if played[way] not in options:
                options[played[way]] = _legal_settings(hand, played[way])
            better = _dominating(options[played[way]], front, back)
            if better is not None:
                _note(found, key, result, hand, weight, better)
    return out


def _legal_settings(hand: Sequence[Card], rules: HandRules) -> list[tuple[int, int, int]]:
    """(front strength, back strength, which pair) for every setting that is not a foul."""
    r = ranker(rules)
    out = []
    for n, (i, j) in enumerate(PAIRS_OF_SEVEN):
        front = r.rank2((hand[i], hand[j]))
        back = r.rank5([c for k, c in enumerate(hand) if k != i and k != j])
        if front <= back:
            out.append((front, back, n))
    return out


def _dominating(options: list[tuple[int, int, int]], front: int, back: int) -> int | None:
    """The setting (index into PAIRS_OF_SEVEN) that beats (front, back) on one hand and
    ties or beats it on the other, the strongest five-card hand first; None if none."""
    best: tuple[int, int, int] | None = None
    for f, b, n in options:
        if f >= front and b >= back and (f > front or b > back):
            if best is None or (b, f) > (best[1], best[0]):
                best = (f, b, n)
    return None if best is None else best[2]


def _note(found: Survey, key: str, result: HouseWaySetting, hand: Sequence[Card],
          weight: int, better: int) -> None:
    row = found.dominated.get(key)
    if row is None:
        row = found.dominated[key] = Dominated(key, result.says)
    row.hands += weight
    if weight > row.example_weight:
        i, j = PAIRS_OF_SEVEN[better]
        row.example, row.example_weight = tuple(hand), weight
        row.played = result.setting
        row.better = Setting.from_front(hand, (hand[i], hand[j]))


def share(hands: int) -> str:
    """A count of hands as a share of all 154,143,080, for a person to read."""
    return f"{100 * hands / ALL_HANDS:.4f}%"
