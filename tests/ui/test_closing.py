"""Who may start and close a station (issue 15): "A station that is not in demo mode refuses
to start with a default or empty credential"; "The kiosk restarts the station whenever it
is not running (a close needs a supervisor)"; "A window close exits 0, so the kiosk's
systemd unit (Restart=on-failure) leaves the table without a station" no more."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QTimer
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.ledger import Store
from app.ledger.database import make_engine
from app.ledger.models import Event, SignIn
from app.ui.closing import CloseGuard
from app.ui.main import (
    DEMO_SUPERVISOR,
    DEMO_SUPERVISOR_PIN,
    EXIT_UNSUPERVISED,
    build,
    main,
    parse_args,
)

from .conftest import SUPERVISOR, SUPERVISOR_SECRET, supervised

ROOT = Path(__file__).resolve().parents[2]
WRONG = "wrong-guess-777"


def test_closing_the_window_needs_a_supervisor_and_the_ledger_records_who(
        close_needs_a_supervisor, qtbot, tmp_path):
    data = supervised(tmp_path / "d")
    window = build(parse_args(["--data-dir", str(data), "--dealer", "Kim"]))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    guard = window.close_guard
    assert isinstance(guard, CloseGuard)
    assert not window.close()  # the dealer's close (or the window manager's) is refused
    assert window.isVisible()
    dialog = guard.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.windowTitle() == "Close the station"
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.reason.setText("the table closes for the night")
    dialog.form.secret.setText(WRONG)
    dialog.ok.click()
    qtbot.waitUntil(lambda: not dialog.waiting, timeout=60_000)
    assert window.isVisible() and guard.by is None
    assert dialog.answer.text().startswith(f"Close: Wrong name or secret for {SUPERVISOR}")
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    dialog.ok.click()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=60_000)
    assert guard.by == SUPERVISOR
    window.close_station()
    engine = make_engine(f"sqlite:///{data / 'ledger.sqlite'}")
    try:
        with Session(engine) as db:
            closed = list(db.scalars(select(Event).where(Event.kind == "station_closed")))
            tries = [(t.name, t.action, t.ok) for t in db.scalars(
                select(SignIn).where(SignIn.action == "close").order_by(SignIn.at))]
    finally:
        engine.dispose()
    assert [e.actor for e in closed] == [SUPERVISOR]
    assert "the table closes for the night" in closed[0].payload
    assert SUPERVISOR_SECRET not in closed[0].payload
    assert tries == [(SUPERVISOR, "close", False), (SUPERVISOR, "close", True)]


def test_a_station_that_ends_without_a_supervisors_close_exits_non_zero_for_the_kiosk(
        close_needs_a_supervisor, qapp, tmp_path):
    data = supervised(tmp_path / "d")
    # The loop ends from under the window (QApplication.quit would ask the window first,
    # and be refused like any close): nobody's close.
    QTimer.singleShot(1500, lambda: qapp.exit(0))
    assert main(["--data-dir", str(data), "--dealer", "Kim", "--size", "1280x800"]) \
        == EXIT_UNSUPERVISED != 2


def test_the_kiosk_unit_restarts_the_station_whenever_it_ends():
    unit = (ROOT / "installer" / "paigow-dealer.service").read_text()
    assert re.search(r"^Restart=always$", unit, re.M)
    prevented = re.search(r"^RestartPreventExitStatus=(.*)$", unit, re.M)
    assert prevented is None or str(EXIT_UNSUPERVISED) not in prevented.group(1).split()


def test_a_station_on_a_table_refuses_to_start_with_nobody_in_the_ledger(qapp, tmp_path,
                                                                         capsys):
    assert main(["--data-dir", str(tmp_path / "empty"), "--dealer", "Kim"]) == 2
    err = capsys.readouterr().err
    assert "has no supervisors yet" in err
    assert 'paigow users add "NAME" --first' in err
    assert "Traceback" not in err


def test_the_demo_adds_a_demo_supervisor_and_says_who_they_are(qtbot, tmp_path, capsys):
    window = build(parse_args(["--demo", "--data-dir", str(tmp_path / "d")]))
    qtbot.addWidget(window)
    err = capsys.readouterr().err
    assert f'name "{DEMO_SUPERVISOR}", PIN {DEMO_SUPERVISOR_PIN}' in err
    assert window.ledger is not None
    store: Store = window.ledger.store
    person = store.authorise(DEMO_SUPERVISOR, DEMO_SUPERVISOR_PIN, "void")
    assert person.name == DEMO_SUPERVISOR
    window.close()
    window.close_station()


def test_a_station_whose_database_is_away_at_start_still_comes_up_for_the_kiosk(
        qtbot, tmp_path, capsys):
    # A closed port: the ledger cannot say whether it has supervisors; exit 2 would never
    # be restarted, so the station comes up and says a supervisor's action waits.
    window = build(parse_args(["--data-dir", str(tmp_path / "d"), "--dealer", "Kim",
                               "--database-url", "postgresql://paigow@127.0.0.1:9/paigow"]))
    qtbot.addWidget(window)
    assert "a supervisor's action waits for the database" in capsys.readouterr().err
    window.close()
    window.close_station()
