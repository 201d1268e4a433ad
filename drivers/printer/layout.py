"""The settlement slip as lines of receipt paper: a pure function, slip in, lines out.

`slip_lines(slip, columns)` renders a `Slip` or its `to_dict()` form (schema `paigow.slip/1`,
README.md, "Settling a round") for 42- or 48-column paper; `styled_lines` is the same
with the style of each line (the ESC/POS printer makes the title and the headings bold).
Every line fits the paper and is plain ASCII, so any printer code page prints it.

What a dealer reads, top to bottom: the table and round, the time, action (the number, how
it was found and where it landed), who banks; then every position in order from action
(the table's direction) with its two hands (low | high), how each did against the bank
(low | high), who set them and the House Way rule, the outcome, and wager, commission and
net; then the player banker's account, the totals, the leftovers and the rules.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, cast

from app.core.settlement import bonus_groups, progressive_line_words

if TYPE_CHECKING:
    from app.core.settlement import (
        ActionDict,
        BankDict,
        BonusDict,
        PositionDict,
        ProgressiveDict,
        SlipDict,
    )

SLIP_SCHEMA = "paigow.slip/1"
TITLE = "PAI GOW POKER SETTLEMENT"
INDENT = "   "


class SlipError(ValueError):
    """A slip that cannot be printed: the key and why."""

    def __init__(self, key: str, why: str) -> None:
        self.key = key
        self.why = why
        super().__init__(f"{key}: {why}" if key else why)


class Style(Enum):
    NORMAL = "normal"
    BOLD = "bold"
    TITLE = "title"  # bold and double height


@dataclass(frozen=True, slots=True)
class PrintLine:
    text: str
    style: Style = Style.NORMAL


# --- reading the slip ----------------------------------------------------------------------

_INT = (int,)
_OPT_INT = (int, type(None))
_STR = (str,)
_OPT_STR = (str, type(None))

_TOP = {"schema": _STR, "table": _STR, "round": _INT, "action": (dict,), "rules": (dict,),
        "bank": (dict,), "positions": (list,), "leftovers": _STR,
        "leftovers_counted": (bool,), "totals": (dict,)}
_ACTION = {"source": _STR, "number": _INT, "dice": (list, type(None)), "drawn_by": _STR,
           "counted_from": _INT, "position": _INT, "direction": _STR}
_BANK = {"who": _STR, "position": _INT, "player": _OPT_INT, "co_bank": (bool,),
         "stake_cents": _OPT_INT, "collected_cents": _INT, "paid_cents": _INT,
         "gross_cents": _INT, "commission_cents": _INT, "net_cents": _INT,
         "house_share_cents": _INT, "exhausted": (bool,), "remaining_cents": _OPT_INT}
_POSITION = {"position": _INT, "name": _STR, "role": _STR, "player": _OPT_INT, "cards": _STR,
             "low": _OPT_STR, "high": _OPT_STR, "set_by": _OPT_STR,
             "house_way_rule": _OPT_STR, "foul": _OPT_STR, "front": _OPT_STR,
             "back": _OPT_STR, "outcome": _OPT_STR, "wager_cents": _INT,
             "win_cents": _INT, "commission_cents": _INT, "net_cents": _INT, "note": _STR}
_TOTALS = {"wagers_cents": _INT, "players_net_cents": _INT, "commission_cents": _INT,
           "banker_net_cents": _INT, "house_net_cents": _INT}
_ROLES = ("player", "dragon", "bank", "dealer", "mucked")
_BONUS = {"pay_card": _STR, "envy_card": _OPT_STR, "wagers_cents": _INT, "net_cents": _INT,
          "approved_by": _OPT_STR, "lines": (list,)}
_BONUS_LINE = {"kind": _STR, "seat": _INT, "position": _INT, "wager_cents": _INT,
               "hand": _STR, "pays": _STR, "amount_cents": _INT,
               "from_position": _OPT_INT, "supervisor": (bool,), "note": _STR}
_PROGRESSIVE = {"card": _STR, "title": _STR, "wagers_cents": _INT, "lines": (list,)}
_PROGRESSIVE_LINE = {"seat": _INT, "wager_cents": _INT, "category": _OPT_STR,
                     "hand": _OPT_STR, "pays": _OPT_STR, "paid_cents": _OPT_INT,
                     "by": _OPT_STR}


def _check(obj: object, spec: Mapping[str, tuple[type, ...]], at: str) -> None:
    if not isinstance(obj, Mapping):
        raise SlipError(at, "should be an object {...}")
    for key, kinds in spec.items():
        where = f"{at}.{key}" if at else key
        if key not in obj:
            raise SlipError(where, "is missing")
        value = obj[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise SlipError(where, f"should be {names}, not {value!r}")


def slip_json(slip: object) -> dict[str, object]:
    """A `Slip`'s `to_dict()` form, or the JSON object given, unchecked (`read_slip`)."""
    to_dict = getattr(slip, "to_dict", None)
    if to_dict is not None:
        slip = to_dict()
    if not isinstance(slip, Mapping):
        raise SlipError("", f"a slip is a JSON object {{...}} (schema {SLIP_SCHEMA}), not "
                            f"{type(slip).__name__}")
    return dict(slip)


