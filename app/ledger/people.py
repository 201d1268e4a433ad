"""Supervisors are people: named accounts in the ledger's database, shared by every station
and the pit floor, each secret (a PIN or a password) kept only as an argon2 hash.

- `users` holds a new row for every change of an account (added, disabled, enabled,
  reset), with who made it and when; a person is their newest row. The table only grows.
- `sign_ins` holds every try of a secret for an action, right or wrong, and where it came
  from (`station`: the station's name, or "floor " and the browser's address); never the
  secret. It lives in the database: a restart clears nothing.
- Wrong tries slow the next try; they never lock anyone out (a lock was a weapon: anyone
  who could reach the floor's page locked a supervisor out of every station). The next
  try of a name from a source waits:
    * after that source's wrong tries of the name: none for the first `FREE`, then 2, 4,
      8 ... seconds, at most `CAP`; a right try from the source starts its count again
      (and only its own: a right answer, or an "ok" row written by someone else, does not
      buy another source more guesses);
    * after the name's wrong tries from every source together: none for the first
      `NAME_FREE`, then 2, 4, 8 ... seconds, at most `NAME_CAP` (a guesser spread over
      many sources is slowed, the real person elsewhere waits seconds, never a shift).
  Only tries since the person's account last changed (so `paigow users reset` lifts any
  wait at once), within `MEMORY`, and not dated ahead of now by more than `SKEW` (a row
  dated 2099 slows nobody) are counted. A try while its wait runs is refused without its
  secret being checked, and is not a try (it is not written, and does not make the wait
  longer). An unknown name is counted and answered exactly as a real one, with as much
  hashing, so neither the words nor the time say which names exist.
- On PostgreSQL a secret is checked without its hash being read (a station's login may
  not read `users.secret_hash`: an offline guess of a PIN takes hours): the database gives
  the hash's parameters and salt (`paigow_secret_salt`), the caller hashes the secret with
  them, and the database compares (`paigow_secret_matches`, which also paces the checks
  of a name whoever calls it; migration 0010_secrets). One path for every login. On SQLite
  (a station's own file) the hash is read and checked here.
- `authorise(name, secret, action)` is what every supervisor operation calls first; it
  returns the `Person`, whose `sign_in` is the id of the right try it made. The operation
  checks that try (a person, the action, a moment ago) in its own transaction and records
  who did it.

The first shift manager: `add(..., first=True)` only while there is nobody at all
(`paigow users add NAME --first` at installation); every later change is made by a shift
manager who gives their own secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher, Type
from argon2.exceptions import HashingError, InvalidHashError, VerificationError
from argon2.low_level import hash_secret
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from .chain import SIGNER, untrusted
from .errors import LedgerError, NotAuthorised
from .models import SignIn, User, now

ROLES = ("pit supervisor", "supervisor", "shift manager", "auditor")
SUPERVISORS = frozenset({"pit supervisor", "supervisor", "shift manager"})
ACTIONS: dict[str, frozenset[str]] = {
    "void": SUPERVISORS,  # a round in play abandoned
    "correct": SUPERVISORS,  # a settled position corrected
    "misdeal": SUPERVISORS,
    "override": SUPERVISORS,
    "bonus": SUPERVISORS,  # a bonus payout at the house's threshold approved (issue 26)
    "progressive": SUPERVISORS,  # a progressive hit paid from the meter (issue 27)
    "close": SUPERVISORS,  # the station closed
    "enroll": SUPERVISORS,  # a station's signing key enrolled or revoked
    "manage users": frozenset({"shift manager"}),
    "read": frozenset(ROLES),  # the floor's pages; an auditor reads only
}
FREE = 3  # wrong tries of a name from one source before its next try there waits
CAP = timedelta(minutes=5)  # the longest wait of one source
NAME_FREE = 10  # wrong tries of a name from every source together before every source waits
NAME_CAP = timedelta(seconds=30)  # the longest wait the name's tries elsewhere make
SKEW = timedelta(minutes=1)  # a clock this far ahead is believed; a try dated later is not
MEMORY = timedelta(days=1)  # wrong tries older than this are forgotten
FRESH = timedelta(minutes=5)  # how long a right try stands for the operation it was for
# On PostgreSQL the database paces the checks of a name itself (migration 0010_secrets:
# 20 at once, then one every 30 s, whoever calls): when it refuses, the next is due within
PACE_EVERY = timedelta(seconds=30)
MIN_SECRET = 6
TRIVIAL = frozenset({"000000", "111111", "123456", "654321", "password", "paigow",
                     "12345678", "00000000"})
FIRST = "(installation)"  # who made the first shift manager

_TYPES = {"argon2id": Type.ID, "argon2i": Type.I, "argon2d": Type.D}


class _Hasher(PasswordHasher):
    def hash_with(self, prefix: str, secret: str) -> str | None:
        """The whole encoded hash of `secret` made with the type, version, parameters and
        salt of `prefix` ("$argon2id$v=19$m=...,t=...,p=...$<salt>", a stored hash less its
        last field) and this hasher's hash length, as `hash` would have made it with that
        salt: what the database compares with the stored hash. None: not such a prefix."""
        try:
            empty, kind, version, params, salt = prefix.split("$")
            cost = dict(kv.split("=", 1) for kv in params.split(","))
            if empty or not version.startswith("v="):
                return None
            raw = base64.b64decode(salt + "=" * (-len(salt) % 4), validate=True)
            return hash_secret(secret.encode(), raw, time_cost=int(cost["t"]),
                               memory_cost=int(cost["m"]), parallelism=int(cost["p"]),
                               hash_len=self.hash_len, type=_TYPES[kind],
                               version=int(version[2:])).decode("ascii")
        except (ValueError, KeyError, binascii.Error, HashingError):
            return None


_hasher = _Hasher()  # argon2id with the library's (RFC 9106) parameters
_dummy: str | None = None


@dataclass(frozen=True, slots=True)
class Version:
    """A person as their newest row says, less the secret's hash: every column a station's
    PostgreSQL login may read (`users.secret_hash` it may not: docs/trust.md)."""

    id: uuid.UUID
    name: str
    version: int
    role: str
    disabled: bool
    change: str
    changed_by: str
    at: datetime


_READABLE = (User.id, User.name, User.version, User.role, User.disabled, User.change,
             User.changed_by, User.at)


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who gave their secret for an action a moment ago."""

    name: str
    role: str
    action: str
    sign_in: uuid.UUID  # their right try, in `sign_ins`


