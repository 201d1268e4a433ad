"""Floor users are the ledger's people (app/ledger/people.py): the `users` table the
stations' supervisors are in, one name and one secret each (an argon2 hash, never the
secret), so the pit supervisor who voids at a table and logs in at the podium is one person
with one record. A login is a try of the person's secret for "read" in `sign_ins`, from
the source "floor " and the browser's address: wrong tries slow the next try of that name
from that address, and a little from everywhere (people.py has the rule), never lock the
person out; a restart clears nothing. A name nobody has gets the same words, after as
much hashing, as a wrong password. Every try is also written to the floor's log (never the
password).

Roles (the people's): a pit supervisor (or a "supervisor") and a shift manager may
acknowledge alerts, void and correct; an auditor reads everything and changes nothing.

A session is good for the version of the person's account it logged in to, until the
person next logs out (`Login`), and is checked on every request, the event stream's
included (`still`): a logout, a reset secret, a changed role or a disabled account ends
every session of that person at its next click, a copied cookie's too, not when the cookie
expires. The end is kept in the database (`users` versions, `floor_logouts`), not by the
browser forgetting its cookie.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from argon2 import PasswordHasher
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from app.ledger import people
from app.ledger.chain import LedgerSession
from app.ledger.database import WRITE
from app.ledger.errors import LedgerError
from app.ledger.models import FLOOR_ROLES, FloorLog, FloorLogout, now
from app.ledger.models import User as UserRow

ROLE_WORDS = {"pit supervisor": "pit supervisor", "supervisor": "pit supervisor",
              "shift manager": "shift manager", "auditor": "auditor (read-only)"}
ROLES = {"pit-supervisor": "pit supervisor", "shift-manager": "shift manager",
         "auditor": "auditor", "pit supervisor": "pit supervisor",
         "shift manager": "shift manager", "supervisor": "supervisor"}
ADDED_BY = "(floor)"  # who added a person from the floor's command, when no one is named

_hasher = PasswordHasher()


class AuthError(Exception):
    """Why a login or a user's change was refused, in words for the person."""


@dataclass(frozen=True)
class User:
    name: str
    role: str  # the people's role: "pit supervisor", "shift manager", "auditor"

    def __post_init__(self) -> None:
        # the floor's own words for a role ("pit-supervisor") read as the people's
        object.__setattr__(self, "role", ROLES.get(self.role, self.role))

    @property
    def may_act(self) -> bool:
        return self.role in people.SUPERVISORS

    @property
    def role_words(self) -> str:
        return ROLE_WORDS.get(self.role, self.role)


