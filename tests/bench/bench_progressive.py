"""Benchmark (not a test): the linked progressive under 200 stations (issue 27).

Every simulated station is a real `Store` (its journal, its signing key, its chain) on one
throwaway PostgreSQL (tests/ledger/pg.py: fsync off, as the tests run it). Each settles a
round about every 12 s, ten times a real table's pace (a Pai Gow table deals about 30
rounds an hour), with the $1 progressive wager on 1 to 6 seats. A round is dealt by the
core and goes to the ledger as two ops: its beginning, and its records up to the
settlement with the progressive's seats on it, so the contribution rides on the settling
transaction through the real Store and apply path. Each seat's seven cards are read for
the progressive's hands; one that the card pays is a real hit (a supervisor's sign-in,
then `take_progressive_hits`), at the rate the cards give; and once a minute a station is
made to hit five aces (10% of the meter), so the meter drops where everyone can see it.

Every station's felt hears the meter as the station's felt does on PostgreSQL (a
connection of its own in LISTEN, `MeterFeed`; migration 0017); the floor server
(`paigow-floor`, its own process) is followed as a browser follows it (its stream, meter
only).

    .venv/bin/python -m tests.bench.bench_progressive                 # 200 stations, 10 min
    .venv/bin/python -m tests.bench.bench_progressive --minutes 1     # a quick try
    PAIGOW_BENCH_PROGRESSIVE_MINUTES=1 make bench                     # the same, in make bench

Prints what it kept of the pace, where a round's time went, and then exactly:

    bench progressive stations=200 rounds=N lost=0 doubled=0 meter-exact=yes meter-p95=Xs

lost: rounds settled with progressive wagers whose contribution is not in the ledger (or
not all of it); doubled: a contribution or a hit recorded twice; meter-exact: the audit;
meter-p95: from a hit's commit until each other station's felt, and the floor's stream,
show it: the worse of the two 95th percentiles (the felts' over every hit and every other
station; the floor's over every hit).
"""

from __future__ import annotations

import argparse
import bisect
import json
import multiprocessing as mp
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.bench_floor import floor_process

STATIONS = 200
ROUND_S = 12.0  # ten times a real table's pace: 30 rounds an hour is one every 120 s
POLL_S = 0.5  # the floor's hub reads the meters twice a second
CONFIRM_S = 0.5  # a felt confirms what it heard with a read, at most one this often
READ_THREADS = 4  # threads of a felts' process doing their confirming reads
WORKERS = 4  # station processes (the machine has 2 cores: more only adds switching)
IN_FLIGHT = 2  # rounds a station process deals at once (see _station_worker)
READERS = 2  # processes for the felts' meter feeds (a connection a felt, one listening thread)
FORCED_EVERY_S = 60.0
SUPERVISOR, SECRET = "Pat Lee", "bench-pat-secret-27"
# A pit supervisor for every 20 tables, as a floor has: one name signed in for every hit of
# 200 tables met the database's pace of a name's checks (20 at once, then one every 30 s)
TABLES_A_SUPERVISOR = 20


def _supervisor(table: int) -> str:
    return f"{SUPERVISOR} {table // TABLES_A_SUPERVISOR + 1}"
FLOOR_USER, FLOOR_PASSWORD = "bench", "bench password 27"


@dataclass
class Timings:
    """Where a station's rounds spent their time (seconds, summed)."""

    rounds: int = 0
    play: float = 0.0  # the core: bets, deal, House Way, settlement
    begin: float = 0.0  # the round_begin op: journal, then its transaction
    settle: float = 0.0  # the settling op with the contribution: journal, transaction
    hits: float = 0.0
    late: list[float] = field(default_factory=list)  # how late each round began
    lock_wait: list[float] = field(default_factory=list)  # for the meter's row lock
    lock_held: list[float] = field(default_factory=list)  # from getting it to the commit


