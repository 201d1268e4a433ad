"""The slip as receipt text: golden files for 42 and 48 columns, every position in order
from action with its hands, who set them, outcome and money; lines that fit the paper."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from app.commands.settle import settle_description
from drivers.printer.layout import (
    PrintLine,
    SlipError,
    Style,
    slip_lines,
    slip_text,
    styled_lines,
)

from .helpers import NAMES, TIME, golden, slip

ROUNDS = Path(__file__).resolve().parents[2] / "rounds"
WIDTHS = (42, 48)


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_the_slip_text_matches_its_golden_file(name: str, columns: int) -> None:
    text = slip_text(slip(name), columns, time=TIME)
    assert text == golden(f"{name}.{columns}.txt", text.encode()).decode()


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_every_line_fits_the_paper_and_is_plain_ascii(name: str, columns: int) -> None:
    for line in slip_lines(slip(name), columns, time=TIME, mark="REPRINT 2025-03-14 21:16"):
        assert len(line) <= columns, line
        assert line.isascii() and line.isprintable(), line
        assert line == line.rstrip()


@pytest.mark.parametrize("name", NAMES)
def test_positions_are_printed_in_order_from_action(name: str) -> None:
    s = slip(name)
    text = slip_text(s, 42, time=TIME)
    heads = [text.index("\n" + p["name"][0].upper() + p["name"][1:] + " ")
             for p in s["positions"]]
    assert heads == sorted(heads)
    first = s["positions"][0]
    assert first["position"] == s["action"]["position"]


@pytest.mark.parametrize("name", NAMES)
def test_every_played_position_shows_both_hands_who_set_them_outcome_and_money(
        name: str) -> None:
    s = slip(name)
    text = slip_text(s, 42, time=TIME)
    for p in s["positions"]:
        if p["low"] is None:
            assert p["cards"] in text
            continue
        assert f"{p['low']} | {p['high']}" in text
        if p["house_way_rule"]:
            assert f"House Way {p['house_way_rule']}" in text
        if p["outcome"]:
            assert p["outcome"].upper() in text
            assert f"Wager ${p['wager_cents'] // 100:,}." in text


def test_money_is_dollars_and_cents_with_the_sign_of_the_players_net() -> None:
    lines = slip_lines(slip("house-bank"), 42, time=TIME)
    at = lines.index("Seat 4                                 WIN")
    seat4 = next(line for line in lines[at:] if line.startswith("   Wager"))
    assert seat4 == "   Wager $15.00    Comm $0.75  Net +$14.25"
    assert "House net                          +$14.75" in lines
    assert "Players net                        -$14.75" in lines


def test_the_header_names_table_round_time_action_its_source_and_the_bank() -> None:
    lines = slip_lines(slip("dragon-dice-counterclockwise"), 42, time=TIME)
    head = "\n".join(lines[:12])
    assert "Table PG-1" in head and "Round 3" in head
    assert "2025-03-14 21:07:33" in head
    assert "dice 2+3+4 = 9 -> seat 6" in head and "entered by the dealer" in head
    assert "counted counterclockwise from" in head
    assert "Bank      the house" in head


def test_an_action_drawn_by_the_station_says_so() -> None:
    s = slip("house-bank")
    s["action"]["drawn_by"] = "secrets"
    assert "drawn by the station" in slip_text(s, 42, time=TIME)


def test_a_fouled_hand_that_forfeits_says_foul_and_why() -> None:
    text = slip_text(slip("house-bank"), 42, time=TIME)
    assert "Set by the player: FOUL" in text
    assert re.search(r"The hand forfeits: the two-card hand\s+\(pair of 4s\) outranks", text)


def test_a_foul_reset_the_house_way_names_the_rule_and_why() -> None:
    text = slip_text(slip("dragon-dice-counterclockwise"), 42, time=TIME)
    assert "FOUL, reset to House Way PR-1" in text
    assert "Fouls      reset the House Way" in text


def test_a_dragon_hand_is_named_with_the_seat_that_plays_it() -> None:
    assert "Seat 4 (dragon, seat 2)" in slip_text(slip("dragon-dice-counterclockwise"), 42,
                                                  time=TIME)


def test_a_player_bank_that_runs_out_shows_who_was_paid_part_and_who_was_returned() -> None:
    text = slip_text(slip("player-bank-runs-out"), 42, time=TIME)
    assert "The bank ran out: paid $5.00 of $40.00," in text
    assert text.count("RETURNED") == 2
    assert "The house's hand against the player\n   bank: settled first." in text
    assert "Player banker (seat 3) net        -$105.00" in text
    assert "The bank ran out: the winners after it had" in text


def test_a_co_bank_shows_the_houses_half_and_the_unplayed_dealer_hand() -> None:
    text = slip_text(slip("co-bank"), 42, time=TIME)
    assert "Bank      seat 3 with the house (co-bank)" in text
    assert "House's half of the result         -$32.50" in text
    assert "AS AH KD KC 8D 5C 3D  (not played)" in text


def test_big_money_wraps_instead_of_running_off_the_paper() -> None:
    lines = slip_lines(slip("high-limit"), 42, time=TIME)
    assert "   Wager $40,000.00  Comm $2,000.00" in lines
    assert "                           Net +$38,000.00" in lines


def test_the_title_is_styled_as_a_title_and_positions_as_headings() -> None:
    styled = styled_lines(slip("house-bank"), 42, time=TIME)
    assert styled[1] == PrintLine("         PAI GOW POKER SETTLEMENT", Style.TITLE)
    assert PrintLine("Seat 3                                PUSH", Style.BOLD) in styled
    assert PrintLine("House net                          +$14.75", Style.BOLD) in styled


def test_a_mark_goes_under_the_title() -> None:
    lines = slip_lines(slip("house-bank"), 42, time=TIME, mark="REPRINT 2025-03-14 21:16")
    assert lines[2] == "REPRINT 2025-03-14 21:16".center(42).rstrip()


def test_the_time_defaults_to_the_slips_settled_at() -> None:
    s = slip("house-bank")
    s["settled_at"] = "2025-03-14T22:01:02-07:00"
    assert "2025-03-14 22:01:02" in slip_text(s, 42)
    s["settled_at"] = "yesterday"
    with pytest.raises(SlipError) as err:
        slip_text(s, 42)
    assert err.value.key == "settled_at"


def test_text_that_is_not_ascii_is_folded_so_every_code_page_prints_it() -> None:
    s = slip("house-bank")
    s["table"] = "Caf\u00e9 \u2013 PG\u20131"
    assert "Table Cafe - PG-1" in slip_text(s, 42, time=TIME)


def test_a_slip_object_and_its_dict_print_the_same() -> None:
    data = json.loads((ROUNDS / "house-bank.json").read_text())
    settled = settle_description(data, env={})
    assert slip_text(settled, 48, time=TIME) == slip_text(settled.to_dict(), 48, time=TIME)


@pytest.mark.parametrize("path", sorted(p for p in ROUNDS.glob("*.json")
                                        if not p.name.startswith("misdeal")),
                         ids=lambda p: p.name)
def test_every_example_round_settled_now_prints_every_position(path: Path) -> None:
    settled = settle_description(json.loads(path.read_text()), env={})
    text = slip_text(settled, 42, time=TIME)
    for line in settled.lines:
        assert line.name[0].upper() + line.name[1:] in text
    assert "TOTALS" in text and "House net" in text


@pytest.mark.parametrize("change, key", [
    (lambda s: s.update(schema="paigow.slip/0"), "schema"),
    (lambda s: s.pop("totals"), "totals"),
    (lambda s: s["positions"][2].pop("net_cents"), "positions[2].net_cents"),
    (lambda s: s["positions"][0].update(wager_cents="25.00"), "positions[0].wager_cents"),
    (lambda s: s["positions"][0].update(role="ghost"), "positions[0].role"),
    (lambda s: s["bank"].update(exhausted="no"), "bank.exhausted"),
    (lambda s: s.update(positions=[]), "positions"),
])
def test_a_slip_that_is_not_a_slip_is_refused_with_the_key_and_why(change, key) -> None:
    s = copy.deepcopy(slip("house-bank"))
    change(s)
    with pytest.raises(SlipError) as err:
        slip_lines(s)
    assert err.value.key == key and err.value.why


def test_paper_narrower_than_a_slip_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 32 columns"):
        slip_lines(slip("house-bank"), 24)


def test_the_house_way_rule_is_printed_with_its_words_never_its_id_alone() -> None:
    """Issue 11: no "bare rule ids without their words ... on a slip"."""
    text = "\n".join(slip_lines(slip("house-bank"), 42, time=TIME))
    assert "House Way PR-2: Two pairs: The two\n   cards will be the lowest pair" in text
    assert "House Way ST-X: A straight with no" in text
    assert "House Way PR-1\n" not in text + "\n"


def test_the_receipt_and_the_slips_words_show_the_bonus_a_seat_at_a_time_in_the_order_paid(
) -> None:
    """The bonus and envy grouped as the felt groups them: the seats in the order first
    paid, each seat's net, then its lines in the order paid (its bonus before its envy),
    who approved a payout that waited under its line."""
    from app.core.settlement import slip_text as words

    s = slip("fortune-bonus")
    lines = slip_lines(s, 42)
    start = lines.index("BONUS         fortune-8000, envy envy-5000")
    assert lines[start + 1:start + 15] == [
        "Seat 1 bonus                   +$40,005.00",
        "   bonus $100.00: five aces, 400 to 1",
        "                               +$40,000.00",
        "      approved by Pat Lee",
        "   envy: four of a kind at seat 2   +$5.00",
        "Seat 2 bonus                      +$375.00",
        "   bonus $5.00: four of a kind, 25 to 1",
        "                                  +$125.00",
        "   envy: five aces at seat 1      +$250.00",
        "Seat 3 bonus                      +$270.00",
        "   bonus $5.00: three of a kind, 3 to 1",
        "                                   +$15.00",
        "   envy: five aces at seat 1      +$250.00",
        "   envy: four of a kind at seat 2   +$5.00"]
    said = words(s).splitlines()  # type: ignore[arg-type]
    start = said.index("Bonus (fortune-8000, envy envy-5000):")
    assert said[start + 1:start + 5] == [
        "   seat 1 bonus +$40,005.00",
        "      bonus $100.00: five aces, 400 to 1: +$40,000.00 - approved by Pat Lee",
        "      envy: four of a kind at seat 2: +$5.00",
        "   seat 2 bonus +$375.00"]


# A round's linked progressive as the slip keeps it (issue 27): seat 1's five aces took 10%
# of a $10,002.10 meter (the card's "five-aces = 10%", rounded down), signed in by Pat Lee;
# seat 3's wager did not hit.
PROGRESSIVE = {
    "card": "linked-pai-gow", "title": "Linked Pai Gow progressive", "wagers_cents": 200,
    "lines": [
        {"seat": 1, "wager_cents": 100, "category": "five-aces", "hand": "five aces",
         "pays": "10% of the meter", "paid_cents": 100_021, "from_meter_cents": 100_021,
         "fixed_cents": 0, "by": "Pat Lee"},
        {"seat": 3, "wager_cents": 100, "category": None, "hand": None, "pays": None,
         "paid_cents": None, "from_meter_cents": 0, "fixed_cents": 0, "by": None}]}


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_receipt_shows_each_seats_progressive_wager_and_what_a_hit_paid(
        columns: int) -> None:
    s = {**slip("fortune-bonus"), "progressive": PROGRESSIVE}
    lines = slip_lines(s, columns, time=TIME)
    assert all(len(line) <= columns for line in lines)
    start = next(n for n, line in enumerate(lines) if line.startswith("PROGRESSIVE"))
    assert lines[start].endswith("wagers $2.00")
    hit = " ".join(lines[start + 1:start + 4])
    assert "seat 1 progressive $1.00: HIT five aces (10% of the meter)" in " ".join(
        hit.split())
    assert "paid $1,000.21, signed in by Pat Lee" in " ".join(hit.split())
    assert any(line.endswith("+$1,000.21") for line in lines[start + 1:start + 5])
    assert "   seat 3 progressive $1.00" in lines


def test_a_slip_without_the_progressive_reads_as_before() -> None:
    plain = slip_lines(slip("fortune-bonus"), 42, time=TIME)
    assert not any(line.startswith("PROGRESSIVE") for line in plain)