@dataclass(frozen=True)
class Login:
    """What a floor session holds, in its signed cookie: who logged in, the version of their
    account they logged in to, and how many times they had logged out of the floor then.
    Either one moving on (a reset, a role, disabled; a logout anywhere) ends the session."""

    name: str
    role: str
    version: int
    logouts: int

    @property
    def user(self) -> User:
        return User(self.name, self.role)

    def to_session(self) -> dict[str, object]:
        return {"name": self.name, "role": self.role, "version": self.version,
                "logouts": self.logouts}

    @classmethod
    def of_session(cls, data: object) -> Login | None:
        """The login a session's data holds (None: none, or a cookie from before sessions
        carried their account's version, which must log in again)."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(str(data["name"]), str(data["role"]), int(data["version"]),
                       int(data["logouts"]))
        except (KeyError, TypeError, ValueError):
            return None


def log(s: Session, actor: str | None, action: str, detail: Mapping[str, object],
        at: datetime | None = None) -> None:
    """Record what a floor user did (inside the caller's transaction)."""
    s.add(FloorLog(id=uuid.uuid4(), at=at or now(), actor=actor, action=action[:24],
                   detail=json.dumps(detail, sort_keys=True)))


def check_password(password: str) -> None:
    if len(password) < 10:
        raise AuthError("a floor password is at least 10 characters: choose a longer one")


def _role(role: str) -> str:
    if role not in ROLES:
        raise AuthError(f"the role is one of {', '.join(FLOOR_ROLES)}, not {role!r}")
    return ROLES[role]


def _write(engine: Engine) -> LedgerSession:
    """A writing session whose commit links each person's new row into the people's
    chain (`paigow ledger verify` checks it)."""
    return LedgerSession(engine.execution_options(**WRITE))


def add_user(engine: Engine, name: str, role: str, password: str, *,
             by: str | None = None) -> User:
    """A new person who logs in at the floor (and may act at a station, by role). For
    the floor's own command and its demo, run with the database owner's login; a shift
    manager adds people with `paigow users add`."""
    name = " ".join(name.split())
    if not name:
        raise AuthError("give the user's name")
    person_role = _role(role)
    check_password(password)
    try:
        people.check_secret(password)
    except LedgerError as e:
        raise AuthError(str(e)) from None
    with _write(engine) as s, s.begin():
        if people.current(s, name) is not None:
            raise AuthError(f"there is already a floor user named {name!r}: choose another "
                            f"name or remove that one first")
        people.new_version(s, name, role=person_role, secret_hash=_hasher.hash(password),
                           disabled=False, change="added", by=by or ADDED_BY)
        log(s, by, "user_added", {"name": name, "role": person_role})
    return User(name, person_role)


def _existing(s: Session, name: str) -> people.Version:
    user = people.current(s, name)
    if user is None:
        raise AuthError(f"there is no floor user named {name!r}")
    return user


def set_password(engine: Engine, name: str, password: str, *, by: str | None = None) -> None:
    check_password(password)
    with _write(engine) as s, s.begin():
        user = _existing(s, name)
        people.new_version(s, user.name, role=user.role, secret_hash=_hasher.hash(password),
                           disabled=user.disabled, change="reset", by=by or ADDED_BY)
        log(s, by, "password_set", {"name": name})


def set_role(engine: Engine, name: str, role: str, *, by: str | None = None) -> None:
    """The person's role changed: a new version of their account, so their floor sessions
    end (a session is good for the version it logged in to) and what they may do is
    asked again at their next login."""
    person_role = _role(role)
    with _write(engine) as s, s.begin():
        user = _existing(s, name)
        if user.role == person_role:
            raise AuthError(f"{user.name} is {person_role} already: nothing was changed")
        people.new_version(s, user.name, role=person_role, disabled=user.disabled,
                           change="role", by=by or ADDED_BY)
        log(s, by, "role_set", {"name": user.name, "role": person_role})


def remove_user(engine: Engine, name: str, *, by: str | None = None) -> None:
    """People are disabled, not deleted: the records still name them."""
    with _write(engine) as s, s.begin():
        user = _existing(s, name)
        if not user.disabled:
            people.new_version(s, user.name, role=user.role, disabled=True,
                               change="disabled", by=by or ADDED_BY)
        log(s, by, "user_removed", {"name": name})


def users(engine: Engine) -> list[tuple[str, str, bool, datetime | None]]:
    with Session(engine) as s:
        out = []
        for name in sorted(set(s.scalars(select(UserRow.name)))):
            user = people.current(s, name)
            assert user is not None
            out.append((user.name, user.role, user.disabled,
                        people.name_wait_until(s, user.name, user)))
        return out


def _logouts(s: Session, name: str) -> int:
    return int(s.scalar(select(func.count()).select_from(FloorLogout)
                        .where(FloorLogout.name == name)) or 0)


def still(engine: Engine, login: Login) -> User | str:
    """The session's user, while its login stands; else why the session has ended."""
    with Session(engine) as s:
        person = people.current(s, login.name)
        logouts = _logouts(s, login.name)
    if person is None or person.disabled:
        return "disabled or gone"
    if person.version != login.version:
        return f"account changed ({person.change})"
    if logouts != login.logouts:
        return "logged out"
    return User(person.name, person.role)


def log_out(engine: Engine, name: str) -> None:
    """Every floor session of the person ends (this one, their others, and any copy of
    their cookies): the logout is kept by the server."""
    with Session(engine.execution_options(**WRITE)) as s, s.begin():
        s.add(FloorLogout(id=uuid.uuid4(), name=name, at=now()))
        log(s, name, "logout", {})


def verify(engine: Engine, name: str, password: str, *, source: str | None = None) -> Login:
    """The login, when the password is theirs; else `AuthError` saying why, in the same words
    for an unknown name, a disabled one and a wrong password. Every try is a sign-in of the
    person's from "floor SOURCE" (what slows the next) and a line of the floor's log, never
    the password; both are committed before the refusal is raised. A try while its wait
    runs is refused without the password being checked."""
    name = " ".join(name.split()) or "-"
    where = ("floor " + (source or ""))[:100].strip()
    with Session(engine) as s:
        checked = people.precheck(s, name, password, where)
    with _write(engine) as s, s.begin():
        got = people.authorise(s, name, password, "read", where, checked)
        person = people.current(s, name)
        if isinstance(got, people.Person) and person is not None:
            log(s, name, "login", {"from": source})
            return Login(got.name, got.role, person.version, _logouts(s, got.name))
        why = got.why if isinstance(got, people.Refusal) else "wrong"
        if why == "wrong" and person is None:
            why = "unknown name"
        log(s, name, "login_refused", {"why": why, "from": source})
    until = got.wait_until if isinstance(got, people.Refusal) else None
    if why == "wait" and until is not None:
        raise AuthError(f"too many wrong tries for this name: try again in "
                        f"{people.in_words(until)} (the password was not checked); if they "
                        f"were not yours, tell a shift manager")
    raise AuthError("wrong name or password: try again"
                    + (f" in {people.in_words(until)}" if until is not None else ""))
