"""Supervisors are people (issue 15, issue 17, DESIGN "Trust"): named accounts in the
ledger's database with argon2-hashed secrets; "every supervisor action records who did it";
"wrong tries stay limited and recorded, per person" and they survive a restart (slowing
the next try, issue 23: "a lock is not a weapon"; tests/ledger/test_wrong_tries.py);
"Store.correct() changes a settled position with no credential" no more; "no secret is
ever written to the ledger's rows, a log, a slip or a screen"."""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.cli import main
from app.core.round import Phase, Round
from app.ledger import Recording, Store
from app.ledger.chain import CHAINED
from app.ledger.models import Event, SettlementRow, SignIn, User
from app.ledger.people import NotAuthorised, Person
from app.settings import load_config

from ..clock import Clock, held
from .conftest import TABLE
from .enrolled import enroll
from .play import bets, play, record_rounds

MANAGER, MANAGER_SECRET = "Ana Ruiz", "ana-knows-77"
SUPERVISOR, SUPERVISOR_SECRET = "Pat Lee", "tiger-lily-42"
AUDITOR, AUDITOR_SECRET = "Dee Fox", "ledger-eyes-9"
WRONG = "wrong-guess-777"
STATION_PIN = "48291607351"  # long: no chance of meeting it among ids and times


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return held(monkeypatch)


def _people(store: Store) -> None:
    store.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
    ana = store.authorise(MANAGER, MANAGER_SECRET, "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=ana)
    store.add_person(AUDITOR, "auditor", AUDITOR_SECRET, by=ana)


def _settled(store: Store, seed: str, n: int = 1) -> list[Recording]:
    return [r for r in record_rounds(store, n, seed) if isinstance(r, Recording)]


def _line(rec: Recording) -> tuple[int, int]:
    slip = rec.game.slip
    assert slip is not None
    line = next(ln for ln in slip.lines if ln.outcome is not None)
    return line.position, line.net


def test_the_first_shift_manager_is_made_once_and_then_makes_the_others(store: Store) -> None:
    with pytest.raises(Exception, match="the first person is the shift manager"):
        store.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=None, first=True)
    _people(store)
    with pytest.raises(Exception, match="the ledger has people already"):
        store.add_person("Eve", "shift manager", "eve-secret-1", by=None, first=True)
    with pytest.raises(NotAuthorised, match="only a shift manager changes the people"):
        store.add_person("Eve", "pit supervisor", "eve-secret-1", by=None)
    with pytest.raises(NotAuthorised, match="a pit supervisor may not manage users"):
        store.authorise(SUPERVISOR, SUPERVISOR_SECRET, "manage users")
    accounts = {a.name: a for a in store.accounts()}
    assert (accounts[MANAGER].role, accounts[MANAGER].changed_by) == ("shift manager",
                                                                      "(installation)")
    assert (accounts[SUPERVISOR].role, accounts[SUPERVISOR].changed_by) == ("pit supervisor",
                                                                            MANAGER)


def test_secrets_are_kept_only_as_argon2_hashes_and_guessable_ones_are_refused(
        store: Store) -> None:
    _people(store)
    with Session(store.engine) as s:
        hashes = list(s.scalars(select(User.secret_hash)))
    assert hashes and all(h.startswith("$argon2id$") for h in hashes)
    ana = store.authorise(MANAGER, MANAGER_SECRET, "manage users")
    for weak in ("0000", "123456", "aaaaaaaa"):
        with pytest.raises(Exception, match="secret"):
            store.add_person("Eve", "pit supervisor", weak, by=ana)


