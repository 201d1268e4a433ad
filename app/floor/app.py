"""The floor's web application (Starlette, Jinja2 templates, server-sent events).

    app = create_app(FloorSettings(database_url="postgresql://...", secret_key="..."))

Pages: the floor (every table's tile, live), a table (who may bank and why, the rotation,
the last rounds with every hand, a round's slip as PDF), alerts (acknowledged with a note),
the shift report (CSV, PDF, a chart drawn on the server), a round (void it while in play,
correct a settlement once settled). Every page needs a logged-in floor user whose session
still stands (auth.Login: a logout, or any change of their account, ends it; the event
stream checks it once a poll while it sends); every form carries the session's CSRF token;
what a user does goes to the floor's log with their name.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from app.core.gaming_day import GamingDay
from app.core.settlement import MoneyError, parse_money
from app.ledger import LedgerError, Store, anchors, chain, progressive
from app.ledger.database import WRITE, make_engine, migrate
from app.ledger.meter_feed import MeterFeed
from app.ledger.models import FloorRequest, StationStatus, now

from . import alerts as alerts_mod
from . import progressive as progressive_mod
from . import report as report_mod
from . import views
from .anchoring import Anchoring
from .auth import AuthError, Login, User, log, log_out, still, verify
from .live import Hub, Snapshot

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class FloorSettings:
    database_url: str
    secret_key: str
    session_max_age_s: int = 8 * 3600  # a shift; then log in again
    offline_s: float = 10.0  # no heartbeat this long: the station shows offline
    open_too_long_s: float = 15 * 60.0
    poll_s: float = 0.5
    https_only: bool = False  # True behind TLS: the cookie is sent over https only
    data_dir: str | None = None
    checkpoint_s: float = 300.0  # how often the chains' heads are kept outside the database
    gaming_day: GamingDay = GamingDay()  # the config's [floor]: what the report counts by


class _Meters:
    """The meters as the hub hears them (PostgreSQL) and renders them."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor

    def feed(self) -> MeterFeed | None:
        engine = self.floor.engine
        return MeterFeed(engine, None) if engine.dialect.name == "postgresql" else None

    def render(self) -> str:
        return self.floor.meter_strip()


class Floor:
    """What the pages share: the database, the store (reads and corrections), the hub."""

    def __init__(self, settings: FloorSettings) -> None:
        self.settings = settings
        data = Path(settings.data_dir) if settings.data_dir else None
        self.store = Store(settings.database_url, table="floor", station="floor",
                           data_dir=data, migrate_now=False)
        # what the floor writes (people's tries, acknowledgements) is signed by its own key
        self.engine: Engine = chain.signing(make_engine(settings.database_url),
                                            self.store.signer)
        migrate(self.engine)
        self.anchoring = Anchoring(self.engine, self.store.data_dir / anchors.CHECKPOINTS,
                                   settings.checkpoint_s)
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"),
                                     autoescape=select_autoescape(["html"]))
        self.hub = Hub(self.render, self.scan, poll_s=settings.poll_s,
                       scan_every=max(1, round(1.0 / settings.poll_s)), meters=_Meters(self))
        self._tile_html: dict[views.Tile, str] = {}

    def session(self) -> Session:
        return Session(self.engine)

    def html(self, name: str, **context: object) -> str:
        return self.templates.get_template(name).render(**context)

    # --- the live floor ----------------------------------------------------------------

    def render(self) -> Snapshot:
        at = now()
        with self.session() as s:
            tiles = views.tiles(s, at, self.settings.offline_s)
            open_alerts = alerts_mod.listing(s, open_only=True, limit=20)
            meters = progressive_mod.strips(s)
        # A tile's HTML is made once per state of the table: most tiles do not change
        # from one poll to the next.
        cache = self._tile_html
        made = {t: cache.get(t) or self.html("_tile.html", t=t) for t in tiles}
        self._tile_html = made  # a page's render and the hub's may overlap: each its own
        return Snapshot({t.dom_id: made[t] for t in tiles},
                        self.html("_alerts.html", alerts=open_alerts, compact=True),
                        self.html("_meter.html", meters=meters) if meters else "", at)

    def meter_strip(self) -> str:
        """The meter strip as the meters stand now."""
        with self.session() as s:
            meters = progressive_mod.strips(s)
        return self.html("_meter.html", meters=meters) if meters else ""

    def meters(self) -> str:
        """The meter strip as the hub last pushed it, or read now when the hub is behind
        (a page opened as the server starts)."""
        snap = self.hub.current
        if snap.at is not None and (now() - snap.at).total_seconds() <= 2 * self.settings.poll_s:
            return snap.meters
        return self.meter_strip()

    def scan(self, since: datetime) -> int:
        raised = alerts_mod.scan(self.engine, since=since, offline_s=self.settings.offline_s,
                                 open_too_long_s=self.settings.open_too_long_s)
        if self.anchoring.due():
            raised += alerts_mod.raise_new(self.engine, self.anchoring.run(now()))
        return raised

    def close(self) -> None:
        self.store.close()
        self.engine.dispose()


