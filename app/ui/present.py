"""What the window shows, as plain values built from the core's round (no Qt here).

view.py hands these to the views; the views lay them out. Every fact comes from the core
(`Round`, its records and its slip); this module only words it for the window's views. The
sentences the dealer session says too (a foul, a record of the round's log, a seat's
standing for the bank) are the session's own (app/session/words.py), not a copy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from app.core.cards import Card, cards_text, sort_cards
from app.core.hands import HandRules, describe, ranker
from app.core.round import (
    BankPassed,
    DragonPassed,
    DragonSetting,
    HandReturned,
    HandSet,
    Phase,
    Round,
)
from app.core.settlement import (
    BonusResult,
    Hand,
    Line,
    Outcome,
    ProgressiveResult,
    Role,
    SetBy,
    Slip,
    bonus_groups,
    money,
    progressive_line_words,
)
from app.core.table import CARDS_PER_HAND, DEALER, Table, position_name
from app.session import glossary
from app.session.words import (  # noqa: F401 - the session's words, read here by the views
    RICH,
    bank_standing,
    foul_words,
    name,
    record_text,
    returned_words,
)
from drivers.action import ActionInput, Origin

SEAT_KEYS = {DEALER: "7", 1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}


def title(position: int) -> str:
    return "DEALER" if position == DEALER else f"SEAT {position}"


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
    note_kind: str = ""  # "rule", "foul", "preview-foul", "preview-legal", "info",
    # "offer" or ""
    note_detail: str = ""  # the note's tooltip when it says more than the note
    rule_id: str | None = None
    result: str = ""
    result_kind: str = ""
    selected: bool = False
    bonus: str = ""  # the bonus wager's badge ("BONUS $5.00"), "" without one
    progressive: str = ""  # the progressive wager's badge, "JACKPOT" (always the card's
    # amount: its tooltip says it; short, to fit beside the seat's other badges), or ""


@dataclass(frozen=True)
class CenterState:
    heading: str
    phase: str
    action: str
    order: str
    bank: str
    no_play: tuple[int, int] | None = None  # the NO PLAY spot lies between these two


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
    banner: str | None = None  # the ledger's, while the database is away
    slip_printed: str = ""  # the slip on the printer: "printed", "NOT PRINTED (P)", ...
    fields: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # button texts for now, by action
    co_bank: bool = False


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
    way = glossary.house_way_words(hand.rule_says)
    if hand.set_by is SetBy.RESET:
        return f"reset by the {way}"
    if hand.set_by is SetBy.HOUSE_WAY:
        return way
    if hand.set_by is SetBy.AFTER_BANK:
        return f"set by the dealer after the bank, {way}"
    return ""


# --- the bank and the dragon on offer ----------------------------------------------------

def _bank_open(rnd: Round) -> bool:
    """The bank is being offered round the table this round (and no one has it yet)."""
    return (rnd.phase is Phase.BETTING and rnd.bank.player is None
            and rnd.offer_bank() != DEALER)


def _passed(rnd: Round, kind: type[BankPassed] | type[DragonPassed]) -> set[int]:
    """The seats that passed the bank (or the dragon) this round, from the round's log."""
    return {r.seat for r in rnd.log if isinstance(r, kind)}


def _bank_values(rnd: Round, position: int, offered: int | None,
                 passed_over: Mapping[int, str]) -> dict[str, object]:
    """What a seat shows while the bank is offered round the table."""
    if position == DEALER:
        return {}
    if position in _passed(rnd, BankPassed):
        why = passed_over.get(position)
        return {"note": "Passed the bank" + (f" - may not bank: {why}" if why else ""),
                "note_kind": "info"}
    could, reasons, cover = bank_standing(rnd, position)
    if position == offered:
        need = f"chips covering {money(cover)} of wagers" if cover else \
            "chips covering every wager against it"
        return {"role": "BANK OFFER",
                "note": f"Bank offered: B takes it with {need}; Q passes",
                "note_kind": "offer", "note_detail": f"May bank: {reasons}"}
    verdict = "may bank" if could else "may not bank"
    return {"note": f"Bank: {verdict} - {reasons}", "note_kind": "info"}


# --- seats ---------------------------------------------------------------------------------

