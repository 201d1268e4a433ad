"""Action and the deal coming in, as steps: action taken (the station's RNG, dice, a
device), the shoe's cards, leftovers and shuffles, and the deal handed to the round once it
is whole. The deal's own state is deal.py.
"""

from __future__ import annotations

from app.core.cards import Card, cards_text
from app.core.round import Phase, Round
from app.core.table import (
    CARDS_PER_HAND,
    DEALER,
    HANDS,
    DealMode,
    Misdeal,
    TableError,
    place_of_seq,
    position_name,
)
from drivers.action import ActionInput, Origin
from drivers.shoe.protocol import SEQ_MAX

from . import words
from .deal import DEALT, DECK_SIZE
from .outbox import DEALER_ERRORS
from .parts import Parts
from .ports import PortError
from .procedure import SET_EACH, after_set, clear_deal, dragon_offer_words


def take_action(p: Parts, inp: ActionInput) -> None:
    """Action is counted; the shoe deals (or the dealer types the cards)."""
    record = p.play.change(Round.set_action, inp.action)
    p.deal.action_taken(inp)
    p.keyboard.select(record.position)
    where = position_name(record.position)
    source = f" from the {inp.source}" if inp.origin is Origin.DEVICE else ""
    counted = f" counted from {position_name(record.bank)}" if record.bank != DEALER else ""
    if p.devices.shoe_online:
        p.say(f"Action: {inp.action}{source} -> {where}{counted}. Deal: the cards appear as "
              f"the shoe reads them.", "ok")
        p.out.ask_shoe("start_deal")
    else:
        p.say(f"Action: {inp.action}{source} -> {where}{counted}. The shoe is offline: press "
              f"C and type {where}'s seven cards, then each next position.", "warn")
    if inp.origin is Origin.DEVICE:
        p.out.note(f"Action {inp.action} sent by the {inp.source}")
    try_finish(p)


def on_action_read(p: Parts, inp: ActionInput) -> None:
    """ACTION from a shuffler or dice shaker: the round's action, unless the dealer has
    already taken one. Before the wagers are in it waits, and R takes it."""
    rnd = p.round
    device = words.device_name(inp)
    sent = f"The {device} sent action {inp.action} ({inp.source})"
    if rnd is not None and rnd.action is not None and rnd.phase is not Phase.SETTLED:
        taken = p.deal.action_input
        who = ("the dealer" if taken is None or taken.origin is not Origin.DEVICE
               else f"the {taken.source}")
        p.say(f"{sent}, but this round's action is already {rnd.action.action} -> "
              f"{position_name(rnd.action.position)}, taken by {who}: the {device}'s number "
              f"is not used.", "warn")
        p.out.note(f"{sent}: not used, action already taken")
        return
    p.deal.device_sent(inp)
    if rnd is None or rnd.phase is Phase.SETTLED:
        p.say(f"{sent} for the next round: N opens it; it is taken as the action when the "
              f"wagers are in (R).", "info")
        return
    if rnd.wagers and p.bank_offered() is None:
        try:
            take_action(p, inp)
        except DEALER_ERRORS as e:
            p.deal.device_sent(None)
            p.say(f"{sent}: it cannot be used ({e}); take action by hand.", "error")
        return
    wait = ("the bank is answered and the wagers are in" if p.bank_offered() is not None
            else "the wagers are in")
    p.say(f"{sent}: it is this round's action. R takes it when {wait}.", "info")


def unplugged(p: Parts, c: Card) -> bool:
    """A card from the demo shoe the dealer unplugged (read before the cable was pulled,
    reaching the station late): not used, and said."""
    if not p.devices.unplugged:
        return False
    p.say(f"The shoe read {c} after it was unplugged (O): the card is not used; cards are "
          f"typed (C) until O plugs it back.", "warn")
    return True


def on_card(p: Parts, c: Card) -> bool:
    if unplugged(p, c):
        return False
    rnd = p.round
    if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED):
        p.say(f"The shoe read {c} with no deal open: the card is not used.", "warn")
        return False
    p.deal.read(c)
    keep_deal(p)  # on disk before the round is given it
    return p.out.attempt(lambda: try_finish(p))


def on_card_at(p: Parts, c: Card, first_seq: int, seq: int) -> bool:
    """A card the shoe numbered: it goes to its own place in the dealing order, counted
    from the deal's first card, so a card lost on the line leaves a hole there."""
    rnd = p.round
    if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED) or p.devices.unplugged:
        return on_card(p, c)
    action = rnd.action.position if rnd.action is not None else DEALER
    try:
        index = place_of_seq(rnd.table, action, first_seq, seq, SEQ_MAX).index
    except TableError as e:
        p.say(f"The shoe read {c}, which is not in this deal ({e}): the card is not used.",
              "warn")
        return False
    before = p.deal.holes()
    held = p.deal.open_place(index)
    if held is not None:
        p.say(f"The shoe read {c} for the place of {held}: the card is not used.", "warn")
        return False
    p.deal.place(index, c, seq, first_seq)
    keep_deal(p)  # on disk before the round is given it: a restart finds it in its place
    new = [i for i in p.deal.holes() if i not in before]
    if new:
        p.say(hole_words(p, new), "warn")
    return p.out.attempt(lambda: try_finish(p))


