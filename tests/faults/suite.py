"""The fault suite (issues 15 and 17, "Faults, measured"): each fault made on purpose, many
times, and what it cost counted. Every count must be 0.

    python -m tests.faults            the short form (in `make test`, by test_suite.py)
    python -m tests.faults --soak     the long form (`make soak`)

Each fault, how it is made, and what is counted:

- shoe frames: the shoe simulator on a pseudo-terminal injects garbage, cut-off
  (truncated), doubled, damaged, dropped and swapped (reordered) messages, and an unplug
  mid-deal, into a deal read by the station's reader and session. Cards lost, doubled,
  misplaced. The same for a shoe that reads cards only (no SHUFFLE, issue 23): its deal's
  first card lost for good, its message #1 damaged just after HELLO,0, a card lost for good
  (the dealer types it where told).
- a noisy line: a megabyte of random bytes, or of `$` only, into the real window's shoe
  line, three good cards after it. The window frozen (its event loop still for over 1 s),
  the cards after the noise lost, the dealer flooded (over 20 messages) or never told.
- restart mid-deal: a station process killed (SIGKILL) after a random number of cards, the
  shoe dealing on, the station started again. Cards lost, doubled, misplaced.
- kill -9: a station process playing rounds killed at a random save, started again. Rounds
  lost, half-written, doubled; open rounds resumed.
- same identity: a station's data directory copied to a second PC while the first runs, on
  PostgreSQL; and two PCs with one name. Stations merged.
- PostgreSQL restarted: four station processes write rounds while the server is stopped and
  started. Rows lost, doubled.
- disk full: a station process whose files may not grow (RLIMIT_FSIZE) plays until the disk
  is full. Wagers taken after, rounds lost, not said why.
- fuzz: hypothesis, random text into every parser the station has (cards, money, dice,
  config, round files, recorded sessions, the shoe's line). Tracebacks.
- forged records (issue 23, tests/faults/forgery.py): a correction and a supervisor's
  sign-in written with a database login and linked by the published recipe; the owner's
  rewrite re-signed with a key of their own and their cut of the last round. Forgeries
  taken for records, counted in the totals or as tries; rewrites and cuts the anchors miss.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 120.0  # a deadline for what should come in a second: generous, for a loaded machine


@dataclass
class Row:
    """One fault: how many times it was made and what it cost (each count must be 0)."""

    fault: str
    trials: int
    counts: dict[str, int]
    seen: dict[str, int] = field(default_factory=dict)  # what happened, not a loss
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not any(self.counts.values())


def table(rows: list[Row]) -> str:
    """The counts as a table (markdown: it goes into docs as it is)."""
    out = ["| fault | trials | counted (must be 0) | seen | s |", "|---|---:|---|---|---:|"]
    for r in rows:
        counts = ", ".join(f"{k} {v}" for k, v in r.counts.items())
        seen = ", ".join(f"{k} {v}" for k, v in r.seen.items()) or "-"
        out.append(f"| {r.fault} | {r.trials} | {counts} | {seen} | {r.seconds:.0f} |")
    bad = [r.fault for r in rows if not r.ok]
    out.append("")
    out.append("all counts 0" if not bad else "NOT ZERO: " + ", ".join(bad))
    return "\n".join(out)


@contextmanager
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="paigow-faults-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _spawn(module: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", module, *args], cwd=ROOT, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(proc: subprocess.Popen[str], timeout: float = 120) -> list[dict[str, Any]]:
    out, _ = proc.communicate(timeout=timeout)
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


# --- the shoe's line -----------------------------------------------------------------------

MB = 1 << 20
TOLD_AT_MOST = 20  # messages a megabyte of noise may put before the dealer (issue 17: 8,000)


def noisy_line(trials: int) -> Row:
    """A megabyte of noise (random bytes, then `$` only) into the real window's shoe line,
    three good cards after it (tests/faults/noise.py, a process of its own each time)."""
    from .noise import FROZEN_S

    frozen = lost = flooded = 0
    longest_ms = gap_ms = told = 0
    for i in range(trials):
        kind = ("random", "dollars")[i % 2]
        (got,) = _lines(_spawn("tests.faults.noise", kind, str(MB)), timeout=600)
        frozen += got["longest_work_s"] > FROZEN_S
        lost += got["cards_after"] != got["expected"]
        flooded += got["told"] > TOLD_AT_MOST or got["summaries"] < 1
        longest_ms = max(longest_ms, round(got["longest_work_s"] * 1000))
        gap_ms = max(gap_ms, round(got["longest_gap_s"] * 1000))
        told = max(told, got["told"])
    return Row("a noisy line: 1 MB of noise into the window's shoe line", trials,
               {"window busy over 1 s without a turn": frozen, "cards lost after it": lost,
                "dealer flooded or not told": flooded},
               {"longest GUI work ms": longest_ms, "longest GUI gap ms": gap_ms,
                "messages told at most": told})


SHOE_FAULTS = {"garbage": "garbage", "truncated": "truncate", "duplicated": "duplicate",
               "reordered": "swap", "damaged": "checksum", "dropped": "drop",
               "unplugged mid-deal": "disconnect"}
# A shoe that reads cards only (no SHUFFLE), issue 23: (fault, at which card, messages the
# shoe sent before the deal). A card lost for good is typed by the dealer where told.
CARD_ONLY_FAULTS = {"first card lost for good": ("lose", 1, 500),
                    "message #1 damaged after HELLO,0": ("checksum", 1, 0),
                    "a card lost for good": ("lose", None, 500)}


def shoe_frames(rounds: int, seed: int = 15) -> Row:
    """Deals read through each fault of the line; every card must land once, in its place."""
    rng = random.Random(seed)
    counts = [0, 0, 0, 0]
    for kind in SHOE_FAULTS.values():
        for _ in range(rounds):
            trial = _shoe_trial(rng, kind, rng.randint(2, 45), shuffle=True, sent=0)
            counts = [a + b for a, b in zip(counts, trial, strict=True)]
    return Row("shoe frames: " + ", ".join(SHOE_FAULTS), len(SHOE_FAULTS) * rounds,
               dict(zip(SHOE_COUNTS, counts, strict=True)))


def card_only_frames(rounds: int, seed: int = 23) -> Row:
    """The same for a shoe that sends no SHUFFLE: the deal starts after the last message the
    station heard before action, so its first card lost leaves a hole at card 1."""
    rng = random.Random(seed)
    counts = [0, 0, 0, 0]
    for kind, at, sent in CARD_ONLY_FAULTS.values():
        for _ in range(rounds):
            trial = _shoe_trial(rng, kind, at or rng.randint(2, 45), shuffle=False, sent=sent)
            counts = [a + b for a, b in zip(counts, trial, strict=True)]
    return Row("card-only shoe frames: " + ", ".join(CARD_ONLY_FAULTS),
               len(CARD_ONLY_FAULTS) * rounds, dict(zip(SHOE_COUNTS, counts, strict=True)))


SHOE_COUNTS = ("cards lost", "doubled", "misplaced", "deals not completed")


def _shoe_trial(rng: random.Random, kind: str, at: int, *, shuffle: bool, sent: int
                ) -> tuple[int, int, int, int]:
    """One deal read by a station through one fault: (cards lost, doubled, misplaced, not
    completed). A deal not completed is counted with the cards as the station holds them."""
    from drivers.shoe.simulator import Injection

    from .shoe import Shoe, expected_deal
    from .station import ShoeStation

    deck = _deck(rng)
    with folder() as where:
        shoe = Shoe(where, deck, card_delay=0.004, inject=(Injection(kind, at),),
                    unplug_seconds=0.3, shuffle=shuffle, sent=sent)
        st = ShoeStation(None, None, shoe.link.link or "", seed=rng.randrange(99),
                         memory=True)
        try:
            # The deal once the reader reads the line (opening a port empties its input).
            deadline = time.monotonic() + WAIT_S
            while not st.heard and time.monotonic() < deadline:
                st.pump()
            assert st.heard, f"the station never heard the shoe in {WAIT_S:g} s " \
                f"(its port open: {st.reader.online}; faults {st.faults})"
            action = st.open_and_take_action()
            shoe.go.set()
            typed: set[int] = set()
            deadline = time.monotonic() + WAIT_S
            while st.dealt() is None and time.monotonic() < deadline:
                st.pump()
                if any("FAULT lost" in f for f in st.faults):  # as the dealer is told
                    for i in set(st.holes()) - typed:
                        typed.add(i)
                        st.type_card(i, deck[i])
            got = st.dealt()
            held = got or st.holding()
        finally:
            st.close()
            shoe.close()
    lost, doubled, misplaced = _placed(deck, expected_deal(deck, action), held)
    return lost, doubled, misplaced, got is None


def _deck(rng: random.Random) -> list[Any]:
    from app.core.cards import DECK
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def _placed(deck: list[Any], want: dict[str, list[str]], got: dict[str, Any]
            ) -> tuple[int, int, int]:
    """(cards lost, doubled, misplaced): a card is misplaced in a hand it was not dealt to
    (the order within a hand is not counted: a card typed for a hole comes last)."""
    held = [c for cards in got["hands"].values() for c in cards] + got["leftovers"]
    lost = len({str(c) for c in deck} - set(held))
    doubled = len(held) - len(set(held))
    misplaced = sum(len(set(got["hands"].get(pos, [])) - set(want[pos])) for pos in want)
    return lost, doubled, misplaced


# --- a station restarted mid-deal ----------------------------------------------------------

def restart_mid_deal(trials: int, seed: int = 17) -> Row:
    from .shoe import kill_and_resume, place_errors

    rng = random.Random(seed)
    lost = doubled = misplaced = 0
    kept = 0
    for _ in range(trials):
        with folder() as where:
            run = kill_and_resume(where, seed=rng.randrange(10_000),
                                  stop_after=rng.randint(1, 48))
        a, b, c = place_errors(run)
        lost, doubled, misplaced = lost + a, doubled + b, misplaced + c
        kept += run["resumed"]["kept"]
    return Row("restart mid-deal (SIGKILL after 1-48 cards)", trials,
               {"cards lost": lost, "doubled": doubled, "misplaced": misplaced},
               {"cards kept through the restart": kept})


# --- kill -9 at random moments ----------------------------------------------------------

def kill_9(trials: int, seed: int = 9, url: str | None = None) -> Row:
    """A station playing rounds is killed at a random save and started again: every round
    it settled or had in play is in the ledger once, whole."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from app.ledger import Store
    from app.ledger.models import Event, RoundRow

    rng = random.Random(seed)
    lost = half = doubled = 0
    resumed = between = checked = 0
    for n in range(trials):
        with folder() as where:
            db = url or f"sqlite:///{where / 'ledger.sqlite'}"
            data = str(where / "station")
            proc = _spawn("tests.ledger.station", "play", db, data, "kill-9", f"k{n}", "40",
                          "--verbose")
            assert proc.stdout is not None
            settled: set[str] = set()
            in_play: str | None = None
            for _ in range(rng.randint(1, 90)):
                line = proc.stdout.readline()
                if not line:
                    break
                obj = json.loads(line)
                if "settled" in obj:
                    settled.add(obj["settled"])
                    in_play = None
                elif "saved" in obj:
                    in_play = obj["saved"]
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            after = _lines(_spawn("tests.ledger.station", "resume", db, data, "kill-9"))
            if after and after[0].get("resumed"):
                resumed += 1
                settled |= {o["settled"] for o in after if "settled" in o}
            else:
                between += 1
            with Store(db, data_dir=where / "reader") as reader, Session(reader.engine) as s:
                rows = s.execute(select(RoundRow.id, RoundRow.status, RoundRow.last_seq,
                                        RoundRow.round_no)).all()
                ids = {str(r.id) for r in rows}
                lost += len(settled - ids)
                # the round it had saved records of: resumed and settled, or settled before
                # the kill (its "settled" line not read yet); in the ledger either way
                lost += in_play is not None and in_play not in ids
                checked += len(rows)
                half += sum(1 for r in rows if r.status != "settled")
                numbers = [r.round_no for r in rows]
                doubled += len(numbers) - len(set(numbers))
                for r in rows:
                    seqs = list(s.scalars(select(Event.seq).where(
                        Event.round_id == r.id, Event.seq.is_not(None)).order_by(Event.seq)))
                    if seqs != list(range((r.last_seq or 0) + 1)):
                        half += 1
    return Row("kill -9 of a station at a random save", trials,
               {"rounds lost": lost, "half-written": half, "doubled": doubled},
               {"open round resumed": resumed, "killed between rounds": between,
                "rounds checked": checked})