def _role(hand: Hand | None, position: int, rnd: Round) -> tuple[str, bool]:
    if hand is None:
        bank = rnd.bank
        if position == rnd.banker:
            return ("BANK" if bank.player is None else _player_bank(rnd)), False
        if position == DEALER:
            if bank.player is not None and not bank.co_bank:
                return "VS THE BANK", False
            return "", False
        return ("", False) if position in rnd.wagers else ("NO WAGER", True)
    match hand.role:
        case Role.BANK:
            return ("BANK" if hand.player is None else _player_bank(rnd)), False
        case Role.DEALER:
            return "VS THE BANK", False
        case Role.DRAGON:
            return f"DRAGON seat {hand.player}", False
        case Role.MUCKED:
            return "NO WAGER - mucked", True
    return "", False


def _player_bank(rnd: Round) -> str:
    bank = rnd.bank
    return f"{'CO-BANK' if bank.co_bank else 'BANK'} {money(bank.stake or 0)}"


def result_words(line: Line) -> tuple[str, str]:
    if line.outcome is None:
        return "", ""
    match line.outcome:
        case Outcome.WIN:
            comm = f" (comm. {money(line.commission)})" if line.commission else ""
            if line.win < line.wager:
                return f"WIN {money(line.net, sign=True)} - bank ran out", "win"
            return f"WIN {money(line.net, sign=True)}{comm}", "win"
        case Outcome.LOSE:
            return f"LOSE {money(line.net, sign=True)}", "lose"
        case Outcome.RETURNED:
            return "RETURNED - the bank ran out", "returned"
    return "PUSH", "push"


def _wager_text(rnd: Round, position: int, hand: Hand | None) -> str:
    bank = rnd.bank
    if bank.player is not None and position == bank.position:
        return ""  # the badge says BANK and its chips
    if hand is not None and hand.role in (Role.DRAGON, Role.DEALER):
        return money(hand.wager)
    if hand is None and position == DEALER and bank.player is not None and not bank.co_bank:
        return money(bank.dealer_wager)
    wager = rnd.wagers.get(position)
    return money(wager) if wager is not None else ""


def _dealers_own(hand: Hand) -> bool:
    """A hand the dealer plays: the house's bank, or the dealer's against a player banker."""
    return hand.role is Role.DEALER or (hand.role is Role.BANK and hand.player is None)


