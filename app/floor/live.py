"""Live updates: one loop per floor server reads the heartbeats (and raises alerts) every
`poll_s`, renders each table's tile, and pushes the tiles that changed to every browser
following the floor (server-sent events), and the progressive meter strip every page shows
when it changes. A browser that connects gets every tile first, so a reconnect never misses
a change; a page other than the floor follows the meter only. A browser's stream asks
whether its session still stands before it sends, at most once a beat, and ends when it
does not.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from starlette.concurrency import run_in_threadpool

from app.ledger.meter_feed import MeterFeed
from app.ledger.models import now

KEEPALIVE_S = 15.0
OVERLAP = timedelta(seconds=60)
SHIFT = timedelta(hours=12)
FULL_EVERY = 120  # scans
QUEUE = 2048  # a browser this far behind is dropped; it reconnects and gets everything
HEAR_WAIT_S = 1.0  # a wait for the meter's message holds a pool thread at most this long
LISTEN_RETRY_S = 2.0


class MeterSource(Protocol):
    """The meters as the floor hears and shows them."""

    def feed(self) -> MeterFeed | None:
        """Every meter's changes as the database says them; None on SQLite."""

    def render(self) -> str:
        """The meter strip's HTML as the meters stand now."""


@dataclass
class Snapshot:
    tiles: dict[str, str] = field(default_factory=dict)  # dom id -> tile HTML
    alerts: str = ""  # the open alerts' HTML
    meters: str = ""  # the progressive meter strip's HTML (app/floor/progressive.py)
    at: datetime | None = None