def _time_the_meter_lock(timings: Timings) -> None:
    """How long each transaction waits for the meter's row lock, and holds it until its
    commit: every linked station's settling transaction queues there. Timed around the
    ledger's own `_locked` (nothing else changed), in this worker process only."""
    from sqlalchemy import event
    from sqlalchemy.orm import Session

    from app.ledger import progressive

    mine = threading.local()
    locked = progressive._locked

    def timed(*args: Any, **kwargs: Any) -> Any:
        asked = time.perf_counter()
        row = locked(*args, **kwargs)
        mine.got = time.perf_counter()
        timings.lock_wait.append(mine.got - asked)
        return row

    def committed(session: Session) -> None:
        got = getattr(mine, "got", None)
        if got is not None:
            timings.lock_held.append(time.perf_counter() - got)
            mine.got = None

    progressive._locked = timed
    event.listen(Session, "after_commit", committed)


@dataclass
class WorkerResult:
    expected: list[tuple[str, str, int]]  # (table, round id, wagers) settled here
    hits: list[tuple[str, int, float, int]]  # (table, last move's seq, commit time, paid)
    timings: Timings
    errors: list[str]
    cpu_s: float
    reads: int = 0  # the felts' reads confirming what they heard


def _station_worker(url: str, folder: str, tables: list[str], clock: Any, seconds: float,
                    round_s: float, forced_after: list[tuple[float, str]], in_flight: int,
                    ready: Any, out: Any) -> None:
    from app.core.bonus.categories import Category
    from app.core.round import Round, RoundRules
    from app.core.table import Table
    from app.ledger import Store, progressive
    from tests.ledger.enrolled import enrolled_key
    from tests.ledger.play import play
    from tests.ledger.progressive_play import CARD

    digest = progressive.card_hash(CARD)
    pays = {p.category for p in CARD.pays}
    timings = Timings()
    _time_the_meter_lock(timings)
    stores: dict[str, Store] = {}
    for t in tables:
        st = Store(url, table=t, station=f"{t.lower()}-station", data_dir=Path(folder) / t)
        enrolled_key(st)
        st.open_shift("Bench dealer")
        stores[t] = st
    ready.put(len(stores))
    start, end = _when_to_begin(clock, seconds)
    forced = [(start + after, who) for after, who in forced_after]
    expected: list[tuple[str, str, int]] = []
    hits: list[tuple[str, int, float, int]] = []
    errors: list[str] = []
    lock = threading.Lock()
    due_forced = {t: sorted(at for at, who in forced if who == t) for t in tables}

    def play_round(t: str, st: Store, rng: random.Random, force: bool) -> None:
        c0 = time.perf_counter()
        game = Round(RoundRules(table=Table(t)), st.rotation())
        c1 = time.perf_counter()
        rec = st.begin(game)
        c2 = time.perf_counter()
        play(game, rng, lambda: None, misdeal_chance=0)
        seats = sorted(rng.sample(range(1, 7), rng.randint(1, 6)))
        hands = game.hands
        won = [(p, CARD.category(hands[p].cards)) for p in seats if p in hands]
        paid = [(p, c) for p, c in won if c in pays]
        if force:
            paid = [(seats[0], Category.FIVE_ACES)]
        rec.progressive = {"card": CARD.name, "card_hash": digest, "seats": seats}
        c3 = time.perf_counter()
        rec.save()
        c4 = time.perf_counter()
        with lock:  # settled and contributed, whatever becomes of its hit
            expected.append((t, rec.round_id, len(seats)))
        if paid:
            pat = st.authorise(_supervisor(int(t.removeprefix('T-')) - 1), SECRET, "progressive")
            moves = st.take_progressive_hits(CARD, rec.round_id, paid, str(uuid.uuid4()), pat)
            committed = time.time()
            with lock:
                hits.append((t, moves[-1].seq, committed, sum(-m.to_meter for m in moves)))
        c5 = time.perf_counter()
        with lock:
            timings.rounds += 1
            timings.play += (c1 - c0) + (c3 - c2)
            timings.begin += c2 - c1
            timings.settle += c4 - c3
            timings.hits += c5 - c4

    # A real station has a CPU of its own. Here dozens share a process and two cores share
    # them all: a station whose round is half done when the interpreter switches to another
    # would hold the meter's row lock while it waits for its turn. So a process deals
    # `in_flight` rounds at once and the others wait their turn before they begin (the
    # lateness printed), not inside the meter's lock.
    turns = threading.Semaphore(in_flight)

    def run(t: str, offset: float) -> None:
        st = stores[t]
        rng = random.Random(t)
        due = start + offset
        forced_at = due_forced[t]
        while True:
            wait = due - time.time()
            if wait > 0:
                time.sleep(wait)
            with turns:
                now = time.time()
                if now >= end:
                    return
                force = bool(forced_at) and forced_at[0] <= now
                if force:
                    forced_at.pop(0)
                try:
                    play_round(t, st, rng, force)
                except Exception as e:  # noqa: BLE001 - counted and printed, the table goes on
                    with lock:
                        errors.append(f"{t}: {type(e).__name__}: {e}")
            with lock:
                timings.late.append(max(0.0, now - due))
            # a table behind deals its next round at once, but never two to catch up
            due = max(due + round_s, time.time())

    threads = [threading.Thread(target=run, args=(t, i * round_s / len(tables)),
                                name=f"station-{t}") for i, t in enumerate(tables)]
    cpu_at_start = time.process_time()  # the stores made and enrolled: not the rounds' CPU
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    cpu = time.process_time() - cpu_at_start
    for st in stores.values():
        if st.drain().pending:
            errors.append(f"{st.table}: {st.drain().pending} op(s) still in its journal")
        st.close()
    out.put(WorkerResult(expected, hits, timings, errors, cpu))