def seat_state(rnd: Round | None, position: int, *, dealing: Mapping[int, Sequence[Card]],
               selected: int | None, picked: Sequence[Card],
               preview: HandSet | HandReturned | None,
               preview_error: str | None, hide_bank: bool, bank_offer: int | None = None,
               dragon_offer: int | None = None,
               passed_over: Mapping[int, str] | None = None) -> SeatState:
    base = SeatState(position, title(position), SEAT_KEYS[position],
                     selected=position == selected)
    if rnd is None:
        return base
    rules = rnd.rules
    action = rnd.action
    order = None
    if action is not None:
        order = rnd.table.around(action.position).index(position) + 1
    hand = rnd.hands.get(position)
    role, mucked = _role(hand, position, rnd)
    bonus = rnd.bonus_wagers.get(position, rnd.dragon_bonus_wagers.get(position))
    progressive = rnd.progressive_wagers.get(position)
    values: dict[str, object] = dict(
        bonus=f"BONUS {_dollars(bonus)}" if bonus is not None else "",
        progressive="JACKPOT" if progressive is not None else "",
        wager=_wager_text(rnd, position, hand),
        action=action is not None and action.position == position,
        order=order, role=role, mucked=mucked)
    if hand is None:
        got = list(dealing.get(position, ()))
        cards = tuple(sort_cards(got)) + (None,) * (CARDS_PER_HAND - len(got))
        # A place with no wager is dealt a hand that may become a dragon: its cards are
        # taken unseen, so they arrive face down.
        values.update(cards=cards[:CARDS_PER_HAND], face_down=mucked)
        if _bank_open(rnd):
            values.update(_bank_values(rnd, position, bank_offer, passed_over or {}))
        elif rnd.bank.player == position and rnd.phase is Phase.BETTING:
            co = " - the house co-banks half" if rnd.bank.co_bank else ""
            values.update(note=f"Banks with {money(rnd.bank.stake or 0)} in chips{co}: it "
                               f"covers every wager against it", note_kind="rule")
        return _replace(base, values)
    on_offer = dragon_offer is not None and position in rnd.dragon_hands()
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
            # The felt says which kind of hand the House Way read, in the card's words; the
            # row's id and its whole text are in F1, the pit and on the slip (issue 25).
            kind = (hand.rule_says or "").split(":")[0].strip()
            values.update(note=f"House Way: {kind}" if kind else "House Way",
                          note_kind="rule")
    else:
        values.update(cards=tuple(sort_cards(hand.cards)))
        # The dealer's own hand is opened after every other hand is set (the round says
        # when); an unused hand is not shown until a player takes it as a dragon (on offer
        # it is taken unseen; no one took it: it is mucked unseen).
        face_down = (hide_bank and rnd.phase is Phase.SETTING and _dealers_own(hand)
                     and not rnd.can_set_hand(position)) or on_offer or \
            hand.role is Role.MUCKED
        values.update(face_down=face_down)
        can_pick = (rnd.phase is Phase.SETTING and dragon_offer is None and not face_down
                    and rnd.can_set_hand(position, hand.cards[:1]))
        values.update(clickable=can_pick)
        if on_offer and rnd.dragon_hands()[0] == position:
            values.update(role="DRAGON HAND", mucked=False,
                          note=f"Offered to seat {dragon_offer} as a dragon, unseen",
                          note_kind="info")
        elif dragon_offer is not None and position == dragon_offer:
            where = position_name(rnd.dragon_hands()[0])
            values.update(note=f"Dragon offered ({where}'s hand): G takes it, Q passes",
                          note_kind="offer")
        elif position in rnd.piles():
            values.update(note="Asked for the House Way: seven cards in one pile, set by the "
                               "dealer after the bank", note_kind="rule")
        elif hand.role is Role.DRAGON and not values.get("note"):
            how = ("set the House Way at settlement"
                   if rules.dragon.setting is DragonSetting.HOUSE_WAY
                   else "the player sets it: click the two front cards, F")
            values.update(note=f"Seat {hand.player}'s dragon: {how}", note_kind="rule")
        elif dragon_offer is not None and position in _passed(rnd, DragonPassed):
            values.update(note="Passed the dragon", note_kind="info")
        if position == selected:
            values.update(picked=frozenset(picked))
            if preview is not None:
                values.update(_preview(preview, rules.hands))
            elif preview_error:
                values.update(note=preview_error, note_kind="preview-foul")
    slip = rnd.slip
    if slip is not None:
        text, kind = result_words(slip.line(position))
        bank = slip.bank
        if position == bank.position and bank.player is not None:
            text = f"BANK {money(bank.net, sign=True)}" + (
                f" (comm. {money(bank.commission)})" if bank.commission else "") + (
                " - ran out" if bank.exhausted else "")
            kind = "bank"
        for said in (bonus_words(slip, position), progressive_words(slip, position)):
            if said:
                text = f"{text}\n{said}" if text else said
        values.update(result=text, result_kind=kind)
    return _replace(base, values)


_SIGNED_MONEY = re.compile(r"([+-])(?=\$)")
WORD_JOINER = "\u2060"  # no line break here, and nothing shown


def unbroken_money(text: str) -> str:
    """Words for a wrapped label with every signed amount kept whole: Qt may break a line
    between a sign and the dollar sign ("Bonus +" above "$40,650.00"), which reads as two
    things; a word joiner between them keeps "+$40,650.00" on one line."""
    return _SIGNED_MONEY.sub(lambda m: m.group(1) + WORD_JOINER, text)


def _dollars(cents: int) -> str:
    """`$5`, `$100`, `$2.50`: a bonus wager on its badge, in as few characters as say it."""
    return money(cents)[:-3] if cents % 100 == 0 else money(cents)


def _bonus_rows(b: BonusResult) -> list[SlipRow]:
    """A row a seat: its bonus and envy paid together, in the order paid; each line in the
    row's detail, in the core's words (`bonus_groups`, as the printed slip has them)."""
    rows = []
    for group in bonus_groups(b.to_dict()):
        mine = [x for x in b.lines if x.seat == group.seat]
        envy = [x for x in mine if x.kind == "envy"]
        hands = [x.hand + (" (dragon)" if x.position != group.seat else "")
                 for x in mine if x.kind == "bonus"]
        if envy:
            hands.append(f"envy x{len(envy)}" if len(envy) > 1 else "envy")
        net = group.net
        rows.append(SlipRow(
            order="", position=group.title, hands=", ".join(hands),
            result="WIN" if net > 0 else "PUSH" if net == 0 else "LOSE",
            wager=money(sum(x.wager for x in mine if x.kind == "bonus")), commission="",
            net=money(net, sign=True),
            kind="win" if net > 0 else "push" if net == 0 else "lose",
            detail="; ".join(f"{x.words}: {money(x.amount, sign=True)}"
                             + (f", {x.approved}" if x.approved else "")
                             for x in group.lines)))
    return rows


