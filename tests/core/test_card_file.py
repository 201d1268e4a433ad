"""A casino's own House Way as a card file (app/core/house_way/card_file.py): read in the
card's order, found by name like the built-in cards, and refused with the file, the line,
the row and what to do when a word is unknown, a key is missing, the TOML is broken, a row
would foul a hand or never fires.

The whole Trump Plaza card file over all 154,143,080 hands is
tests/core/test_card_file_trump_plaza.py (slow); here the checks over hands run on a few
chosen hands, through the same code."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.cards import Card, parse_cards
from app.core.house_way import (
    SHIPPED_CARDS,
    WAYS,
    CardFileError,
    card_names,
    house_way,
    use_site_cards,
)
from app.core.house_way.card_file import CONDITIONS, PLAYS, FileCard, check_card, load_card, walk
from tests.core.test_house_way_golden import GOLDEN, golden_files, read_golden

TRUMP_PLAZA_FILE = SHIPPED_CARDS / "trump-plaza.toml"

HEAD = 'title = "Test House Way"\n\n[[section]]\ntitle = "Everything"\n'
ONE_PAIR_ROW = """
[[section.row]]
id = "OP-1"
says = "One pair: pair back, the two highest other cards in front."
when = ["one-pair"]
play = "two-highest-singles"
"""
NO_PAIR_ROW = """
[[section.row]]
id = "NP-1"
says = "No pair: highest card back, the next two in front."
when = ["no-pair"]
play = "nth-highest(2, 3)"
"""
NO_PAIR = parse_cards("AS KD 9H 7C 5D 3S 2H", 7)
ONE_PAIR = parse_cards("QS QD AH 9C 7D 4S 2H", 7)


def card(tmp_path: Path, text: str, name: str = "ours.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(tmp_path: Path, text: str) -> str:
    with pytest.raises(CardFileError) as err:
        load_card(card(tmp_path, text))
    return str(err.value)


def hands(*seven: tuple[Card, ...]) -> list[tuple[tuple[Card, ...], int]]:
    """Chosen hands as hand classes of one hand each."""
    return [(tuple(h), 1) for h in seven]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "house-ways"
    folder.mkdir()
    use_site_cards(folder)
    yield folder
    use_site_cards(None)


# --- reading a card ------------------------------------------------------------------------
def test_the_shipped_trump_plaza_file_has_every_row_of_the_python_card_in_its_order() -> None:
    python, file = house_way("trump-plaza"), load_card(TRUMP_PLAZA_FILE)

    assert [(r.id, r.says) for r in file.rules] == [(r.id, r.says) for r in python.rules]
    assert [s.title for s in file.sections] == [s.title for s in python.sections]
    assert [[s.id for s in r.steps] for r in file.rules] == \
        [[s.id for s in r.steps] for r in python.rules]


@pytest.mark.parametrize("case", read_golden(GOLDEN / "trump-plaza.txt"), ids=lambda c: c.id)
def test_the_trump_plaza_file_sets_every_golden_hand_as_the_card_says(case) -> None:
    result = load_card(TRUMP_PLAZA_FILE).set(case.hand)

    assert set(result.low) == case.front, case.where
    assert result.rule.id == case.rule and (result.step.id if result.step else None) == case.step


def test_a_row_that_follows_other_rows_plays_them_with_their_own_conditions_not_their_sections(
        tmp_path: Path) -> None:
    path = card(tmp_path, HEAD.replace('title = "Everything"', 'title = "Flushes"\n'
                                       'when = ["flush"]') + ONE_PAIR_ROW + """
[[section]]
title = "The rest"

[[section.row]]
id = "ANY"
says = "Anything else follows the one pair rule."
follow = ["OP-1"]
""")
    result = load_card(path).set(ONE_PAIR)

    assert result.rule.id == "ANY" and result.step is not None and result.step.id == "OP-1"
    assert set(result.low) == set(parse_cards("AH 9C"))


def test_words_are_the_engines_own_conditions_and_plays() -> None:
    # The table names the engine's objects; it does not restate them.
    from app.core.house_way import phrases, plays

    assert CONDITIONS["one-pair"].make() is plays.one_pair
    assert CONDITIONS["straight-or-flush"].make() is phrases.straight_or_flush
    assert PLAYS["lowest-pair"].make() is plays.lowest_pair
    assert PLAYS["two-highest-natural-singles"].make() is phrases.two_highest_natural_singles


def test_or_and_not_combine_words_within_a_line_of_when(tmp_path: Path) -> None:
    path = card(tmp_path, HEAD + """
