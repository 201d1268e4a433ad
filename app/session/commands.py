"""Every dealer command, declared once: its keys, its words, when it is available (and why
not), and what it does. The keyboard map, the buttons, the help overlay (F1), the "Next:"
line and the tests read this registry; adding a command is one entry.

`available(session)` is None when the command may be done now, else the reason in the
dealer's words (the core's `verify_x` answer, or the table's procedure around it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.round import Phase
from app.core.table import CARDS_PER_HAND, position_name

from . import entry, steps
from .checks import verify
from .entry import CARD_TEXT, DICE, MONEY, Field

if TYPE_CHECKING:
    from .changes import Changes
    from .session import DealerSession

Step = Callable[["DealerSession", str, "int | None"], None]


@dataclass(frozen=True)
class Command:
    """One dealer command.

    `keys`: each key and the text it sends ("3" selects seat 3); `label`: the keys as the
    help shows them; `words`: what it does, as the dealer reads it; `button`: the button's
    text (None: a key only); `field`: the field its key opens, what it takes and for which
    position (entry.py; Enter runs the command with the text, Esc leaves it); `check`: the
    name of its check in checks.py (None: always available); `step`: what it does;
    `direct`: for a command with a field, when its key acts without the field.
    """

    id: str
    keys: tuple[tuple[str, str], ...]
    label: str
    words: str
    step: Step
    check: str | None = None
    button: str | None = None
    field: Field | None = None
    direct: Callable[[DealerSession], bool] | None = None

    def available(self, s: DealerSession) -> str | None:
        """None if it may be done now, else why not."""
        from .session import DEALER_ERRORS
        if self.check is None:
            return None
        try:
            verify(s, self.check)
        except DEALER_ERRORS as e:
            return str(e)
        return None

    def do(self, s: DealerSession, text: str = "", draw: int | None = None) -> None:
        self.step(s, text, draw)

    def run(self, s: DealerSession, text: str = "") -> Changes:
        """Do it through the session (checked, recorded): what changed."""
        from .events import DealerCommand
        return s.handle(DealerCommand(self.id, text))


def _select_step(by: int) -> Step:
    return lambda s, _t, _d: steps.select_step(s, by)


def _show(view: str) -> Step:
    return lambda s, _t, _d: s.show(view)


def _shift(s: DealerSession, text: str, _d: int | None) -> None:
    if text.strip():
        steps.open_shift(s, text)
    else:
        s.show("dealer")  # the window asks the dealer's name


SEATS = tuple((str(n), str(n)) for n in range(1, 7))

COMMANDS: tuple[Command, ...] = (
    Command("new", (("N", ""),), "N", "new round",
            lambda s, _t, _d: steps.new_round(s), "new", "New round"),
    Command("select", SEATS, "1-6", "select seat 1-6",
            lambda s, t, _d: steps.select(s, t)),
    Command("select_dealer", (("7", "7"), ("0", "7")), "7 (or 0)",
            "select the dealer's position", lambda s, _t, _d: steps.select(s, "7")),
    Command("select_previous", (("Left", ""),), "Left", "select the position before",
            _select_step(-1)),
    Command("select_next", (("Right", ""),), "Right", "select the position after",
            _select_step(1)),
    Command("bank", (("B", ""),), "B",
            "the seat offered the bank takes it: type the chips, Enter",
            lambda s, t, _d: steps.take_bank(s, t), "bank", "Take bank",
            Field("bank", MONEY, "bank's chips", "500", whose="bank", money=True)),
    Command("pass", (("Q", ""),), "Q", "the seat offered the bank (or the dragon) passes",
            lambda s, _t, _d: steps.pass_offer(s), "pass", "Pass"),
    Command("pass_all", (("Shift+Q", ""),), "Shift+Q",
            "every seat still to be asked passes the bank (or the dragon)",
            lambda s, _t, _d: steps.pass_all(s), "pass", "Everyone passes"),
    Command("co_bank", (("K", ""),), "K", "co-bank with the house on / off (tables that "
            "co-bank)", lambda s, _t, _d: steps.toggle_co_bank(s), "co_bank", "Co-bank"),
    Command("wager", (("W", ""),), "W", "type the selected seat's wager, Enter",
            lambda s, t, _d: steps.place_wager(s, t), "wager", "Place wager",
            Field("wager", MONEY, "wager", "25 or 25.50", money=True, moves=True)),
    Command("confirm", (("Enter", "enter"), ("Y", "y")), "Enter / Y",
            "yes: set the wager asked about (one far above the seat's last wager); Esc: no",
            lambda s, t, _d: steps.confirm_wager(s, t), "confirm"),
    Command("withdraw", (("X", ""),), "X", "take back the selected seat's wager",
            lambda s, _t, _d: steps.withdraw_wager(s), "withdraw", "Take back"),
    Command("rng", (("R", ""),), "R",
            "action from the station's RNG, or the action the shuffler sent",
            lambda s, _t, d: steps.rng_action(s, d), "rng", "RNG action"),
    Command("dice", (("D", ""),), "D", "type the three dice, Enter",
            lambda s, t, _d: steps.dice_action(s, t), "dice", "Dice action",
            Field("dice", DICE, "three dice", "3 5 6", whose="")),
    Command("cards", (("C", ""),), "C",
            "shoe offline: type the selected position's cards, Enter",
            lambda s, t, _d: steps.enter_cards(s, t), "cards", "Enter cards",
            Field("cards", CARD_TEXT, "cards", "AS KD 10H 7C 7D 2S JK")),
    Command("deal_done", (("E", ""),), "E",
            "deal complete: the shoe read the 49 cards but not the 4 left over",
            lambda s, _t, _d: steps.deal_complete(s), "deal_done", "Deal complete"),
    Command("dragon", (("G", ""),), "G",
            "the seat offered the dragon takes it: its wager (filled in), Enter",
            lambda s, t, _d: steps.take_dragon(s, t), "dragon", "Take dragon",
            Field("dragon", MONEY, "dragon wager", "25", whose="dragon", money=True,
                  prefill=steps.dragon_suggestion)),
    Command("front", (("F", ""),), "F",
            "set the front: the two clicked cards, or type them, Enter",
            lambda s, t, _d: steps.set_front(s, t), "front", "Set front",
            Field("front", CARD_TEXT, "front (two cards)", "KS 9H"),
            direct=lambda s: len(s.picks) == 2),
    Command("house_way", (("H", ""),), "H", "House Way for the selected position",
            lambda s, _t, _d: steps.house_way(s), "house_way", "House Way"),
    Command("show_house_way", (("A", ""),), "A",
            "the player asks the house: show the House Way, without setting it",
            lambda s, _t, _d: steps.show_house_way(s), "show_house_way", "Show House Way"),
    Command("settle", (("S", ""),), "S", "settle",
            lambda s, _t, _d: steps.settle(s), "settle", "Settle"),
    Command("print", (("P", ""),), "P",
            "print the slip (after a printer failure: print the kept slip)",
            lambda s, _t, _d: steps.print_slip(s), "print", "Print slip"),
    Command("reprint", (("Shift+P", ""),), "Shift+P",
            "reprint: the kept slips, or this round's slip again marked REPRINT",
            lambda s, _t, _d: steps.reprint(s), "reprint", "Reprint"),
    Command("shoe", (("O", ""),), "O", "demo: shoe unplugged / plugged in",
            lambda s, _t, _d: steps.toggle_shoe(s), "shoe", "Shoe on/off"),
    Command("help", (("F1", ""),), "F1", "every key and what it does now", _show("help")),
    Command("pit", (("F2", ""),), "F2",
            "the pit supervisor's view (F2 or Esc closes it): who may bank, the history, "
            "void and correct (PIN)", _show("pit")),
    Command("shift", (("F3", ""),), "F3",
            "the dealer at the table: type the name, Enter (a new shift in the ledger)",
            _shift, "shift"),
    Command("escape", (("Esc", ""),), "Esc",
            "leave a field (nothing set), drop picked cards, say no to a wager asked about",
            lambda s, _t, _d: steps.escape(s)),
    Command("misdeal", (("Shift+M", ""),), "Shift+M",
            "misdeal (a supervisor, in the pit view): the deal ends, every wager goes back",
            lambda s, _t, _d: steps.ask_misdeal(s), "misdeal"),
)

COMMANDS_BY_ID = {c.id: c for c in COMMANDS}


def keymap() -> dict[str, tuple[Command, str]]:
    """Every key: the command it runs and the text it sends."""
    return {key: (c, text) for c in COMMANDS for key, text in c.keys}


def press(s: DealerSession, key: str) -> bool:
    """A key (docs/keyboard.md). While a wager waits for a yes only Enter, Y and Esc answer;
    while a field is open the key is typed into it or refused (entry.py); else the key's
    command runs, or opens its field (or says why not)."""
    if s.asking is not None and key not in entry.VIEWS:
        return _answer(s, key)
    if s.entry is not None and key not in entry.VIEWS:
        return entry.key(s, key)
    bound = keymap().get(key)
    if bound is None:
        if len(key) == 1 and key in MONEY:  # a number with no field open types nowhere
            s.say(f"{key} is not a position and no field is open, so it is typed nowhere: "
                  f"1-6 select a seat, 7 the dealer; W opens the selected seat's wager.",
                  "warn")
        else:
            s.say(f"{key} does nothing here: F1 lists every key", "warn")
        return False
    command, text = bound
    if command.field is not None and not (command.direct and command.direct(s)):
        reason = command.available(s)
        if reason is not None:
            s.say(reason, "warn")
            return False
        entry.open_entry(s, command.id, command.field)
        return True
    return s.run(lambda: command.do(s, text))


def _answer(s: DealerSession, key: str) -> bool:
    """A wager far above the seat's last waits for a yes (Enter, Y) or a no (Esc)."""
    asking = s.asking
    assert asking is not None
    if key in ("Enter", "Y", "Esc"):
        command, text = keymap()[key]
        return s.run(lambda: command.do(s, text))
    s.say(f"{asking.words()} ({key} does nothing until then.)", "warn")
    return False


