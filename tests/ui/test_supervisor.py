"""The pit supervisor's view (F2): who may bank and why, the rotation, history with the slip
of any round, totals, advice on any hand; void and correct only with the supervisor PIN,
and logged in the ledger with who, when and why."""

from __future__ import annotations

import json
import time
import uuid

from PySide6.QtCore import Qt
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.analysis.advise import legal_settings
from app.core.cards import cards_text, parse_cards
from app.core.house_way import house_way
from app.core.round import Phase
from app.ledger.models import Event, RoundRow, SettlementRow
from app.settings import DEFAULT_PIN, ConfigError, load_config
from app.ui.pit import LOCK_S, PitController
from app.ui.services import pin_matches
from app.ui.supervisor import SupervisorWindow

from .conftest import Station
from .test_station import delivered, make_ledger, set_every_hand
from .test_window import WAGERS, open_and_wager

PIN = "730215"


def play_round(s: Station) -> None:
    open_and_wager(s)
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    set_every_hand(s)
    s.key("S")


def open_pit(s: Station) -> SupervisorWindow:
    s.key(Qt.Key.Key_F2)
    pit = s.window.supervisor
    assert pit is not None and pit.isVisible()
    answered(s, pit)
    return pit


def answered(s: Station, pit: SupervisorWindow) -> None:
    """Until the pit's reads of the ledger (on its worker) have all come back."""
    s.qtbot.waitUntil(lambda: pit.pit.reading == 0, timeout=10000)


def test_f2_opens_the_pit_view_with_every_seats_banking_and_why(make_station, tmp_path,
                                                                qtbot):
    s = make_station(ledger=make_ledger(tmp_path), pin=PIN)
    play_round(s)  # round 1: the dealer banks; seats 1, 2, 3, 5, 6 bet against the house
    s.key("N")
    pit = open_pit(s)
    assert pit.windowTitle() == "Pai Gow Poker - pit supervisor"
    assert pit.round_heading.text().startswith("Round 2 in play: BETTING")
    rows = {pit.seats.item(r, 0).text(): [pit.seats.item(r, c).text() for c in range(6)]
            for r in range(pit.seats.rowCount())}
    assert sorted(rows) == [f"seat {n}" for n in range(1, 7)]
    assert rows["seat 3"][2:4] == ["$50.00", "may bank"]
    assert "wagered $50.00 against the dealer in the last round with no player banker" \
        in rows["seat 3"][4]
    assert rows["seat 4"][3] == "may not bank"
    assert rows["seat 4"][4] == ("placed no wager against the dealer in the last round with "
                                 "no player banker")
    rnd = s.session.round
    for seat, row in rows.items():  # the core's own verdicts, word for word
        verdict = rnd.eligibility(int(seat[-1]), 10 ** 9)
        assert (row[3] == "may bank") == verdict.eligible
    rotation = pit.rotation.text()
    assert "the bank is offered in turn: seat 1 > seat 2 > seat 3 > seat 4 > seat 5 > " \
           "seat 6 > dealer" in rotation
    assert "Last round's banker: the dealer." in rotation

    # The pit asks whether seat 3 may bank with $100: the core answers, the ledger keeps it.
    pit.check_seat.setCurrentIndex(2)
    pit.check_chips.setText("100")
    pit.check.click()
    assert pit.message.text().startswith("Seat 3 may bank: wagered $50.00")
    qtbot.waitUntil(lambda: pit.message.text().endswith("Recorded in the ledger."),
                    timeout=5000)
    s.qtbot.keyClick(pit, Qt.Key.Key_F2)  # F2 closes it again, from the pit's own keys
    assert not pit.isVisible()


