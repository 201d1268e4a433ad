"""Issue 11, reproduced at the window: "after Enter in the Wager field the focus stays there:
a dealer typing "4" (to pick seat 4) and then "15 Enter" placed $415 on seat 3." Typed key
by key as the dealer types; what the ledger recorded is the judge."""

from __future__ import annotations

import uuid

from PySide6.QtCore import Qt
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.round import Phase, RoundRules, WagerLimits
from app.ledger.models import WagerRow

from .conftest import Station
from .test_station import delivered, make_ledger

# A table whose maximum lets $415 through: the misfire is not caught by the limit.
HIGH_LIMIT = RoundRules(limits=WagerLimits(500, 100_000))


def recorded_wagers(s: Station) -> dict[int, int]:
    """Each seat's main wager in cents, as the ledger's database holds it (bets closed)."""
    rec = s.recording
    assert rec is not None and s.window.ledger is not None
    delivered(s.window.ledger.ledger)
    with Session(s.window.ledger.ledger.store.engine) as db:
        rows = db.scalars(select(WagerRow).where(WagerRow.round_id == uuid.UUID(rec.round_id),
                                                 WagerRow.kind == "main"))
        return {row.position: row.amount_cents for row in rows}


def typed(s: Station, text: str) -> None:
    """Keys as the dealer types them, into whatever has the keyboard's focus."""
    for char in text:
        s.qtbot.keyClick(s.window.focusWidget() or s.window.felt, char)


def enter(s: Station) -> None:
    s.qtbot.keyClick(s.window.focusWidget() or s.window.felt, Qt.Key.Key_Return)


def test_4_then_the_wager_key_then_15_enter_puts_15_dollars_on_seat_4(make_station, tmp_path):
    """The dealer wagers $20 for seat 2 (W, 20, Enter: seat 3 is selected next), then types
    4 to pick seat 4, W, 15, Enter: $15 on seat 4, nothing on seat 3."""
    s = make_station(ledger=make_ledger(tmp_path), rules=HIGH_LIMIT)
    typed(s, "N2W20")
    enter(s)
    typed(s, "4W15")
    enter(s)
    assert s.session.round.wagers == {2: 2000, 4: 1500}
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert recorded_wagers(s) == {2: 2000, 4: 1500}


def test_4_then_15_enter_as_the_issue_typed_it_puts_no_money_on_seat_3(make_station,
                                                                       tmp_path):
    """The issue's keys exactly: 4, 1, 5, Enter after a wager. No field is open after Enter,
    so each digit selects a position and nothing is wagered; never $415 on seat 3."""
    s = make_station(ledger=make_ledger(tmp_path), rules=HIGH_LIMIT)
    typed(s, "N2W20")
    enter(s)
    typed(s, "415")
    enter(s)
    assert s.session.round.wagers == {2: 2000}
    assert s.session.keyboard.selected == 5
    s.key("R")
    s.wait_phase(Phase.SETTING)
    assert recorded_wagers(s) == {2: 2000}