# --- PostgreSQL: one identity twice, and a restart under four writers -------------------------

def same_identity(pg: Any, template: str) -> Row:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from app.ledger import StationClaimed, Store
    from app.ledger.models import Station

    url = pg.url(pg.create_database(template=template))
    merged = 0
    refused = 0
    with folder() as where:
        first = Store(url, table="PG-1", station="pit-pc", data_dir=where / "pc1")
        try:
            first.claim()
            shutil.copytree(where / "pc1", where / "clone")
            clone = Store(url, table="PG-1", station="pit-pc", data_dir=where / "clone")
            clone.boot = "another-pc"  # the copy runs on another machine
            try:
                clone.claim()
                merged += 1  # a clone of a live station took its identity
            except StationClaimed:
                refused += 1
            finally:
                clone.close()
            other = Store(url, table="PG-1", station="pit-pc", data_dir=where / "pc2")
            try:
                other.claim()
                for store in (first, other):
                    store.open_shift("Fault Suite")
                with Session(first.engine) as s:
                    if s.scalar(select(func.count()).select_from(Station)) != 2:
                        merged += 1  # two PCs with one name became one station
            finally:
                other.close()
        finally:
            first.close()
    return Row("two stations, one identity (PostgreSQL)", 2, {"merged": merged},
               {"clone refused at start": refused})


