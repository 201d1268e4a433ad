"""Floor sessions end (issue 23, item 6): on logout, on a secret reset and on a role change,
every session of that person ends at its next request, the event stream included; a
cookie copied before (stolen) ends with them, since the end is kept by the server, not by
the browser forgetting its cookie."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.floor import auth
from app.floor.app import create_app
from app.ledger import Store
from app.ledger.database import make_engine
from app.ledger.models import FloorAck

from .conftest import PASSWORD, csrf, log_in, settings
from .test_auth import an_alert, logs

COOKIE = "paigow_floor"
STREAM = {"accept": "text/event-stream"}


def logged_in(client: TestClient, name: str = "Pat", password: str = PASSWORD) -> str:
    """A new session of the person's in `client`; its cookie."""
    client.cookies.clear()
    assert log_in(client, name, password).status_code == 303  # type: ignore[attr-defined]
    return str(client.cookies[COOKIE])


def works(client: TestClient, cookie: str) -> bool:
    client.cookies.set(COOKIE, cookie)
    got = client.get("/")
    return got.status_code == 200


def acks(url: str) -> int:
    engine = make_engine(url)
    with Session(engine) as s:
        n = len(s.scalars(select(FloorAck)).all())
    engine.dispose()
    return n


def test_a_cookie_copied_before_logout_is_refused_after_it(client: TestClient,
                                                           url: str) -> None:
    aid = an_alert(url)
    copied = logged_in(client)
    token = csrf(client.get("/alerts").text)
    assert client.post("/logout", data={"csrf": token}).status_code == 303
    # Whoever kept the cookie (and the page's token) has nothing left: not the pages, not
    # the acknowledgement that would hide the alert, not the stream.
    client.cookies.set(COOKIE, copied)
    page = client.get("/alerts")
    assert page.status_code == 303 and page.headers["location"].startswith("/login")
    client.cookies.set(COOKIE, copied)
    ack = client.post(f"/alerts/{aid}/ack", data={"csrf": token, "note": "nothing to see"})
    assert ack.status_code == 401 and acks(url) == 0
    client.cookies.set(COOKIE, copied)
    stream = client.get("/stream", headers=STREAM)
    assert stream.status_code == 401 and "Your session has ended" in stream.text
    assert ("Pat", "session_ended") in [(a, k) for a, k, _ in logs(url)]
    # The person logs in again as ever; the copy stays dead.
    fresh = logged_in(client)
    assert works(client, fresh) and not works(client, copied)


def test_a_logout_ends_every_session_of_that_person_and_no_one_else_s(
        client: TestClient) -> None:
    podium, tablet = logged_in(client), logged_in(client)
    other = logged_in(client, "Max")
    client.cookies.set(COOKIE, tablet)
    assert client.post("/logout", data={"csrf": csrf(client.get("/").text)}
                       ).status_code == 303
    assert not works(client, podium) and not works(client, tablet)
    assert works(client, other)


def test_every_session_of_a_person_ends_when_their_secret_is_reset(client: TestClient,
                                                                   url: str) -> None:
    first, second = logged_in(client), logged_in(client)
    other = logged_in(client, "Max")
    with Store(url, table="PG-1", station="s") as store:  # `paigow users reset`
        max_ = store.authorise("Max", PASSWORD, "manage users")
        store.reset_person("Pat", "new-secret-2468", by=max_)
    assert not works(client, first) and not works(client, second)
    client.cookies.set(COOKIE, second)
    assert client.get("/stream", headers=STREAM).status_code == 401
    assert works(client, other)  # the manager who reset it is not touched
    assert works(client, logged_in(client, "Pat", "new-secret-2468"))


def test_every_session_of_a_person_ends_when_their_role_changes(client: TestClient,
                                                                url: str) -> None:
    first, second = logged_in(client), logged_in(client)
    engine = make_engine(url)
    auth.set_role(engine, "Pat", "auditor", by="Max")
    engine.dispose()
    assert not works(client, first) and not works(client, second)
    client.cookies.set(COOKIE, first)
    assert client.get("/stream", headers=STREAM).status_code == 401
    again = logged_in(client)
    assert works(client, again) and "Pat - auditor (read-only)" in client.get("/").text


def test_an_open_event_stream_stops_within_a_beat_once_its_session_has_ended(
        url: str, tmp_path: Path) -> None:
    """The browser's stream, open before the logout (driven as the ASGI server would): it
    sends nothing made after the end and closes, within one poll of the floor."""
    app = create_app(settings(url, tmp_path))
    floor = app.state.floor
    client = TestClient(app, follow_redirects=False)
    cookie = logged_in(client)
    token = csrf(client.get("/").text)
    sent: list[dict[str, Any]] = []
    asked = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not asked.is_set():
            asked.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the browser stays
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    def body() -> str:
        return b"".join(m.get("body", b"") for m in sent).decode()

    async def follow() -> None:
        await floor.hub.tick()
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.4"},
                 "http_version": "1.1", "method": "GET", "scheme": "http", "path": "/stream",
                 "raw_path": b"/stream", "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"testserver"), (b"accept", b"text/event-stream"),
                             (b"cookie", f"{COOKIE}={cookie}".encode())],
                 "client": ("testclient", 50000), "server": ("testserver", 80)}
        task = asyncio.create_task(app(scope, receive, send))
        try:
            for _ in range(200):
                if "event: alerts" in body():
                    break
                await asyncio.sleep(0.01)
            assert sent[0]["status"] == 200 and "event: alerts" in body()
            floor.hub.publish("tile", {"id": "tile-PG-9", "html": "before the logout"})
            await asyncio.sleep(0.01)
            assert "before the logout" in body()
            await asyncio.to_thread(client.post, "/logout", data={"csrf": token})
            await asyncio.sleep(2 * floor.settings.poll_s)  # one beat, and some
            floor.hub.publish("tile", {"id": "tile-PG-9", "html": "after the logout"})
            await asyncio.wait_for(task, 5)
        finally:
            task.cancel()
        assert "after the logout" not in body()
        assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}

    try:
        asyncio.run(follow())
    finally:
        client.close()
        floor.close()
    assert json.dumps("before the logout") in body()
