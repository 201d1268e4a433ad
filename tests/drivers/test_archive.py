"""Old session files and slip PDFs are packed into monthly archives (drivers/archive.py,
`[files] archive_after_days`): nothing is lost, nothing newer is touched."""

from __future__ import annotations

import os
import stat
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from drivers.archive import archive_older

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def _file(folder: Path, name: str, day: datetime, body: bytes) -> Path:
    path = folder / name
    path.write_bytes(body)
    os.utime(path, (day.timestamp(), day.timestamp()))
    return path


def test_files_older_than_the_policy_go_into_their_month_s_archive_and_newer_ones_stay(
        tmp_path: Path) -> None:
    old_oct = _file(tmp_path, "a.jsonl", datetime(2026, 10, 3, tzinfo=UTC), b"october\n")
    old_sep = _file(tmp_path, "b.jsonl", datetime(2026, 9, 30, tzinfo=UTC), b"september\n")
    recent = _file(tmp_path, "c.jsonl", datetime(2026, 11, 20, tzinfo=UTC), b"recent\n")
    other = _file(tmp_path, "d.pdf", datetime(2026, 9, 1, tzinfo=UTC), b"%PDF")
    packed = archive_older(tmp_path, "*.jsonl", 30, now=NOW)
    assert packed == [old_oct, old_sep]
    assert not old_oct.exists() and not old_sep.exists()
    assert recent.exists() and other.exists()  # newer, or not the pattern: untouched
    with zipfile.ZipFile(tmp_path / "archive" / "2026-10.zip") as z:
        assert z.read("a.jsonl") == b"october\n"
    with zipfile.ZipFile(tmp_path / "archive" / "2026-09.zip") as z:
        assert z.namelist() == ["b.jsonl"] and z.read("b.jsonl") == b"september\n"


def test_a_name_packed_twice_keeps_both_copies_the_second_renamed(tmp_path: Path) -> None:
    day = datetime(2026, 10, 3, tzinfo=UTC)
    _file(tmp_path, "slip.pdf", day, b"first")
    archive_older(tmp_path, "*.pdf", 30, now=NOW)
    _file(tmp_path, "slip.pdf", day, b"second")
    archive_older(tmp_path, "*.pdf", 30, now=NOW)
    with zipfile.ZipFile(tmp_path / "archive" / "2026-10.zip") as z:
        assert [(i.filename, z.read(i)) for i in z.infolist()] == [
            ("slip.pdf", b"first"), ("slip-2.pdf", b"second")]


def test_archives_are_private_like_the_files_they_hold(tmp_path: Path) -> None:
    _file(tmp_path, "a.jsonl", datetime(2026, 10, 3, tzinfo=UTC), b"cards and wagers")
    archive_older(tmp_path, "*.jsonl", 30, now=NOW)
    assert stat.S_IMODE((tmp_path / "archive").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "archive" / "2026-10.zip").stat().st_mode) == 0o600


def test_a_policy_of_zero_days_packs_nothing(tmp_path: Path) -> None:
    old = _file(tmp_path, "a.jsonl", datetime(2020, 1, 1, tzinfo=UTC), b"x")
    assert archive_older(tmp_path, "*.jsonl", 0, now=NOW) == []
    assert old.exists() and not (tmp_path / "archive").exists()
