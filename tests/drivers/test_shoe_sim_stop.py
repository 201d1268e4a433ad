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
        deadline = time.monotonic() + 30
        while not os.path.islink(link) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.path.islink(link), "the simulator never made its link"
        proc.send_signal(stop)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    assert not os.path.lexists(link)
