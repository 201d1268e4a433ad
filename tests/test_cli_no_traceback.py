"""Issue 23, item 11: every input an attacker tried on the command line is answered with a
sentence and exit 2, never a traceback. Each case runs the real console entry (`python -m
app.cli`) in a process of its own, as a shell would; the ledger's cases are in
tests/ledger/test_cli_ledger_bad_input.py and the dealer's in tests/ui/test_window.py."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROUND = ROOT / "tests" / "rounds" / "house-bank.json"
RECORDED = ROOT / "tests" / "session" / "recorded" / "shift.jsonl"


MEMORY = 4 << 30  # bytes: a command that reads /dev/zero whole fails here, not the machine


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def paigow(*args: str, stdin: bytes | None = None, home: Path | None = None
           ) -> subprocess.CompletedProcess[str]:
    # A station's terminal is en_US.UTF-8, whose stdin decodes strictly (C.UTF-8, as in
    # containers, passes bad bytes through as surrogates).
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    if home is not None:  # the station's own ledger, where a command looks by default
        env["XDG_DATA_HOME"] = str(home)
    proc = subprocess.run([sys.executable, "-m", "app.cli", *args], input=stdin,
                          capture_output=True, timeout=120, env=env, cwd=ROOT,
                          preexec_fn=_bounded)
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, proc.stderr
    for w in words:
        assert w in proc.stderr, proc.stderr


# --- a site config whose [rules] is not a section --------------------------------------------

@pytest.fixture()
def rules_zz(tmp_path: Path) -> Path:
    site = tmp_path / "site.toml"
    site.write_text('rules = "ZZ"\n')
    return site


def test_settle_refuses_a_config_whose_rules_are_not_a_section(rules_zz: Path) -> None:
    refused(paigow("settle", "--config", str(rules_zz), str(ROUND)),
            "site.toml: rules: ", "is a section", "[rules]")


def test_ledger_refuses_a_config_whose_rules_are_not_a_section(rules_zz: Path,
                                                               tmp_path: Path) -> None:
    refused(paigow("ledger", "history", "--config", str(rules_zz), home=tmp_path / "xdg"),
            "site.toml: rules: ", "is a section")


def test_a_config_nested_past_any_table_is_refused_before_toml_recurses(
        tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text("a = " + "[" * 100_000 + "\n")
    refused(paigow("settle", "--config", str(site), str(ROUND)), "site.toml", "nest")


def test_a_house_way_card_nested_past_any_card_is_refused(tmp_path: Path) -> None:
    (tmp_path / "house-ways").mkdir()
    (tmp_path / "house-ways" / "mine.toml").write_text('title = "x"\na = ' + "[" * 100_000)
    site = tmp_path / "site.toml"
    site.write_text('[rules]\nhouse_way = "mine"\n')
    refused(paigow("settle", "--config", str(site), str(ROUND)), "mine.toml", "nest")