def test_a_correction_takes_the_supervisor_s_own_secret_and_records_who(store: Store) -> None:
    _people(store)
    rec = _settled(store, "who")[0]
    position, net = _line(rec)
    with pytest.raises(NotAuthorised, match=r"^Wrong name or secret for Pat Lee: check both "
                                            r"and try again. Nothing was done.$"):
        store.correct(rec.round_id, position, net_cents=net + 500, reason="recount",
                      by=SUPERVISOR, secret=WRONG)
    with pytest.raises(NotAuthorised, match="an auditor may not correct"):
        store.correct(rec.round_id, position, net_cents=net + 500, reason="recount",
                      by=AUDITOR, secret=AUDITOR_SECRET)
    with Session(store.engine) as s:
        assert s.scalars(select(SettlementRow).where(SettlementRow.entry != "original")
                         ).all() == []
    done = store.correct(rec.round_id, position, net_cents=net + 500, reason="recount",
                         by=SUPERVISOR, secret=SUPERVISOR_SECRET)
    assert done.net_cents == net + 500
    with Session(store.engine) as s:
        rows = s.scalars(select(SettlementRow).where(SettlementRow.entry != "original")).all()
        event = s.scalars(select(Event).where(Event.kind == "correction")).one()
        tries = s.scalars(select(SignIn).where(SignIn.action == "correct")
                          .order_by(SignIn.at)).all()
    assert {r.by for r in rows} == {SUPERVISOR} and event.actor == SUPERVISOR
    authorised = json.loads(event.payload)["authorised"]
    assert authorised["role"] == "pit supervisor"
    assert [(t.name, t.ok) for t in tries] == [(SUPERVISOR, False), (AUDITOR, True),
                                               (SUPERVISOR, True)]
    assert authorised["sign_in"] == str(tries[-1].id)


def test_a_name_alone_or_a_made_up_person_authorises_nothing_once_there_are_people(
        store: Store) -> None:
    rec = _settled(store, "alone")[0]
    position, net = _line(rec)
    _people(store)
    with pytest.raises(NotAuthorised, match="needs the supervisor's name and their own "
                                            "secret"):
        store.correct(rec.round_id, position, net_cents=net, reason="x", by=SUPERVISOR)
    forged = Person(SUPERVISOR, "pit supervisor", "correct", uuid.uuid4())
    with pytest.raises(NotAuthorised, match="has not given their secret for this correct"):
        store.correct(rec.round_id, position, net_cents=net, reason="x", by=forged)
    game = Round(rec.game.rules, store.rotation())
    open_rec = store.begin(game)
    import random
    bets(game, random.Random(1), open_rec.save)
    with pytest.raises(NotAuthorised):
        open_rec.void("a card was exposed", by=SUPERVISOR)
    open_rec.void("a card was exposed", by=SUPERVISOR, secret=SUPERVISOR_SECRET)
    store.drain()
    with Session(store.engine) as s:
        void = s.scalars(select(Event).where(Event.kind == "round_voided")).one()
    assert void.actor == SUPERVISOR
    assert json.loads(void.payload)["authorised"]["role"] == "pit supervisor"


def test_wrong_tries_are_counted_in_the_database_and_a_restart_does_not_end_the_wait(
        store: Store, database_url: str, tmp_path: Path, clock: Clock) -> None:
    _people(store)
    clock.advance(1)  # the tries come after the people were added
    for _ in range(3):
        with pytest.raises(NotAuthorised, match="Wrong name or secret for Pat Lee"):
            store.authorise(SUPERVISOR, WRONG, "void")
    # this station started again (a new store, the same station): the next try still waits
    with Store(database_url, table=TABLE, station="station-a",
               data_dir=tmp_path / "again") as again:
        with pytest.raises(NotAuthorised, match="Too many wrong tries for Pat Lee: try "
                                                "again in 2 seconds"):
            again.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void")
        # the wait is the name's at this station: the manager is not held up by it
        ana = again.authorise(MANAGER, MANAGER_SECRET, "manage users")
        again.reset_person(SUPERVISOR, "new-lily-43", by=ana)
        assert again.authorise(SUPERVISOR, "new-lily-43", "void").name == SUPERVISOR
    assert [a.slowed_until for a in store.accounts() if a.name == SUPERVISOR] == [None]


def test_a_disabled_person_may_not_sign_in_and_each_change_is_a_new_row(store: Store) -> None:
    _people(store)
    ana = store.authorise(MANAGER, MANAGER_SECRET, "manage users")
    store.disable_person(SUPERVISOR, by=ana)
    with pytest.raises(NotAuthorised, match="Pat Lee's account is disabled"):
        store.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void")
    store.enable_person(SUPERVISOR, by=ana)
    assert store.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").role == "pit supervisor"
    with Session(store.engine) as s:
        versions = s.execute(select(User.version, User.change, User.disabled, User.changed_by)
                             .where(User.name == SUPERVISOR).order_by(User.version)).all()
    assert [tuple(v) for v in versions] == [(1, "added", False, MANAGER),
                                            (2, "disabled", True, MANAGER),
                                            (3, "enabled", False, MANAGER)]
    enroll(store, MANAGER, MANAGER_SECRET)
    (people,) = [r for r in store.verify() if r.chain == "people"]
    assert people.intact