@dataclass(frozen=True, slots=True)
class Account:
    """A person's account as it stands (their newest row), for `paigow users list`."""

    name: str
    role: str
    disabled: bool
    slowed_until: datetime | None  # every try of the name waits until then (wrong tries)
    changed_by: str
    change: str
    at: datetime

    def text(self) -> str:
        state = "disabled" if self.disabled else ("slowed" if self.slowed_until else "active")
        return (f"{self.name:<24} {self.role:<15} {state:<9} {self.change} by "
                f"{self.changed_by} {self.at:%Y-%m-%d %H:%M} UTC")

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "role": self.role, "disabled": self.disabled,
                "slowed_until": self.slowed_until.isoformat() if self.slowed_until else None,
                "change": self.change, "changed_by": self.changed_by,
                "at": self.at.isoformat()}


def _name(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > 100:
        raise LedgerError("a person's name is 1 to 100 characters: give their name as the "
                          "pit knows it (e.g. \"Pat Lee\")")
    return name


def check_secret(secret: str) -> str:
    """A new secret, refused if a guess would find it."""
    if len(secret) < MIN_SECRET:
        raise LedgerError(f"a secret is at least {MIN_SECRET} characters (a PIN of 6 digits "
                          f"or more, or a password): choose a longer one")
    if secret.lower() in TRIVIAL or len(set(secret)) == 1:
        raise LedgerError("that secret is one anyone would guess: choose another")
    return secret


def current(s: Session, name: str) -> Version | None:
    """The person's newest row, the hash left out (None: nobody of that name)."""
    row = s.execute(select(*_READABLE).where(User.name == name)
                    .order_by(User.version.desc()).limit(1)).first()
    return None if row is None else Version(*row)


def stored_hash(s: Session, user: Version) -> str:
    """The person's secret hash: with the owner's login (or SQLite's file) only; a station
    on PostgreSQL checks a secret with the database's functions instead (`_check`)."""
    return str(s.scalar(select(User.secret_hash).where(User.id == user.id)))


def anyone(s: Session) -> bool:
    return s.scalar(select(User.id).limit(1)) is not None


class Refusal(NotAuthorised):
    """A try refused, in words for the person, and why, for a caller with words of its own
    (the floor's login): "wait" (its wait runs; nothing was checked), "wrong" (the name or
    the secret: the same for a name nobody has), "disabled", "role", "name" (none given).
    `wait_until`: when the next try of the name from that source is taken."""

    def __init__(self, text_: str, why: str, wait_until: datetime | None = None) -> None:
        super().__init__(text_)
        self.why = why
        self.wait_until = wait_until


def _wait(wrong: int, free: int, cap: timedelta) -> timedelta:
    if wrong < free:
        return timedelta(0)
    doublings = min(wrong - free + 1, 20)  # 2**20 s is past any cap
    return min(timedelta(seconds=2 ** doublings), cap)


FRESH_TRIES = "paigow_fresh_tries"  # a session's info key: the tries it wrote, not linked yet


def _tries(s: Session, name: str, since: datetime, at: datetime
           ) -> list[tuple[bool, datetime, str | None]]:
    """The name's tries after `since`, not dated ahead of `at` + SKEW, that are records:
    signed by an enrolled station or the floor (chain.untrusted), by this station's own key
    (so a station not enrolled yet still slows a guesser at it), or written by this session
    a moment ago. A row slipped in with the database's login counts for nothing, right or
    wrong, so it can neither make a person wait nor hide a guesser's wrong tries."""
    rows = s.execute(select(SignIn.id, SignIn.ok, SignIn.at, SignIn.station).where(
        SignIn.name == name, SignIn.at > since, SignIn.at <= at + SKEW)).all()
    fresh = s.info.get(FRESH_TRIES, set())
    conn = s.connection()
    forged = untrusted(conn, "sign_ins", [str(r[0]) for r in rows if str(r[0]) not in fresh],
                       also=conn.get_execution_options().get(SIGNER))
    return [(bool(r[1]), r[2], r[3]) for r in rows if str(r[0]) not in forged]


def _wrong_since(s: Session, name: str, since: datetime, at: datetime,
                 source: str | None = None, *, here: bool = False
                 ) -> tuple[int, datetime | None]:
    """The wrong tries of the name after `since` (from `source` only, when `here`): how
    many, and the last one's time."""
    wrong = [t for ok, t, where in _tries(s, name, since, at)
             if not ok and (not here or where == source)]
    return len(wrong), max(wrong, default=None)


def _counted_since(user: Version | None, at: datetime) -> datetime:
    since = at - MEMORY
    return user.at if user is not None and user.at > since else since


def name_wait_until(s: Session, name: str, user: Version | None,
                    at: datetime | None = None) -> datetime | None:
    """When the name's wrong tries from every source stop making a try of it wait, if they
    make one wait now."""
    at = at or now()
    wrong, last = _wrong_since(s, name, _counted_since(user, at), at)
    until = last + _wait(wrong, NAME_FREE, NAME_CAP) if last is not None else None
    return until if until is not None and until > at else None


def wait_until(s: Session, name: str, source: str | None, user: Version | None,
               at: datetime | None = None) -> datetime | None:
    """When the next try of the name from `source` is taken, if it must wait (the rule in
    the module's docstring); `user`: the person's newest row (None: nobody of that name)."""
    at = at or now()
    since = _counted_since(user, at)
    ok = max((t for right, t, where in _tries(s, name, since, at)
              if right and where == source), default=None)
    wrong, last = _wrong_since(s, name, max(since, ok) if ok else since, at, source,
                               here=True)
    here = last + _wait(wrong, FREE, CAP) if last is not None else None
    until = max((t for t in (here, name_wait_until(s, name, user, at)) if t is not None),
                default=None)
    return until if until is not None and until > at else None


def _try(s: Session, name: str, action: str, ok: bool, station: str | None) -> SignIn:
    row = SignIn(id=uuid.uuid4(), name=name, action=action[:24], ok=ok, station=station,
                 at=now())
    s.add(row)
    s.info.setdefault(FRESH_TRIES, set()).add(str(row.id))  # linked when it commits
    return row


def matches(secret_hash: str, secret: str) -> bool:
    """Whether the secret is the one hashed (argon2: deliberately slow, so the caller does
    it before its writing transaction, which `authorise` takes as `checked`)."""
    try:
        return bool(_hasher.verify(secret_hash, secret))
    except (VerificationError, InvalidHashError):
        return False


def _dummy_hash() -> str:
    """What a name nobody has is checked against: as slow as a real check, and matched by
    no secret. Made once, when first needed (the window starts without argon2's cost)."""
    global _dummy
    if _dummy is None:
        _dummy = _hasher.hash(secrets.token_urlsafe(24))
    return _dummy


def _by_function(s: Session) -> bool:
    """On PostgreSQL every secret is checked by the database's functions, whoever's login
    this is (one path for the stations, the floor and the owner); on SQLite (a station's
    own file) against the hash, read as it always was."""
    return s.get_bind().dialect.name == "postgresql"


NO_CHECKS = ("this login may not check a secret (the ledger's paigow_secret_salt and "
             "paigow_secret_matches): the owner runs `paigow ledger setup-roles "
             "--station-role ROLE` again, after migrating")


def _ask(s: Session, sql: str, params: dict[str, str]) -> object:
    try:
        return s.scalar(text(sql), params)
    except DBAPIError as e:
        if getattr(e.orig, "sqlstate", None) == "42501":
            raise LedgerError(NO_CHECKS) from None
        raise


def _against(s: Session, name: str, user: Version | None) -> str:
    """What a secret of the name is checked against: on PostgreSQL the prefix of the
    person's hash (its parameters and salt: the station never reads the hash itself), made
    up for a name nobody has; on SQLite the hash (the dummy one for a name nobody has)."""
    if _by_function(s):
        return str(_ask(s, "SELECT paigow_secret_salt(:name)", {"name": name}))
    return stored_hash(s, user) if user is not None else _dummy_hash()


def _check(s: Session, name: str, user: Version | None, secret: str,
           against: str) -> bool | None:
    """Whether the secret is the person's (never, for a name nobody has); None: the
    database's pace refuses a check of the name now, and nothing was checked."""
    if not _by_function(s):
        return matches(against, secret) and user is not None
    candidate = _hasher.hash_with(against, secret)
    got = _ask(s, "SELECT paigow_secret_matches(:name, :candidate)",
               {"name": name, "candidate": candidate or ""})
    if got is None:
        # a name nobody has shares one pace, which anyone trying many made-up names uses
        # up: answered "wait", it would tell those names from real ones
        return None if user is not None else False
    return bool(got) and user is not None


Checked = tuple[str, bool | None]
"""What `precheck` checked a secret against (a hash, or on PostgreSQL its salt prefix) and
whether it was right (None: the database's pace refused the check)."""


def precheck(s: Session, name: str, secret: str,
             source: str | None = None) -> Checked | None:
    """The person's secret checked outside any writing transaction: (what it was checked
    against, right: None when the database's pace refused the check); a name nobody has is
    checked as much, and is never right. None: the try from `source` must wait, and nothing
    was checked."""
    name = " ".join(name.split())
    user = current(s, name)
    if wait_until(s, name, source, user) is not None:
        return None
    against = _against(s, name, user)
    return against, _check(s, name, user, secret, against)


def _in(wait: timedelta) -> str:
    seconds = max(1, math.ceil(wait.total_seconds()))
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} minutes" + (f" {seconds} seconds" if seconds else "")


