"""The dealer's hands on the keyboard: the position selected, the field a command's key
opened and the text typed in it, a wager waiting for a yes, and the cards picked for a
front with their preview. The model is docs/keyboard.md; what each key does in a field is
press.py, the line that shows what Enter will set is procedure.py.

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
from dataclasses import dataclass

from app.core.cards import Card, cards_text
from app.core.round import HandReturned, HandSet
from app.core.table import Table

from .wager_limits import Asking, SameWagers

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
    `moves` Left/Right (and a click on a seat) move it to another seat, `example` what a
    dealer types in it. (The text it opens with is its command's `prefill`.)"""

    name: str
    takes: str
    what: str
    example: str
    whose: str = "selected"
    money: bool = False
    moves: bool = False


# C's field: named here, as a refused card opens it again with the rest of the line
CARDS_FIELD = Field("cards", CARD_TEXT, "cards", "AS KD 10H 7C 7D 2S JK")


@dataclass(frozen=True)
class Held:
    """A refusal kept on screen until read (Esc or Enter): `takes` the characters of the
    field that did not open (the dice, an amount), which are then not run as keys."""

    text: str
    level: str
    takes: str = ""


@dataclass
class Entry:
    """The field open now: its command, the position it sets, the text typed."""

    command: str
    field: Field
    position: int | None
    text: str = ""
    fresh: bool = False  # the text is the prefill: the first character typed replaces it

    def type(self, char: str) -> None:
        self.text = char if self.fresh else self.text + char
        self.fresh = False

    def backspace(self) -> None:
        self.text = "" if self.fresh else self.text[:-1]
        self.fresh = False

    def move(self, position: int) -> None:
        self.position = position


def key_char(key: str) -> str | None:
    """The character a key types ("Shift+S" types S, "Space" a space), or None."""
    if key == "Space":
        return " "
    key = key.removeprefix("Shift+")
    return key.upper() if len(key) == 1 else None


class Keyboard:
    """The position selected, the field open, the wager asked about, the front picked."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.selected: int | None = None
        self.entry: Entry | None = None  # the field open now and the text typed in it
        self.asking: Asking | None = None  # a wager far above the last, waiting for a yes
        self.same: SameWagers | None = None  # last round's wagers shown, waiting for Enter
        self.held: Held | None = None  # a refusal on screen until read
        self.picks: list[Card] = []
        self.preview: HandSet | HandReturned | None = None
        self.preview_error: str | None = None
        self.front_text = ""

    def select(self, position: int) -> None:
        self.table.verify_position(position)
        if position != self.selected:
            self.clear_picks()
        self.selected = position

    def deselect(self) -> None:
        self.selected = None

    def clear_picks(self) -> None:
        self.picks, self.preview, self.preview_error = [], None, None
        self.front_text = ""

    def reset(self) -> None:
        """A round opened, taken back or ended: no field open, no wager asked about."""
        self.entry, self.asking, self.same = None, None, None

    # --- the field -----------------------------------------------------------------------------

    def open(self, command: str, field: Field, position: int | None, text: str) -> None:
        self.entry = Entry(command, field, position, text, fresh=bool(text))
        self.held = None

    def close(self) -> Entry | None:
        """The field is left (or committed): which it was."""
        was, self.entry = self.entry, None
        return was

    # --- the wager asked about -------------------------------------------------------------------

    def ask(self, asking: Asking) -> None:
        self.asking = asking

    def answered(self) -> Asking | None:
        """The wager asked about is answered (set, or not): which it was."""
        was, self.asking = self.asking, None
        return was

    # --- the front picked ---------------------------------------------------------------------

    def pick(self, c: Card) -> None:
        """A card clicked for the front: picked, or unpicked; two at most, the oldest out."""
        if c in self.picks:
            self.picks.remove(c)
        else:
            self.picks.append(c)
            if len(self.picks) > 2:
                self.picks.pop(0)
        self.front_text = cards_text(self.picks)

    def typed_front(self, text: str) -> None:
        self.front_text = text

    def picked(self, cards: list[Card]) -> None:
        self.picks = cards[:2]

    def unpick(self, error: str) -> None:
        """The front typed is no cards: nothing picked, and why."""
        self.picks, self.preview, self.preview_error = [], None, error

    def previewed(self, preview: HandSet | HandReturned | None, error: str | None) -> None:
        self.preview, self.preview_error = preview, error
