"""A bonus pay table and an envy table are data cards (TOML), checked when loaded: a missing,
unknown or duplicated category, or a negative or zero pay, is refused with the file, the
line and what to write (issue 26). The shipped cards are the published tables, each citing
its source."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.bonus import (
    FORTUNE_CATEGORIES,
    BonusCardError,
    Category,
    envy_card,
    envy_card_names,
    load_envy_card,
    load_pay_card,
    pay_card,
    pay_card_names,
)

C = Category


def write(tmp_path: Path, text: str, name: str = "ours.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


FORTUNE_PAYS = """\
natural-seven-card-straight-flush = 8000
royal-flush-with-royal-match = 2000
seven-card-straight-flush-with-joker = 1000
five-aces = 400
royal-flush = 150
straight-flush = 50
four-of-a-kind = 25
full-house = 5
flush = 4
three-of-a-kind = 3
straight = 2
"""


def card_text(pays: str = FORTUNE_PAYS, head: str = "") -> str:
    return f'title = "Our Fortune table"\nsource = "our pit"\n{head}\n[pays]\n{pays}'


def problems(path: Path, loader=load_pay_card) -> str:
    with pytest.raises(BonusCardError) as caught:
        loader(path)
    return str(caught.value)


# --- the shipped cards -------------------------------------------------------------------------

def test_fortune_8000_pays_the_issues_table_in_the_issues_order():
    card = pay_card("fortune-8000")
    assert [(row.category, row.to_one) for row in card.rows] == list(zip(
        FORTUNE_CATEGORIES, (8000, 2000, 1000, 400, 150, 50, 25, 5, 4, 3, 2), strict=True))


def test_every_shipped_card_loads_and_cites_its_source():
    assert {"fortune-8000", "fortune-5000", "fortune-5000-push", "fortune-2500",
            "fortune-5000-110", "pai-gow-mania-seven"} <= set(pay_card_names())
    for name in pay_card_names():
        assert pay_card(name).source.strip()
    assert "envy-5000" in envy_card_names()
    assert envy_card("envy-5000").source.strip()


def test_the_common_envy_table_pays_5000_down_to_5_dollars_on_a_5_dollar_bonus():
    card = envy_card("envy-5000")
    assert [(row.category, row.amount) for row in card.rows] == list(zip(
        FORTUNE_CATEGORIES[:7], (500_000, 100_000, 50_000, 25_000, 5_000, 2_000, 500),
        strict=True))
    assert card.qualifying == 500


def test_an_unknown_card_name_lists_the_cards_there_are():
    with pytest.raises(BonusCardError, match="fortune-8000"):
        pay_card("fortune-9000")


def test_an_envy_table_is_not_taken_for_a_pay_table():
    with pytest.raises(BonusCardError, match="envy"):
        pay_card("envy-5000")


# --- a casino's own card -----------------------------------------------------------------------

def test_a_casinos_card_in_the_same_words_loads(tmp_path):
    card = load_pay_card(write(tmp_path, card_text()))
    assert card.name == "ours" and card.title == "Our Fortune table"
    assert card.rows[0].to_one == 8000


def test_a_missing_category_is_refused_with_the_file_the_line_and_what_to_write(tmp_path):
    path = write(tmp_path, card_text(FORTUNE_PAYS.replace("flush = 4\n", "")))
    said = problems(path)
    assert "ours.toml line 4" in said  # the [pays] line
    assert "flush is missing" in said and "add flush = " in said


def test_an_unknown_category_is_refused_with_the_nearest_name(tmp_path):
    path = write(tmp_path, card_text(FORTUNE_PAYS.replace(
        "royal-flush-with-royal-match", "royal-flush-plus-royal-match")))
    said = problems(path)
    assert "ours.toml line 6" in said
    assert "'royal-flush-plus-royal-match' is not a category" in said
    assert "royal-flush-with-royal-match" in said


def test_a_duplicated_category_is_refused_naming_both_lines(tmp_path):
    path = write(tmp_path, card_text(FORTUNE_PAYS + "flush = 5\n"))
    said = problems(path)
    assert "ours.toml line 16" in said and "line 13" in said and "keep one" in said


@pytest.mark.parametrize("pay", ["0", "-4"])
def test_a_zero_or_negative_pay_is_refused(tmp_path, pay):
    path = write(tmp_path, card_text(FORTUNE_PAYS.replace("flush = 4", f"flush = {pay}")))
    said = problems(path)
    assert "ours.toml line 13" in said
    assert "a whole number 1 or more" in said and '"push"' in said


def test_a_pay_that_is_not_a_whole_number_is_refused(tmp_path):
    path = write(tmp_path, card_text(FORTUNE_PAYS.replace("flush = 4", 'flush = "4 to 1"')))
    assert "ours.toml line 13" in problems(path)


def test_nothing_always_loses_and_is_not_written(tmp_path):
    path = write(tmp_path, card_text(FORTUNE_PAYS + "nothing = 1\n"))
    assert "nothing" in problems(path) and "take the line out" in problems(path)


def test_broken_toml_names_the_file_and_line(tmp_path):
    path = write(tmp_path, card_text(FORTUNE_PAYS.replace("flush = 4", "flush = ")))
    said = problems(path)
    assert "ours.toml" in said and "line 13" in said


def test_a_missing_file_says_so(tmp_path):
    assert "no such" in problems(tmp_path / "gone.toml")


def test_a_card_names_the_categories_it_uses_and_is_checked_against_them(tmp_path):
    head = 'categories = ["five-aces", "royal-flush", "straight-flush", "four-of-a-kind"]'
    pays = "five-aces = 500\nroyal-flush = 250\nstraight-flush = 50\nfour-of-a-kind = 25\n"
    card = load_pay_card(write(tmp_path, card_text(pays, head)))
    assert [row.category for row in card.rows] == [C.FIVE_ACES, C.ROYAL_FLUSH,
                                                   C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND]
    said = problems(write(tmp_path, card_text(pays + "flush = 4\n", head)))
    assert "flush is not among this card's categories" in said
    said = problems(write(tmp_path, card_text(pays.replace("royal-flush = 250\n", ""), head)))
    assert "royal-flush is missing" in said


def test_a_category_below_one_that_every_hand_of_it_makes_is_refused(tmp_path):
    head = 'categories = ["flush", "straight-flush"]'
    said = problems(write(tmp_path, card_text("flush = 4\nstraight-flush = 50\n", head)))
    assert "straight-flush" in said and "never" in said and "above flush" in said


def test_an_envy_card_reads_dollar_amounts_and_its_qualifying_wager(tmp_path):
    text = ('title = "Our envy"\nsource = "our pit"\nkind = "envy"\n'
            'qualifying-wager = "$10"\ncategories = ["five-aces", "four-of-a-kind"]\n'
            '[pays]\nfive-aces = "$1,000"\nfour-of-a-kind = "$10.50"\n')
    card = load_envy_card(write(tmp_path, text))
    assert card.qualifying == 1_000
    assert [(r.category, r.amount) for r in card.rows] == [(C.FIVE_ACES, 100_000),
                                                          (C.FOUR_OF_A_KIND, 1_050)]


def test_an_envy_amount_written_as_a_bare_number_is_refused(tmp_path):
    text = ('title = "Our envy"\nsource = "our pit"\nkind = "envy"\n'
            'categories = ["four-of-a-kind"]\n[pays]\nfour-of-a-kind = 5\n')
    said = problems(write(tmp_path, text), load_envy_card)
    assert "line 6" in said and '"$5.00"' in said
