"""A station on its own SQLite ledger plays rounds until its disk is full, in a process of
its own whose files may not grow past a few kilobytes more than they are (RLIMIT_FSIZE: a
small disk without root). Then it must stop taking wagers and say why.

    python -m tests.faults.diskfull DATA_DIR SEED

One JSON line at the end: {"refused": what the dealer read, "settled": [round ids settled
and recorded], "unrecorded": [a round settled on the felt whose settlement's write the disk
refused, the station saying so], "taken_after": wagers taken once a write had been
refused}. An unrecorded round is not lost when the station starts again with room: it comes
back in play from the journal and is settled again from its cards.
"""

from __future__ import annotations

import json
import random
import resource
import signal
import sys
from pathlib import Path

from app.core.cards import DECK
from app.core.round import Phase, RoundRules
from app.ledger import Store
from app.session import CardRead, DealerCommand, DealerSession, MemoryPrinter, ShoeStatus
from app.session.procedure import to_set
from app.station import Ledger, Station

HEADROOM = 24 * 1024  # bytes any file may still grow by once the limit is set


def _round(s: DealerSession, rng: random.Random) -> tuple[bool, str]:
    """One round; (settled, the message of the step that was refused, if any)."""
    for key, text in (("new", ""), ("select", "1"), ("wager", "25"), ("select", "3"),
                      ("wager", "40"), ("rng", "")):
        if key == "select" and s.bank_offered() is not None:
            s.handle(DealerCommand("pass_all"))  # no seat banks here
        done = s.handle(DealerCommand(key, text))
        if not done.done and key in ("new", "wager"):
            return False, done.message
    deck = list(DECK)
    rng.shuffle(deck)
    for c in deck:
        s.handle(CardRead(c))
    rnd = s.round
    if rnd is None or rnd.phase is not Phase.SETTING:
        return False, s.message
    if s.dragon_offered() is not None:
        s.handle(DealerCommand("pass_all"))
    for p in to_set(s):
        s.handle(DealerCommand("select", str(p) if p else "7"))
        s.handle(DealerCommand("house_way"))
    settled = s.handle(DealerCommand("settle"))
    return bool(settled.done and s.round and s.round.phase is Phase.SETTLED), settled.message


def main(argv: list[str] | None = None) -> int:
    data, seed = (argv or sys.argv[1:])[:2]
    rng = random.Random(int(seed))
    store = Store(None, table="PG-1", station="disk-full", data_dir=data)
    store.open_shift("Fault Suite")
    station = Station(RoundRules(), ledger=Ledger(store, send_every=None),
                      printer=MemoryPrinter(), randbelow=rng.randrange)
    s, port = station.session, station.port
    assert port is not None
    s.handle(ShoeStatus(False, "offline", "offline"))
    settled: list[str] = []
    for _ in range(2):  # a couple of rounds with room on the disk
        ok, _ = _round(s, rng)
        if ok and port.recording is not None:
            settled.append(port.recording.round_id)
    # The disk fills: no file may grow much past what it is now. A write past it fails
    # (EFBIG) instead of killing the process (SIGXFSZ ignored).
    biggest = max(f.stat().st_size for f in Path(data).rglob("*") if f.is_file())
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (biggest + HEADROOM, biggest + HEADROOM))
    refused, taken_after = "", 0
    unrecorded: list[str] = []
    for _ in range(400):
        ok, message = _round(s, rng)
        if "-v" in sys.argv:
            print(ok, message, s.play.ledger_problem(), file=sys.stderr)
        if ok and port.recording is not None:
            if s.play.ledger_problem() is None:
                settled.append(port.recording.round_id)
            else:  # settled on the felt, its settlement's write refused (and said so)
                unrecorded.append(port.recording.round_id)
        # The station stops at the first write the disk refuses: a step refused with the
        # journal's words (a new round cannot be opened), or a ledger write refused later.
        stopped = "journal" in message or "ledger" in message
        if stopped or s.play.ledger_problem() is not None:
            refused = message if stopped else s.handle(DealerCommand("wager", "25")).message
            # once refused, try more wagers: none may be taken
            for seat in ("2", "4", "5"):
                s.handle(DealerCommand("select", seat))
                if s.handle(DealerCommand("wager", "25")).done:
                    taken_after += 1
            break
    print(json.dumps({"refused": refused, "settled": settled, "unrecorded": unrecorded,
                      "taken_after": taken_after}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
