"""`paigow house-way` at speed answers exactly as the card does: the table's answers (and
the card's for hands that can make a flush) are the card's, line for line, byte for byte,
in text and in JSON; a hand fed through a pipe is answered before the next is sent; the
shipped config is read without the settings' models and says what they say."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import select
import subprocess
import sys

import pytest

from app.commands.answer import answer_hands
from app.commands.house_way import shipped_rules
from app.core.cards import DECK
from app.core.hands import DEFAULT_RULES
from app.core.house_way.tables import setting_table


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


def answered(text: str, *, as_json: bool, by_table: bool, way: str,
             capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
             ) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    args = argparse.Namespace(cards=[], json=as_json, command="house-way")
    table = setting_table(way, DEFAULT_RULES) if by_table else None
    code = answer_hands(args, way, DEFAULT_RULES, table)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("way", ["standard", "delaware-park", "trump-plaza", "fully-wild"])
def test_house_way_by_table_prints_what_the_card_prints(
        way: str, as_json: bool, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = hands_text(1500, way)
    by_card = answered(text, as_json=as_json, by_table=False, way=way, capsys=capsys,
                       monkeypatch=monkeypatch)
    by_table = answered(text, as_json=as_json, by_table=True, way=way, capsys=capsys,
                        monkeypatch=monkeypatch)
    assert by_table == by_card
    assert by_card[0] == 2  # the bad lines are reported, the rest answered
    assert "line 8: 'AS' is a duplicate" in by_card[2]


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
    assert way == rules.house_way.name
    assert hands == rules.hands


def test_a_site_config_or_the_environment_is_left_to_the_settings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIGOW_RULES__JOKER", "fully-wild")
    assert shipped_rules() is None
    monkeypatch.delenv("PAIGOW_RULES__JOKER")
    monkeypatch.setenv("PAIGOW_CONFIG", "site.toml")
    assert shipped_rules() is None


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_file_of_hands_answered_in_chunks_prints_what_line_by_line_prints(
        as_json: bool, tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of plainly typed hands is answered a chunk at a time (numpy); the output is
    the line-by-line answers', byte for byte, flush hands (the card's) included."""
    rng = random.Random("chunks")
    text = "".join(" ".join(str(c) for c in rng.sample(DECK, 7)) + "\n" for _ in range(6000))
    path = tmp_path / "hands.txt"  # type: ignore[operator]
    path.write_text(text)
    _, by_line, _ = answered(text, as_json=as_json, by_table=True, way="standard",
                             capsys=capsys, monkeypatch=monkeypatch)
    with open(path, "rb") as source:
        proc = subprocess.run([sys.executable, "-m", "app.cli", "house-way", "--way",
                               "standard", "--joker", "bug", "--wheel", "second",
                               *(["--json"] if as_json else [])],
                              stdin=source, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == by_line


@pytest.mark.slow
def test_flush_hands_by_the_flush_entries_print_what_the_card_prints() -> None:
    """A hand that can make a flush is answered by the card's flush entries (each flush
    shape set once by the card): the same line as the card's, whatever the flush suit."""
    from app.commands.answer import _by_card, _by_table, _card_of
    from app.core.house_way.tables import SHAPES, flush_entries

    table = setting_table("standard")
    entries = flush_entries("standard", build=True)
    assert entries is not None and len(entries) == SHAPES
    for as_json in (False, True):
        by_table = _by_table(table, as_json, card=_card_of("standard"), flushes=entries)
        by_card = _by_card("standard", DEFAULT_RULES)
        rng = random.Random(f"flushes/{as_json}")
        for _ in range(4000):
            suit = rng.randrange(4)
            pool = [*range(13 * suit, 13 * suit + 13), *rng.sample(range(52), 12), 52]
            hand = rng.sample(sorted(set(pool)), 7)
            line = " ".join(str(DECK[i]) for i in hand)
            obj, text = by_card(line)
            expected = (json.dumps(obj) if as_json else text) + "\n"
            assert by_table(line) == expected, line
