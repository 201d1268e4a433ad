"""Live updates: one loop per floor server reads the heartbeats (and raises alerts) every
`poll_s`, renders each table's tile, and pushes the tiles that changed to every browser
following the floor (server-sent events). A browser that connects gets every tile first,
so a reconnect never misses a change.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from starlette.concurrency import run_in_threadpool

from app.ledger.models import now

KEEPALIVE_S = 15.0
QUEUE = 256  # a browser this far behind is dropped; it reconnects and gets everything


@dataclass
class Snapshot:
    tiles: dict[str, str] = field(default_factory=dict)  # dom id -> tile HTML
    alerts: str = ""  # the open alerts' HTML
    at: datetime | None = None


class Hub:
    """Renders the floor every `poll_s` and fans the changes out to subscribers."""

    def __init__(self, render: Callable[[], Snapshot], scan: Callable[[datetime], object],
                 poll_s: float = 0.5, scan_every: int = 2) -> None:
        self.render = render
        self.scan = scan
        self.poll_s = poll_s
        self.scan_every = scan_every
        self.current = Snapshot()
        self.subscribers: set[asyncio.Queue[str]] = set()
        self.polls = 0
        self.errors = 0
        self.last_error: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._scanned: datetime | None = None
        self.ready = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - shutting down
                pass

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database away: try again, say so
                self.errors += 1
                self.last_error = str(e).splitlines()[0] if str(e) else type(e).__name__
            await asyncio.sleep(self.poll_s)

    async def tick(self) -> None:
        if self.polls % self.scan_every == 0:
            at = now()
            since = (self._scanned or at - timedelta(hours=12)) - timedelta(minutes=5)
            await run_in_threadpool(self.scan, since)
            self._scanned = at
        snap = await run_in_threadpool(self.render)
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
        self.ready.set()

    def publish(self, event: str, data: dict[str, object]) -> None:
        message = f"event: {event}\ndata: {json.dumps(data)}\n\n"
        for q in list(self.subscribers):
            try:
                q.put_nowait(message)
            except asyncio.QueueFull:
                self.subscribers.discard(q)

    async def follow(self) -> AsyncIterator[str]:
        """A browser's stream: every tile now, then the changes as they come."""
        q: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        await self.ready.wait()
        snap = self.current
        self.subscribers.add(q)
        try:
            yield "retry: 1000\n\n"
            for dom, html in snap.tiles.items():
                yield f"event: tile\ndata: {json.dumps({'id': dom, 'html': html})}\n\n"
            yield f"event: alerts\ndata: {json.dumps({'html': snap.alerts})}\n\n"
            while q in self.subscribers:
                try:
                    yield await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield ": keepalive\n\n"
        finally:
            self.subscribers.discard(q)
