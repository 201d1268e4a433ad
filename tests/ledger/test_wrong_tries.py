"""A lock is not a weapon (issue 23, item 5): wrong tries slow the next try of a name, per
source (a station, a floor client's address) and, less, for the name everywhere, instead
of locking the person out of every station; the answer is the same for a real name and an
unknown one; rows forged with the database's login (plain SQL, as an attacker with that
login writes them) cannot make a wait that outlives a reset or a date ahead, and a right
try ends only its own source's wait.

The rule (docs/ledger.md, "People"), in the numbers these tests hold it to: the first 3
wrong tries of a name from one source cost nothing, then the next try from there waits 2,
4, 8 ... seconds, at most 5 minutes; 10 wrong tries of the name from every source together
make every source wait 2, 4, 8 ... seconds, at most 30."""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select, text

from app.ledger import Store, people
from app.ledger.chain import LedgerSession, append
from app.ledger.keys import Signer
from app.ledger.models import SignIn, now
from app.ledger.people import NotAuthorised

from ..clock import Clock, held
from .conftest import TABLE
from .enrolled import enrolled_key

MANAGER, MANAGER_SECRET = "Ana Ruiz", "ana-knows-77"
SUPERVISOR, SUPERVISOR_SECRET = "Pat Lee", "tiger-lily-42"
WRONG = "wrong-guess-777"
FREE = 3  # wrong tries from one source that cost nothing
NAME_FREE = 10  # wrong tries of a name from every source together that cost nothing
CAP = 300  # seconds: the longest wait of one source
NAME_CAP = 30  # seconds: the longest wait a name's tries from elsewhere make


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return held(monkeypatch)


@pytest.fixture()
def ledger(store: Store) -> Store:
    store.add_person(MANAGER, "shift manager", MANAGER_SECRET, by=None, first=True)
    ana = store.authorise(MANAGER, MANAGER_SECRET, "manage users")
    store.add_person(SUPERVISOR, "pit supervisor", SUPERVISOR_SECRET, by=ana)
    return store


@pytest.fixture()
def station_b(database_url: str, tmp_path: Path) -> Iterator[Store]:
    with Store(database_url, table=TABLE, station="station-b", data_dir=tmp_path / "b") as b:
        enrolled_key(b)  # its tries count at other stations only once it is enrolled
        yield b


def forge(engine: Engine, name: str, *, ok: bool, station: str, at: datetime,
          n: int = 1, signer: Signer | None = None) -> None:
    """`n` sign-in rows written with plain SQL, as someone holding the database's login
    would write them (no chain link, no signature): the values in the form the backend
    keeps them. With `signer`: tries an enrolled station or floor recorded (linked and
    signed by its key), standing for real tries made elsewhere."""
    sqlite = engine.dialect.name == "sqlite"
    ids = [uuid.uuid4() for _ in range(n)]
    rows = [{"id": i.bytes if sqlite else i, "name": name, "ok": ok, "station": station,
             "at": at.strftime("%Y-%m-%d %H:%M:%S.%f") if sqlite else at} for i in ids]
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO sign_ins (id, name, action, ok, station, at) "
                          "VALUES (:id, :name, 'void', :ok, :station, :at)"), rows)
        if signer is not None:
            append(conn, [("sign_ins", str(i)) for i in ids], signer)


def refusal(store: Store, name: str, secret: str) -> str:
    with pytest.raises(NotAuthorised) as got:
        store.authorise(name, secret, "void")
    return str(got.value)


def wait_of(text_: str) -> int:
    """The seconds a refusal says to wait (0: it says none)."""
    found = re.search(r"try again in (?:(\d+) minutes?)? ?(?:(\d+) seconds?)?", text_)
    if found is None:
        return 0
    return int(found.group(1) or 0) * 60 + int(found.group(2) or 0)


def tries(store: Store, name: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(SignIn)
                               .where(SignIn.name == name)) or 0)


def test_wrong_tries_slow_the_name_at_that_station_and_not_the_person_elsewhere(
        ledger: Store, station_b: Store, clock: Clock) -> None:
    for _ in range(FREE - 1):
        said = refusal(ledger, SUPERVISOR, WRONG)
        assert said.startswith(f"Wrong name or secret for {SUPERVISOR}") and wait_of(said) == 0
    assert wait_of(refusal(ledger, SUPERVISOR, WRONG)) == 2
    # The next try here waits, the right secret too: refused unchecked, and not counted.
    counted = tries(ledger, SUPERVISOR)
    said = refusal(ledger, SUPERVISOR, SUPERVISOR_SECRET)
    assert said.startswith(f"Too many wrong tries for {SUPERVISOR}") and wait_of(said) == 2
    assert "was not checked" in said and tries(ledger, SUPERVISOR) == counted
    # The real supervisor at another table is not held up by them.
    assert station_b.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    clock.advance(2)
    assert ledger.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR


def test_each_wrong_try_past_the_free_ones_doubles_the_wait_up_to_five_minutes(
        ledger: Store, clock: Clock) -> None:
    waits = []
    for _ in range(FREE + 9):
        waits.append(wait_of(refusal(ledger, SUPERVISOR, WRONG)))
        clock.advance(waits[-1])
    assert waits == [0, 0, 2, 4, 8, 16, 32, 64, 128, 256, CAP, CAP]


