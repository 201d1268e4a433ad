"""Whole rounds typed key by key at the window (qtbot.keyClick / keyClicks on the table, where
the keyboard rests), with the dealer's mistakes: Esc halfway, Backspace, a letter in a money
field, a seat key while a field is open, a double Enter, a wager over the maximum, a big jump
confirmed and one cancelled (docs/keyboard.md). Each test asserts what the ledger recorded:
every seat's wager in cents and each position's settled outcome."""

from __future__ import annotations

import uuid

from PySide6.QtCore import Qt
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.round import Phase
from app.ledger.models import SettlementRow, WagerRow
from app.session.procedure import to_set

from .conftest import Station
from .test_station import delivered, make_ledger


def keys(s: Station, text: str) -> None:
    """Each character a key pressed on the table ("<Enter>", "<Esc>", "<Backspace>",
    "<Right>" spelled out)."""
    felt = s.window.felt
    named = {"Enter": Qt.Key.Key_Return, "Esc": Qt.Key.Key_Escape,
             "Backspace": Qt.Key.Key_Backspace, "Right": Qt.Key.Key_Right,
             "Left": Qt.Key.Key_Left}
    i = 0
    while i < len(text):
        if text[i] == "<":
            end = text.index(">", i)
            s.qtbot.keyClick(felt, named[text[i + 1:end]])
            i = end + 1
        else:
            s.qtbot.keyClicks(felt, text[i])
            i += 1
        assert s.window.focusWidget() in (None, felt)  # no field ever takes the keyboard


def deal_and_settle(s: Station) -> None:
    """R, the simulated shoe deals, no one takes the dragon, each hand H, S: by keys."""
    keys(s, "R")
    s.wait_phase(Phase.SETTING)
    s.everyone_passes()
    while (waiting := to_set(s.session)):
        keys(s, f"{waiting[0]}H")
    keys(s, "S")
    assert s.session.round.slip is not None


def recorded(s: Station) -> tuple[dict[int, int], dict[int, tuple[str | None, int, int]]]:
    """What the ledger's database holds for the round in play: each seat's main wager in
    cents, and each position's settlement (outcome, wager, net in cents)."""
    rec = s.recording
    assert rec is not None and s.window.ledger is not None
    ledger = s.window.ledger.ledger
    delivered(ledger)
    rid = uuid.UUID(rec.round_id)
    with Session(ledger.store.engine) as db:
        wagers = {w.position: w.amount_cents for w in db.scalars(
            select(WagerRow).where(WagerRow.round_id == rid, WagerRow.kind == "main"))}
        settled = {x.position: (x.outcome, x.wager_cents, x.net_cents) for x in db.scalars(
            select(SettlementRow).where(SettlementRow.round_id == rid))}
    return wagers, settled


def settled_as_the_slip_says(s: Station) -> dict[int, tuple[str | None, int, int]]:
    slip = s.session.round.slip
    return {ln.position: (ln.outcome.value if ln.outcome is not None else None, ln.wager,
                          ln.net) for ln in slip.lines if ln.outcome is not None}


def test_a_round_typed_with_esc_halfway_backspace_a_letter_and_double_enter(make_station,
                                                                            tmp_path):
    s = make_station(ledger=make_ledger(tmp_path))
    keys(s, "N")
    keys(s, "1W25<Enter>")
    keys(s, "2W10<Esc>")  # Esc halfway: nothing set, the field closed
    assert s.session.round.wagers == {1: 2500} and s.session.keyboard.entry is None
    keys(s, "2W155<Backspace><Enter>")  # 155, Backspace: 15
    keys(s, "3W5S0<Enter>")  # S is not typed into the amount, and does not settle
    assert s.session.round.phase is Phase.BETTING
    keys(s, "5W100<Enter><Enter>")  # the second Enter does nothing
    assert s.session.keyboard.selected == 6
    keys(s, "6W15<Enter>")
    assert s.window.panel.fields["wager"].text() == ""  # every field empty after Enter
    deal_and_settle(s)

    wagers, settled = recorded(s)
    assert wagers == {1: 2500, 2: 1500, 3: 5000, 5: 10_000, 6: 1500}
    assert {p: w for p, (_o, w, _n) in settled.items() if p in wagers} == wagers
    assert settled == settled_as_the_slip_says(s)
    assert all(outcome in ("win", "lose", "push") for outcome, _w, _n in settled.values())


def test_a_seat_key_while_a_field_is_open_is_a_digit_and_left_right_or_a_click_move_it(
        make_station, tmp_path):
    s = make_station(ledger=make_ledger(tmp_path))
    keys(s, "N3W4")  # 4 is the amount's first digit here, not seat 4
    assert s.session.keyboard.selected == 3
    assert s.message == "Seat 3: $4.00 wager - Enter will refuse it: $4.00 is under the " \
        "table minimum of $5.00. Backspace corrects it, Esc leaves it."
    keys(s, "0<Right>")  # Right moves the field (and its $40) to seat 4
    assert s.message == "Seat 4: $40.00 wager. Enter sets it, Esc leaves it."
    keys(s, "<Enter>")
    keys(s, "1W30")
    s.qtbot.mouseClick(s.seat(6).title, Qt.MouseButton.LeftButton)  # a click moves it too
    assert s.message == "Seat 6: $30.00 wager. Enter sets it, Esc leaves it."
    keys(s, "<Enter>")
    deal_and_settle(s)

    wagers, settled = recorded(s)
    assert wagers == {4: 4000, 6: 3000}
    assert settled == settled_as_the_slip_says(s)


def test_over_the_maximum_is_refused_a_big_jump_confirmed_and_one_cancelled(make_station,
                                                                             tmp_path):
    """Seed 002: "$300 maximum bet." A jump is more than five times the seat's last wager
    and at least $100 more (docs/keyboard.md)."""
    s = make_station(ledger=make_ledger(tmp_path))
    keys(s, "N1W20<Enter>2W20<Enter>")
    deal_and_settle(s)
    assert recorded(s)[0] == {1: 2000, 2: 2000}

    keys(s, "N")
    s.everyone_passes()  # the bank, offered to the seats that wagered: the dealer banks
    keys(s, "1W350<Enter>")
    assert s.message.startswith("Seat 1: $350.00 is over the table maximum of $300.00: "
                                "nothing is set")
    keys(s, "1W150<Enter>")
    assert s.message == ("Seat 1: $150.00 is far above its last wager of $20.00. Enter again "
                         "(or Y) sets it; Esc cancels it.")
    assert s.session.round.wagers == {}
    keys(s, "<Enter>")  # yes
    keys(s, "2W200<Enter>")
    keys(s, "S3")  # no other key acts while the station asks
    assert s.session.keyboard.selected == 2 and s.session.round.phase is Phase.BETTING
    keys(s, "<Esc>")  # no: seat 2's $200 is not set
    keys(s, "2W25<Enter>")
    deal_and_settle(s)

    wagers, settled = recorded(s)
    assert s.session.round.rotation.round_no == 2
    assert wagers == {1: 15_000, 2: 2500}
    assert settled == settled_as_the_slip_says(s)
