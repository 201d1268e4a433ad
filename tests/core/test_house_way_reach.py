"""Which rows of each rule card fire, proved over all 154,143,080 seven-card hands.

Every card with a golden file is set on every hand (as the 292,253 classes of
`app.core.classes`, each counted with its weight). It must never foul one (judged under the
joker the card plays), and the rows and steps that never fire must be exactly the ones its
golden file names "# unreachable rule/step <id>: ...": a row it calls unreachable that
fires fails, and so does a row that never fires it does not name.
The hands each row (`rule` or `rule/step`) sets are kept in golden/reach.json, so a change
in any row's reach is seen. After a deliberate change to a card, write the file again:

    python -m tests.core.test_house_way_reach --write
"""

from __future__ import annotations

import json
import sys

import pytest

from app.core.classes import ALL_HANDS
from app.core.house_way import house_way
from app.core.house_way.audit import Survey, survey
from tests.core.test_house_way_golden import GOLDEN, golden_files, step_ids, unreachable_lines

REACH = GOLDEN / "reach.json"
WAYS = [p.stem for p in golden_files()]

pytestmark = pytest.mark.proof


@pytest.fixture(scope="module")
def surveys() -> dict[str, Survey]:
    """One pass over every hand, every card set on it."""
    return survey(WAYS)


def recorded() -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = json.loads(REACH.read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize("way", WAYS)
def test_card_sets_every_one_of_the_154143080_hands_once(
        surveys: dict[str, Survey], way: str) -> None:
    assert surveys[way].total == ALL_HANDS == 154_143_080


@pytest.mark.parametrize("way", WAYS)
def test_card_never_fouls_on_any_of_the_154143080_hands(
        surveys: dict[str, Survey], way: str) -> None:
    # DESIGN.md: "Every setting the House Way makes is legal (never a foul)", judged under
    # the joker the card plays (the fully wild card's joker is any card, seed 004).
    found = surveys[way]

    assert found.fouls == 0, f"{way} fouls {found.fouls:,} hands, e.g. " \
        + " ".join(map(str, found.foul_example))


@pytest.mark.parametrize("way", WAYS)
def test_rows_that_never_fire_are_exactly_those_the_golden_file_calls_unreachable(
        surveys: dict[str, Survey], way: str) -> None:
    named = unreachable_lines(GOLDEN / f"{way}.txt")["rule"]
    reach = surveys[way].rule_reach()

    never = {rule for rule, hands in reach.items() if hands == 0}

    assert not named - never, f"{way}: rows called unreachable fire: " + ", ".join(
        f"{r} ({reach[r]:,} hands)" for r in sorted(named - never))
    assert not never - named, f"{way}: rows that never fire, not named unreachable: " \
        + ", ".join(sorted(never - named))


@pytest.mark.parametrize("way", WAYS)
def test_steps_never_played_are_exactly_those_the_golden_file_calls_unreachable(
        surveys: dict[str, Survey], way: str) -> None:
    named = unreachable_lines(GOLDEN / f"{way}.txt")["step"]

    never = step_ids(house_way(way)) - surveys[way].steps_played()

    assert never == named, f"{way}: steps never played {sorted(never)}, named {sorted(named)}"


@pytest.mark.parametrize("way", WAYS)
def test_hands_each_row_sets_are_the_recorded_counts(
        surveys: dict[str, Survey], way: str) -> None:
    want = recorded().get(way)
    assert want is not None, f"golden/reach.json has no counts for {way}: write it again " \
        "(python -m tests.core.test_house_way_reach --write)"
    got = surveys[way].reach

    changed = {k: (want.get(k, 0), got.get(k, 0)) for k in want.keys() | got.keys()
               if want.get(k, 0) != got.get(k, 0)}

    assert not changed, f"{way}: rows whose reach changed (recorded, now): {changed}"


def write() -> None:
    found = survey(WAYS)
    data = {w: dict(sorted(s.reach.items())) for w, s in found.items()}
    REACH.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {REACH}")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
