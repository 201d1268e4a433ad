"""A table's page: who may bank now, seat by seat, with the rule that allows or refuses it
(seed 003), the rotation, the last rounds with every hand, the House Way rule that fired,
the payouts in order from action, and a round's slip as PDF from the ledger."""

from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader
from starlette.testclient import TestClient

from app.floor.app import Floor
from app.floor.stations import HeadlessStation
from app.floor.views import table_page

from .conftest import log_in, settings


def wagers(st: HeadlessStation, amounts: dict[int, str]) -> None:
    for seat, dollars in amounts.items():
        st.key(str(seat))
        assert st.cmd("wager", dollars), st.session.message


def house_round(st: HeadlessStation, amounts: dict[int, str]) -> None:
    """A round the dealer banks, with these wagers, played to its settlement."""
    st._open()
    while st.session.bank_offered() is not None:
        assert st.key("Q"), st.session.message
    wagers(st, amounts)
    for step in (st._action, st._deal, st._dragon, st._set, st._settle):
        step()
    st.beat()


def page_of(url: str, tmp_path: Path, table: str = "PG-1"):  # type: ignore[no-untyped-def]
    floor = Floor(settings(url, tmp_path))
    try:
        with floor.session() as s:
            return table_page(s, table)
    finally:
        floor.close()


def test_a_player_who_wagered_against_the_dealer_last_round_may_bank_one_who_did_not_may_not(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    # Seed 003: "1. The Player must have placed a wager against the Dealer during the last
    # round of play in which there was no Player banking the game."
    house_round(station, {2: "25", 4: "40"})
    page = page_of(url, tmp_path)
    assert page is not None
    by_seat = {st.seat: st for st in page.standings}
    assert by_seat[2].eligible and by_seat[2].verdict == "may bank"
    assert "wagered $25.00 against the dealer in the last round with no player banker" \
        in by_seat[2].reasons
    assert not by_seat[1].eligible
    assert "placed no wager against the dealer in the last round with no player banker" \
        in by_seat[1].reasons
    assert page.heading.startswith("No round in play. Round 2 opens next")
    assert any("wagered against the dealer in the last round with no player banker: seat 2 "
               "$25.00, seat 4 $40.00" in line.lower() for line in page.rotation)


def test_a_player_who_may_bank_must_have_chips_to_cover_every_other_wager(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    # Seed 003: "2. The Player has sufficient gaming chips on the table to cover all of the
    # wagers placed by other Players at the table for that round of play."
    house_round(station, {2: "25", 4: "40"})
    station._open()
    wagers(station, {3: "50", 5: "30"})  # round 2, betting: the bank not yet answered
    station.beat()
    page = page_of(url, tmp_path)
    assert page is not None and page.heading.startswith("Round 2 in play, taking wagers")
    seat2 = next(st for st in page.standings if st.seat == 2)
    assert seat2.cover == "$80.00"
    assert "needs chips to cover $80.00 of other wagers" in seat2.reasons


def test_the_last_rounds_show_every_hand_the_house_way_rule_and_payouts_in_order_from_action(
        station: HeadlessStation, url: str, tmp_path: Path) -> None:
    house_round(station, {1: "25", 3: "25", 6: "100"})
    rnd = station.session.round
    assert rnd is not None and rnd.action is not None and rnd.slip is not None
    page = page_of(url, tmp_path)
    assert page is not None
    [shown] = page.rounds
    paid = [h for h in shown.hands if h.order is not None]
    # Settle in order from action (DESIGN: "Settle and print in order from action").
    around = [p for p in station.session.table.around(rnd.action.position)
              if p in (1, 3, 6)]
    assert [h.number for h in paid] == around
    assert [h.order for h in paid] == [1, 2, 3]
    for h in shown.hands:
        line = rnd.slip.line(h.number)
        assert h.cards == " ".join(map(str, line.cards))
        if line.rule is not None:
            assert f"rule {line.rule}: {line.rule_says}" in h.how
    assert shown.totals.startswith("wagers $150.00")


def test_a_round_s_slip_is_reprinted_as_pdf_from_the_ledger(
        station: HeadlessStation, client: TestClient) -> None:
    house_round(station, {2: "25"})
    rid = station.store.history(limit=1)[0].id
    log_in(client)
    got = client.get(f"/rounds/{rid}/slip.pdf")
    assert got.status_code == 200 and got.headers["content-type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(got.content)).pages)
    assert "PG-1" in text and "round 1" in text.lower()


def test_the_table_page_answers_a_table_that_is_not_there_with_a_sentence(
        client: TestClient) -> None:
    log_in(client)
    got = client.get("/tables/NOPE")
    assert got.status_code == 404
    assert "There is no table named &#39;NOPE&#39; on this floor" in got.text


def test_the_table_page_shows_its_ledger_chain_checked(station: HeadlessStation,
                                                       client: TestClient) -> None:
    station.play_round()
    log_in(client, "Aud")
    page = client.get("/tables/PG-1").text
    assert re.search(r'id="chain" class="ok">Ledger chain: checked - PG-1: \d+ rows checked, '
                     r'chain intact', page), page[:2000]


def test_a_rounds_page_recalls_it_whole_and_the_core_agrees(station: HeadlessStation,
                                                            client: TestClient) -> None:
    station.play_round()
    rid = station.store.history(limit=1)[0].id
    log_in(client, "Aud")
    page = client.get(f"/rounds/{rid}").text
    assert "CARDS DEALT, IN ORDER" in page and "PAYOUTS, IN ORDER FROM ACTION" in page
    assert 'id="recall-verdict" class="ok">MATCH: settled again' in page


def test_a_row_changed_behind_the_ledgers_back_shows_the_tables_chain_broken(
        station: HeadlessStation, client: TestClient, url: str) -> None:
    from tests.ledger.tamper import tamper

    station.play_round()
    tamper(url, "UPDATE settlements SET net_cents = net_cents + 100000")
    log_in(client, "Aud")
    page = client.get("/tables/PG-1").text
    assert 'id="chain" class="error">Ledger chain: BROKEN - PG-1: ' in page
    rid = station.store.history(limit=1)[0].id
    assert 'id="recall-verdict" class="error">MISMATCH: ' in client.get(f"/rounds/{rid}").text
