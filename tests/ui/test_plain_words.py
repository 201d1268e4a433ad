"""Plain words everywhere (issue 25, item 5): one word list (app/session/glossary.py) names
the table's options, a round's state and a House Way row wherever people read them, and
finds the program's words that must never reach them: a UUID, "core", "vm", the config's
"at-most" and "house-way", snake_case names, enum names.

A round is played with the House Way setting a straight (the card's row ST-X, whose own
text is "Follow the steps described for ...") and recorded in a ledger; then the window's
texts (the felt, the panel and its log, the status bar and its tooltip, F1), the slip and
the pit's recall are read for any of those words."""

from __future__ import annotations

import pytest

from app.core.round import Phase
from app.session import glossary
from app.session.procedure import to_set
from app.ui import screencheck

from .conftest import Station
from .test_station import delivered
from .test_supervisor import answered, open_pit, people_ledger
from .test_window import open_and_wager


@pytest.mark.parametrize("text", [
    "round 3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b",
    "MATCH: the core pays exactly what the ledger paid",
    "recorded by station vm",
    "dragon at-most, house-way",
    "foul_penalty is forfeit",
    "Phase.BETTING",
])
def test_the_word_list_finds_the_programs_words(text: str) -> None:
    assert glossary.internal_words(text)


@pytest.mark.parametrize("text", [
    "Dragon: up to the main wager, set by the House Way",
    "Seat 2: KC 9H | AC 5D 4S 3C 2D - House Way: a straight with no pair",
    "Table PG-1, 29 Nov 2026, round 3 - SETTLED",
    "$5.00 to $300.00 - RNG - stacks - player banking - dragon up to the main wager",
])
def test_the_dealers_words_pass(text: str) -> None:
    assert glossary.internal_words(text) == ()


def house_way_round(s: Station) -> None:
    open_and_wager(s)
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    while (waiting := to_set(s.session)):
        s.key(str(waiting[0]) if waiting[0] else "7")
        s.key("H")
    s.key("S")


def test_no_program_word_in_the_window_the_slip_or_the_pits_recall(make_station, tmp_path):
    ledger = people_ledger(tmp_path)
    s = make_station(ledger=ledger)
    house_way_round(s)
    rnd = s.session.round
    assert rnd is not None and rnd.slip is not None
    seat_2 = rnd.hands[2]
    assert seat_2.rule == "ST-X"  # the row whose own text the issue found in the window

    window_texts = [text for _w, text in screencheck.texts(s.window)]
    help_view = s.window.show_help()
    window_texts += [text for _w, text in screencheck.texts(help_view)]
    help_view.close()
    window_texts += [s.window.table_info.text(), s.window.table_info.toolTip()]
    log = "\n".join(s.session.log)
    assert "House Way: a straight with no pair" in log
    window_texts.append(log)
    for text in window_texts:
        assert glossary.internal_words(text) == (), text
        # the card's shorthand is the pit's small print, not the dealer's
        assert "Follow the steps described" not in text, text
        assert "1st highest [" not in text, text
    assert "Dragon: up to the main wager, set by the House Way" in s.window.table_info.toolTip()

    slip_text = rnd.slip.text()
    assert glossary.internal_words(slip_text) == (), slip_text

    delivered(ledger)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    pit.rounds.selectRow(0)
    answered(s, pit)
    dialog = pit.open_recall()
    assert dialog is not None
    s.qtbot.waitUntil(lambda: dialog.recalled is not None, timeout=10000)
    recall = dialog.text.toPlainText() + "\n" + dialog.verdict.text()
    assert recall.startswith("Table PG-1, ")
    assert glossary.internal_words(recall) == (), recall


def test_the_slips_number_column_says_it_is_the_felts_place_from_action(qapp):
    """Issue 25: "The slip's '#' is the settling order, while the felt's '#1' is the deal
    order": the slip's "#" is now the felt's number, and its header says so (the numbers
    themselves: test_bank_and_dragon's player-bank round)."""
    from app.ui.panel import SlipView

    view = SlipView()
    header = view.table.horizontalHeaderItem(0)
    assert header is not None and header.text() == "#"
    assert "place from action, as on the felt" in header.toolTip()
