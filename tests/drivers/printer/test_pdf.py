"""The shift report PDF (fpdf2): opened with pypdf and read back, every position, the
totals and, for a shift, the rounds and the shift's totals."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from pypdf import PdfReader

from drivers.printer.layout import SlipError, money
from drivers.printer.pdf import slips_pdf, write_pdf

from .helpers import NAMES, TIME, slip


def _text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("name", NAMES)
def test_the_pdf_of_one_slip_reads_back_every_position_and_the_totals(name: str) -> None:
    s = slip(name)
    data = slips_pdf([s], times=[TIME], now=TIME)
    assert data.startswith(b"%PDF-")
    text = _flat(_text(data))
    assert f"Table {s['table']} - Round {s['round']}" in text
    assert "2025-03-14 21:07:33" in text
    for p in s["positions"]:
        assert p["name"] in text
        if p["low"] is not None:
            assert f"{p['low']} {p['high']}" in text
        else:
            assert p["cards"] in text
        if p["house_way_rule"]:
            assert p["house_way_rule"] in text
        if p["outcome"]:
            assert f"{p['outcome'].upper()} {money(p['wager_cents'])} " \
                   f"{money(p['commission_cents'])} {money(p['net_cents'], sign=True)}" in text
    t = s["totals"]
    assert f"Wagers {money(t['wagers_cents'])}" in text
    assert f"Commission {money(t['commission_cents'])}" in text
    assert f"Players net {money(t['players_net_cents'], sign=True)}" in text
    assert f"House net {money(t['house_net_cents'], sign=True)}" in text
    if s["bank"]["player"] is not None:
        assert (f"Player banker (seat {s['bank']['player']}) net "
                f"{money(t['banker_net_cents'], sign=True)}") in text


def test_the_pdf_names_fouls_and_a_bank_that_ran_out() -> None:
    text = _flat(_text(slips_pdf([slip("house-bank"), slip("player-bank-runs-out")],
                                 times=[TIME, TIME], now=TIME)))
    assert "seat 5: The hand forfeits: the two-card hand (pair of 4s) outranks" in text
    assert "seat 2: The bank is exhausted: the winning wager is returned." in text
    assert "The bank ran out: later winners were returned." in text


def test_a_shift_report_has_every_round_and_the_shifts_totals() -> None:
    slips = [slip(n) for n in NAMES] * 6  # a shift of 36 rounds: several pages
    times = [TIME + timedelta(minutes=3 * i) for i in range(len(slips))]
    data = slips_pdf(slips, times=times, now=TIME + timedelta(hours=2))
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) > 3
    text = _flat(_text(data))
    assert text.count("Table PG-1 - Round 1 ") == 6
    assert f"Shift totals: {len(slips)} rounds" in text
    sums = {k: sum(s["totals"][k] for s in slips) for k in slips[0]["totals"]}
    assert (f"Shift {money(sums['wagers_cents'])} {money(sums['commission_cents'])} "
            f"{money(sums['players_net_cents'], True)} {money(sums['banker_net_cents'], True)} "
            f"{money(sums['house_net_cents'], True)}") in text
    assert f"page {len(reader.pages)}/{len(reader.pages)}" in text


def test_a_slip_is_never_split_across_two_pages() -> None:
    slips = [slip(n) for n in NAMES] * 3
    reader = PdfReader(io.BytesIO(slips_pdf(slips, times=[TIME] * len(slips), now=TIME)))
    for page in reader.pages:
        text = _flat(page.extract_text())
        assert len(re.findall(r" - Round \d+ ", text)) == text.count("Leftovers:")


def test_write_pdf_writes_the_file(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "shift.pdf", [slip("co-bank")], times=[TIME], now=TIME)
    assert "seat 3 (bank)" in _text(path.read_bytes())


def test_a_pdf_needs_slips_that_are_slips() -> None:
    with pytest.raises(ValueError, match="at least one slip"):
        slips_pdf([])
    with pytest.raises(SlipError):
        slips_pdf([{"schema": "paigow.round/1"}])


def test_the_pdf_shows_the_bonus_a_seat_at_a_time_in_the_order_paid() -> None:
    """As the felt and the receipt: each seat's net, then its lines in the order paid (its
    bonus, then its envy), who approved a payout that waited, and the bonus's money apart."""
    text = _flat(_text(slips_pdf([slip("fortune-bonus")], times=[TIME], now=TIME)))
    assert "Bonus (fortune-8000, envy envy-5000):" in text
    seat_1 = ("seat 1 bonus +$40,005.00 bonus $100.00: five aces, 400 to 1 (approved by "
              "Pat Lee) +$40,000.00 envy: four of a kind at seat 2 +$5.00")
    seat_2 = ("seat 2 bonus +$375.00 bonus $5.00: four of a kind, 25 to 1 +$125.00 envy: five "
              "aces at seat 1 +$250.00")
    seat_3 = ("seat 3 bonus +$270.00 bonus $5.00: three of a kind, 3 to 1 +$15.00 envy: five "
              "aces at seat 1 +$250.00 envy: four of a kind at seat 2 +$5.00")
    assert f"{seat_1} {seat_2} {seat_3}" in text
    assert ("Bonus wagers $110.00 Bonus players net +$40,650.00 Bonus house net -$40,650.00"
            in text)


def test_the_pdf_shows_each_seats_progressive_wager_and_what_a_hit_paid() -> None:
    from .test_layout import PROGRESSIVE

    text = _flat(_text(slips_pdf([{**slip("fortune-bonus"), "progressive": PROGRESSIVE}],
                                 times=[TIME], now=TIME)))
    assert "Progressive (Linked Pai Gow progressive): wagers $2.00" in text
    assert ("seat 1 progressive $1.00: HIT five aces (10% of the meter) - paid $1,000.21, "
            "signed in by Pat Lee") in text