@dataclass
class ReadResult:
    seen: dict[str, list[tuple[float, int]]]  # table -> (time, seq) each time the seq moved
    polls: int
    late: list[float]  # how late each read began
    errors: list[str]
    cpu_s: float
    reads: int = 0  # the felts' reads confirming what they heard


def _when_to_begin(clock: Any, seconds: float) -> tuple[float, float]:
    """The run's start and end, once the main process has set them (every station made)."""
    while clock.value == 0.0:
        time.sleep(0.05)
    start = float(clock.value)
    return start, start + seconds


def _meter_reader(url: str, tables: list[str], clock: Any, seconds: float, done: Any,
                  out: Any) -> None:
    """The stations' felts hearing the meter as a station's felt does on PostgreSQL: each
    table listens on a connection of its own (`MeterFeed`, LISTEN/NOTIFY) and notes when
    each change arrives. In processes of their own, so that the rounds' work does not hold
    up what measures how soon a hit shows; one thread a process waits on every felt's
    connection at once (a thread a felt spent 171 CPU-s of ten minutes switching), and the
    felts' confirming reads go to a few threads beside it (on the one thread, a message
    waited behind the reads before its arrival was noted: p95 1.67 s, the bench's queue)."""
    import selectors
    from concurrent.futures import Future, ThreadPoolExecutor

    from sqlalchemy.orm import Session

    from app.ledger import progressive
    from app.ledger.database import make_engine
    from app.ledger.meter_feed import MeterFeed
    from tests.ledger.progressive_play import CARD

    seen: dict[str, list[tuple[float, int]]] = {t: [] for t in tables}
    errors: list[str] = []
    heard = reads = 0
    engine = make_engine(url)  # each feed takes a connection of its own from it
    feeds = {t: MeterFeed(engine, CARD.name) for t in tables}
    ready = selectors.DefaultSelector()
    for t, feed in feeds.items():
        ready.register(feed.fileno(), selectors.EVENT_READ, t)
    # as the station's felt confirms a message: a read at once, then at most one every
    # CONFIRM_S a felt while messages keep coming (app/ui/services.py MeterReader)
    read_at = dict.fromkeys(tables, 0.0)
    due: dict[str, float] = {}
    reading: list[Future[None]] = []

    def confirm() -> None:
        with Session(engine) as s:
            progressive.meter(s, CARD.name)

    pool = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="felt-read")
    _when_to_begin(clock, seconds)
    while not done.is_set():
        for key, _ in ready.select(0.1):
            t = key.data
            try:
                got = feeds[t].wait(0.0)
            except Exception as e:  # noqa: BLE001 - counted and printed
                errors.append(f"{t} meter feed: {type(e).__name__}: {e}")
                ready.unregister(key.fileobj)
                continue
            if got is not None:
                heard += 1
                seen[t].append((time.time(), got.seq))
                due.setdefault(t, max(time.monotonic(), read_at[t] + CONFIRM_S))
        now = time.monotonic()
        for t in [t for t, at in due.items() if at <= now]:
            del due[t]
            read_at[t] = now
            reading.append(pool.submit(confirm))
    pool.shutdown()
    for future in reading:
        error = future.exception()
        if error is None:
            reads += 1
        else:
            errors.append(f"meter read: {type(error).__name__}: {error}")
    for feed in feeds.values():
        feed.close()
    engine.dispose()
    out.put(ReadResult(seen, heard, [], errors, time.process_time(), reads))


