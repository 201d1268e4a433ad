"""The fault suite's short form, in `make test` (the long form is `make soak`): every fault
of issues 15, 17 and 23 made on purpose and what it cost counted; each count must be 0.
Each fault is a test of its own (one that cannot be made fails alone, and the faults run
side by side under xdist); each prints its row of the table (pytest -s shows it;
`python -m tests.faults` prints the whole table)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.ledger.pg import PgServer

from . import suite
from .suite import PROOF_KILLS, PROOF_RESTARTS, SHORT

pytestmark = pytest.mark.slow  # each fault starts station processes (half a minute and more)


def counted(make: Callable[[], suite.Row]) -> suite.Row:
    row = suite.timed(make)
    print("\n" + suite.table([row]))
    return row


def _zero(row: suite.Row) -> None:
    assert row.trials > 0
    assert row.ok, f"{row.fault}: {row.counts}"


def test_garbage_truncated_duplicated_reordered_frames_and_an_unplug_lose_no_card() -> None:
    _zero(counted(lambda: suite.shoe_frames(SHORT.shoe_rounds)))


def test_a_shoe_without_shuffle_losing_or_damaging_its_first_card_misplaces_no_card() -> None:
    row = counted(lambda: suite.card_only_frames(SHORT.shoe_rounds))
    _zero(row)
    assert row.trials == len(suite.CARD_ONLY_FAULTS)


def test_a_megabyte_of_line_noise_neither_freezes_the_window_nor_floods_the_dealer() -> None:
    row = counted(lambda: suite.noisy_line(SHORT.noise_trials))
    _zero(row)
    assert row.trials == 2


def test_a_restart_mid_deal_loses_and_misplaces_no_card() -> None:
    _zero(counted(lambda: suite.restart_mid_deal(SHORT.restarts)))


@pytest.mark.proof  # more restarts, at other moments than make test's
def test_six_restarts_mid_deal_lose_and_misplace_no_card() -> None:
    row = counted(lambda: suite.restart_mid_deal(PROOF_RESTARTS, seed=1706))
    _zero(row)
    assert row.trials == PROOF_RESTARTS


def test_kill_9_at_random_moments_loses_doubles_and_half_writes_no_round() -> None:
    row = counted(lambda: suite.kill_9(SHORT.kills))
    _zero(row)
    assert row.seen["open round resumed"] + row.seen["killed between rounds"] == row.trials


@pytest.mark.proof  # more kills, at other moments than make test's
def test_twenty_kill_9s_lose_double_and_half_write_no_round() -> None:
    row = counted(lambda: suite.kill_9(PROOF_KILLS, seed=2009))
    _zero(row)
    assert row.seen["open round resumed"] + row.seen["killed between rounds"] == PROOF_KILLS


def test_two_stations_with_one_identity_are_never_merged(pg_up: PgServer,
                                                         pg_template: str) -> None:
    row = counted(lambda: suite.same_identity(pg_up, pg_template))
    _zero(row)
    assert row.seen["clone refused at start"] == 1


def test_postgresql_restarted_under_four_writers_loses_and_doubles_no_row(
        pg_up: PgServer) -> None:
    row = counted(lambda: suite.pg_restart(pg_up, SHORT.pg_rounds, SHORT.pg_outages))
    _zero(row)
    assert row.seen["rounds settled"] == row.trials


def test_a_full_disk_stops_the_wagers_says_why_and_loses_nothing() -> None:
    _zero(counted(lambda: suite.disk_full(SHORT.disk_trials)))


def test_the_fuzz_of_every_parser_finds_no_traceback() -> None:
    row = counted(lambda: suite.fuzz(SHORT.fuzz_examples))
    _zero(row)
    assert set(row.seen) == {"cards", "money", "dice", "config", "round files",
                             "recorded sessions", "shoe line"}


def test_records_forged_with_a_database_login_or_by_the_owner_are_never_taken_for_records() -> None:
    row = counted(lambda: suite.forged_records(SHORT.forgeries))
    _zero(row)
    assert set(row.counts) == {"forged rows taken for records", "forged corrections counted",
                               "forged sign-ins counted", "rewrites missed by a slip's code",
                               "cuts missed by the checkpoints"}
