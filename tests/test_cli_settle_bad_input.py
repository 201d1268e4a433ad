"""`paigow settle` never answers bad input with a traceback or a hang: every description,
however damaged, is settled, refused with a sentence (exit 2) or called a misdeal (exit 3).
The hand-picked cases are the ones an audit found crashing; the fuzz damages the shipped
example rounds at random."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main
from app.commands import settle

ROUNDS = Path(__file__).parent / "rounds"
EXAMPLE: dict[str, Any] = json.loads((ROUNDS / "house-bank.json").read_text())
OUTCOMES = {0, 2, 3}


def _run(capsys: pytest.CaptureFixture[str], text: str, *args: str) -> tuple[int, str]:
    old = settle.sys.stdin
    settle.sys.stdin = io.StringIO(text)
    try:
        code = main(["settle", *args, "-"])
    finally:
        settle.sys.stdin = old
    return code, capsys.readouterr().err


def _with_seat_key(key: str) -> str:
    data = copy.deepcopy(EXAMPLE)
    data["seats"][key] = data["seats"].pop("1")
    return json.dumps(data)


@pytest.mark.parametrize("key", ["\u00b2", "9" * 5000, "\u0663", "\uff11"])
def test_a_seat_key_that_is_not_a_seat_number_is_refused_naming_the_field(
        capsys: pytest.CaptureFixture[str], key: str) -> None:
    code, err = _run(capsys, _with_seat_key(key))
    assert code == 2
    assert "is not a position" in err and "seat 1-6" in err
    assert len(err) < 400  # a 5,000-digit key is not echoed whole


def test_a_description_nested_past_any_round_is_refused_before_json_recurses(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, "[" * 100_000)
    assert code == 2 and "nest more than" in err


def test_a_number_thousands_of_digits_long_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, '{"schema": "paigow.round/1", "round": ' + "9" * 5000 + "}")
    assert code == 2 and "thousands of digits" in err


def test_an_endless_input_is_read_only_up_to_the_limit(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settle, "MAX_DESCRIPTION", 1000)
    code, err = _run(capsys, "\0" * 5000)
    assert code == 2 and "over 1,000 characters" in err


def test_settle_dev_zero_ends_with_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["settle", "/dev/zero"])
    err = capsys.readouterr().err
    assert code == 2 and "a round description is a small JSON file" in err


def test_a_binary_file_is_not_a_description(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "round.json"
    junk.write_bytes(bytes(range(128, 256)) * 4)
    assert main(["settle", str(junk)]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_a_binary_config_file_is_refused_as_not_text(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    junk = tmp_path / "table.toml"
    junk.write_bytes(b"\xcd\xff\x00" * 50)
    code = main(["settle", "--config", str(junk), str(ROUNDS / "house-bank.json")])
    err = capsys.readouterr().err
    assert code == 2 and "is not a text file" in err and "table.toml" in err


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                      st.floats(allow_nan=True), st.text(max_size=12),
                      st.sampled_from(["\u00b2", "1e400", "-0", "JK", "AS AS", "dealer",
                                       "no play", "house-way", "$-5", "25.001", "7"]))
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=8)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*at, i))
    return found


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_no_damaged_round_description_ends_in_a_traceback(
        capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    rnd = copy.deepcopy(EXAMPLE)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(rnd)[1:]))
        parent = rnd
        for step in path[:-1]:
            parent = parent[step]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON_VALUE)
    code, err = _run(capsys, json.dumps(rnd))
    assert code in OUTCOMES, err
    assert "Traceback" not in err
