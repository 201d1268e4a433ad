"""The supervisor's dialogs at the keyboard (issue 25, item 3): Enter confirms every one
(misdeal, void, correct, allow typing, close) as its button does, never cancels it; a new
try clears the old error at once; the last supervisor checked here is offered by name."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.core.round import Phase
from app.ui.screenshots import SHOWCASE, stacked_deck
from app.ui.shoe import DemoShoe
from app.ui.supervisor import ActionDialog, CloseDialog

from .conftest import SHOWCASE_ACTION, SUPERVISOR, SUPERVISOR_SECRET, Station
from .test_station import delivered
from .test_supervisor import WRONG, answered, open_pit, people_ledger, play_round
from .test_window import open_and_wager


def enter(s: Station, dialog: ActionDialog) -> None:
    """Enter in the secret's field, and until the ledger has answered."""
    s.qtbot.keyClick(dialog.form.secret, Qt.Key.Key_Return)
    s.qtbot.waitUntil(lambda: not dialog.waiting, timeout=60_000)


def test_enter_confirms_the_misdeal_and_a_new_try_clears_the_wrong_secret_at_once(
        make_station, tmp_path):
    s = make_station(ledger=people_ledger(tmp_path))
    open_and_wager(s, {1: "25", 5: "100"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    no = s.session.round.rotation.round_no
    s.key("M", shift=True)
    dialog = s.window.supervisor.dialog
    assert isinstance(dialog, ActionDialog) and dialog.windowTitle() == "Misdeal"
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.reason.setText("the shoe lost card 12")
    dialog.form.secret.setText(WRONG)
    enter(s, dialog)
    assert dialog.isVisible()  # Enter asked the ledger: it did not cancel
    assert f"Wrong name or secret for {SUPERVISOR}" in dialog.answer.text()
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    s.qtbot.keyClick(dialog.form.secret, Qt.Key.Key_Return)
    # the new try is under way: the old refusal is gone before the ledger answers
    assert "Wrong" not in dialog.answer.text()
    s.qtbot.waitUntil(lambda: not dialog.waiting, timeout=60_000)
    assert not dialog.isVisible()
    assert s.message.startswith(f"Round {no} is a misdeal ({SUPERVISOR}: the shoe lost")


def test_enter_confirms_void_allow_typing_correct_and_close_never_cancels_them(
        make_station, tmp_path):
    """Enter with the fields empty: the dialog's own refusal (its button pressed), the
    dialog still open; Cancel never."""
    shoe = DemoShoe([stacked_deck(SHOWCASE, SHOWCASE_ACTION)] * 3, interval_ms=0)
    ledger = people_ledger(tmp_path)
    s = make_station(ledger=ledger, shoe=shoe)
    play_round(s)  # a settled round for the correction
    s.recorded()
    delivered(ledger)
    pit = open_pit(s)
    pit.tabs.setCurrentIndex(1)
    pit.rounds.selectRow(0)
    answered(s, pit)
    assert pit.stored is not None
    dialogs = {"void": pit.open_void, "correct": pit.open_correct,
               "close": lambda: CloseDialog(pit.pit, lambda _p: None, s.window)}
    for name, make in dialogs.items():
        dialog = make()
        assert dialog is not None, name
        dialog.open()
        dialog.form.by.setText("")
        enter(s, dialog)
        assert dialog.isVisible(), name
        assert dialog.answer.isVisible() and dialog.answer.text(), name
        dialog.reject()
    s.window.toggle_pit()
    stalled = DemoShoe([stacked_deck(SHOWCASE, SHOWCASE_ACTION)], interval_ms=60_000)
    t = make_station(ledger=people_ledger(tmp_path / "t"), shoe=stalled)
    open_and_wager(t, {1: "25"})
    t.key("R")
    t.wait_phase(Phase.DEALING)
    typing = open_pit(t).open_allow_typing()
    typing.form.by.setText("")
    enter(t, typing)
    assert typing.isVisible() and typing.answer.text()


def test_the_last_supervisor_checked_is_offered_and_the_secret_is_asked_next(
        make_station, tmp_path):
    s = make_station(ledger=people_ledger(tmp_path))
    open_and_wager(s, {1: "25"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    pit = open_pit(s)
    void = pit.open_void()
    assert void.form.by.text() == ""  # nobody checked here yet
    void.form.by.setText(SUPERVISOR)
    void.form.reason.setText("a card was exposed")
    void.form.secret.setText(SUPERVISOR_SECRET)
    enter(s, void)
    assert not void.isVisible() and s.session.round is None
    misdeal_later = pit.open_void()
    assert misdeal_later.form.by.text() == SUPERVISOR
    s.qtbot.waitUntil(lambda: misdeal_later.focusWidget() is misdeal_later.form.secret,
                      timeout=60_000)
    assert misdeal_later.form.secret.text() == ""  # never kept


def test_a_round_voided_in_the_pit_reads_void_in_its_history_without_pressing_show(
        make_station, tmp_path):
    """Issue 25: "A voided round reads 'open' until Show is pressed"."""
    s = make_station(ledger=people_ledger(tmp_path))
    open_and_wager(s, {1: "25"})
    s.key("R")
    s.wait_phase(Phase.SETTING)
    no = s.session.round.rotation.round_no
    pit = open_pit(s)
    s.qtbot.waitUntil(lambda: any(r.round_no == no for r in pit.shown), timeout=60_000)
    assert [r.status for r in pit.shown if r.round_no == no] == ["open"]
    void = pit.open_void()
    void.form.by.setText(SUPERVISOR)
    void.form.reason.setText("a card was exposed")
    void.form.secret.setText(SUPERVISOR_SECRET)
    enter(s, void)
    assert s.session.round is None
    s.qtbot.waitUntil(lambda: [r.status for r in pit.shown if r.round_no == no] == ["void"],
                      timeout=60_000)
