"""The linked progressive in the real window (issue 27), from the card's own words
(linked-pai-gow: wager "$1", meter-share "70%", reserve-share "10%", seed "$10,000",
five-aces "10%", four-of-a-kind "$75"): the progressive wagers taken by keys (J) and one by
touch, each seat's badge, the meter read off the GUI thread onto the felt, the round's
wagers on the meter with its settlement, a hit paid after the supervisor's own sign-in
(the pit's dialog) from the meter as it stands, what it paid on the felt, the on-screen and
the printed slip, and the ledger's rows exact by the audit. The ledger on SQLite and on the
tests' PostgreSQL (tests/ledger/pg.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.core.progressive import progressive_card
from app.core.round import Phase, RoundRules
from app.ledger import progressive as ledger_progressive
from app.ledger.models import ProgressiveMove
from app.ui.present import slip_state
from app.ui.screenshots import BONUS_SHOWCASE
from app.ui.supervisor import ActionDialog
from drivers.printer.layout import slip_text

from .conftest import SHOWCASE_ACTION, SUPERVISOR, SUPERVISOR_SECRET, Station, add_people
from .test_station import make_ledger
from .test_supervisor import ask
from .test_touch import tap, tap_button

LINKED = RoundRules(progressive=progressive_card("linked-pai-gow"))
WAGERS = {1: "25", 2: "25", 3: "10"}  # seat 1 five aces, seat 2 four of a kind


def meter_shows(s: Station, text: str) -> None:
    """Until the felt shows the meter as `text` (it is read about twice a second)."""
    label = s.window.felt.center.meter
    s.qtbot.waitUntil(lambda: label.text() == text and label.isVisibleTo(s.window),
                      timeout=60_000)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_round_with_progressive_wagers_and_a_hit_paid_after_the_sign_in(
        make_station, tmp_path, request, backend: str) -> None:  # noqa: ANN001
    url = None
    if backend == "postgresql":
        pg = request.getfixturevalue("pg_up")
        url = pg.url(pg.create_database(template=request.getfixturevalue("pg_template")))
    ledger = make_ledger(tmp_path, url)
    add_people(ledger.store)
    s = make_station(hands=BONUS_SHOWCASE, action=SHOWCASE_ACTION, rules=LINKED,
                     ledger=ledger)
    s.window.resize(1366, 768)
    s.qtbot.waitUntil(lambda: s.window.width() == 1366, timeout=60_000)
    meter_shows(s, "Progressive $10,000.00")  # not opened yet: it opens at its seed
    s.key("N")
    for seat, wager in WAGERS.items():
        s.key(str(seat))
        s.key("W")
        s.type(wager)
        s.key(Qt.Key.Key_Escape)
    for seat in (1, 2):  # by keys
        s.key(str(seat))
        s.key("J")
    tap(s, s.seat(3))  # and one by touch: the seat, then the panel's button
    tap_button(s, "progressive")
    assert s.session.round is not None
    assert s.session.round.progressive_wagers == {1: 100, 2: 100, 3: 100}
    badge = s.seat(3).progressive_badge
    assert badge.isVisibleTo(s.window) and badge.text() == "JACKPOT"
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    for seat in (3, 1, 2):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    assert "PROGRESSIVE HIT: seat 1 five aces; seat 2 four of a kind." in s.message
    # the three wagers went to the meter with the settlement: 70 cents each
    meter_shows(s, "Progressive $10,002.10")
    assert s.seat(1).result.text().endswith("PROGRESSIVE HIT: five aces - waiting")
    pit = s.window.supervisor
    assert pit is not None and pit.isVisible()
    dialog = pit.dialog
    assert isinstance(dialog, ActionDialog) and dialog.windowTitle() == "Pay progressive"
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, dialog)
    s.qtbot.waitUntil(lambda: s.session.play.progressive.waiting() is None, timeout=60_000)
    # 10% of the meter as it stood at the sign-in, rounded down; the $75 from the house
    assert "seat 1 $1,000.21; seat 2 $75.00" in s.message
    assert s.seat(1).result.text().endswith("Progressive +$1,000.21 (five aces)")
    assert s.seat(2).result.text().endswith("Progressive +$75.00 (four of a kind)")
    meter_shows(s, "Progressive $10,000.00")  # back to its seed after the hit
    slip = s.session.round.slip
    assert slip is not None
    rows = {r.position: r for r in slip_state(slip).rows}
    assert rows["seat 1 progressive"].net == "+$1,000.21"
    assert rows["seat 2 progressive"].net == "+$75.00"
    assert "seat 3 progressive" not in rows  # no hit: its badge and the printed slip say it
    printed = slip_text(slip)
    assert "PROGRESSIVE" in printed and "$1,000.21" in printed and "signed in by" in printed
    # the ledger: the contribution and the two hits, with who signed in, exact to the cent
    store = ledger.store
    with Session(store.engine) as db:
        audit = ledger_progressive.audit(db, "linked-pai-gow")
        hits = [(m.seat, m.amount_cents, m.by, m.sign_in is not None) for m in db.scalars(
            select(ProgressiveMove).where(ProgressiveMove.kind == "hit")
            .order_by(ProgressiveMove.meter_seq))]
    assert audit.exact, audit.text()
    assert audit.sums.contributions == 210 and audit.sums.wagers == 3
    assert hits == [(1, 100_021, SUPERVISOR, True), (2, 7_500, SUPERVISOR, True)]
    # the round's recall (the pit's history) shows the wagers and what each hit paid
    port = s.window.ledger
    assert port is not None and port.round_id is not None
    said = "\n".join(store.recall(port.round_id).lines)
    assert "3 wager(s) $3.00: $2.10 to the meter, $0.30 to the reserve" in said
    assert (f"HIT seat 1 five aces: paid $1,000.21, $1,000.21 from the meter ($10,002.10 -> "
            f"$10,000.00); signed in by {SUPERVISOR}") in said
    assert f"HIT seat 2 four of a kind: paid $75.00, $75.00 by the house; signed in by " \
           f"{SUPERVISOR}" in said


def test_the_meter_away_closes_the_progressive_and_a_hit_waits_for_it(
        make_station, tmp_path, pg_up, qtbot) -> None:  # noqa: ANN001
    """The database stopped (the tests' PostgreSQL): the felt says the progressive is
    closed, J takes no new wager, a hit settled meanwhile waits for the meter; started
    again, the settlement's wagers reach the meter and the hit is paid from it then."""
    pg = pg_up
    ledger = make_ledger(tmp_path, pg.url(pg.create_database()))
    add_people(ledger.store)
    s = make_station(hands=BONUS_SHOWCASE, action=SHOWCASE_ACTION, rules=LINKED,
                     ledger=ledger)
    meter_shows(s, "Progressive $10,000.00")
    s.key("N")
    for seat in (1, 2):
        s.key(str(seat))
        s.key("W")
        s.type("25")
        s.key(Qt.Key.Key_Escape)
    s.key("1")
    s.key("J")
    pg.stop()
    try:
        meter_shows(s, "Progressive closed")
        assert "cannot be reached" in s.window.felt.center.meter.toolTip()
        # the message says "tap the meter for why": a tap tells it (a finger cannot hover)
        qtbot.mouseClick(s.window.felt.center.meter, Qt.MouseButton.LeftButton)
        why = s.window.felt.center.meter.toolTip()
        assert s.message == f"Progressive closed: {why}" and "cannot be reached" in why
        s.key("2")
        s.key("J")
        assert "Progressive closed: the meter cannot be reached" in s.message
        assert s.session.round is not None and s.session.round.progressive_wagers == {1: 100}
        s.key("R")
        s.wait_phase(Phase.SETTING)
        s.everyone_passes()
        for seat in (3, 1, 2):
            s.key(str(seat))
            s.key("H")
        s.key("S")
        assert "It waits for the meter" in s.message
        assert s.seat(1).result.text().endswith("PROGRESSIVE HIT: five aces - waiting")
        assert s.window.supervisor is None or not s.window.supervisor.isVisible()
    finally:
        pg.start()
    # the journal sends the settlement: its one wager's 70 cents reach the meter
    meter_shows(s, "Progressive $10,000.70")
    assert s.session.play.progressive.online
    pit = s.window.toggle_pit()
    assert pit is not None
    dialog = pit.open_pay_progressive()
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, dialog)
    s.qtbot.waitUntil(lambda: s.session.play.progressive.waiting() is None, timeout=60_000)
    assert "seat 1 $1,000.07" in s.message  # 10% of the meter as it stood then


