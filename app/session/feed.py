"""Action and the deal coming in: action taken (the station's RNG, dice, a device), the
shoe's cards, leftovers and shuffles, and the deal handed to the round once it is whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.core.cards import Card, card, cards_text
from app.core.round import ActionCounted, Phase
from app.core.table import (
    CARDS_PER_HAND,
    DEALER,
    HANDS,
    LEFTOVERS,
    ActionSource,
    DealMode,
    Misdeal,
    TableError,
    holes_in,
    place_of_seq,
    position_name,
)
from drivers.action import ActionInput, Origin
from drivers.shoe.protocol import SEQ_MAX

from . import words

if TYPE_CHECKING:
    from .session import DealerSession

DEALT = HANDS * CARDS_PER_HAND  # 49
DECK_SIZE = DEALT + LEFTOVERS  # 53


def action_input_of(counted: ActionCounted) -> ActionInput:
    """Where a recorded action came from (a round taken back from the ledger)."""
    action = counted.action
    if action.drawn_by == "device":
        return ActionInput(action, Origin.DEVICE)
    if action.source is ActionSource.DICE:
        return ActionInput(action, Origin.DEALER)
    return ActionInput(action, Origin.STATION_RNG)


def take_action(s: DealerSession, inp: ActionInput) -> None:
    """Action is counted; the shoe deals (or the dealer types the cards)."""
    record = s.do("set_action", inp.action)
    s.action_input, s.device_action = inp, None
    s.manual = {}
    s.select(record.position)
    where = position_name(record.position)
    source = f" from the {inp.source}" if inp.origin is Origin.DEVICE else ""
    counted = f" counted from {position_name(record.bank)}" if record.bank != DEALER else ""
    if s.shoe_online:
        s.say(f"Action: {inp.action}{source} -> {where}{counted}. Deal: the cards appear as "
              f"the shoe reads them.", "ok")
        s.ask_shoe("start_deal")
    else:
        s.say(f"Action: {inp.action}{source} -> {where}{counted}. The shoe is offline: press "
              f"C and type {where}'s seven cards, then each next position.", "warn")
    if inp.origin is Origin.DEVICE:
        s.note(f"Action {inp.action} sent by the {inp.source}")
    try_finish(s)


def on_action_read(s: DealerSession, inp: ActionInput) -> None:
    """ACTION from a shuffler or dice shaker: the round's action, unless the dealer has
    already taken one. Before the wagers are in it waits, and R takes it."""
    from .session import DEALER_ERRORS
    rnd = s.round
    device = words.device_name(inp)
    sent = f"The {device} sent action {inp.action} ({inp.source})"
    if rnd is not None and rnd.action is not None and rnd.phase is not Phase.SETTLED:
        taken = s.action_input
        who = ("the dealer" if taken is None or taken.origin is not Origin.DEVICE
               else f"the {taken.source}")
        s.say(f"{sent}, but this round's action is already {rnd.action.action} -> "
              f"{position_name(rnd.action.position)}, taken by {who}: the {device}'s number "
              f"is not used.", "warn")
        s.note(f"{sent}: not used, action already taken")
        return
    s.device_action = inp
    if rnd is None or rnd.phase is Phase.SETTLED:
        s.say(f"{sent} for the next round: N opens it; it is taken as the action when the "
              f"wagers are in (R).", "info")
        return
    if rnd.wagers and s.bank_offered() is None:
        try:
            take_action(s, inp)
        except DEALER_ERRORS as e:
            s.device_action = None
            s.say(f"{sent}: it cannot be used ({e}); take action by hand.", "error")
        return
    wait = ("the bank is answered and the wagers are in" if s.bank_offered() is not None
            else "the wagers are in")
    s.say(f"{sent}: it is this round's action. R takes it when {wait}.", "info")


def on_card(s: DealerSession, c: Card) -> bool:
    rnd = s.round
    if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED):
        s.say(f"The shoe read {c} with no deal open: the card is not used.", "warn")
        return False
    s.stream.append(c)
    keep_deal(s)  # on disk before the round is given it
    return s.run(lambda: try_finish(s))


def on_card_at(s: DealerSession, c: Card, first_seq: int, seq: int) -> bool:
    """A card the shoe numbered: it goes to its own place in the dealing order, counted
    from the deal's first card, so a card lost on the line leaves a hole there."""
    rnd = s.round
    if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED):
        return on_card(s, c)
    action = rnd.action.position if rnd.action is not None else DEALER
    try:
        index = place_of_seq(rnd.table, action, first_seq, seq, SEQ_MAX).index
    except TableError as e:
        s.say(f"The shoe read {c}, which is not in this deal ({e}): the card is not used.",
              "warn")
        return False
    before = holes_in(i for i, held in enumerate(s.stream) if held is not None)
    s.stream.extend([None] * (index + 1 - len(s.stream)))
    held = s.stream[index]
    if held is not None:
        s.say(f"The shoe read {c} for the place of {held}: the card is not used.", "warn")
        return False
    s.stream[index] = c
    if first_seq:  # 0: a shuffler's stack, placed by its number, not the shoe's count
        s.seqs[index], s.first_seq = seq, first_seq
    keep_deal(s)  # on disk before the round is given it: a restart finds it in its place
    new = [i for i in holes_in(i for i, held in enumerate(s.stream) if held is not None)
           if i not in before]
    if new:
        s.say(hole_words(s, new), "warn")
    return s.run(lambda: try_finish(s))


