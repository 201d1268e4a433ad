"""What the window shows, as plain values built from the core's round (no Qt here).

The controller hands these to the views; the views lay them out. Every fact comes from the
core (`Round`, its records and its slip); this module only words it for the dealer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.core.cards import Card, cards_text, sort_cards
from app.core.hands import HandRules, describe, ranker
from app.core.round import (
    ActionCounted,
    BankPassed,
    BankTaken,
    Dealt,
    DragonPassed,
    DragonTaken,
    HandSet,
    Misdealt,
    Phase,
    Record,
    Round,
    Settled,
    WagerPlaced,
    WagerWithdrawn,
)
from app.core.settlement import Hand, Line, Outcome, Role, SetBy, Slip, money
from app.core.table import CARDS_PER_HAND, DEALER, Table, position_name

SEAT_KEYS = {DEALER: "7", 1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}


def title(position: int) -> str:
    return "DEALER" if position == DEALER else f"SEAT {position}"


def name(position: int) -> str:
    """`Seat 3`, `Dealer`: how the window names a position in a sentence's start."""
    text = position_name(position)
    return text[0].upper() + text[1:]


@dataclass(frozen=True)
class SeatState:
    position: int
    title: str
    key: str
    wager: str = ""
    action: bool = False
    order: int | None = None
    role: str = ""
    mucked: bool = False
    cards: tuple[Card | None, ...] = (None,) * CARDS_PER_HAND
    face_down: bool = False
    split: bool = False  # set: the first two cards are the two-card hand
    picked: frozenset[Card] = frozenset()
    clickable: bool = False
    hands: str = ""
    note: str = ""
    note_kind: str = ""  # "rule", "foul", "preview-foul", "preview-legal", "info" or ""
    rule_id: str | None = None
    result: str = ""
    result_kind: str = ""
    selected: bool = False


@dataclass(frozen=True)
class CenterState:
    heading: str
    phase: str
    action: str
    order: str
    bank: str


@dataclass(frozen=True)
class SlipRow:
    order: str
    position: str
    hands: str
    result: str
    wager: str
    commission: str
    net: str
    kind: str
    detail: str


@dataclass(frozen=True)
class SlipState:
    heading: str
    rows: tuple[SlipRow, ...]
    totals: str
    text: str


@dataclass(frozen=True)
class Device:
    label: str
    state: str  # "ok", "warn" or "off"
    detail: str = ""


@dataclass(frozen=True)
class ScreenState:
    seats: dict[int, SeatState]
    center: CenterState
    phase: str
    next_step: str
    selected: str
    availability: dict[str, str | None]
    message: str
    level: str
    log: tuple[str, ...]
    slip: SlipState | None
    devices: tuple[Device, ...]
    table_info: str
    manual_target: str
    fields: dict[str, str] = field(default_factory=dict)


# --- words for the round's records ----------------------------------------------------------

def hand_words(hand: Hand, rules: HandRules) -> str:
    if hand.setting is None:
        return ""
    r = ranker(rules)
    low = describe(r.rank2(hand.setting.low), rules.wheel)
    high = describe(r.rank5(hand.setting.high), rules.wheel)
    return f"front: {low}   back: {high}"


def set_by_words(hand: Hand) -> str:
    if hand.set_by is SetBy.PLAYER:
        return "set by the player"
    if hand.set_by is SetBy.RESET:
        return f"reset the House Way, rule {hand.rule}"
    if hand.set_by is SetBy.HOUSE_WAY:
        return f"House Way {hand.rule}"
    return ""


def foul_words(hand: Hand) -> str:
    """A foul with its reason and what it cost, from the hand the round recorded."""
    if hand.foul is None:
        return ""
    if hand.forfeit:
        penalty = "the hand forfeits"
    elif hand.set_by is SetBy.RESET:
        penalty = f"reset the House Way (rule {hand.rule})"
    else:
        penalty = ""
    return f"FOUL: {hand.foul}" + (f" - {penalty}" if penalty else "")


