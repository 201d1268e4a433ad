"""The station keeps its session in its journal as it plays (one local durable store), and
`paigow replay JOURNAL` prints the slips the table settled, byte for byte (the ledger's
slips are the reference)."""

from __future__ import annotations

import os
import sqlite3
import zipfile
from pathlib import Path

from app.cli import main as paigow
from app.core.cards import cards_text, parse_cards
from app.core.round import Phase
from app.ledger.session_lines import SessionLines
from app.session import DealerCommand
from app.session.record import read_session
from app.session.replay import replay
from app.ui.main import build, parse_args
from app.ui.screenshots import SHOWCASE, stacked_deck
from app.ui.window import MainWindow
from drivers.printer.layout import slip_text

from .conftest import SHOWCASE_ACTION

DECK = stacked_deck(SHOWCASE, SHOWCASE_ACTION)


def station(qtbot, data: Path) -> MainWindow:
    window = build(parse_args(["--demo", "--deck", cards_text(DECK), "--data-dir", str(data),
                               "--dealer", "Kim", "--size", "1280x800"]))
    qtbot.addWidget(window)
    window.show()
    assert window.session is not None
    window.session.deal.randbelow = lambda n: 3  # RNG 4: the action on seat 3, as the deck lies
    qtbot.waitUntil(lambda: window.shoe is not None and window.shoe.online, timeout=60_000)
    return window


def wagered(window: MainWindow) -> None:
    c = window.session
    assert c is not None
    assert window.press("N").done, c.message
    if c.bank_offered() is not None:
        assert window.press("Shift+Q").done, c.message  # every seat passes the bank
    for seat, dollars in ((1, "25"), (2, "10"), (3, "50"), (5, "100"), (6, "15")):
        window.select(seat)
        assert window.handle(DealerCommand("wager", dollars)).done, c.message


def dealt_and_settled(qtbot, window: MainWindow) -> None:
    c = window.session
    assert c is not None
    assert window.press("R").done, c.message
    qtbot.waitUntil(lambda: c.round is not None and c.round.phase is Phase.SETTING,
                    timeout=60_000)
    window.press("Shift+Q")  # the dragon passed
    window.pick(3, parse_cards("KS")[0])
    window.pick(3, parse_cards("KD")[0])
    assert window.press("F").done, c.message  # a foul: the Kings in front
    for seat in (1, 2, 5, 6):
        window.select(seat)
        assert window.press("H").done, c.message
    assert window.press("S").done, c.message
    assert c.round is not None and c.round.phase is Phase.SETTLED


def stored_slips(window: MainWindow) -> list[str]:
    port = window.ledger
    assert port is not None
    store = port.store
    store.drain()  # the journal sent on to the database
    rounds = sorted(store.history(status="settled"), key=lambda r: r.round_no)
    return [store.slip(r.id).text for r in rounds]


def journal_of(data: Path) -> Path:
    [path] = (data / "journal").glob("*.sqlite")
    return path


def sessions(data: Path) -> list[str]:
    """Each session the station kept in its journal, oldest first, as JSON lines."""
    lines = SessionLines(journal_of(data), read_only=True)
    try:
        return [lines.text(s.name) for s in lines.sessions()]
    finally:
        lines.close()


def test_a_station_writes_its_session_and_the_replay_prints_the_slips_it_settled(
        qtbot, tmp_path, capsys):
    data = tmp_path / "station"
    window = station(qtbot, data)
    wagered(window)
    dealt_and_settled(qtbot, window)
    wagered(window)  # the second round's wagers: in the file, no slip yet
    window.close_station()  # runs what the worker has queued
    settled = stored_slips(window)
    assert len(settled) == 1
    assert not (data / "sessions").exists()  # no second store beside the journal
    [text] = sessions(data)

    result = replay(read_session(text.splitlines()))
    assert result.refused == []
    assert [s.text() for s in result.slips] == settled
    assert paigow(["replay", str(journal_of(data))]) == 0
    out = capsys.readouterr()
    assert out.out == "\n".join(slip_text(s) for s in result.slips)
    assert "1 round(s) settled" in out.err


def test_a_station_that_took_a_round_back_starts_its_file_when_that_round_is_over(
        qtbot, tmp_path):
    data = tmp_path / "station"
    first = station(qtbot, data)
    wagered(first)
    first.close_station()  # the station stops with round 1 in play
    first.close()

    second = station(qtbot, data)
    c = second.session
    assert c is not None and c.round is not None and c.round.rotation.round_no == 1
    dealt_and_settled(qtbot, second)  # round 1, taken back: before the new file's header
    wagered(second)
    dealt_and_settled(qtbot, second)  # round 2: in the file whole
    second.close_station()
    settled = stored_slips(second)
    assert len(settled) == 2
    kept = sessions(data)
    assert len(kept) == 2  # one per station start

    result = replay(read_session(kept[-1].splitlines()))
    assert result.refused == []
    assert [(s.round, s.text()) for s in result.slips] == [(2, settled[1])]


