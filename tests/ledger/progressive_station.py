"""A station in its own process that settles a round with progressive wagers and stops
between its contribution and its commit, for the kill test:

    python -m tests.ledger.progressive_station URL DATA_DIR STATION SEATS

The round is played into the journal only (nothing sent), then sent: once the contribution
is written in the settlement's transaction, and before that transaction commits, it prints
{"contributed": round_id} and waits to be killed.
"""

from __future__ import annotations

import json
import sys
import time

from app.ledger import Store, progressive

from .progressive_play import progressive_round


def main(argv: list[str]) -> int:
    url, data_dir, station, seats = argv
    store = Store(url, table="PG-1", station=station, data_dir=data_dir, send_on_save=False)
    store.open_shift("Kim")
    store.drain()
    rec = progressive_round(store, [int(s) for s in seats.split(",")])
    contribute = progressive.contribute

    def contribute_then_hang(*args: object, **kw: object) -> object:
        done = contribute(*args, **kw)  # type: ignore[arg-type]
        print(json.dumps({"contributed": rec.round_id}), flush=True)
        time.sleep(600)  # killed here: the transaction never commits
        return done

    progressive.contribute = contribute_then_hang  # type: ignore[assignment]
    store.drain()
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