[[section.row]]
id = "X"
says = "A pair or no pair, but not a flush."
when = ["one-pair or no-pair", "not flush"]
play = ["two-highest-singles", "nth-highest(2, 3)"]
""")
    ours = load_card(path)

    assert ours.set(ONE_PAIR).rule.id == "X"
    assert set(ours.set(NO_PAIR).low) == set(parse_cards("KD 9H"))


# --- refused when loaded: each names the file, the line, the row and what to do -----------
def test_an_unknown_word_is_refused_naming_the_line_the_row_the_word_and_the_known_words(
        tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW.replace("two-highest-singles",
                                                        "two-higest-singles"))

    assert "ours.toml line 10 (row OP-1)" in why
    assert "'two-higest-singles' is not a play" in why
    assert "Did you mean 'two-highest-singles'?" in why
    assert all(word in why for word in PLAYS)


def test_an_unknown_condition_is_refused_listing_the_conditions(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW.replace('"one-pair"', '"one-pear"'))

    assert "ours.toml line 9 (row OP-1)" in why and "'one-pear' is not a condition" in why
    assert all(word in why for word in CONDITIONS)


def test_a_play_written_as_a_condition_says_where_it_belongs(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW.replace('"one-pair"', '"lowest-pair"'))

    assert "'lowest-pair' is a play: it goes in play" in why


def test_a_rank_a_word_does_not_know_is_refused_naming_the_rank_groups(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD.replace('[[section]]', '[ranks]\nlow = "2-6"\n\n[[section]]')
                  + ONE_PAIR_ROW.replace('"one-pair"', '"quads-of(lowish)"'))

    assert "(row OP-1)" in why and "'lowish' is not a rank" in why and "(low)" in why


def test_bad_toml_is_refused_naming_the_line(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW.replace('id = "OP-1"', 'id = OP-1'))

    assert "ours.toml: not valid TOML" in why and "line 7" in why and "double quotes" in why


@pytest.mark.parametrize(("key", "says"), [
    ("says", "this row has no words: add says"),
    ("play", "a row has a play"),
    ("id", "this row has no id: add id"),
])
def test_a_row_missing_a_key_is_refused_saying_what_to_add(tmp_path: Path, key: str,
                                                          says: str) -> None:
    text = "\n".join(line for line in ONE_PAIR_ROW.splitlines()
                     if not line.startswith(f"{key} ="))
    why = refused(tmp_path, HEAD + text + "\n")

    assert says in why and "ours.toml line 6" in why
    if key != "id":
        assert "(row OP-1)" in why


def test_a_card_without_title_or_sections_is_refused(tmp_path: Path) -> None:
    why = refused(tmp_path, 'notes = ["nothing yet"]\n')

    assert "no title: add title" in why and "no sections: add [[section]]" in why


def test_an_unknown_key_is_refused_naming_the_keys_there_are(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW.replace("play =", "plays ="))

    assert "line 10" in why and "'plays' is not a key of a row; the keys are id, says" in why


def test_follow_must_name_rows_of_the_card(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW + """
[[section.row]]
id = "ANY"
says = "Follows a row that is not there."
follow = ["OP-2"]
""")

    assert "(row ANY)" in why and "'OP-2', which is not a row of this card" in why


def test_two_rows_with_one_id_are_refused(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW + ONE_PAIR_ROW)

    assert "ours.toml line 12 (row OP-1)" in why and "used by an earlier row" in why


def test_every_problem_of_a_card_is_named_at_once(tmp_path: Path) -> None:
    why = refused(tmp_path, HEAD + ONE_PAIR_ROW.replace('"one-pair"', '"one-pear"')
                  + NO_PAIR_ROW.replace("nth-highest(2, 3)", "nth-highest(2, 9)"))

    assert "one-pear" in why and "(row NP-1)" in why and "from 1 (the highest card) to 7" in why


# --- the check over hands: rows that foul, never fire, hands no row sets -----------------
def test_a_row_whose_play_would_foul_a_hand_it_is_asked_to_set_is_named(
        tmp_path: Path) -> None:
    path = card(tmp_path, HEAD + """
[[section.row]]
id = "PAIR-FRONT"
says = "Pairs: the lowest pair in front."
when = ["any-pair"]
play = "lowest-pair"
""" + ONE_PAIR_ROW + NO_PAIR_ROW)
    two_pair = parse_cards("6S 6D 3H 3C QD 9S 8H", 7)
    found = check_card(load_card(path), classes=hands(two_pair, ONE_PAIR, NO_PAIR))

    (problem,) = found.problems
    assert f"{path.name} line 6 (row PAIR-FRONT): its play would foul 1 hands" in problem
    assert "QS QD AH 9C 7D 4S 2H" in problem and "outranks the five-card hand" in problem
    assert "make the condition exclude them, or give a play that does not foul" in problem
    # The engine itself never fouls: it read on to the next row.
    assert found.reach == {"PAIR-FRONT": 1, "OP-1": 1, "NP-1": 1}


def test_a_row_that_never_fires_is_named_unless_the_card_marks_it_unreachable(
        tmp_path: Path) -> None:
    never = """
