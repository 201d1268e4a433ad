"""The pit supervisor's view (F2): who may bank and why, the rotation, history with the slip
of any round, totals, advice on any hand; void and correct only by a person the ledger
knows, with their own PIN or password ("Supervisors are people: each with a name and a PIN
or password stored only as a hash ... Every supervisor action records who did it", issue
15), and logged in the ledger with who, when and why."""

from __future__ import annotations

import json
import uuid

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.analysis.advise import legal_settings
from app.core.cards import cards_text, parse_cards
from app.core.house_way import house_way
from app.core.round import Phase
from app.core.settlement import money
from app.ledger.models import Event, RoundRow, SettlementRow, SignIn
from app.ledger.people import NotAuthorised
from app.settings import DEFAULT_PIN, ConfigError, load_config
from app.ui.pit import PitController
from app.ui.screenshots import SHOWCASE, stacked_deck
from app.ui.shoe import DemoShoe
from app.ui.supervisor import ActionDialog, SupervisorWindow

from ..clock import held
from .conftest import (
    AUDITOR,
    AUDITOR_SECRET,
    MANAGER,
    MANAGER_SECRET,
    SHOWCASE_ACTION,
    SUPERVISOR,
    SUPERVISOR_SECRET,
    Station,
    add_people,
)
from .test_station import delivered, make_ledger, set_every_hand
from .test_window import WAGERS, open_and_wager

WRONG = "wrong-guess-777"


def ask(s: Station, dialog: ActionDialog) -> None:
    """The dialog's button, and until the ledger has checked the person (the pit's worker)."""
    dialog.ok.click()
    s.qtbot.waitUntil(lambda: not dialog.waiting, timeout=10000)


def people_ledger(tmp_path):  # noqa: ANN001, ANN201 - the station's Ledger
    ledger = make_ledger(tmp_path)
    add_people(ledger.store)
    return ledger


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
    s = make_station(ledger=make_ledger(tmp_path))
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