def in_words(until: datetime, at: datetime | None = None) -> str:
    """How long until `until`, as a person reads it ("4 seconds", "5 minutes")."""
    return _in(until - (at or now()))


def _one_at_a_time(s: Session, name: str) -> None:
    """Tries of one name take turns, so a burst sent at once is counted one by one. SQLite
    has one writer already (the caller's BEGIN IMMEDIATE); PostgreSQL takes a lock on the
    name for the rest of the transaction."""
    if s.get_bind().dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(b"paigow.sign_in|" + name.encode()).digest()[:8],
                             "big", signed=True)
        s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def authorise(s: Session, name: str, secret: str, action: str, station: str | None,
              checked: Checked | None = None) -> Person | Refusal:
    """Check the person's secret for `action` and record the try (the caller commits, in a
    writing transaction): the Person, or the refusal to raise once the try is recorded.
    `station`: where the try comes from (its wait is that source's). `checked`: what
    `precheck` found a moment ago (used while what it checked against is still the
    person's: their hash, or on PostgreSQL its salt)."""
    if action not in ACTIONS:
        raise LedgerError(f"{action!r} is not a supervisor's action the ledger knows")
    name = " ".join(name.split())
    if not name:
        return Refusal("Type the supervisor's name: the ledger records who did it.", "name")
    _one_at_a_time(s, name)
    user = current(s, name)
    at = now()
    until = wait_until(s, name, station, user, at)
    if until is not None:
        return Refusal(f"Too many wrong tries for {name}: try again in {in_words(until, at)} "
                       f"({until:%H:%M:%S} UTC); the secret was not checked. If the wrong "
                       f"tries were not yours, tell the shift manager. Nothing was done.",
                       "wait", until)
    against = _against(s, name, user)
    right = (checked[1] if checked is not None and checked[0] == against
             else _check(s, name, user, secret, against))
    if right is None:
        until = at + PACE_EVERY
        return Refusal(f"Too many tries of {name}'s secret: try again in "
                       f"{in_words(until, at)} ({until:%H:%M:%S} UTC); the secret was not "
                       f"checked. If the tries were not yours, tell the shift manager. "
                       f"Nothing was done.", "wait", until)
    if user is None or not right:
        _try(s, name, action, False, station)
        s.flush()
        until = wait_until(s, name, station, user)
        again = f" in {in_words(until)}" if until is not None else ""
        return Refusal(f"Wrong name or secret for {name}: check both and try again{again}. "
                       f"Nothing was done.", "wrong", until)
    if user.disabled:
        _try(s, name, action, False, station)
        return Refusal(f"{name}'s account is disabled: ask the shift manager. Nothing was "
                       f"done.", "disabled")
    row = _try(s, name, action, True, station)
    if user.role not in ACTIONS[action]:
        return Refusal(f"{name} is {_a(user.role)}: {_a(user.role)} may not {action}. "
                       f"Nothing was done.", "role")
    return Person(name, user.role, action, row.id)


