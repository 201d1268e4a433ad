"""Action inputs: the station's RNG, dice entered by the dealer, a shuffler's ACTION."""

from __future__ import annotations

import inspect
import secrets

import pytest

from app.core.table import ActionSource
from drivers.action import ActionError, Origin, dice, draw_rng, from_device, parse_dice
from drivers.shoe.protocol import ActionRead, ShoeParser, encode_line


def test_rng_draws_1_to_7_with_secrets_and_records_the_station_as_source() -> None:
    calls: list[int] = []

    def fake_randbelow(n: int) -> int:
        calls.append(n)
        return 6

    got = draw_rng(fake_randbelow)
    assert calls == [7] and got.number == 7
    assert got.origin is Origin.STATION_RNG and got.action.drawn_by == "secrets"
    assert got.action.source is ActionSource.RNG
    assert "station RNG" in str(got)
    assert inspect.signature(draw_rng).parameters["randbelow"].default is secrets.randbelow


def test_rng_default_draws_every_number_1_to_7_and_nothing_else() -> None:
    seen = {draw_rng().number for _ in range(700)}
    assert seen == set(range(1, 8))


@pytest.mark.parametrize("text", ["3 5 6", "3,5,6", "3+5+6", "356", "3-5-6", " 3  5 6 "])
def test_dice_entered_by_the_dealer_total_three_dice_and_record_the_dealer(text: str) -> None:
    got = dice(text)
    assert got.number == 14 and got.action.dice == (3, 5, 6)
    assert got.origin is Origin.DEALER and got.action.source is ActionSource.DICE
    assert "entered by the dealer" in got.source


def test_dice_given_as_numbers_are_checked_the_same_way() -> None:
    assert dice([1, 1, 1]).number == 3 and dice((6, 6, 6)).number == 18
    with pytest.raises(ActionError, match="not 0"):
        dice([0, 1, 2])


@pytest.mark.parametrize("text, says", [
    ("3 7 2", "A die shows 1 to 6, not 7"),
    ("3 5", "three dice, got 2 (3 5)"),
    ("3 5 6 1", "three dice, got 4"),
    ("", "three dice, got 0 (nothing)"),
    ("3 x 6", "'x' is not a die"),
    ("12 3 4", "not 12"),
])
def test_dice_that_cannot_be_are_refused_with_what_to_enter(text: str, says: str) -> None:
    with pytest.raises(ActionError) as err:
        parse_dice(text)
    assert says in str(err.value) and "e.g. 3 5 6" in str(err.value)


def test_action_from_a_shuffler_over_serial_records_the_device_and_message() -> None:
    (event,) = ShoeParser().feed(encode_line("ACTION", 12, "RNG", "5"))
    assert isinstance(event, ActionRead)
    got = from_device(event, "ACME-7 2.3")
    assert got.number == 5 and got.origin is Origin.DEVICE and got.seq == 12
    assert got.action.drawn_by == "device" and got.source == "ACME-7 2.3, message 12"


def test_action_from_a_dice_shaker_over_serial_is_the_dice_total() -> None:
    (event,) = ShoeParser().feed(encode_line("ACTION", 3, "DICE", "6", "6", "5"))
    got = from_device(event)
    assert got.number == 17 and got.action.dice == (6, 6, 5)
    assert got.action.source is ActionSource.DICE and got.origin is Origin.DEVICE


def test_impossible_values_from_a_device_are_refused_with_what_to_do() -> None:
    with pytest.raises(ActionError, match="by hand"):
        from_device(ActionRead(1, "RNG", (9,)))
    with pytest.raises(ActionError, match="by hand"):
        from_device(ActionRead(1, "DICE", (1, 2, 7)))


def test_a_superscript_or_arabic_digit_is_not_a_die_and_is_said_so() -> None:
    # Found by the fault suite's fuzz: "³".isdigit() is True but int("³") raises a bare
    # ValueError, which the dealer session does not catch (a traceback at the table).
    from drivers.action import ActionError, dice
    for text in ("³ 1 2", "1 2 ٣"):
        with pytest.raises(ActionError, match="is not a die"):
            dice(text)
