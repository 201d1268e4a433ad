"""A key pressed (docs/keyboard.md): while a wager waits for a yes only Enter, Y and Esc
answer; while a field is open the key is typed into it or refused; else the key's command
of the registry runs, or opens its field (or says why not).
"""

from __future__ import annotations

from app.core.table import DEALER

from . import same_wagers, steps
from .commands import COMMANDS_BY_ID, keymap
from .keyboard import MONEY, VIEWS, Field, Held, key_char
from .parts import Parts
from .procedure import field_words, open_field, show_field


def press(p: Parts, key: str) -> bool:
    """A key; whether it did something."""
    keyboard = p.keyboard
    if keyboard.asking is not None and key not in VIEWS:
        return _answer(p, key)
    if keyboard.same is not None and key not in VIEWS:
        return same_wagers.answer(p, key)
    if keyboard.entry is not None and key not in VIEWS:
        return _in_field(p, key)
    bound = keymap().get(key)
    held = keyboard.held
    if held is not None and key not in VIEWS:
        if key in ("Esc", "Enter"):  # read: the keys are the table's again
            keyboard.held = None
            return key == "Esc" and p.out.attempt(lambda: steps.escape(p))
        char = key_char(key)
        if bound is None or (char is not None and char in held.takes):
            shown = "a space" if key == "Space" else key
            p.say(f"{held.text} ({shown} is not used: Esc or Enter once this is read, then "
                  f"the keys work again.)", held.level)
            return False
        keyboard.held = None
    if bound is None:
        if len(key) == 1 and key in MONEY:  # a number with no field open types nowhere
            p.say(f"{key} is not a position and no field is open, so it is typed nowhere: "
                  f"1-6 select a seat, 7 the dealer; W opens the selected seat's wager.",
                  "warn")
        else:
            p.say(f"{key} does nothing here: F1 lists every key", "warn")
        return False
    command, text = bound
    if command.field is not None and not (command.direct and command.direct(p)):
        reason = command.available(p)
        if reason is not None:
            # the dice or the cards meant for the field must not run as keys (a die's 3
            # would select seat 3, a card's S settle); an amount's digits are let through,
            # as a dealer who reads the refusal picks another seat by its key
            p.say(reason, "warn")
            keyboard.held = Held(reason, "warn", command.field.takes
                                 if command.field.name in ("dice", "cards") else "")
            return False
        prefill = command.prefill(p) if command.prefill is not None else ""
        open_field(p, command.id, command.field, prefill)
        return True
    done = p.out.attempt(lambda: command.do(p, text))
    if not done and p.level == "error":  # a refusal stays until read
        keyboard.held = Held(p.message, p.level)
    return done


def _answer(p: Parts, key: str) -> bool:
    """A wager far above the seat's last waits for a yes (Enter, Y) or a no (Esc)."""
    asking = p.keyboard.asking
    assert asking is not None
    if key in ("Enter", "Y", "Esc"):
        command, text = keymap()[key]
        return p.out.attempt(lambda: command.do(p, text))
    p.say(f"{asking.words()} ({key} does nothing until then.)", "warn")
    return False


def _in_field(p: Parts, key: str) -> bool:
    """A key while a field is open. Returns whether it did something."""
    e = p.keyboard.entry
    assert e is not None
    if key == "Enter":
        return _commit(p)
    if key == "Esc":
        p.keyboard.close()
        steps.escape(p)
        p.say(f"Nothing set: {field_words(e)} is left and cleared.", "info")
        return True
    if key == "Backspace":
        e.backspace()
        show_field(p)
        return True
    if key in ("Left", "Right") and e.field.moves:
        _move(p, -1 if key == "Left" else 1)
        return True
    char = key_char(key)
    if char is not None and char in e.field.takes:
        e.type(char)
        show_field(p)
        return True
    shown = key if key != "Space" else "a space"
    p.say(f"{shown} is not typed into {field_words(e)} and does nothing while it is "
          f"open: it takes {_takes_words(e.field)}. Enter sets it, Esc leaves it.", "warn")
    return False


def _move(p: Parts, by: int) -> None:
    """Left/Right in a wager's field: the seat before/after that may wager; the amount
    stays."""
    e = p.keyboard.entry
    assert e is not None
    rnd = p.play.need_round()
    start = e.position if e.position is not None else DEALER
    nxt = p.table.step(start, by)
    while nxt in (DEALER, rnd.bank.player) and nxt != start:
        nxt = p.table.step(nxt, by)
    p.keyboard.select(nxt)
    e.move(nxt)
    show_field(p)


def _commit(p: Parts) -> bool:
    """Enter: the command runs with the text typed; the field closes whatever the answer."""
    e = p.keyboard.close()
    assert e is not None
    if (e.position is not None and e.field.whose == "selected"
            and e.position != p.keyboard.selected):
        p.keyboard.select(e.position)
    command = COMMANDS_BY_ID[e.command]
    return p.out.attempt(lambda: command.do(p, e.text, None))


def _takes_words(field: Field) -> str:
    if field.money:
        return f"the amount only: digits and a point, like {field.example}"
    return f"{field.what}, like {field.example}"
