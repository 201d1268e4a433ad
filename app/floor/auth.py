"""Floor users: a name, a role, an argon2 hash of the password (never the password), and a
lockout after repeated wrong passwords. Kept in the ledger's database (`floor_users`).

Roles: `pit-supervisor` and `shift-manager` may acknowledge alerts, void and correct;
`auditor` reads everything and changes nothing. (The trust branch brings the station's own
`users` table; the lead will put the two behind one interface: `verify(name, password)`.)
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.ledger.database import WRITE
from app.ledger.models import FLOOR_ROLES, FloorLog, FloorUser, now

TRIES = 5  # wrong passwords in a row before the lock
LOCK = timedelta(minutes=15)
ROLE_WORDS = {"pit-supervisor": "pit supervisor", "shift-manager": "shift manager",
              "auditor": "auditor (read-only)"}
ACTS = ("pit-supervisor", "shift-manager")  # who may change something

_hasher = PasswordHasher()
_dummy: str | None = None


def _dummy_hash() -> str:
    """A hash to verify against when the name is unknown: the answer takes as long either
    way, so timing does not tell which names exist. Made once, when first needed."""
    global _dummy
    if _dummy is None:
        _dummy = _hasher.hash("not a password anyone has")
    return _dummy


class AuthError(Exception):
    """Why a login or a user's change was refused, in words for the person."""


@dataclass(frozen=True)
class User:
    name: str
    role: str

    @property
    def may_act(self) -> bool:
        return self.role in ACTS

    @property
    def role_words(self) -> str:
        return ROLE_WORDS.get(self.role, self.role)


def log(s: Session, actor: str | None, action: str, detail: dict[str, Any],
        at: datetime | None = None) -> None:
    """Record what a floor user did (inside the caller's transaction)."""
    s.add(FloorLog(id=uuid.uuid4(), at=at or now(), actor=actor, action=action[:24],
                   detail=json.dumps(detail, sort_keys=True)))


def check_password(password: str) -> None:
    if len(password) < 10:
        raise AuthError("a floor password is at least 10 characters: choose a longer one")


def add_user(engine: Engine, name: str, role: str, password: str, *,
             by: str | None = None) -> User:
    name = " ".join(name.split())
    if not name:
        raise AuthError("give the user's name")
    if role not in FLOOR_ROLES:
        raise AuthError(f"the role is one of {', '.join(FLOOR_ROLES)}, not {role!r}")
    check_password(password)
    try:
        with Session(engine.execution_options(**WRITE)) as s, s.begin():
            s.add(FloorUser(id=uuid.uuid4(), name=name, role=role,
                            password_hash=_hasher.hash(password), failed=0,
                            locked_until=None, disabled=False, created_at=now()))
            log(s, by, "user_added", {"name": name, "role": role})
    except IntegrityError:
        raise AuthError(f"there is already a floor user named {name!r}: choose another "
                        f"name or remove that one first") from None
    return User(name, role)


def set_password(engine: Engine, name: str, password: str, *, by: str | None = None) -> None:
    check_password(password)
    with Session(engine.execution_options(**WRITE)) as s, s.begin():
        user = s.scalar(select(FloorUser).where(FloorUser.name == name))
        if user is None:
            raise AuthError(f"there is no floor user named {name!r}")
        user.password_hash = _hasher.hash(password)
        user.failed, user.locked_until = 0, None
        log(s, by, "password_set", {"name": name})


def remove_user(engine: Engine, name: str, *, by: str | None = None) -> None:
    """Users are disabled, not deleted: the log still names them."""
    with Session(engine.execution_options(**WRITE)) as s, s.begin():
        user = s.scalar(select(FloorUser).where(FloorUser.name == name))
        if user is None:
            raise AuthError(f"there is no floor user named {name!r}")
        user.disabled = True
        log(s, by, "user_removed", {"name": name})


def users(engine: Engine) -> list[tuple[str, str, bool, datetime | None]]:
    with Session(engine) as s:
        return [(u.name, u.role, u.disabled, u.locked_until)
                for u in s.scalars(select(FloorUser).order_by(FloorUser.name))]


def verify(engine: Engine, name: str, password: str, *, at: datetime | None = None,
           source: str | None = None) -> User:
    """The user, when the password is theirs; else `AuthError` saying why (the same words
    for an unknown name and a wrong password). Every try is logged, never the password;
    the refusal is committed before it is raised, so the count of wrong tries holds."""
    when = at or now()
    name = " ".join(name.split())
    refusal: str | None = None
    found: User | None = None
    with Session(engine.execution_options(**WRITE)) as s, s.begin():
        user = s.scalar(select(FloorUser).where(FloorUser.name == name))
        if user is None or user.disabled:
            try:
                _hasher.verify(_dummy_hash(), password or "-")
            except VerificationError:
                pass
            log(s, name or None, "login_refused", {"why": "unknown name", "from": source})
            refusal = "wrong name or password: try again"
        elif user.locked_until is not None and user.locked_until > when:
            minutes = int((user.locked_until - when).total_seconds() // 60) + 1
            log(s, name, "login_refused", {"why": "locked", "from": source})
            refusal = (f"too many wrong passwords: this account is locked for another "
                       f"{minutes} minute(s). Ask a shift manager if it was not you.")
        else:
            try:
                _hasher.verify(user.password_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                user.failed += 1
                if user.failed >= TRIES:
                    user.failed, user.locked_until = 0, when + LOCK
                    log(s, name, "login_locked", {"from": source})
                    refusal = (f"wrong password {TRIES} times: the account is locked for "
                               f"{int(LOCK.total_seconds() // 60)} minutes")
                else:
                    log(s, name, "login_refused", {"why": "wrong password", "from": source})
                    refusal = "wrong name or password: try again"
            else:
                user.failed, user.locked_until = 0, None
                if _hasher.check_needs_rehash(user.password_hash):
                    user.password_hash = _hasher.hash(password)
                log(s, name, "login", {"from": source})
                found = User(user.name, user.role)
    if found is None:
        raise AuthError(refusal or "wrong name or password: try again")
    return found
