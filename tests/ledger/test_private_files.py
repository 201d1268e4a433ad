"""Issue 23, item 9: whatever the umask, every file the station makes - the ledger's SQLite
file (with its -wal and -shm), the journal, the station's identity, the printer's kept
slips, the floor's cookie secret - is 0600, in folders the station makes 0700. Before,
outside the installer (`make run`, a station started by hand, umask 022), they were 0644 in
0755 folders: anyone on the PC could copy the ledger and its people's secret hashes."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.ledger import Recording, Store

from .play import record_rounds


@pytest.fixture(params=[0o022, 0o002, 0o000], ids=["umask-022", "umask-002", "umask-000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    before = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(before)


def modes(top: Path) -> dict[str, str]:
    """Every folder and file under `top` (itself included) -> its mode, as `ls -l` says it
    ('drwx------', '-rw-------')."""
    out = {".": stat.filemode(top.stat().st_mode)}
    for path in sorted(top.rglob("*")):
        out[str(path.relative_to(top))] = stat.filemode(path.lstat().st_mode)
    return out


def private(found: dict[str, str]) -> None:
    loose = {k: v for k, v in found.items()
             if v not in ("drwx------", "-rw-------")}
    assert not loose, loose


def test_a_station_s_ledger_journal_and_identity_are_0600_in_0700_folders(
        umask: int, tmp_path: Path) -> None:
    top = tmp_path / "home"  # none of it there yet: the station makes every folder
    data = top / "share" / "paigow-station"
    with Store(None, table="PG-1", station="s", data_dir=data) as store:
        store.open_shift("Kim")
        recs = [r for r in record_rounds(store, 2, "modes") if isinstance(r, Recording)]
        assert recs
        found = modes(top)  # while open: SQLite's -wal and -shm files are there
    assert {"share/paigow-station/ledger.sqlite", "share/paigow-station/ledger.sqlite-wal",
            "share/paigow-station/ledger.sqlite-shm"} <= set(found)
    assert any(k.startswith("share/paigow-station/journal/") and k.endswith(".sqlite-wal")
               for k in found)
    assert any(k.startswith("share/paigow-station/identity/") for k in found)
    assert "share/paigow-station/signing-key" in found  # the station's Ed25519 key
    private(found)
    private(modes(top))


def test_the_installer_s_folder_keeps_its_mode_and_what_the_station_adds_is_0600(
        umask: int, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o750)
    data.chmod(0o750)  # the installer's choice (a group that backs the folder up)
    with Store(None, table="PG-1", station="s", data_dir=data) as store:
        store.open_shift("Kim")
    found = modes(data)
    assert found.pop(".") == "drwxr-x---"
    private(found)


def test_the_printer_s_kept_slips_are_0600_in_a_0700_folder(umask: int,
                                                            tmp_path: Path) -> None:
    from drivers.printer.queue import ReprintQueue

    queue = ReprintQueue(tmp_path / "q" / "reprint-queue")
    now = datetime.now(UTC)
    slip = {"schema": "paigow.slip/1", "table": "PG-1", "round": 12}
    queue.keep(slip, time=now, now=now, problem="paper-out", message="out of paper")
    with queue.locked():
        pass
    found = modes(tmp_path / "q")
    assert any(k.endswith(".json") for k in found) and "reprint-queue/.lock" in found
    private(found)


def test_the_floor_s_cookie_secret_is_0600_in_a_0700_folder(umask: int,
                                                            tmp_path: Path) -> None:
    from app.floor.main import secret_key

    secret = secret_key(tmp_path / "etc" / "paigow" / "floor.secret")
    assert len(secret) >= 32
    found = modes(tmp_path / "etc")
    assert "paigow/floor.secret" in found
    private(found)
