"""The table's procedure that several steps share: a round opened, the offers in words,
the hands still to be set, the front previewed as it is picked, and the line the dealer
reads while typing in a field (what Enter will set, and where).
"""

from __future__ import annotations

from app.core.cards import CardError, cards_text, parse_cards
from app.core.round import DragonSetting, DragonWager, Phase, Round
from app.core.settlement import MoneyError, Role, money, parse_money
from app.core.table import TableError, position_name

from . import words
from .keyboard import Entry, Field
from .outbox import DEALER_ERRORS
from .parts import Parts
from .wager_limits import asking_for, verify_wager

SET_EACH = "Set each hand: click the two front cards and F, or H for the House Way."


# --- the words of the offers ----------------------------------------------------------------

def bank_offer_words(seat: int) -> str:
    return (f"The bank is offered to seat {seat}: B and the chips on the table to take it "
            f"(they cover every wager against it), Q to pass.")


def dragon_offer_words(p: Parts, seat: int) -> str:
    rnd = p.round
    assert rnd is not None
    where = position_name(rnd.dragon_hands()[0])
    main = money(rnd.wagers[seat])
    most = rnd.dragon_most(seat)
    if p.rules.dragon.wager is DragonWager.EQUAL:
        wager = f"its wager is the main wager, {main}"
    elif most < rnd.wagers[seat]:
        wager = (f"a wager of {money(p.rules.limits.minimum)} up to {money(most)}, what the "
                 f"bank of seat {rnd.bank.player} still covers")
    else:
        wager = f"a wager of {money(p.rules.limits.minimum)} up to the main {main}"
    return (f"The dragon ({where}'s unused hand) is offered to seat {seat}, {wager}: G and "
            f"Enter to take it, Q to pass.")


def dragon_suggestion(p: Parts) -> str:
    """The wager to put in the dragon field: the main wager of the seat offered."""
    rnd, seat = p.round, p.dragon_offered()
    if rnd is None or seat is None:
        return ""
    return f"{rnd.dragon_most(seat) / 100:.2f}"


# --- a round opened, the deal cleared -----------------------------------------------------------

def open_round(p: Parts, game: Round) -> None:
    """A new round (or one taken back) is the session's round from now on."""
    p.play.open(game)
    p.devices.new_round()
    p.deal.round_opened()
    p.keyboard.reset()
    clear_deal(p)


def clear_deal(p: Parts) -> None:
    p.deal.clear()
    p.keyboard.clear_picks()


# --- the hands to set ---------------------------------------------------------------------------

def to_set(p: Parts) -> list[int]:
    """Positions whose hands the dealer may set now, in order from action; a dragon the
    House Way sets at settlement is not waited for."""
    rnd = p.round
    if rnd is None:
        return []
    house_way = p.rules.dragon.setting is DragonSetting.HOUSE_WAY
    return [q for q in rnd.pending() if rnd.can_set_hand(q)
            and not (house_way and rnd.hands[q].role is Role.DRAGON)]


def after_set(p: Parts) -> None:
    p.keyboard.clear_picks()
    waiting = to_set(p)
    if waiting:
        p.keyboard.select(waiting[0])


def type_front(p: Parts, text: str) -> None:
    """The front field changed: pick the cards it names (and preview them)."""
    keyboard = p.keyboard
    keyboard.typed_front(text)
    rnd = p.round
    if rnd is None or keyboard.selected is None or rnd.phase is not Phase.SETTING:
        return
    try:
        cards = list(parse_cards(text))
    except CardError as e:
        keyboard.unpick(str(e))
    else:
        keyboard.picked(cards)
        update_preview(p, keyboard.selected)


def update_preview(p: Parts, position: int) -> None:
    keyboard = p.keyboard
    keyboard.previewed(None, None)
    if len(keyboard.picks) != 2:
        return
    front = list(keyboard.picks)
    try:
        keyboard.previewed(p.play.dry(Round.set_hand, position, front), None)
    except DEALER_ERRORS as e:
        keyboard.previewed(None, str(e))
    preview = keyboard.preview
    if preview is not None and preview.hand.foul:
        p.say(f"{words.name(position)}: if set, " + words.foul_words(preview.hand)
              + words.returned_words(preview), "warn")
    elif preview is not None:
        p.say(f"{words.name(position)}: {cards_text(keyboard.picks)} in front is legal; press "
              f"F to set it.", "info")


# --- the field open and the line the dealer reads -------------------------------------------------

def whose(p: Parts, field: Field) -> int | None:
    if field.whose == "bank":
        return p.bank_offered()
    if field.whose == "dragon":
        return p.dragon_offered()
    if field.whose == "selected":
        return p.keyboard.selected
    return None


def open_field(p: Parts, command: str, field: Field, text: str) -> None:
    """The command's key (or button): its field opens for its position."""
    p.keyboard.open(command, field, whose(p, field), text)
    p.out.show(f"field:{field.name}")  # the window marks the field open
    show_field(p)


def field_words(e: Entry) -> str:
    if e.position is None:
        return e.field.what
    return f"{words.name(e.position)}'s {e.field.what}"


def show_field(p: Parts) -> None:
    """The line the dealer reads while typing: what Enter will set, and where."""
    e = p.keyboard.entry
    assert e is not None
    if e.field.name == "front":
        type_front(p, e.text)
        if len(p.keyboard.picks) == 2 and p.keyboard.preview is not None:
            return  # the preview says whether the front is legal
    if e.field.money:
        text, level = money_line(p, e)
        p.say(text, level)
        return
    where = field_words(e)
    typed = e.text.strip()
    if not typed:
        p.say(f"Type {where}, like {e.field.example}; Enter sets it, Esc leaves it.", "info")
        return
    p.say(f"{where[0].upper()}{where[1:]}: {typed}. Enter sets it, Esc leaves it.", "info")


def money_line(p: Parts, e: Entry) -> tuple[str, str]:
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
            verify_wager(p.play.need_round(), e.position, cents)
        except TableError as why:
            return (f"{amount} - Enter will refuse it: "
                    f"{str(why).removeprefix(f'{who}: ').split(': nothing')[0]}. Backspace "
                    f"corrects it, Esc leaves it.", "warn")
        asking = asking_for(p.round, p.play.last_wagers, e.position, cents)
        if asking is not None:
            return (f"{amount} - far above its last wager of {money(asking.previous)}: Enter "
                    f"asks you to confirm. Esc leaves it.", "warn")
    if e.command == "bonus" and e.position is not None:
        try:
            p.play.need_round().verify_place_bonus(e.position, cents)
        except TableError as why:
            return (f"{amount} - Enter will refuse it: {why}. Backspace corrects it, Esc "
                    f"leaves it.", "warn")
    return f"{amount}. Enter sets it, Esc leaves it.", "info"