def test_a_void_refuses_a_wrong_secret_and_is_logged_with_the_person(make_station, tmp_path,
                                                                     qtbot):
    ledger = people_ledger(tmp_path)
    s = make_station(ledger=ledger)
    open_and_wager(s, {1: "25", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    rec = s.recording
    no = s.session.round.rotation.round_no
    pit = open_pit(s)
    void = pit.open_void()
    void.form.by.setText(SUPERVISOR)
    void.form.reason.setText("a card was exposed")
    void.form.secret.setText(WRONG)
    ask(s, void)
    assert void.isVisible() and void.answer.isVisible()
    assert void.answer.text() == (f"Void: Wrong name or secret for {SUPERVISOR}: check both "
                                  f"and try again. Nothing was done.")
    assert void.form.secret.text() == ""  # typed again, never kept
    assert s.session.round is not None and s.session.round.phase is Phase.SETTING
    void.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, void)
    assert not void.isVisible()
    assert s.session.round is None and s.recording is None
    assert pit.message.text() == (f"Round {no} is void, logged in the ledger: by "
                                  f"{SUPERVISOR}, a card was exposed.")
    assert s.message.startswith(f"Round {no} is void ({SUPERVISOR}: a card was exposed)")
    s.recorded()  # the void is journalled on the worker, then sent on
    delivered(ledger)
    with Session(ledger.store.engine) as db:
        row = db.get(RoundRow, uuid.UUID(rec.round_id))
        voided = list(db.scalars(select(Event).where(Event.round_id == row.id,
                                                     Event.kind == "round_voided")))
        tries = list(db.scalars(select(SignIn).where(SignIn.action == "void")
                                .order_by(SignIn.at)))
        refused = list(db.scalars(select(Event).where(Event.kind == "pin_refused")))
    assert (row.status, row.void_reason) == ("void", "a card was exposed")
    assert [e.actor for e in voided] == [SUPERVISOR] and voided[0].at is not None
    # Both tries are in the ledger, the person's own, right or wrong; never the secret.
    assert [(t.name, t.ok) for t in tries] == [(SUPERVISOR, False), (SUPERVISOR, True)]
    assert str(tries[1].id) in voided[0].payload  # the void names the sign-in it rode on
    assert SUPERVISOR_SECRET not in voided[0].payload and WRONG not in voided[0].payload
    # The refusal is a station note too, which the pit floor raises as an alert.
    assert [e.actor for e in refused] == [SUPERVISOR] and WRONG not in refused[0].payload
    assert "Wrong name or secret for" in refused[0].payload
    # The next round starts from the same rotation (the dealer back at the window).
    s.window.toggle_pit()
    s.window.activateWindow()
    qtbot.waitUntil(s.window.isActiveWindow, timeout=3000)
    s.key("N")
    assert s.session.round.rotation.round_no == no


def test_wrong_tries_slow_the_person_at_this_station_and_the_wait_survives_a_restart(
        make_station, tmp_path, monkeypatch):
    ledger = people_ledger(tmp_path)
    clock = held(monkeypatch)  # held once the people are in: the tries come after
    s = make_station(ledger=ledger)
    open_and_wager(s, {1: "25"})
    pit = PitController(s.window)
    results: list[bool] = []

    def void(name: str, secret: str) -> str:
        before = len(results)
        assert pit.void(secret, name, "test", then=results.append)
        s.qtbot.waitUntil(lambda: len(results) > before, timeout=10000)
        return pit.message

    for _ in range(2):
        assert void(SUPERVISOR, WRONG).endswith("check both and try again. Nothing was done.")
    assert void(SUPERVISOR, WRONG).endswith("check both and try again in 2 seconds. Nothing "
                                            "was done.")
    # Even the right secret waits, unchecked; the shift manager is not held up by it.
    assert f"Too many wrong tries for {SUPERVISOR}: try again in 2 seconds" in void(
        SUPERVISOR, SUPERVISOR_SECRET)
    assert results == [False] * 4 and s.session.round is not None
    # A restarted station (a new store on the same database) finds the wait where it was.
    again = make_ledger(tmp_path / "restarted", url=f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    try:
        with pytest.raises(NotAuthorised, match=f"Too many wrong tries for {SUPERVISOR}"):
            again.store.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void")
        assert again.store.authorise(MANAGER, MANAGER_SECRET, "void").name == MANAGER
    finally:
        again.close()
    clock.advance(2)
    assert void(SUPERVISOR, SUPERVISOR_SECRET).startswith("Round ")
    assert results[-1] is True and s.session.round is None


def test_an_auditor_may_not_void_and_nobody_the_ledger_does_not_know(make_station, tmp_path):
    s = make_station(ledger=people_ledger(tmp_path))
    open_and_wager(s, {1: "25"})
    pit = PitController(s.window)
    results: list[bool] = []
    for name, secret, says in (
            (AUDITOR, AUDITOR_SECRET, f"Void: {AUDITOR} is an auditor: an auditor may not "
                                      f"void. Nothing was done."),
            ("Mallory", "guess-123456", "Void: Wrong name or secret for Mallory: check both "
                                        "and try again. Nothing was done.")):
        before = len(results)
        assert pit.void(secret, name, "test", then=results.append)
        s.qtbot.waitUntil(lambda b=before: len(results) == b + 1, timeout=10000)
        assert pit.message == says
    assert results == [False, False] and s.session.round is not None


def test_a_void_says_who_and_why_before_the_secret_is_even_tried(make_station, tmp_path):
    s = make_station(ledger=people_ledger(tmp_path))
    pit = PitController(s.window)
    open_and_wager(s, {1: "25"})
    assert not pit.void(SUPERVISOR_SECRET, "", "a reason")
    assert pit.message == "Type the supervisor's name: the ledger logs who did it."
    assert not pit.void(SUPERVISOR_SECRET, SUPERVISOR, " ")
    assert pit.message == "Type why: the ledger logs the reason."
    assert not pit.void("", SUPERVISOR, "a reason")
    assert pit.message == f"Type {SUPERVISOR}'s PIN or password: nothing was done."
    assert s.session.round is not None and pit.reading == 0  # the ledger was never asked


def test_a_station_without_a_ledger_checks_no_supervisor_and_voids_nothing(make_station):
    s = make_station()
    pit = PitController(s.window)
    open_and_wager(s, {1: "25"})
    assert not pit.void(SUPERVISOR_SECRET, SUPERVISOR, "test")
    assert pit.message.startswith("This station keeps no ledger, so no supervisor can be "
                                  "checked")
    assert s.session.round is not None


def test_a_correction_needs_a_person_and_the_ledger_keeps_who_why_and_both_rows(
        make_station, tmp_path):
    ledger = people_ledger(tmp_path)
    s = make_station(ledger=ledger)
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
    fix.form.by.setText(SUPERVISOR)
    fix.form.reason.setText("commission taken twice")
    fix.form.secret.setText(WRONG)
    ask(s, fix)
    assert fix.isVisible() and fix.answer.text().startswith(
        f"Correction: Wrong name or secret for {SUPERVISOR}: check both and try again")
    with Session(ledger.store.engine) as db:
        assert db.scalars(select(SettlementRow).where(
            SettlementRow.entry != "original")).all() == []
    fix.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, fix)
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
    s = make_station(ledger=ledger, printer=printer)
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
    s = make_station(ledger=ledger)
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
    s = make_station()
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
    pit = PitController(s.window)
    asked: list[object] = []
    ledger.store.history = lambda **kw: asked.append(kw)
    found: list[object] = []
    pit.history(None, None, None, found.append)
    s.qtbot.waitUntil(lambda: bool(found), timeout=30_000)
    assert found == [[]]
    # At once: from what the store already knows, without asking the database (a connect
    # that would wait out its timeout on a database that does not answer).
    assert asked == []
    assert pit.message.startswith("History: the ledger's database is away (since ")
    assert pit.level == "error"


def test_the_pit_recalls_a_past_round_whole_and_the_core_agrees_with_what_was_paid(
        make_station, tmp_path):
    ledger = people_ledger(tmp_path)  # its key enrolled: its rounds are records
    s = make_station(ledger=ledger)
    play_round(s)
    slip = s.session.round.slip
    delivered(ledger)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    pit.rounds.selectRow(0)
    answered(s, pit)
    assert pit.recall.isEnabled()
    dialog = pit.open_recall()
    assert dialog is not None
    s.qtbot.waitUntil(lambda: dialog.recalled is not None, timeout=10000)
    text = dialog.text.toPlainText()
    assert text.startswith("Table PG-1, ") and "round 1 - SETTLED" in text.splitlines()[0]
    assert "  1. seat 3: " + " ".join(map(str, s.session.round.deal.hands[0])) in text
    assert "dealer: Kim" in text
    assert f"net {money(slip.line(5).net, sign=True)}" in text
    assert dialog.verdict.text().startswith("MATCH: settled again from the recorded cards")


# --- the deal's own supervisor acts: a misdeal, typing allowed -----------------------------

def test_shift_m_opens_the_misdeal_and_the_ledger_keeps_it_with_the_person_checked(
        make_station, tmp_path):
    ledger = people_ledger(tmp_path)
    s = make_station(ledger=ledger)
    open_and_wager(s, {1: "25", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    rec = s.recording
    no = s.session.round.rotation.round_no
    s.key("M", shift=True)
    pit = s.window.supervisor
    assert pit is not None and pit.isVisible()
    dialog = pit.dialog
    assert isinstance(dialog, ActionDialog) and dialog.windowTitle() == "Misdeal"
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.reason.setText("the shoe lost card 12")
    dialog.form.secret.setText(WRONG)
    ask(s, dialog)
    assert dialog.isVisible() and f"Wrong name or secret for {SUPERVISOR}" in dialog.answer.text()
    assert s.session.round is not None  # nothing done
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, dialog)
    assert not dialog.isVisible()
    assert s.session.round is None
    assert s.message.startswith(f"Round {no} is a misdeal ({SUPERVISOR}: the shoe lost "
                                f"card 12)")
    s.recorded()
    delivered(ledger)
    with Session(ledger.store.engine) as db:
        row = db.get(RoundRow, uuid.UUID(rec.round_id))
        event = db.scalar(select(Event).where(Event.round_id == row.id,
                                              Event.kind == "round_voided"))
        paid = list(db.scalars(select(SettlementRow).where(SettlementRow.round_id == row.id)))
    assert (row.status, row.void_reason) == ("void", "misdeal: the shoe lost card 12")
    assert event is not None and event.actor == SUPERVISOR
    assert json.loads(event.payload)["misdeal"] is True
    assert paid == []  # every wager goes back
    assert [r.status for r in ledger.store.history()] == ["misdeal"]


def test_a_misdeal_is_not_offered_before_a_card_is_dealt(make_station, tmp_path):
    s = make_station(ledger=people_ledger(tmp_path))
    open_and_wager(s, {1: "25"})
    pit = open_pit(s)
    assert not pit.misdeal.isEnabled()
    assert "no card is dealt yet" in pit.misdeal.toolTip()
    assert not pit.pit.misdeal(SUPERVISOR_SECRET, SUPERVISOR, "a reason")
    assert pit.pit.message.startswith("No misdeal: no card is dealt yet")
    assert s.session.round is not None and pit.pit.reading == 0  # the ledger never asked


def test_a_supervisor_allows_typing_a_deals_cards_while_the_shoe_is_online(
        make_station, tmp_path):
    shoe = DemoShoe([stacked_deck(SHOWCASE, SHOWCASE_ACTION)], interval_ms=60_000)
    s = make_station(ledger=people_ledger(tmp_path), shoe=shoe)  # a shoe that gives nothing
    open_and_wager(s, {1: "25"})
    pit = open_pit(s)
    assert not pit.allow_typing.isEnabled()  # no deal under way yet
    assert "deal under way" in pit.allow_typing.toolTip()
    s.window.toggle_pit()
    s.key("R")
    s.wait_phase(Phase.DEALING)
    s.key("1")
    s.key("C")
    assert s.message.startswith("the shoe is online and reads the cards")  # refused
    pit = open_pit(s)
    assert pit.allow_typing.isEnabled()
    dialog = pit.open_allow_typing()
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.reason.setText("the shoe misreads")
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, dialog)
    assert not dialog.isVisible()
    assert s.session.play.typing_allowed == SUPERVISOR
    assert any(f"Typing cards allowed by {SUPERVISOR}: the shoe misreads" in line
               for line in s.session.log)
    assert not pit.allow_typing.isEnabled()  # allowed once for the deal
    s.window.toggle_pit()
    s.key("1")
    s.key("C")
    s.type("AS KD 10H 7C 7D 2S JK")
    assert s.message == "Seat 1: AS KD TH 7C 7D 2S JK"  # typed, kept with the deal
    assert s.session.dealing()[1] == list(parse_cards("AS KD 10H 7C 7D 2S JK"))
