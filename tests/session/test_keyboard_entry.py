"""The dealer's keyboard model (docs/keyboard.md), headless: keys go to the session as
`KeyPressed` events, so a runner without a window types exactly as the dealer does and is
held to the same limits and the same "far above" rule (app/session/wager_limits.py)."""

from __future__ import annotations

import io

import pytest

from app.core.round import RoundRules, WagerLimits
from app.core.table import DEALER
from app.session import DealerCommand, DealerSession, KeyPressed, MemoryLedger
from app.session.record import JsonlRecorder, read_session
from app.session.replay import replay
from app.session.wager_limits import JUMP_AT_LEAST, JUMP_TIMES, far_above

from .play import BANK_WEAK, STRONG, WEAKER, Play, stacked


def typed(s: DealerSession, keys: str) -> None:
    """Each character a key ("Enter" and the like spelled out between angle brackets)."""
    i = 0
    while i < len(keys):
        if keys[i] == "<":
            end = keys.index(">", i)
            s.handle(KeyPressed(keys[i + 1:end]))
            i = end + 1
        else:
            s.handle(KeyPressed(keys[i].upper() if keys[i].isalpha() else keys[i]))
            i += 1


def opened(limits: WagerLimits | None = None) -> DealerSession:
    s = DealerSession(RoundRules(limits=limits or WagerLimits()), ledger=MemoryLedger())
    s.play.ledger.open_shift("Kim")  # type: ignore[union-attr]
    s.handle(KeyPressed("N"))
    return s


def wagers(s: DealerSession) -> dict[int, int]:
    assert s.round is not None
    return dict(s.round.wagers)


# --- the misfire --------------------------------------------------------------------

def test_after_enter_the_field_is_closed_so_4_selects_seat_4_and_15_goes_to_its_wager():
    """Issue 11: a dealer typing "4" (to pick seat 4) and then "15 Enter" placed $415 on
    seat 3. After Enter no field is open: 4 selects seat 4, W opens seat 4's wager."""
    s = opened()
    typed(s, "2W20<Enter>")
    assert s.keyboard.selected == 3 and s.keyboard.entry is None
    typed(s, "4W15<Enter>")
    assert wagers(s) == {2: 2000, 4: 1500}


def test_every_money_entry_shows_the_seat_and_amount_it_will_set_before_enter():
    s = opened()
    typed(s, "3W")
    assert s.message.startswith("Seat 3: type the wager in dollars")
    typed(s, "1")
    assert s.message == "Seat 3: $1.00 wager - Enter will refuse it: $1.00 is under the " \
        "table minimum of $5.00. Backspace corrects it, Esc leaves it."
    typed(s, "5")
    assert s.message == "Seat 3: $15.00 wager. Enter sets it, Esc leaves it."
    assert s.keyboard.entry is not None and s.keyboard.entry.text == "15"
    assert wagers(s) == {}  # nothing is set before Enter


# --- the table's maximum ---------------------------------------------------------------------

def test_a_wager_over_the_tables_maximum_is_refused_and_the_message_says_the_maximum():
    """Seed 002: "$300 maximum bet." """
    s = opened()
    typed(s, "3W415")
    assert "over the table maximum of $300.00" in s.message  # said while typing
    typed(s, "<Enter>")
    assert wagers(s) == {}
    assert s.message.startswith("Seat 3: $415.00 is over the table maximum of $300.00: "
                                "nothing is set")
    assert s.keyboard.entry is None  # the field is closed: the next key is a command again


def test_a_headless_wager_command_is_held_to_the_maximum_too():
    s = opened(WagerLimits(500, 50_000))
    s.handle(KeyPressed("1"))
    changes = s.handle(DealerCommand("wager", "600"))
    assert not changes.done and "over the table maximum of $500.00" in changes.message
    assert wagers(s) == {}


# --- a wager far above the seat's previous one -----------------------------------------------

@pytest.mark.parametrize(("previous", "cents", "asks"), [
    (2000, 10_000, False),   # five times $20 is not more than five times
    (2000, 12_000, True),    # six times and $100 more
    (500, 3000, False),      # six times $5 but only $25 more: an ordinary raise
    (2500, 12_600, True),    # more than five times and $101 more
    (None, 30_000, False),   # no previous wager: the limits alone
])
def test_far_above_is_more_than_five_times_and_at_least_100_dollars_more(previous, cents,
                                                                          asks):
    assert (JUMP_TIMES, JUMP_AT_LEAST) == (5, 10_000)
    assert far_above(previous, cents) is asks


def test_a_changed_wager_far_above_asks_and_enter_again_sets_it():
    s = opened()
    typed(s, "3W20<Enter>")
    typed(s, "3W150<Enter>")
    assert wagers(s) == {3: 2000}  # asked, not set
    assert s.message == ("Seat 3: $150.00 is far above its last wager of $20.00. Enter again "
                         "(or Y) sets it; Esc cancels it.")
    typed(s, "<Enter>")
    assert wagers(s) == {3: 15_000}
    assert s.keyboard.asking is None


def test_a_jump_is_cancelled_by_esc_and_the_old_wager_stays():
    s = opened()
    typed(s, "3W20<Enter>3W150<Enter><Esc>")
    assert wagers(s) == {3: 2000}
    assert s.message == "Not set: seat 3's wager stays $20.00."
    typed(s, "<Enter>")  # nothing waits any more: Enter does nothing
    assert wagers(s) == {3: 2000}