def read_slip(slip: object) -> SlipDict:
    """The slip as a checked `paigow.slip/1` dict, from a `Slip` or its `to_dict()` form.

    Raises `SlipError` naming the key and why; extra keys are allowed (`settled_at`, an ISO
    time the ledger may add, is read when no time is given).
    """
    slip = slip_json(slip)
    if slip.get("schema") != SLIP_SCHEMA:
        raise SlipError("schema", f"this printer reads {SLIP_SCHEMA}, not "
                                  f"{slip.get('schema')!r}: give the output of "
                                  f"paigow settle --json")
    _check(slip, _TOP, "")
    for key, spec in (("action", _ACTION), ("bank", _BANK), ("totals", _TOTALS)):
        _check(slip[key], spec, key)
    positions = slip["positions"]
    if not isinstance(positions, list) or not positions:
        raise SlipError("positions", "is empty: a slip lists every position")
    for i, p in enumerate(positions):
        _check(p, _POSITION, f"positions[{i}]")
        if p["role"] not in _ROLES:
            raise SlipError(f"positions[{i}].role", f"{p['role']!r} is not one of "
                                                    + ", ".join(_ROLES))
    if "bonus" in slip:  # only a round with a bonus wager has one (issue 26)
        bonus = slip["bonus"]
        _check(bonus, _BONUS, "bonus")
        for i, x in enumerate(cast("Mapping[str, list[object]]", bonus)["lines"]):
            _check(x, _BONUS_LINE, f"bonus.lines[{i}]")
    if "progressive" in slip:  # only a round with a progressive wager has one (issue 27)
        _check(slip["progressive"], _PROGRESSIVE, "progressive")
        for i, x in enumerate(cast("Mapping[str, list[object]]", slip["progressive"])["lines"]):
            _check(x, _PROGRESSIVE_LINE, f"progressive.lines[{i}]")
    slip_time(slip)
    # Checked key by key above, as the JSON the slip was written as.
    return cast("SlipDict", _ascii_deep(slip))


def _ascii_deep(value: object) -> object:
    if isinstance(value, str):
        return ascii_text(value)
    if isinstance(value, Mapping):
        return {k: _ascii_deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ascii_deep(v) for v in value]
    return value


def slip_time(slip: Mapping[str, object]) -> datetime | None:
    """The slip's own time (`settled_at`), if the ledger gave one."""
    value = slip.get("settled_at")
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise SlipError("settled_at", f"{value!r} is not an ISO time like "
                                      f"2025-03-14T21:07:33+01:00") from None


# --- text helpers --------------------------------------------------------------------------

def ascii_text(text: str) -> str:
    """Plain ASCII, which every receipt printer's code page has: accents dropped, the rest ?."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if ord(ch) < 128:
            out.append(ch if ch.isprintable() else " ")
        elif not unicodedata.combining(ch):
            out.append({"\u2013": "-", "\u2014": "-", "\u2019": "'", "\u2018": "'",
                        "\u201c": '"', "\u201d": '"', "\u2192": "->"}.get(ch, "?"))
    return "".join(out)


def money(cents: int, sign: bool = False) -> str:
    """`$9.50`, `-$25.00`; with `sign`, `+$9.50` for a gain (as app.core.settlement.money)."""
    text = f"${abs(cents) // 100:,}.{abs(cents) % 100:02d}"
    if cents < 0:
        return "-" + text
    return ("+" + text) if sign and cents > 0 else text


def _wrap(text: str, width: int, indent: str = "", then: str | None = None) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent,
                         subsequent_indent=indent if then is None else then,
                         break_on_hyphens=False) or [indent.rstrip()]


def _two(left: str, right: str, width: int) -> list[str]:
    """`left` and `right` on one line, `right` flush right; on two lines if they don't fit."""
    if len(left) + 1 + len(right) <= width:
        return [left + right.rjust(width - len(left))]
    lines = _wrap(left, width, "", INDENT)
    return lines + [right.rjust(width)]