def _follow_floor(base: str, seen: list[tuple[float, int]], stop: threading.Event,
                  errors: list[str]) -> None:
    """The floor's stream as a page other than the floor follows it (the meter only)."""
    import httpx

    try:
        with httpx.Client(base_url=base, timeout=30) as c:
            page = c.get("/login").text
            token = re.search(r'name="csrf" value="([^"]+)"', page)
            assert token
            got = c.post("/login", data={"csrf": token.group(1), "name": FLOOR_USER,
                                         "password": FLOOR_PASSWORD, "next": "/"})
            if got.status_code != 303:
                errors.append(f"floor login: {got.status_code}")
                return
            last = -1
            while not stop.is_set():
                with c.stream("GET", "/stream?only=meter", timeout=None) as r:
                    for line in r.iter_lines():
                        if stop.is_set():
                            return
                        if line.startswith("data: "):
                            found = re.search(r'data-seq="(\d+)"', json.loads(line[6:])["html"])
                            if found and int(found.group(1)) != last:
                                last = int(found.group(1))
                                seen.append((time.time(), last))
    except Exception as e:  # noqa: BLE001 - printed with the figures
        errors.append(f"floor stream: {type(e).__name__}: {e}")


def _first_at_least(seen: list[tuple[float, int]], seqs: list[int], seq: int) -> float | None:
    i = bisect.bisect_left(seqs, seq)
    return seen[i][0] if i < len(seen) else None