def pg_restart(pg: Any, rounds: int, outages: int = 1) -> Row:
    """Four station processes write rounds; the server is stopped and started under them."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from app.ledger import Store
    from app.ledger.models import Event, HandRow, RoundRow, SettlementRow

    url = pg.url(pg.create_database())
    lost = doubled = 0
    with folder() as where:
        writers = [Said(_spawn("tests.ledger.station", "play", url, str(where / f"s{i}"),
                               f"writer-{i}", f"seed-{i}", str(rounds))) for i in range(4)]
        running = 0
        for _ in range(outages):
            # Stopped under them once each has settled a round more (or ended): their
            # writes wait in their journals, and each settles a round while it is away.
            _one_more_round(writers, "before the outage")
            running = max(running, sum(not w.ended for w in writers))
            pg.stop()
            _one_more_round(writers, "with the server away")
            pg.start()
        outs = [w.lines(timeout=600) for w in writers]
        settled = {o["settled"]: o for out in outs for o in out if "settled" in o}
        for i in range(4):  # what each kept while the server was away is sent now
            with Store(url, table="PG-1", station=f"writer-{i}",
                       data_dir=where / f"s{i}") as store:
                store.drain()
        with Store(url, data_dir=where / "reader") as reader, Session(reader.engine) as s:
            count = lambda m: s.scalar(select(func.count()).select_from(m))  # noqa: E731
            rows = s.execute(select(RoundRow.id, RoundRow.last_seq)).all()
            ids = {str(r.id) for r in rows}
            lost += len(set(settled) - ids) + (4 * rounds - len(settled))
            doubled += max(count(RoundRow) - len(settled), 0)
            lost += max(7 * len(settled) - count(HandRow), 0)
            doubled += max(count(HandRow) - 7 * len(settled), 0)
            want = sum(sum(1 for p in o["slip"]["positions"] if p["outcome"] is not None)
                       + (o["slip"]["bank"]["player"] is not None) for o in settled.values())
            got = count(SettlementRow)
            lost += max(want - got, 0)
            doubled += max(got - want, 0)
            seqs = s.execute(select(Event.round_id, Event.seq)
                             .where(Event.seq.is_not(None))).all()
            doubled += len(seqs) - len(set(seqs))
            lost += max(sum((r.last_seq or 0) + 1 for r in rows) - len(set(seqs)), 0)
    return Row(f"PostgreSQL restarted {outages}x while four stations write", 4 * rounds,
               {"rows lost": lost, "doubled": doubled},
               {"rounds settled": len(settled), "stations writing at the outage": running})


class Said:
    """A station process's JSON lines, read on a thread as it says them."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.said: list[dict[str, Any]] = []
        self.err: list[str] = []
        self.ended = False
        self._threads = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._read_err, daemon=True)]
        for t in self._threads:
            t.start()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self.err.extend(self.proc.stderr)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):
                self.said.append(json.loads(line))
        self.ended = True

    def settled(self) -> int:
        return sum("settled" in o for o in self.said)

    def lines(self, timeout: float) -> list[dict[str, Any]]:
        self.proc.wait(timeout)
        for t in self._threads:
            t.join(timeout)
        return list(self.said)


