"""The shoe simulator on a pseudo-terminal, and a station process killed mid-deal and
started again: shared by the restart test and the fault suite."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from app.core.cards import DECK, Card
from app.core.table import Table
from drivers.shoe.simulator import Injection, PtyLink, ShoeDevice, Simulator

ROOT = Path(__file__).resolve().parents[2]


class Shoe:
    """The simulator on a pseudo-terminal, dealing one fixed deck when asked (`go`)."""

    def __init__(self, folder: Path, deck: list[Card], card_delay: float = 0.03,
                 inject: tuple[Injection, ...] = (), unplug_seconds: float = 0.5,
                 shuffle: bool = True, sent: int = 0) -> None:
        """`shuffle`: False for a shoe that reads cards only; `sent`: the messages it sent
        before this deal (0: just switched on)."""
        self.link = PtyLink(str(folder / "shoe"))
        self.sim = Simulator(self.link, device=ShoeDevice(seq=sent), rounds=0, action="none",
                             shuffle=shuffle, card_delay=card_delay, heartbeat=0.3,
                             inject=inject, unplug_seconds=unplug_seconds)
        self.deck = deck
        self.go = threading.Event()
        self.dealt = threading.Event()
        self.quit = threading.Event()
        self.link.open()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.sim.plug()
        while not self.quit.is_set():
            if self.go.is_set():
                self.go.clear()
                self.sim.deal_now(self.deck)
                self.dealt.set()
            self.sim.idle(0.02)

    def close(self) -> None:
        self.quit.set()
        self.sim.stop()
        self.thread.join(5)
        self.link.close()
        self.link.remove_link()


def start(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.faults.station", *args], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def until(proc: subprocess.Popen[str], key: str) -> dict[str, Any]:
    """The station's next line that says `key`; the station's own deadline bounds the wait
    (tests/faults/station.py --timeout), and if it ends first, all it said is told."""
    assert proc.stdout is not None
    said: list[str] = []
    for line in proc.stdout:
        said.append(line.rstrip())
        obj = json.loads(line)
        if key in obj:
            return obj
    _, err = proc.communicate(timeout=60)
    raise AssertionError(f"the station ended (exit {proc.returncode}) before {key!r}; it "
                         f"said:\n" + "\n".join(said[-30:]) + f"\nstderr: {err[-3000:]!r}")


def expected_deal(deck: list[Card], action: int) -> dict[str, list[str]]:
    table = Table("PG-1")
    hands: dict[str, list[str]] = {}
    for i, c in enumerate(deck[:49]):
        pos = table.position_of_card(action, i)
        hands.setdefault(str(pos), []).append(str(c))
    return hands


def kill_and_resume(tmp_path: Path, seed: int, stop_after: int) -> dict[str, Any]:
    """Deal, kill the station after `stop_after` cards, let the shoe deal the rest, restart;
    the deal as the restarted station holds it, and what the shoe dealt."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    shoe = Shoe(tmp_path, deck)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    data = str(tmp_path / "station")
    try:
        first = start("deal", url, data, shoe.link.link or "", str(seed),
                      "--stop-after", str(stop_after))
        action = until(first, "action")["action"]
        shoe.go.set()
        stopped = until(first, "stopped")["stopped"]
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert first.returncode == -signal.SIGKILL
        # the rest of the deck is dealt while it is dead
        assert shoe.dealt.wait(300), "the shoe did not finish dealing in 300 s"
        again = start("resume", url, data, shoe.link.link or "", str(seed))
        resumed = until(again, "resumed")
        dealt = until(again, "dealt")
        again.communicate(timeout=120)
        return {"deck": deck, "action": action, "stopped": stopped, "resumed": resumed,
                "dealt": dealt}
    finally:
        shoe.close()


def place_errors(run: dict[str, Any]) -> tuple[int, int, int]:
    """(cards lost, cards doubled, cards misplaced) of the restarted deal."""
    deck, got = run["deck"], run["dealt"]["dealt"]
    want = expected_deal(deck, run["action"])
    held = [c for cards in got["hands"].values() for c in cards] + got["leftovers"]
    lost = len({str(c) for c in deck} - set(held))
    doubled = len(held) - len(set(held))
    misplaced = sum(a != b for pos in want for a, b in zip(want[pos], got["hands"].get(pos, []),
                                                             strict=False))
    return lost, doubled, misplaced
