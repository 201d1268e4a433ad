"""Property-based fuzz (hypothesis) of every text the station parses: each parser is fed
random text (and random near-misses of good text) and must answer with its own error, in
words, never anything else (a traceback at a table). `run(n)` counts, per parser, the
examples tried and the inputs that raised something else; tests/faults/test_fuzz.py asserts
none did.

The parsers and their own errors: cards (`parse_cards`, CardError); money (`parse_money`,
MoneyError); dice (`drivers.action.dice`, ActionError); config (`load_config` of a site
file, ConfigError); round files (`paigow settle`: the JSON read, then the round described;
RoundInputError, Misdeal, HouseWayError, ConfigError); recorded sessions (`read_session`,
RecordError); the shoe's line (`ShoeParser.feed`: none, every byte becomes an event or a
fault).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CARD_WORDS = ["AS", "KD", "10H", "TH", "JK", "7c", "2♠", "Q♥", "1S", "ZZ", "A", "", "²S",
              "AS,", "٣H", "ⅩS"]
MONEY_WORDS = ["25", "25.50", "$1,000.00", "-5", "0.001", "1e9", "²", "٣", "NaN", "inf",
               "1_000", ".5", "25.", "9" * 40, "$", ",", "1,00"]
JSON_WORDS = ['{"seats": {"1": 2500}}', '{"seats": {"²": 1}}', '{"deal": []}', "[]", "{",
              '{"action": 3}', '{"seats": {"1": "25"}, "action": "dice 1 2 3"}', "null",
              '{"seats": {"' + "9" * 5000 + '": 1}}', "[" * 100 + "]" * 100]
TOML_WORDS = ["[table]", 'name = "PG-1"', "[shoe]", "baud = 9601", 'port = "/dev/x"',
              "[rules]", 'joker = "fully-wild"', "commission = 5", "= =", "[[x]]", "\x00",
              "[limits]", "minimum = -1", 'house_way = "nowhere"']


def _texts(words: list[str]) -> st.SearchStrategy[str]:
    """Random text, and random joins of words that are near what the parser reads."""
    return st.one_of(st.text(max_size=200),
                     st.lists(st.sampled_from(words), max_size=12).map(" ".join),
                     st.lists(st.one_of(st.sampled_from(words), st.text(max_size=6)),
                              max_size=12).map("".join))


def _check(name: str, strategy: st.SearchStrategy[Any], parse: Callable[[Any], object],
           allowed: tuple[type[BaseException], ...], examples: int
           ) -> tuple[int, list[str]]:
    tried = 0
    bad: list[str] = []

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(value: Any) -> None:
        nonlocal tried
        tried += 1
        try:
            parse(value)
        except allowed:
            pass
        except Exception as e:  # noqa: BLE001 - this is what is counted
            if len(bad) < 5:
                bad.append(f"{name}: {value!r:.80} -> {type(e).__name__}: {e}")
            else:
                bad.append(name)

    one()
    return tried, bad


def _config(text: str) -> object:
    from app.settings import load_config
    with tempfile.TemporaryDirectory() as where:
        site = Path(where) / "site.toml"
        site.write_text(text, encoding="utf-8", errors="surrogatepass")
        return load_config(site, env={})


def _round_file(text: str) -> object:
    from app.commands.settle import _parse_json, settle_description
    return settle_description(_parse_json(text))


def _session_file(text: str) -> object:
    from app.session.record import read_session
    return read_session(text.splitlines())


def _shoe(data: bytes) -> object:
    from drivers.shoe.protocol import ShoeParser
    parser = ShoeParser()
    events = parser.feed(data)
    events += parser.summary(1.0)
    return events


def run(examples: int) -> dict[str, tuple[int, list[str]]]:
    """Per parser: (examples tried, what raised something other than its own error)."""
    from app.commands.settle import RoundInputError
    from app.core.cards import CardError, parse_cards
    from app.core.house_way import HouseWayError
    from app.core.settlement import MoneyError, parse_money
    from app.core.table import Misdeal
    from app.session.record import RecordError
    from app.settings import ConfigError
    from drivers.action import ActionError, dice

    event_words = [json.dumps(x) for x in (
        {"schema": "paigow.session/1", "rules": {}}, {"kind": "card", "card": "AS", "seq": 1},
        {"kind": "card", "card": "ZZ"}, {"kind": "key", "key": 5}, {"kind": "nothing"},
        {"kind": "printed", "job": {}}, {"kind": "supervisor", "what": "void"})]
    return {
        "cards": _check("cards", _texts(CARD_WORDS), parse_cards, (CardError,), examples),
        "money": _check("money", _texts(MONEY_WORDS), parse_money, (MoneyError,), examples),
        "dice": _check("dice", _texts(["1", "6", "7", "0", ",", " ", "1 2 3", "³", "-1"]),
                       dice, (ActionError,), examples),
        "config": _check("config", _texts(TOML_WORDS).map(lambda t: t.replace(" [", "\n[")),
                         _config, (ConfigError,), max(examples // 5, 10)),
        "round files": _check("round files", _texts(JSON_WORDS), _round_file,
                              (RoundInputError, Misdeal, HouseWayError, ConfigError),
                              examples),
        "recorded sessions": _check("recorded sessions", st.lists(
            st.one_of(st.sampled_from(event_words), st.text(max_size=40)), max_size=6)
            .map("\n".join), _session_file, (RecordError,), examples),
        "shoe line": _check("shoe line", st.one_of(
            st.binary(max_size=300),
            st.lists(st.sampled_from([b"$CARD,4,AS*FF62\r\n", b"$BEAT,53*6ED4\r\n", b"$",
                                      b"*", b"\r\n", b",", b"\xff", b"$HELLO,0,A,1*6AB2\r\n"]),
                     max_size=30).map(b"".join)), _shoe, (), examples),
    }
