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
from typing import (
    IO,
    Annotated,
    NoReturn,
    NotRequired,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import BeforeValidator, ConfigDict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict  # pydantic reads a TypedDict of it on Python 3.11

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


def _bounded(f: IO[str], source: str) -> str:
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


def _parse_json(text: str) -> dict[str, object]:
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
# The description's shape (fields, kinds, money) is checked by pydantic TypeAdapters over
# TypedDicts of it; what the round refuses (a wager under the minimum, a card not dealt) is
# the core's to say, at the field that asked for it.

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


def _money_cents(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(f"write money as dollars in quotes, like \"25.00\", not "
                         f"{json.dumps(value)}")
    try:
        cents = parse_money(value)
    except MoneyError as e:
        raise ValueError(str(e)) from None
    if cents <= 0:
        raise ValueError(f"{value!r} is not above zero")
    return cents


Money = Annotated[int, BeforeValidator(_money_cents)]
_STRICT = ConfigDict(extra="forbid", strict=True)


@with_config(_STRICT)
class SeatJson(TypedDict):
    wager: Money
    set: object  # two cards, or "house-way"
    bonus: NotRequired[Money]  # the seat's bonus wager (issue 26)


@with_config(_STRICT)
class BankJson(TypedDict):
    seat: int
    chips: Money
    co_bank: NotRequired[bool]
    set: NotRequired[object]
    bonus: NotRequired[Money]  # the player-banker's bonus, on the banking hand


@with_config(_STRICT)
class HistoryJson(TypedDict, total=False):
    house_bets: dict[str, Money]
    last_banker: object
    bank_offer_from: object
    last_dragon: object


@with_config(_STRICT)
class DragonJson(TypedDict):
    seat: int
    wager: Money
    position: NotRequired[object]
    set: NotRequired[object]


@with_config(_STRICT)
class DealJson(TypedDict, total=False):
    stacks: list[object]
    cards: object
    hands: dict[str, object]
    leftovers: object


@with_config(_STRICT)
class RoundJson(TypedDict):
    schema: NotRequired[str]
    round: NotRequired[int]
    config: NotRequired[dict[str, object]]
    history: NotRequired[HistoryJson]
    bank: NotRequired[object]  # "dealer", or a BankJson
    seats: dict[str, SeatJson]
    action: object  # {"rng": N}, {"dice": [a, b, c]} or "draw"
    deal: DealJson
    dragon: NotRequired[object]  # a DragonJson or a list of them
    bonus_approved_by: NotRequired[str]  # the supervisor who approved a big bonus payout


_ROUND: TypeAdapter[RoundJson] = TypeAdapter(RoundJson)
_BANK: TypeAdapter[BankJson] = TypeAdapter(BankJson)
_DRAGON: TypeAdapter[DragonJson] = TypeAdapter(DragonJson)

_KIND_NAMES = {"dict_type": "an object {...}", "typed_dict_type": "an object {...}",
               "list_type": "a list [...]", "string_type": "text in quotes",
               "int_type": "a whole number", "bool_type": "true or false"}
_MISSING = {"action": "is missing: the number the RNG shows, or the three dice",
            "set": "is missing: the two cards the player put in front, or \"house-way\""}


def _field_of(loc: tuple[int | str, ...], at: str) -> str:
    field = at
    for part in loc:
        if isinstance(part, int):
            field += f"[{part}]"
        else:
            name = part if len(part) <= 12 else part[:9] + "..."  # a key can be any length
            field = f"{field}.{name}" if field else name
    return field


def _fields_at(shape: object, loc: tuple[int | str, ...]) -> list[str]:
    """The fields of the object at `loc` in a description of this shape."""
    kind: object = shape
    for part in loc:
        if get_origin(kind) in (dict, list):
            kind = get_args(kind)[-1]  # past a seat's key or a list's index
        else:
            kind = get_type_hints(kind)[str(part)]
    return list(get_type_hints(kind))


def _checked(adapter: TypeAdapter[T], shape: object, data: object, at: str = "") -> T:
    """The data, of the adapter's shape; else `RoundInputError` with the field and why."""
    try:
        return adapter.validate_python(data)
    except ValidationError as e:
        error = e.errors()[0]
        loc = tuple(error["loc"])
        field = _field_of(loc, at)
        kind = error["type"]
        if kind == "missing":
            _fail(field, _MISSING.get(str(loc[-1]), "is missing"))
        if kind == "extra_forbidden":
            _fail(field, "is not a field here; the fields are "
                  + ", ".join(_fields_at(shape, loc[:-1])))
        if kind in _KIND_NAMES:
            _fail(field, f"should be {_KIND_NAMES[kind]}, not {_short_json(error['input'])}")
        _fail(field, str(error["msg"]).removeprefix("Value error, "))


def _seat(key: object, field: str) -> int:
    text = str(key).strip().lower()
    if text == "dealer":
        return DEALER
    if text in ("no-play", "no play"):
        return NO_PLAY  # the core says why nothing is played there
    # isdigit() alone lets superscripts and other scripts' digits through to int().
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        _fail(field, f"{_short(key)} is not a position: write \"dealer\" or a seat 1-6")
    return int(text)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _short_json(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _cards(value: object, field: str, *, check: bool = True) -> tuple[Card, ...]:
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


def _front(value: object, field: str) -> tuple[Card, ...] | None:
    """The two cards in front, or None for the House Way."""
    if isinstance(value, str) and value.strip().lower() in ("house-way", "house way", "hw"):
        return None
    return _cards(value, field)


def _history(data: RoundJson) -> BankRotation:
    round_no = data.get("round")
    if round_no is not None and round_no < 1:
        _fail("round", f"rounds are numbered from 1, not {round_no}")
    if "history" not in data:
        return BankRotation(round_no=round_no or 1)
    h = data["history"]
    bets = {_seat(k, f"history.house_bets.{k}"): v
            for k, v in h.get("house_bets", {}).items()}
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


def _action(value: object) -> Action:
    if value == "draw":
        return Action.draw()
    if not isinstance(value, dict) or len(value) != 1 or not ({"rng", "dice"} & set(value)):
        _fail("action", "write {\"rng\": N} (the number 1-7 shown), {\"dice\": [a, b, c]}, "
                        "or \"draw\" to draw it here")
    with _at("action"):
        if "rng" in value:
            n = value["rng"]
            if isinstance(n, bool) or not isinstance(n, int):
                _fail("action.rng", f"should be a whole number, not {_short_json(n)}")
            return Action.from_rng(n)
        dice = value["dice"]
        if not isinstance(dice, list) or \
                not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
            _fail("action.dice", f"three whole numbers 1-6, not {json.dumps(dice)}")
        return Action.from_dice(*dice)


def _dragons(data: RoundJson) -> list[tuple[str, DragonJson]]:
    value = data.get("dragon")
    if value is None:
        return []
    if isinstance(value, dict):
        return [("dragon", _checked(_DRAGON, DragonJson, value, "dragon"))]
    if isinstance(value, list) and all(isinstance(d, dict) for d in value):
        return [(f"dragon[{i}]", _checked(_DRAGON, DragonJson, d, f"dragon[{i}]"))
                for i, d in enumerate(value)]
    _fail("dragon", "write {\"seat\": N, \"wager\": \"10.00\"} or a list of them")


def settle_description(raw: Mapping[str, object], *, site: str | None = None,
                       source: str = "<stdin>",
                       env: Mapping[str, str] | None = None) -> Slip:
    """Play a round description through the round and return its Slip."""
    data = _checked(_ROUND, RoundJson, raw)
    schema = data.get("schema", ROUND_SCHEMA)
    if schema != ROUND_SCHEMA:
        _fail("schema", f"this station reads {ROUND_SCHEMA}, not {schema!r}")
    config = load_config(site, env=env, overrides=data.get("config"),
                         overrides_source=f"{source}: config")
    game = Round(config.round_rules(), _history(data))

    entries: dict[int, tuple[str, SeatJson]] = {}
    for key, entry in data["seats"].items():
        field = _field_of(("seats", key), "")
        seat = _seat(key, field)
        with _at(field):
            game.place_wager(seat, entry["wager"])
        entries[seat] = (field, entry)

    bank_raw = data.get("bank", "dealer")
    bank: BankJson | None = None
    if bank_raw != "dealer":
        if not isinstance(bank_raw, dict):
            _fail("bank", "write \"dealer\" or {\"seat\": N, \"chips\": \"500.00\"}")
        bank = _checked(_BANK, BankJson, bank_raw, "bank")
        seat_no = bank["seat"]
        with _at("bank"):
            offered = game.offer_bank()
            while offered not in (seat_no, DEALER):
                game.pass_bank(offered)
                offered = game.offer_bank()
            game.take_bank(seat_no, bank["chips"], bank.get("co_bank", False))

    # The bonus wagers once the bank is known (a player-banker's is on the banking hand).
    for seat, (field, entry) in entries.items():
        if "bonus" in entry:
            with _at(f"{field}.bonus"):
                game.place_bonus(seat, entry["bonus"])
    if bank is not None and "bonus" in bank:
        with _at("bank.bonus"):
            game.place_bonus(bank["seat"], bank["bonus"])

    action = _action(data["action"])
    with _at("action"):
        game.set_action(action)
    _deal(game, data["deal"])

    for field, d in _dragons(data):
        seat_no = d["seat"]
        where = _seat(d["position"], f"{field}.position") if "position" in d else None
        with _at(field):
            offered_to = game.offer_dragon()
            while offered_to is not None and offered_to != seat_no:
                game.pass_dragon(offered_to)
                offered_to = game.offer_dragon()
            taken = game.take_dragon(seat_no, d["wager"], where)
        if "set" in d:
            _set(game, taken.position, d["set"], f"{field}.set")

    assert game.deal is not None
    for position in game.deal.order:
        if position not in entries:
            continue
        field, entry = entries[position]
        _set(game, position, entry["set"], f"{field}.set")
    if bank is not None:
        with _at("bank.set"):
            game.set_hand(game.banker, _front(bank.get("set", "house-way"), "bank.set"))
    _approve_bonus(game, data.get("bonus_approved_by"))
    with _at(""):
        return game.settle()


def _approve_bonus(game: Round, by: str | None) -> None:
    """A payout at the table's threshold was approved by a supervisor, whom the
    description names; without one it cannot be settled."""
    waiting = game.bonus_waiting()
    if not waiting:
        if by is not None:
            _fail("bonus_approved_by", "no bonus payout of this round waits for a "
                                       "supervisor: leave it out")
        return
    if by is None or not by.strip():
        _fail("bonus_approved_by", "; ".join(x.text for x in waiting) + ": a payout at "
              "the table's threshold waits for a supervisor: name who approved it")
    with _at("bonus_approved_by"):
        game.hold_bonus()
        game.approve_bonus(by)


def _set(game: Round, position: int, value: object, field: str) -> None:
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


def _deal(game: Round, deal: DealJson) -> None:
    forms = [k for k in ("stacks", "cards", "hands") if k in deal]
    if len(forms) != 1:
        _fail("deal", "give one of stacks (seven 7-card stacks from action), cards (one at a "
                      "time from action) or hands (by position)")
    form = forms[0]
    if form == "cards" and "leftovers" in deal:
        _fail("deal.leftovers", "is not a field here; the fields are cards")
    leftovers = (_cards(deal["leftovers"], "deal.leftovers", check=False)
                 if "leftovers" in deal else None)
    if form == "stacks":
        stacks = [_cards(s, f"deal.stacks[{i}]", check=False)
                  for i, s in enumerate(deal["stacks"])]
        with _at("deal"):
            game.deal_stacks(stacks, leftovers)
    elif form == "cards":
        cards = _cards(deal["cards"], "deal.cards", check=False)
        with _at("deal"):
            game.deal_one_at_a_time(cards)
    else:
        hands = {_seat(k, f"deal.hands.{k}"): _cards(v, f"deal.hands.{k}", check=False)
                 for k, v in deal["hands"].items()}
        with _at("deal"):
            game.deal_by_position(hands, leftovers)
