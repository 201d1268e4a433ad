"""`paigow house-way` from the card's pack (app/commands/house_way_fast.py) answers as the
full command does, byte for byte, in text and JSON, mistakes included (they go to the full
command's line-by-line answers, which say what is wrong, in input order); a pack whose
files changed is not read; a stream from the pack imports nothing but the standard library
modules it needs."""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.commands import house_way_fast as fast
from app.commands.answer import Answers, answer_hands
from app.core.cards import DECK
from app.core.hands import DEFAULT_RULES
from app.core.house_way import WAYS
from app.core.house_way import tables as core_tables
from app.core.house_way.tables import setting_table

ROOT = Path(__file__).resolve().parents[1]
FIXED = ["--way", "standard", "--joker", "bug", "--wheel", "second"]


def plain_hands(count: int, seed: str) -> list[str]:
    """Plainly typed hands: any seven cards, hands of few ranks (pairs, trips, quads), hands
    that can make a flush with off-suit cards of the flush's ranks; some in lower case."""
    rng = random.Random(seed)
    lines = []
    for n in range(count):
        if n % 3 == 0:
            hand = rng.sample(DECK, 7)
        elif n % 3 == 1:
            pool = [DECK[s * 13 + r] for r in rng.sample(range(13), 4) for s in range(4)]
            hand = rng.sample([*pool, DECK[52]], 7)
        else:
            suit = rng.randrange(4)
            flush = rng.sample(range(13), 5)
            pool = [DECK[suit * 13 + r] for r in flush]
            pool += [DECK[s * 13 + r] for r in flush for s in range(4) if s != suit]
            hand = rng.sample(pool[:5], rng.choice((4, 5))) + rng.sample([*pool[5:], DECK[52]], 3)
            hand = rng.sample(hand[:7], 7)
        line = " ".join(str(c) for c in hand)
        lines.append(line.lower() if n % 7 == 0 else line)
    return lines