# --- sessions, roles, CSRF ---------------------------------------------------------------------

def current_user(request: Request) -> User | None:
    login = Login.of_session(request.session.get("user"))
    return None if login is None else login.user


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


class Refused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


async def form_of(request: Request) -> dict[str, str]:
    """The form, once its CSRF token is the session's: a form made anywhere else (or a
    session gone) is refused."""
    form = await request.form()
    sent = form.get("csrf")
    token = request.session.get("csrf")
    if not isinstance(sent, str) or not isinstance(token, str) or \
            not secrets.compare_digest(sent, token):
        raise Refused(403, "This form did not come from this floor session (its security "
                           "token is missing or wrong). Reload the page and try again.")
    return {k: v for k, v in form.items() if isinstance(v, str)}


Handler = Callable[[Request], Awaitable[Response]]


def page(*, act: bool = False) -> Callable[[Callable[[Request, Floor, User], Awaitable[Response]]],
                                          Handler]:
    """A page for a logged-in user (`act`: one who may change things, not an auditor)."""

    def wrap(fn: Callable[[Request, Floor, User], Awaitable[Response]]) -> Handler:
        async def handler(request: Request) -> Response:
            floor: Floor = request.app.state.floor
            login = Login.of_session(request.session.get("user"))
            user: User | None = None
            if login is not None:
                # checked against the database, not the cookie: the cookie a thief copied
                # is as good as the person's own until the server says it has ended
                found = await run_in_threadpool(still, floor.engine, login)
                if isinstance(found, User):
                    user = found
                else:
                    await run_in_threadpool(_log, floor, login.name, "session_ended",
                                            {"why": found})
                    request.session.clear()
            elif "user" in request.session:  # made before sessions held their account's
                request.session.clear()  # version: log in again
            if user is None:
                if request.method == "GET" and "text/event-stream" not in \
                        request.headers.get("accept", ""):
                    return RedirectResponse(f"/login?next={quote(request.url.path)}", 303)
                return refused(floor, request, 401, "Your session has ended: log in again.")
            if act and not user.may_act:
                await run_in_threadpool(_log, floor, user.name, "refused",
                                        {"path": request.url.path, "why": "role"})
                return refused(floor, request, 403,
                               f"You are logged in as {user.role_words}: that needs a pit "
                               f"supervisor or a shift manager. Nothing was changed.")
            try:
                return await fn(request, floor, user)
            except Refused as e:
                return refused(floor, request, e.status, e.text)
            except LedgerError as e:
                return refused(floor, request, 409, str(e))
        return handler
    return wrap


def _log(floor: Floor, actor: str | None, action: str, detail: dict[str, object]) -> None:
    with Session(floor.engine.execution_options(**WRITE)) as s, s.begin():
        log(s, actor, action, detail)


def refused(floor: Floor, request: Request, status: int, text: str) -> Response:
    user = current_user(request)
    return HTMLResponse(floor.html("refused.html", user=user, text=text,
                                   csrf=csrf_token(request) if user else ""), status)


def render(request: Request, floor: Floor, name: str, user: User | None,
           **context: object) -> HTMLResponse:
    return HTMLResponse(floor.html(name, user=user, csrf=csrf_token(request),
                                   path=request.url.path,
                                   meters_html=floor.meters() if user else "", **context))