def _a(role: str) -> str:
    return ("an " if role[0] in "aeiou" else "a ") + role


def confirm(s: Session, person: Person, action: str) -> None:
    """Inside the operation's own transaction: the person's right try is in the ledger, for
    this action, a moment ago (a Person made up by a caller has none)."""
    row = s.get(SignIn, person.sign_in)
    if (row is None or not row.ok or row.name != person.name or row.action != action[:24]
            or now() - row.at > FRESH):
        raise NotAuthorised(f"{person.name} has not given their secret for this {action} "
                            f"(or it was more than {int(FRESH.total_seconds() // 60)} minutes "
                            f"ago): give it again. Nothing was done.")


def new_version(s: Session, name: str, *, role: str, disabled: bool, change: str, by: str,
                secret_hash: str | None = None) -> User:
    """A new row of the person's account (`secret_hash` None: the hash they have now). A
    new secret (added, reset) starts the database's pace of checks of the name again, so
    a reset works at once however the old secret was being tried."""
    last = current(s, name)
    if secret_hash is None:
        if last is None:
            raise LedgerError(f"{name} is not a person in the ledger")
        secret_hash = stored_hash(s, last)
    row = User(id=uuid.uuid4(), name=name, version=(last.version + 1) if last else 1,
               role=role, secret_hash=secret_hash, disabled=disabled, change=change,
               changed_by=by, at=now())
    s.add(row)
    if change in ("added", "reset") and _by_function(s):
        s.execute(text("SELECT paigow_secrets.pace_from_now(:name)"), {"name": name})
    return row


