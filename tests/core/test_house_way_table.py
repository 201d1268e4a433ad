"""A card's table (app/core/house_way/table.py) is the card itself: every hand of the deck
has an entry, and the table sets it as the card does, row and step, in any order typed.
The kept table is built again when the card changes, when its file is damaged or foreign
(and says so), and two processes building it at once leave one whole table."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.cards import DECK, Card, cards_text
from app.core.hands import DEFAULT_RULES, HandRules, ranker
from app.core.house_way import WAYS, hand_rules_for, house_way
from app.core.house_way import table as tables
from app.core.house_way.card_file import load_card
from app.core.house_way.table import BrokenTable, hand_key, load, path_of, table_of

from .test_house_way_golden import CASES

ROOT = Path(__file__).resolve().parents[2]
CARD_FILE = ROOT / "config" / "house-ways" / "trump-plaza.toml"
FEW = 60  # rank patterns a cache test's table is built from (a whole one takes minutes)


def random_hands(rng: random.Random, count: int) -> list[tuple[Card, ...]]:
    """Random hands, a third from all the deck, a third from few ranks (pairs, trips,
    quads: where a card chooses among cards of one rank), a third from one suit's cards
    and the cards sharing their ranks (flushes, where the flush card's place among cards
    of its rank matters), the joker often."""
    out = []
    for n in range(count):
        if n % 3 == 0:
            pool = list(DECK)
        elif n % 3 == 1:
            ranks = rng.sample(range(13), 4)
            pool = [DECK[s * 13 + r] for r in ranks for s in range(4)] + [DECK[52]]
        else:
            suit = rng.randrange(4)
            ranks = rng.sample(range(13), 7)
            pool = [DECK[suit * 13 + r] for r in ranks] * 3 + [
                DECK[s * 13 + r] for r in ranks[:3] for s in range(4)] + [DECK[52]] * 2
        hand: list[Card] = []
        while len(hand) < 7:
            pick = rng.choice(pool)
            if pick not in hand:
                hand.append(pick)
        out.append(tuple(hand))
    return out


@pytest.mark.parametrize("way", sorted(WAYS))
def test_the_table_sets_every_hand_as_the_card_does_with_the_row_and_the_step(
        way: str) -> None:
    card = house_way(way)
    rules = hand_rules_for(card)
    table = table_of(card, rules)
    assert len(table) == 67_600 + 388_674  # the rank patterns and the flush shapes
    rng = random.Random(f"table/{way}")
    for hand in random_hands(rng, 4000):
        expected = card.set(hand, rules)
        for typed in (hand, tuple(rng.sample(hand, 7))):
            assert table.set(typed) == card.set(typed, rules), cards_text(typed)
        assert table.set(hand) == expected


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_the_table_sets_the_golden_hand_as_the_card_in_any_order_typed(case: object) -> None:
    hand: tuple[Card, ...] = case.hand  # type: ignore[attr-defined]
    card = house_way(case.way)  # type: ignore[attr-defined]
    rules = hand_rules_for(card)
    table = table_of(card, rules)
    rng = random.Random(cards_text(hand))
    for _ in range(4):
        typed = tuple(rng.sample(hand, 7))
        assert table.set(typed) == card.set(typed, rules)


def test_the_table_follows_the_tables_hand_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    # Built of the rank patterns that hold a wheel (A-2-3-4-5, the joker standing in for a
    # missing one), where "lowest" changes what the hand is worth: a whole table under
    # other rules takes minutes, and the other patterns' settings do not depend on it.
    wheels = [(j, ranks) for j, ranks in tables.patterns()
              if sum(1 for r in (12, 0, 1, 2, 3) if ranks[r]) + j >= 5][:400]
    monkeypatch.setattr(tables, "patterns", lambda: wheels)
    rules = HandRules(wheel="lowest")
    card = house_way("standard")
    table, second = tables.build(card, rules), tables.build(card, DEFAULT_RULES)
    rank = ranker(rules)
    for hand in wheel_hands(wheels):
        setting = card.set(hand, rules)
        assert table.set(hand) == setting, cards_text(hand)
        assert table.strength([c.index for c in hand]) == (
            rank.rank2(setting.low) << tables.SHIFT | rank.rank5(setting.high))
    assert table.strengths != second.strengths  # the wheel's worth is the rules'


def wheel_hands(wheels: list[tuple[int, tuple[int, ...]]]) -> list[tuple[Card, ...]]:
    """One real hand of every key of these patterns, typed in a shuffled order."""
    rng = random.Random("lowest")
    return [tuple(rng.sample([DECK[i] for i in hand], 7))
            for jokers, ranks in wheels for hand in tables.hands_of(jokers, ranks)]


@pytest.mark.proof  # every pattern's hands made (14 s of CPU)
def test_every_key_is_made_once_by_a_real_hand_of_it() -> None:
    keys = set()
    for jokers, ranks in tables.patterns():
        for hand in tables.hands_of(jokers, ranks):
            assert len(set(hand)) == 7
            keys.add(hand_key(hand))
    assert len(keys) == 67_600 + 388_674


# --- keeping ------------------------------------------------------------------------------

@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[str]]:
    """Tables of a few rank patterns only, kept in a folder of the test's own; what is
    said is listed."""
    few = tables.patterns()[:FEW]
    monkeypatch.setattr(tables, "patterns", lambda: few)
    before = tables.cache_folder()
    tables.use_cache_folder(tmp_path / "cache")
    yield []
    tables.use_cache_folder(before)


def card_copy(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "ours.toml"
    path.write_text(CARD_FILE.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def test_a_changed_card_gets_its_table_built_again(small: list[str], tmp_path: Path) -> None:
    card = load_card(card_copy(tmp_path), "ours")
    first = table_of(card, DEFAULT_RULES, say=small.append)
    path = path_of(card, DEFAULT_RULES)
    assert path is not None and path.is_file()
    assert load(card, DEFAULT_RULES, path).keys == first.keys

    changed = load_card(card_copy(tmp_path, "\n# a changed card\n"), "ours")
    table_of(changed, DEFAULT_RULES, say=small.append)
    again = path_of(changed, DEFAULT_RULES)
    assert again is not None and again != path and again.is_file()
    assert not path.exists()  # the card's older table is not kept
    assert len(small) == 2 and all("building the House Way table of the ours card" in s
                                   for s in small)


def test_a_damaged_or_foreign_table_is_built_again_and_said(small: list[str],
                                                            tmp_path: Path) -> None:
    card = load_card(card_copy(tmp_path), "ours")
    table_of(card, DEFAULT_RULES)
    path = path_of(card, DEFAULT_RULES)
    assert path is not None
    whole = path.read_bytes()
    tables.forget()

    path.write_bytes(whole[:-8])  # cut short
    with pytest.raises(BrokenTable, match="not whole"):
        load(card, DEFAULT_RULES, path)
    assert tables.kept(card, DEFAULT_RULES) is None  # the station's card sets the hands
    table_of(card, DEFAULT_RULES, say=small.append)
    assert path.read_bytes() == whole
    assert "cannot be used, it is not whole" in small[-1]

    tables.forget()
    path.write_bytes(whole.replace(b'"card": "ours"', b'"card": "mine"'))  # another card's
    table_of(card, DEFAULT_RULES, say=small.append)
    assert "written by another version or for another card" in small[-1]
    assert path.read_bytes() == whole


BUILD = """
import sys
from app.core.house_way import table as tables
from app.core.house_way.card_file import load_card
few = tables.patterns()[:{few}]
tables.patterns = lambda: few
tables.use_cache_folder(sys.argv[1])
print(len(tables.table_of(load_card(sys.argv[2], "ours"))))
"""


def test_two_processes_building_at_once_leave_one_whole_table(small: list[str],
                                                              tmp_path: Path) -> None:
    path = card_copy(tmp_path)
    folder = tmp_path / "cache"
    script = BUILD.format(few=FEW)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(folder), str(path)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    card = load_card(path, "ours")
    kept = path_of(card, DEFAULT_RULES)
    assert kept is not None
    assert [p.name for p in folder.iterdir()] == [kept.name]  # no half-written file left
    assert len(load(card, DEFAULT_RULES, kept)) == int(outs[0][0])
