"""The dealer's typing: a field opened by a command's key, what each key does in it, and the
line that shows what Enter will set before it is set. The model is docs/keyboard.md.

The session holds the text typed (not a widget), so every driver of the session types the
same way and a recorded session replays key by key. A field is opened only by its command
(its key or its button) and closed by Enter (which runs the command with the text) or Esc
(nothing set); after either no field is open and a key is a command again.

In a field a key is typed only if the field takes it (a money field: digits, the point, the
comma and the dollar sign); any other key is not typed and runs nothing, and the dealer is
told so. Backspace takes back the last character; Left and Right move a wager's field to
the seat before or after (the amount stays, the line names the new seat).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.settlement import MoneyError, money, parse_money
from app.core.table import DEALER, TableError

from . import words
from .wager_limits import asking_for, verify_wager

if TYPE_CHECKING:
    from .session import DealerSession

MONEY = string.digits + ".,$"
DICE = string.digits + " ,"
CARD_TEXT = string.digits + string.ascii_uppercase + " ,\u2660\u2665\u2666\u2663"
# Keys a field never takes but that are no mistake in one: they only open a view.
VIEWS = ("F1", "F2")


@dataclass(frozen=True)
class Field:
    """The field a command of the registry opens: `name` the panel's field that shows it,
    `takes` the characters typed into it, `what` what is typed (the dealer's words),
    `whose` the position it sets ("selected", "bank": the seat offered the bank, "dragon":
    the seat offered the dragon, "": none), `money` an amount (shown as "Seat N: $X.XX"),
    `moves` Left/Right (and a click on a seat) move it to another seat, `prefill` the text
    it opens with (typing replaces it), `example` what a dealer types in it."""

    name: str
    takes: str
    what: str
    example: str
    whose: str = "selected"
    money: bool = False
    moves: bool = False
    prefill: Callable[[DealerSession], str] | None = None


@dataclass
class Entry:
    """The field open now: its command, the position it sets, the text typed."""

    command: str
    field: Field
    position: int | None
    text: str = ""
    fresh: bool = False  # the text is the prefill: the first character typed replaces it


def _key_char(key: str) -> str | None:
    """The character a key types ("Shift+S" types S, "Space" a space), or None."""
    if key == "Space":
        return " "
    key = key.removeprefix("Shift+")
    return key.upper() if len(key) == 1 else None


def _whose(s: DealerSession, field: Field) -> int | None:
    if field.whose == "bank":
        return s.bank_offered()
    if field.whose == "dragon":
        return s.dragon_offered()
    if field.whose == "selected":
        return s.selected
    return None


def open_entry(s: DealerSession, command: str, field: Field) -> None:
    """The command's key (or button): its field opens for its position."""
    text = field.prefill(s) if field.prefill is not None else ""
    s.entry = Entry(command, field, _whose(s, field), text, fresh=bool(text))
    s.show(f"field:{field.name}")  # the window marks the field open
    show(s)


def close(s: DealerSession) -> None:
    s.entry = None


def key(s: DealerSession, key: str) -> bool:
    """A key while a field is open. Returns whether it did something."""
    e = s.entry
    assert e is not None
    if key == "Enter":
        return commit(s)
    if key == "Esc":
        from . import steps
        close(s)
        steps.escape(s)
        s.say(f"Nothing set: {_field_words(s, e)} is left and cleared.", "info")
        return True
    if key == "Backspace":
        e.text = "" if e.fresh else e.text[:-1]
        e.fresh = False
        show(s)
        return True
    if key in ("Left", "Right") and e.field.moves:
        move(s, -1 if key == "Left" else 1)
        return True
    char = _key_char(key)
    if char is not None and char in e.field.takes:
        e.text = char if e.fresh else e.text + char
        e.fresh = False
        show(s)
        return True
    shown = key if key != "Space" else "a space"
    s.say(f"{shown} is not typed into {_field_words(s, e)} and does nothing while it is "
          f"open: it takes {_takes_words(e.field)}. Enter sets it, Esc leaves it.", "warn")
    return False


def move(s: DealerSession, by: int) -> None:
    """Left/Right in a wager's field: the seat before/after that may wager; the amount stays."""
    e = s.entry
    assert e is not None
    rnd = s.need_round()
    start = e.position if e.position is not None else DEALER
    nxt = s.table.step(start, by)
    while nxt in (DEALER, rnd.bank.player) and nxt != start:
        nxt = s.table.step(nxt, by)
    s.select(nxt)
    e.position = nxt
    show(s)


def move_to(s: DealerSession, position: int) -> None:
    """A click on a seat while a field is open: a wager's field moves to it (the amount
    stays); any other field is left, nothing set, as Esc leaves it."""
    e = s.entry
    if e is None:
        return
    if e.field.moves and position != DEALER:
        e.position = position
        return
    close(s)


def commit(s: DealerSession) -> bool:
    """Enter: the command runs with the text typed; the field closes whatever the answer."""
    from .commands import COMMANDS_BY_ID
    e = s.entry
    assert e is not None
    close(s)
    if e.position is not None and e.field.whose == "selected" and e.position != s.selected:
        s.select(e.position)
    command = COMMANDS_BY_ID[e.command]
    text = e.text
    return s.run(lambda: command.do(s, text, None))


# --- what the dealer reads while typing -----------------------------------------------------

def _field_words(s: DealerSession, e: Entry) -> str:
    if e.position is None:
        return e.field.what
    return f"{words.name(e.position)}'s {e.field.what}"


def _takes_words(field: Field) -> str:
    if field.money:
        return f"the amount only: digits and a point, like {field.example}"
    return f"{field.what}, like {field.example}"


def show(s: DealerSession) -> None:
    """The line the dealer reads while typing: what Enter will set, and where."""
    e = s.entry
    assert e is not None
    if e.field.name == "front":
        from .steps import type_front
        type_front(s, e.text)
        if len(s.picks) == 2 and s.preview is not None:
            return  # the preview says whether the front is legal
    if e.field.money:
        text, level = money_line(s, e)
        s.say(text, level)
        return
    where = _field_words(s, e)
    typed = e.text.strip()
    if not typed:
        s.say(f"Type {where}, like {e.field.example}; Enter sets it, Esc leaves it.", "info")
        return
    s.say(f"{where[0].upper()}{where[1:]}: {typed}. Enter sets it, Esc leaves it.", "info")


def money_line(s: DealerSession, e: Entry) -> tuple[str, str]:
    """"Seat N: $X.XX" and what Enter will do with it (set it, refuse it, ask first)."""
    who = words.name(e.position) if e.position is not None else "No seat"
    what = e.field.what
    if not e.text.strip():
        return (f"{who}: type the {what} in dollars (like {e.field.example}); Enter sets it, "
                f"Esc leaves it.", "info")
    try:
        cents = parse_money(e.text)
    except MoneyError:
        return (f"{who}: {e.text} is not an amount yet (like {e.field.example}): Backspace "
                f"corrects it, Esc leaves it.", "warn")
    amount = f"{who}: {money(cents)} {what}"
    if e.command == "wager" and e.position is not None:
        try:
            verify_wager(s, e.position, cents)
        except TableError as why:
            return (f"{amount} - Enter will refuse it: "
                    f"{str(why).removeprefix(f'{who}: ').split(': nothing')[0]}. Backspace "
                    f"corrects it, Esc leaves it.", "warn")
        asking = asking_for(s, e.position, cents)
        if asking is not None:
            return (f"{amount} - far above its last wager of {money(asking.previous)}: Enter "
                    f"asks you to confirm. Esc leaves it.", "warn")
    return f"{amount}. Enter sets it, Esc leaves it.", "info"
