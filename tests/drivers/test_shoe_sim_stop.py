"""`paigow shoe-sim` stopped from outside (systemctl, kill, a closed terminal) cleans up its
link to the pseudo-terminal, as Ctrl-C does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stopped_shoe_sim_removes_its_link(tmp_path: Path, stop: signal.Signals) -> None:
    link = tmp_path / "shoe"
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "shoe-sim", "--link", str(link),
                             "--rounds", "0", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # generous: a loaded machine is slow, not wrong
        while not os.path.islink(link) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        if not os.path.islink(link):
            proc.kill()
            out, err = proc.communicate(timeout=30)
            pytest.fail(f"the simulator made no link {link} in 120 s (exit {proc.returncode});"
                        f" it said: {out!r} {err!r}")
        proc.send_signal(stop)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate(timeout=30)
            pytest.fail(f"the simulator did not stop within 120 s of {stop.name}; it said: "
                        f"{out!r} {err!r}")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    assert not os.path.lexists(link)
