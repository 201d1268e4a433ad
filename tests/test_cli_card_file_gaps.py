"""A card file that leaves hands unset, and card files in the analysis commands, through
the command line's own entry (`app.cli.main`): what is wrong is said in a sentence, never
a traceback, and a hand the card does set is answered the same piped as given as
arguments (issue 24: a card with only a no-pair row answered `paigow house-way AS KD ...`
but crashed on the same hand piped, building its table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main

NO_PAIR_ONLY = """title = "Only no pair"

[[section]]
title = "No pair"

[[section.row]]
id = "NP"
when = ["no-pair"]
says = "No pair: the second and third highest in front."
play = ["nth-highest(2, 3)"]
"""

NO_PAIR_HAND = "AS KD 9C 7H 5S 3D 2C"
PAIR_HAND = "AS AD 9C 7H 5S 3D 2C"


@pytest.fixture
def card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "no-pair-only.toml"
    path.write_text(NO_PAIR_ONLY)
    return path


def piped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """stdin as a file (a pipe's bytes, read by file descriptor as a shell's would be)."""
    lines = tmp_path / "hands.txt"
    lines.write_text(text)
    monkeypatch.setattr("sys.stdin", lines.open())


def test_a_card_with_only_a_no_pair_row_answers_a_piped_hand_as_it_answers_arguments(
        card: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["house-way", "--way", str(card), *NO_PAIR_HAND.split()]) == 0
    given = capfd.readouterr().out

    piped(tmp_path, monkeypatch, NO_PAIR_HAND + "\n")
    code = main(["house-way", "--way", str(card)])
    out, err = capfd.readouterr()

    assert given.startswith("KD 9C | AS 7H 5S 3D 2C   [NP]")
    assert (code, out) == (0, given)
    assert "Traceback" not in err


def test_a_piped_hand_no_row_sets_is_said_on_its_line_and_the_others_are_answered(
        card: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    piped(tmp_path, monkeypatch, f"{NO_PAIR_HAND}\n{PAIR_HAND}\nKS QD 9C 7H 5S 3D 2C\n")

    code = main(["house-way", "--way", str(card)])
    out, err = capfd.readouterr()

    assert code == 2
    assert [line.split("   [")[0] for line in out.splitlines()] == [
        "KD 9C | AS 7H 5S 3D 2C", "QD 9C | KS 7H 5S 3D 2C"]
    assert f"no rule of {card} fits {PAIR_HAND}" in err and "Traceback" not in err


def test_simulating_a_card_that_leaves_hands_unset_says_so_in_a_sentence(
        card: Path, capfd: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--hands", "100", "--workers", "1", "--way", str(card)])
    err = capfd.readouterr().err

    assert code == 2
    assert f"no rule of {card} fits" in err and "house-way --check" in err
    assert "Traceback" not in err


# `make proof`: the dealer's hands are looked up in the card file's House Way table, which
# is built here from the file over 456,274 entries (74 s of a quiet machine, 7 minutes
# beside other work); the built-in cards' tables are built at install, a file's on first use.
@pytest.mark.proof
def test_advice_against_a_card_file_dealer_is_given(
        card: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # The dealer's setter is kept per card: a card file must be one to keep (it was an
    # unhashable dict inside, a TypeError).
    code = main(["advise", "--json", "--samples", "50", "--way", "trump-plaza.toml",
                 *NO_PAIR_HAND.split()])
    out, err = capfd.readouterr()

    assert (code, err) == (0, "")
    assert '"way": "trump-plaza.toml"' in out
