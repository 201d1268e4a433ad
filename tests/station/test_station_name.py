"""The station's name in the ledger (issue 25, item 3): `[station] name`, or the computer's
host name when the config gives none (config/default.toml, docs/configuration.md), as the
window opens its ledger (`Ledger.open`, app/ui/main.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from app.settings import load_config
from app.station import Ledger


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def test_a_station_with_no_name_in_its_config_is_named_after_its_host(tmp_path: Path,
                                                                       monkeypatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "pit3-left-pc")
    ledger = Ledger.open(load_config(env={}), data_dir=tmp_path / "d")
    try:
        assert ledger.store.station == "pit3-left-pc"
    finally:
        ledger.store.close()


def test_the_name_in_the_config_wins_over_the_host(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "pit3-left-pc")
    site = tmp_path / "site.toml"
    site.write_text('[station]\nname = "PG-1 left"\n')
    ledger = Ledger.open(load_config(site, env={}), data_dir=tmp_path / "d")
    try:
        assert ledger.store.station == "PG-1 left"
    finally:
        ledger.store.close()
