"""The chain is checked while the tables play (issue 25, found by the floor's screen check):
a table's page walks its chain on every load and the floor's anchoring every five minutes,
while the stations go on writing. A walk that read the links, and then the rows after a
station had added some, called the new rows "written behind the ledger's back" and the
round's changed row "edited": a pit boss saw BROKEN on a live table, and the floor raised
"Ledger changed" for nothing. The walk reads one snapshot of the database."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from app.floor.anchoring import Anchoring
from app.ledger import Store, chain

from .conftest import TABLE
from .play import record_rounds


@pytest.fixture()
def written_midway(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A round recorded, then the next one recorded by the station between the walk's
    read of the links and its read of the rows (what a live table does at any moment)."""
    record_rounds(store, 1, "first")
    rows_of = chain._rows_of
    written: list[int] = []

    def rows_while_a_round_is_written(conn: Connection, name: str, table: str,
                                      secrets: bool = True) -> Iterator[Mapping[str, object]]:
        if not written:
            written.append(len(record_rounds(store, 1, "second")))
        return rows_of(conn, name, table, secrets)

    monkeypatch.setattr(chain, "_rows_of", rows_while_a_round_is_written)
    return written


def test_a_chain_checked_while_a_station_writes_is_intact(
        store: Store, written_midway: list[int]) -> None:
    (report,) = store.verify(TABLE)
    assert written_midway == [1]
    assert report.intact, report.text()
    (after,) = store.verify(TABLE)
    assert after.intact and after.rows > report.rows  # the second round, read next time


def test_the_floors_anchoring_raises_no_alert_while_a_station_writes(
        store: Store, written_midway: list[int], tmp_path) -> None:
    from datetime import UTC, datetime

    found = Anchoring(store.engine, tmp_path / "checkpoints").run(datetime.now(UTC))
    assert written_midway == [1]
    assert found == []
    with Session(store.engine) as s:  # and the chain is whole indeed
        assert chain.verify(s.connection(), TABLE).intact
