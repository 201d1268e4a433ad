"""The window as a thin view of the dealer session (issue 13): a card read repaints its own
seat and nothing else, the ledger's writes run on the worker and the status bar says
"recording..." until the journal has them, F1 lists the registry with what may be done now."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from app.core.round import Phase
from app.core.table import DEALER
from app.session import COMMANDS, CardRead

from .conftest import SHOWCASE_ACTION
from .test_station import DECK, delivered, make_ledger
from .test_window import open_and_wager


def test_a_card_read_repaints_only_the_seat_it_is_dealt_to(make_station, monkeypatch):
    """Issue 13: "The window binds to the session and repaints only what changed (one seat's
    cards for a card)." """
    s = make_station(online=False)  # no shoe dealing: the test sends the cards itself
    open_and_wager(s)
    s.key("R")  # action on seat 3; the shoe is offline, so nothing is dealt yet
    s.session.devices.shoe_online = True
    painted: list[object] = []
    for position, seat in s.window.felt.seats.items():
        monkeypatch.setattr(seat, "show_state",
                            lambda state, p=position: painted.append(p))
    monkeypatch.setattr(s.window.felt.center, "show_state",
                        lambda state: painted.append("centre"))
    for i, c in enumerate(DECK[:3]):
        painted.clear()
        s.window.handle(CardRead(c))
        assert painted == [SHOWCASE_ACTION], (i, painted)  # stacks: seat 3 gets 7 first


def test_the_ledger_writes_on_the_worker_and_shows_recording_until_the_journal_has_it(
        make_station, qtbot, tmp_path):
    """Issue 13: "No database or file I/O on the GUI thread: the ledger writes ... go
    through a worker, and the window shows "recording" state from it." """
    ledger = make_ledger(tmp_path)
    writers: list[str] = []
    store_save = ledger.store._save

    def save(rec, by):  # noqa: ANN001, ANN202 - the store's own, its thread noted
        writers.append(threading.current_thread().name)
        return store_save(rec, by)

    ledger.store._save = save  # type: ignore[method-assign]
    s = make_station(ledger=ledger)
    s.polled()
    database = s.window.devices[2]
    assert database.text() == "Database: recording"
    hold = threading.Event()
    assert s.window.worker is not None
    s.window.worker.submit(hold.wait)  # the worker busy: the next writes wait their turn
    s.key("N")
    s.key("1")
    s.key("W")
    s.type("25")
    assert s.session.round is not None and s.session.round.wagers == {1: 2500}
    assert database.text() == "Database: recording..."
    assert "being written to the station's journal" in database.toolTip()
    assert s.window.ledger is not None and s.window.ledger.pending >= 2  # begin, wager
    hold.set()
    s.recorded()
    assert database.text() == "Database: recording"
    assert writers and threading.main_thread().name not in writers
    rec = s.recording
    assert rec is not None and rec.saved == len(s.session.round.log)
    delivered(ledger)
    assert [r.status for r in ledger.store.history()] == ["open"]


def test_f1_lists_every_command_of_the_registry_and_why_not_now(make_station, qtbot):
    """DESIGN.md: "Every dealer command is declared once (key, words, when available and why
    not, what it does); keys, buttons, help, the "Next:" line and tests read that one
    registry." """
    s = make_station()
    s.key(Qt.Key.Key_F1)
    help_view = s.window.help
    assert help_view is not None and help_view.isVisible()
    table = help_view.table
    rows = {table.item(r, 0).text(): (table.item(r, 1).text(), table.item(r, 2).text())
            for r in range(table.rowCount())}
    assert list(rows) == [c.label for c in COMMANDS]
    assert rows["N"] == ("new round", "yes")
    assert rows["S"][1] == "not now: no round is open: press N to open one"
    help_view.close()
    s.window.activateWindow()
    qtbot.waitUntil(s.window.isActiveWindow, timeout=60_000)
    s.key("N")
    s.key(Qt.Key.Key_F1)  # kept up to date: with a round open, wagers may be placed
    assert table.item([c.label for c in COMMANDS].index("W"), 2).text() == "yes"
    assert s.session.round is not None and s.session.round.phase is Phase.BETTING
    assert s.session.keyboard.selected != DEALER
