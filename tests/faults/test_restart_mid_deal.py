"""Issue 17: "A station restarted mid-deal loses the cards it had read. Killed after 20
cards, it came back with 0 of them." Every card is journaled as it is read, before the round
is given it; the restarted station is given the last number it kept and asks the shoe for
what followed (RESEND); the round resumes with every card in its place.

The station is a real process (tests/faults/station.py: the session, the Store, the shoe's
reader) killed with SIGKILL after 20 cards; the shoe is the simulator on a pseudo-terminal,
which goes on dealing while the station is dead, as a dealer would."""

from __future__ import annotations

from pathlib import Path

import pytest

from .shoe import kill_and_resume, place_errors

pytestmark = pytest.mark.slow  # stations restarted mid-deal (half a minute)


def test_a_station_killed_after_20_cards_resumes_with_every_card_in_its_place(
        tmp_path: Path) -> None:
    run = kill_and_resume(tmp_path, seed=17, stop_after=20)
    assert run["stopped"] == 20
    assert run["resumed"]["kept"] == 20  # "it came back with 0 of them"
    assert "back in their places" in run["resumed"]["message"]
    assert run["dealt"]["dealt"]["action"] == run["action"]
    assert place_errors(run) == (0, 0, 0)
    assert run["dealt"]["dealt"]["leftovers"] == [str(c) for c in run["deck"][49:]]