# --- login ------------------------------------------------------------------------------------

async def login_page(request: Request) -> Response:
    floor: Floor = request.app.state.floor
    return render(request, floor, "login.html", None, error=None,
                  next=request.query_params.get("next", "/"))


async def login(request: Request) -> Response:
    floor: Floor = request.app.state.floor
    try:
        form = await form_of(request)
    except Refused as e:
        return refused(floor, request, e.status, e.text)
    name, password = form.get("name", ""), form.get("password", "")
    source = request.client.host if request.client else None
    try:
        user = await run_in_threadpool(verify, floor.engine, name, password, source=source)
    except AuthError as e:
        return HTMLResponse(floor.html("login.html", user=None, error=str(e),
                                       csrf=csrf_token(request), next=form.get("next", "/"),
                                       path="/login"), 401)
    request.session.clear()
    request.session["user"] = user.to_session()
    request.session["csrf"] = secrets.token_urlsafe(32)  # a new token with a new login
    target = form.get("next", "/")
    return RedirectResponse(target if target.startswith("/") and not
                            target.startswith("//") else "/", 303)


@page()
async def logout(request: Request, floor: Floor, user: User) -> Response:
    await form_of(request)
    await run_in_threadpool(log_out, floor.engine, user.name)
    request.session.clear()
    return RedirectResponse("/login", 303)


# --- the floor ------------------------------------------------------------------------------

@page()
async def floor_page(request: Request, floor: Floor, user: User) -> Response:
    snap = floor.hub.current
    if snap.at is None or (now() - snap.at).total_seconds() > 2 * floor.settings.poll_s:
        snap = await run_in_threadpool(floor.render)  # the hub is behind: as it is now
    return render(request, floor, "floor.html", user, tiles=list(snap.tiles.values()),
                  alerts_html=snap.alerts, hub_error=floor.hub.last_error)


@page()
async def stream(request: Request, floor: Floor, user: User) -> Response:
    login = Login.of_session(request.session.get("user"))

    async def alive() -> bool:
        if login is None:
            return False
        return isinstance(await run_in_threadpool(still, floor.engine, login), User)

    return StreamingResponse(floor.hub.follow(alive, every=floor.settings.poll_s,
                                              meter_only=request.query_params.get("only")
                                              == "meter"),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store",
                                      "X-Accel-Buffering": "no"})


@page()
async def table_page(request: Request, floor: Floor, user: User) -> Response:
    table = request.path_params["table"]

    def read() -> tuple[views.TablePage | None, views.Tile | None, list[alerts_mod.AlertView]]:
        with floor.session() as s:
            found = views.table_page(s, table)
            tile = next((t for t in views.tiles(s, now(), floor.settings.offline_s)
                         if t.table == table), None)
            table_alerts = alerts_mod.listing(s, table=table, limit=20)
            return found, tile, table_alerts
    found, tile, table_alerts = await run_in_threadpool(read)
    if found is None:
        raise Refused(404, f"There is no table named {table!r} on this floor: pick one from "
                           f"the floor page.")
    return render(request, floor, "table.html", user, page=found, tile=tile,
                  alerts=table_alerts, message=request.query_params.get("done"),
                  chain=await run_in_threadpool(_chain, floor, table))


def _chain(floor: Floor, table: str) -> dict[str, object]:
    """The table's hash chain walked now (`paigow ledger verify --table`): checked, or the
    first row that does not match."""
    try:
        [report] = floor.store.verify(table)
    except (LedgerError, ValueError) as e:
        return {"intact": False, "text": f"the chain could not be checked: {e}"}
    return {"intact": report.intact, "text": report.text(), "head": report.head}


@page()
async def slip_pdf(request: Request, floor: Floor, user: User) -> Response:
    from drivers.printer.pdf import slips_pdf

    rid = request.path_params["round_id"]
    stored = await run_in_threadpool(floor.store.slip, rid)
    data = await run_in_threadpool(
        lambda: slips_pdf([stored.data()], times=[stored.settled_at],
                          title=f"{stored.table} round {stored.round_no} - slip (reprint "
                                f"from the ledger)"))
    await run_in_threadpool(_log, floor, user.name, "slip_pdf", {"round": stored.round_id})
    name = f"{stored.table}-round-{stored.round_no}.pdf"
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})


