"""Floor users (issue 16, "Who may see and do what"): their own login, hashed with
argon2; roles pit supervisor / shift manager / auditor (read-only); sessions in signed
cookies; CSRF on every form; repeated wrong passwords slow the next try (issue 23: "a lock
is not a weapon"), the same for a real name and an unknown one; every action recorded with
who did it; 127.0.0.1 unless configured otherwise."""

from __future__ import annotations

import json
import re
import time
from base64 import b64encode
from pathlib import Path

import itsdangerous
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.floor import auth
from app.floor.main import add_serve_arguments, main
from app.ledger.database import make_engine
from app.ledger.models import FloorAlert, FloorLog, User, now

from ..clock import Clock, held
from .conftest import PASSWORD, csrf, log_in

FREE = 3  # wrong tries from one address that cost nothing (docs/floor.md)


@pytest.fixture()
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return held(monkeypatch)


def error(page: object) -> str:
    found = re.search(r'id="login-error">([^<]*)<', page.text)  # type: ignore[attr-defined]
    assert found, "the login page says why"
    return found.group(1)


def logs(url: str) -> list[tuple[str | None, str, str]]:
    engine = make_engine(url)
    with Session(engine) as s:
        out = [(r.actor, r.action, r.detail)
               for r in s.scalars(select(FloorLog).order_by(FloorLog.at))]
    engine.dispose()
    return out


def an_alert(url: str) -> str:
    import uuid

    engine = make_engine(url)
    aid = uuid.uuid4()
    with Session(engine) as s, s.begin():
        s.add(FloorAlert(id=aid, key="test:1", kind="foul", table_name="PG-1",
                         station_id=None, round_id=None, text="seat 3 fouled", raised_at=now()))
    engine.dispose()
    return str(aid)


def test_a_page_without_a_login_goes_to_the_login_page(client: TestClient) -> None:
    got = client.get("/tables/PG-1")
    assert got.status_code == 303 and got.headers["location"] == "/login?next=/tables/PG-1"


def test_the_right_password_logs_in_and_the_page_names_the_user_and_role(
        client: TestClient) -> None:
    assert log_in(client).status_code == 303  # type: ignore[attr-defined]
    page = client.get("/").text
    assert "Pat - pit supervisor" in page


def test_a_wrong_password_is_refused_and_logged_without_the_password(
        client: TestClient, url: str) -> None:
    got = log_in(client, "Pat", "not the password")
    assert got.status_code == 401  # type: ignore[attr-defined]
    assert "wrong name or password: try again" in got.text  # type: ignore[attr-defined]
    assert client.get("/").status_code == 303  # still not logged in
    entries = logs(url)
    assert ("Pat", "login_refused") in [(a, k) for a, k, _ in entries]
    assert not any("not the password" in d for _, _, d in entries)


def test_an_unknown_name_gets_the_same_words_as_a_wrong_password_try_after_try(
        client: TestClient, clock: Clock) -> None:
    for _ in range(FREE + 3):
        real, unknown = log_in(client, "Pat", "guess guess"), log_in(client, "Nobody", "guess")
        assert real.status_code == unknown.status_code == 401  # type: ignore[attr-defined]
        assert error(real) == error(unknown)
    assert error(log_in(client, "Nobody", PASSWORD)).startswith("too many wrong tries")


def test_wrong_passwords_make_the_next_login_from_that_address_wait_even_with_the_right_one(
        client: TestClient, url: str, clock: Clock) -> None:
    for _ in range(FREE - 1):
        assert error(log_in(client, "Max", "guess guess guess")) == ("wrong name or password: "
                                                                     "try again")
    assert error(log_in(client, "Max", "guess guess guess")) == ("wrong name or password: "
                                                                 "try again in 2 seconds")
    got = log_in(client, "Max", PASSWORD)
    assert got.status_code == 401  # type: ignore[attr-defined]
    assert error(got).startswith("too many wrong tries for this name: try again in 2 seconds")
    assert ("Max", "login_refused", "wait") in [(a, k, json.loads(d).get("why"))
                                                for a, k, d in logs(url)]
    clock.advance(2)
    assert log_in(client, "Max", PASSWORD).status_code == 303  # type: ignore[attr-defined]


def test_passwords_are_kept_only_as_argon2_hashes(url: str) -> None:
    engine = make_engine(url)
    with Session(engine) as s:
        hashes = list(s.scalars(select(User.secret_hash)))
    engine.dispose()
    assert hashes and all(h.startswith("$argon2id$") for h in hashes)
    assert not any(PASSWORD in h for h in hashes)


def test_an_auditor_reads_but_may_not_acknowledge_an_alert(client: TestClient,
                                                             url: str) -> None:
    aid = an_alert(url)
    log_in(client, "Aud")
    page = client.get("/alerts")
    assert page.status_code == 200 and "seat 3 fouled" in page.text
    got = client.post(f"/alerts/{aid}/ack", data={"csrf": csrf(page.text), "note": "seen"})
    assert got.status_code == 403
    assert "You are logged in as auditor (read-only)" in got.text
    assert ("Aud", "refused") in [(a, k) for a, k, _ in logs(url)]


