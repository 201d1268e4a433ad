"""The station bundle's lock file (installer/station.lock, `make lock`, `build.sh --locked`)
pins every package the station and its installer ask for, at a version pyproject.toml
allows, each with its hash: a dependency changed without `make lock` fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "installer" / "station.lock"


def _pinned() -> dict[str, str]:
    """name -> version, for each `name==version \\` line; each must carry a hash."""
    text = LOCK.read_text(encoding="utf-8")
    entries = re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+) \\\n((?:\s+--hash=sha256:[0-9a-f]{64}"
                         r"(?: \\)?\n)+)", text, re.M)
    return {canonicalize_name(name): version for name, version, _hashes in entries}


def test_the_lock_pins_every_station_and_installer_requirement_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in (project["dependencies"]
                                       + project["optional-dependencies"]["station"]
                                       + project["optional-dependencies"]["installer"])]
    pinned = _pinned()
    outside = {str(r): pinned.get(canonicalize_name(r.name)) for r in wanted
               if pinned.get(canonicalize_name(r.name)) not in r.specifier}
    assert outside == {}, "run `make lock`: the lock is behind pyproject.toml"


def test_every_line_of_the_lock_that_names_a_package_pins_it_with_a_hash() -> None:
    names = re.findall(r"^([A-Za-z0-9_.\-]+)[=<>~!]", LOCK.read_text(encoding="utf-8"), re.M)
    assert len(names) == len(_pinned()) > 40
