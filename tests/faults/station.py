"""A headless dealer station reading a real shoe: an `app.station.Station` (the dealer
session and the ledger's Store, journal first, then the database, behind the station's one
ledger port) and the shoe's reader on a serial port (a pseudo-terminal with the shoe
simulator behind it), wired as the window wires them (app/ui/main.py, app/ui/shoe.py) but
without Qt: each write is done before the step returns. In a process of its own it can be killed.

    python -m tests.faults.station deal URL DATA_DIR PORT SEED [--stop-after N]
    python -m tests.faults.station resume URL DATA_DIR PORT SEED

One JSON object per line on stdout: {"action": position} once action is taken (deal the
cards now); {"cards": n} after each card kept; {"dealt": {...}} once the deal is whole.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import time
from pathlib import Path
from typing import Any

from app.core.cards import Card
from app.core.round import Phase, RoundRules
from app.core.table import DEALER
from app.ledger import Recording, Store
from app.session import (
    CardRead,
    DealerCommand,
    LeftoversRead,
    MemoryPrinter,
    ShoeFault,
    ShoeStatus,
    Shuffled,
)
from app.session.deal import resume_point
from app.station import Ledger, Station
from drivers.shoe import protocol as p
from drivers.shoe.deal_order import DealStart
from drivers.shoe.transport import ShoeConfig, ShoeReader

TABLE = "PG-1"


class ShoeStation:
    """One station: `pump()` hands the shoe's events to the session as the window does."""

    def __init__(self, url: str | None, data_dir: str | Path | None, port: str, *,
                 seed: int = 0, station: str = "faults-station", memory: bool = False) -> None:
        """`memory`: no ledger at all (the shoe's faults need no database)."""
        self.rng = random.Random(seed)
        self.store: Store | None = None
        self.resumed: Recording | None = None
        ledger: Ledger | None = None
        if not memory:
            self.store = Store(url, table=TABLE, station=station, data_dir=data_dir)
            self.store.claim()
            ledger = Ledger(self.store, send_every=None)  # the store sends on each save
            self.resumed = ledger.resume()
        self.deal = self.resumed.deal() if self.resumed is not None else None
        self.station = Station(RoundRules(), ledger=ledger, printer=MemoryPrinter(),
                               randbelow=self.rng.randrange)
        self.session = self.station.session
        if self.station.port is not None and ledger is not None and ledger.dealer is None:
            self.station.port.open_shift("Fault Suite")
        self.session.handle(ShoeStatus(True, f"online: {port}", "online"))
        if self.resumed is not None:
            self.station.resume(self.resumed, self.deal)
        first, last = resume_point(self.deal)
        self.deal_start = DealStart(first_seq=first)
        self.faults: list[str] = []
        self.heard = False  # a HELLO or heartbeat: the station knows the shoe's count
        self.reader = ShoeReader(ShoeConfig(port, heartbeat_timeout=0, resend_delay=0.05,
                                            resend_timeout=0.3), resume_after=last)
        self.reader.start()

    def open_and_take_action(self, wagers: dict[int, str] | None = None) -> int:
        s = self.session
        s.handle(DealerCommand("new"))
        for seat, dollars in (wagers or {1: "25", 3: "40", 5: "10"}).items():
            s.handle(DealerCommand("select", str(seat)))
            s.handle(DealerCommand("wager", dollars))
        s.handle(DealerCommand("rng"))
        assert s.round is not None and s.round.action is not None, s.message
        self.deal_start.new_deal()
        return s.round.action.position

    def pump(self, timeout: float = 0.05, most: int = 0) -> int:
        """Hand the events read so far to the session (`most`: at most that many, 0: all);
        how many."""
        n = 0
        try:
            event = self.reader.events.get(timeout=timeout)
        except queue.Empty:
            return 0
        while True:
            self._handle(event)
            n += 1
            if most and n >= most:
                return n
            try:
                event = self.reader.events.get_nowait()
            except queue.Empty:
                return n

    def _handle(self, event: p.ShoeEvent) -> None:
        s = self.session
        numbered = self.deal_start.see(event)
        match event:
            case p.Hello() | p.Heartbeat():
                self.heard = True
            case p.CardRead(card=c, seq=seq):
                first = self.deal_start.first_seq
                s.handle(CardRead(c, seq, seq if first is None else first))
            case p.HandDealt():
                for n in numbered:
                    s.handle(CardRead(n.card, n.index, 0))
            case p.Burn(cards=cards):
                s.handle(LeftoversRead(tuple(cards)))
            case p.ShuffleStart():
                s.handle(Shuffled())
            case p.Fault() | p.DeviceError() | p.NoisyLine():
                self.faults.append(str(event))
                s.handle(ShoeFault(str(event)))

    def holes(self) -> list[int]:
        """Places of the deal the shoe lost (the dealer was told to type those cards)."""
        return [i for i, c in enumerate(self.session.deal.stream[:49]) if c is None]

    def type_card(self, index: int, c: Card) -> bool:
        """The dealer types the card at that place of the deal for its position."""
        s = self.session
        assert s.round is not None and s.round.action is not None
        position = s.table.position_of_card(s.round.action.position, index)
        assert position is not None
        s.handle(DealerCommand("select", "7" if position == DEALER else str(position)))
        return s.handle(DealerCommand("cards", str(c))).done

    def holding(self) -> dict[str, Any]:
        """The deal as the station holds it so far, dealt or not: each position's cards."""
        return {"hands": {str(pos): [str(c) for c in cards]
                          for pos, cards in self.session.dealing().items()},
                "leftovers": [str(c) for c in self.session.deal.leftovers or ()]}

    def read_cards(self) -> int:
        return sum(c is not None for c in self.session.deal.stream)

    def dealt(self) -> dict[str, Any] | None:
        rnd = self.session.round
        if rnd is None or rnd.deal is None or rnd.phase is Phase.DEALING:
            return None
        assert rnd.action is not None
        return {"action": rnd.action.position,
                "hands": {str(pos): [str(c) for c in cards]
                          for pos, cards in zip(rnd.deal.order, rnd.deal.hands, strict=True)},
                "leftovers": [str(c) for c in rnd.deal.leftovers]}

    def close(self) -> None:
        self.reader.stop()
        self.station.close()


