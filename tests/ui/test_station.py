"""The station whole: the window with the ledger and the slip printer plugged in. A round
from open to printed slip over the simulated shoe on a pseudo-terminal, its rows in the
ledger; a station killed mid-round comes back into it; a printer that fails keeps the slip
and Reprint prints it once; the ledger's database away shows the banner and loses nothing.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.cards import cards_text, parse_cards
from app.core.round import Phase
from app.ledger import Store
from app.ledger.models import Event, HandRow, RoundRow, SettlementRow, WagerRow
from app.session import DealerCommand
from app.settings import TableConfig
from app.ui.main import SHOWN, FirstPaint, build, demo_data, main, parse_args
from app.ui.screenshots import SHOWCASE, SHOWCASE_RNG, stacked_deck
from app.ui.services import Ledger, Printer
from app.ui.shoe import PtyDemoShoe
from drivers.printer import SlipPrinter
from drivers.printer.config import PrinterConfig
from drivers.printer.device import connect as escpos_connect
from tests.ledger.migrated import migrated_sqlite

from .conftest import SHOWCASE_ACTION, Station, supervised
from .test_window import WAGERS, open_and_wager

ROOT = Path(__file__).resolve().parents[2]
DECK = stacked_deck(SHOWCASE, SHOWCASE_ACTION)


# --- the station's parts, in the test's own directory ----------------------------------------

def make_ledger(tmp: Path, url: str | None = None, dealer: str | None = "Kim") -> Ledger:
    store = Store(url or migrated_sqlite(tmp / "ledger.sqlite"), table="PG-1", station="pg1-test",
                  data_dir=tmp / "station", migrate_now=False, send_on_save=False)
    ledger = Ledger(store, TableConfig(), send_every=0.05)
    if dealer:
        ledger.open_shift(dealer)
    return ledger


def file_printer(tmp: Path, path: Path | None = None,
                 connect: Callable[..., object] | None = None) -> Printer:
    config = PrinterConfig(kind="file", path=str(path or tmp / "lp0"),
                           queue_dir=str(tmp / "kept"))
    return Printer(config, SlipPrinter(config, connect=connect or escpos_connect))


def delivered(ledger: Ledger) -> None:
    """Wait for the journal to reach the database: nothing waiting in it for 0.2 s on end
    (the station's worker gathers its writes for 20 ms before it journals them)."""
    end = time.monotonic() + 15
    quiet_since = time.monotonic()
    while time.monotonic() < end:
        if ledger.status().pending:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= 0.2:
            break
        time.sleep(0.02)
    assert ledger.status().pending == 0, ledger.status()


def set_every_hand(s: Station) -> None:
    """Seat 3 puts its Kings in front (a foul that forfeits), seat 1 sets 7-6 by the
    player's hand, the rest go the House Way; the dealer's hand at settlement."""
    s.click_card(3, "KS")
    s.click_card(3, "KD")
    s.key("F")
    s.click_card(1, "7S")
    s.click_card(1, "6C")
    s.key("F")
    for seat in (5, 6, 2):
        s.key(str(seat))
        s.key("H")


def printed_text(path: Path) -> str:
    """What an ESC/POS printer would print from the bytes: the text, commands left out."""
    return path.read_bytes().decode("cp437", errors="replace")


# --- a whole round ---------------------------------------------------------------------------

def test_a_whole_round_from_open_to_printed_slip_over_the_pty_shoe_and_in_the_ledger(
        make_station, qtbot, tmp_path):
    ledger = make_ledger(tmp_path)
    printer = file_printer(tmp_path)
    shoe = PtyDemoShoe([DECK], card_delay=0.0)
    s = make_station(shoe=shoe, ledger=ledger, printer=printer)
    def every_device_up() -> None:  # the database may still be sending its first writes
        assert shoe.online
        assert [d.text() for d in s.window.devices] == ["Shoe: online", "Printer: ready",
                                                       "Database: recording"]

    qtbot.waitUntil(every_device_up, timeout=60_000)  # generous: a loaded machine is slow
    assert "Dealer Kim" in s.window.table_info.text()

    open_and_wager(s)
    s.key("R")  # the simulator deals the stacked deck over the pseudo-terminal
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()  # the dragon
    set_every_hand(s)
    s.key("S")
    rnd = s.session.round
    slip = rnd.slip
    assert slip is not None and rnd.phase is Phase.SETTLED
    assert s.window.panel.buttons["print"].isEnabled()
    assert s.window.panel.stack_title.text() == "Settlement slip: NOT PRINTED (P)"

    s.key("P")
    # The device line is told after the slip is marked printed (a queued signal): under load
    # it is read once it has come, not the moment the slip is marked.
    qtbot.waitUntil(lambda: printer.busy is None and s.session.devices.slip_printed == "printed"
                    and s.window.devices[1].text() == "Printer: ready", timeout=60_000)
    assert s.message == f"Round {slip.round}'s slip printed."
    assert s.window.panel.stack_title.text() == "Settlement slip: printed"
    assert s.window.devices[1].text() == "Printer: ready"
    text = printed_text(tmp_path / "lp0")
    expected = printer.printer.lines(slip)
    assert [ln for ln in expected if not ln.startswith("Time")] == [
        ln for ln in expected if not ln.startswith("Time") and ln in text]
    assert "PAI GOW POKER SETTLEMENT" in text and "REPRINT" not in text
    # the ledger's chain head as the station last saw it, for verify --head (issue 23)
    assert re.search(r"\nLedger +PG-1 #\d+ [0-9a-f]{16}\n", text), text[-400:]
    for line in slip.lines:
        assert line.name.capitalize() in text or line.name in text
    # P again does not print it twice: the slip is printed.
    assert not s.window.panel.buttons["print"].isEnabled()
    assert "Shift+P prints it again, marked REPRINT" in s.window.panel.buttons["print"].toolTip()

    # The same round in the ledger: the round, its hands, wagers and settlements.
    rec = s.recording
    assert rec is not None
    delivered(ledger)
    with Session(ledger.store.engine) as db:
        row = db.get(RoundRow, uuid.UUID(rec.round_id))
        assert row is not None
        assert (row.status, row.round_no, row.table_name) == ("settled", 1, "PG-1")
        stored = ledger.store.slip(rec.round_id)  # the slip as the ledger reads it back
        assert stored.text == slip.text()
        assert stored.data() == slip.to_dict()
        assert (row.action_number, row.action_position) == (SHOWCASE_RNG + 1, SHOWCASE_ACTION)
        assert row.wagers_cents == slip.totals.wagers
        assert row.house_net_cents == slip.totals.house_net
        hands = {h.position: h for h in db.scalars(select(HandRow).where(
            HandRow.round_id == row.id))}
        wagers = {w.seat: w.amount_cents for w in db.scalars(select(WagerRow).where(
            WagerRow.round_id == row.id))}
        settled = {x.position: x for x in db.scalars(select(SettlementRow).where(
            SettlementRow.round_id == row.id))}
    assert wagers == {1: 2500, 2: 1000, 3: 5000, 5: 10000, 6: 1500}
    assert sorted(hands) == [0, 1, 2, 3, 4, 5, 6]
    for line in slip.lines:
        hand = hands[line.position]
        assert set(parse_cards(hand.cards)) == set(line.cards)
        if line.setting is not None:
            assert (hand.low, hand.high) == (cards_text(line.setting.low),
                                             cards_text(line.setting.high))
        if line.outcome is not None:
            x = settled[line.position]
            assert (x.outcome, x.wager_cents, x.commission_cents, x.net_cents) == (
                line.outcome.value, line.wager, line.commission, line.net)
    assert hands[3].foul and hands[3].penalty == "forfeit"
    assert hands[1].set_by == "player"
    assert ledger.store.slip(rec.round_id).text == slip.text()


# --- a station killed mid-round --------------------------------------------------------------

KILLED_STATION = r"""
import sys, time
from PySide6.QtWidgets import QApplication
from app.core.cards import parse_cards
from app.core.round import Phase
from app.session import DealerCommand
from app.ui.main import build, parse_args
from app.ui.screenshots import pump

app = QApplication(sys.argv[:1])
window = build(parse_args(sys.argv[1:]))
window.show()
c = window.session
c.deal.randbelow = lambda n: 3        # RNG 4: action on seat 3, as the deck is stacked
pump(lambda: window.shoe.online)
window.press("N")
for seat, dollars in ((1, "25"), (2, "10"), (3, "50"), (5, "100"), (6, "15")):
    window.select(seat)
    assert window.handle(DealerCommand("wager", dollars)).done, c.message
window.press("R")
pump(lambda: c.round.phase is Phase.SETTING)
window.press("Shift+Q")          # the dragon
window.pick(3, parse_cards("KS")[0])
window.pick(3, parse_cards("KD")[0])
assert window.press("F").done, c.message  # a foul: the Kings in front
window.select(5)
assert window.press("H").done, c.message
pump(lambda: window.ledger.pending == 0)  # the journal has every change on disk
print("READY", window.ledger.recording.round_id, flush=True)
while True:
    pump(seconds=1)
"""


def test_a_station_killed_mid_round_comes_back_into_the_same_round(qtbot, tmp_path):
    data = tmp_path / "station"
    args = ["--demo", "--deck", cards_text(DECK), "--data-dir", str(data), "--dealer", "Kim",
            "--size", "1920x1080"]
    (tmp_path / "tmp").mkdir()  # what the killed child leaves behind stays in the test's
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT),
               TMPDIR=str(tmp_path / "tmp"))
    child = subprocess.Popen([sys.executable, "-c", KILLED_STATION, *args], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline() if child.stdout else ""
        assert line.startswith("READY"), line + (child.stderr.read() if child.stderr else "")
        round_id = line.split()[1]
    finally:
        child.send_signal(signal.SIGKILL)  # no chance to close anything
        child.wait(10)
    assert child.returncode == -signal.SIGKILL

    window = build(parse_args(args))
    qtbot.addWidget(window)
    window.resize(1920, 1080)
    window.show()
    c, port = window.session, window.ledger
    assert c is not None and port is not None
    rnd = c.round
    assert rnd is not None and port.recording is not None
    assert port.recording.round_id == round_id
    assert rnd.phase is Phase.SETTING and rnd.rotation.round_no == 1
    assert rnd.wagers == {1: 2500, 2: 1000, 3: 5000, 5: 10000, 6: 1500}
    assert rnd.action is not None and rnd.action.position == SHOWCASE_ACTION
    for position, text in SHOWCASE.items():
        assert set(rnd.hands[position].cards) == set(parse_cards(text))
    # On screen as it was: the cards, the wagers, seat 3's foul, seat 5 set the House Way.
    seat3, seat5 = window.felt.seats[3], window.felt.seats[5]
    assert seat3.note.text().startswith("FOUL: the two-card hand (pair of Kings)")
    assert [cw.card for cw in seat3.cards[:2]] == list(rnd.hands[3].setting.low)
    assert seat5.wager.text() == "$100.00" and seat5.note.text().startswith("House Way")
    assert {cw.card for cw in window.felt.seats[6].cards} == set(parse_cards(SHOWCASE[6]))
    assert "taken back as it was when the station stopped" in window.panel.message.text()
    # ...and it plays on to the end, one round in the ledger.
    for position in (1, 2, 6):
        assert window.select(position).done and window.press("H").done, c.message
    assert window.press("S").done, c.message
    slip = rnd.slip
    qtbot.waitUntil(lambda: port.pending == 0, timeout=60_000)
    delivered(port.ledger)
    store = port.store
    rounds = store.history()
    assert [(r.id, r.status) for r in rounds] == [(round_id, "settled")]
    assert store.slip(round_id).text == slip.text()
    with Session(store.engine) as db:
        seqs = list(db.scalars(select(Event.seq).where(Event.round_id == uuid.UUID(round_id),
                                                       Event.seq.is_not(None))))
    assert sorted(seqs) == list(range(len(rnd.log) + 1))
    window.close()


# --- the printer fails -----------------------------------------------------------------------

def test_a_printer_failure_keeps_the_slip_and_reprint_prints_it_once(make_station, qtbot,
                                                                     tmp_path):
    printer_dir = tmp_path / "usb"  # not there yet: the printer is unplugged
    opened: list[str] = []

    def counting(config):  # noqa: ANN001, ANN202 - python-escpos's connect, counted
        device = escpos_connect(config)
        opened.append(config.path)
        return device

    printer = file_printer(tmp_path, printer_dir / "lp0", connect=counting)
    s = make_station(printer=printer)
    assert s.window.devices[1].text() == "Printer: not connected"
    open_and_wager(s, {1: "25", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    for seat in (1, 5):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    slip = s.session.round.slip

    s.key("P")
    qtbot.waitUntil(lambda: printer.busy is None and s.session.devices.slip_printed == "kept",
                    timeout=60_000)
    assert s.message == (f"The slip printer is not connected (no {printer_dir / 'lp0'}): check "
                         f"that it is switched on and its USB cable is in, then reprint. The "
                         f"slip of round {slip.round} is kept: once the printer is ready, press "
                         f"Reprint (or run paigow print-slip --reprint).")
    assert s.window.panel.message.property("level") == "error"
    s.polled()  # the status bar asks the printer on the worker
    assert s.window.devices[1].text() == "Printer: not connected"
    assert printer.kept_count == 1 and opened == []
    assert s.window.panel.stack_title.text() == "Settlement slip: KEPT, P prints it"

    printer_dir.mkdir()  # plugged back in
    s.polled()
    assert s.window.devices[1].text() == "Printer: 1 kept"
    s.key("P", shift=True)  # Reprint: the kept slip, once
    qtbot.waitUntil(lambda: printer.busy is None and printer.kept_count == 0, timeout=60_000)
    assert s.session.devices.slip_printed == "printed"
    assert s.message == "Reprinted 1 kept slip."
    assert opened == [str(printer_dir / "lp0")]
    text = printed_text(printer_dir / "lp0")
    assert "PRINTED LATE" in text and "(first try: printer not connected)" in text
    s.polled()  # the status bar asks the printer on the worker
    assert s.window.devices[1].text() == "Printer: ready"
    # P does not print it again; Shift+P is the dealer's own reprint, marked REPRINT.
    s.key("P")
    assert opened == [str(printer_dir / "lp0")]
    assert "is already printed" in s.message and "Shift+P prints a copy" in s.message
    assert s.window.panel.message.property("level") == "info"  # blue, not a red refusal
    s.key("P", shift=True)
    qtbot.waitUntil(lambda: printer.busy is None and len(opened) == 2, timeout=60_000)
    assert "REPRINT" in printed_text(printer_dir / "lp0")
    assert s.message == f"Round {slip.round}'s slip printed again, marked REPRINT."


def test_no_printer_set_up_says_so_and_the_slip_stays_on_screen(make_station):
    printer = Printer(PrinterConfig(kind="none"))
    s = make_station(printer=printer)
    assert s.window.devices[1].text() == "Printer: none"
    open_and_wager(s, {1: "25"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    s.key("1")
    s.key("H")
    s.key("S")
    b = s.window.panel.buttons["print"]
    assert not b.isEnabled() and "no slip printer is set up" in b.toolTip()
    s.key("P")
    assert s.message.startswith("no slip printer is set up at this station")
    assert s.window.panel.stack.currentWidget() is s.window.panel.slip


def test_a_station_saving_its_slips_as_pdf_files_shows_it_in_green(tmp_path):
    printer = Printer(PrinterConfig(kind="pdf", path=str(tmp_path / "slips"),
                                    queue_dir=str(tmp_path / "kept")))
    device = printer.device()
    assert (device.label, device.state) == ("Printer: PDF", "ok")
    assert str(tmp_path / "slips") in device.detail


# --- the ledger's database away --------------------------------------------------------------

def test_the_ledger_away_shows_the_banner_play_goes_on_and_nothing_is_lost(
        make_station, qtbot, tmp_path, pg_up):
    pg = pg_up  # the test process's server (tests/conftest.py)
    url = pg.url(pg.create_database())  # type: ignore[attr-defined]
    ledger = make_ledger(tmp_path, url)
    s = make_station(ledger=ledger)
    # The device line is told after the journal empties (a queued signal): read once it
    # has come (a loaded machine is slow, not wrong).
    qtbot.waitUntil(lambda: ledger.status().pending == 0
                    and s.window.devices[2].text() == "Database: recording", timeout=60_000)
    assert not s.window.banner.isVisible()
    open_and_wager(s, WAGERS)

    pg.stop()  # type: ignore[attr-defined]
    try:
        s.key("R")
        s.wait_phase(Phase.SETTING)
        qtbot.waitUntil(lambda: s.window.devices[2].text() == "Database: offline",
                        timeout=60_000)
        assert s.window.banner.isVisible() and not s.window.table_info.isVisible()
        banner = s.window.banner.text()
        assert banner.startswith("Ledger offline since ")
        assert "record(s) kept safely on this station, retrying. Play can go on." in banner
        assert s.window.devices[2].property("state") == "off"
        s.everyone_passes()
        set_every_hand(s)
        s.key("S")  # play goes on: settled with the database away
        slip = s.session.round.slip
        assert slip is not None
        assert ledger.status().pending >= 2
    finally:
        pg.start()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: s.window.devices[2].text() == "Database: recording"
                    and not s.window.banner.isVisible(), timeout=40000)
    assert s.window.table_info.isVisible()
    rec = s.recording
    stored = ledger.store.slip(rec.round_id)
    assert stored.text == slip.text()
    with Session(ledger.store.engine) as db:
        events = list(db.scalars(select(Event.seq).where(
            Event.round_id == uuid.UUID(rec.round_id), Event.seq.is_not(None))))
        settled = list(db.scalars(select(SettlementRow).where(
            SettlementRow.round_id == uuid.UUID(rec.round_id))))
    assert sorted(events) == list(range(len(s.session.round.log) + 1))
    assert sorted((x.position, x.net_cents) for x in settled) == sorted(
        (ln.position, ln.net) for ln in slip.lines if ln.outcome is not None)


# --- a round with a player bank and a dragon, recorded ---------------------------------------

def test_the_bank_and_the_dragon_rounds_are_recorded_as_played(make_station, qtbot, tmp_path):
    from app.ui.screenshots import BANK_SHOWCASE

    ledger = make_ledger(tmp_path)
    decks = [DECK, stacked_deck(BANK_SHOWCASE, 1)]
    numbers = iter([SHOWCASE_RNG, 5])
    s = make_station(decks=decks, ledger=ledger)
    s.session.deal.randbelow = lambda n: next(numbers)
    c = s.session
    open_and_wager(s)
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.key("Q")  # seat 3 passes the dragon; seat 5 takes it
    s.key("G")
    s.type("40")
    assert c.round.dragons
    for seat in (3, 5, 1, 2, 6):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    first = s.recording
    s.key("N")  # the bank is offered to seat 3, 4 ... the seats that bet the house
    s.key("Q")
    s.key("Q")
    s.key("B")
    s.type("100")
    assert c.round.bank.player == 3
    for seat, dollars in ((1, "40"), (2, "20"), (5, "40")):
        assert s.window.select(seat).done
        assert s.window.handle(DealerCommand("wager", dollars)).done, c.message
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    for seat in (1, 2, 3, 5):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    second = s.recording
    assert c.round.slip.bank.exhausted
    s.recorded()
    delivered(ledger)
    store = ledger.store
    for rec in (first, second):
        assert store.slip(rec.round_id).text == rec.game.slip.text()
    with Session(store.engine) as db:
        row = db.get(RoundRow, uuid.UUID(second.round_id))
        dragon = list(db.scalars(select(WagerRow).where(
            WagerRow.round_id == uuid.UUID(first.round_id), WagerRow.kind == "dragon")))
    assert (row.banker_seat, row.bank_chips_cents) == (3, 10000)
    assert [(w.seat, w.amount_cents) for w in dragon] == [(5, 4000)]


# --- main(): the line that says the station is up, and a clean stop --------------------------

def test_main_says_the_window_is_shown_and_stops_cleanly_on_sigterm(qapp, qtbot, tmp_path,
                                                                    capfd, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    data = supervised(tmp_path / "d")
    # SIGTERM once the window says it is shown (a timer of 1.5 s came before the first
    # paint on a loaded machine); past a generous deadline, SIGTERM anyway, and the
    # assertions below say what was printed.
    said = FirstPaint.say

    def say_then_stop(window: object) -> None:
        said(window)  # type: ignore[arg-type]
        QTimer.singleShot(0, lambda: os.kill(os.getpid(), signal.SIGTERM))

    monkeypatch.setattr(FirstPaint, "say", staticmethod(say_then_stop))
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(lambda: os.kill(os.getpid(), signal.SIGTERM))
    deadline.start(120_000)
    before = signal.getsignal(signal.SIGTERM)
    try:
        assert main(["--data-dir", str(data), "--dealer", "Kim",
                     "--size", "1280x800"]) == 0
    finally:
        deadline.stop()
    err = capfd.readouterr().err
    shown = [ln for ln in err.splitlines() if ln.startswith(SHOWN)]
    assert len(shown) == 1, err
    assert '"Pai Gow Poker - dealer station" on offscreen, 1280x800, ' in shown[0]
    assert shown[0].endswith(" s after start")
    assert "Traceback" not in err
    assert signal.getsignal(signal.SIGTERM) == before  # handlers put back
    assert not [w for w in qapp.topLevelWidgets() if w.isVisible()]
    # ...and the application's event loops still run for whoever comes next.
    fired: list[int] = []
    QTimer.singleShot(0, lambda: fired.append(1))
    qtbot.waitUntil(lambda: bool(fired), timeout=60_000)


def test_a_station_with_no_dealer_named_asks_and_opens_the_shift(make_station, tmp_path):
    ledger = make_ledger(tmp_path, dealer=None)
    s = make_station(ledger=ledger)
    b = s.window.panel.buttons["new"]
    assert not b.isEnabled() and "press F3 and type the dealer's name" in b.toolTip()
    assert "Dealer (none: F3)" in s.window.table_info.text()
    s.key(Qt.Key.Key_F3)
    prompt = s.window.dealer_prompt
    assert prompt is not None and prompt.isVisible()
    prompt.setTextValue("Robin")
    prompt.accept()
    assert ledger.dealer == "Robin"
    s.recorded()  # the shift is journalled on the worker
    assert ledger.store.shift.dealer == "Robin"
    assert s.message.startswith("Robin's shift is open")
    assert b.isEnabled()
    s.window.activateWindow()  # the dealer back at the window once the prompt is gone
    s.qtbot.waitUntil(s.window.isActiveWindow, timeout=60_000)
    s.key("N")
    assert s.recording is not None


def test_the_demo_station_from_the_command_line_records_in_the_data_dir(qtbot, tmp_path):
    window = build(parse_args(["--demo", "--data-dir", str(tmp_path / "d")]))
    qtbot.addWidget(window)
    port = window.ledger
    assert port is not None and port.dealer == "Demo"
    assert port.store.database == f"sqlite:///{tmp_path / 'd' / 'ledger.sqlite'}"
    # No printer set up: the demo saves its slips as PDF files, and says so in green.
    assert window.printer is not None and window.printer.config.kind == "pdf"
    assert window.printer.config.path == str(tmp_path / "d" / "slips")
    assert window.devices[1].text() == "Printer: PDF (demo)"
    assert window.devices[1].property("state") == "ok"
    window.close()


def test_every_demo_starts_fresh_in_a_folder_of_its_own_never_the_stations_ledger(
        qtbot, tmp_path, monkeypatch):
    """`make run` (paigow-dealer --demo) twice: each time a new round 1 in a temporary
    ledger, removed when the station closes; the user's data directory and the config's
    database are never touched."""
    home = tmp_path / "home-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.setenv("PAIGOW_LEDGER__DATABASE_URL", "postgresql://paigow@nowhere/real")
    folders = []
    for _ in range(2):
        args = parse_args(["--demo"])
        with demo_data(args):
            window = build(args)
            qtbot.addWidget(window)
            folder = Path(args.data_dir)
            folders.append(folder)
            c = window.session
            assert window.ledger is not None and c is not None
            assert window.ledger.store.database == f"sqlite:///{folder / 'ledger.sqlite'}"
            assert window.press("N").done, c.message
            assert c.round is not None and c.round.rotation.round_no == 1
            assert window.devices[1].text() == "Printer: PDF (demo)"
            window.close()
            window.close_station()
        assert not folder.exists()
    assert folders[0] != folders[1]
    assert not home.exists()


def test_a_demo_given_a_data_dir_keeps_it(tmp_path):
    args = parse_args(["--demo", "--data-dir", str(tmp_path / "d")])
    with demo_data(args):
        assert args.data_dir == str(tmp_path / "d") and args.database_url is None


def test_a_rebuilt_station_takes_back_a_round_mid_deal_and_the_cards_are_typed(
        make_station, tmp_path):
    """The station rebuilt from the same ledger (as after a crash) while the deal was
    under way and the shoe offline: wagers and action are back, the cards are typed again."""
    first = make_ledger(tmp_path)
    s = make_station(ledger=first, online=False)
    open_and_wager(s, {1: "25", 5: "100"})
    s.key("R")
    s.key("C")
    s.type(SHOWCASE[3])  # one position typed; the station stops here
    rec = s.recording
    store = Store(f"sqlite:///{tmp_path / 'ledger.sqlite'}", table="PG-1", station="pg1-test",
                  data_dir=tmp_path / "station", migrate_now=False, send_on_save=False)
    second = Ledger(store, TableConfig(), send_every=0.05)
    again = make_station(ledger=second, online=False)
    taken = second.resume()
    assert taken is not None and taken.round_id == rec.round_id
    assert again.window.ledger is not None
    again.window.ledger.adopt(taken)
    c = again.session
    again.window.apply(c.resume(taken.game))
    assert c.round.phase is Phase.DEALING and c.round.wagers == {1: 2500, 5: 10000}
    assert c.round.action.position == SHOWCASE_ACTION and c.keyboard.selected == SHOWCASE_ACTION
    assert again.message.startswith("Round 1 is taken back as it was when the station "
                                    "stopped") and "type each position's seven cards (C)" \
        in again.message
    assert again.seat(5).wager.text() == "$100.00"
    assert again.seat(3).action_badge.isVisible()
    for _ in range(7):
        again.key("C")
        again.type(SHOWCASE[c.keyboard.selected])
    assert c.round.phase is Phase.SETTING
    assert again.recording is taken
    assert second.dealer == "Kim"
