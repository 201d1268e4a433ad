"""Supervisors are people: named accounts in the ledger's database, shared by every station
and the pit floor, each secret (a PIN or a password) kept only as an argon2 hash.

- `users` holds a new row for every change of an account (added, disabled, enabled,
  reset), with who made it and when; a person is their newest row. The table only grows.
- `sign_ins` holds every try of a secret for an action, right or wrong, and where; never
  the secret. A person whose last `TRIES` tries since their account last changed were all
  wrong is locked until `LOCK` after the last of them (a try while locked counts too); a
  shift manager's reset unlocks at once. It lives in the database: a restart clears nothing.
- `authorise(name, secret, action)` is what every supervisor operation calls first; it
  returns the `Person`, whose `sign_in` is the id of the right try it made. The operation
  checks that try (a person, the action, a moment ago) in its own transaction and records
  who did it.

The first shift manager: `add(..., first=True)` only while there is nobody at all
(`paigow users add NAME --first` at installation); every later change is made by a shift
manager who gives their own secret.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from .errors import LedgerError, NotAuthorised
from .models import SignIn, User, now

ROLES = ("pit supervisor", "supervisor", "shift manager", "auditor")
SUPERVISORS = frozenset({"pit supervisor", "supervisor", "shift manager"})
ACTIONS: dict[str, frozenset[str]] = {
    "void": SUPERVISORS,  # a round in play abandoned
    "correct": SUPERVISORS,  # a settled position corrected
    "misdeal": SUPERVISORS,
    "override": SUPERVISORS,
    "close": SUPERVISORS,  # the station closed
    "enroll": SUPERVISORS,  # a station's signing key enrolled or revoked
    "manage users": frozenset({"shift manager"}),
    "read": frozenset(ROLES),  # the floor's pages; an auditor reads only
}
TRIES = 5  # wrong tries in a row before the lock
LOCK = timedelta(minutes=15)
FRESH = timedelta(minutes=5)  # how long a right try stands for the operation it was for
MIN_SECRET = 6
TRIVIAL = frozenset({"000000", "111111", "123456", "654321", "password", "paigow",
                     "12345678", "00000000"})
FIRST = "(installation)"  # who made the first shift manager

_hasher = PasswordHasher()  # argon2id with the library's (RFC 9106) parameters


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
    locked: bool
    changed_by: str
    change: str
    at: datetime

    def text(self) -> str:
        state = "disabled" if self.disabled else ("locked" if self.locked else "active")
        return (f"{self.name:<24} {self.role:<15} {state:<9} {self.change} by "
                f"{self.changed_by} {self.at:%Y-%m-%d %H:%M} UTC")

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "role": self.role, "disabled": self.disabled,
                "locked": self.locked, "change": self.change, "changed_by": self.changed_by,
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


def current(s: Session, name: str) -> User | None:
    """The person's newest row (None: nobody of that name)."""
    return s.scalars(select(User).where(User.name == name)
                     .order_by(User.version.desc()).limit(1)).first()


def anyone(s: Session) -> bool:
    return s.scalar(select(User.id).limit(1)) is not None


def _recent_tries(s: Session, user: User) -> list[SignIn]:
    return list(s.scalars(select(SignIn).where(SignIn.name == user.name,
                                               SignIn.at > user.at)
                          .order_by(SignIn.at.desc()).limit(TRIES)))


def locked_until(s: Session, user: User, at: datetime | None = None) -> datetime | None:
    """When the person's lock ends, if they are locked now."""
    tries = _recent_tries(s, user)
    if len(tries) < TRIES or any(t.ok for t in tries):
        return None
    until = tries[0].at + LOCK
    return until if (at or now()) < until else None


def _try(s: Session, name: str, action: str, ok: bool, station: str | None) -> SignIn:
    row = SignIn(id=uuid.uuid4(), name=name, action=action[:24], ok=ok, station=station,
                 at=now())
    s.add(row)
    return row


def matches(secret_hash: str, secret: str) -> bool:
    """Whether the secret is the one hashed (argon2: deliberately slow, so the caller does
    it before its writing transaction, which `authorise` takes as `checked`)."""
    try:
        return bool(_hasher.verify(secret_hash, secret))
    except (VerificationError, InvalidHashError):
        return False


