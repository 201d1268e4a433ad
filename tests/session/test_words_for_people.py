"""Issue 11: "Nothing for developers reaches the dealer: no "DESIGN.md", "seed 001", file
names, backticks or bare rule ids without their words, on screen, on a slip, in a message".

Every sentence the round's records can say (the RULE_ words of app/core/records.py), every
House Way rule's words, every dealer command's words, and everything a whole recorded shift
said (the session's log, messages and "Next:" lines, the slips as printed and as the
ledger keeps them) read in the casino's words (app/ui/screencheck.developer_words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import records
from app.core.house_way import card_names, house_way
from app.session import next_line
from app.session.commands import COMMANDS
from app.session.record import read_session
from app.session.replay import replay
from app.ui.screencheck import developer_words
from drivers.printer.layout import slip_text

SHIFT = Path(__file__).parent / "recorded" / "shift.jsonl"


def _filled(text: str) -> str:
    """A RULE_ text with its blanks filled as a round fills them."""
    return text.format(direction="clockwise", way="standard", rule="PR-2",
                       says="Two pairs: The two cards will be the lowest pair", most=1,
                       least="$1.00", at="$1,000.00", wager="$1.00")


RULES = {name: getattr(records, name) for name in dir(records) if name.startswith("RULE_")}


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_rule_the_round_records_is_in_the_casinos_words(name: str) -> None:
    assert developer_words(_filled(RULES[name])) == (), RULES[name]


@pytest.mark.parametrize("way", card_names())
def test_every_house_way_rule_reads_in_the_cards_words(way: str) -> None:
    card = house_way(way)
    rules = [rule for section in card.sections for rule in section.rules]
    said = []
    while rules:  # a rule's steps ("Follow the steps for ...") are read out too
        rule = rules.pop()
        said.append(f"House Way {rule.id}: {rule.says}")
        rules.extend(rule.steps)
    assert len(said) > 10
    assert not {text: developer_words(text) for text in said if developer_words(text)}


def test_every_dealer_command_says_what_it_does_in_the_dealers_words() -> None:
    for c in COMMANDS:
        for text in (c.words, c.button or "", c.label):
            assert developer_words(text) == (), (c.id, text)


def test_a_whole_recorded_shift_says_nothing_meant_for_developers() -> None:
    """The log, the last message and the "Next:" line, the slips printed and the slip's
    text the ledger keeps (the pit reads it back)."""
    played = replay(read_session(SHIFT.read_text().splitlines()))
    s = played.session
    said = [*s.log, s.message, next_line(s)]
    said += [slip_text(slip) for slip in played.slips]
    said += [slip.text() for slip in played.slips]
    found = {text: developer_words(text) for text in said if developer_words(text)}
    assert not found
    assert any("House Way" in text for text in said)  # the rules' words were read
