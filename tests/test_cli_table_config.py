"""`paigow house-way`, `advise`, `simulate` and `settle` read the table's config (`--config`,
else $PAIGOW_CONFIG): with no --way they set hands by the table's House Way card and its
hand rules; an option names what differs."""

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli import Paigow, Ran

HAND = "JK 9H 9C 5S 4D 2C KS"  # the bug is an ace here; fully wild it pairs the nines


@pytest.fixture
def paigow(paigow: Paigow) -> Callable[..., Ran]:
    """The command, with no config of the machine's (the House Way tables' folder, which
    is not config, is kept)."""
    def run(*args: str, env: dict[str, str] | None = None) -> Ran:
        clean = {k: v for k, v in os.environ.items()
                 if not k.startswith("PAIGOW_") or k == "PAIGOW_CACHE_DIR"}
        return paigow(*args, env={**clean, **(env or {})})

    return run


@pytest.fixture
def site(tmp_path: Path) -> Path:
    path = tmp_path / "site.toml"
    path.write_text('[rules]\nhouse_way = "delaware-park"\n\n[commission]\nrate = "4%"\n')
    return path


@pytest.fixture
def wild_site(tmp_path: Path) -> Path:
    """A fully wild joker (seed 004), its card left unnamed: the card written for it."""
    path = tmp_path / "wild.toml"
    path.write_text('[rules]\njoker = "fully-wild"\n\n[commission]\nrate = "4%"\n')
    return path


@pytest.fixture
def _set(paigow):
    """`paigow house-way --json ... HAND`'s answer."""
    def run(*args, env=None):
        proc = paigow("house-way", "--json", *args, *HAND.split(), env=env)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    return run


def test_house_way_with_no_way_sets_by_the_tables_card_and_joker(site, wild_site, _set):
    assert _set("--config", str(site))["rule"].startswith("DP-")  # not the standard card
    table = _set("--config", str(wild_site))
    assert table["rule"].startswith("FW-")  # the card of the table's fully wild joker
    fully_wild = _set("--way", "fully-wild", "--joker", "fully-wild")
    assert (table["low"], table["high"]) == (fully_wild["low"], fully_wild["high"])
    assert _set("--way", "standard", "--joker", "bug")["low"] != table["low"]


def test_house_way_reads_the_table_from_paigow_config_too(site, _set):
    assert _set(env={"PAIGOW_CONFIG": str(site)})["rule"].startswith("DP-")


def test_house_way_options_name_what_differs_from_the_table(site, _set):
    standard = _set("--config", str(site), "--way", "standard")
    assert not standard["rule"].startswith("DP-")
    assert standard == _set("--way", "standard", "--joker", "bug")  # the table's joker
    lowest = _set("--config", str(site), "--wheel", "lowest")
    assert lowest == _set("--way", "delaware-park", "--joker", "bug", "--wheel", "lowest")


@pytest.mark.parametrize("args", [
    ("--way", "standard", "--joker", "fully-wild"),
    ("--joker", "fully-wild"),  # the shipped table's card is the standard one
    ("--config", "SITE", "--joker", "fully-wild"),  # the site's is Delaware Park's
])
def test_house_way_refuses_a_card_that_reads_the_joker_as_a_bug_under_a_fully_wild_joker(
        site, args, paigow):
    # Seed 004: "In Joker's Wild, the Joker can be used as ANY card. In Non-Joker's Wild a
    # Joker can be used to complete a flush or straight, or as an Ace."
    args = tuple(str(site) if a == "SITE" else a for a in args)
    proc = paigow("house-way", *args, "9S", "9H", "JK", "KC", "7H", "4S", "2D")
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "House Way reads the joker as an ace" in proc.stderr
    assert "give --way fully-wild" in proc.stderr


def test_house_way_without_a_config_is_the_shipped_tables_standard_card(_set):
    assert _set()["rule"] == "PR-1"


def test_house_way_list_prints_the_tables_card(site, paigow):
    proc = paigow("house-way", "--list", "--config", str(site))
    assert proc.stdout.startswith("Delaware Park House Way")


def test_house_way_refuses_a_bad_config_naming_the_file_and_key(tmp_path, paigow):
    bad = tmp_path / "bad.toml"
    bad.write_text('[rules]\nhouse_way = "caesars"\n')
    proc = paigow("house-way", "--config", str(bad), *HAND.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"config: {bad}: rules.house_way: " in proc.stderr
    assert "no House Way called 'caesars': the rule cards are standard" in proc.stderr
    assert "standard, delaware-park, trump-plaza" in proc.stderr


def test_house_way_refuses_an_unknown_card_listing_the_cards(paigow):
    proc = paigow("house-way", "--way", "caesars", *HAND.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "no House Way called 'caesars': the cards are standard" in proc.stderr


def test_advise_uses_the_tables_card_joker_and_commission(wild_site, paigow):
    proc = paigow("advise", "--json", "--samples", "200", "--config", str(wild_site),
                  *HAND.split())
    assert proc.returncode == 0, proc.stderr
    advice = json.loads(proc.stdout)
    assert advice["way"] == advice["dealer_way"] == "fully-wild"
    assert advice["rules"]["joker"] == "fully-wild"
    assert advice["commission"]["policy"].startswith("4%")


def test_simulate_uses_the_tables_card_and_commission(site, paigow):
    proc = paigow("simulate", "--json", "--hands", "200", "--workers", "1", "--config",
                  str(site))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["way"] == "delaware-park" and result["rules"]["joker"] == "bug"
    assert result["commission"]["policy"].startswith("4%")


def test_simulate_refuses_a_card_that_reads_the_joker_as_a_bug_at_a_fully_wild_table(
        wild_site, paigow):
    proc = paigow("simulate", "--json", "--hands", "200", "--workers", "1", "--config",
                  str(wild_site), "--way", "standard")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert 'the "standard" House Way reads the joker as an ace' in proc.stderr
    assert "give --way fully-wild" in proc.stderr


def test_house_way_reads_no_config_when_the_options_say_everything():
    """A fully given command starts as fast as before: the config (and pydantic) only when
    the table's card or hand rules are needed."""
    code = ("import sys\nfrom app.cli import main\n"
            "main(['house-way', '--way', 'standard', '--joker', 'bug', '--wheel', 'second',\n"
            "      'AS', 'KD', '9C', '7H', '5S', '3D', '2C'])\n"
            "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'app.settings'))))\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert ran.stdout.splitlines()[-1] == "[]"