def record_text(record: Record) -> str:
    match record:
        case WagerPlaced(seat=seat, wager=wager):
            return f"{name(seat)} wagers {money(wager)}"
        case WagerWithdrawn(seat=seat, wager=wager):
            return f"{name(seat)} takes back {money(wager)}"
        case BankPassed(seat=seat):
            return f"{name(seat)} passes the bank"
        case BankTaken(position=position, player=player, rule=rule):
            who = "the dealer" if player is None else f"seat {position}"
            return f"Bank: {who} ({rule})"
        case ActionCounted(action=action, bank=bank, position=position, direction=direction):
            return (f"Action: {action} -> {position_name(position)}, counted "
                    f"{direction.value} from {position_name(bank)}")
        case Dealt(deal=deal):
            counted = "counted" if deal.leftovers_counted else "not read"
            return (f"Dealt ({deal.mode}) from {position_name(deal.action)}; leftovers "
                    f"{cards_text(deal.leftovers)} ({counted})")
        case Misdealt(problems=problems):
            return "Misdeal: " + "; ".join(problems)
        case DragonTaken(seat=seat, position=position, wager=wager):
            return f"{name(seat)} takes {position_name(position)}'s hand as a dragon, " \
                   f"{money(wager)}"
        case DragonPassed(seat=seat):
            return f"{name(seat)} passes the dragon"
        case HandSet(hand=hand, rule=rule):
            setting = f"{cards_text(hand.setting.low)} | {cards_text(hand.setting.high)}" \
                if hand.setting else ""
            return f"{name(hand.position)}: {setting} - {rule}"
        case Settled(slip=slip):
            t = slip.totals
            return (f"Settled: players net {money(t.players_net, sign=True)}, commission "
                    f"{money(t.commission)}, house net {money(t.house_net, sign=True)}")
    return str(record)


# --- seats ---------------------------------------------------------------------------------

def _role(hand: Hand | None, position: int, rnd: Round) -> tuple[str, bool]:
    if hand is None:
        if position == rnd.banker:
            return "BANK", False
        if position == DEALER:
            return "", False
        return ("", False) if position in rnd.wagers else ("NO WAGER", True)
    match hand.role:
        case Role.BANK:
            return ("BANK" if hand.player is None else f"BANK - seat {hand.player}"), False
        case Role.DEALER:
            return "DEALER'S HAND", False
        case Role.DRAGON:
            return f"DRAGON - seat {hand.player}", False
        case Role.MUCKED:
            return "NO WAGER - mucked", True
    return "", False


def result_words(line: Line) -> tuple[str, str]:
    if line.outcome is None:
        return "", ""
    match line.outcome:
        case Outcome.WIN:
            comm = f" (comm. {money(line.commission)})" if line.commission else ""
            return f"WIN {money(line.net, sign=True)}{comm}", "win"
        case Outcome.LOSE:
            return f"LOSE {money(line.net, sign=True)}", "lose"
        case Outcome.RETURNED:
            return "RETURNED", "returned"
    return "PUSH", "push"


def seat_state(rnd: Round | None, position: int, *, dealing: Mapping[int, Sequence[Card]],
               selected: int | None, picked: Sequence[Card], preview: HandSet | None,
               preview_error: str | None, hide_bank: bool) -> SeatState:
    base = SeatState(position, title(position), SEAT_KEYS[position],
                     selected=position == selected)
    if rnd is None:
        return base
    rules = rnd.rules
    wager = rnd.wagers.get(position)
    action = rnd.action
    order = None
    if action is not None:
        order = rnd.table.around(action.position).index(position) + 1
    hand = rnd.hands.get(position)
    role, mucked = _role(hand, position, rnd)
    values: dict[str, object] = dict(
        wager=money(wager) if wager is not None else "",
        action=action is not None and action.position == position,
        order=order, role=role, mucked=mucked)
    if hand is None:
        got = list(dealing.get(position, ()))
        cards = tuple(sort_cards(got)) + (None,) * (CARDS_PER_HAND - len(got))
        values.update(cards=cards[:CARDS_PER_HAND])
        return _replace(base, values)
    if hand.setting is not None:
        values.update(cards=hand.setting.low + hand.setting.high, split=True,
                      hands=hand_words(hand, rules.hands), rule_id=hand.rule)
        foul = foul_words(hand)
        if foul:
            values.update(note=foul, note_kind="foul")
        elif hand.set_by is SetBy.PLAYER:
            values.update(note="Set by the player: the dealer entered the front",
                          note_kind="rule")
        elif hand.rule:
            values.update(note=f"House Way {hand.rule}: {hand.rule_says}", note_kind="rule")
    else:
        values.update(cards=tuple(sort_cards(hand.cards)))
        # The bank's hand is opened after every other hand is set (the round says when).
        face_down = (hide_bank and position == rnd.banker and rnd.phase is Phase.SETTING
                     and not rnd.can_set_hand(position))
        values.update(face_down=face_down)
        can_pick = (rnd.phase is Phase.SETTING and hand.role is not Role.MUCKED
                    and not face_down)
        values.update(clickable=can_pick)
        if position == selected:
            values.update(picked=frozenset(picked))
            if preview is not None:
                values.update(_preview(preview, rules.hands))
            elif preview_error:
                values.update(note=preview_error, note_kind="preview-foul")
    slip = rnd.slip
    if slip is not None:
        text, kind = result_words(slip.line(position))
        values.update(result=text, result_kind=kind)
    return _replace(base, values)