def test_users_command_first_manager_then_add_list_disable_and_a_wrong_secret(
        database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    Store(database_url, table=TABLE, station="s", data_dir=tmp_path / "s").close()

    def users(stdin: str, *args: str) -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(["users", *args, "--database-url", database_url])
        out, err = capsys.readouterr()
        return code, out, err

    code, out, err = users("", "list")
    assert code == 0 and "nobody yet" in err
    code, out, _ = users(f"{MANAGER_SECRET}\n", "add", MANAGER, "--first")
    assert code == 0 and out.startswith(f"added: {MANAGER}")
    code, _, err = users("x-secret-88\n", "add", "Eve", "--first")
    assert code == 2 and "the ledger has people already" in err
    code, out, _ = users(f"{MANAGER_SECRET}\n{SUPERVISOR_SECRET}\n", "add", SUPERVISOR,
                         "--by", MANAGER)
    assert code == 0 and "pit supervisor" in out
    code, _, err = users(f"{WRONG}\n", "disable", SUPERVISOR, "--by", MANAGER)
    assert code == 2 and err.startswith("paigow users: Wrong name or secret for Ana Ruiz")
    code, out, _ = users(f"{MANAGER_SECRET}\n", "disable", SUPERVISOR, "--by", MANAGER)
    assert code == 0 and out.startswith("disabled: Pat Lee")
    code, out, _ = users("", "list", "--json")
    listed = {d["name"]: d for d in map(json.loads, out.splitlines())}
    assert listed[SUPERVISOR]["disabled"] and listed[MANAGER]["role"] == "shift manager"
    assert MANAGER_SECRET not in out and SUPERVISOR_SECRET not in out


def _everything_written(store: Store, database_url: str) -> bytes:
    """Every table of the ledger as text, and every file of the station's data folder (the
    journal, its WAL)."""
    out = []
    with store.engine.connect() as conn:
        for table in (*CHAINED, "chain"):
            for row in conn.execute(text(f"SELECT * FROM {table}")):
                out.append(repr(tuple(row)))
    blob = "\n".join(out).encode()
    for path in store.data_dir.rglob("*"):
        if path.is_file():
            blob += path.read_bytes()
    return blob


def test_no_secret_is_written_anywhere_after_a_shift(database_url: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture
                                                     ) -> None:
    """Known secrets, every supervisor action with right and wrong ones, and a station
    configured with a PIN: none of them is found in any table, the journal or a log."""
    monkeypatch.setenv("PAIGOW_SUPERVISOR__PIN", STATION_PIN)
    config = load_config(None)
    assert config.supervisor.pin == STATION_PIN
    caplog.set_level("DEBUG")
    with Store(database_url, table=TABLE, station="shift", data_dir=tmp_path / "d") as store:
        store.open_shift("Kim")
        _people(store)
        import random
        rng = random.Random("secrets")
        recs = []
        for _ in range(3):
            game = Round(config.round_rules(), store.rotation())
            rec = store.begin(game, config=config)
            play(game, rng, rec.save)
            if game.phase is Phase.SETTLED:
                recs.append(rec)
        position, net = _line(recs[0])
        with pytest.raises(NotAuthorised):
            store.correct(recs[0].round_id, position, net_cents=net, reason="x",
                          by=SUPERVISOR, secret=WRONG)
        store.correct(recs[0].round_id, position, net_cents=net + 25, reason="x",
                      by=SUPERVISOR, secret=SUPERVISOR_SECRET)
        ana = store.authorise(MANAGER, MANAGER_SECRET, "manage users")
        store.reset_person(AUDITOR, "fresh-secret-55", by=ana)
        game = Round(config.round_rules(), store.rotation())
        rec = store.begin(game, config=config)
        bets(game, rng, rec.save)
        rec.void("a card was exposed", by=SUPERVISOR, secret=SUPERVISOR_SECRET)
        store.close_shift()
        store.drain()
        written = _everything_written(store, database_url)
        with store.engine.connect() as conn:
            snapshot = conn.execute(text("SELECT config FROM rounds LIMIT 1")).scalar_one()
    assert "supervisor" not in json.loads(snapshot)["config"]
    logged = caplog.text.encode()
    for secret in (MANAGER_SECRET, SUPERVISOR_SECRET, AUDITOR_SECRET, WRONG,
                   "fresh-secret-55", STATION_PIN):
        assert secret.encode() not in written, secret
        assert secret.encode() not in logged, secret