def _field(label: str, value: str, width: int, pad: int = 10) -> list[str]:
    """`Label     value`, the value wrapped under itself."""
    return _wrap(value, width, label.ljust(pad), " " * pad)


def _money_line(wager: str, comm: str, net: str, width: int) -> list[str]:
    left = INDENT + wager
    line = left.ljust(max(len(INDENT) + 16, len(left) + 2)) + comm
    if len(line) + 2 + len(net) <= width:
        return [line + net.rjust(width - len(line))]
    line = left + "  " + comm
    if len(line) + 2 + len(net) <= width:
        return [line + net.rjust(width - len(line))]
    return [line, net.rjust(width)]


def _title(name: str) -> str:
    return name[:1].upper() + name[1:]


# --- the slip ------------------------------------------------------------------------------

_HOW = {"entered": "entered by the dealer", "secrets": "drawn by the station",
        "device": "sent by the shuffler / dice shaker"}


def _action_text(a: ActionDict) -> str:
    if a["source"] == "dice" and a["dice"]:
        return f"dice {'+'.join(str(d) for d in a['dice'])} = {a['number']}"
    return f"RNG {a['number']}"


def _place(position: int) -> str:
    return "the dealer" if position == 0 else f"seat {position}"


def action_lines(s: SlipDict) -> list[str]:
    """Action: the number and where it landed, how it was found, where it was counted from."""
    a = s["action"]
    return [f"{_action_text(a)} -> {_place(a['position'])}",
            _HOW.get(a["drawn_by"], str(a["drawn_by"])),
            f"counted {a['direction']} from {_place(a['counted_from'])}"]


def bank_text(b: BankDict) -> str:
    if b["player"] is None:
        return "the house"
    return (f"seat {b['player']} with the house (co-bank)" if b["co_bank"]
            else f"seat {b['player']} (player banker)")


def rule_rows(s: SlipDict) -> list[tuple[str, str]]:
    """The rules a dealer or a supervisor checks the slip against."""
    rules = s["rules"]
    rows = []
    for label, key in (("House Way", "house_way"), ("Commission", "commission"),
                       ("Fouls", "foul_penalty"), ("One pile", "asked_house_way"),
                       ("Dragons", "dragons_per_player")):
        value = rules.get(key)
        if isinstance(value, str):
            if key == "foul_penalty":
                value = {"house-way": "reset the House Way",
                         "resplit": "set again by the player"}.get(value, value)
            if key == "asked_house_way":
                value = {"after-the-bank": "House Way set after the bank"}.get(value, value)
            if key == "dragons_per_player":
                value = f"up to {value} per player"
            rows.append((label, value))
    return rows


def forfeits(p: PositionDict) -> bool:
    """A fouled hand that lost without being played (the foul forfeits)."""
    return bool(p["foul"]) and p["front"] is None and p["outcome"] == "lose"


def set_by_text(p: PositionDict) -> str:
    """Who set the hand, and the House Way rule that set it."""
    rule = p["house_way_rule"]
    if rule and p.get("house_way_says"):  # the rule's id with its words, never bare
        rule = f"{rule}: {p['house_way_says']}"
    match p["set_by"]:
        case "player":
            return "Set by the player" + (": FOUL" if forfeits(p) else "")
        case "house-way":
            return f"House Way {rule}" if rule else "House Way"
        case "reset":
            return (f"FOUL, reset to House Way {rule}" if rule
                    else "FOUL, reset to the House Way")
        case "after-bank":  # the player asked; the seven cards waited in one pile
            way = f"House Way {rule}" if rule else "House Way"
            return f"Set by the dealer after the bank, {way}"
    return ""


def versus_text(p: PositionDict) -> str:
    """How the low and the high hand did against the bank's: `copy | win`, or FOUL."""
    if forfeits(p):
        return "FOUL"
    return f"{p['front']} | {p['back']}" if p["front"] and p["back"] else ""


def result_text(p: PositionDict) -> str:
    return ({"bank": "BANK", "mucked": "MUCKED"}.get(p["role"])
            or (p["outcome"] or "").upper())


