"""One registry of dealer commands: every entry has keys and words, the keyboard map and the
help come from it, and its reasons are the core's own sentences."""

from __future__ import annotations

from app.core.round import Round
from app.core.table import Action
from app.session import COMMANDS, DealerSession, KeyPressed, MemoryLedger, help_rows, keymap
from app.session.commands import COMMANDS_BY_ID, availability, next_line

from .play import BANK_WEAK, STRONG, Play, stacked


def test_every_command_has_keys_and_words_and_each_key_is_bound_once():
    seen: list[str] = []
    for c in COMMANDS:
        assert c.keys and c.label and c.words, c.id
        seen += [key for key, _ in c.keys]
    assert len(seen) == len(set(seen))
    assert set(keymap()) == set(seen)


def test_the_help_lists_every_key_with_why_not_now():
    s = DealerSession()
    rows = help_rows(s)
    assert [r.key for r in rows] == [c.label for c in COMMANDS]
    by_key = {r.key: r for r in rows}
    assert by_key["N"].why_not is None
    assert by_key["W"].why_not == "no round is open: press N to open one"
    changes = s.handle(KeyPressed("F1"))
    assert changes.show == "help"


def test_the_reasons_are_the_core_s_own_sentences():
    s = DealerSession()
    p = Play(s)
    p.key("N")
    rnd = s.round
    assert isinstance(rnd, Round)
    try:
        rnd.verify_set_action(Action.from_rng(1))
    except ValueError as e:
        no_wagers = str(e)
    assert COMMANDS_BY_ID["rng"].available(s) == no_wagers
    try:
        rnd.verify_settle()
    except ValueError as e:
        not_yet = str(e)
    assert COMMANDS_BY_ID["settle"].available(s) == not_yet
    p.seat(1)
    p.cmd("wager", "25")
    assert COMMANDS_BY_ID["rng"].available(s) is None
    # The table's own words, not its config's (issue 25: `table: action = "rng"` is no
    # sentence for a dealer)
    assert COMMANDS_BY_ID["dice"].available(s) == (
        "this table takes action from the station's random number, not dice: press R (the "
        "dice are not used here)")


def test_a_key_that_opens_a_field_says_why_not_when_it_may_not():
    s = DealerSession()
    p = Play(s)
    p.key("N")
    changes = p.key("B")
    assert not changes.done and changes.level == "warn"
    assert changes.message == "the dealer banks the first round"
    p.seat(2)
    assert p.key("W").show == "field:wager"


def test_the_buttons_and_the_next_line_follow_the_round():
    s = DealerSession(ledger=MemoryLedger())
    p = Play(s)
    assert availability(s)["new"] == ("no dealer's shift is open: press F3 and type the "
                                       "dealer's name")
    assert p.key("F3").show == "dealer"
    p.cmd("shift", "Ann")
    assert availability(s)["new"] is None
    assert next_line(s) == "Next: N opens a round."
    p.key("N")
    assert next_line(s) == "Next: select a seat (1-6), W, type the wager, Enter."
    p.seat(1)
    p.cmd("wager", "25")
    assert next_line(s) == "Next: more wagers, or action: R (RNG)."
    p.shoe(True)
    p.key("R")
    assert next_line(s).startswith("Next: deal; the shoe has read 0 of 53")
    p.read(stacked(s.table, s.round.action.position,  # type: ignore[union-attr]
                   {1: STRONG, 0: BANK_WEAK}))
    assert next_line(s).startswith("Next: the dragon is offered to seat 1")