# --- alerts ---------------------------------------------------------------------------------

@page()
async def alerts_page(request: Request, floor: Floor, user: User) -> Response:
    def read() -> list[alerts_mod.AlertView]:
        with floor.session() as s:
            return alerts_mod.listing(s, limit=300)
    return render(request, floor, "alerts.html", user, alerts=await run_in_threadpool(read),
                  message=request.query_params.get("done"))


def _back(form: dict[str, str], said: str) -> RedirectResponse:
    back = form.get("back", "/alerts")
    return RedirectResponse((back if back.startswith("/") and not back.startswith("//")
                             else "/alerts") + "?done=" + quote(said), 303)


@page(act=True)
async def acknowledge(request: Request, floor: Floor, user: User) -> Response:
    form = await form_of(request)
    try:
        await run_in_threadpool(alerts_mod.acknowledge, floor.engine,
                                request.path_params["alert_id"], user, form.get("note", ""))
    except alerts_mod.AlertError as e:
        raise Refused(409, str(e)) from None
    return _back(form, "Alert acknowledged: your name and note are recorded.")


@page(act=True)
async def acknowledge_many(request: Request, floor: Floor, user: User) -> Response:
    """Several alerts, one note: the ticked ones, or every open alert the page showed (not
    one raised since, which nobody has read yet)."""
    form = await form_of(request)
    raw = await request.form()
    field = "shown" if form.get("which") == "all" else "alert"
    ids = [v for v in raw.getlist(field) if isinstance(v, str)]
    try:
        n = await run_in_threadpool(alerts_mod.acknowledge_many, floor.engine, ids, user,
                                    form.get("note", ""))
    except alerts_mod.AlertError as e:
        raise Refused(409, str(e)) from None
    return _back(form, f"{n} alert{'s' if n != 1 else ''} acknowledged with one note: your "
                       f"name and note are recorded on each.")


# --- a round: void while in play, correct once settled ------------------------------------------

def _round_context(floor: Floor, round_id: str) -> dict[str, object]:
    from app.ledger.reads import corrections

    with floor.session() as s:
        row = views.round_row(s, round_id)
        if row is None:
            raise Refused(404, "There is no such round in the ledger: open it from its "
                               "table's page.")
        fixes = tuple(c.text() for c in corrections(s, row))
        requests = list(s.scalars(select(FloorRequest).where(FloorRequest.round_id == row.id)
                                  .order_by(FloorRequest.requested_at)))
        held = views.bonus_records(s, [row.id]).get(row.id, [])
        context = {"round": views.past_round(s, row, fixes, held), "table": row.table_name,
                   "requests": requests, "row_status": row.status, "recall": None,
                   "recall_error": None}
    try:  # the round whole, settled again by the core (app/ledger/recall.py)
        context["recall"] = floor.store.recall(str(row.id))
    except LedgerError as e:
        context["recall_error"] = str(e)
    return context


@page()
async def round_page(request: Request, floor: Floor, user: User) -> Response:
    ctx = await run_in_threadpool(_round_context, floor, request.path_params["round_id"])
    return render(request, floor, "round.html", user, message=request.query_params.get("done"),
                  **ctx)


def _request_void(floor: Floor, round_id: str, by: str, reason: str) -> str:
    with Session(floor.engine.execution_options(**WRITE)) as s, s.begin():
        row = views.round_row(s, round_id)
        if row is None:
            raise Refused(404, "There is no such round in the ledger.")
        if row.status != "open":
            raise Refused(409, f"Round {row.round_no} at {row.table_name} is {row.status}: "
                               f"only a round in play is voided (a settled round is "
                               f"corrected).")
        st = s.get(StationStatus, row.station_id)
        s.add(FloorRequest(id=uuid.uuid4(), station_id=row.station_id, round_id=row.id,
                           kind="void", by=by, reason=reason, requested_at=now(),
                           done_at=None, outcome=None))
        log(s, by, "void_requested", {"round": str(row.id), "reason": reason})
        where = f"{row.table_name}'s station"
        if st is None:
            return f"Void asked of {where}; it has never sent a heartbeat, so it may not see it."
        return (f"Void asked of {where}: it voids the round as its pit view does, and the "
                f"ledger records it with your name.")