def test_wrong_tries_from_every_source_slow_the_name_by_at_most_30_seconds(
        ledger: Store, station_b: Store, clock: Clock) -> None:
    forge(ledger.engine, SUPERVISOR, ok=False, station="floor 10.0.0.7", at=clock.at,
          n=NAME_FREE - 1, signer=ledger.signer)
    assert wait_of(refusal(station_b, SUPERVISOR, WRONG)) == 2  # the name's 10th
    said = refusal(ledger, SUPERVISOR, SUPERVISOR_SECRET)  # a station with none of its own
    assert said.startswith(f"Too many wrong tries for {SUPERVISOR}") and wait_of(said) == 2
    clock.advance(2)
    assert ledger.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    forge(ledger.engine, SUPERVISOR, ok=False, station="floor 10.0.0.8", at=clock.at, n=500)
    # rows slipped in with the database's login count for nothing (no enrolled key signed)
    assert ledger.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    forge(ledger.engine, SUPERVISOR, ok=False, station="floor 10.0.0.8", at=clock.at, n=500,
          signer=ledger.signer)
    assert wait_of(refusal(ledger, SUPERVISOR, SUPERVISOR_SECRET)) == NAME_CAP
    clock.advance(NAME_CAP)
    assert ledger.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR


def test_forged_wrong_tries_dated_ahead_slow_nobody_and_a_reset_lifts_any_wait(
        ledger: Store) -> None:
    engine = ledger.engine
    for station in ("station-a", "station-b", "floor 10.0.0.7"):
        forge(engine, SUPERVISOR, ok=False, station=station,
              at=datetime.fromisoformat("2099-01-01T00:00:00+00:00"), n=20)
        forge(engine, SUPERVISOR, ok=False, station=station,
              at=now() + timedelta(minutes=2), n=20)
    assert ledger.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    assert [a.slowed_until for a in ledger.accounts() if a.name == SUPERVISOR] == [None]
    # Forged tries dated now count for nothing either: no enrolled key signed them.
    forge(engine, SUPERVISOR, ok=False, station="station-a", at=now(), n=50)
    assert ledger.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    # Real wrong tries (signed) make a wait; a shift manager's reset is a new version of the
    # person, and the wait goes with it.
    forge(engine, SUPERVISOR, ok=False, station="station-a", at=now(), n=50,
          signer=ledger.signer)
    assert refusal(ledger, SUPERVISOR, SUPERVISOR_SECRET).startswith("Too many wrong tries")
    ana = ledger.authorise(MANAGER, MANAGER_SECRET, "manage users")
    ledger.reset_person(SUPERVISOR, "new-lily-43", by=ana)
    assert ledger.authorise(SUPERVISOR, "new-lily-43", "void").name == SUPERVISOR


def test_a_forged_ok_does_not_hide_wrong_guesses_from_the_name_s_own_count(
        ledger: Store, clock: Clock) -> None:
    """The attacker's trick: an "ok" row of their own after every few wrong guesses (41
    guesses and no lock before). A forged ok is no record: it ends no wait at all."""
    checked = 0
    for guess in range(41):
        said = refusal(ledger, SUPERVISOR, f"guess-{guess:06d}")
        if said.startswith("Too many wrong tries"):
            forge(ledger.engine, SUPERVISOR, ok=True, station=ledger.station, at=clock.at)
            said = refusal(ledger, SUPERVISOR, f"guess-{guess:06d}")
            if said.startswith("Too many wrong tries"):
                break
        checked += 1
    assert checked == FREE
    assert "nothing was done" in said.lower() and wait_of(said) == 2


def test_a_right_try_ends_only_its_own_source_s_wait(ledger: Store, station_b: Store,
                                                     clock: Clock) -> None:
    for _ in range(FREE):
        refusal(ledger, SUPERVISOR, WRONG)
    assert station_b.authorise(SUPERVISOR, SUPERVISOR_SECRET, "void").name == SUPERVISOR
    forge(ledger.engine, SUPERVISOR, ok=True, station="floor 10.0.0.7", at=clock.at)
    said = refusal(ledger, SUPERVISOR, SUPERVISOR_SECRET)
    assert said.startswith("Too many wrong tries") and wait_of(said) == 2


def test_an_unknown_name_gets_the_same_answers_and_the_same_hash_checks_as_a_real_one(
        ledger: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    hasher = people._hasher
    checks: list[str] = []

    class Counting:
        def hash(self, secret: str) -> str:
            return hasher.hash(secret)

        def verify(self, hash_: str, secret: str) -> bool:
            checks.append(secret)
            return bool(hasher.verify(hash_, secret))

        def hash_with(self, prefix: str, secret: str) -> str | None:  # on PostgreSQL
            checks.append(secret)
            return hasher.hash_with(prefix, secret)

    monkeypatch.setattr(people, "_hasher", Counting())
    for n in range(FREE + 2):
        real = refusal(ledger, SUPERVISOR, f"{WRONG}-{n}")
        real_checks, checks[:] = len(checks), []
        unknown = refusal(ledger, "Mallory Vance", f"{WRONG}-{n}")
        assert unknown.replace("Mallory Vance", "X") == real.replace(SUPERVISOR, "X")
        assert len(checks) == real_checks, (n, real)
        checks[:] = []


def test_tries_sent_at_once_from_one_station_are_counted_one_by_one(
        ledger: Store, clock: Clock) -> None:
    for _ in range(FREE - 1):
        refusal(ledger, SUPERVISOR, WRONG)
    start = threading.Barrier(6)
    answers: list[str] = []

    def guess(n: int) -> None:
        start.wait()
        with LedgerSession(ledger._writes) as s, s.begin():
            got = people.authorise(s, SUPERVISOR, f"{WRONG}-{n}", "void", ledger.station)
        answers.append(str(got))

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a.split(":")[0] for a in answers) == (
        [f"Too many wrong tries for {SUPERVISOR}"] * 5 + [f"Wrong name or secret for "
                                                           f"{SUPERVISOR}"])
    assert tries(ledger, SUPERVISOR) == FREE