[[section.row]]
id = "NEVER"
says = "A pair and no pair."
when = ["no-pair", "any-pair"]
play = "lowest-pair"
"""
    found = check_card(load_card(card(tmp_path, HEAD + ONE_PAIR_ROW + never + NO_PAIR_ROW)),
                       classes=hands(ONE_PAIR, NO_PAIR))
    marked = check_card(load_card(card(
        tmp_path, HEAD + ONE_PAIR_ROW + never + 'unreachable = "no hand is both"\n'
        + NO_PAIR_ROW, "marked.toml")), classes=hands(ONE_PAIR, NO_PAIR))

    (problem,) = found.problems
    assert "ours.toml line 12 (row NEVER): the row never fires over all 2 hands" in problem
    assert "unreachable = \"why\"" in problem
    assert marked.problems == []


def test_a_row_marked_unreachable_that_fires_is_named(tmp_path: Path) -> None:
    path = card(tmp_path, HEAD + ONE_PAIR_ROW + 'unreachable = "wrongly"\n' + NO_PAIR_ROW)

    (problem,) = check_card(load_card(path), classes=hands(ONE_PAIR, NO_PAIR)).problems

    assert "(row OP-1): the row is marked unreachable but sets 1 hands" in problem


def test_a_hand_no_row_sets_is_named_with_an_example(tmp_path: Path) -> None:
    found = check_card(load_card(card(tmp_path, HEAD + ONE_PAIR_ROW)),
                       classes=hands(ONE_PAIR, NO_PAIR))

    assert [p.split("/")[-1] for p in found.problems] == [
        "ours.toml: no row sets 1 hands, e.g. AS KD 9H 7C 5D 3S 2H: add a row (a last row "
        "with no condition catches every hand)"]


def test_check_same_as_names_the_hands_two_cards_set_differently(tmp_path: Path) -> None:
    ours = load_card(card(tmp_path, HEAD + ONE_PAIR_ROW + NO_PAIR_ROW))

    found = check_card(ours, classes=hands(ONE_PAIR, NO_PAIR), same_as=house_way("trump-plaza"))

    assert len(found.problems) == 1 and "differs from trump-plaza on 2 hands" in \
        found.problems[0] and "by OP-1, trump-plaza: AH 9C in front by TP-1P" in \
        found.problems[0]


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_the_check_walks_each_card_exactly_as_the_engine_sets_it(path: Path) -> None:
    way = house_way(path.stem)
    for case in read_golden(path):
        walked, _ = walk(way, case.hand)
        played = way.set(case.hand)
        assert walked is not None and walked.setting == played.setting
        assert walked.rule.id == played.rule.id and walked.step == played.step


# --- found by name -------------------------------------------------------------------------
def test_a_card_file_with_a_built_in_cards_name_is_named_with_its_ending() -> None:
    assert isinstance(house_way("trump-plaza.toml"), FileCard)
    assert not isinstance(house_way("trump-plaza"), FileCard)
    assert card_names()[:len(WAYS)] == list(WAYS) and "trump-plaza.toml" in card_names()


def test_the_sites_card_files_are_found_by_name_and_listed(site: Path) -> None:
    card(site, HEAD + ONE_PAIR_ROW + NO_PAIR_ROW, "our-way.toml")

    assert house_way("our-way").set(NO_PAIR).rule.id == "NP-1"
    assert house_way("our-way.toml").name == "our-way.toml"
    assert "our-way" in card_names()


def test_a_card_file_is_found_by_its_path(tmp_path: Path) -> None:
    path = card(tmp_path, HEAD + NO_PAIR_ROW)

    assert house_way(str(path)).set(NO_PAIR).rule.id == "NP-1"


def test_an_unknown_name_lists_every_card_built_in_and_file(site: Path) -> None:
    card(site, HEAD + NO_PAIR_ROW, "our-way.toml")

    with pytest.raises(KeyError) as err:
        house_way("caesars")

    assert all(name in str(err.value) for name in (*WAYS, "trump-plaza.toml", "our-way"))


def test_a_broken_card_file_found_by_name_is_refused_naming_its_row(site: Path) -> None:
    card(site, HEAD + NO_PAIR_ROW.replace("nth-highest", "nth-lowest"), "our-way.toml")

    with pytest.raises(CardFileError) as err:
        house_way("our-way")

    assert "our-way.toml line 10 (row NP-1)" in str(err.value) and "nth-lowest" in str(err.value)


# --- the manual --------------------------------------------------------------------------
RULES_MD = Path(__file__).parents[2] / "docs" / "rules.md"


def test_the_manuals_example_card_loads_and_sets_hands(tmp_path: Path) -> None:
    text = RULES_MD.read_text(encoding="utf-8").split("## Your own House Way", 1)[1]
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]

    ours = load_card(card(tmp_path, example))

    # "Low + low: split unless a K or A can go in front": a K single stays out front.
    result = ours.set(parse_cards("6S 6D 3H 3C KD 9S 8H", 7))
    assert result.rule.id == "2P-1" and set(result.low) == set(parse_cards("KD 9S"))


def test_the_manual_lists_every_word_a_card_file_may_use() -> None:
    text = RULES_MD.read_text(encoding="utf-8").split("## Your own House Way", 1)[1]

    missing = [w.usage for w in (*CONDITIONS.values(), *PLAYS.values())
               if f"| `{w.usage}` | {w.means} |" not in text]
    assert missing == []