def test_a_hit_waiting_when_the_window_closed_is_listed_at_the_next_start_and_paid_once(
        make_station, tmp_path) -> None:  # noqa: ANN001
    """The window closed before the supervisor signed in: started again on the same ledger,
    the station finds the hit there (off the GUI thread, once the meter answers), lists it,
    and the pit's sign-in pays it once, from the meter as it stands then."""
    ledger = make_ledger(tmp_path)
    add_people(ledger.store)
    s = make_station(hands=BONUS_SHOWCASE, action=SHOWCASE_ACTION, rules=LINKED,
                     ledger=ledger)
    meter_shows(s, "Progressive $10,000.00")
    s.key("N")
    for seat, wager in WAGERS.items():
        s.key(str(seat))
        s.key("W")
        s.type(wager)
        s.key(Qt.Key.Key_Escape)
    s.key("1")
    s.key("J")
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    for seat in (3, 1, 2):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    assert "PROGRESSIVE HIT: seat 1 five aces." in s.message
    assert s.session.round is not None
    no = s.session.round.rotation.round_no
    s.window.close()  # no one signed in

    again = make_station(hands=BONUS_SHOWCASE, action=SHOWCASE_ACTION, rules=LINKED,
                         ledger=make_ledger(tmp_path, dealer=None))
    meter_shows(again, "Progressive $10,000.70")  # the one wager's 70 cents
    again.qtbot.waitUntil(lambda: f"Progressive hit waiting: round {no} seat 1, five aces"
                          in again.message, timeout=60_000)
    pit = again.window.toggle_pit()
    assert pit is not None and pit.pay_progressive.isEnabled()
    dialog = pit.open_pay_progressive()
    assert f"round {no} seat 1, five aces (10% of the meter)" in dialog.says.text()
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    ask(again, dialog)
    again.qtbot.waitUntil(lambda: not again.session.play.progressive.due(), timeout=60_000)
    assert "seat 1 $1,000.07" in again.message  # 10% of $10,000.70, rounded down
    meter_shows(again, "Progressive $10,000.00")
    assert again.window.ledger is not None
    assert again.window.ledger.store.progressive_hits_owed() == []


