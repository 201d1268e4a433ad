"""The fault suite's short form, in `make test` (the long form is `make soak`): every fault
of issues 15, 17 and 23 made on purpose and what it cost counted; each count must be 0. The
table is printed (pytest -s shows it; `python -m tests.faults` prints it alone)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import suite


@pytest.fixture(scope="module")
def counted() -> Iterator[dict[str, suite.Row]]:
    rows = suite.run(suite.SHORT, say=lambda _line: None)
    print("\n" + suite.table(rows))
    yield {r.fault.split(":")[0].split(" (")[0]: r for r in rows}


def _zero(row: suite.Row) -> None:
    assert row.trials > 0
    assert row.ok, f"{row.fault}: {row.counts}"


def test_garbage_truncated_duplicated_reordered_frames_and_an_unplug_lose_no_card(
        counted: dict[str, suite.Row]) -> None:
    _zero(counted["shoe frames"])


def test_a_shoe_without_shuffle_losing_or_damaging_its_first_card_misplaces_no_card(
        counted: dict[str, suite.Row]) -> None:
    row = counted["card-only shoe frames"]
    _zero(row)
    assert row.trials == len(suite.CARD_ONLY_FAULTS)


def test_a_megabyte_of_line_noise_neither_freezes_the_window_nor_floods_the_dealer(
        counted: dict[str, suite.Row]) -> None:
    row = counted["a noisy line"]
    _zero(row)
    assert row.trials == 2


def test_a_restart_mid_deal_loses_and_misplaces_no_card(counted: dict[str, suite.Row]) -> None:
    _zero(counted["restart mid-deal"])


def test_kill_9_at_random_moments_loses_doubles_and_half_writes_no_round(
        counted: dict[str, suite.Row]) -> None:
    row = counted["kill -9 of a station at a random save"]
    _zero(row)
    assert row.seen["open round resumed"] + row.seen["killed between rounds"] == row.trials


def test_two_stations_with_one_identity_are_never_merged(
        counted: dict[str, suite.Row]) -> None:
    row = counted["two stations, one identity"]
    _zero(row)
    assert row.seen["clone refused at start"] == 1


def test_postgresql_restarted_under_four_writers_loses_and_doubles_no_row(
        counted: dict[str, suite.Row]) -> None:
    row = next(r for k, r in counted.items() if k.startswith("PostgreSQL restarted"))
    _zero(row)
    assert row.seen["rounds settled"] == row.trials


def test_a_full_disk_stops_the_wagers_says_why_and_loses_nothing(
        counted: dict[str, suite.Row]) -> None:
    _zero(counted["disk full on the SQLite ledger"])


def test_the_fuzz_of_every_parser_finds_no_traceback(counted: dict[str, suite.Row]) -> None:
    row = counted["fuzz"]
    _zero(row)
    assert set(row.seen) == {"cards", "money", "dice", "config", "round files",
                             "recorded sessions", "shoe line"}


def test_records_forged_with_a_database_login_or_by_the_owner_are_never_taken_for_records(
        counted: dict[str, suite.Row]) -> None:
    row = counted["forged records"]
    _zero(row)
    assert set(row.counts) == {"forged rows taken for records", "forged corrections counted",
                               "forged sign-ins counted", "rewrites missed by a slip's code",
                               "cuts missed by the checkpoints"}
