"""`paigow house-way` answers from the card's table exactly as the card sets each hand, line
for line, in text and in JSON, a large file in numpy batches too; a hand fed through a pipe
is answered before the next is sent; the shipped config is read without the settings'
models and says what they say."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import select
import subprocess
import sys
from functools import cache

import pytest

from app.commands.answer import BATCH, VECTORS_FROM, answer_hands
from app.commands.house_way import shipped_rules
from app.core.cards import DECK, CardError, parse_cards
from app.core.hands import DEFAULT_RULES
from app.core.house_way import HouseWaySetting, house_way
from app.core.house_way.table import table_of


def hands_text(count: int, seed: str) -> str:
    rng = random.Random(seed)
    lines = []
    for n in range(count):
        pool = list(DECK) if n % 2 else [DECK[r + 13 * s] for r in rng.sample(range(13), 4)
                                          for s in range(4)] + [DECK[52]]
        hand = [str(c) for c in rng.sample(pool, 7)]
        if n % 5 == 0:
            hand = [t.lower() for t in hand]  # typed in lower case: the fast reader too
        lines.append(" ".join(hand))
    lines[3] = "AS 10H 9C 8D 2S 3S 4D"  # 10: read by the card's own parser
    lines[7] = "AS AS 9C 8D 2S 3S 4D"  # a duplicate: the parser says so
    lines[9] = "AS KD"  # too few cards
    return "\n".join(lines) + "\n"


def answered(text: str, *, as_json: bool, way: str, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    args = argparse.Namespace(cards=[], json=as_json, command="house-way")
    card = house_way(way)
    code = answer_hands(args, card, DEFAULT_RULES, table_of(card, DEFAULT_RULES))
    out, err = capsys.readouterr()
    return code, out, err


@cache
def _set_by_the_card(text: str, way: str) -> tuple[tuple[str, HouseWaySetting | CardError], ...]:
    """Each line and what the card makes of it, worked out once for the text and the JSON
    forms of a file (the card, hand by hand, is most of a large file's test)."""
    card = house_way(way)
    out: list[tuple[str, HouseWaySetting | CardError]] = []
    for line in text.splitlines():
        try:
            out.append((line, card.set(parse_cards(line, count=7))))
        except CardError as err:
            out.append((line, err))
    return tuple(out)


def by_the_card(text: str, way: str, as_json: bool) -> str:
    """Each line set by the card itself, printed as the command prints a setting."""
    out = []
    for line, r in _set_by_the_card(text, way):
        if isinstance(r, CardError):
            if as_json:
                out.append(json.dumps({"input": line, "error": str(r)}))
            continue
        if as_json:
            out.append(json.dumps({
                "low": [str(c) for c in r.low], "high": [str(c) for c in r.high],
                "rule": r.rule.id, "says": r.rule.says,
                "step": r.step.id if r.step else None, "section": r.rule.section}))
        else:
            named = r.rule.id + (f" -> {r.step.id}" if r.step else "")
            out.append(f"{r.setting}   [{named}] {r.says}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("way", ["standard", "delaware-park", "trump-plaza"])
def test_house_way_by_table_prints_what_the_card_sets(
        way: str, as_json: bool, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = hands_text(1500, way)
    code, out, err = answered(text, as_json=as_json, way=way, capsys=capsys,
                              monkeypatch=monkeypatch)
    assert out == by_the_card(text, way, as_json)
    assert code == 2  # the bad lines are reported, the rest answered
    assert "line 8: 'AS' is a duplicate" in err


def test_a_hand_fed_through_a_pipe_is_answered_before_the_next_is_sent() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "house-way", "--json", "--way",
                             "standard", "--joker", "bug", "--wheel", "second"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for hand in ("AS KD TH 9C 5S 3D JK", "2C 2D 7H 7S KC QD 4H"):
            proc.stdin.write(hand.encode() + b"\n")
            proc.stdin.flush()
            # The answer comes while the pipe is still open (no end of input yet); the wait
            # only keeps a broken command from hanging the suite.
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, f"no answer to {hand} while the pipe stays open"
            answer = json.loads(os.read(proc.stdout.fileno(), 1 << 16).decode())
            assert sorted(answer["low"] + answer["high"]) == sorted(hand.split())
    finally:
        proc.stdin.close()
        proc.wait(timeout=120)
    assert proc.returncode == 0


def test_shipped_config_is_read_as_the_settings_read_it(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from app.settings import load_config

    for name in [k for k in os.environ if k.startswith("PAIGOW_")]:
        monkeypatch.delenv(name)
    way, hands = shipped_rules() or ("", None)
    rules = load_config(None).round_rules()
    assert way is rules.house_way
    assert hands == rules.hands


def test_a_site_config_or_the_environment_is_left_to_the_settings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIGOW_RULES__JOKER", "fully-wild")
    assert shipped_rules() is None
    monkeypatch.delenv("PAIGOW_RULES__JOKER")
    monkeypatch.setenv("PAIGOW_CONFIG", "site.toml")
    assert shipped_rules() is None


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_large_file_answered_in_batches_prints_what_the_card_sets_in_order(
        as_json: bool, tmp_path: pytest.TempPathFactory) -> None:
    """A file of hands large enough to be answered in numpy batches (some typed in lower
    case), one batch with a mistake in it (that batch answered line by line, the mistake
    said in place)."""
    rng = random.Random("parts")
    lines = [" ".join(str(c) for c in rng.sample(DECK, 7))
             for _ in range(VECTORS_FROM + 5000)]
    assert len(lines) > BATCH  # a batch with the mistake, and one without
    lines[1::7] = [line.lower() for line in lines[1::7]]
    lines[BATCH // 3] = "AS AS 9C 8D 2S 3S 4D"
    text = "\n".join(lines) + "\n"
    path = tmp_path / "hands.txt"  # type: ignore[operator]
    path.write_text(text)
    with open(path, "rb") as source:
        proc = subprocess.run([sys.executable, "-m", "app.cli", "house-way", "--way",
                               "standard", "--joker", "bug", "--wheel", "second",
                               *(["--json"] if as_json else [])],
                              stdin=source, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2
    assert f"line {BATCH // 3 + 1}: 'AS' is a duplicate" in proc.stderr
    assert proc.stdout == by_the_card(text, "standard", as_json)


@pytest.mark.parametrize("count", [3, VECTORS_FROM], ids=["few", "many"])
def test_a_file_saved_with_a_byte_order_mark_is_answered_as_without_it(
        count: int, tmp_path: pytest.TempPathFactory) -> None:
    """A spreadsheet's "UTF-8 with BOM" export begins with three bytes that are no card:
    read as a regular file and through a pipe, the answers are those of the same hands
    without them."""
    rng = random.Random("bom")
    text = "".join(" ".join(str(c) for c in rng.sample(DECK, 7)) + "\n" for _ in range(count))
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"  # type: ignore[operator]
    plain.write_bytes(text.encode())
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    command = [sys.executable, "-m", "app.cli", "house-way", "--way", "standard",
               "--joker", "bug", "--wheel", "second"]
    with open(plain, "rb") as source:
        expected = subprocess.run(command, stdin=source, capture_output=True, timeout=600)
    with open(marked, "rb") as source:
        as_file = subprocess.run(command, stdin=source, capture_output=True, timeout=600)
    through_pipe = subprocess.run(command, input=marked.read_bytes(), capture_output=True,
                                  timeout=600)
    assert expected.returncode == 0 and expected.stdout.count(b"\n") == count
    for got in (as_file, through_pipe):
        assert (got.returncode, got.stderr) == (0, b""), got.stderr
        assert got.stdout == expected.stdout