def _p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def _cpu_of(pid: int) -> float:
    """Seconds of CPU a process (and its waited-for children) has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return sum(int(v) for v in fields[11:15]) / tick


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--stations", type=int, default=STATIONS)
    ap.add_argument("--minutes", type=float,
                    default=float(os.environ.get("PAIGOW_BENCH_PROGRESSIVE_MINUTES", 10)))
    ap.add_argument("--round-seconds", type=float, default=ROUND_S)
    ap.add_argument("--workers", type=int, default=WORKERS)
    ap.add_argument("--in-flight", type=int, default=IN_FLIGHT,
                    help="rounds a station process deals at once")
    args = ap.parse_args(argv if argv is not None else [])

    from sqlalchemy import func, select, text
    from sqlalchemy.orm import Session

    from app.floor.auth import add_user
    from app.ledger import Store, progressive
    from app.ledger.database import make_engine, migrate
    from app.ledger.models import ProgressiveMove
    from tests.ledger.pg import PORT, PgServer
    from tests.ledger.progressive_play import CARD

    pg = PgServer()
    pg.init()
    # pg.py's own options, with room for every station's connections
    opts = (f"-k {pg.dir} -c listen_addresses='' -p {PORT} -c fsync=off "
            f"-c synchronous_commit=off -c full_page_writes=off -c max_connections=700")
    pg._run(str(pg.bin / "pg_ctl"), "-D", str(pg.data), "-l", str(pg.log), "-o", opts, "-w",
            "-t", "60", "start")
    pg.running = True
    folder = tempfile.mkdtemp(prefix="paigow-progressive-bench-")
    server: subprocess.Popen[str] | None = None
    try:
        url = pg.url(pg.create_database())
        engine = make_engine(url)
        migrate(engine)
        add_user(engine, FLOOR_USER, "shift-manager", FLOOR_PASSWORD)
        admin = Store(url, table="bench", station="bench-admin", data_dir=Path(folder) / "admin")
        ana = admin.authorise(FLOOR_USER, FLOOR_PASSWORD, "manage users")
        for pit in range(0, args.stations, TABLES_A_SUPERVISOR):
            admin.add_person(_supervisor(pit), "pit supervisor", SECRET, by=ana)
        admin.close()

        port = 19_000 + os.getpid() % 1000
        server = floor_process(url, port)
        base = f"http://127.0.0.1:{port}"

        tables = [f"T-{i + 1:03d}" for i in range(args.stations)]
        per = -(-len(tables) // args.workers)
        groups = [tables[i:i + per] for i in range(0, len(tables), per)]
        seconds = args.minutes * 60
        rng = random.Random(27)
        forced = [(FORCED_EVERY_S * (k + 0.5), rng.choice(tables))
                  for k in range(int(seconds // FORCED_EVERY_S) or 1)]
        ctx = mp.get_context("fork")
        out, read_out, ready = ctx.Queue(), ctx.Queue(), ctx.Queue()
        clock = ctx.Value("d", 0.0)  # when the rounds begin: once every station is made
        done = ctx.Event()  # every station finished: the felts stop reading
        workers = [ctx.Process(target=_station_worker,
                               args=(url, folder, g, clock, seconds, args.round_seconds,
                                     forced, args.in_flight, ready, out)) for g in groups]
        half = -(-len(tables) // READERS)
        readers = [ctx.Process(target=_meter_reader,
                               args=(url, tables[i:i + half], clock, seconds, done, read_out))
                   for i in range(0, len(tables), half)]
        for w in [*workers, *readers]:
            w.start()
        made = time.time()
        for _ in workers:
            ready.get(timeout=1800)
        print(f"  (the {len(tables)} stations made and enrolled in {time.time() - made:.0f} s)",
              flush=True)
        start = clock.value = time.time() + 2
        end = start + seconds
        floor_seen: list[tuple[float, int]] = []
        floor_errors: list[str] = []
        stop = threading.Event()
        follower = threading.Thread(target=_follow_floor,
                                    args=(base, floor_seen, stop, floor_errors), daemon=True)
        follower.start()
        load: list[float] = []
        connections: list[int] = []
        while time.time() < end + 5:
            time.sleep(5)
            if time.time() > start:
                load.append(os.getloadavg()[0])
                with engine.connect() as conn:
                    connections.append(int(conn.execute(
                        text("SELECT count(*) FROM pg_stat_activity")).scalar_one()))
        results: list[WorkerResult] = [out.get(timeout=600) for _ in workers]
        time.sleep(2 * POLL_S + 1)  # the last hit read by every felt
        done.set()
        reads: list[ReadResult] = [read_out.get(timeout=600) for _ in readers]
        for w in [*workers, *readers]:
            w.join(timeout=60)
        stop.set()
        pg_cpu = sum(_cpu_of(int(p)) for p in _pids_of(pg))
        floor_cpu = _cpu_of(server.pid)

        # --- what the ledger holds -------------------------------------------------------
        with Session(engine) as s:
            got = {str(r): (n, w) for r, n, w in s.execute(
                select(ProgressiveMove.round_id, func.count(), func.sum(ProgressiveMove.wagers))
                .where(ProgressiveMove.kind == progressive.CONTRIBUTION)
                .group_by(ProgressiveMove.round_id))}
            hit_ops = s.scalar(select(func.count(func.distinct(ProgressiveMove.op_id)))
                               .where(ProgressiveMove.kind == progressive.HIT))
            found = progressive.audit(s, CARD.name, CARD)
            moves_n = s.scalar(select(func.count()).select_from(ProgressiveMove))
        expected = [e for r in results for e in r.expected]
        hits = [h for r in results for h in r.hits]
        # lost: a settled round's contribution missing, or short of its wagers; doubled: a
        # round contributing twice, a contribution no station made, a hit taken twice
        lost = sum(1 for _, rid, n in expected if got.get(rid, (0, 0))[1] < n)
        ids = {rid for _, rid, _ in expected}
        doubled = (sum(1 for n, _ in got.values() if n > 1)
                   + sum(1 for _, rid, n in expected if got.get(rid, (0, 0))[1] > n)
                   + sum(1 for rid in got if rid not in ids)
                   + max(0, int(hit_ops or 0) - len(hits)))

        # --- how soon each hit was seen -------------------------------------------------
        seen = {t: v for r in reads for t, v in r.seen.items()}
        seqs = {t: [q for _, q in v] for t, v in seen.items()}
        floor_seqs = [q for _, q in floor_seen]
        delays: list[float] = []
        floor_delays: list[float] = []
        unseen = 0
        for table, seq, committed, _ in hits:
            for t in seen:
                if t == table:
                    continue
                at = _first_at_least(seen[t], seqs[t], seq)
                if at is None:
                    unseen += 1
                else:
                    delays.append(max(0.0, at - committed))
            at = _first_at_least(floor_seen, floor_seqs, seq)
            if at is None:
                unseen += 1
            else:
                floor_delays.append(max(0.0, at - committed))

        tm = Timings()
        for r in results:
            for name in ("rounds", "play", "begin", "settle", "hits"):
                setattr(tm, name, getattr(tm, name) + getattr(r.timings, name))
            tm.late += r.timings.late
            tm.lock_wait += r.timings.lock_wait
            tm.lock_held += r.timings.lock_held
        minutes = args.minutes
        target = args.stations * minutes * 60 / args.round_seconds
        errors = [e for r in results for e in r.errors] + \
            [e for q in reads for e in q.errors] + floor_errors
        polls = sum(r.polls for r in reads)
        cpu = sum(r.cpu_s for r in results)
        read_cpu = sum(r.cpu_s for r in reads)
        print(f"progressive load: {args.stations} stations in {len(workers)} processes "
              f"({args.in_flight} rounds at once in each), a "
              f"round every {args.round_seconds:g} s each, {minutes:g} min, one PostgreSQL "
              f"(fsync off)")
        print(f"  rounds settled {tm.rounds} of {target:.0f} at the pace asked "
              f"({tm.rounds / max(target, 1) * 100:.0f}%: {tm.rounds / (minutes * 60):.1f} "
              f"rounds/s); a round began late by median {statistics.median(tm.late or [0]):.2f} s,"
              f" p95 {_p95(tm.late):.2f} s")
        if tm.rounds:
            n = tm.rounds
            print(f"  a round's time in its station (mean, wall): core {tm.play / n * 1000:.0f} ms,"
                  f" beginning op {tm.begin / n * 1000:.0f} ms, settling op with the "
                  f"contribution {tm.settle / n * 1000:.0f} ms; hits {tm.hits:.1f} s in all")
        if tm.lock_held:
            held = statistics.median(tm.lock_held)
            print(f"  the meter's row lock: waited for median "
                  f"{statistics.median(tm.lock_wait) * 1000:.0f} ms, p95 "
                  f"{_p95(tm.lock_wait) * 1000:.0f} ms; held until the commit median "
                  f"{held * 1000:.0f} ms, p95 {_p95(tm.lock_held) * 1000:.0f} ms (one meter "
                  f"takes at most about {1 / held:.0f} settlements a second so)")
        print(f"  hits {len(hits)} ({len(forced)} made to happen), moves {moves_n}; meter "
              f"changes heard by the felts {polls} ({polls / (minutes * 60 + 5):.0f}/s), "
              f"confirmed by {sum(r.reads for r in reads)} reads; "
              f"hit to onlooker: stations p95 "
              f"{_p95(delays):.2f} s (max {max(delays or [0]):.2f}), floor p95 "
              f"{_p95(floor_delays):.2f} s; never seen {unseen}")
        print(f"  CPU: stations' rounds {cpu:.0f} s, their felts' meter feeds {read_cpu:.0f} s, "
              f"PostgreSQL {pg_cpu:.0f} s, floor server "
              f"{floor_cpu:.0f} s over {minutes * 60:.0f} s on {os.cpu_count()} cores; load "
              f"average during the run: mean {statistics.fmean(load or [0]):.1f}, max "
              f"{max(load or [0]):.1f}")
        print(f"  PostgreSQL connections during the run: at most {max(connections or [0])}")
        print(f"  audit: {found.text().splitlines()[-1].strip()}")
        for e in errors[:10]:
            print(f"  error: {e}")
        if len(errors) > 10:
            print(f"  ... {len(errors) - 10} more errors")
        p95 = max(_p95(delays), _p95(floor_delays))  # the felts' and the floor's, the worse
        print(f"bench progressive stations={args.stations} rounds={tm.rounds} lost={lost} "
              f"doubled={doubled} meter-exact={'yes' if found.exact else 'no'} "
              f"meter-p95={p95:.2f}s")
        engine.dispose()
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
        pg.destroy()
        shutil.rmtree(folder, ignore_errors=True)


def _pids_of(pg: Any) -> list[int]:
    """The PostgreSQL server's processes (postmaster and backends) still running."""
    try:
        master = int((pg.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    kids = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True)
    return [master, *(int(p) for p in kids.stdout.split())]


if __name__ == "__main__":
    main(sys.argv[1:])