def hole_words(s: DealerSession, holes: list[int]) -> str:
    rnd = s.round
    assert rnd is not None
    where = [f"card {i + 1} of the deal" for i in holes]
    if rnd.action is not None:
        where = [f"{w} ({position_name(p)}'s hand)" if p is not None else f"{w} (left over)"
                 for w, p in zip(where, (rnd.table.position_of_card(rnd.action.position, i)
                                         for i in holes), strict=True)]
    return (f"The shoe lost {', '.join(where)}: the later cards are in their places. Type "
            f"the missing card for its position (C), or call a misdeal.")


def on_shuffled(s: DealerSession) -> None:
    """A new deck: the cards read before it and a device's action for it are void."""
    rnd = s.round
    void = len(s.stream)
    s.stream, s.leftovers, s.device_action = [], None, None
    s.seqs, s.first_seq = {}, None
    if void:
        keep_deal(s)
    if rnd is not None and rnd.phase is Phase.DEALING and void:
        s.say(f"The shoe started a new shuffle: the {void} card(s) read are void; the deal "
              f"starts again from the new deck.", "warn")


def try_finish(s: DealerSession, complete: bool = False) -> None:
    """Hand the deal to the round as soon as it is whole (or the dealer says it is: the
    leftovers not read are worked out); a misdeal is shown."""
    rnd = s.round
    if rnd is None or rnd.phase is not Phase.DEALING:
        return
    read = [c for c in s.stream[:DECK_SIZE] if c is not None]
    whole = len(read) == len(s.stream[:DECK_SIZE])  # no card lost on the line
    try:
        if not s.manual and whole and (len(read) >= DECK_SIZE or (
                len(read) >= DEALT and (s.leftovers is not None or complete))):
            cards = read
            rest: list[Card] | None = (list(s.leftovers) if s.leftovers is not None
                                       else cards[DEALT:] or None)
            if rnd.table.deal_mode is DealMode.STACKS:
                stacks = [cards[i:i + CARDS_PER_HAND] for i in range(0, DEALT, CARDS_PER_HAND)]
                s.do("deal_stacks", stacks, rest)
            else:
                s.do("deal_one_at_a_time", cards[:DEALT] + (rest or []))
        elif s.manual:
            hands = s.dealing()
            if len(hands) < HANDS or any(len(h) < CARDS_PER_HAND for h in hands.values()):
                return
            tail = s.stream[DEALT:DECK_SIZE]
            rest_read = ([c for c in tail if c is not None]
                         if len(tail) == DECK_SIZE - DEALT and None not in tail
                         else s.leftovers)
            s.do("deal_by_position", hands, list(rest_read) if rest_read else None)
        else:
            return
    except Misdeal as misdeal:
        s.ask_shoe("stop_deal")
        s.clear_deal()
        keep_deal(s, force=True)
        raise TableError(f"{misdeal} Take action again ({s.action_key(rnd)}).") from None
    s.ask_shoe("stop_deal")
    after_deal(s)