@dataclass(frozen=True)
class HelpRow:
    key: str
    words: str
    why_not: str | None  # None: it may be done now


def help_rows(s: DealerSession) -> tuple[HelpRow, ...]:
    """F1: every key, what it does, and whether (or why not) it may be done now."""
    return tuple(HelpRow(c.label, c.words, c.available(s)) for c in COMMANDS)


def availability(s: DealerSession) -> dict[str, str | None]:
    """Each button's command: None if it may be pressed now, else why not (its tooltip)."""
    return {c.id: c.available(s) for c in COMMANDS if c.button is not None}


def next_line(s: DealerSession) -> str:
    """What the dealer does next, in a line."""
    from .feed import DEALT, DECK_SIZE
    rnd = s.round
    if rnd is None:
        return "Next: N opens a round."
    match rnd.phase:
        case Phase.BETTING:
            offered = s.bank_offered()
            if offered is not None:
                return (f"Next: the bank is offered to seat {offered}: B and the chips to "
                        f"take it, Q to pass (Shift+Q: every seat left passes).")
            if not rnd.wagers:
                return "Next: select a seat (1-6), W, type the wager, Enter."
            return f"Next: more wagers, or action: {s.action_key(rnd)}."
        case Phase.DEALING:
            if s.shoe_online or (s.stream and not s.manual):
                read = len(s.stream)
                if read >= DEALT and s.leftovers is None:
                    return (f"Next: the {DEALT} cards dealt are read; waiting for the 4 left "
                            f"over (BURN) - E if this shoe does not read them.")
                return f"Next: deal; the shoe has read {read} of {DECK_SIZE}."
            dealing = s.dealing()
            short = [position_name(p) for p in rnd.table.around(rnd.action.position)
                     if len(dealing.get(p, ())) < CARDS_PER_HAND] if rnd.action else []
            return "Next: shoe offline - C and type the cards of " + ", ".join(short) + "."
        case Phase.SETTING:
            offered = s.dragon_offered()
            if offered is not None:
                return (f"Next: the dragon is offered to seat {offered}: G and Enter to take "
                        f"it, Q to pass (Shift+Q: no one takes it).")
            piles = rnd.piles()
            if rnd.can_settle():
                return ("Next: S settles (the dealer's hand is set the House Way"
                        + (", then the hands in one pile" if piles else "") + ").")
            pile_words = (" In one pile, set after the bank: " + ", ".join(
                position_name(p) for p in piles) + ".") if piles else ""
            return ("Next: set " + ", ".join(position_name(p) for p in steps.to_set(s))
                    + ": click two front cards then F, or H for the House Way (A shows it "
                      "first)." + pile_words)
        case Phase.MISDEAL:
            return f"Next: misdeal - take action again: {s.action_key(rnd)}."
    if (s.printer is not None and s.printer.attached and rnd.slip is not None
            and s.slip_printed != "printed"):
        return "Next: P prints the slip; then N opens the next round."
    return "Next: N opens the next round."


def misdeal_blocked(s: DealerSession) -> str | None:
    """Why no misdeal can be called now (None: a deal is under way or dealt, not settled)."""
    from .session import DEALER_ERRORS
    try:
        verify(s, "misdeal")
    except DEALER_ERRORS as e:
        return str(e)
    return None


def void_blocked(s: DealerSession) -> str | None:
    """Why the supervisor cannot void now (None: a round is in play)."""
    rnd = s.round
    if rnd is None or rnd.phase is Phase.SETTLED:
        return "there is no round in play to void"
    return None