def _one_more_round(writers: list[Said], when: str) -> None:
    """Until each writer has settled one round more than now, or ended."""
    settled = [w.settled() for w in writers]
    deadline = time.monotonic() + WAIT_S
    while not all(w.settled() > n or w.ended for w, n in zip(writers, settled, strict=True)):
        if time.monotonic() > deadline:
            seen = [(w.settled(), "ended" if w.ended else "running") for w in writers]
            errs = ["".join(w.err)[-2000:] for w in writers]
            raise AssertionError(f"waited {WAIT_S:g} s for each writer to settle a round "
                                 f"{when}; rounds settled and state of each: {seen}; their "
                                 f"stderr: {errs}")
        time.sleep(0.02)


# --- the disk full ------------------------------------------------------------------------

def disk_full(trials: int = 1) -> Row:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from app.ledger import Store
    from app.ledger.models import RoundRow

    taken_after = lost = unsaid = 0
    for n in range(trials):
        with folder() as where:
            out = _lines(_spawn("tests.faults.diskfull", str(where), str(n)), timeout=300)
            end = out[-1] if out else {}
            if "refused" not in end:
                unsaid += 1
                continue
            said = end["refused"]
            if "disk" not in said.lower() and "full" not in said.lower():
                unsaid += 1
            taken_after += end.get("taken_after", 0)
            with Store(None, table="PG-1", station="disk-full", data_dir=where) as store:
                rec = store.resume()  # the round in play comes back; room again
                store.drain()
                in_play = {rec.round_id} if rec is not None else set()
                with Session(store.engine) as s:
                    have = {str(r.id): r.status for r in s.execute(
                        select(RoundRow.id, RoundRow.status))}
            lost += sum(1 for r in end["settled"] if have.get(r) != "settled")
            lost += sum(1 for r in in_play if r not in have)
            # settled on the felt but refused by the full disk: back in play, or recorded
            lost += sum(1 for r in end.get("unrecorded", [])
                        if r not in in_play and have.get(r) != "settled")
    return Row("disk full on the SQLite ledger (RLIMIT_FSIZE)", trials,
               {"wagers taken once full": taken_after, "rounds lost": lost,
                "not said why": unsaid})


