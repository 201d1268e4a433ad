"""Golden hands for every House Way card: tests/core/golden/<way>.txt, one hand a line.

    <7 cards> -> <2 front cards> -> <rule id>[/<step id>]  # <the card line it comes from>

Each file is named for its card in `app.core.house_way.WAYS` (standard.txt, delaware-park.txt)
and is written from the card's text, not from the code's output. For each hand the House Way
must put those two cards in front, name that row of the card (and that step, for a row that
follows another row's steps) and never foul. Every row and every step of the card must be
played by some hand, except the ones the golden file names in a line
"# unreachable rule <id>: ..." or "# unreachable step <id>: ...";
tests/core/test_house_way_reach.py proves those by setting all 154,143,080 hands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.core.cards import Card, cards_text, parse_cards
from app.core.hands import foul_reason
from app.core.house_way import WAYS, HouseWay, house_way, set_house_way

GOLDEN = Path(__file__).parent / "golden"

_UNREACHABLE_LINE = re.compile(r"#\s*unreachable\s+(rule|step)\s+(\S+?):")


@dataclass(frozen=True)
class Case:
    way: str
    line: int
    hand: tuple[Card, ...]
    front: frozenset[Card]
    rule: str
    step: str | None
    says: str

    @property
    def expected(self) -> str:
        return self.rule if self.step is None else f"{self.rule}/{self.step}"

    @property
    def id(self) -> str:
        return f"{self.way}:{self.expected}:{cards_text(self.hand).replace(' ', '-')}"

    @property
    def where(self) -> str:
        return f"golden/{self.way}.txt line {self.line}"


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.txt"))


def read_golden(path: Path) -> list[Case]:
    way = path.stem
    cases = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text, _, comment = raw.partition("#")
        if not text.strip():
            continue
        parts = [p.strip() for p in text.split("->")]
        if len(parts) != 3:
            raise ValueError(f"{path.name} line {number}: write '<7 cards> -> <2 cards> -> "
                             f"<rule id>[/<step id>]', not {raw.strip()!r}")
        hand, front, ids = parts
        rule, _, step = ids.partition("/")
        cases.append(Case(way, number, parse_cards(hand, 7), frozenset(parse_cards(front, 2)),
                          rule, step or None, comment.strip()))
    return cases


def unreachable_lines(path: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {"rule": set(), "step": set()}
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = _UNREACHABLE_LINE.match(raw.strip())
        if m:
            found[m.group(1)].add(m.group(2))
    return found


def step_ids(card: HouseWay) -> set[str]:
    return {s.id for r in card.rules for s in r.steps}


CASES = [case for path in golden_files() for case in read_golden(path)]


def test_there_are_golden_files_for_the_standard_card() -> None:
    assert (GOLDEN / "standard.txt").exists()
    assert [c for c in CASES if c.way == "standard"]


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_file_names_a_card(path: Path) -> None:
    assert path.stem in WAYS, f"{path.name}: no House Way called {path.stem!r} ({', '.join(WAYS)})"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_house_way_sets_the_golden_hand_by_the_named_rule(case: Case) -> None:
    card = house_way(case.way)
    rule = card.rule(case.rule)  # the golden file names a row the card has
    if case.step is not None:
        assert case.step in {s.id for s in rule.steps}, \
            f"{case.where}: row {case.rule} has no step {case.step}"

    result = set_house_way(case.hand, case.way)

    got = result.rule.id if result.step is None else f"{result.rule.id}/{result.step.id}"
    context = (f"{case.where}: {cards_text(case.hand)}\n"
               f"  card says:  {case.says}\n"
               f"  expected:   {' '.join(sorted(map(str, case.front)))} by {case.expected}\n"
               f"  House Way:  {result.setting} by {got}: {result.says}")
    assert set(result.low) == case.front, context
    assert result.rule.id == case.rule, context
    if case.step is not None:
        assert result.step is not None and result.step.id == case.step, context
    assert foul_reason(result.setting, case.hand) is None, context


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_every_rule_of_the_card_has_a_golden_hand(path: Path) -> None:
    card = house_way(path.stem)
    played = {c.rule for c in read_golden(path)}
    unreachable = unreachable_lines(path)["rule"]
    missing = [r.id for r in card.rules if r.id not in played and r.id not in unreachable]
    assert not missing, f"{path.name} has no hand for the rows {', '.join(missing)}"


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_every_step_a_row_follows_has_a_golden_hand(path: Path) -> None:
    card = house_way(path.stem)
    played = {c.step for c in read_golden(path) if c.step}
    unreachable = unreachable_lines(path)["step"]
    missing = sorted(step_ids(card) - played - unreachable)
    assert not missing, f"{path.name} has no hand for the steps {', '.join(missing)}"


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_unreachable_rows_are_rows_of_the_card_without_golden_hands(path: Path) -> None:
    card = house_way(path.stem)
    cases = read_golden(path)
    named = unreachable_lines(path)

    assert named["rule"] <= {r.id for r in card.rules}, "an unreachable row the card does not have"
    assert named["step"] <= step_ids(card), "an unreachable step no row follows"
    assert not named["rule"] & {c.rule for c in cases}, "a row named unreachable has a golden hand"
    assert not named["step"] & {c.step for c in cases}, "a step named unreachable has a golden hand"


def test_the_setting_is_the_hand_s_whatever_order_its_cards_are_typed_in() -> None:
    """Among cards of one rank a play picks by deck order, never by the order typed: every
    golden hand, in 20 shuffled orders each, is set with the same two cards in front (and
    the hand an audit found changing with its order, 9D 6S 9C 9H 6C 6H 9S)."""
    import random

    rng = random.Random(2026)
    hands = [(c.way, c.hand) for c in CASES]
    hands += [(way, tuple(parse_cards("9D 6S 9C 9H 6C 6H 9S"))) for way in WAYS]
    for way, hand in hands:
        first = set_house_way(hand, way)
        for _ in range(20):
            shuffled = list(hand)
            rng.shuffle(shuffled)
            again = set_house_way(shuffled, way)
            assert (set(again.low), again.rule.id) == (set(first.low), first.rule.id), \
                f"{way}: {cards_text(hand)} typed as {cards_text(shuffled)}"