def progressive_words(slip: Slip, seat: int) -> str:
    """A seat's progressive hit under its result: what the meter paid, or that it waits."""
    if slip.progressive is None:
        return ""
    line = next((x for x in slip.progressive.lines if x.seat == seat and x.hit), None)
    if line is None:
        return ""
    if line.paid is None:
        return f"PROGRESSIVE HIT: {line.hand} - waiting"
    return f"Progressive {money(line.paid, sign=True)} ({line.hand})"


def _progressive_rows(p: ProgressiveResult) -> list[SlipRow]:
    """A row a hit: its wager, hand and what the meter paid (`progressive_line_words`, as
    the printed slip has them). The wagers that did not hit are on the seats' badges and
    the printed slip: a row each pushed the slip's last rows out of its view at 1024x768."""
    rows = []
    for x in p.hits():
        rows.append(SlipRow(
            order="", position=f"{position_name(x.seat)} progressive", hands=x.hand or "",
            result="HIT" if x.paid is not None else "WAITS", wager=money(x.wager),
            commission="", net="" if x.paid is None else money(x.paid, sign=True),
            kind="win", detail=progressive_line_words(x.to_dict())))
    return rows


def bonus_words(slip: Slip, seat: int) -> str:
    """What the seat is paid (or loses) on its bonus and envy once settled, in one amount as
    the dealer pays it, under its result (each line, its hand and what it pays, is on the
    slip): 'Bonus +$270.00 (envy x2)', 'Bonus -$5.00 (fouled)'."""
    if slip.bonus is None:
        return ""
    mine = [x for x in slip.bonus.lines if x.seat == seat]
    if not mine:
        return ""
    envy = sum(x.kind == "envy" for x in mine)
    notes = ([f"envy x{envy}" if envy > 1 else "envy"] if envy else []) + \
        (["dragon"] if any(x.position != seat and x.kind == "bonus" for x in mine) else []) + \
        (["fouled"] if any(x.note for x in mine) else [])
    return (f"Bonus {money(sum(x.amount for x in mine), sign=True)}"
            + (f" ({', '.join(notes)})" if notes else ""))


def _preview(record: HandSet | HandReturned, rules: HandRules) -> dict[str, object]:
    """What entering these two cards would do, from the round's own answer."""
    hand = record.hand
    if hand.foul is not None:
        return {"note": "If set: " + foul_words(hand) + returned_words(record),
                "note_kind": "preview-foul",
                "hands": hand_words(hand, rules)}
    return {"note": "Legal: press F (or Enter) to set this front", "note_kind": "preview-legal",
            "hands": hand_words(hand, rules)}


def _replace(state: SeatState, values: Mapping[str, object]) -> SeatState:
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


def source_words(inp: ActionInput) -> str:
    """Where the action came from, for the centre of the felt."""
    if inp.origin is Origin.DEVICE:
        kind = "dice shaker" if inp.action.dice else "shuffler"
        return f" (sent by the {kind}" + (f" {inp.device}" if inp.device else "") + ")"
    return ""


def bank_words(rnd: Round, bank_offer: int | None) -> str:
    bank = rnd.bank
    if bank.player is not None:
        co = ", co-banked with the house" if bank.co_bank else ""
        return f"Bank: seat {bank.player} - {money(bank.stake or 0)} in chips{co}"
    if bank_offer is not None:
        return f"Bank: offered to seat {bank_offer}"
    return "Bank: the dealer"