def _preview(record: HandSet, rules: HandRules) -> dict[str, object]:
    """What entering these two cards would do, from the round's own answer."""
    hand = record.hand
    if hand.foul is not None:
        return {"note": "If set: " + foul_words(hand), "note_kind": "preview-foul",
                "hands": hand_words(hand, rules)}
    return {"note": "Legal: press F (or Enter) to set this front", "note_kind": "preview-legal",
            "hands": hand_words(hand, rules)}


def _replace(state: SeatState, values: Mapping[str, object]) -> SeatState:
    from dataclasses import replace
    return replace(state, **values)  # type: ignore[arg-type]


# --- the centre of the felt, the slip ------------------------------------------------------

PHASE_WORDS = {
    None: "NO ROUND OPEN",
    Phase.BETTING: "BETTING",
    Phase.DEALING: "DEALING",
    Phase.SETTING: "SETTING HANDS",
    Phase.SETTLED: "SETTLED",
    Phase.MISDEAL: "MISDEAL",
}


def order_text(table: Table, start: int) -> str:
    names = ["D" if p == DEALER else str(p) for p in table.around(start)]
    return " > ".join(names)


def center_state(rnd: Round | None, table: Table) -> CenterState:
    direction = table.direction.value
    if rnd is None:
        return CenterState(f"PAI GOW POKER - {table.name}", PHASE_WORDS[None], "",
                           f"Seats 1-6 numbered {direction} from the dealer's left", "")
    heading = f"PAI GOW POKER - {table.name} - round {rnd.rotation.round_no}"
    action = rnd.action
    bank = "Bank: the dealer" if rnd.banker == DEALER else f"Bank: seat {rnd.banker}"
    if action is None:
        return CenterState(heading, PHASE_WORDS[rnd.phase], "Action: not yet taken",
                           f"Deal and pay {direction} from action", bank)
    return CenterState(heading, PHASE_WORDS[rnd.phase],
                       f"Action: {action.action} -> {position_name(action.position)}",
                       f"{direction.capitalize()}: {order_text(table, action.position)}", bank)


def slip_state(slip: Slip) -> SlipState:
    rows = []
    for line in slip.lines:
        text, kind = result_words(line)
        hands = (f"{cards_text(line.setting.low)} | {cards_text(line.setting.high)}"
                 if line.setting else cards_text(line.cards))
        how = []
        if line.rule:
            how.append(f"House Way {line.rule}" + (f": {line.rule_says}" if line.rule_says
                                                    else ""))
        if line.foul:
            how.append(f"foul: {line.foul}")
        if line.note:
            how.append(line.note)
        outcome = kind.upper() if line.outcome else (
            "BANK" if line.role is Role.BANK else "mucked")
        rows.append(SlipRow(
            order=str(line.order) if line.order is not None else "",
            position=line.name, hands=hands, result=outcome,
            wager=money(line.wager) if line.wager else "",
            commission=money(line.commission) if line.commission else "",
            net=money(line.net, sign=True) if line.outcome is not None else "",
            kind=kind or ("bank" if line.role is Role.BANK else ""),
            detail="; ".join(how)))
    t = slip.totals
    totals = (f"Wagers {money(t.wagers)}   Players net {money(t.players_net, sign=True)}\n"
              f"Commission {money(t.commission)}   House net {money(t.house_net, sign=True)}")
    heading = (f"Slip - table {slip.table}, round {slip.round}: action {slip.action} -> "
               f"{position_name(slip.action_position)}, {slip.direction.value}")
    return SlipState(heading, tuple(rows), totals, slip.text())


def outcome_of(slip: Slip, position: int) -> Outcome | None:
    return slip.line(position).outcome