def hole_words(p: Parts, holes: list[int]) -> str:
    rnd = p.round
    assert rnd is not None
    where = [f"card {i + 1} of the deal" for i in holes]
    if rnd.action is not None:
        where = [f"{w} ({position_name(q)}'s hand)" if q is not None else f"{w} (left over)"
                 for w, q in zip(where, (rnd.table.position_of_card(rnd.action.position, i)
                                         for i in holes), strict=True)]
    return (f"The shoe lost {', '.join(where)}: the later cards are in their places. Type "
            f"the missing card for its position (C), or call a misdeal.")


def on_leftovers(p: Parts, cards: tuple[Card, ...]) -> bool:
    if p.devices.unplugged:
        p.say(f"The shoe read the cards left over ({cards_text(cards)}) after it was "
              f"unplugged (O): they are not used.", "warn")
        return False
    p.deal.leftovers_read(cards)
    keep_deal(p)
    return p.out.attempt(lambda: try_finish(p))


def on_shuffled(p: Parts) -> None:
    """A new deck: the cards read before it and a device's action for it are void."""
    rnd = p.round
    void = p.deal.new_deck()
    if void:
        keep_deal(p)
    if rnd is not None and rnd.phase is Phase.DEALING and void:
        p.say(f"The shoe started a new shuffle: the {void} card(s) read are void; the deal "
              f"starts again from the new deck.", "warn")


def try_finish(p: Parts, complete: bool = False) -> None:
    """Hand the deal to the round as soon as it is whole (or the dealer says it is: the
    leftovers not read are worked out); a misdeal is shown."""
    rnd = p.round
    if rnd is None or rnd.phase is not Phase.DEALING:
        return
    deal = p.deal
    read = [c for c in deal.stream[:DECK_SIZE] if c is not None]
    whole = len(read) == len(deal.stream[:DECK_SIZE])  # no card lost on the line
    try:
        if not deal.manual and whole and (len(read) >= DECK_SIZE or (
                len(read) >= DEALT and (deal.leftovers is not None or complete))):
            cards = read
            rest: list[Card] | None = (list(deal.leftovers) if deal.leftovers is not None
                                       else cards[DEALT:] or None)
            if rnd.table.deal_mode is DealMode.STACKS:
                stacks = [cards[i:i + CARDS_PER_HAND] for i in range(0, DEALT, CARDS_PER_HAND)]
                p.play.change(Round.deal_stacks, stacks, rest)
            else:
                p.play.change(Round.deal_one_at_a_time, cards[:DEALT] + (rest or []))
        elif deal.manual:
            hands = p.dealing()
            if len(hands) < HANDS or any(len(h) < CARDS_PER_HAND for h in hands.values()):
                return
            tail = deal.stream[DEALT:DECK_SIZE]
            rest_read = ([c for c in tail if c is not None]
                         if len(tail) == DECK_SIZE - DEALT and None not in tail
                         else deal.leftovers)
            left = list(rest_read) if rest_read else None
            p.play.change(Round.deal_by_position, hands, left)
        else:
            return
    except Misdeal as misdeal:
        p.out.ask_shoe("stop_deal")
        clear_deal(p)
        keep_deal(p, force=True)
        raise TableError(f"{misdeal} Take action again ({p.deal.action_key(rnd)}).") from None
    p.out.ask_shoe("stop_deal")
    after_deal(p)


def after_deal(p: Parts) -> None:
    rnd = p.round
    assert rnd is not None and rnd.action is not None and rnd.deal is not None
    counted = "" if rnd.deal.leftovers_counted else (
        f" The 4 left over were not read: they are the cards not dealt, "
        f"{cards_text(rnd.deal.leftovers)}.")
    offered = p.dragon_offered()
    whence = f"All seven hands are in, from {position_name(rnd.action.position)}.{counted}"
    if offered is not None:
        p.keyboard.select(offered)
        p.say(f"{whence} {dragon_offer_words(p, offered)}", "ok")
        return
    p.say(f"{whence} {SET_EACH}", "ok")
    after_set(p)


def keep_deal(p: Parts, force: bool = False) -> None:
    """Keep the deal in the ledger's journal (before the round is given it). A refusal is
    said, and the deal goes on: the shoe still holds the cards."""
    rnd, ledger = p.round, p.play.ledger
    if ledger is None or rnd is None or (rnd.phase is not Phase.DEALING and not force):
        return
    try:
        ledger.keep_deal(rnd, p.deal.state())
    except PortError as e:
        p.play.ledger_refused(e)