def test_on_postgresql_the_felt_hears_another_table_s_move_without_reading_the_meter(
        make_station, tmp_path, pg_up, pg_template) -> None:  # noqa: ANN001
    """On PostgreSQL the felt listens for the meter's changes (migration 0017): with its
    reads stopped, another table's settlement still reaches this felt; the database
    stopped, the felt says the progressive is closed; started again, it hears again."""
    from app.ledger import Store
    from app.ui.services import HEARD_EVERY_MS

    from ..ledger.enrolled import enrolled_key
    from ..ledger.progressive_play import progressive_round

    url = pg_up.url(pg_up.create_database(template=pg_template))
    s = make_station(hands=BONUS_SHOWCASE, action=SHOWCASE_ACTION, rules=LINKED,
                     ledger=make_ledger(tmp_path, url))
    reader = s.window.meter
    assert reader is not None
    s.qtbot.waitUntil(lambda: reader.listening, timeout=60_000)
    assert reader.timer.interval() == HEARD_EVERY_MS  # the reads are a safety net only
    meter_shows(s, "Progressive $10,000.00")
    reader.timer.stop()  # from here on the felt can only hear
    other = Store(url, table="PG-2", station="station-b", data_dir=tmp_path / "b")
    enrolled_key(other)
    other.open_shift("Lou")
    try:
        progressive_round(other, [1, 2, 3])
        meter_shows(s, "Progressive $10,002.10")  # three wagers' 70 cents, heard
        # any login may send on the channel: a forged amount with a move number far ahead
        # is put right by the read that confirms it, and holds back no true move
        with Session(other.engine) as db, db.begin():
            db.execute(text("SELECT pg_notify('paigow_meter', :said)"), {"said": (
                '{"name": "linked-pai-gow", "amount": 99999999, "seq": 999999}')})
        meter_shows(s, "Progressive $10,002.10")
        progressive_round(other, [5])
        meter_shows(s, "Progressive $10,002.80")
        pg_up.stop()
        try:
            meter_shows(s, "Progressive closed")
            assert "cannot be reached" in s.window.felt.center.meter.toolTip()
            assert not s.session.play.progressive.online
        finally:
            pg_up.start()
        s.qtbot.waitUntil(lambda: reader.listening, timeout=60_000)
        meter_shows(s, "Progressive $10,002.80")  # read once as it listens again
        reader.timer.stop()
        progressive_round(other, [4])
        meter_shows(s, "Progressive $10,003.50")
    finally:
        other.close()