def position_notes(p: PositionDict) -> list[str]:
    """What the dealer must know beyond the outcome: a foul, the bank running out."""
    notes = []
    if p["foul"]:
        notes.append(("The hand forfeits: " if forfeits(p) else "Foul: ") + p["foul"] + ".")
    if p["role"] == "dealer":
        notes.append("The house's hand against the player bank: settled first.")
    if p["outcome"] == "returned" or (p["outcome"] == "win"
                                      and p["win_cents"] < p["wager_cents"]):
        notes.append(_title(p["note"]) + ".")
    return notes


def played(p: PositionDict) -> bool:
    return p["role"] != "mucked" and p["low"] is not None and p["high"] is not None


def _position(p: PositionDict, w: int) -> list[PrintLine]:
    out = [PrintLine(t, Style.BOLD) for t in _two(_title(p["name"]), result_text(p), w)]
    if not played(p):
        out += [PrintLine(t) for t in _wrap(p["cards"] + "  (not played)", w, INDENT)]
        return out
    out += [PrintLine(t) for t in _two(f"{INDENT}{p['low']} | {p['high']}", versus_text(p), w)]
    out += [PrintLine(t) for t in _wrap(set_by_text(p), w, INDENT)]
    for note in position_notes(p):
        out += [PrintLine(t) for t in _wrap(note, w, INDENT)]
    if p["role"] == "bank":
        return out
    out += [PrintLine(t) for t in _money_line(
        f"Wager {money(p['wager_cents'])}", f"Comm {money(p['commission_cents'])}",
        f"Net {money(p['net_cents'], sign=True)}", w)]
    return out


def _bonus(bonus: BonusDict, w: int) -> list[PrintLine]:
    """The bonus and envy a seat at a time, in the order paid, in the core's words
    (`bonus_groups`, as the felt shows them): the seat's net, then each line and what it
    paid, and who approved a line that waited for a supervisor."""
    out = [PrintLine("-" * w)]
    card = bonus["pay_card"] + (f", envy {bonus['envy_card']}" if bonus["envy_card"] else "")
    out += [PrintLine(x, Style.BOLD) for x in _two("BONUS", card, w)]
    for group in bonus_groups(bonus):
        out += [PrintLine(t, Style.BOLD) for t in _two(
            _title(group.title), money(group.net, sign=True), w)]
        for x in group.lines:
            out += [PrintLine(t) for t in _beside(x.words, money(x.amount, sign=True), w)]
            if x.approved:
                out += [PrintLine(t) for t in _wrap(x.approved, w, INDENT * 2)]
    return out


def _progressive(progressive: ProgressiveDict, w: int) -> list[PrintLine]:
    """Each seat's progressive wager, and a hit's hand and what the meter paid, in the
    core's words (`progressive_line_words`, as the felt shows them)."""
    out = [PrintLine("-" * w)]
    out += [PrintLine(x, Style.BOLD) for x in _two(
        "PROGRESSIVE", f"wagers {money(progressive['wagers_cents'])}", w)]
    for x in progressive["lines"]:
        paid = "" if x["paid_cents"] is None else money(x["paid_cents"], sign=True)
        style = Style.BOLD if x["category"] is not None else Style.NORMAL
        out += [PrintLine(t, style) for t in _beside(progressive_line_words(x), paid, w)]
    return out


def _beside(words: str, amount: str, w: int) -> list[str]:
    """Indented words, wrapped, and the amount flush right on their last line (or under)."""
    lines = _wrap(words, w, INDENT, INDENT * 2)
    if len(lines[-1]) + 2 + len(amount) <= w:
        return [*lines[:-1], lines[-1] + amount.rjust(w - len(lines[-1]))]
    return [*lines, amount.rjust(w)]


def _amounts(rows: Sequence[tuple[str, str]], w: int) -> list[PrintLine]:
    out: list[PrintLine] = []
    for label, value in rows:
        out += [PrintLine(t) for t in _two(label, value, w)]
    return out