def _say(**obj: object) -> None:
    print(json.dumps(obj), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("deal", "resume"))
    ap.add_argument("url")
    ap.add_argument("data_dir")
    ap.add_argument("port")
    ap.add_argument("seed", type=int)
    ap.add_argument("--stop-after", type=int, default=0)
    # generous: a loaded machine must not end a deal the shoe is still dealing
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args(argv)
    deadline = time.monotonic() + args.timeout
    st = ShoeStation(args.url, args.data_dir, args.port, seed=args.seed)
    if args.mode == "deal":
        # Action (and so the deal) only once the reader reads the line: pyserial empties a
        # port's input when it opens it, so cards dealt before would be gone unseen.
        while not st.heard and time.monotonic() < deadline:
            st.pump()
        if not st.heard:
            _say(timeout=0, message="the shoe was never heard (no HELLO or BEAT)",
                 faults=st.faults)
            st.close()
            return 1
        _say(action=st.open_and_take_action())
    else:
        _say(resumed=st.resumed.round_id if st.resumed else None,
             kept=st.read_cards(), message=st.session.message)
    said = st.read_cards()
    while time.monotonic() < deadline:
        st.pump(most=1 if args.stop_after else 0)  # one by one: it stops at that card
        n = st.read_cards()
        if n != said:
            said = n
            _say(cards=n)
            if args.stop_after and n >= args.stop_after:
                _say(stopped=n)
                time.sleep(600)  # killed here
        dealt = st.dealt()
        if dealt is not None:
            _say(dealt=dealt, faults=st.faults)
            st.close()
            return 0
    _say(timeout=st.read_cards(), message=st.session.message, faults=st.faults)
    st.close()
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