def after_deal(s: DealerSession) -> None:
    from .steps import SET_EACH, after_set, dragon_offer_words
    rnd = s.round
    assert rnd is not None and rnd.action is not None and rnd.deal is not None
    counted = "" if rnd.deal.leftovers_counted else (
        f" The 4 left over were not read: they are the cards not dealt, "
        f"{cards_text(rnd.deal.leftovers)}.")
    offered = s.dragon_offered()
    whence = f"All seven hands are in, from {position_name(rnd.action.position)}.{counted}"
    if offered is not None:
        s.select(offered)
        s.say(f"{whence} {dragon_offer_words(s, offered)}", "ok")
        return
    s.say(f"{whence} {SET_EACH}", "ok")
    after_set(s)


# --- the deal kept through a restart ----------------------------------------------------------

def deal_state(s: DealerSession) -> dict[str, Any]:
    """The deal as the station holds it, as JSON: each card read at its place with the
    shoe's number, the deal's first number, the cards typed by position, the leftovers."""
    return {
        "first": s.first_seq,
        "cards": [[i, str(c), s.seqs.get(i)] for i, c in enumerate(s.stream) if c is not None],
        "places": len(s.stream),
        "manual": {str(p): [str(c) for c in cards] for p, cards in s.manual.items()},
        "leftovers": None if s.leftovers is None else [str(c) for c in s.leftovers],
    }


def keep_deal(s: DealerSession, force: bool = False) -> None:
    """Keep the deal in the ledger's journal (before the round is given it). A refusal is
    said, and the deal goes on: the shoe still holds the cards."""
    from .ports import PortError
    rnd = s.round
    if s.ledger is None or rnd is None or (rnd.phase is not Phase.DEALING and not force):
        return
    try:
        s.ledger.keep_deal(rnd, deal_state(s))
    except PortError as e:
        s.ledger_refused(e)


def restore(s: DealerSession, deal: Mapping[str, Any]) -> int:
    """The deal kept before a restart, every card back at its place; how many cards."""
    cards = [(int(i), card(text), seq) for i, text, seq in deal.get("cards", ())]
    places = max([int(deal.get("places", 0)), *(i + 1 for i, _, _ in cards)])
    s.stream = [None] * places
    for i, c, seq in cards:
        s.stream[i] = c
        if seq is not None:
            s.seqs[i] = int(seq)
    first = deal.get("first")
    s.first_seq = int(first) if first is not None else None
    s.manual = {int(p): [card(t) for t in texts]
                for p, texts in dict(deal.get("manual", {})).items()}
    left = deal.get("leftovers")
    s.leftovers = None if left is None else tuple(card(t) for t in left)
    return len(cards) + sum(len(v) for v in s.manual.values())


def resume_point(deal: Mapping[str, Any] | None) -> tuple[int | None, int | None]:
    """(the deal's first card's number, the number of the last card kept): the shoe is
    asked for every message after the last, and each card is placed from the first."""
    if not deal:
        return None, None
    numbered = [(int(i), int(seq)) for i, _, seq in deal.get("cards", ()) if seq is not None]
    first = deal.get("first")
    if not numbered:
        return (int(first) if first is not None else None), None
    return (int(first) if first is not None else None), max(numbered)[1]