def styled_lines(slip: object, columns: int = 42, *, time: datetime | None = None,
                 mark: str | None = None) -> list[PrintLine]:
    """The slip for paper `columns` wide, each line with its style.

    `time` is printed as given (its own time zone; default: the slip's `settled_at`);
    `mark` goes under the title (lines split at newlines), for a reprint or a slip printed
    late.
    """
    if columns < 32:
        raise ValueError(f"a slip needs at least 32 columns, not {columns}")
    s = read_slip(slip)
    w = columns
    when = time if time is not None else slip_time(s)
    b, t = s["bank"], s["totals"]
    direction = str(s["action"]["direction"])
    out = [PrintLine("=" * w), PrintLine(TITLE.center(w).rstrip(), Style.TITLE)]
    if mark:
        out += [PrintLine(x.center(w).rstrip(), Style.BOLD)
                for part in mark.split("\n") for x in _wrap(ascii_text(part), w)]
    out.append(PrintLine("=" * w))
    out += [PrintLine(x, Style.BOLD) for x in _two(f"Table {s['table']}",
                                                   f"Round {s['round']}", w)]
    if when is not None:
        out += [PrintLine(x) for x in _two("Time", when.strftime("%Y-%m-%d %H:%M:%S"), w)]
    action = action_lines(s)
    out += [PrintLine(x) for x in _field("Action", action[0], w)]
    for more in action[1:]:
        out += [PrintLine(x) for x in _field("", more, w)]
    out += [PrintLine(x) for x in _field("Bank", bank_text(b), w)]
    out.append(PrintLine("-" * w))
    out += [PrintLine(x) for x in _two(f"{_title(direction)} from action", "hands low | high", w)]
    out.append(PrintLine("-" * w))
    for p in s["positions"]:
        out += _position(p, w)
    if b["player"] is not None:
        out.append(PrintLine("-" * w))
        who = f"seat {b['player']}" + (" and the house" if b["co_bank"] else "")
        out += [PrintLine(x, Style.BOLD) for x in _two("PLAYER BANKER", who, w)]
        rows = [("Bank at start" + (" (both halves)" if b["co_bank"] else ""),
                 money(b["stake_cents"] or 0)),
                ("Collected from losers", money(b["collected_cents"])),
                ("Paid to winners", money(b["paid_cents"]))]
        if b["co_bank"]:
            rows.append(("House's half of the result", money(b["house_share_cents"], True)))
        rows += [("Banker's commission", money(b["commission_cents"])),
                 (f"Seat {b['player']} net", money(b["net_cents"], sign=True))]
        out += _amounts(rows, w)
        if b["exhausted"]:
            out += [PrintLine(x) for x in _wrap(
                "The bank ran out: the winners after it had their wagers returned.", w)]
    bonus = s.get("bonus")
    if bonus is not None:
        out += _bonus(bonus, w)
    progressive = s.get("progressive")
    if progressive is not None:
        out += _progressive(progressive, w)
    out.append(PrintLine("=" * w))
    out.append(PrintLine("TOTALS", Style.BOLD))
    rows = [("Wagers", money(t["wagers_cents"])),
            ("Commission", money(t["commission_cents"])),
            ("Players net", money(t["players_net_cents"], sign=True))]
    if b["player"] is not None:
        rows.append((f"Player banker (seat {b['player']}) net",
                     money(t["banker_net_cents"], sign=True)))
    out += _amounts(rows, w)
    out += [PrintLine(x, Style.BOLD) for x in _two("House net",
                                                   money(t["house_net_cents"], sign=True), w)]
    if bonus is not None:  # the bonus is the house's alone, apart from the Pai Gow money
        out += _amounts([("Bonus wagers", money(bonus["wagers_cents"])),
                         ("Bonus players net", money(bonus["net_cents"], sign=True))], w)
        out += [PrintLine(x, Style.BOLD) for x in _two(
            "Bonus house net", money(-bonus["net_cents"], sign=True), w)]
    out.append(PrintLine("-" * w))
    left = s["leftovers"] + ("" if s["leftovers_counted"] else " (not read: the cards not dealt)")
    out += [PrintLine(x) for x in _field("Leftovers", left, w, 11)]
    for label, value in rule_rows(s):
        out += [PrintLine(x) for x in _field(label, value, w, 11)]
    if isinstance(s.get("ledger_head"), str):
        # the ledger's chain head as the station last saw it: an auditor checks it with
        # `paigow ledger verify --head CODE` (a slip cannot hold its own round's hash)
        out.append(PrintLine("-" * w))
        out += [PrintLine(x) for x in _field("Ledger", s["ledger_head"], w, 11)]
    out.append(PrintLine("=" * w))
    return [PrintLine(x.text.rstrip(), x.style) for x in out]


def slip_lines(slip: object, columns: int = 42, *, time: datetime | None = None,
               mark: str | None = None) -> list[str]:
    """The slip as plain text lines for paper `columns` wide (42 or 48)."""
    return [x.text for x in styled_lines(slip, columns, time=time, mark=mark)]


def slip_text(slip: object, columns: int = 42, *, time: datetime | None = None,
              mark: str | None = None) -> str:
    return "\n".join(slip_lines(slip, columns, time=time, mark=mark)) + "\n"
