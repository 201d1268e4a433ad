"""Rows signed where they are made (issue 23, "Trust, part two"): a link is a record only
when a key a supervisor enrolled for that table signed it. The attacks are written as an
attacker would: rows by plain SQL, links by the published recipe with hashlib
(tests/ledger/forge.py), on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.ledger import Recording, Store
from app.ledger.chain import PEOPLE

from .conftest import TABLE
from .enrolled import MANAGER, MANAGER_SECRET, enroll
from .forge import forge_links, forged_correction, forged_sign_in
from .play import record_rounds


@pytest.fixture()
def played(store: Store) -> Store:
    enroll(store)
    assert [r for r in record_rounds(store, 2, "signed") if isinstance(r, Recording)]
    assert all(r.intact for r in store.verify())
    return store


def _problems(store: Store, chain: str = TABLE) -> list[tuple[str, str]]:
    (report,) = store.verify(chain)
    return [(p.kind, p.detail) for p in report.problems]


def test_a_5000_correction_linked_by_the_published_recipe_is_named_unsigned(
        played: Store, database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    forged = forged_correction(database_url)
    forge_links(database_url, TABLE, [("settlements", forged)])
    problems = _problems(played)
    assert [k for k, _ in problems] == ["unsigned"]
    assert forged in problems[0][1] and "no enrolled station wrote it" in problems[0][1]
    assert main(["ledger", "verify", "--database-url", database_url]) != 0
    assert "carries no signature" in capsys.readouterr().out


def test_a_forged_correction_counts_for_nothing_in_recall_totals_and_raises_a_floor_alert(
        played: Store, database_url: str, tmp_path: Path) -> None:
    from app.floor.anchoring import Anchoring
    from app.ledger import anchors
    from app.ledger.database import make_engine

    before = played.totals(table=TABLE)
    forged = forged_correction(database_url)
    forge_links(database_url, TABLE, [("settlements", forged)])
    after = played.totals(table=TABLE)
    assert (after.players_net_cents, after.corrections) == (before.players_net_cents,
                                                            before.corrections)
    assert after.left_out == 1 and "1 settlement row(s) left out" in after.text()
    (recalled,) = [played.recall(r.id) for r in played.history()
                   if not played.recall(r.id).match]
    assert "correction" in recalled.verdict and "counts for nothing" in recalled.verdict
    engine = make_engine(database_url)
    raised = Anchoring(engine, tmp_path / anchors.CHECKPOINTS).run(anchors.datetime.now())
    engine.dispose()
    assert [(a.kind, a.table) for a in raised] == [("chain", TABLE)]
    # The pit is told which row and link in its words; `paigow ledger verify` names the id.
    assert "does not verify: its link " in raised[0].text, raised[0].text
    assert "signed by no enrolled station" in raised[0].text, raised[0].text


def test_a_row_in_no_link_raises_a_floor_alert_in_the_pits_words(
        played: Store, database_url: str, tmp_path: Path) -> None:
    from app.floor.anchoring import Anchoring
    from app.ledger import anchors
    from app.ledger.database import make_engine

    forged_correction(database_url)  # plain SQL, and no link made for it
    engine = make_engine(database_url)
    raised = Anchoring(engine, tmp_path / anchors.CHECKPOINTS).run(anchors.datetime.now())
    engine.dispose()
    assert [(a.kind, a.table) for a in raised] == [("chain", TABLE)]
    assert "a settlements row" in raised[0].text
    assert "is in no link of the chain (written behind the ledger's back)" in raised[0].text
    assert "unchained" not in raised[0].text


def test_a_correction_whose_supervisor_s_sign_in_was_forged_is_not_authorised(
        played: Store, database_url: str) -> None:
    """The station's own code path, handed a forged "ok" (plain SQL, linked by the recipe):
    the correction is recorded, and recall says its approval counts for nothing."""
    import uuid

    from app.ledger.people import Person

    forged = forged_sign_in(database_url, MANAGER)
    forge_links(database_url, PEOPLE, [("sign_ins", forged)])
    (last,) = played.history(limit=1)
    played.correct(last.id, last.seats[0], net_cents=0, reason="recount",
                   by=Person(MANAGER, "shift manager", "correct", uuid.UUID(forged)))
    verdict = played.recall(last.id).verdict
    assert verdict.startswith("MISMATCH") and "names a supervisor's sign-in that is no " \
        "record, so it was not authorised" in verdict and forged in verdict


def test_a_link_that_borrows_a_station_s_key_id_without_its_key_is_named_forged(
        played: Store, database_url: str) -> None:
    forged = forged_correction(database_url)
    forge_links(database_url, TABLE, [("settlements", forged)],
                key_id=played.signer.key_id, sign=lambda entry: "ab" * 64)
    assert [k for k, _ in _problems(played)] == ["forged"]


def test_a_forged_ok_sign_in_is_named_in_the_people_s_chain(played: Store,
                                                             database_url: str) -> None:
    forged = forged_sign_in(database_url, MANAGER)
    forge_links(database_url, PEOPLE, [("sign_ins", forged)])
    problems = _problems(played, PEOPLE)
    assert [k for k, _ in problems] == ["unsigned"] and forged in problems[0][1]


def test_a_key_no_supervisor_enrolled_makes_no_record(played: Store, database_url: str,
                                                       tmp_path: Path) -> None:
    with Store(database_url, table=TABLE, station="rogue-pc",
               data_dir=tmp_path / "rogue") as rogue:
        rogue.note("a note", {"why": "to be counted"}, by=None)
        problems = _problems(played)
    assert {k for k, _ in problems} == {"unenrolled"}
    assert "which no supervisor has enrolled" in problems[0][1]


def test_a_revoked_key_signs_nothing_after_its_revocation(played: Store) -> None:
    by = played.authorise(MANAGER, MANAGER_SECRET, "enroll")
    played.revoke(played.signer.key_id[:8], "the PC was stolen", by)
    played.note("after", {"why": "written with a revoked key"}, by=None)
    problems = _problems(played)
    assert problems and {k for k, _ in problems} == {"revoked"}
    assert "the PC was stolen" not in problems[0][1]  # the reason is in the key's row
    assert [k.enrolled for k in played.keys()] == [False]


def test_a_station_of_another_table_cannot_sign_this_table_s_records(
        played: Store, database_url: str, tmp_path: Path) -> None:
    with Store(database_url, table="PG-2", station="pg-2",
               data_dir=tmp_path / "pg2") as other:
        enroll(other)
        forged = forged_correction(database_url)
        forge_links(database_url, TABLE, [("settlements", forged)],
                    key_id=other.signer.key_id, sign=other.signer.sign)
    problems = _problems(played)
    assert [k for k, _ in problems] == ["wrong table"]
    assert "a station of table PG-2, not of PG-1" in problems[0][1]


def test_stations_enroll_list_and_revoke_from_the_command_line(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import io

    store = Store(database_url, table=TABLE, station="new-pc", data_dir=tmp_path / "new")
    store.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
    data = str(store.data_dir)
    common = ["--database-url", database_url]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{MANAGER_SECRET}\n"))
    assert main(["stations", "enroll", "--by", MANAGER, "--data-dir", data, *common]) == 0
    out = capsys.readouterr().out
    shown = " ".join(store.signer.key_id[i:i + 4] for i in range(0, 16, 4))
    assert out.startswith(f"enrolled: {shown}")
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{MANAGER_SECRET}\n"))
    assert main(["stations", "enroll", "--by", MANAGER, "--data-dir", data, *common]) == 2
    assert "is enrolled already" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("wrong-secret-1\n"))
    assert main(["stations", "revoke", store.signer.key_id[:6], "--reason", "stolen",
                 "--by", MANAGER, *common]) == 2
    assert "Wrong name or secret" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{MANAGER_SECRET}\n"))
    assert main(["stations", "revoke", store.signer.key_id[:6], "--reason", "stolen",
                 "--by", MANAGER, *common]) == 0
    assert main(["stations", "list", "--data-dir", data, *common]) == 0
    out, err = capsys.readouterr()
    assert shown in out and "revoked by" in out and f"{shown} (revoked)" in err
    store.close()
