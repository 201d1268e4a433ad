"""Issue 23, item 11: every input an attacker tried on the command line is answered with a
sentence and exit 2, never a traceback. Each case runs the console entry (`app.cli.main`)
as tests/cli.py runs it: in the test's process, its stdin a file decoded strictly as a
station's en_US.UTF-8 terminal decodes it, anything that escapes it printed as the
interpreter would print it. The cases that read a file with no end (/dev/zero) and the floor
server's run in a process of their own, under a memory limit, as a shell would run them:
a regression there must fill a bounded process, not the test's. The ledger's cases are in
tests/ledger/test_cli_ledger_bad_input.py and the dealer's in tests/ui/test_window.py."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from .cli import Paigow, Ran

ROOT = Path(__file__).resolve().parents[1]
ROUND = ROOT / "tests" / "rounds" / "house-bank.json"
RECORDED = ROOT / "tests" / "session" / "recorded" / "shift.jsonl"


MEMORY = 4 << 30  # bytes: a command that reads /dev/zero whole fails here, not the machine


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def paigow_process(*args: str) -> subprocess.CompletedProcess[str]:
    # A station's terminal is en_US.UTF-8, whose stdin decodes strictly (C.UTF-8, as in
    # containers, passes bad bytes through as surrogates).
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    proc = subprocess.run([sys.executable, "-m", "app.cli", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120, env=env, cwd=ROOT,
                          preexec_fn=_bounded)
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def refused(proc: subprocess.CompletedProcess[str] | Ran, *words: str) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    for w in words:
        assert w in proc.stderr, proc.stderr


# --- paigow replay -------------------------------------------------------------------------

def test_replay_of_a_binary_file_says_it_is_not_a_recorded_session(
        paigow: Paigow, tmp_path: Path) -> None:
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(0x80, 0x100)) * 8)  # no line end, and never UTF-8
    refused(paigow("replay", str(noise)), "noise.bin", "line 1 is not UTF-8 text")


def test_replay_of_a_journal_names_a_session_it_does_not_keep(
        paigow: Paigow, tmp_path: Path) -> None:
    from app.ledger.session_lines import SessionLines

    journal = tmp_path / "station.sqlite"
    lines = SessionLines(journal)
    lines.add("2026-11-29T08-00-00.000000Z", RECORDED.read_text(encoding="utf-8"))
    lines.close()
    refused(paigow("replay", str(journal), "--session", "yesterday"), "no session",
            "--list lists them")
    listed = paigow("replay", str(journal), "--list")
    assert listed.returncode == 0 and "2026-11-29T08-00-00.000000Z  1 lines" in listed.stdout
    played = paigow("replay", str(journal))
    assert played.returncode == 0 and "round(s) settled" in played.stderr


def test_replay_of_a_database_that_keeps_no_session_says_so(paigow: Paigow, tmp_path: Path) -> None:
    import sqlite3

    other = tmp_path / "ledger.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE rounds (id TEXT)").connection.close()
    refused(paigow("replay", str(other)), "keeps no session", "sessions/archive")


def test_replay_of_dev_urandom_ends_with_a_sentence(paigow: Paigow) -> None:
    refused(paigow("replay", "/dev/urandom"), "/dev/urandom", "not UTF-8 text")


def test_replay_of_a_file_with_no_line_ends_stops_reading_it(tmp_path: Path) -> None:
    # /dev/zero without a newline is what this is: read to the end, it fills the memory.
    refused(paigow_process("replay", "/dev/zero"), "/dev/zero", "line 1 is over")


def test_replay_of_100000_brackets_on_stdin_says_they_nest_too_deep(paigow: Paigow) -> None:
    refused(paigow("replay", "-", stdin=b"[" * 100_000), "-: line 1", "nest")


def test_replay_of_a_number_thousands_of_digits_long_says_so(paigow: Paigow) -> None:
    refused(paigow("replay", "-", stdin=b'{"schema": ' + b"9" * 5000 + b"}\n"),
            "thousands of digits")


@pytest.mark.parametrize(("head", "words"), [
    ('{"schema": "paigow.session/1"}', ("the header has no rules",)),
    ('{"schema": "paigow.session/1", "rules": 5, "rotation": {}}',
     ("the header's rules is 5, not a JSON object",)),
    ('{"schema": "paigow.session/1", "rules": {}, "rotation": []}',
     ("the header's rotation is [], not a JSON object",)),
])
def test_replay_of_a_header_without_its_rules_says_what_is_missing(paigow: Paigow,
        head: str, words: tuple[str, ...]) -> None:
    refused(paigow("replay", "-", stdin=head.encode() + b"\n"), "line 1", *words)


@pytest.mark.parametrize("kept", ['"x"', "1e400", "-3", "true"])
def test_replay_of_a_header_whose_kept_slips_are_not_a_count_says_so(
        paigow: Paigow, kept: str) -> None:
    head = RECORDED.read_text().splitlines()[0]
    bad = head.replace('"kept": 0', f'"kept": {kept}')
    assert bad != head
    refused(paigow("replay", "-", stdin=bad.encode() + b"\n"), "line 1", "kept")


# --- a site config whose [rules] is not a section --------------------------------------------

@pytest.fixture()
def rules_zz(tmp_path: Path) -> Path:
    site = tmp_path / "site.toml"
    site.write_text('rules = "ZZ"\n')
    return site


def test_settle_refuses_a_config_whose_rules_are_not_a_section(
        paigow: Paigow, rules_zz: Path) -> None:
    refused(paigow("settle", "--config", str(rules_zz), str(ROUND)),
            "site.toml: rules: ", "is a section", "[rules]")


def test_ledger_refuses_a_config_whose_rules_are_not_a_section(paigow: Paigow, rules_zz: Path,
                                                               tmp_path: Path) -> None:
    refused(paigow("ledger", "history", "--config", str(rules_zz),
                   env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}),
            "site.toml: rules: ", "is a section")


def test_a_config_nested_past_any_table_is_refused_before_toml_recurses(paigow: Paigow,
        tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text("a = " + "[" * 100_000 + "\n")
    refused(paigow("settle", "--config", str(site), str(ROUND)), "site.toml", "nest")


def test_a_config_file_with_no_end_is_refused_before_it_fills_the_memory() -> None:
    refused(paigow_process("settle", "--config", "/dev/zero", str(ROUND)), "/dev/zero", "is over")


def test_a_house_way_card_nested_past_any_card_is_refused(paigow: Paigow, tmp_path: Path) -> None:
    (tmp_path / "house-ways").mkdir()
    (tmp_path / "house-ways" / "mine.toml").write_text('title = "x"\na = ' + "[" * 100_000)
    site = tmp_path / "site.toml"
    site.write_text('[rules]\nhouse_way = "mine"\n')
    refused(paigow("settle", "--config", str(site), str(ROUND)), "mine.toml", "nest")


# --- the other commands' numbers and files ---------------------------------------------------

@pytest.mark.parametrize("samples", ["inf", "nan", "9" * 400])
def test_advise_refuses_a_number_of_samples_that_is_not_finite(
        paigow: Paigow, samples: str) -> None:
    refused(paigow("advise", "--samples", samples, "AS", "KD", "QH", "JC", "TS", "9S", "8S"),
            "draw from 1 to")


@pytest.mark.parametrize("seconds", ["nan", "inf", "1e300"])
def test_shoe_sim_refuses_seconds_that_are_not_a_time(
        paigow: Paigow, seconds: str, tmp_path: Path) -> None:
    refused(paigow("shoe-sim", "--card-delay", seconds, "--link", str(tmp_path / "shoe"),
                   "--rounds", "1"), "seconds")


@pytest.mark.parametrize("stdin", [False, True])
def test_print_slip_of_a_binary_file_says_it_is_not_text(
        paigow: Paigow, tmp_path: Path, stdin: bool) -> None:
    noise = bytes(range(0x80, 0x100)) * 8
    path = tmp_path / "noise.bin"
    path.write_bytes(noise)
    proc = paigow("print-slip", "--text", stdin=noise) if stdin else \
        paigow("print-slip", "--text", str(path))
    refused(proc, "not UTF-8 text")


def test_print_slip_of_100000_brackets_says_they_nest_too_deep(paigow: Paigow) -> None:
    refused(paigow("print-slip", "--text", stdin=b"[" * 100_000), "nest")


def test_print_slip_of_a_file_with_no_end_stops_reading_it() -> None:
    refused(paigow_process("print-slip", "--text", "/dev/zero"), "/dev/zero is over")


# --- the floor's commands ------------------------------------------------------------------

NOBODY_LISTENS = "postgresql://paigow@127.0.0.1:1/paigow"  # port 1: refused at once


def paigow_floor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.floor.main", *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          stdin=subprocess.DEVNULL, preexec_fn=_bounded)


def test_floor_users_of_a_database_that_cannot_be_reached_say_so_with_exit_4(
        paigow: Paigow) -> None:
    proc = paigow("floor", "user", "--database-url", NOBODY_LISTENS, "list")
    assert "Traceback" not in proc.stderr and proc.returncode == 4, proc.stderr
    assert "the ledger's database (postgresql://paigow@127.0.0.1:1/paigow) cannot be " \
           "reached: " in proc.stderr


def test_the_floor_server_of_a_database_that_cannot_be_reached_says_so_with_exit_4() -> None:
    proc = paigow_floor("--database-url", NOBODY_LISTENS)
    assert "Traceback" not in proc.stderr and proc.returncode == 4, proc.stderr
    assert "cannot be reached: " in proc.stderr


def test_the_floor_server_refuses_a_database_url_that_is_not_one() -> None:
    proc = paigow_floor("--database-url", "garbage")
    refused(proc, "'garbage' is not a database URL")


@pytest.mark.parametrize(("content", "words"), [
    (None, "cannot be used (Is a directory)"),
    (bytes(range(0x80, 0x100)), "is not text"),
    (b"", "holds 0 characters: a cookie-signing secret is at least 32"),
])
def test_the_floor_server_refuses_a_secret_file_that_holds_no_secret(
        tmp_path: Path, content: bytes | None, words: str) -> None:
    # An empty secret signs every cookie with "": anyone could forge a supervisor's.
    secret = tmp_path / "secret"
    if content is None:
        secret.mkdir()
    else:
        secret.write_bytes(content)
    proc = paigow_floor("--secret-file", str(secret), "--database-url",
                        f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    refused(proc, str(secret), words)


@pytest.mark.parametrize(("option", "value"), [("--port", "99999"), ("--port", "0"),
                                               ("--offline-after", "nan"),
                                               ("--offline-after", "-1")])
def test_the_floor_server_refuses_a_port_or_time_that_is_not_one(option: str,
                                                                  value: str) -> None:
    refused(paigow_floor(option, value, "--database-url", "sqlite:///x"), option, repr(value))
