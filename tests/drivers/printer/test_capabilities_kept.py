"""python-escpos's printer capabilities kept in the program's cache (drivers/printer/
config.py): the YAML it parses at import (0.8 s) is parsed once, then read back at each
start, as a station or `paigow print-slip` starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
START = ("from app.cache import use_cache; use_cache(); "
         "from drivers.printer.config import load_escpos; load_escpos(); "
         "import escpos.capabilities as c; print(c.pickle_path)")


def started(cache: Path) -> str:
    env = {**os.environ, "PAIGOW_CACHE_DIR": str(cache)}
    env.pop("ESCPOS_CAPABILITIES_PICKLE_DIR", None)
    proc = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_the_printers_capabilities_are_kept_in_the_cache_and_read_back(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = Path(started(cache))
    assert first.parent == cache / "escpos" and first.exists()
    written = first.stat().st_mtime_ns
    assert Path(started(cache)) == first
    assert first.stat().st_mtime_ns == written  # read back, not parsed and written again


def test_a_cache_that_cannot_be_made_leaves_python_escpos_its_own_folder(tmp_path: Path
                                                                         ) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    kept = Path(started(blocked))
    assert kept.exists() and blocked not in kept.parents