def precheck(s: Session, name: str, secret: str) -> tuple[str, bool] | None:
    """The person's secret checked outside any writing transaction: (hash, right)."""
    user = current(s, " ".join(name.split()))
    return None if user is None else (user.secret_hash, matches(user.secret_hash, secret))


def authorise(s: Session, name: str, secret: str, action: str, station: str | None,
              checked: tuple[str, bool] | None = None) -> Person | NotAuthorised:
    """Check the person's secret for `action` and record the try (the caller commits):
    the Person, or the refusal to raise once the try is recorded. `checked`: what
    `precheck` found a moment ago (used while the person's hash is still the same)."""
    if action not in ACTIONS:
        raise LedgerError(f"{action!r} is not a supervisor's action the ledger knows")
    name = " ".join(name.split())
    if not name:
        return NotAuthorised("Type the supervisor's name: the ledger records who did it.")
    user = current(s, name)
    if user is None:
        _try(s, name, action, False, station)
        return NotAuthorised(f"{name} is not a person in the ledger: check the name, or ask "
                             f"the shift manager to add them (paigow users add). Nothing "
                             f"was done.")
    if user.disabled:
        _try(s, name, action, False, station)
        return NotAuthorised(f"{name}'s account is disabled: ask the shift manager. Nothing "
                             f"was done.")
    until = locked_until(s, user)
    if until is not None:
        _try(s, name, action, False, station)
        return NotAuthorised(f"{name} is locked after {TRIES} wrong tries, until "
                             f"{until:%H:%M} UTC: wait, or ask the shift manager to reset "
                             f"the secret (paigow users reset). Nothing was done.")
    if checked is not None and checked[0] == user.secret_hash:
        right = checked[1]
    else:
        right = matches(user.secret_hash, secret)
    if not right:
        _try(s, name, action, False, station)
        s.flush()
        if locked_until(s, user) is not None:
            return NotAuthorised(f"Wrong secret for {name}, {TRIES} times: {name} is locked "
                                 f"for {int(LOCK.total_seconds() // 60)} minutes. Nothing "
                                 f"was done.")
        wrong = 0
        for t in _recent_tries(s, user):  # the wrong tries in a row, newest first
            if t.ok:
                break
            wrong += 1
        return NotAuthorised(f"Wrong secret for {name}: nothing was done "
                             f"({TRIES - wrong} more tries before the lock).")
    row = _try(s, name, action, True, station)
    if user.role not in ACTIONS[action]:
        return NotAuthorised(f"{name} is {_a(user.role)}: {_a(user.role)} may not "
                             f"{action}. Nothing was done.")
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


def _version(s: Session, name: str, *, role: str, secret_hash: str, disabled: bool,
             change: str, by: str) -> User:
    last = current(s, name)
    row = User(id=uuid.uuid4(), name=name, version=(last.version + 1) if last else 1,
               role=role, secret_hash=secret_hash, disabled=disabled, change=change,
               changed_by=by, at=now())
    s.add(row)
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
    return _version(s, name, role=role, secret_hash=_hasher.hash(secret), disabled=False,
                    change="added", by=who)


def _manager(by: Person | None) -> str:
    if by is None or by.action != "manage users":
        raise NotAuthorised("only a shift manager changes the people: give yours (--by NAME) "
                            "and their secret")
    return by.name


def _existing(s: Session, name: str) -> User:
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
    return _version(s, user.name, role=user.role, secret_hash=user.secret_hash,
                    disabled=True, change="disabled", by=who)


def enable(s: Session, name: str, by: Person) -> User:
    who, user = _manager(by), _existing(s, name)
    if not user.disabled:
        raise LedgerError(f"{user.name} is not disabled")
    return _version(s, user.name, role=user.role, secret_hash=user.secret_hash,
                    disabled=False, change="enabled", by=who)


def reset(s: Session, name: str, secret: str, by: Person) -> User:
    """A new secret for the person (and their lock lifted)."""
    who, user = _manager(by), _existing(s, name)
    check_secret(secret)
    return _version(s, user.name, role=user.role, secret_hash=_hasher.hash(secret),
                    disabled=user.disabled, change="reset", by=who)


def accounts(s: Session) -> list[Account]:
    names = sorted(set(s.scalars(select(User.name))))
    out = []
    for name in names:
        user = current(s, name)
        assert user is not None
        out.append(Account(user.name, user.role, user.disabled,
                           locked_until(s, user) is not None, user.changed_by, user.change,
                           user.at))
    return out
