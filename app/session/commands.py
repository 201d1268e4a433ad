"""Every dealer command, declared once: its keys, its words, when it is available (and why
not), and what it does. The keyboard map, the buttons, the help overlay (F1), the "Next:"
line and the tests read this registry; adding a command is one entry.

`available(parts)` is None when the command may be done now, else the reason in the
dealer's words: its `check` (checks.py: the core's `verify_x` answer, or the table's
procedure around it) raised it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.core.round import Phase

from . import checks, progressive, same_wagers, steps
from .checks import Check
from .guide import next_line
from .keyboard import CARD_TEXT, CARDS_FIELD, DICE, MONEY, Field
from .outbox import DEALER_ERRORS
from .parts import Parts
from .procedure import dragon_suggestion

__all__ = ["COMMANDS", "COMMANDS_BY_ID", "Command", "HelpRow", "availability", "help_rows",
           "keymap", "misdeal_blocked", "next_line", "void_blocked"]

Step = Callable[[Parts, str, "int | None"], None]


@dataclass(frozen=True)
class Command:
    """One dealer command.

    `keys`: each key and the text it sends ("3" selects seat 3); `label`: the keys as the
    help shows them; `words`: what it does, as the dealer reads it; `button`: the button's
    text (None: a key only); `field`: the field its key opens, what it takes and for which
    position (keyboard.py; Enter runs the command with the text, Esc leaves it); `check`:
    its check (checks.py; None: always available); `step`: what it does; `direct`: for a
    command with a field, when its key acts without the field; `prefill`: the text its
    field opens with (typing replaces it).
    """

    id: str
    keys: tuple[tuple[str, str], ...]
    label: str
    words: str
    step: Step
    check: Check | None = None
    button: str | None = None
    field: Field | None = None
    direct: Callable[[Parts], bool] | None = None
    prefill: Callable[[Parts], str] | None = None

    def available(self, p: Parts) -> str | None:
        """None if it may be done now, else why not."""
        if self.check is None:
            return None
        try:
            self.check(p)
        except DEALER_ERRORS as e:
            return str(e)
        return None

    def do(self, p: Parts, text: str = "", draw: int | None = None) -> None:
        self.step(p, text, draw)


def _select_step(by: int) -> Step:
    return lambda p, _t, _d: steps.select_step(p, by)


def _show(view: str) -> Step:
    return lambda p, _t, _d: p.out.show(view)


SEATS = tuple((str(n), str(n)) for n in range(1, 7))

COMMANDS: tuple[Command, ...] = (
    Command("new", (("N", ""),), "N", "new round",
            lambda p, _t, _d: steps.new_round(p), checks.new, "New round"),
    Command("select", SEATS, "1-6", "select seat 1-6",
            lambda p, t, _d: steps.select(p, t)),
    Command("select_dealer", (("7", "7"), ("0", "7")), "7 (or 0)",
            "select the dealer's position", lambda p, _t, _d: steps.select(p, "7")),
    Command("select_previous", (("Left", ""),), "Left", "select the position before",
            _select_step(-1)),
    Command("select_next", (("Right", ""),), "Right", "select the position after",
            _select_step(1)),
    Command("bank", (("B", ""),), "B",
            "the seat offered the bank takes it: type the chips, Enter",
            lambda p, t, _d: steps.take_bank(p, t), checks.bank, "Take bank",
            Field("bank", MONEY, "bank's chips", "500", whose="bank", money=True)),
    Command("pass", (("Q", ""),), "Q", "the seat offered the bank (or the dragon) passes",
            lambda p, _t, _d: steps.pass_offer(p), checks.pass_offer, "Pass"),
    Command("pass_all", (("Shift+Q", ""),), "Shift+Q",
            "every seat still to be asked passes the bank (or the dragon)",
            lambda p, _t, _d: steps.pass_all(p), checks.pass_offer, "Everyone passes"),
    Command("co_bank", (("K", ""),), "K", "co-bank with the house on / off (tables that "
            "co-bank)", lambda p, _t, _d: steps.toggle_co_bank(p), checks.co_bank, "Co-bank"),
    Command("wager", (("W", ""),), "W", "type the selected seat's wager, Enter",
            lambda p, t, _d: steps.place_wager(p, t), checks.wager, "Place wager",
            Field("wager", MONEY, "wager", "25 or 25.50", money=True, moves=True)),
    Command("bonus", (("U", ""),), "U",
            "type the selected seat's bonus wager (Fortune bonus), or a taken dragon hand's "
            "where the house allows it, Enter",
            lambda p, t, _d: steps.place_bonus(p, t), checks.bonus, "Bonus wager",
            Field("bonus", MONEY, "bonus wager", "5", money=True, moves=True)),
    Command("withdraw_bonus", (("Shift+U", ""),), "Shift+U",
            "take back the selected seat's bonus wager, or a taken dragon hand's bonus "
            "before any hand is set",
            lambda p, _t, _d: steps.withdraw_bonus(p), checks.withdraw_bonus,
            "Take back bonus"),
    Command("progressive", (("J", ""),), "J",
            "the selected seat's progressive wager (the linked jackpot's amount, one a seat "
            "a round)",
            lambda p, _t, _d: progressive.place(p), progressive.check_place, "Progressive"),
    Command("withdraw_progressive", (("Shift+J", ""),), "Shift+J",
            "take back the selected seat's progressive wager while the bets are open",
            lambda p, _t, _d: progressive.withdraw(p), progressive.check_withdraw,
            "Take back progressive"),
    Command("same_wagers", (("L", ""),), "L",
            "same wagers as last round: shows them seat by seat; Enter sets them (a seat's "
            "key leaves it out first; Esc: none)",
            lambda p, _t, _d: same_wagers.offer(p), checks.same_wagers, "Same wagers"),
    Command("confirm", (("Enter", "enter"), ("Y", "y")), "Enter / Y",
            "yes: set the wager asked about (one far above the seat's last wager); Esc: no",
            lambda p, t, _d: steps.confirm_wager(p, t), checks.confirm),
    Command("withdraw", (("X", ""),), "X", "take back the selected seat's wager",
            lambda p, _t, _d: steps.withdraw_wager(p), checks.withdraw, "Take back"),
    Command("rng", (("R", ""),), "R",
            "action from the station's RNG, or the action the shuffler sent",
            lambda p, _t, d: steps.rng_action(p, d), checks.rng, "RNG action"),
    Command("dice", (("D", ""),), "D", "type the three dice, Enter",
            lambda p, t, _d: steps.dice_action(p, t), checks.dice, "Dice action",
            Field("dice", DICE, "three dice", "3 5 6", whose="")),
    Command("cards", (("C", ""),), "C",
            "shoe offline: type the selected position's cards, Enter",
            lambda p, t, _d: steps.enter_cards(p, t), checks.cards, "Enter cards",
            CARDS_FIELD),
    Command("deal_done", (("E", ""),), "E",
            "deal complete: the shoe read the 49 cards but not the 4 left over",
            lambda p, _t, _d: steps.deal_complete(p), checks.deal_done, "Deal complete"),
    Command("dragon", (("G", ""),), "G",
            "the seat offered the dragon takes it: its wager (filled in), Enter",
            lambda p, t, _d: steps.take_dragon(p, t), checks.dragon, "Take dragon",
            Field("dragon", MONEY, "dragon wager", "25", whose="dragon", money=True),
            prefill=dragon_suggestion),
    Command("front", (("F", ""),), "F",
            "set the front: the two clicked cards, or type them, Enter",
            lambda p, t, _d: steps.set_front(p, t), checks.front, "Set front",
            Field("front", CARD_TEXT, "front (two cards)", "KS 9H"),
            direct=lambda p: len(p.keyboard.picks) == 2),
    Command("house_way", (("H", ""),), "H", "House Way for the selected position",
            lambda p, _t, _d: steps.house_way(p), checks.house_way, "House Way"),
    Command("show_house_way", (("A", ""),), "A",
            "the player asks the house: show the House Way, without setting it",
            lambda p, _t, _d: steps.show_house_way(p), checks.show_house_way, "Show House Way"),
    Command("settle", (("S", ""),), "S", "settle",
            lambda p, _t, _d: steps.settle(p), checks.settle, "Settle"),
    Command("print", (("P", ""),), "P",
            "print the slip (after a printer failure: print the kept slip)",
            lambda p, _t, _d: steps.print_slip(p), checks.print_slip, "Print slip"),
    Command("reprint", (("Shift+P", ""),), "Shift+P",
            "reprint: the kept slips, or this round's slip again marked REPRINT",
            lambda p, _t, _d: steps.reprint(p), checks.reprint, "Reprint"),
    Command("shoe", (("O", ""),), "O", "demo: shoe unplugged / plugged in",
            lambda p, _t, _d: steps.toggle_shoe(p), checks.shoe, "Shoe on/off"),
    Command("help", (("F1", ""),), "F1", "every key and what it does now", _show("help")),
    Command("pit", (("F2", ""),), "F2",
            "the pit supervisor's view (F2 or Esc closes it): who may bank, the history, "
            "void and correct (PIN)", _show("pit")),
    Command("shift", (("F3", ""),), "F3",
            "the dealer at the table: type the name, Enter (a new shift in the ledger)",
            lambda p, t, _d: steps.shift(p, t), checks.shift),
    Command("escape", (("Esc", ""),), "Esc",
            "leave a field (nothing set), drop picked cards, say no to a wager asked about",
            lambda p, _t, _d: steps.escape(p)),
    Command("misdeal", (("Shift+M", ""),), "Shift+M",
            "misdeal (a supervisor, in the pit view): the deal ends, every wager goes back",
            lambda p, _t, _d: steps.ask_misdeal(p), checks.misdeal),
)

COMMANDS_BY_ID = {c.id: c for c in COMMANDS}


def keymap() -> dict[str, tuple[Command, str]]:
    """Every key: the command it runs and the text it sends."""
    return {key: (c, text) for c in COMMANDS for key, text in c.keys}


@dataclass(frozen=True)
class HelpRow:
    key: str
    words: str
    why_not: str | None  # None: it may be done now


def help_rows(p: Parts) -> tuple[HelpRow, ...]:
    """F1: every key, what it does, and whether (or why not) it may be done now."""
    return tuple(HelpRow(c.label, c.words, c.available(p)) for c in COMMANDS)


def availability(p: Parts) -> dict[str, str | None]:
    """Each button's command: None if it may be pressed now, else why not (its tooltip)."""
    return {c.id: c.available(p) for c in COMMANDS if c.button is not None}


def misdeal_blocked(p: Parts) -> str | None:
    """Why no misdeal can be called now (None: a deal is under way or dealt, not settled)."""
    return COMMANDS_BY_ID["misdeal"].available(p)


def void_blocked(p: Parts) -> str | None:
    """Why the supervisor cannot void now (None: a round is in play)."""
    rnd = p.round
    if rnd is None or rnd.phase is Phase.SETTLED:
        return "there is no round in play to void"
    return None
