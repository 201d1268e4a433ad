"""`paigow settle [--json] [ROUND.json]`: settle one fully described round, print the slip.

The round description (JSON, schema in README.md, "Settling a round") is played through
the same round state machine the station runs: wagers, the bank, action, the deal, dragon
hands, the settings, the settlement. A bad description is refused with the field and why (exit 2); a
misdeal settles nothing (exit 3).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from app.core.banker import BankRotation
from app.core.cards import Card, CardError, parse_cards
from app.core.house_way import HouseWayError
from app.core.round import HandReturned, Round
from app.core.settlement import MoneyError, Slip, parse_money
from app.core.table import DEALER, NO_PLAY, Action, Misdeal, TableError, cards_from_text
from app.settings import ConfigError, load_config

NAME = "settle"
HELP = "settle one round described in JSON (stdin or a file) and print the slip"
ROUND_SCHEMA = "paigow.round/1"

EXIT_BAD_INPUT = 2
EXIT_MISDEAL = 3

T = TypeVar("T")


class RoundInputError(ValueError):
    """A round description that cannot be played: the field and why."""

    def __init__(self, field: str, why: str) -> None:
        self.field = field
        self.why = why
        super().__init__(f"{field}: {why}" if field else why)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("round", nargs="?", default="-", metavar="ROUND.json",
                        help="the round description (default: read stdin)")
    parser.add_argument("--json", action="store_true",
                        help="print the slip as JSON (schema paigow.slip/1)")
    parser.add_argument("--config", metavar="FILE",
                        help="the site's table config over config/default.toml "
                             "(default: $PAIGOW_CONFIG)")


def run(args: argparse.Namespace) -> int:
    source = "<stdin>" if args.round == "-" else args.round
    try:
        text = _read_stdin() if args.round == "-" else _read(args.round)
        slip = settle_description(_parse_json(text), site=args.config, source=source)
    except ConfigError as err:
        for line in str(err).splitlines():
            print(f"paigow settle: config: {line}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RoundInputError as err:
        if args.json:
            print(json.dumps({"error": {"field": err.field, "why": err.why}}))
        print(f"paigow settle: {source}: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Misdeal as err:
        if args.json:
            print(json.dumps({"misdeal": {"problems": list(err.problems),
                                          "settled": False, "wagers": "stand"}}))
        print(f"paigow settle: {err}", file=sys.stderr)
        return EXIT_MISDEAL
    except HouseWayError as err:
        print(f"paigow settle: {err}: set this hand by hand and report it as a defect of "
              f"the rule card", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(slip.to_dict(), indent=2) if args.json else slip.text())
    return 0


# A round description is a few kilobytes; reading stops past this, so `settle /dev/zero`
# or a wrong file ends with a sentence instead of filling the memory.
MAX_DESCRIPTION = 1_000_000
# Deeper than any round description nests; json's own limit is Python's recursion limit.
MAX_DEPTH = 32


def _bounded(f: Any, source: str) -> str:
    text = f.read(MAX_DESCRIPTION + 1)
    if len(text) > MAX_DESCRIPTION:
        raise RoundInputError("", f"{source} is over {MAX_DESCRIPTION:,} characters: a round "
                                  f"description is a small JSON file; check the file name")
    return str(text)


def _read_stdin() -> str:
    try:
        return _bounded(sys.stdin, "the input")
    except UnicodeDecodeError:
        raise RoundInputError("", "the input is not UTF-8 text: give a round description "
                                  "(JSON)") from None


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return _bounded(f, path)
    except UnicodeDecodeError:
        raise RoundInputError("", f"{path} is not UTF-8 text: give a round description "
                                  f"(JSON)") from None
    except OSError as e:
        raise RoundInputError("", f"cannot read {path}: {e.strerror}") from None


def _depth(text: str) -> int:
    """How deep brackets nest, outside strings (checked before json, which recurses)."""
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _parse_json(text: str) -> dict[str, Any]:
    if _depth(text) > MAX_DEPTH:
        raise RoundInputError("", f"not a round description: brackets nest more than "
                                  f"{MAX_DEPTH} deep")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RoundInputError("", f"not JSON: {e.msg} at line {e.lineno} column {e.colno}"
                              ) from None
    except ValueError:  # a number of thousands of digits: Python refuses to read it
        raise RoundInputError("", "not a round description: it holds a number thousands of "
                                  "digits long") from None
    if not isinstance(data, dict):
        raise RoundInputError("", "a round is a JSON object {...}")
    return data


# --- reading the description ---------------------------------------------------------------

KEYS = ("schema", "round", "config", "history", "bank", "seats", "action", "deal", "dragon")


def _fail(field: str, why: str) -> NoReturn:
    raise RoundInputError(field, why)


@contextmanager
def _at(field: str) -> Iterator[None]:
    """Name the field when the core refuses what it says."""
    try:
        yield
    except RoundInputError:
        raise
    except Misdeal:
        raise
    except (TableError, CardError) as e:
        raise RoundInputError(field, str(e)) from None


def _get(obj: Mapping[str, Any], key: str, field: str, kind: type[T], *,
         required: bool = False) -> T | None:
    if key not in obj:
        if required:
            _fail(f"{field}.{key}" if field else key, "is missing")
        return None
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        _fail(f"{field}.{key}" if field else key,
              f"should be {_KIND_NAMES.get(kind, kind.__name__)}, not {json.dumps(value)}")
    return value


_KIND_NAMES = {dict: "an object {...}", list: "a list [...]", str: "text in quotes",
               int: "a whole number", bool: "true or false"}


def _only(obj: Mapping[str, Any], keys: tuple[str, ...], field: str) -> None:
    for key in obj:
        if key not in keys:
            where = f"{field}.{key}" if field else key
            _fail(where, "is not a field here; the fields are " + ", ".join(keys))


def _money(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, str):
        _fail(field, f"write money as dollars in quotes, like \"25.00\", not "
                     f"{json.dumps(value)}")
    try:
        cents = parse_money(value)
    except MoneyError as e:
        _fail(field, str(e))
    if cents <= 0:
        _fail(field, f"{value!r} is not above zero")
    return cents


def _seat(key: Any, field: str) -> int:
    text = str(key).strip().lower()
    if text == "dealer":
        return DEALER
    if text in ("no-play", "no play"):
        return NO_PLAY  # the core says why nothing is played there
    # isdigit() alone lets superscripts and other scripts' digits through to int().
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        _fail(field, f"{_short(key)} is not a position: write \"dealer\" or a seat 1-6")
    return int(text)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _cards(value: Any, field: str, *, check: bool = True) -> tuple[Card, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        tokens: list[str] = value
    elif isinstance(value, str):
        tokens = [value]
    else:
        _fail(field, f"write cards as text like \"AS KD 10H JK\", not {json.dumps(value)}")
    try:
        return parse_cards(tokens) if check else cards_from_text(tokens)
    except CardError as e:
        _fail(field, str(e))


def _front(value: Any, field: str) -> tuple[Card, ...] | None:
    """The two cards in front, or None for the House Way."""
    if isinstance(value, str) and value.strip().lower() in ("house-way", "house way", "hw"):
        return None
    return _cards(value, field)


def _history(data: Mapping[str, Any]) -> BankRotation:
    h = _get(data, "history", "", dict)
    round_no = _get(data, "round", "", int)
    if round_no is not None and round_no < 1:
        _fail("round", f"rounds are numbered from 1, not {round_no}")
    if h is None:
        return BankRotation(round_no=round_no or 1)
    _only(h, ("house_bets", "last_banker", "bank_offer_from", "last_dragon"), "history")
    bets_in = _get(h, "house_bets", "history", dict) or {}
    bets = {_seat(k, f"history.house_bets.{k}"): _money(v, f"history.house_bets.{k}")
            for k, v in bets_in.items()}
    last_banker = None
    if h.get("last_banker") not in (None, "dealer"):
        last_banker = _seat(h["last_banker"], "history.last_banker")
    offer_from = (_seat(h["bank_offer_from"], "history.bank_offer_from")
                  if "bank_offer_from" in h else None)
    last_dragon = (_seat(h["last_dragon"], "history.last_dragon")
                   if h.get("last_dragon") is not None else None)
    with _at("history"):
        return BankRotation.resume(round_no=round_no or 2, house_bets=bets,
                                   last_banker=last_banker, offer_from=offer_from,
                                   last_dragon=last_dragon)


def _action(value: Any) -> Action:
    if value == "draw":
        return Action.draw()
    if not isinstance(value, dict) or len(value) != 1 or not ({"rng", "dice"} & set(value)):
        _fail("action", "write {\"rng\": N} (the number 1-7 shown), {\"dice\": [a, b, c]}, "
                        "or \"draw\" to draw it here")
    with _at("action"):
        if "rng" in value:
            n = _get(value, "rng", "action", int, required=True)
            assert n is not None
            return Action.from_rng(n)
        dice = _get(value, "dice", "action", list, required=True)
        assert dice is not None
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
            _fail("action.dice", f"three whole numbers 1-6, not {json.dumps(dice)}")
        return Action.from_dice(*dice)


def _dragons(data: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    value = data.get("dragon")
    if value is None:
        return []
    if isinstance(value, dict):
        return [("dragon", value)]
    if isinstance(value, list) and all(isinstance(d, dict) for d in value):
        return [(f"dragon[{i}]", d) for i, d in enumerate(value)]
    _fail("dragon", "write {\"seat\": N, \"wager\": \"10.00\"} or a list of them")


def settle_description(data: Mapping[str, Any], *, site: str | None = None,
                       source: str = "<stdin>",
                       env: Mapping[str, str] | None = None) -> Slip:
    """Play a round description through the round and return its Slip."""
    _only(data, KEYS, "")
    schema = data.get("schema", ROUND_SCHEMA)
    if schema != ROUND_SCHEMA:
        _fail("schema", f"this station reads {ROUND_SCHEMA}, not {schema!r}")
    overrides = _get(data, "config", "", dict)
    config = load_config(site, env=env, overrides=overrides,
                         overrides_source=f"{source}: config")
    game = Round(config.round_rules(), _history(data))

    seats = _get(data, "seats", "", dict, required=True) or {}
    entries: dict[int, tuple[str, dict[str, Any]]] = {}
    for key, entry in seats.items():
        field = f"seats.{key if len(str(key)) <= 12 else str(key)[:9] + '...'}"
        seat = _seat(key, field)
        if not isinstance(entry, dict):
            _fail(field, "write {\"wager\": \"25.00\", \"set\": \"house-way\"}")
        _only(entry, ("wager", "set"), field)
        with _at(field):
            game.place_wager(seat, _money(entry.get("wager"), f"{field}.wager"))
        entries[seat] = (field, entry)

    bank = data.get("bank", "dealer")
    bank_entry: dict[str, Any] | None = None
    if bank != "dealer":
        if not isinstance(bank, dict):
            _fail("bank", "write \"dealer\" or {\"seat\": N, \"chips\": \"500.00\"}")
        _only(bank, ("seat", "chips", "co_bank", "set"), "bank")
        seat_no = _get(bank, "seat", "bank", int, required=True)
        assert seat_no is not None
        chips = _money(bank.get("chips"), "bank.chips")
        co_bank = bool(_get(bank, "co_bank", "bank", bool))
        with _at("bank"):
            offered = game.offer_bank()
            while offered not in (seat_no, DEALER):
                game.pass_bank(offered)
                offered = game.offer_bank()
            game.take_bank(seat_no, chips, co_bank)
        bank_entry = bank

    if "action" not in data:
        _fail("action", "is missing: the number the RNG shows, or the three dice")
    action = _action(data["action"])
    with _at("action"):
        game.set_action(action)
    _deal(game, _get(data, "deal", "", dict, required=True) or {})

    for field, d in _dragons(data):
        _only(d, ("seat", "wager", "position", "set"), field)
        seat_no = _get(d, "seat", field, int, required=True)
        assert seat_no is not None
        where = _seat(d["position"], f"{field}.position") if "position" in d else None
        wager = _money(d.get("wager"), f"{field}.wager")
        with _at(field):
            offered_to = game.offer_dragon()
            while offered_to is not None and offered_to != seat_no:
                game.pass_dragon(offered_to)
                offered_to = game.offer_dragon()
            taken = game.take_dragon(seat_no, wager, where)
        if "set" in d:
            _set(game, taken.position, d["set"], f"{field}.set")

    assert game.deal is not None
    for position in game.deal.order:
        if position not in entries:
            continue
        field, entry = entries[position]
        if "set" not in entry:
            _fail(f"{field}.set", "is missing: the two cards the player put in front, or "
                                  "\"house-way\"")
        _set(game, position, entry["set"], f"{field}.set")
    if bank_entry is not None:
        with _at("bank.set"):
            game.set_hand(game.banker, _front(bank_entry.get("set", "house-way"), "bank.set"))
    with _at(""):
        return game.settle()


def _set(game: Round, position: int, value: Any, field: str) -> None:
    """A hand as the player set it; the House Way at a table that sets it after the bank
    leaves the seven cards in one pile (settling sets them after the bank's)."""
    front = _front(value, field)
    with _at(field):
        if front is None and not game.can_set_hand(position) \
                and game.can_ask_house_way(position):
            game.ask_house_way(position)
            return
        done = game.set_hand(position, front)
    if isinstance(done, HandReturned):
        _fail(field, f"a foul ({done.hand.foul}): at this table the hand goes back to the "
                     f"player to set again; write the setting the player made then")


def _deal(game: Round, deal: dict[str, Any]) -> None:
    forms = [k for k in ("stacks", "cards", "hands") if k in deal]
    if len(forms) != 1:
        _fail("deal", "give one of stacks (seven 7-card stacks from action), cards (one at a "
                      "time from action) or hands (by position)")
    form = forms[0]
    _only(deal, (form, "leftovers") if form != "cards" else ("cards",), "deal")
    leftovers = (_cards(deal["leftovers"], "deal.leftovers", check=False)
                 if "leftovers" in deal else None)
    if form == "stacks":
        stacks_in = _get(deal, "stacks", "deal", list, required=True) or []
        stacks = [_cards(s, f"deal.stacks[{i}]", check=False) for i, s in enumerate(stacks_in)]
        with _at("deal"):
            game.deal_stacks(stacks, leftovers)
    elif form == "cards":
        cards = _cards(deal["cards"], "deal.cards", check=False)
        with _at("deal"):
            game.deal_one_at_a_time(cards)
    else:
        hands_in = _get(deal, "hands", "deal", dict, required=True) or {}
        hands = {_seat(k, f"deal.hands.{k}"): _cards(v, f"deal.hands.{k}", check=False)
                 for k, v in hands_in.items()}
        with _at("deal"):
            game.deal_by_position(hands, leftovers)