# --- fuzz: every text the station parses ----------------------------------------------------

def fuzz(examples: int) -> Row:
    from . import fuzzing
    found = fuzzing.run(examples)
    return Row("fuzz: cards, money, dice, config, round files, sessions, shoe line",
               sum(n for n, _ in found.values()),
               {"tracebacks": sum(len(bad) for _, bad in found.values())},
               {k: n for k, (n, _) in found.items()})


# --- the whole suite ------------------------------------------------------------------------

@dataclass(frozen=True)
class Form:
    shoe_rounds: int
    restarts: int
    kills: int
    pg_rounds: int
    pg_outages: int
    disk_trials: int
    fuzz_examples: int
    noise_trials: int = 2
    forgeries: int = 1


# The short form (make test): each fault made at least once. A restart or a kill costs two
# station processes (5-9 s); `make proof` kills and restarts more (tests/faults/test_suite.py).
SHORT = Form(shoe_rounds=1, restarts=1, kills=3, pg_rounds=8, pg_outages=1, disk_trials=1,
             fuzz_examples=150)
PROOF_RESTARTS, PROOF_KILLS = 6, 20
SOAK = Form(shoe_rounds=10, restarts=20, kills=100, pg_rounds=40, pg_outages=4,
            disk_trials=3, fuzz_examples=3000, noise_trials=10, forgeries=20)


def forged_records(trials: int) -> Row:
    from . import forgery

    counts = {**forgery.forged_rows(trials), **forgery.owner_rewrites(trials)}
    return Row("forged records: a correction and a sign-in by the station's login, the "
               "owner's rewrite and cut", 4 * trials, counts)


def timed(make: Callable[[], Row]) -> Row:
    """The row `make` counts, with how long it took."""
    start = time.monotonic()
    row = make()
    row.seconds = time.monotonic() - start
    return row


def migrated(pg: Any) -> str:
    """A database migrated to head on the server, to be copied by the PostgreSQL faults."""
    from app.ledger.database import make_engine, migrate

    template = pg.create_database()
    engine = make_engine(pg.url(template))
    migrate(engine)
    engine.dispose()
    return str(template)


def run(form: Form, say: Callable[[str], None] = print) -> list[Row]:
    from tests.ledger.pg import running_server

    rows: list[Row] = []

    def count(make: Callable[[], Row]) -> None:
        row = timed(make)
        rows.append(row)
        say(f"  {row.fault}: {row.counts} ({row.seconds:.0f} s)")

    count(lambda: shoe_frames(form.shoe_rounds))
    count(lambda: card_only_frames(form.shoe_rounds))
    count(lambda: noisy_line(form.noise_trials))
    count(lambda: restart_mid_deal(form.restarts))
    count(lambda: kill_9(form.kills))
    count(lambda: disk_full(form.disk_trials))
    count(lambda: fuzz(form.fuzz_examples))
    count(lambda: forged_records(form.forgeries))
    with running_server() as pg:
        template = migrated(pg)
        count(lambda: same_identity(pg, template))
        count(lambda: pg_restart(pg, form.pg_rounds, form.pg_outages))
    return rows


def main(argv: list[str] | None = None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m tests.faults")
    ap.add_argument("--soak", action="store_true", help="the long form (make soak)")
    args = ap.parse_args(argv)
    form = SOAK if args.soak else SHORT
    print(f"The fault suite, {'long (soak)' if args.soak else 'short'} form:", flush=True)
    start = time.monotonic()
    rows = run(form, lambda line: print(line, flush=True))
    print()
    print(table(rows))
    print(f"\n{time.monotonic() - start:.0f} s")
    return 0 if all(r.ok for r in rows) else 1
