"""The Fortune bonus's exact odds (issue 26): `paigow bonus --exact fortune-8000` counts all
154,143,080 seven-card hands; the goal is under 60 s on the two-core machine. Timed whole,
as a dealer's pit would run it (a fresh process)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

GOAL_S = 60.0
NAME = "fortune-8000"


def main() -> None:
    start = time.perf_counter()
    ran = subprocess.run([sys.executable, "-m", "app.cli", "bonus", "--exact", NAME, "--json"],
                         check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    edge = json.loads(ran.stdout)["house_edge"]
    print(f"bench bonus-exact name={NAME} seconds={seconds:.1f} goal<{GOAL_S:.0f}s "
          f"{'met' if seconds < GOAL_S else 'missed'} house_edge={edge * 100:.4f}%")


if __name__ == "__main__":
    main()
