"""The bonus in the window (issue 26): U and the keypad take a seat's bonus, its badge shows
it, S holds a big payout and opens the pit's approval (the supervisor's own name and
secret, checked by the ledger), and once settled each seat shows its bonus and envy lines."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.bonus.table_bonus import TableBonus
from app.core.round import Phase, RoundRules
from app.ledger.models import Event
from app.ui.present import slip_state
from app.ui.screenshots import BONUS_SHOWCASE, BONUS_WAGERS
from app.ui.supervisor import ActionDialog

from .conftest import SHOWCASE_ACTION, SUPERVISOR, SUPERVISOR_SECRET, Station
from .test_supervisor import ask, people_ledger

FORTUNE = RoundRules(bonus=TableBonus())


def bets(s: Station) -> None:
    s.key("N")
    for seat, (wager, bonus) in BONUS_WAGERS.items():
        s.key(str(seat))
        s.key("W")
        s.type(wager)
        s.key(Qt.Key.Key_Escape)
        s.key(str(seat))
        s.key("U")
        s.type(bonus)


def test_a_bonus_hit_waits_for_the_supervisor_then_every_seat_shows_its_lines(
        make_station, tmp_path) -> None:  # noqa: ANN001
    s = make_station(hands=BONUS_SHOWCASE, action=SHOWCASE_ACTION, rules=FORTUNE,
                     ledger=people_ledger(tmp_path))
    bets(s)
    assert s.session.round is not None
    assert s.session.round.bonus_wagers == {1: 10_000, 2: 500, 3: 500}
    badge = s.window.felt.seats[1].bonus_badge
    assert badge.isVisibleTo(s.window) and badge.text() == "BONUS $100"
    s.key("R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    for seat in (3, 1, 2):
        s.key(str(seat))
        s.key("H")
    s.key("S")
    assert s.session.round.slip is None
    assert s.message.startswith("Waiting for a supervisor: seat 1 bonus $100.00: five aces")
    pit = s.window.supervisor
    assert pit is not None and pit.isVisible()
    dialog = pit.dialog
    assert isinstance(dialog, ActionDialog) and dialog.windowTitle() == "Approve bonus"
    dialog.form.by.setText(SUPERVISOR)
    dialog.form.secret.setText(SUPERVISOR_SECRET)
    ask(s, dialog)
    slip = s.session.round.slip
    assert slip is not None and slip.bonus is not None
    assert slip.bonus.approved_by == SUPERVISOR
    result = s.window.felt.seats[1].result.text()
    assert result.endswith("Bonus +$40,005.00 (envy)")  # five aces, and envy for seat 2's
    assert s.window.felt.seats[3].result.text().endswith("Bonus +$270.00 (envy x2)")
    # the slip's row for seat 1 names the hand and what it paid
    row = next(r for r in slip_state(slip).rows if r.position == "seat 1 bonus")
    assert row.hands == "five aces, envy" and row.net == "+$40,005.00"
    assert row.detail == ("bonus $100.00: five aces, 400 to 1: +$40,000.00, approved by "
                          f"{SUPERVISOR}; envy: four of a kind at seat 2: +$5.00")
    # the pit's approval was saved with the supervisor's sign-in, not the name alone
    port = s.window.ledger
    assert port is not None
    port.store.drain()
    with Session(port.store.engine) as db:
        payload = json.loads(db.scalars(select(Event.payload).where(
            Event.kind == "bonus_approved")).one())
    assert payload["supervisor"] == SUPERVISOR and payload["authorised"]["sign_in"]


def test_a_signed_amount_is_kept_on_one_line_of_a_wrapped_message() -> None:
    """The settled message and the pit's Approve bonus read "+$40,650.00" whole: Qt broke the
    line between the sign and the dollar sign ("Bonus +" above "$40,650.00")."""
    from app.ui.present import WORD_JOINER, unbroken_money

    said = unbroken_money("Bonus +$40,650.00; house net -$23.75; wager $5.00")
    assert said == (f"Bonus +{WORD_JOINER}$40,650.00; house net -{WORD_JOINER}$23.75; "
                    f"wager $5.00")
    assert said.replace(WORD_JOINER, "") == "Bonus +$40,650.00; house net -$23.75; wager $5.00"