def add(s: Session, name: str, role: str, secret: str, by: Person | None,
        first: bool = False) -> User:
    name = _name(name)
    if role not in ROLES:
        raise LedgerError(f"{role!r} is not a role: choose {', '.join(ROLES)}")
    check_secret(secret)
    if first:
        if anyone(s):
            raise LedgerError("the ledger has people already: the first shift manager is made "
                              "only once; a shift manager adds the others (--by NAME)")
        if role != "shift manager":
            raise LedgerError("the first person is the shift manager (--role 'shift "
                              "manager'), who then adds the others")
        who = FIRST
    else:
        who = _manager(by)
        if current(s, name) is not None:
            raise LedgerError(f"{name} is in the ledger already: reset their secret or "
                              f"enable them instead")
    return new_version(s, name, role=role, secret_hash=_hasher.hash(secret), disabled=False,
                       change="added", by=who)


def _manager(by: Person | None) -> str:
    if by is None or by.action != "manage users":
        raise NotAuthorised("only a shift manager changes the people: give yours (--by NAME) "
                            "and their secret")
    return by.name


def _existing(s: Session, name: str) -> Version:
    user = current(s, " ".join(name.split()))
    if user is None:
        raise LedgerError(f"{name} is not a person in the ledger: `paigow users list` shows "
                          f"who is")
    return user


