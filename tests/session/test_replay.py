"""Recorded sessions are golden files: replaying one gives the slips the table printed,
byte for byte, and the same ledger records (like perft files in a chess engine)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from app.cli import main
from app.core.cards import card, parse_cards
from app.session import (
    CardPicked,
    CardRead,
    DealerCommand,
    DeviceAction,
    FrontTyped,
    KeyPressed,
    LeftoversRead,
    Printed,
    PrintJob,
    PrintOutcome,
    ShoeFault,
    ShoeStatus,
    Shuffled,
    SupervisorCommand,
    event_from_dict,
    event_to_dict,
)
from app.session.record import read_session
from app.session.replay import replay
from drivers.printer.layout import slip_text

from .make_recorded import play_shift, printed_slips

RECORDED = Path(__file__).parent / "recorded"
SHIFT = RECORDED / "shift.jsonl"
SLIPS = RECORDED / "shift.slips.txt"


def replayed_text() -> str:
    result = replay(read_session(SHIFT.read_text().splitlines()))
    return "\n".join(slip_text(s) for s in result.slips)


def test_replaying_the_recorded_shift_prints_the_committed_slips():
    assert replayed_text() == SLIPS.read_text()


def test_replaying_twice_gives_the_same_bytes():
    assert replayed_text() == replayed_text()


def test_the_replay_makes_the_slips_and_ledger_records_of_the_session_played_live():
    stream = io.StringIO()
    _, ledger, printer = play_shift(stream)
    result = replay(read_session(stream.getvalue().splitlines()))
    assert result.slips == printed_slips(printer)
    assert result.ledger is not None and result.ledger.records() == ledger.records()
    assert stream.getvalue() == SHIFT.read_text()  # the recording itself is stable


def test_paigow_replay_prints_the_slips_and_their_json(capsys: pytest.CaptureFixture[str]):
    assert main(["replay", str(SHIFT)]) == 0
    assert capsys.readouterr().out == SLIPS.read_text()
    assert main(["replay", "--json", str(SHIFT)]) == 0
    slips = json.loads(capsys.readouterr().out)
    assert [s["round"] for s in slips] == [1, 2, 3]
    assert all(s["schema"] == "paigow.slip/1" for s in slips)


def test_paigow_replay_names_the_line_it_cannot_read(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "bad.jsonl"
    lines = SHIFT.read_text().splitlines()
    bad.write_text("\n".join([lines[0], lines[1], '{"kind": "teleport"}']) + "\n")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 3: 'teleport' is not a kind of event" in err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


EVENTS = [
    CardRead(card("AS"), 12), LeftoversRead(parse_cards("2C 3D 4H JK")), Shuffled(),
    ShoeStatus(True, "online: /dev/ttyUSB0", "online", False), ShoeFault("Shoe: jam"),
    DeviceAction(9, (2, 3, 4), "Shaker 3", 41), DeviceAction(5, (), None, None),
    DealerCommand("wager", "25"), DealerCommand("rng", "", 4), KeyPressed("Shift+Q"),
    CardPicked(3, card("JK")), FrontTyped("KS 9H"), SupervisorCommand("void", "Bo", "jam"),
    Printed(PrintOutcome(PrintJob("kept"), True, "2 printed", rounds=(("PG-1", 4),))),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_survives_its_json(event: object):
    data = event_to_dict(event)  # type: ignore[arg-type]
    assert event_from_dict(json.loads(json.dumps(data))) == event


