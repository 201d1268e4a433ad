"""The round as the ledger keeps it: every record of `Round.log` as JSON, and the round
rebuilt from them.

A round is written as it goes, one record at a time, so the ledger can hold a round that is
not finished. `replay()` rebuilds it by playing the records through a new `Round` with the
same rules and rotation, the same calls the dealer made, and checks that every record it
makes is the one that was written: a rebuilt round is the round, card for card and cent for
cent, or an error says where it differs.

Two records are not calls: the dealer's `BankTaken` is made by `set_action`, and a
`Misdealt` holds only the problems (the round keeps no misdealt cards), so a misdeal is
replayed by putting the round in its misdeal phase with the record as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import cast

from app.core.banker import BankRotation, Eligibility
from app.core.cards import Card, cards_text, parse_cards
from app.core.hands import Setting, foul_reason
from app.core.round import (
    ActionCounted,
    BankPassed,
    BankTaken,
    BonusApproved,
    BonusHeld,
    BonusPlaced,
    BonusWithdrawn,
    Dealt,
    DragonBonusPlaced,
    DragonBonusWithdrawn,
    DragonPassed,
    DragonTaken,
    HandReturned,
    HandSet,
    HouseWayAsked,
    HouseWayShown,
    Misdealt,
    Phase,
    ProgressivePlaced,
    ProgressiveWithdrawn,
    Record,
    Round,
    RoundRules,
    Settled,
    WagerPlaced,
    WagerWithdrawn,
)
from app.core.rules_data import (
    RulesDataError,
    rotation_from_data,
    rotation_to_data,
    rules_from_data,
    rules_to_data,
)
from app.core.settlement import Hand, SetBy
from app.core.table import (
    CARDS_PER_HAND,
    HANDS,
    Action,
    ActionSource,
    DealMode,
)

from .errors import LedgerError
from .payloads import ActionJson, DealJson, EligibilityJson, HandJson, Json, RecordJson

RULES_SCHEMA = "paigow.rules/1"
ROTATION_SCHEMA = "paigow.rotation/1"

class CodecError(LedgerError):
    """A stored record that cannot be read, or a round that does not replay as written."""


# --- cards ---------------------------------------------------------------------------------

def _cards(text: str | None) -> tuple[Card, ...]:
    return parse_cards(text) if text else ()


# --- the rules and the rotation: the core's structured form ------------------------------

def encode_rules(rules: RoundRules) -> Json:
    return rules_to_data(rules)


def decode_rules(data: Mapping[str, object]) -> RoundRules:
    try:
        return rules_from_data(data)
    except RulesDataError as e:
        raise CodecError(str(e)) from None


def encode_rotation(rotation: BankRotation) -> Json:
    return rotation_to_data(rotation)


def decode_rotation(data: Mapping[str, object]) -> BankRotation:
    try:
        return rotation_from_data(data)
    except RulesDataError as e:
        raise CodecError(str(e)) from None


# --- records -------------------------------------------------------------------------------

def _eligibility(e: Eligibility | None) -> EligibilityJson | None:
    if e is None:
        return None
    return {"seat": e.seat, "eligible": e.eligible, "reasons": list(e.reasons),
            "chips_cents": e.chips, "cover_cents": e.cover}


def encode_eligibility(e: Eligibility) -> EligibilityJson:
    out = _eligibility(e)
    assert out is not None
    return out


def _action(a: Action) -> ActionJson:
    return {"number": a.number, "source": a.source.value, "dice": list(a.dice),
            "drawn_by": a.drawn_by}


def _decode_action(d: ActionJson) -> Action:
    return Action(d["number"], ActionSource(d["source"]), tuple(d["dice"]), d["drawn_by"])


def encode_hand(h: Hand) -> HandJson:
    return {
        "position": h.position, "role": h.role.value, "player": h.player,
        "cards": cards_text(h.cards), "wager_cents": h.wager,
        "low": cards_text(h.setting.low) if h.setting else None,
        "high": cards_text(h.setting.high) if h.setting else None,
        "set_by": h.set_by.value if h.set_by else None,
        "rule": h.rule, "rule_says": h.rule_says, "foul": h.foul, "forfeit": h.forfeit,
    }


def encode_record(record: Record) -> RecordJson:
    """One record of `Round.log` as JSON (`type` names it)."""
    match record:
        case WagerPlaced(seat, wager, rule):
            return {"type": "wager_placed", "seat": seat, "wager_cents": wager, "rule": rule}
        case WagerWithdrawn(seat, wager):
            return {"type": "wager_withdrawn", "seat": seat, "wager_cents": wager}
        case BankPassed(seat):
            return {"type": "bank_passed", "seat": seat}
        case BonusPlaced(seat, wager, rule):
            return {"type": "bonus_placed", "seat": seat, "wager_cents": wager, "rule": rule}
        case BonusWithdrawn(seat, wager):
            return {"type": "bonus_withdrawn", "seat": seat, "wager_cents": wager}
        case DragonBonusPlaced(seat, position, wager, rule):
            return {"type": "dragon_bonus_placed", "seat": seat, "position": position,
                    "wager_cents": wager, "rule": rule}
        case DragonBonusWithdrawn(seat, position, wager):
            return {"type": "dragon_bonus_withdrawn", "seat": seat, "position": position,
                    "wager_cents": wager}
        case ProgressivePlaced(seat, wager, rule):
            return {"type": "progressive_placed", "seat": seat, "wager_cents": wager,
                    "rule": rule}
        case ProgressiveWithdrawn(seat, wager):
            return {"type": "progressive_withdrawn", "seat": seat, "wager_cents": wager}
        case BonusHeld(lines, rule):
            return {"type": "bonus_held", "lines": [x.to_dict() for x in lines], "rule": rule}
        case BonusApproved(supervisor, lines, rule):
            return {"type": "bonus_approved", "supervisor": supervisor,
                    "lines": [x.to_dict() for x in lines], "rule": rule}
        case BankTaken(position, player, chips, co_bank, dealer_wager, eligibility, rule):
            return {"type": "bank_taken", "position": position, "player": player,
                    "chips_cents": chips, "co_bank": co_bank,
                    "dealer_wager_cents": dealer_wager,
                    "eligibility": _eligibility(eligibility), "rule": rule}
        case ActionCounted(action, bank, position, direction, rule):
            return {"type": "action_counted", "action": _action(action), "bank": bank,
                    "position": position, "direction": direction.value, "rule": rule}
        case Dealt(deal, rule):
            return {"type": "dealt", "deal": {
                "order": list(deal.order), "hands": [cards_text(h) for h in deal.hands],
                "leftovers": cards_text(deal.leftovers),
                "leftovers_counted": deal.leftovers_counted, "mode": deal.mode},
                "rule": rule}
        case Misdealt(problems, rule):
            return {"type": "misdealt", "problems": list(problems), "rule": rule}
        case DragonPassed(seat):
            return {"type": "dragon_passed", "seat": seat}
        case DragonTaken(seat, position, wager, rule):
            return {"type": "dragon_taken", "seat": seat, "position": position,
                    "wager_cents": wager, "rule": rule}
        case HandSet(hand, rule):
            return {"type": "hand_set", "hand": encode_hand(hand), "rule": rule}
        case HandReturned(hand, rule):
            return {"type": "hand_returned", "hand": encode_hand(hand), "rule": rule}
        case HouseWayAsked(position, rule):
            return {"type": "house_way_asked", "position": position, "rule": rule}
        case HouseWayShown(position, setting, way, rule_id, says, rule):
            return {"type": "house_way_shown", "position": position,
                    "low": cards_text(setting.low), "high": cards_text(setting.high),
                    "way": way, "house_way_rule": rule_id, "house_way_says": says,
                    "rule": rule}
        case Settled(slip):
            return {"type": "settled", "slip": slip.to_dict()}
    raise CodecError(f"the ledger has no codec for {type(record).__name__}: add it to "
                     f"app/ledger/codec.py")


# What the core makes again, under the round's rules, from the records before: its words
# for the rule it applied, a bank's eligibility (the bank_decisions row keeps it), and a
# hand's cards (dealt), role, player, wager and its House Way rule's words (the hands row).
DERIVED = ("rule", "eligibility")
DERIVED_HAND = ("cards", "role", "player", "wager_cents", "rule_says")
AS_WRITTEN = ("misdealt",)  # replayed as written (its problems are not made again)


def stored_record(record: RecordJson) -> RecordJson:
    """A record as the ledger's event keeps it: what the dealer did and what was read, less
    what the core makes again when the round is replayed (DERIVED), which the replay then
    checks against the rest. The settled record keeps no slip: the round's row keeps it
    (app/ledger/slips.py). Events written before migration 0013 keep the whole record (and
    before 0012 the slip too); the replay takes each form."""
    kind = record.get("type")
    if kind == "settled":
        return cast(RecordJson, {"type": "settled"})
    if kind in AS_WRITTEN:
        return record.copy()
    kept = cast(RecordJson, {k: v for k, v in record.items() if k not in DERIVED})
    hand = record.get("hand")
    if isinstance(hand, dict):
        kept["hand"] = cast(HandJson, {k: v for k, v in hand.items()
                                       if k not in DERIVED_HAND})
    return kept


RECORD_TYPES = ("wager_placed", "wager_withdrawn", "bank_passed", "bank_taken",
                "action_counted", "dealt", "misdealt", "dragon_passed", "dragon_taken",
                "hand_set", "hand_returned", "house_way_asked", "house_way_shown", "settled",
                "bonus_placed", "bonus_withdrawn", "bonus_held", "bonus_approved",
                "dragon_bonus_placed", "dragon_bonus_withdrawn", "progressive_placed",
                "progressive_withdrawn")


# --- replay --------------------------------------------------------------------------------

def _is_implied(data: RecordJson) -> bool:
    """The dealer's bank, which `set_action` records itself. Read with .get: a record changed
    outside the stations may lack either key, and is then named by the check against the
    record the core makes."""
    return data.get("type") == "bank_taken" and data.get("player") is None


def _front(game: Round, hand: HandJson) -> tuple[Card, ...] | None:
    """The two cards the dealer entered in front for a recorded setting (None: House Way)."""
    set_by = SetBy(hand["set_by"])
    if set_by in (SetBy.HOUSE_WAY, SetBy.AFTER_BANK):
        return None
    if set_by is SetBy.PLAYER:
        return _cards(hand["low"])
    # A reset: the House Way setting does not depend on the foul entered, only its reason
    # does, so any front that fouls for the same reason makes the same record.
    cards = game.hands[hand["position"]].cards
    for front in combinations(cards, 2):
        setting = Setting.from_front(cards, front)
        if foul_reason(setting, cards, game.rules.hands) == hand["foul"]:
            return tuple(front)
    raise CodecError(f"position {hand['position']}: no two cards in front foul as recorded "
                     f"({hand['foul']})")


def _apply(game: Round, data: RecordJson) -> None:
    kind = data["type"]
    match kind:
        case "wager_placed":
            game.place_wager(data["seat"], data["wager_cents"])
        case "wager_withdrawn":
            game.withdraw_wager(data["seat"])
        case "bank_passed":
            game.pass_bank(data["seat"])
        case "bank_taken":
            seat, chips = data["player"], data["chips_cents"]
            if seat is None or chips is None:  # the dealer's bank is never replayed here
                raise ValueError("a player's bank without the player or the chips")
            game.take_bank(seat, chips, data["co_bank"])
        case "action_counted":
            game.set_action(_decode_action(data["action"]))
        case "dealt":
            _replay_deal(game, data["deal"])
        case "misdealt":
            game.phase = Phase.MISDEAL
            game.log.append(Misdealt(tuple(data["problems"]), data["rule"]))
        case "dragon_passed":
            game.pass_dragon(data["seat"])
        case "dragon_taken":
            game.take_dragon(data["seat"], data["wager_cents"], data["position"])
        case "hand_set":
            game.set_hand(data["hand"]["position"], _front(game, data["hand"]))
        case "hand_returned":  # the foul the player set, given back to set again
            game.set_hand(data["hand"]["position"], _cards(data["hand"]["low"]))
        case "house_way_asked":
            game.ask_house_way(data["position"])
        case "house_way_shown":
            game.show_house_way(data["position"])
        case "bonus_placed":
            game.place_bonus(data["seat"], data["wager_cents"])
        case "bonus_withdrawn":
            game.withdraw_bonus(data["seat"])
        case "dragon_bonus_placed":
            game.place_dragon_bonus(data["position"], data["wager_cents"])
        case "dragon_bonus_withdrawn":
            game.withdraw_dragon_bonus(data["position"])
        case "progressive_placed":
            game.place_progressive(data["seat"])
        case "progressive_withdrawn":
            game.withdraw_progressive(data["seat"])
        case "bonus_held":
            game.hold_bonus()
        case "bonus_approved":
            game.approve_bonus(data["supervisor"])
        case "settled":
            game.settle()
        case _:
            raise CodecError(f"a record of an unknown type {kind!r}: this station is older "
                             f"than the ledger")


def _replay_deal(game: Round, deal: DealJson) -> None:
    order: list[int] = deal["order"]
    hands = [_cards(h) for h in deal["hands"]]
    leftovers = _cards(deal["leftovers"]) if deal["leftovers_counted"] else None
    mode = deal["mode"]
    if mode == DealMode.STACKS.value:
        game.deal_stacks(hands, leftovers)
    elif mode == DealMode.ONE_AT_A_TIME.value:
        cards = [hands[k % HANDS][k // HANDS] for k in range(HANDS * CARDS_PER_HAND)]
        game.deal_one_at_a_time([*cards, *(leftovers or ())])
    else:
        game.deal_by_position(dict(zip(order, hands, strict=True)), leftovers)


def replay(rules: RoundRules, rotation: BankRotation,
           records: Sequence[RecordJson]) -> Round:
    """The round rebuilt from its records, each checked against what was written."""
    game = Round(rules, rotation)
    for i, data in enumerate(records):
        if len(game.log) > i:  # made already by the call before (the dealer's bank)
            _check(game, records, i)
            continue
        if _is_implied(data):
            continue
        before = len(game.log)
        try:
            _apply(game, data)
        except LedgerError:
            raise
        except Exception as e:  # a Misdeal is a record; anything else is a broken record
            if len(game.log) == before:
                raise CodecError(f"record {i + 1} ({data.get('type')}) does not replay: "
                                 f"{e}") from None
        for j in range(before, len(game.log)):
            _check(game, records, j)
    if records and len(game.log) == len(records) - 1 and _is_implied(records[-1]):
        raise CodecError("the records end inside a change (the dealer's bank without the "
                         "action that made it): they were cut short")
    if len(game.log) != len(records):
        raise CodecError(f"the round replays to {len(game.log)} records, not the "
                         f"{len(records)} written")
    return game


# What the ledger adds to a record beside what the core made: how a supervisor's approval
# was authorised (app/ledger/store.py), which the replay does not make again.
LEDGER_KEYS = ("authorised",)


def _check(game: Round, records: Sequence[RecordJson], i: int) -> None:
    made = encode_record(game.log[i])
    kept = {k: v for k, v in records[i].items() if k not in LEDGER_KEYS} \
        if i < len(records) else None
    if kept is None or kept not in (made, stored_record(made)):
        written = records[i].get("type") if i < len(records) else "nothing"
        raise CodecError(f"record {i + 1} replays as {made['type']}, not as written "
                         f"({written}): the round cannot be rebuilt exactly")
