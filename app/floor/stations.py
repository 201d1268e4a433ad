"""Headless dealer stations for the demo floor, the browser tests and the load test.

Each is a real `DealerSession` (the station's behaviour without a window) driven by the
events a dealer and a card-reading shoe would send: a new round, the bank offered and
taken or passed, wagers, action from the RNG, the shoe's cards one by one, the hands set
(by the player now and then, fouls included, else the House Way), the settlement. Each is
an `app.station.Station` (the window's wiring without the window): the round goes to the
ledger through the station's own `Store` (journal first, then the database, each write
done before the step returns), and after every step the station's heartbeat goes to the floor
(`app.ledger.floor_status`). The shoe is simulated in process: a shuffled deck read card by
card, as `paigow shoe-sim` would send it over a serial line.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from app.core.bonus.table_bonus import TableBonus
from app.core.cards import DECK, Card
from app.core.progressive import ProgressiveCard
from app.core.round import Phase, RoundRules
from app.core.table import DEALER, Table
from app.ledger import Store
from app.ledger.floor_status import Device, FloorStatus, live_state
from app.ledger.models import now
from app.session import (
    CardRead,
    DealerCommand,
    FrontTyped,
    KeyPressed,
    MemoryPrinter,
    ShoeStatus,
    SupervisorCommand,
)
from app.session.procedure import to_set
from app.station import Jobs, Ledger, Station


class HeadlessStation:
    """One table played by a headless dealer. `step()` does the next thing a dealer does;
    `play_round()` plays one round to its settlement (or its void)."""

    def __init__(self, database_url: str, table: str, data_dir: str | Path, *,
                 dealer: str = "Demo dealer", seed: int | None = None,
                 void_chance: float = 0.03, foul_chance: float = 0.15,
                 status_engine: Engine | None = None, supervisor: tuple[str, str] | None = None,
                 bonus: TableBonus | None = None, bonus_chance: float = 0.5,
                 progressive: ProgressiveCard | None = None,
                 progressive_chance: float = 0.5,
                 decks: Iterable[Sequence[Card]] = ()) -> None:
        """`supervisor`: (name, secret) of the person in the ledger who stands at this
        headless table: its voids (its own and those the floor asks for) are theirs,
        checked by the ledger as a station's are, and so are its approvals of a big bonus
        payout and its sign-ins to pay a progressive hit. `bonus`: the table's bonus bet,
        taken beside a wager at `bonus_chance`; `progressive`: the linked progressive the
        table is on, its $1 wager taken beside a wager at `progressive_chance`. `decks`:
        the decks the shoe reads first, in order (a test's stacked decks), then shuffled
        ones."""
        self.table = table
        self.rng = random.Random(seed)
        self.void_chance = void_chance
        self.foul_chance = foul_chance
        self.bonus_chance = bonus_chance
        self.progressive_chance = progressive_chance
        self.decks = [tuple(d) for d in decks]
        self.store = Store(database_url, table=table, station=f"{table.lower()}-station",
                           data_dir=data_dir)
        self.supervisor = supervisor
        if supervisor is not None and not self.store.enrolled():
            # the demo's supervisor enrolls each simulated station, as one would a real one
            self.store.enroll(self.store.authorise(*supervisor, "enroll"))
        # The store sends each write on as it is made (no sender on the pool).
        self.station = Station(RoundRules(table=Table(table), bonus=bonus,
                                          progressive=progressive),
                               ledger=Ledger(self.store, send_every=None),
                               printer=MemoryPrinter(), randbelow=self.rng.randrange)
        self.session = self.station.session
        assert self.station.port is not None
        self.ledger = self.station.port
        self.ledger.supervisor = supervisor
        self.ledger.open_shift(dealer)
        self.status = FloorStatus(status_engine or database_url, table=table,
                                  station=self.store.station, identity=self.store.station_id)
        self.session.handle(ShoeStatus(True, "online: simulated shoe", "online", demo=True))
        self.last_settled: datetime | None = None
        self.settled: list[int] = []  # the round numbers this station settled
        self.voided: list[int] = []
        self.seq = 0
        self.beat()

    # --- the heartbeat ----------------------------------------------------------------------

    def devices(self) -> dict[str, Device]:
        st = self.store.status()
        return {"shoe": Device(True, "online: simulated shoe"),
                "printer": Device(True, "ready"),
                "database": Device(st.online and not st.refused,
                                   "recording" if st.online else (st.banner or "offline"))}

    def beat(self) -> bool:
        self.answer_requests()
        s = self.session
        return self.status.beat(live_state(s.round, round_id=self.ledger.round_id,
                                           dealer=self.ledger.dealer,
                                           last_settled_at=self.last_settled,
                                           devices=self.devices()))

    def answer_requests(self) -> None:
        """Do what the floor asked (void the round in play), as the pit view would: the
        supervisor's command through the session, so the ledger's records are the same."""
        for req in self.status.requests():
            rnd = self.session.round
            if req.kind != "void":
                self.status.answer(req.id, f"this station does not do {req.kind!r}")
            elif (rnd is None or self.ledger.round_id != req.round_id
                  or rnd.phase is Phase.SETTLED):
                self.status.answer(req.id, "not voided: that round is no longer in play "
                                           "here (a settled round is corrected, not voided)")
            else:
                who = self.supervisor[0] if self.supervisor else req.by
                changes = self.session.handle(SupervisorCommand("void", who, req.reason))
                if changes.done:
                    self.voided.append(rnd.rotation.round_no)
                self.status.answer(req.id, changes.message)

    # --- a round ----------------------------------------------------------------------------

    def key(self, key: str) -> bool:
        return self.session.handle(KeyPressed(key)).done

    def cmd(self, command: str, text: str = "") -> bool:
        return self.session.handle(DealerCommand(command, text)).done

    def steps(self) -> list[Callable[[], None]]:
        """A round as the dealer's steps, each followed by a heartbeat by the caller."""
        return [self._open, self._bank, self._wagers, self._action, self._deal, self._dragon,
                self._set, self._settle]

    def play_round(self, pause: Callable[[float], object] | None = None,
                   step_s: float = 0.0) -> bool:
        """One round, each step followed by a heartbeat (and `pause(step_s)`); True when
        it settled, False when the pit voided it."""
        for step in self.steps():
            if step != self._open and self.session.round is None:
                return False  # the floor had it voided between two steps
            step()
            self.beat()
            rnd = self.session.round
            if rnd is not None and rnd.phase is not Phase.SETTLED and self._maybe_void():
                self.beat()
                return False
            if pause is not None and step_s:
                pause(step_s)
        return True

    def _open(self) -> None:
        if not self.key("N"):
            raise RuntimeError(f"{self.table}: a new round would not open: "
                               f"{self.session.message}")

    def _bank(self) -> None:
        s = self.session
        while s.bank_offered() is not None:
            if self.rng.random() < 0.5 and self.key("B") and self.cmd("bank", "2000"):
                return
            if not self.key("Q"):
                self.key("Shift+Q")
                return

    def _wagers(self) -> None:
        s = self.session
        rnd = s.round
        assert rnd is not None
        banker = rnd.bank.player
        seats = [p for p in range(1, 7) if p != banker]
        lim = s.rules.limits
        for seat in self.rng.sample(seats, self.rng.randint(1, min(5, len(seats)))):
            dollars = self.rng.randrange(lim.minimum, min(lim.maximum, 20_000) + 1, 500)
            self.key(str(seat))
            self.cmd("wager", str(dollars // 100))
            if s.keyboard.asking is not None:  # far above the seat's last wager: the demo player
                self.cmd("confirm")  # means it, and the session holds it until confirmed
            bonus = s.rules.bonus
            if bonus is not None and self.rng.random() < self.bonus_chance:
                self.key(str(seat))  # drawn only at a bonus table: the others play as before
                self.cmd("bonus", str(self.rng.choice((bonus.minimum, 500, 2500,
                                                       bonus.maximum)) // 100))
            if s.rules.progressive is not None and self.rng.random() < self.progressive_chance:
                self.key(str(seat))
                self.cmd("progressive")

    def _action(self) -> None:
        self.key("R")

    def _deal(self) -> None:
        if self.decks:
            deck = list(self.decks.pop(0))
        else:
            deck = list(DECK)
            self.rng.shuffle(deck)
        for card in deck:
            self.seq += 1
            self.session.handle(CardRead(card, self.seq))

    def _dragon(self) -> None:
        if self.session.dragon_offered() is not None:
            self.key("Shift+Q")

    def _set(self) -> None:
        s = self.session
        guard = 0
        while (waiting := to_set(s)) and guard < 20:
            guard += 1
            p = waiting[0]
            self.key("7" if p == DEALER else str(p))
            rnd = s.round
            assert rnd is not None
            if p != DEALER and self.rng.random() < self.foul_chance:
                cards = self.rng.sample(list(rnd.hands[p].cards), 2)
                s.handle(FrontTyped(" ".join(map(str, cards))))
                if self.key("F"):
                    continue
            self.key("H")

    def _settle(self) -> None:
        s = self.session
        rnd = s.round
        if not self.key("S") or rnd is None:
            raise RuntimeError(f"{self.table}: the round would not settle: {s.message}")
        if rnd.phase is not Phase.SETTLED and rnd.bonus_held is not None:
            # a big bonus payout waits: the table's supervisor signs in and approves it
            who, secret = self.supervisor or ("Pat (pit)", "")
            if not s.handle(SupervisorCommand("approve_bonus", who, secret=secret)).done:
                raise RuntimeError(f"{self.table}: the bonus was not approved: {s.message}")
        progressive = s.play.progressive
        while progressive.due() and progressive.online and not progressive.paying:
            # a progressive hit waits: the table's supervisor signs in and it is paid
            who, secret = self.supervisor or ("Pat (pit)", "")
            if not s.handle(SupervisorCommand("pay_progressive", who, secret=secret)).done:
                raise RuntimeError(f"{self.table}: the progressive hit was not paid: "
                                   f"{s.message}")
        self.last_settled = now()
        self.settled.append(rnd.rotation.round_no)

    def _maybe_void(self) -> bool:
        rnd = self.session.round
        # `void_chance` is per round: spread over its steps
        if rnd is None or self.rng.random() >= self.void_chance / len(self.steps()):
            return False
        who = self.supervisor[0] if self.supervisor else "Pat (pit)"
        done = self.session.handle(SupervisorCommand("void", who,
                                                     "the demo's pit voids a round")).done
        if done:
            self.voided.append(rnd.rotation.round_no)
        return done

    def close(self) -> None:
        self.status.close()
        self.station.close()


class DemoFloor:
    """Stations playing rounds on threads, one round every `round_s` seconds or so."""

    def __init__(self, database_url: str, data_dir: str | Path, *, tables: int = 4,
                 round_s: float = 8.0, seed: int | None = None, prefix: str = "PG-",
                 supervisor: tuple[str, str] | None = None,
                 bonus: TableBonus | None = None,
                 progressive: ProgressiveCard | None = None) -> None:
        """`bonus`: every table's bonus bet (None: the tables take none); `progressive`:
        the linked progressive every table is on (None: none)."""
        self.round_s = round_s
        self.stations = [HeadlessStation(database_url, f"{prefix}{i + 1}",
                                         Path(data_dir) / f"station-{i + 1}",
                                         dealer=DEALERS[i % len(DEALERS)],
                                         seed=None if seed is None else seed + i,
                                         supervisor=supervisor, bonus=bonus,
                                         progressive=progressive)
                         for i in range(tables)]
        self._stop = threading.Event()
        self._tables = Jobs(max(tables, 1), "demo-table")  # one table's rounds a thread
        self.errors: list[str] = []

    def start(self) -> None:
        for st in self.stations:
            self._tables.submit(partial(self._run, st))

    def _run(self, st: HeadlessStation) -> None:
        step_s = self.round_s / len(st.steps())
        while not self._stop.is_set():
            try:
                st.play_round(self._stop.wait, step_s)
            except Exception as e:  # noqa: BLE001 - a demo table stops, the floor shows it
                self.errors.append(f"{st.table}: {e}")
                return
            self._stop.wait(step_s)

    def stop(self) -> None:
        """Stop every table (after its step under way) and close its station; once."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._tables.close()
        for st in self.stations:
            st.close()


DEALERS = ("Kim Park", "Ana Reyes", "Sam Okafor", "Lee Chen", "Mo Haddad", "Jo Brandt")