def disable(s: Session, name: str, by: Person) -> User:
    who, user = _manager(by), _existing(s, name)
    if user.disabled:
        raise LedgerError(f"{user.name} is disabled already")
    if user.name == who:
        raise LedgerError("a shift manager cannot disable themselves: ask another")
    return new_version(s, user.name, role=user.role, disabled=True, change="disabled",
                       by=who)


def enable(s: Session, name: str, by: Person) -> User:
    who, user = _manager(by), _existing(s, name)
    if not user.disabled:
        raise LedgerError(f"{user.name} is not disabled")
    return new_version(s, user.name, role=user.role, disabled=False, change="enabled",
                       by=who)


def reset(s: Session, name: str, secret: str, by: Person) -> User:
    """A new secret for the person (and any wait of theirs lifted: a new version)."""
    who, user = _manager(by), _existing(s, name)
    check_secret(secret)
    return new_version(s, user.name, role=user.role, secret_hash=_hasher.hash(secret),
                       disabled=user.disabled, change="reset", by=who)


def accounts(s: Session) -> list[Account]:
    names = sorted(set(s.scalars(select(User.name))))
    out = []
    for name in names:
        user = current(s, name)
        assert user is not None
        out.append(Account(user.name, user.role, user.disabled,
                           name_wait_until(s, user.name, user), user.changed_by, user.change,
                           user.at))
    return out
