"""A station in its own process, for the crash and concurrency tests.

    python -m tests.ledger.station play URL DATA_DIR STATION SEED ROUNDS [--stop-in-play]
    python -m tests.ledger.station resume URL DATA_DIR STATION

One JSON object per line on stdout, flushed after every save: {"saved": round, "log": [...]},
{"settled": round, "slip": {...}, "text": "..."}, {"in_play": round, "log": [...]},
{"resumed": round, "log": [...]}, {"status": {...}}.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from app.core.round import Round, RoundRules
from app.ledger import Recording, Store
from app.ledger.codec import encode_record

from .play import finish, play

TABLE = "PG-1"


def _say(**obj: object) -> None:
    print(json.dumps(obj), flush=True)


def _log(rec: Recording) -> list[dict[str, object]]:
    return [encode_record(r) for r in rec.game.log]


def _settled(rec: Recording) -> None:
    assert rec.game.slip is not None
    _say(settled=rec.round_id, slip=rec.game.slip.to_dict(), text=rec.game.slip.text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("play", "resume"))
    ap.add_argument("url")
    ap.add_argument("data_dir")
    ap.add_argument("station")
    ap.add_argument("seed", nargs="?", default="0")
    ap.add_argument("rounds", nargs="?", type=int, default=1)
    ap.add_argument("--stop-in-play", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="a line after every save")
    args = ap.parse_args(argv)
    store = Store(args.url, table=TABLE, station=args.station, data_dir=args.data_dir)
    if args.mode == "resume":
        rec = store.resume()
        if rec is None:
            _say(resumed=None)
            return 1
        _say(resumed=rec.round_id, log=_log(rec))
        finish(rec.game, rec.save)
        _settled(rec)
        _say(status=store.status().to_dict())
        store.close()
        return 0
    if store.shift is None:
        store.open_shift(f"dealer-{args.station}")
    rng = random.Random(args.seed)
    for n in range(args.rounds + (1 if args.stop_in_play else 0)):
        game = Round(RoundRules(), store.rotation())
        rec = store.begin(game)

        def save(rec: Recording = rec) -> None:
            rec.save()
            if args.verbose:
                _say(saved=rec.round_id, log=_log(rec))

        if n == args.rounds:  # the round the station is killed in
            play(game, rng, save, stop_in_setting=True, misdeal_chance=0.0)
            _say(in_play=rec.round_id, log=_log(rec))
            time.sleep(600)
        play(game, rng, save)
        _settled(rec)
    _say(status=store.status().to_dict())
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
