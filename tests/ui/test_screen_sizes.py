"""Issue 11, "Every station screen": the dealer's screen is complete at 1024x768, 1280x800,
1366x768, 1920x1080 and 2560x1440 - "every seat number, wager, outcome, payout, the action
and the banker fully visible (not cut, not elided), buttons readable" - and "nothing for
developers reaches the dealer: no "DESIGN.md", "seed 001", file names, backticks or bare
rule ids without their words, on screen, on a slip or in a message".

The screenshot walk (app/ui/screenshots.py: three rounds and the pit's view, every stage of
a round) is played once off screen with the window at each size at every stage; the
checker (app/ui/screencheck.py) walks the visible widgets of the dealer's window and of the
windows over it."""

from __future__ import annotations

import pytest

from app.ui import screencheck, screenshots
from app.ui.screenshots import SIZES, Camera, size_name

pytestmark = pytest.mark.slow  # the rounds played at every screen size

# make test walks the smallest screen and the largest (the smallest style and the largest);
# make proof, which CI runs too, the three between: each size is a restyle of the whole
# window at every stage (15-20 s of CPU for the five).
EXTREMES = (SIZES[0], SIZES[-1])
BETWEEN = SIZES[1:-1]


@pytest.fixture(scope="module")
def walk(qapp) -> Camera:  # noqa: ANN001 - pytest-qt's QApplication
    return screenshots.play(None, EXTREMES, fast=True)


@pytest.fixture(scope="module")
def walk_between(qapp) -> Camera:  # noqa: ANN001 - pytest-qt's QApplication
    return screenshots.play(None, BETWEEN, fast=True)


def _problems(walk: Camera, size: tuple[int, int]) -> str:
    return "\n".join(f"{stage}: {p}" for stage, problems in walk.found[size].items()
                     for p in problems)


def _stages(walk: Camera) -> None:
    stages = {size: list(found) for size, found in walk.found.items()}
    # the bonus: 25-27; the progressive: 28-30
    assert all(len(names) == 30 for names in stages.values()), stages
    first = next(iter(stages.values()))
    assert first[0] == "01-opened" and first[-1] == "24-shoe-offline-bad-card"


@pytest.mark.parametrize("size", EXTREMES, ids=size_name)
def test_every_text_fits_its_widget_and_every_widget_lies_in_the_window_at(
        walk: Camera, size: tuple[int, int]) -> None:
    assert not _problems(walk, size), _problems(walk, size)


@pytest.mark.proof
@pytest.mark.parametrize("size", BETWEEN, ids=size_name)
def test_every_text_fits_and_every_widget_lies_in_the_window_between_at(
        walk_between: Camera, size: tuple[int, int]) -> None:
    assert not _problems(walk_between, size), _problems(walk_between, size)


def test_the_walk_reaches_every_stage_of_a_round_at_every_size(walk: Camera) -> None:
    _stages(walk)


@pytest.mark.proof
def test_the_walk_between_reaches_every_stage_of_a_round_at_every_size(
        walk_between: Camera) -> None:
    _stages(walk_between)


# --- the checker itself: it finds what it is for -----------------------------------------

@pytest.mark.parametrize("text", [
    "House Way ST-X: Straight alone (not a row of the card; DESIGN.md)",
    "a player's fouled hand forfeits (seed 001 physical game, seed 004)",
    "run `paigow print-slip --reprint`",
    "see app/core/records.py",
    "House Way PR-2",
])
def test_developer_words_are_found(text: str) -> None:
    assert screencheck.developer_words(text)


@pytest.mark.parametrize("text", [
    "House Way PR-2: Two pairs: The two cards will be the lowest pair",
    "Table PG-1 round 3: straight, A-5-4-3-2",
    "Seat 3 wagers $25.00",
    "Dealer Kim - 5% rounded up to $0.25",
])
def test_the_casinos_words_pass(text: str) -> None:
    assert screencheck.developer_words(text) == ()


def test_a_cut_label_a_squeezed_button_and_a_widget_off_the_window_are_found(qtbot) -> None:
    from PySide6.QtWidgets import QLabel, QPushButton, QWidget

    top = QWidget()
    qtbot.addWidget(top)
    top.resize(200, 100)
    label = QLabel("SEAT 3  [3]  a title far too long for its place", top)
    label.setGeometry(0, 0, 60, 20)
    button = QPushButton("Show House Way  [A]", top)
    button.setGeometry(0, 30, 200, 8)
    off = QLabel("$50.00", top)
    off.setGeometry(180, 80, 80, 30)
    top.show()
    found = [str(p) for p in screencheck.fit_problems([top])]
    assert any("SEAT 3" in f and "needs" in f for f in found), found
    assert any("Show House Way" in f and "high" in f for f in found), found
    assert any("$50.00" in f and "outside" in f for f in found), found
