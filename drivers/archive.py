"""Old files packed away, so a station that runs for months keeps a folder it can list: the
session files (one per start, `sessions/*.jsonl`) and the slip PDFs (kind "pdf").

A file last changed more than `days` days ago is added to its folder's monthly archive,
`archive/YYYY-MM.zip` (the month it was last changed, UTC), and removed only once the
archive has been written, closed and read back with the file's bytes intact: a file is in
the folder or in its archive, never in neither. The archive is a plain ZIP (deflated), so
`unzip -p sessions/archive/2026-10.zip NAME | paigow replay -` replays a packed session.
The ledger, not these files, is the record; they are the station's own copies.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from drivers.private import private_folder

ARCHIVE = "archive"


def _old(folder: Path, pattern: str, before: float) -> Iterator[Path]:
    for path in sorted(folder.glob(pattern)):
        if path.is_file() and path.stat().st_mtime < before:
            yield path


def _month(path: Path) -> str:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m")


def _free_name(path: Path, taken: set[str]) -> str:
    name, n = path.name, 1
    while name in taken:
        n += 1
        name = f"{path.stem}-{n}{path.suffix}"
    return name


def archive_older(folder: str | Path, pattern: str, days: int,
                  now: datetime | None = None) -> list[Path]:
    """Pack the files of `folder` matching `pattern` that were last changed more than
    `days` days before `now` into its monthly archives; returns the files packed. A file
    whose name an archive already holds goes in as NAME-2, NAME-3...: never over the
    first. 0 days: nothing is packed (the policy is off)."""
    folder = Path(folder)
    if days <= 0 or not folder.is_dir():
        return []
    before = ((now or datetime.now(UTC)) - timedelta(days=days)).timestamp()
    packed: list[Path] = []
    by_month: dict[str, list[Path]] = {}
    for path in _old(folder, pattern, before):
        by_month.setdefault(_month(path), []).append(path)
    for month, paths in by_month.items():
        target = private_folder(folder / ARCHIVE) / f"{month}.zip"
        names: dict[Path, str] = {}
        with zipfile.ZipFile(target, "a", compression=zipfile.ZIP_DEFLATED) as z:
            taken = set(z.namelist())
            for path in paths:
                names[path] = _free_name(path, taken)
                taken.add(names[path])
                z.write(path, arcname=names[path])
        os.chmod(target, 0o600)
        with zipfile.ZipFile(target) as z:  # read back before anything is removed
            for path in paths:
                if z.read(names[path]) == path.read_bytes():
                    path.unlink()
                    packed.append(path)
    return packed