def test_a_session_file_past_its_limit_is_closed_after_a_settled_round_and_each_replays_whole(
        qtbot, tmp_path):
    """[files] session_file_mb: a station running for weeks writes files that each begin
    with a header and hold whole rounds, so each replays on its own."""
    data = tmp_path / "station"
    window = station(qtbot, data)
    recorder = window.session.recorder if window.session is not None else None
    assert recorder is not None
    recorder.limit_bytes = 1  # every settled round closes its file
    for _ in range(3):
        wagered(window)
        dealt_and_settled(qtbot, window)
    window.close_station()
    settled = stored_slips(window)
    kept = sessions(data)
    assert len(settled) == 3 and len(kept) == 4  # the last holds the header only
    slips = []
    for text in kept:
        result = replay(read_session(text.splitlines()))
        assert result.refused == []
        slips += [(s.round, s.text()) for s in result.slips]
    assert slips == [(n, text) for n, text in enumerate(settled, start=1)]


def test_a_station_packs_sessions_older_than_the_policy_out_of_its_journal_at_start(
        qtbot, tmp_path):
    """[files] archive_after_days (30 as shipped): last month's session leaves the journal
    for sessions/archive/, as the JSON lines `paigow replay` reads; today's stays."""
    data = tmp_path / "station"
    first = station(qtbot, data)
    wagered(first)
    dealt_and_settled(qtbot, first)
    first.close_station()
    first.close()
    [text] = sessions(data)
    with sqlite3.connect(journal_of(data)) as db:  # as if written on 1 Sep 2025
        db.execute("UPDATE session_lines SET written = '2025-09-01T08:00:00.000Z'")
    db.close()

    second = station(qtbot, data)
    second.close_station()  # runs what the worker has queued: the packing
    assert len(sessions(data)) == 1  # this start's own
    [packed] = zipfile.ZipFile(data / "sessions" / "archive" / "2025-09.zip").namelist()
    with zipfile.ZipFile(data / "sessions" / "archive" / "2025-09.zip") as z:
        assert z.read(packed).decode("utf-8") == text
    assert list((data / "sessions").glob("*.jsonl")) == []


def test_a_station_still_packs_the_session_files_an_older_station_wrote(qtbot, tmp_path):
    data = tmp_path / "station"
    (data / "sessions").mkdir(parents=True)
    old = data / "sessions" / "2026-09-01T08-00-00.000000Z.jsonl"
    old.write_text('{"schema": "old"}\n', encoding="utf-8")
    os.utime(old, (1756713600, 1756713600))  # 2025-09-01
    window = station(qtbot, data)
    window.close_station()  # runs what the worker has queued
    assert not old.exists()
    with zipfile.ZipFile(data / "sessions" / "archive" / "2025-09.zip") as z:
        assert z.read(old.name) == b'{"schema": "old"}\n'


def test_a_session_that_cannot_be_kept_leaves_the_round_going(qtbot, tmp_path):
    data = tmp_path / "station"
    window = station(qtbot, data)
    with sqlite3.connect(journal_of(data)) as db:  # every session line refused from now
        db.execute("CREATE TRIGGER full BEFORE INSERT ON session_lines "
                   "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    db.close()
    wagered(window)
    dealt_and_settled(qtbot, window)
    window.close_station()
    assert len(stored_slips(window)) == 1
    recorder = window.session.recorder if window.session is not None else None
    assert recorder is not None and "cannot keep the session" in (recorder.problem or "")


def test_a_demo_station_keeps_its_files_0600_in_0700_folders_under_umask_022(
        qtbot, tmp_path):
    # `make run` is paigow-dealer --demo, started by hand with the login's umask 022:
    # its ledger, journal, identity and session file were 0644 in 0755 folders (issue 23).
    import os
    import stat

    top = tmp_path / "home"  # none of it there yet: the station makes every folder
    before = os.umask(0o022)
    try:
        window = station(qtbot, top / "paigow")
        wagered(window)
        dealt_and_settled(qtbot, window)
        window.close_station()  # runs what the worker has queued
    finally:
        os.umask(before)
    assert sessions(top / "paigow") and (top / "paigow" / "ledger.sqlite").exists()
    found = {str(p.relative_to(top)): stat.filemode(p.stat().st_mode)
             for p in [top, *top.rglob("*")]
             # The demo's "printer" writes its paper as PDF files: printed slips, not kept
             # ones, in the folder a site names for them (here inside the private one).
             if "slips" not in p.relative_to(top).parts}
    assert any(k.startswith("paigow/journal/") for k in found)
    assert {k: v for k, v in found.items() if v not in ("drwx------", "-rw-------")} == {}