def center_state(rnd: Round | None, table: Table, action_input: ActionInput | None = None,
                 device_action: ActionInput | None = None,
                 bank_offer: int | None = None) -> CenterState:
    direction = table.direction.value
    no_play = table.no_play_between(rnd.banker if rnd is not None else DEALER)
    if rnd is None:
        return CenterState(f"PAI GOW POKER - {table.name}", PHASE_WORDS[None], "",
                           f"Seats 1-6 numbered {direction} from the dealer's left", "",
                           no_play)
    heading = f"PAI GOW POKER - {table.name} - round {rnd.rotation.round_no}"
    action = rnd.action
    bank = bank_words(rnd, bank_offer)
    if action is None:
        waiting = "Action: not yet taken"
        if device_action is not None:
            waiting = (f"Action: {device_action.action}{source_words(device_action)} - R "
                       f"takes it")
        return CenterState(heading, PHASE_WORDS[rnd.phase], waiting,
                           f"Deal and pay {direction} from action", bank, no_play)
    source = source_words(action_input) if action_input is not None else ""
    return CenterState(heading, PHASE_WORDS[rnd.phase],
                       f"Action: {action.action}{source} -> {position_name(action.position)}",
                       f"{direction.capitalize()}: {order_text(table, action.position)}", bank,
                       no_play)


def slip_state(slip: Slip) -> SlipState:
    rows = []
    bank = slip.bank
    first = next((line for line in slip.lines if line.order is not None), None)
    # "#" is the place from action, as the felt numbers it (the slip lists the places in
    # that order); the one place paid out of turn (the dealer's hand, first against a
    # player's bank) says so in words (issue 25).
    for place, line in enumerate(slip.lines, start=1):
        text, kind = result_words(line)
        hands = (f"{cards_text(line.setting.low)} | {cards_text(line.setting.high)}"
                 if line.setting else cards_text(line.cards))
        how = []
        if line.rule:  # the row's id and shorthand are the printed slip's and the pit's
            how.append(glossary.house_way_words(line.rule_says))
        if line.foul:
            how.append(f"foul: {line.foul}")
        if line.note:
            how.append(line.note)
        if line.order == 1 and line is not first:
            how.insert(0, "settled first, against the player's bank")
        outcome = kind.upper() if line.outcome else (
            "BANK" if line.role is Role.BANK else "mucked")
        if line.outcome is Outcome.WIN and line.win < line.wager:
            outcome = "WIN*"
        commission = money(line.commission) if line.commission else ""
        net = money(line.net, sign=True) if line.outcome is not None else ""
        if line.role is Role.BANK and bank.player is not None:
            commission = money(bank.commission) if bank.commission else ""
            net = money(bank.net, sign=True)
        rows.append(SlipRow(
            order=str(place),
            position=line.name, hands=hands, result=outcome,
            wager=money(line.wager) if line.wager else "",
            commission=commission, net=net,
            kind=kind or ("bank" if line.role is Role.BANK else ""),
            detail="; ".join(how)))
    t = slip.totals
    totals = (f"Wagers {money(t.wagers)}   Players net {money(t.players_net, sign=True)}\n"
              f"Commission {money(t.commission)}   House net {money(t.house_net, sign=True)}")
    if bank.player is not None:
        totals += (f"\nBanker seat {bank.player} (the dealer's hand settled first): bank "
                   f"{money(bank.stake or 0)}, collected "
                   f"{money(bank.collected)}, paid {money(bank.paid)}, commission "
                   f"{money(bank.commission)}, net {money(bank.net, sign=True)}")
        if bank.co_bank:
            totals += f" (house's half {money(bank.house_share, sign=True)})"
        if bank.exhausted:
            short = [f"{line.name} paid {money(line.win)} of {money(line.wager)}"
                     if line.outcome is Outcome.WIN else f"{line.name}'s wager returned"
                     for line in slip.lines
                     if line.outcome is Outcome.RETURNED
                     or (line.outcome is Outcome.WIN and line.win < line.wager)]
            totals += "\n* The bank ran out: " + "; ".join(short)
    if slip.bonus is not None:
        rows.extend(_bonus_rows(slip.bonus))
        totals += (f"\nBonus wagers {money(slip.bonus.wagers)}   players net "
                   f"{money(slip.bonus.net, sign=True)}")
    if slip.progressive is not None:
        rows.extend(_progressive_rows(slip.progressive))
    heading = (f"Table {slip.table}, round {slip.round}: action {slip.action.number} -> "
               f"{position_name(slip.action_position)}, bank {bank.who}")
    return SlipState(heading, tuple(rows), totals, slip.text())


def outcome_of(slip: Slip, position: int) -> Outcome | None:
    return slip.line(position).outcome
