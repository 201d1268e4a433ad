"""Issue 15: "No secret is ever written into the ledger, a log, a slip or a screenshot; a
test scans them all after a full shift with known secrets." A station started as a table
starts it (app/ui/main.build) plays a shift in which supervisors type their secrets, right
and wrong, for a void, a misdeal, a correction and typing cards; then every byte it left
behind (the ledger, the journal, the session file, the slips, what it printed to its
console) is searched for those secrets."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLineEdit

from app.core.cards import cards_text
from app.core.round import Phase
from app.ui.main import build, parse_args
from app.ui.screenshots import SHOWCASE, stacked_deck
from app.ui.window import MainWindow

from .conftest import (
    MANAGER_SECRET,
    SHOWCASE_ACTION,
    SUPERVISOR,
    SUPERVISOR_SECRET,
    supervised,
)
from .test_session_file import dealt_and_settled, wagered

WRONG = "not-the-secret-31337"
SECRETS = (SUPERVISOR_SECRET, WRONG, MANAGER_SECRET)
DECK = stacked_deck(SHOWCASE, SHOWCASE_ACTION)


def station(qtbot, data: Path) -> MainWindow:
    window = build(parse_args(["--demo", "--deck", cards_text(DECK), "--data-dir", str(data),
                               "--dealer", "Kim", "--size", "1280x800"]))
    qtbot.addWidget(window)
    window.show()
    assert window.session is not None
    window.session.deal.randbelow = lambda n: 3
    qtbot.waitUntil(lambda: window.shoe is not None and window.shoe.online, timeout=60_000)
    return window


def supervisor_acts(qtbot, window: MainWindow, act, secret: str) -> None:  # noqa: ANN001
    """One act of the pit with a secret, until the ledger has answered (the pit's worker)."""
    pit = window.pit
    assert pit is not None
    act(secret)
    qtbot.waitUntil(lambda: pit.reading == 0, timeout=60_000)


def test_no_secret_is_written_anywhere_after_a_shift(qtbot, tmp_path, capfd):
    data = supervised(tmp_path / "station")
    window = station(qtbot, data)
    pit, c = window.pit, window.session
    assert pit is not None and c is not None
    wagered(window)
    dealt_and_settled(qtbot, window)  # round 1, settled and its slip printed (a PDF)
    printer = window.printer
    assert printer is not None and window.press("P").done, c.message
    qtbot.waitUntil(lambda: printer.busy is None and c.devices.slip_printed == "printed",
                    timeout=60_000)

    wagered(window)  # round 2: voided, a wrong secret first
    for secret in (WRONG, SUPERVISOR_SECRET):
        supervisor_acts(qtbot, window,
                        lambda s: pit.void(s, SUPERVISOR, "a card was exposed"), secret)
    assert c.round is None

    wagered(window)  # round 3: typing allowed mid-deal, then a misdeal
    window.press("R")
    qtbot.waitUntil(lambda: c.round is not None and c.round.phase is not Phase.BETTING,
                    timeout=60_000)
    for secret in (WRONG, SUPERVISOR_SECRET):
        supervisor_acts(qtbot, window,
                        lambda s: pit.misdeal(s, SUPERVISOR, "the wrong number dealt"), secret)
    assert c.round is None

    port = window.ledger
    assert port is not None
    qtbot.waitUntil(lambda: port.pending == 0, timeout=60_000)
    port.store.drain()
    first = min(port.store.history(status="settled"), key=lambda r: r.round_no)
    for secret in (WRONG, SUPERVISOR_SECRET):
        supervisor_acts(qtbot, window, lambda s: pit.correct(
            first.id, 1, "+10.00", secret=s, by=SUPERVISOR, reason="paid short"), secret)
    # The secret's field shows dots, and is empty once it has been asked with.
    shown = window.toggle_pit()
    assert shown is not None
    void = shown.open_void()
    assert void.form.secret.echoMode() is QLineEdit.EchoMode.Password
    window.close_station()
    port.store.drain()

    statuses = sorted(r.status for r in port.store.history())
    assert statuses == ["misdeal", "settled", "void"]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    kinds = {p.suffix for p in files}
    assert {".sqlite", ".pdf"} <= kinds  # the ledger and the journal, the slips
    assert port.store.session_lines.sessions()  # the session, kept in the journal
    out, err = capfd.readouterr()
    for secret in SECRETS:
        assert secret not in out and secret not in err
        for path in files:
            assert secret.encode() not in path.read_bytes(), (secret, path)