@page(act=True)
async def void_round(request: Request, floor: Floor, user: User) -> Response:
    form = await form_of(request)
    reason = form.get("reason", "").strip()
    if not reason:
        raise Refused(400, "Write why the round is voided: the ledger logs the reason.")
    rid = request.path_params["round_id"]
    said = await run_in_threadpool(_request_void, floor, rid, user.name, reason)
    return RedirectResponse(f"/rounds/{rid}?done={quote(said)}", 303)


@page(act=True)
async def correct_round(request: Request, floor: Floor, user: User) -> Response:
    form = await form_of(request)
    rid = request.path_params["round_id"]
    reason = form.get("reason", "").strip()
    try:
        position = int(form.get("position", ""))
        net = parse_money(form.get("net", "").strip().lstrip("+"))
    except MoneyError as e:
        raise Refused(400, f"The corrected net: {e} (e.g. -25 or +23.75)") from None
    except ValueError:
        raise Refused(400, "Pick the position and type the corrected net (e.g. -25 or "
                           "+23.75).") from None
    if not reason:
        raise Refused(400, "Write why: the ledger logs the reason.")
    secret = form.get("password", "")
    if not secret:
        raise Refused(400, "Type your password: a correction is a supervisor's act, signed "
                           "with your own secret at the moment it is done. Nothing was "
                           "changed.")
    done = await run_in_threadpool(lambda: floor.store.correct(
        rid, position, net_cents=net, reason=reason, by=user.name, secret=secret))
    await run_in_threadpool(_log, floor, user.name, "correction",
                            {"round": rid, "position": position, "net_cents": net,
                             "reason": reason})
    return RedirectResponse(f"/rounds/{rid}?done={quote('Corrected: ' + done.text())}", 303)


# --- the shift report ---------------------------------------------------------------------

@dataclass(frozen=True)
class Window:
    """What a report covers: a gaming day, or one shift of it."""

    day: date
    shift: int | None
    since: datetime
    until: datetime
    words: str  # its heading: "gaming day 2026-11-27, shift 2 (14:00-22:00)"
    name: str  # for a file name: "2026-11-27" or "2026-11-27-shift-2"
    query: str  # for a link: "date=2026-11-27&shift=2"


def _window(request: Request, floor: Floor) -> Window:
    q = request.query_params
    gd = floor.settings.gaming_day
    try:
        day = date.fromisoformat(q["date"]) if q.get("date") else gd.day_of(now())
    except ValueError:
        raise Refused(400, "The gaming day is written YYYY-MM-DD, e.g. 2026-11-27.") from None
    shift: int | None = None
    if q.get("shift"):
        try:
            shift = int(q["shift"])
        except ValueError:
            shift = 0
        if not 1 <= shift <= gd.shift_count:
            raise Refused(400, f"There is no shift {q['shift']!r}: this floor's gaming day "
                               f"has shifts 1 to {gd.shift_count}, or leave it out for the "
                               f"whole day.")
    since, until = gd.window(day) if shift is None else gd.shift_window(day, shift)
    words = f"gaming day {day.isoformat()}" + (f", {gd.shift_words(shift)}" if shift else "")
    name = day.isoformat() + (f"-shift-{shift}" if shift else "")
    query = f"date={day.isoformat()}" + (f"&shift={shift}" if shift else "")
    return Window(day, shift, since, until, words, name, query)


@page()
async def progressive_page(request: Request, floor: Floor, user: User) -> Response:
    """The linked progressive: the meter, reserve and seed, the audit, the gaming day's
    contributions per table and per shift, the hits, the meter's history as a chart."""
    w = _window(request, floor)
    gd = floor.settings.gaming_day

    def read() -> list[progressive_mod.MeterPage]:
        with floor.session() as s:
            found = (progressive_mod.meter_page(s, name, gd, w.day)
                     for name in progressive.meters(s))
            return [m for m in found if m is not None]
    return render(request, floor, "progressive.html", user,
                  meters=await run_in_threadpool(read), w=w, starts=f"{gd.starts:%H:%M}",
                  zone=gd.zone_words())


