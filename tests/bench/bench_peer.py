"""`paigow house-way --json` against an open peer, side by side on the same random hands,
each through its own command line: the npm package `pokersolver` (MIT; its Pai Gow House
Way, MGM-style), installed by the bench into .bench/ (ignored by git). Goals (issue 24):
30x the peer's hands per second on 200,000 hands; one hand answered in under 0.1 s from a
cold process.

Ours answers a file of 20,000 hands or more in numpy batches (app/commands/answer_vectors.py),
on one core, as the peer does.

Each figure is the best of a few runs (the least disturbed by other work on the machine),
wall time of the whole command, start-up included; the machine's load when the bench began
is printed with them, and Python's own start-up (`python -c pass`) for scale. Our tables,
the flush entries too (a minute or two a card, once), and the card's pack are made and the
code byte-compiled (as an installed package is) before anything is timed.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from app.core.cards import DECK

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / ".bench"
PEER = "pokersolver@2.1.4"
SIZES = ((200_000, 30.0),)
ONE_HAND = "AS KD TH 9C 5S 3D JK".split()
COLD_GOAL = 0.1

# The peer's command line: a file of hands (our notation) in, one JSON line a hand out.
PEER_SCRIPT = r"""
const fs = require('fs');
const { PaiGowPokerHelper } = require('pokersolver');
const conv = (t) => t === 'JK' ? 'Or' : t[0] + t[1].toLowerCase();
const out = [];
for (const line of fs.readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const r = PaiGowPokerHelper.solve(line.trim().split(/\s+/).map(conv));
  out.push(JSON.stringify({ high: r.hiHand.cards.map(String), low: r.loHand.cards.map(String) }));
  if (out.length >= 4096) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; }
}
if (out.length) process.stdout.write(out.join('\n') + '\n');
"""


def install_peer() -> str | None:
    """Install the peer into .bench/ when missing; None when it is there, else why not."""
    if (HERE / "node_modules" / "pokersolver").is_dir():
        return None
    if shutil.which("node") is None or shutil.which("npm") is None:
        return ("node and npm are not on this machine: install the Debian packages 'nodejs' "
                "and 'npm' to run the peer")
    HERE.mkdir(exist_ok=True)
    ran = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent",
                          "--prefix", str(HERE), PEER], capture_output=True, text=True)
    if ran.returncode != 0:
        return f"npm could not install {PEER}: {ran.stderr.strip()[-300:]}"
    return None


def hands_file(count: int) -> Path:
    path = HERE / f"hands-{count}.txt"
    if not path.exists():
        rng = random.Random(f"bench/{count}")
        path.write_text("".join(" ".join(str(c) for c in rng.sample(DECK, 7)) + "\n"
                                for _ in range(count)))
    return path


def best_seconds(command: list[str], stdin: Path | None, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        with open(stdin or os.devnull, "rb") as source:
            start = time.perf_counter()
            subprocess.run(command, stdin=source, stdout=subprocess.DEVNULL, check=True)
            best = min(best, time.perf_counter() - start)
    return best


def prepare_ours() -> list[str]:
    """Our command, the shipped table's card's table built and the code byte-compiled
    first."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "app")],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "-m", "app.cache", "standard"], check=True,
                   stdout=subprocess.DEVNULL)
    return [sys.executable, "-m", "app.cli", "house-way"]


def main() -> None:
    load = os.getloadavg()[0]
    ours = prepare_ours()
    python = best_seconds([sys.executable, "-c", "pass"], None, repeats=10)
    print(f"bench house-way load={load:.2f} cores={os.cpu_count()} "
          f"python-start={python * 1000:.0f}ms")
    cold = min(best_seconds([*ours, *ONE_HAND], None, repeats=1) for _ in range(10))
    print(f"bench house-way cold-one-hand={cold:.3f}s goal<{COLD_GOAL}s "
          f"{'met' if cold < COLD_GOAL else 'missed'}")
    why_not = install_peer()
    if why_not is not None:
        print(f"bench house-way-vs-pokersolver not run: {why_not}")
        return
    (HERE / "peer.js").write_text(PEER_SCRIPT)
    for count, goal in SIZES:
        path = hands_file(count)
        mine = count / best_seconds([*ours, "--json"], path, repeats=10)
        theirs = count / best_seconds(["node", str(HERE / "peer.js"), str(path)], None,
                                      repeats=2)
        ratio = mine / theirs
        print(f"bench house-way-vs-pokersolver hands={count} ours={mine:.0f}/s (one core) "
              f"pokersolver={theirs:.0f}/s (one core) "
              f"ratio={ratio:.1f}x goal={goal:.0f}x {'met' if ratio >= goal else 'missed'}")


if __name__ == "__main__":
    main()