def test_y_confirms_and_other_keys_do_nothing_while_the_station_asks():
    s = opened()
    typed(s, "3W20<Enter>3W150<Enter>")
    typed(s, "4S")  # neither selects nor settles: the question is answered first
    assert s.keyboard.selected == 3 and s.keyboard.asking is not None
    assert "(S does nothing until then.)" in s.message
    typed(s, "Y")
    assert wagers(s) == {3: 15_000}


def test_the_previous_wager_is_the_seats_wager_in_the_last_round_it_played():
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), randbelow=lambda _n: 1))
    p.shoe(True)
    typed(p.s, "N1W20<Enter>3W40<Enter>R")
    p.read(stacked(p.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    typed(p.s, "<Shift+Q>")
    p.house_way_all()
    typed(p.s, "S")
    assert p.s.round is not None and p.s.round.slip is not None
    typed(p.s, "N")  # seat 1 last wagered $20: $150 is far above it; seat 3 $40: not
    assert p.s.round.rotation.round_no == 2
    typed(p.s, "1W150<Enter>")
    assert wagers(p.s) == {} and "far above its last wager of $20.00" in p.s.message
    typed(p.s, "<Esc>3W150<Enter>")
    assert wagers(p.s) == {3: 15_000}


def test_a_headless_runner_confirms_by_sending_the_same_wager_again():
    s = opened()
    s.handle(KeyPressed("3"))
    s.handle(DealerCommand("wager", "20"))
    s.handle(KeyPressed("3"))  # a wager selects the next seat: seat 3 again
    s.handle(DealerCommand("wager", "150"))
    assert wagers(s) == {3: 2000}
    refused = s.handle(DealerCommand("new"))
    assert not refused.done and "far above" in refused.message
    s.handle(DealerCommand("wager", "150"))
    assert wagers(s) == {3: 15_000}


# --- keys in a field ------------------------------------------------------------------------

def test_letters_in_a_money_field_are_not_typed_and_run_no_command():
    s = opened()
    typed(s, "3W2S5")  # S would settle at the table; here it is refused
    assert s.keyboard.entry is not None and s.keyboard.entry.text == "25"
    typed(s, "<Enter>")
    assert wagers(s) == {3: 2500}


def test_a_letter_in_a_money_field_says_what_the_field_takes():
    s = opened()
    typed(s, "3W2X")
    assert s.message == ("X is not typed into Seat 3's wager and does nothing while it is "
                         "open: it takes the amount only: digits and a point, like 25 or "
                         "25.50. Enter sets it, Esc leaves it.")


def test_backspace_takes_back_the_last_digit():
    s = opened()
    typed(s, "3W255<Backspace><Enter>")
    assert wagers(s) == {3: 2500}


def test_esc_halfway_sets_nothing_and_closes_the_field():
    s = opened()
    typed(s, "3W25<Esc>")
    assert s.keyboard.entry is None and wagers(s) == {}
    typed(s, "5")  # a seat key again
    assert s.keyboard.selected == 5


def test_digits_in_a_money_field_are_the_amount_and_left_right_move_it_to_another_seat():
    s = opened()
    typed(s, "3W4")  # 4 is a digit of the amount here, not seat 4
    entry = s.keyboard.entry
    assert s.keyboard.selected == 3 and entry is not None and entry.text == "4"
    typed(s, "0<Right>")
    assert s.message == "Seat 4: $40.00 wager. Enter sets it, Esc leaves it."
    typed(s, "<Enter>")
    assert wagers(s) == {4: 4000}


def test_a_click_on_a_seat_moves_a_wager_field_to_it_with_the_amount():
    s = opened()
    typed(s, "3W40")
    s.handle(DealerCommand("select", "6"))
    assert s.message == "Seat 6: $40.00 wager. Enter sets it, Esc leaves it."
    typed(s, "<Enter>")
    assert wagers(s) == {6: 4000}


def test_double_enter_sets_the_wager_once_and_the_second_does_nothing():
    s = opened()
    typed(s, "3W25<Enter>")
    said = s.message
    typed(s, "<Enter>")
    assert wagers(s) == {3: 2500} and s.keyboard.selected == 4
    assert s.message == said


def test_a_number_typed_with_no_field_open_goes_nowhere_and_says_so():
    s = opened()
    typed(s, "8")
    assert s.message.startswith("8 is not a position and no field is open")
    assert wagers(s) == {}


def test_a_session_typed_key_by_key_replays_to_the_same_wagers_and_slip():
    """What was typed is recorded key by key and a replay types it again: the same fields,
    the same refusals, the same question and answer, the same money."""
    stream = io.StringIO()
    p = Play(DealerSession(ledger=MemoryLedger(shift="Ann"), randbelow=lambda _n: 1,
                           recorder=JsonlRecorder(stream)))
    p.shoe(True)
    typed(p.s, "N1W2X0<Enter>3W405<Enter>3W40<Backspace>5<Enter><Enter>")
    typed(p.s, "1W150<Enter>Y5W9<Esc>R")
    p.read(stacked(p.s.table, 1, {1: STRONG, 3: WEAKER, DEALER: BANK_WEAK}))
    typed(p.s, "<Shift+Q>")
    p.house_way_all()
    typed(p.s, "S")
    slip = p.s.round.slip if p.s.round is not None else None
    assert slip is not None and wagers(p.s) == {1: 15_000, 3: 4500}

    again = replay(read_session(stream.getvalue().splitlines()))
    assert again.slips == [slip]
    assert again.session.round is not None and dict(again.session.round.wagers) == \
        {1: 15_000, 3: 4500}
