"""The House Way engine: a rule card is sections of rules, the first rule that fits fires.

A rule holds the card's own words (`says`), a condition on the hand's facts (`when`) and a
play that names the two cards that go in front. A row that says "follow the steps
described for ..." carries those steps instead of a play; the first step that fits plays.
A rule fits when its condition holds and its play can be made without a foul: a card
never asks the dealer to foul a hand, so a play that would is read as not meant for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import Card, CardError
from ..hands import DEFAULT_RULES, HandRules, Setting, foul_reason, ranker
from .facts import Facts

Condition = Callable[[Facts], bool]
Play = Callable[[Facts], Sequence[Card] | None]


class HouseWayError(RuntimeError):
    """A rule card that cannot set a hand: a defect in the card, never the dealer's fault."""


class CardFileError(HouseWayError):
    """A rule-card file that cannot be used as it is: every problem, each naming the file,
    the line and the row, and what to do."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


def _no_play(_: Facts) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    says: str
    when: Condition = field(repr=False, compare=False)
    play: Play = field(default=_no_play, repr=False, compare=False)
    steps: tuple[Rule, ...] = field(default=(), repr=False, compare=False)
    section: str = ""

    def in_section(self, title: str) -> Rule:
        return Rule(self.id, self.says, self.when, self.play, self.steps, title)


@dataclass(frozen=True, slots=True)
class Section:
    """A heading of the card. `gate` is what every hand under it has (a quick way past
    sections that cannot fit); each rule still states its whole condition."""

    title: str
    rules: tuple[Rule, ...]
    gate: Condition

    def __init__(self, title: str, *rules: Rule, gate: Condition = lambda f: True) -> None:
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "rules", tuple(r.in_section(title) for r in rules))
        object.__setattr__(self, "gate", gate)


@dataclass(frozen=True, slots=True)
class HouseWaySetting:
    """What the House Way did with a hand: the setting, the row that fired and, for a row
    that follows other steps, the step that played."""

    setting: Setting
    rule: Rule
    way: str
    step: Rule | None = None

    @property
    def low(self) -> tuple[Card, ...]:
        return self.setting.low

    @property
    def high(self) -> tuple[Card, ...]:
        return self.setting.high

    @property
    def says(self) -> str:
        if self.step is None:
            return self.rule.says
        return f"{self.rule.says} -> {self.step.id}: {self.step.says}"


@dataclass(frozen=True)
class HouseWay:
    """A casino's rule card: its name, where it comes from, and its sections in order."""

    name: str
    title: str
    source: str
    sections: tuple[Section, ...]
    notes: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(r for s in self.sections for r in s.rules)

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def facts(self, seven: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> Facts:
        """What the card's rows read of a hand. Deck order, not the order typed: a play that
        picks among cards of one rank picks the same card however the hand was entered."""
        return Facts(tuple(sorted(seven, key=_deck_order)), rules)

    def set(self, cards: Iterable[Card], rules: HandRules = DEFAULT_RULES) -> HouseWaySetting:
        seven = tuple(cards)
        if len(seven) != 7 or len(set(seven)) != 7:
            raise CardError(f"the House Way sets 7 different cards, not {len(set(seven))}")
        facts = self.facts(seven, rules)
        for section in self.sections:
            if not section.gate(facts):
                continue
            for rule in section.rules:
                if rule.when(facts):
                    found = self._play(facts, rule)
                    if found is not None:
                        return found
        raise HouseWayError(f"no rule of {self.name} fits {' '.join(map(str, seven))}")


    def _play(self, facts: Facts, rule: Rule) -> HouseWaySetting | None:
        for step in rule.steps or (rule,):
            if step is not rule and not step.when(facts):
                continue
            setting = _legal(facts, _strongest_back(facts, step.play(facts)))
            if setting is not None:
                return HouseWaySetting(setting, rule, self.name, None if step is rule else step)
        return None


def _deck_order(card: Card) -> int:
    return card.index


def _strongest_back(facts: Facts, front: Sequence[Card] | None) -> Sequence[Card] | None:
    """A play that names a card by its rank ("two Aces", "the pair") leaves the dealer a
    choice among the natural cards of that rank; of those choices the one whose five-card
    hand is strongest is played (the flush kept), then the play's own pick, then deck order.
    The joker is never swapped: a card that names it means it. Suits matter only to a
    flush, so without one every choice is the same and the play's pick stands."""
    if front is None or len(front) != 2 or not facts.flush:
        return front
    a, b = front
    pools = [[x, *sorted((c for c in facts.cards if not x.is_joker and not c.is_joker
                          and c.rank == x.rank and c not in front), key=lambda c: c.index)]
             for x in (a, b)]
    if len(pools[0]) == 1 and len(pools[1]) == 1:
        return front
    choices: list[tuple[Card, Card]] = []
    for p in pools[0]:
        for q in pools[1]:
            if p != q and {p, q} not in [set(c) for c in choices]:
                choices.append((p, q))
    rank5 = ranker(facts.rules).rank5
    # max() keeps the first of equal backs: the play's own pick comes first.
    return max(choices, key=lambda c: rank5(facts.without(*c)))


def _legal(facts: Facts, front: Sequence[Card] | None) -> Setting | None:
    if front is None or len(set(front)) != 2:
        return None
    setting = Setting.from_front(facts.cards, front)
    return None if foul_reason(setting, facts.cards, facts.rules) else setting