class Hub:
    """Renders the floor every `poll_s` and fans the changes out to subscribers."""

    def __init__(self, render: Callable[[], Snapshot], scan: Callable[[datetime], object],
                 poll_s: float = 0.5, scan_every: int = 2,
                 meters: MeterSource | None = None) -> None:
        self.render = render
        self.meters = meters
        self.scan = scan
        self.poll_s = poll_s
        self.scan_every = scan_every
        self.current = Snapshot()
        self.subscribers: set[asyncio.Queue[tuple[str, str]]] = set()
        self.polls = 0
        self.errors = 0
        self.last_error: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._scanning: asyncio.Task[None] | None = None
        self._hearing: asyncio.Task[None] | None = None
        self.heard = 0  # meter changes the database said (PostgreSQL)
        self.scans = 0
        self.dropped = 0  # browsers dropped for falling behind (they reconnect)
        self._scanned: datetime | None = None
        self.render_s = 0.0  # the last render's and scan's time, for /healthz and the bench
        self.scan_s = 0.0
        self.ready = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(self.tick, self.poll_s))
        self._scanning = asyncio.create_task(self._loop(self.scan_once,
                                                        self.poll_s * self.scan_every))
        if self.meters is not None:
            self._hearing = asyncio.create_task(self._hear_meters(self.meters))

    async def stop(self) -> None:
        for task in (self._task, self._scanning, self._hearing):
            if task is not None:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):  # noqa: BLE001 - shutting down
                    pass

    async def _loop(self, work: Callable[[], Awaitable[None]], every: float) -> None:
        """Do the work every `every` seconds; the alert scan has a loop of its own, so a
        slow scan never holds up the tiles."""
        while True:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database away: try again, say so
                self.errors += 1
                self.last_error = str(e).splitlines()[0] if str(e) else type(e).__name__
            await asyncio.sleep(every)

    async def _hear_meters(self, meters: MeterSource) -> None:
        """On PostgreSQL: the meter strip pushed as soon as the database says a meter moved
        (its message at the commit), not at the next poll; the poll still renders it too
        (SQLite, and a connection lost: listened again every LISTEN_RETRY_S)."""
        while True:
            try:
                feed = await run_in_threadpool(meters.feed)
                if feed is None:
                    return  # SQLite says nothing: the poll is all there is
                try:
                    while True:
                        if await run_in_threadpool(feed.wait, HEAR_WAIT_S) is not None:
                            self.heard += 1
                            await self.push_meters()
                finally:
                    feed.close()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database away: the poll says so
                self.last_error = str(e).splitlines()[0] if str(e) else type(e).__name__
            await asyncio.sleep(LISTEN_RETRY_S)

    async def push_meters(self) -> None:
        """The meter strip rendered now, and pushed if it changed."""
        assert self.meters is not None
        html = await run_in_threadpool(self.meters.render)
        if html != self.current.meters:
            self.current = replace(self.current, meters=html)
            self.publish("meter", {"html": html})

    async def scan_once(self) -> None:
        at = now()
        # Look back a little past the last scan (a station's clock, a write in flight), and
        # the whole shift now and then (a station's journal sent after an outage carries
        # its own, older times).
        full = self._scanned is None or self.scans % FULL_EVERY == 0
        since = at - SHIFT if full or self._scanned is None else self._scanned - OVERLAP
        t = time.perf_counter()
        await run_in_threadpool(self.scan, since)
        self.scan_s = time.perf_counter() - t
        self._scanned = at
        self.scans += 1

    async def tick(self, scan: bool = False) -> None:
        """Render the floor and push what changed (`scan`: raise new alerts first, as the
        scanning loop does; the tests call it so)."""
        if scan or self._scanning is None:
            await self.scan_once()
        t = time.perf_counter()
        snap = await run_in_threadpool(self.render)
        self.render_s = time.perf_counter() - t
        self.polls += 1
        self.last_error = None
        old = self.current
        self.current = snap
        for dom, html in snap.tiles.items():
            if old.tiles.get(dom) != html:
                self.publish("tile", {"id": dom, "html": html})
        for dom in old.tiles.keys() - snap.tiles.keys():
            self.publish("gone", {"id": dom})
        if snap.alerts != old.alerts:
            self.publish("alerts", {"html": snap.alerts})
        if snap.meters != old.meters:
            self.publish("meter", {"html": snap.meters})
        self.ready.set()

    def publish(self, event: str, data: dict[str, object]) -> None:
        message = f"event: {event}\ndata: {json.dumps(data)}\n\n"
        for q in list(self.subscribers):
            try:
                q.put_nowait((event, message))
            except asyncio.QueueFull:
                self.subscribers.discard(q)
                self.dropped += 1

    async def follow(self, alive: Callable[[], Awaitable[bool]] | None = None,
                     every: float = 1.0, meter_only: bool = False) -> AsyncIterator[str]:
        """A browser's stream: every tile now, then the changes as they come. `alive`: whether
        the browser's session still stands, asked before sending when the last answer is
        `every` seconds old (the caller has just asked it); the stream ends once it does
        not, so nothing is sent more than a beat after the session ended. `meter_only`:
        the meter strip and nothing else (every page but the floor's)."""
        q: asyncio.Queue[tuple[str, str]] = asyncio.Queue(QUEUE)
        await self.ready.wait()
        snap = self.current
        self.subscribers.add(q)
        asked = time.monotonic()
        try:
            yield "retry: 1000\n\n"
            if not meter_only:
                for dom, html in snap.tiles.items():
                    yield f"event: tile\ndata: {json.dumps({'id': dom, 'html': html})}\n\n"
                yield f"event: alerts\ndata: {json.dumps({'html': snap.alerts})}\n\n"
            if snap.meters:  # a floor with no linked progressive has no strip
                yield f"event: meter\ndata: {json.dumps({'html': snap.meters})}\n\n"
            while q in self.subscribers:
                try:
                    event, message = await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except TimeoutError:
                    event, message = "", ": keepalive\n\n"
                if alive is not None and time.monotonic() - asked >= every:
                    if not await alive():
                        return
                    asked = time.monotonic()
                if not meter_only or event in ("", "meter"):
                    yield message
        finally:
            self.subscribers.discard(q)
