"""The table's linked progressive in its config (issue 27): `[progressive] card` names the
card ("" : none), `cards_folder` the casino's own card files, which the ledger reads too;
a card whose tables leave this table out is refused, saying what to write."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.progressive import use_site_progressives
from app.ledger.progressive import card_named
from app.settings import ConfigError, load_config

OUR_CARD = """\
title = "Our linked progressive"
source = "the casino's posted table"
kind = "progressive"
wager = "$1"
meter-share = "60%"
reserve-share = "15%"
seed = "$5,000"
tables = [{tables}]
categories = ["five-aces", "four-of-a-kind"]

[pays]
five-aces = "10%"
four-of-a-kind = "$50"
"""


@pytest.fixture(autouse=True)
def no_site_cards_after() -> Iterator[None]:
    yield
    use_site_progressives(None)  # one site a process: the next test starts without it


def our_folder(tmp_path: Path, tables: str = '"PG-1", "PG-2"') -> Path:
    folder = tmp_path / "progressives"
    folder.mkdir()
    (folder / "our-progressive.toml").write_text(OUR_CARD.format(tables=tables),
                                                 encoding="utf-8")
    return folder


def test_a_table_is_on_no_progressive_unless_its_config_names_one() -> None:
    assert load_config(env={}).round_rules().progressive is None


def test_the_shipped_card_named_is_the_tables_progressive() -> None:
    rules = load_config(env={}, overrides={"progressive": {"card": "linked-pai-gow"}}
                        ).round_rules()
    assert rules.progressive is not None and rules.progressive.wager == 100


def test_a_card_there_is_not_is_refused_naming_the_cards_there_are() -> None:
    with pytest.raises(ConfigError) as e:
        load_config(env={}, overrides={"progressive": {"card": "linked-pie"}})
    assert "'linked-pie' is no progressive card: the cards are linked-pai-gow" in str(e.value)


def test_a_card_that_does_not_link_this_table_is_refused_saying_what_to_write(
        tmp_path: Path) -> None:
    folder = our_folder(tmp_path, tables='"PG-2", "PG-3"')
    with pytest.raises(ConfigError) as e:
        load_config(env={}, overrides={"progressive": {"card": "our-progressive",
                                                       "cards_folder": str(folder)}})
    said = str(e.value)
    assert "links the tables PG-2, PG-3, not this table 'PG-1'" in said
    assert "add 'PG-1' to the card's tables" in said and 'set card = ""' in said


def test_a_folder_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        load_config(env={}, overrides={"progressive": {
            "card": "our-progressive", "cards_folder": str(tmp_path / "nowhere")}})
    assert "is no folder on this machine" in str(e.value)


def test_the_casinos_own_card_is_found_by_the_station_and_by_the_ledger(
        tmp_path: Path) -> None:
    folder = our_folder(tmp_path)
    config = load_config(env={}, overrides={"progressive": {"card": "our-progressive",
                                                            "cards_folder": str(folder)}})
    card = config.round_rules().progressive
    assert card is not None and (card.meter_bp, card.seed) == (6000, 500_000)
    # a settlement naming it is applied by the ledger in the same process
    assert card_named("our-progressive") == card
