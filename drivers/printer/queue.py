"""Kept slips: a durable local reprint queue, one JSON file per slip.

A slip the printer could not print is written to the queue directory (atomically: a
temporary file, fsync, rename) before the dealer is told, so a crash or a power cut loses
nothing. The same slip kept twice is one file. Reprinting takes the kept slips oldest
first under a lock (two reprints at once never print a slip twice) and removes each file
only once its slip has printed; a slip that fails again stays, with the count of tries.
A file that cannot be read is set aside (renamed `*.unreadable`), never deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time as _time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from typing_extensions import TypedDict  # pydantic reads a TypedDict of it on Python 3.11

from drivers.private import open_private, private_folder

if TYPE_CHECKING:
    from pydantic import TypeAdapter

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the dealer station (Linux)
    fcntl = None  # type: ignore[assignment]

KEPT_SCHEMA = "paigow.kept-slip/1"


class KeptJson(TypedDict):
    """A kept slip's file."""

    schema: Literal["paigow.kept-slip/1"]  # KEPT_SCHEMA
    slip: dict[str, object]
    time: datetime
    kept_at: datetime
    problem: str
    message: str
    tries: int
    duplicate: bool


@cache
def _kept_json() -> TypeAdapter[KeptJson]:
    # pydantic loads with the first slip kept or read back, not with the window.
    from pydantic import TypeAdapter

    return TypeAdapter(KeptJson)

LOCK_FILE = ".lock"
UNREADABLE = ".unreadable"


class QueueError(OSError):
    """The queue directory cannot be written: the text says where and why."""


@dataclass(frozen=True, slots=True)
class KeptSlip:
    """One slip waiting for the printer."""

    path: Path
    slip: dict[str, object]
    time: datetime        # the slip's time, printed on it (the first try)
    kept_at: datetime     # when it was first kept
    problem: str          # the problem's code the last time it failed
    message: str          # what the dealer was told
    tries: int            # how many times printing it failed
    duplicate: bool       # a reprint of a slip printed before

    @property
    def table(self) -> str:
        return str(self.slip.get("table", "?"))

    @property
    def round(self) -> int:
        number = self.slip.get("round")
        return number if isinstance(number, int) else 0  # a damaged file: set aside later

    def describe(self) -> str:
        return (f"table {self.table} round {self.slip.get('round', '?')}, kept "
                f"{self.kept_at:%Y-%m-%d %H:%M} ({self.message.split(':')[0]}; "
                f"tries {self.tries})")

    def to_json(self) -> bytes:
        kept: KeptJson = {"schema": "paigow.kept-slip/1", "slip": self.slip, "time": self.time,
                          "kept_at": self.kept_at, "problem": self.problem,
                          "message": self.message, "tries": self.tries,
                          "duplicate": self.duplicate}
        return _kept_json().dump_json(kept, indent=1)


def _digest(slip: Mapping[str, object]) -> str:
    text = json.dumps(slip, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:40] or "_"


class ReprintQueue:
    """The directory of kept slips."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.set_aside: list[Path] = []  # unreadable files found by the last `pending()`

    def _ensure(self) -> None:
        try:
            private_folder(self.directory)
        except OSError as e:
            raise QueueError(e.errno, f"the reprint queue {self.directory} cannot be made "
                                      f"({e.strerror})") from e

    def _write(self, kept: KeptSlip) -> None:
        tmp = kept.path.with_name(f".{kept.path.name}.tmp")
        try:
            with open_private(tmp, "wb") as f:
                f.write(kept.to_json())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, kept.path)
            self._sync_dir()
        except OSError as e:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            raise QueueError(e.errno, f"the slip cannot be written to the reprint queue "
                                      f"{self.directory} ({e.strerror})") from e

    def _sync_dir(self) -> None:
        try:
            fd = os.open(self.directory, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

    def find(self, slip: Mapping[str, object]) -> KeptSlip | None:
        """The kept copy of this slip, if there is one."""
        for path in sorted(self.directory.glob(f"*-{_digest(slip)}.json")):
            try:
                return self._read(path)
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return None

    def keep(self, slip: Mapping[str, object], *, time: datetime, now: datetime, problem: str,
             message: str, duplicate: bool = False) -> KeptSlip:
        """Keep a slip for reprint, durably; a slip kept already is not kept twice."""
        self._ensure()
        existing = self.find(slip)
        if existing is not None:
            kept = replace(existing, problem=problem, message=message,
                           tries=existing.tries + 1,
                           duplicate=existing.duplicate and duplicate)
            self._write(kept)
            return kept
        # Named by the nanosecond it was kept, so the names sort oldest first.
        name = (f"{_time.time_ns():020d}-{_safe(str(slip.get('table', '')))}-"
                f"r{_safe(str(slip.get('round', '')))}-{_digest(slip)}.json")
        kept = KeptSlip(self.directory / name, dict(slip), time, now, problem, message, 1,
                        duplicate)
        self._write(kept)
        return kept

    def pending(self) -> list[KeptSlip]:
        """The kept slips, oldest first. Unreadable files are set aside, not deleted."""
        self.set_aside = []
        if not self.directory.is_dir():
            return []
        out = []
        for path in sorted(self.directory.glob("*.json")):
            if path.name.startswith("."):
                continue
            try:
                out.append(self._read(path))
            except (OSError, ValueError, KeyError, TypeError):
                self.set_aside.append(self.set_aside_file(path))
        return out

    def set_aside_file(self, path: Path) -> Path:
        """Rename a kept file that cannot be printed to `*.unreadable`: kept, not deleted."""
        aside = path.with_name(path.name + UNREADABLE)
        try:
            os.replace(path, aside)
        except OSError:
            return path
        return aside

    @staticmethod
    def _read(path: Path) -> KeptSlip:
        data = _kept_json().validate_json(path.read_bytes())  # a ValidationError is a ValueError
        return KeptSlip(path, data["slip"], data["time"], data["kept_at"], data["problem"],
                        data["message"], data["tries"], data["duplicate"])

    def failed_again(self, kept: KeptSlip, problem: str, message: str) -> KeptSlip:
        again = replace(kept, problem=problem, message=message, tries=kept.tries + 1)
        self._write(again)
        return again

    def remove(self, kept: KeptSlip) -> None:
        """The slip has printed: it is no longer kept."""
        kept.path.unlink(missing_ok=True)
        self._sync_dir()

    @contextmanager
    def locked(self) -> Iterator[None]:
        """One reprint at a time, across processes (the window and `paigow print-slip`)."""
        self._ensure()
        if fcntl is None:
            yield
            return
        with open_private(self.directory / LOCK_FILE, "a+") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)
