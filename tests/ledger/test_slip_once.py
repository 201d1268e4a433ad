"""The ledger keeps each fact once (migration 0013, issue 24): a settled round's slip is
stored less what its round, hands and settlements rows hold, its words are rendered from
it, and an event keeps what was done less what the replay makes again. A ledger written
before keeps its whole slips, words and records, and reads, recalls, replays and verifies
as it did, beside the rounds written after."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.ledger import Store
from app.ledger.codec import decode_rotation, decode_rules, replay
from app.ledger.models import Event, RoundRow
from app.ledger.slips import KEPT

from .conftest import TABLE
from .play import record_rounds


def _settled_ids(store: Store) -> list[str]:
    with Session(store.engine) as s:
        return [str(i) for i in s.scalars(select(RoundRow.id).where(
            RoundRow.status == "settled").order_by(RoundRow.started_at))]


def _reads_whole(store: Store, round_id: str) -> None:
    """The round's slip reads back as the core settles its records again, word for word
    and key for key, and recall finds the money as the cards and rules pay it."""
    with Session(store.engine) as s:
        row = s.get(RoundRow, uuid.UUID(round_id))
        assert row is not None
        payloads = list(s.scalars(select(Event.payload).where(
            Event.round_id == row.id, Event.seq > 0).order_by(Event.seq)))
        game = replay(decode_rules(json.loads(row.config)["rules"]),
                      decode_rotation(json.loads(row.rotation)),
                      [json.loads(p) for p in payloads])
    assert game.slip is not None
    stored = store.slip(round_id)
    assert stored.text == game.slip.text()
    assert stored.data() == game.slip.to_dict()
    recalled = store.recall(round_id)
    assert recalled.match, recalled.differences


def test_a_settled_round_keeps_its_slip_once_and_no_words_the_core_renders(
        store: Store) -> None:
    record_rounds(store, 6, "once")
    ids = _settled_ids(store)
    assert ids
    with Session(store.engine) as s:
        for row in s.scalars(select(RoundRow).where(RoundRow.status == "settled")):
            kept = json.loads(row.slip_json or "{}")
            assert kept["schema"] == KEPT and row.slip_text is None
            # what the rows hold is not in it: no cards, no settings, no money per line
            assert "table" not in kept and "totals" not in kept
            assert all(set(line) <= {"position", "front", "back", "order", "note"}
                       for line in kept["positions"])
        for payload in s.scalars(select(Event.payload).where(Event.seq > 0)):
            record = json.loads(payload)
            assert "rule" not in record or record["type"] == "misdealt"
            assert "cards" not in record.get("hand", {})
    for round_id in ids:
        _reads_whole(store, round_id)
    (report,) = store.verify(TABLE)
    assert report.intact, report.text()


def test_rounds_written_before_the_slip_was_kept_once_read_recall_and_verify_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds a station of migration 0012 wrote (the whole slip and its words in the
    round's row, every record whole in its event) read, recall, replay and verify after the
    upgrade, beside rounds written after it."""
    from app.ledger import apply, slips
    from app.ledger.codec import stored_record
    from app.ledger.database import make_engine, migrate

    from .enrolled import enrolled_key
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = make_engine(url)
    migrate(engine, "0012_chain_per_transaction")
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d",
               migrate_now=False) as old:
        old._migrated = True  # a station of 0012: it kept everything whole
        with monkeypatch.context() as m:
            m.setattr(slips, "kept", lambda s, rnd, slip: dict(slip))
            m.setattr(apply, "slip_text", lambda slip: None)  # its words: always stored
            m.setattr(apply, "stored_record", lambda record: (
                {"type": "settled"} if record["type"] == "settled" else record))
            enrolled_key(old)
            old.open_shift("Kim")
            record_rounds(old, 3, "before")
            assert old.status().pending == 0
    before = set()
    with Session(make_engine(url)) as s:
        for row in s.scalars(select(RoundRow).where(RoundRow.status == "settled")):
            assert json.loads(row.slip_json or "{}")["schema"] == "paigow.slip/1"
            assert row.slip_text
            before.add(str(row.id))
        assert any(json.loads(p) != stored_record(json.loads(p))
                   for p in s.scalars(select(Event.payload).where(Event.seq > 0)))
    assert before
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    with Store(url, table=TABLE, station="old", data_dir=tmp_path / "d") as store:
        record_rounds(store, 3, "after")
        ids = _settled_ids(store)
        assert before < set(ids)
        for round_id in ids:
            _reads_whole(store, round_id)
        (report,) = store.verify(TABLE)
        assert report.intact, report.text()


def test_a_ledger_keeping_slips_once_is_not_taken_back_past_it(store: Store) -> None:
    """A station older than 0013 would read a kept slip as the whole one: the downgrade
    refuses, and the ledger stays as it was."""
    from alembic import command

    from app.ledger.database import alembic_config
    record_rounds(store, 2, "down")
    cfg = alembic_config()
    with pytest.raises(RuntimeError, match="not taken back past it"), \
            store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0012_chain_per_transaction")
    (report,) = store.verify(TABLE)
    assert report.intact
    for round_id in _settled_ids(store):
        assert store.slip(round_id).text