def line_by_line(text: str, as_json: bool, way: str, monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str], cards: list[str] | None = None
                 ) -> tuple[int, str, str]:
    """The full command's answers, line by line (no pack)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    args = argparse.Namespace(cards=cards or [], json=as_json, command="house-way")
    code = answer_hands(args, way, DEFAULT_RULES, setting_table(way), None)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("way", sorted(WAYS))
def test_the_pack_answers_a_chunk_as_the_full_command_does_line_by_line(
        way: str, as_json: bool, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    table = setting_table(way)
    pack = fast.keep_pack(way, DEFAULT_RULES, table)
    assert pack is not None
    text = "\n".join(plain_hands(4000, f"pack/{way}")) + "\n"
    args = argparse.Namespace(cards=[], json=as_json, command="house-way")
    by_card = None if pack.flushes else Answers(args, way, DEFAULT_RULES, table).by_line
    answered = pack.answer(text.encode(), as_json, by_card)
    assert answered is not None
    assert answered.decode() == line_by_line(text, as_json, way, monkeypatch, capsys)[1]


@pytest.mark.parametrize("line", ["AS AS 9C 8D 2S 3S 4D", "AS 10H 9C 8D 2S 3S 4D",
                                  "AS  KH 9C 8D 2S 3S 4D", "AS KH 9C 8D 2S 3S XX",
                                  "AS KH 9C 8D 2S 3S QK", "AS KH 9C 8D 2S 3S",
                                  "JK KH 9C 8D 2S 3S JK", "AS KH 9C 8D 2S 3S 4D 5D"])
def test_a_chunk_with_a_line_not_plainly_typed_is_left_to_the_full_command(line: str) -> None:
    table = setting_table("standard")
    pack = fast.keep_pack("standard", DEFAULT_RULES, table)
    assert pack is not None
    good = "\n".join(plain_hands(50, "good")) + "\n"
    assert pack.answer(good.encode(), False) is not None
    assert pack.answer((good + line + "\n").encode(), False) is None


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_the_command_from_the_pack_prints_what_the_full_command_prints_mistakes_too(
        as_json: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A file with mistakes among plain hands: the same answers, the same complaints on
    stderr (line numbers counted across chunks) and the same exit code."""
    fast.keep_pack("standard", DEFAULT_RULES, setting_table("standard"))
    lines = plain_hands(9000, "mistakes")
    lines[4000] = "AS AS 9C 8D 2S 3S 4D"  # a card twice
    lines[6000] = "AS 10H 9C 8D 2S 3S 4D"  # 10: the card's own reader takes it
    lines[7000] = "   "  # blank: not a line
    lines[8500] = "AS KD"
    text = "\n".join(lines) + "\n"
    path = tmp_path / "hands.txt"
    path.write_text(text)
    expected = line_by_line(text, as_json, "standard", monkeypatch, capsys)
    with open(path, "rb") as source:
        ran = subprocess.run([sys.executable, "-m", "app.cli", "house-way", *FIXED,
                              *(["--json"] if as_json else [])], stdin=source, cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
    assert (ran.returncode, ran.stdout, ran.stderr) == expected
    assert "line 4001: 'AS' is a duplicate" in ran.stderr


def test_one_hand_given_as_arguments_is_answered_from_the_pack_as_by_the_full_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fast.keep_pack("standard", DEFAULT_RULES, setting_table("standard"))
    for hand in ("AS KD TH 9C 5S 3D JK", "2c 2d 7h 7s kc qd 4h", "AS KS QS JS 9S AH AD"):
        for as_json in (False, True):
            ran = subprocess.run([sys.executable, "-m", "app.cli", "house-way", *FIXED,
                                  *hand.split(), *(["--json"] if as_json else [])],
                                 cwd=ROOT, capture_output=True, text=True, timeout=120)
            expected = line_by_line("", as_json, "standard", monkeypatch, capsys,
                                    cards=hand.split())
            assert (ran.returncode, ran.stdout, ran.stderr) == expected


def test_a_pack_is_not_read_once_a_file_it_depends_on_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = setting_table("standard")
    assert kept.path is not None
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    shutil.copy(kept.path, tmp_path / kept.path.name)  # the same table, in the new cache
    core_tables._loaded.clear()
    try:
        table = setting_table("standard")
        assert table.path == tmp_path / kept.path.name
        assert fast.keep_pack("standard", DEFAULT_RULES, table) is not None
        assert fast.load("standard", "bug", "second") is not None
        stat = table.path.stat()
        os.utime(table.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert fast.load("standard", "bug", "second") is None
    finally:
        core_tables._loaded.clear()


def test_a_pack_another_checkout_made_is_not_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two checkouts sharing a cache: the other's pack stamps its own files, fresh while
    # this checkout's card may set hands otherwise (issue 24: 2S 3S 4S 5S AS 2H JK was
    # answered by an older card).
    kept = setting_table("standard")
    assert kept.path is not None
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    shutil.copy(kept.path, tmp_path / kept.path.name)
    core_tables._loaded.clear()
    try:
        assert fast.keep_pack("standard", DEFAULT_RULES, setting_table("standard")) is not None
        assert fast.load("standard", "bug", "second") is not None
        monkeypatch.setattr(fast, "MODULE", "/another/checkout/app/commands/house_way_fast.py")
        assert fast.load("standard", "bug", "second") is None
    finally:
        core_tables._loaded.clear()


def test_a_pack_of_another_format_is_not_read(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    path = Path(fast.pack_path("standard", "bug", "second"))
    path.write_bytes(b"\x10\0\0\0\0\0\0\0not a marshal'd header at all")
    assert fast.load("standard", "bug", "second") is None


@pytest.mark.parametrize(("argv", "expected"), [
    (["house-way", "--json"], ([], True, None, None, None)),
    (["house-way", "--way", "standard", "AS", "KD"], (["AS", "KD"], False, "standard", None,
                                                      None)),
    (["house-way", "AS", "KD", "--joker", "bug"], (["AS", "KD"], False, None, "bug", None)),
    (["house-way", "--list"], None),
    (["house-way", "--jso"], None),  # an abbreviation: argparse's
    (["house-way", "--way=standard"], None),
    (["house-way", "AS", "--json", "KD"], None),  # cards on both sides of an option
    (["house-way", "--joker", "wild"], None),  # not a choice: argparse says so
    (["house-way", "--way"], None),
    (["house-way", "--config", "site.toml"], None),
    (["house-way", "-h"], None),
    (["rank", "AS"], None),
])
def test_only_a_plain_command_line_is_taken_from_the_pack(
        argv: list[str], expected: object) -> None:
    assert fast._options(argv) == expected


def test_the_shipped_table_is_read_from_the_cache_as_the_settings_read_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from app.commands.house_way import shipped_rules

    for name in [k for k in os.environ if k.startswith("PAIGOW_") and "__" in k]:
        monkeypatch.delenv(name)
    monkeypatch.delenv("PAIGOW_CONFIG", raising=False)
    found = shipped_rules()
    assert found is not None
    way, hands = found
    assert fast.shipped() == (way, hands.joker, hands.wheel)
    monkeypatch.setenv("PAIGOW_RULES__JOKER", "fully-wild")
    assert fast.shipped() is None


@pytest.mark.parametrize("env", [{}, {"XDG_CACHE_HOME": "/x/cache"},
                                 {"PAIGOW_CACHE_DIR": "/y/paigow"}])
def test_the_pack_is_kept_where_the_tables_are(env: dict[str, str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("XDG_CACHE_HOME", "PAIGOW_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert Path(fast.cache_dir()) == core_tables.cache_dir()


def test_a_stream_from_the_pack_imports_only_the_standard_library_it_needs(
        tmp_path: Path) -> None:
    fast.keep_pack("standard", DEFAULT_RULES, setting_table("standard"))
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(plain_hands(100, "imports")) + "\n")
    with open(path, "rb") as source:
        ran = subprocess.run([sys.executable, "-X", "importtime", "-m", "app.cli", "house-way",
                              "--json", *FIXED], stdin=source, cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
    assert ran.returncode == 0
    imported = {line.rsplit("|", 1)[1].strip() for line in ran.stderr.splitlines()
                if line.startswith("import time:") and "|" in line}
    assert "app.commands.house_way_fast" in imported
    for heavy in ("argparse", "app.core", "app.commands.answer", "numpy", "json", "typing",
                  "tomllib", "hashlib"):
        assert heavy not in imported, f"{heavy} was imported"


def test_a_file_answered_in_parallel_parts_prints_what_one_part_prints(tmp_path: Path) -> None:
    pack = fast.keep_pack("standard", DEFAULT_RULES, setting_table("standard"))
    assert pack is not None
    text = ("\n".join(plain_hands(3001, "parallel")) + "\n").encode()
    path = tmp_path / "hands.txt"
    path.write_bytes(text)
    for k in (2, 3):
        out = io.BytesIO()
        with open(path, "rb") as source:
            fast.Stream(["house-way", *FIXED], pack, True).in_parallel(source.fileno(), k, out)
        assert out.getvalue() == pack.answer(text, True)


@pytest.mark.slow
def test_a_large_file_with_a_mistake_on_every_core_prints_what_the_full_command_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A file large enough for every core (PARALLEL_FROM hands): the parts the pack answers
    and the one with a card twice, answered line by line, in input order."""
    fast.keep_pack("standard", DEFAULT_RULES, setting_table("standard"))
    lines = plain_hands(fast.PARALLEL_FROM + 1000, "large")
    lines[-900] = "AS AS 9C 8D 2S 3S 4D"
    text = "\n".join(lines) + "\n"
    path = tmp_path / "hands.txt"
    path.write_text(text)
    expected = line_by_line(text, True, "standard", monkeypatch, capsys)
    with open(path, "rb") as source:
        ran = subprocess.run([sys.executable, "-m", "app.cli", "house-way", "--json", *FIXED],
                             stdin=source, cwd=ROOT, capture_output=True, text=True,
                             timeout=600)
    assert (ran.returncode, ran.stdout, ran.stderr) == expected
    assert f"line {len(lines) - 899}: 'AS' is a duplicate" in ran.stderr


def test_a_card_twice_in_any_line_of_a_chunk_is_found() -> None:
    """The pack's check for a card typed twice (all lines at once) against the plain one,
    over chunks of random lines (a fifth drawn with replacement: about a quarter of the
    chunks hold a card twice somewhere)."""
    rng = random.Random("twice")
    tokens = [str(c) for c in DECK]
    for _ in range(3000):
        lines = [" ".join(rng.choice(tokens) for _ in range(7)) if rng.random() < 0.2
                 else " ".join(rng.sample(tokens, 7)) for _ in range(rng.randrange(1, 9))]
        text = ("\n".join(lines) + "\n").encode().replace(b"JK", fast.JOKER)
        expected = any(len(set(line.split())) < 7 for line in lines)
        assert fast._twice(text.translate(fast.FORWARD), len(lines)) == expected, lines


def test_every_rank_pattern_has_a_slot_of_its_own_in_the_pack() -> None:
    codes = [*fast.CODES[:13], fast.JOKER_RANK]
    slots = set()
    for hand in core_tables.patterns():
        ranks = bytes(sorted(codes[13 if c.is_joker else c.index % 13] for c in hand))
        slots.add(fast.pattern_slot(ranks))
    assert len(slots) == core_tables.PATTERNS
    assert max(slots) < fast.PATTERN_SLOTS