def test_a_void_refuses_a_wrong_pin_and_is_logged_with_the_right_one(make_station, tmp_path,
                                                                     qtbot):
    ledger = make_ledger(tmp_path)
    s = make_station(ledger=ledger, pin=PIN)
    open_and_wager(s, {1: "25", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    rec = s.recording
    no = s.session.round.rotation.round_no
    pit = open_pit(s)
    void = pit.open_void()
    void.form.by.setText("Pat Lee")
    void.form.reason.setText("a card was exposed")
    void.form.pin.setText("0000")
    void.ok.click()
    assert void.isVisible() and void.answer.isVisible()
    assert void.answer.text() == ("Wrong PIN: nothing was done (2 more tries before the "
                                  "lock).")
    assert void.form.pin.text() == ""  # typed again, never kept
    assert s.session.round is not None and s.session.round.phase is Phase.SETTING
    void.form.pin.setText(PIN)
    void.ok.click()
    assert not void.isVisible()
    assert s.session.round is None and s.recording is None
    assert pit.message.text() == (f"Round {no} is void, logged in the ledger: by Pat Lee, a "
                                  f"card was exposed.")
    assert s.message.startswith(f"Round {no} is void (Pat Lee: a card was exposed)")
    s.recorded()  # the void is journalled on the worker, then sent on
    delivered(ledger)
    with Session(ledger.store.engine) as db:
        row = db.get(RoundRow, uuid.UUID(rec.round_id))
        voided = list(db.scalars(select(Event).where(Event.round_id == row.id,
                                                     Event.kind == "round_voided")))
        refused = list(db.scalars(select(Event).where(Event.kind == "pin_refused")))
    assert (row.status, row.void_reason) == ("void", "a card was exposed")
    assert [e.actor for e in voided] == ["Pat Lee"] and voided[0].at is not None
    # The refused try is logged for the auditors too: who, why, never the PIN typed.
    assert [e.actor for e in refused] == ["Pat Lee"]
    assert "Wrong PIN" in refused[0].payload and "0000" not in refused[0].payload
    # The next round starts from the same rotation (the dealer back at the window).
    s.window.toggle_pit()
    s.window.activateWindow()
    qtbot.waitUntil(s.window.isActiveWindow, timeout=3000)
    s.key("N")
    assert s.session.round.rotation.round_no == no


def test_three_wrong_pins_lock_supervisor_actions(make_station):
    clock = [1000.0]
    s = make_station()
    pit = PitController(s.window, pin=PIN, clock=lambda: clock[0])
    open_and_wager(s, {1: "25"})
    for tries in (2, 1):
        assert not pit.void("1111", "Pat", "test")
        assert pit.message.endswith(f"({tries} more tries before the lock).")
    assert not pit.void("1111", "Pat", "test")
    assert pit.message == (f"Wrong PIN, 3 times: supervisor actions are locked for "
                           f"{int(LOCK_S)} s. Nothing was done.")
    assert not pit.void(PIN, "Pat", "test")  # even the right PIN, while locked
    assert pit.message.startswith("Three wrong PINs: supervisor actions are locked")
    clock[0] += LOCK_S + 1
    assert pit.void(PIN, "Pat", "test")
    assert s.session.round is None


def test_a_void_says_who_and_why_before_the_pin_is_even_tried(make_station):
    s = make_station()
    pit = PitController(s.window, pin=PIN)
    open_and_wager(s, {1: "25"})
    assert not pit.void(PIN, "", "a reason")
    assert pit.message == "Type the supervisor's name: the ledger logs who did it."
    assert not pit.void(PIN, "Pat", " ")
    assert pit.message == "Type why: the ledger logs the reason."
    assert pit.wrong == 0 and s.session.round is not None


def test_a_correction_needs_the_pin_and_the_ledger_keeps_who_why_and_both_rows(
        make_station, tmp_path):
    ledger = make_ledger(tmp_path)
    s = make_station(ledger=ledger, pin=PIN)
    play_round(s)
    slip = s.session.round.slip
    rec = s.recording
    delivered(ledger)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    assert [r.id for r in pit.shown] == [rec.round_id]
    pit.rounds.selectRow(0)
    answered(s, pit)
    assert pit.stored is not None and pit.stored.round_id == rec.round_id
    receipt = pit.slip_text.toPlainText()
    assert "PAI GOW POKER SETTLEMENT" in receipt and "Seat 3" in receipt
    assert pit.corrections.text() == "No corrections."

    fix = pit.open_correct()
    seat5 = slip.line(5)
    fix.position.setCurrentIndex(fix.position.findData(5))
    fix.net.setText("+90.25")
    fix.form.by.setText("Pat Lee")
    fix.form.reason.setText("commission taken twice")
    fix.form.pin.setText("999999")
    fix.ok.click()
    assert fix.isVisible() and fix.answer.text().startswith("Wrong PIN: nothing was done")
    with Session(ledger.store.engine) as db:
        assert db.scalars(select(SettlementRow).where(
            SettlementRow.entry != "original")).all() == []
    fix.form.pin.setText(PIN)
    fix.ok.click()
    assert not fix.isVisible()
    answered(s, pit)
    assert pit.message.text().startswith("Corrected, logged in the ledger: correction ")
    assert "by Pat Lee: commission taken twice" in pit.message.text()
    with Session(ledger.store.engine) as db:
        rows = db.scalars(select(SettlementRow).where(
            SettlementRow.round_id == uuid.UUID(rec.round_id), SettlementRow.position == 5)
            .order_by(SettlementRow.entry_no)).all()
    assert [(r.entry, r.net_cents, r.by, r.reason) for r in rows] == [
        ("original", seat5.net, "Kim", seat5.note),
        ("reversal", -seat5.net, "Pat Lee", "commission taken twice"),
        ("correction", 9025, "Pat Lee", "commission taken twice")]
    assert "Corrections (the slip stays as printed):" in pit.corrections.text()
    assert ledger.store.slip(rec.round_id).text == slip.text()  # the slip never changes
    totals = ledger.store.totals(shift=ledger.store.shift.id)
    assert totals.corrections == 1
    assert "1 correction(s)" in pit.totals_summary.text()


def test_history_filters_by_seat_and_shift_and_reprints_a_past_slip(make_station, qtbot,
                                                                    tmp_path):
    from .test_station import file_printer, printed_text

    ledger = make_ledger(tmp_path)
    printer = file_printer(tmp_path)
    s = make_station(ledger=ledger, printer=printer, pin=PIN)
    play_round(s)
    first = s.recording.round_id
    ledger.open_shift("Robin")  # a dealer change
    s.key("N")
    s.everyone_passes()
    s.key("4")
    s.key("W")
    s.type("30")
    s.key(Qt.Key.Key_Escape)
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    s.key("4")
    s.key("H")
    s.key("S")
    second = s.recording.round_id
    delivered(ledger)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    assert [r.id for r in pit.shown] == [second, first]
    assert [pit.rounds.item(r, 3).text() for r in range(2)] == ["Robin", "Kim"]
    pit.seat.setCurrentIndex(pit.seat.findData(4))
    pit.refresh_history()
    answered(s, pit)
    assert [r.id for r in pit.shown] == [second]
    pit.seat.setCurrentIndex(0)
    shifts = [pit.shift.itemText(i) for i in range(pit.shift.count())]
    assert shifts[0] == "any shift" and shifts[1].startswith("Robin - ") \
        and shifts[2].startswith("Kim - ")
    pit.shift.setCurrentIndex(2)
    pit.refresh_history()
    answered(s, pit)
    assert [r.id for r in pit.shown] == [first]
    pit.rounds.selectRow(0)
    answered(s, pit)
    pit.reprint.click()
    qtbot.waitUntil(lambda: printer.busy is None and "REPRINT" in printed_text(
        tmp_path / "lp0"), timeout=10000)
    text = printed_text(tmp_path / "lp0")
    stored = ledger.store.slip(first)
    assert "REPRINT" in text
    for line in printer.printer.lines(stored.data()):
        if not line.startswith(("Time", "REPRINT")):
            assert line in text
    assert s.message.startswith("Round 1's slip printed again, marked REPRINT")


def test_advice_on_a_past_hand_lists_every_legal_setting_and_marks_the_house_way(
        make_station, tmp_path):
    ledger = make_ledger(tmp_path)
    s = make_station(ledger=ledger, pin=PIN)
    play_round(s)
    delivered(ledger)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    pit.rounds.selectRow(0)
    answered(s, pit)
    pit.advise_past.click()
    dialog = pit.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.choice.setCurrentIndex(next(i for i, h in enumerate(dialog.hands)
                                       if h.position == 3))
    cards = parse_cards("KS KD 9C 7H 5S 3D 2C")
    legal = legal_settings(cards)
    table = dialog.table
    assert table.rowCount() == len(legal) == 18
    shown = {(table.item(r, 1).text(), table.item(r, 2).text()) for r in range(18)}
    assert shown == {(cards_text(x.low), cards_text(x.high)) for x in legal}
    hw = house_way("standard").set(cards)
    marked = [r for r in range(18) if "HW" in table.item(r, 0).text()]
    assert len(marked) == 1
    assert set(parse_cards(table.item(marked[0], 1).text())) == set(hw.low)
    assert "rule PR-1" in dialog.heading.text()
    # Seat 3 put its Kings in front, a foul: no legal setting is the one played.
    seat3 = dialog.hands[dialog.choice.currentIndex()]
    assert seat3.played is not None and set(seat3.played) == set(parse_cards("KS KD"))
    assert f"Played: {cards_text(seat3.played)} | 9C 7H 5S 3D 2C, set by the player - FOUL: " \
           f"the two-card hand (pair of Kings) outranks" in dialog.heading.text()
    assert not any("played" in table.item(r, 0).text() for r in range(18))
    dialog.choice.setCurrentIndex(next(i for i, h in enumerate(dialog.hands)
                                       if h.position == 1))  # seat 1 set 7S 6C in front
    played = [r for r in range(table.rowCount()) if "played" in table.item(r, 0).text()]
    assert [set(parse_cards(table.item(r, 1).text())) for r in played] == [
        set(parse_cards("7S 6C"))]


def test_advice_on_a_hand_in_play(make_station):
    s = make_station(pin=PIN)
    open_and_wager(s, WAGERS)
    s.key("R")
    s.wait_phase(Phase.SETTING)
    pit = open_pit(s)
    assert pit.advise_live.isEnabled()
    pit.advise_live.click()
    dialog = pit.dialog
    assert len(dialog.hands) == 7 and dialog.table.rowCount() > 0
    assert sum("HW" in dialog.table.item(r, 0).text()
               for r in range(dialog.table.rowCount())) == 1


def test_the_pin_is_compared_in_constant_time_and_the_default_warns(make_station):
    assert pin_matches("730215", " 730215 ") and not pin_matches("730215", "730216")
    assert not pin_matches("730215", "")
    s = make_station()  # no config: the shipped default PIN
    pit = open_pit(s)
    assert pit.pit.default_pin and pit.pin_warning.isVisible()
    assert "shipped default" in pit.pin_warning.text()
    s2 = make_station(pin=PIN)
    s2.key(Qt.Key.Key_F2)
    assert not s2.window.supervisor.pin_warning.isVisible()


def test_the_supervisor_pin_in_the_config(tmp_path):
    assert load_config(env={}).supervisor.pin == DEFAULT_PIN
    site = tmp_path / "site.toml"
    site.write_text('[supervisor]\npin = "730215"\n')
    assert load_config(site, env={}).supervisor.pin == "730215"
    assert load_config(env={"PAIGOW_SUPERVISOR__PIN": "048213"}).supervisor.pin == "048213"
    for bad, says in (("pin = 1234", 'write the PIN in quotes (pin = "1234")'),
                      ('pin = "12a4"', "the supervisor PIN is 4 to 12 digits"),
                      ('pin = "123"', "the supervisor PIN is 4 to 12 digits")):
        site.write_text(f"[supervisor]\n{bad}\n")
        try:
            load_config(site, env={})
        except ConfigError as e:
            assert e.key == "supervisor.pin" and says in e.why
        else:
            raise AssertionError(f"{bad} was taken")


def test_the_pin_never_reaches_the_ledger(make_station, tmp_path):
    ledger = make_ledger(tmp_path)
    s = make_station(ledger=ledger)
    open_and_wager(s, {1: "25"})
    s.recorded()  # the round's begin is journalled on the worker, then sent on
    delivered(ledger)
    with Session(ledger.store.engine) as db:
        config = json.loads(db.scalars(select(RoundRow.config)).one())
    assert "supervisor" not in json.dumps(config) and "pin" not in config.get("config", {})
    assert set(config["config"]) >= {"table", "wagers", "commission", "rules"}


def test_the_pits_reads_say_at_once_that_a_database_known_away_is_away(make_station,
                                                                       tmp_path):
    # A closed port: the ledger goes offline at its first send.
    ledger = make_ledger(tmp_path, url="postgresql://paigow@127.0.0.1:9/paigow")
    s = make_station(ledger=ledger)
    ledger.store.drain()
    assert not ledger.store.status().online
    pit = PitController(s.window, pin=PIN)
    started = time.monotonic()
    found: list[object] = []
    pit.history(None, None, None, found.append)
    s.qtbot.waitUntil(lambda: bool(found), timeout=5000)
    assert found == [[]]
    assert time.monotonic() - started < 1.0
    assert pit.message.startswith("History: the ledger's database is away (since ")
    assert pit.level == "error"