@page()
async def report_page(request: Request, floor: Floor, user: User) -> Response:
    w = _window(request, floor)
    rep = await run_in_threadpool(report_mod.build, floor.engine, w.since, w.until, w.words)
    gd = floor.settings.gaming_day
    return render(request, floor, "report.html", user, report=rep, w=w,
                  header=report_mod.HEADER, bonus_header=report_mod.BONUS_HEADER,
                  shifts=[(n, gd.shift_words(n)) for n in range(1, gd.shift_count + 1)],
                  starts=f"{gd.starts:%H:%M}", zone=gd.zone_words())


@page()
async def report_csv(request: Request, floor: Floor, user: User) -> Response:
    w = _window(request, floor)
    rep = await run_in_threadpool(report_mod.build, floor.engine, w.since, w.until, w.words)
    await run_in_threadpool(_log, floor, user.name, "report_csv", {"report": w.name})
    return Response(report_mod.to_csv(rep), media_type="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="shift-report-{w.name}.csv"'})


@page()
async def report_pdf(request: Request, floor: Floor, user: User) -> Response:
    w = _window(request, floor)
    rep = await run_in_threadpool(report_mod.build, floor.engine, w.since, w.until, w.words)
    data = await run_in_threadpool(report_mod.to_pdf, rep)
    await run_in_threadpool(_log, floor, user.name, "report_pdf", {"report": w.name})
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition":
                             f'attachment; filename="shift-report-{w.name}.pdf"'})


@page()
async def report_chart(request: Request, floor: Floor, user: User) -> Response:
    w = _window(request, floor)
    rep = await run_in_threadpool(report_mod.build, floor.engine, w.since, w.until, w.words)
    png = await run_in_threadpool(report_mod.chart_png, rep)
    return Response(png, media_type="image/png")


async def healthz(request: Request) -> Response:
    floor: Floor = request.app.state.floor
    hub = floor.hub
    if hub.last_error:
        return PlainTextResponse(f"database: {hub.last_error}", 503)
    return PlainTextResponse(f"ok: {len(hub.current.tiles)} tables, "
                             f"{len(hub.subscribers)} following, render "
                             f"{hub.render_s * 1000:.0f} ms, alert scan "
                             f"{hub.scan_s * 1000:.0f} ms, {hub.dropped} browser(s) "
                             f"dropped for falling behind")


async def server_error(request: Request, exc: Exception) -> Response:
    """Something unexpected: a sentence for the person, the details in the server's log."""
    return PlainTextResponse("The floor server hit a problem it did not expect. Reload the "
                             "page; if it happens again, tell the floor's administrator "
                             "(the server's log has the details).", 500)


def create_app(settings: FloorSettings) -> Starlette:
    floor = Floor(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        floor.hub.start()
        yield
        await floor.hub.stop()
        floor.close()

    routes = [
        Route("/", floor_page),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/stream", stream),
        Route("/tables/{table}", table_page),
        Route("/rounds/{round_id}", round_page),
        Route("/rounds/{round_id}/slip.pdf", slip_pdf),
        Route("/rounds/{round_id}/void", void_round, methods=["POST"]),
        Route("/rounds/{round_id}/correct", correct_round, methods=["POST"]),
        Route("/alerts", alerts_page),
        Route("/alerts/ack", acknowledge_many, methods=["POST"]),
        Route("/alerts/{alert_id}/ack", acknowledge, methods=["POST"]),
        Route("/progressive", progressive_page),
        Route("/report", report_page),
        Route("/report.csv", report_csv),
        Route("/report.pdf", report_pdf),
        Route("/report.png", report_chart),
        Route("/healthz", healthz),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [Middleware(SessionMiddleware, secret_key=settings.secret_key,
                             session_cookie="paigow_floor", max_age=settings.session_max_age_s,
                             same_site="strict", https_only=settings.https_only)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={500: server_error})
    app.state.floor = floor
    return app
