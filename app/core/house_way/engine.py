"""The House Way engine: a rule card is sections of rules, the first rule that fits fires.

A rule holds the card's own words (`says`), a condition on the hand's facts (`when`) and a
play that names the two cards that go in front. The engine computes the facts once,
walks the card in its order, and returns the Setting with the rule that made it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..cards import Card, CardError
from ..hands import DEFAULT_RULES, HandRules, Setting, foul_reason
from .facts import Facts

Condition = Callable[[Facts], bool]
Play = Callable[[Facts], Sequence[Card]]


class HouseWayError(RuntimeError):
    """A rule card that cannot set a hand: a defect in the card, never the dealer's fault."""


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    says: str
    when: Condition = field(repr=False, compare=False)
    play: Play = field(repr=False, compare=False)
    section: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    rules: tuple[Rule, ...]

    def __init__(self, title: str, *rules: Rule) -> None:
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "rules", tuple(
            Rule(r.id, r.says, r.when, r.play, title) for r in rules))


@dataclass(frozen=True, slots=True)
class HouseWaySetting:
    """What the House Way did with a hand: the setting and the rule that fired."""

    setting: Setting
    rule: Rule
    way: str

    @property
    def low(self) -> tuple[Card, ...]:
        return self.setting.low

    @property
    def high(self) -> tuple[Card, ...]:
        return self.setting.high


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

    def set(self, cards: Iterable[Card], rules: HandRules = DEFAULT_RULES) -> HouseWaySetting:
        seven = tuple(cards)
        if len(seven) != 7 or len(set(seven)) != 7:
            raise CardError(f"the House Way sets 7 different cards, not {len(set(seven))}")
        facts = Facts(seven, rules)
        for rule in self.rules:
            if rule.when(facts):
                return HouseWaySetting(self._setting(facts, rule), rule, self.name)
        raise HouseWayError(f"no rule of {self.name} fits {' '.join(map(str, seven))}")

    def _setting(self, facts: Facts, rule: Rule) -> Setting:
        front = list(rule.play(facts))
        setting = Setting.from_front(facts.cards, front)
        why = None if len(set(front)) == 2 else "the rule did not name two cards"
        why = why or foul_reason(setting, facts.cards, facts.rules)
        if why:
            raise HouseWayError(f"{self.name} rule {rule.id} fouls {setting}: {why}")
        return setting