@pytest.mark.parametrize("token", [None, "forged-token"])
def test_a_form_without_the_session_s_csrf_token_is_refused(client: TestClient, url: str,
                                                            token: str | None) -> None:
    aid = an_alert(url)
    log_in(client)
    data = {"note": "seen"} | ({"csrf": token} if token else {})
    got = client.post(f"/alerts/{aid}/ack", data=data)
    assert got.status_code == 403
    assert "did not come from this floor session" in got.text
    assert "alert_ack" not in [k for _, k, _ in logs(url)]


def test_a_login_form_from_elsewhere_is_refused(client: TestClient) -> None:
    got = client.post("/login", data={"name": "Pat", "password": PASSWORD})
    assert got.status_code == 403


def test_an_expired_session_is_sent_to_log_in_again(client: TestClient) -> None:
    class Yesterday(itsdangerous.TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - 24 * 3600

    session = {"user": {"name": "Pat", "role": "pit supervisor", "version": 1, "logouts": 0},
               "csrf": "x"}
    old = Yesterday("test-secret").sign(b64encode(json.dumps(session).encode())).decode()
    client.cookies.set("paigow_floor", old)
    got = client.get("/")
    assert got.status_code == 303 and got.headers["location"].startswith("/login")
    fresh = itsdangerous.TimestampSigner("test-secret").sign(
        b64encode(json.dumps(session).encode())).decode()
    client.cookies.set("paigow_floor", fresh)
    assert client.get("/").status_code == 200  # the same cookie, signed now, is taken


def test_a_cookie_signed_with_another_key_is_no_session(client: TestClient) -> None:
    session = {"user": {"name": "Pat", "role": "shift-manager"}, "csrf": "x"}
    forged = itsdangerous.TimestampSigner("guessed").sign(
        b64encode(json.dumps(session).encode())).decode()
    client.cookies.set("paigow_floor", forged)
    assert client.get("/").status_code == 303


def test_the_server_listens_on_this_machine_only_unless_told(tmp_path: Path) -> None:
    import argparse

    p = argparse.ArgumentParser()
    add_serve_arguments(p)
    assert p.parse_args([]).host == "127.0.0.1"
    assert p.parse_args(["--host", "0.0.0.0"]).host == "0.0.0.0"


def test_floor_users_are_added_with_a_role_and_a_long_password(url: str) -> None:
    engine = make_engine(url)
    with pytest.raises(auth.AuthError, match="at least 10 characters"):
        auth.add_user(engine, "Short", "auditor", "abc")
    with pytest.raises(auth.AuthError, match="the role is one of"):
        auth.add_user(engine, "Odd", "croupier", PASSWORD)
    with pytest.raises(auth.AuthError, match="already a floor user named 'Pat'"):
        auth.add_user(engine, "Pat", "auditor", PASSWORD)
    engine.dispose()


def test_the_floor_s_command_gives_a_user_another_role(url: str,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert main(["user", "--database-url", url, "role", "Pat", "--role", "auditor"]) == 0
    assert capsys.readouterr().out == "floor user 'Pat' is now auditor\n"
    engine = make_engine(url)
    assert [(name, role) for name, role, _, _ in auth.users(engine)
            if name == "Pat"] == [("Pat", "auditor")]
    with pytest.raises(auth.AuthError, match="Pat is auditor already: nothing was changed"):
        auth.set_role(engine, "Pat", "auditor")
    engine.dispose()


def test_the_floor_and_the_stations_share_one_set_of_people(client: TestClient,
                                                             url: str) -> None:
    """A pit supervisor added for the stations (`paigow users`) logs in at the floor with
    the same secret; floor users are people a station's void can be signed by."""
    from app.ledger import Store

    with Store(url, table="PG-1", station="s") as store:
        max_ = store.authorise("Max", PASSWORD, "manage users")  # a floor shift manager
        store.add_person("Lin Wu", "pit supervisor", "lin-secret-2468", by=max_)
        assert store.authorise("Pat", PASSWORD, "void").role == "pit supervisor"
    assert log_in(client, "Lin Wu", "lin-secret-2468").status_code == 303  # type: ignore[attr-defined]
    assert "Lin Wu - pit supervisor" in client.get("/").text


def test_a_disabled_person_is_logged_out_at_their_next_request(client: TestClient,
                                                                url: str) -> None:
    log_in(client, "Pat")
    assert client.get("/").status_code == 200
    engine = make_engine(url)
    auth.remove_user(engine, "Pat", by="Max")
    engine.dispose()
    got = client.get("/")
    assert got.status_code == 303 and got.headers["location"].startswith("/login")
    assert ("Pat", "session_ended") in [(a, k) for a, k, _ in logs(url)]
    assert log_in(client, "Pat").status_code == 401  # type: ignore[attr-defined]


def test_five_wrong_logins_at_the_floor_leave_the_supervisor_free_at_a_station(
        client: TestClient, url: str) -> None:
    """What anyone who reaches the floor's page could do before: five wrong logins locked
    the name out of every station for 15 minutes."""
    from app.ledger import Store

    for _ in range(5):
        assert log_in(client, "Pat", "guess guess guess").status_code == 401  # type: ignore[attr-defined]
    with Store(url, table="PG-1", station="s") as store:
        assert store.authorise("Pat", PASSWORD, "void").name == "Pat"
