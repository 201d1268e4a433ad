"""The session's words for the dealer: positions, the round's records, a foul, a seat's
standing for the bank. Plain text from the core's values (the window's present.py words the
same facts for its views)."""

from __future__ import annotations

import re

from app.core.banker import BankRotation
from app.core.cards import cards_text
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
    ProgressivePlaced,
    ProgressiveWithdrawn,
    Record,
    Round,
    RoundRules,
    Settled,
    WagerPlaced,
    WagerWithdrawn,
)
from app.core.settlement import Hand, SetBy, money
from app.core.table import ActionSource, position_name
from drivers.action import ActionInput

from . import glossary

# The core's record ends a House Way setting with the card's row: its id and its shorthand
# ("rule ST-X: A straight with no pair: Follow the steps described for ..."), the pit's small
# print. The log says the kind of hand instead (glossary.house_way_words).
_HOUSE_WAY_ROW = re.compile(r"set the House Way \([^)]*\), rule \S+: .*$")

RICH = 10 ** 13  # chips enough to cover any table: what is left is why not


def name(position: int) -> str:
    """`Seat 3`, `Dealer`: a position at a sentence's start."""
    text = position_name(position)
    return text[0].upper() + text[1:]


def seats_words(seats: list[int]) -> str:
    if len(seats) == 1:
        return f"Seat {seats[0]} passes"
    return "Seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]} pass"


def device_name(inp: ActionInput) -> str:
    return "dice shaker" if inp.action.source is ActionSource.DICE else "shuffler"


def foul_words(hand: Hand) -> str:
    """A foul with its reason and what it cost, from the hand the round recorded."""
    if hand.foul is None:
        return ""
    if hand.forfeit:
        penalty = "the hand forfeits"
    elif hand.set_by is SetBy.RESET:
        penalty = f"reset by the {glossary.house_way_words(hand.rule_says)}"
    else:
        penalty = ""
    return f"FOUL: {hand.foul}" + (f" - {penalty}" if penalty else "")


def returned_words(record: HandSet | HandReturned) -> str:
    """What a foul costs when the table gives the hand back to be set again."""
    return (" - it goes back to the player to set again" if isinstance(record, HandReturned)
            else "")


def bank_standing(rnd: Round, seat: int) -> tuple[bool, str, int]:
    """Could the seat bank this round with chips enough, the core's reasons that do not
    depend on the chips (what failed when it could not, else what it met), and what its
    chips must cover now (cents)."""
    rich = rnd.eligibility(seat, RICH)
    poor = rnd.eligibility(seat, 0)
    reasons = (rich.failed if not rich.eligible
               else tuple(r for r in rich.met if r in poor.reasons))
    return rich.eligible, "; ".join(reasons), poor.cover


def record_text(record: Record) -> str:
    """One line of the round's log."""
    match record:
        case WagerPlaced(seat=seat, wager=wager):
            return f"{name(seat)} wagers {money(wager)}"
        case WagerWithdrawn(seat=seat, wager=wager):
            return f"{name(seat)} takes back {money(wager)}"
        case BankPassed(seat=seat):
            return f"{name(seat)} passes the bank"
        case BonusPlaced(seat=seat, wager=wager):
            return f"{name(seat)} bonus {money(wager)}"
        case BonusWithdrawn(seat=seat, wager=wager):
            return f"{name(seat)} takes back the bonus {money(wager)}"
        case DragonBonusPlaced(seat=seat, position=position, wager=wager):
            return f"{name(seat)} bonus {money(wager)} on the dragon hand at {name(position)}"
        case DragonBonusWithdrawn(seat=seat, position=position, wager=wager):
            return (f"{name(seat)} takes back the bonus {money(wager)} on the dragon hand at "
                    f"{name(position)}")
        case ProgressivePlaced(seat=seat, wager=wager):
            return f"{name(seat)} progressive {money(wager)}"
        case ProgressiveWithdrawn(seat=seat, wager=wager):
            return f"{name(seat)} takes back the progressive {money(wager)}"
        case BonusHeld(lines=lines):
            return ("Waiting for a supervisor (the floor is told): "
                    + "; ".join(x.text for x in lines))
        case BonusApproved(supervisor=who, lines=lines):
            return f"Approved by {who}: " + "; ".join(x.text for x in lines)
        case BankTaken(position=position, player=player, chips=chips, rule=rule):
            who = "the dealer" if player is None else f"seat {position}"
            stake = f" with {money(chips)}" if chips is not None else ""
            return f"Bank: {who}{stake} ({rule})"
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
            return (f"{name(seat)} takes {position_name(position)}'s hand as a dragon, "
                    f"{money(wager)}")
        case DragonPassed(seat=seat):
            return f"{name(seat)} passes the dragon"
        case HandSet(hand=hand, rule=rule):
            setting = (f"{cards_text(hand.setting.low)} | {cards_text(hand.setting.high)}"
                       if hand.setting else "")
            if hand.rule_says:
                rule = _HOUSE_WAY_ROW.sub(glossary.house_way_words(hand.rule_says), rule)
            return f"{name(hand.position)}: {setting} - {rule}"
        case HandReturned(hand=hand):
            front = cards_text(hand.setting.low) if hand.setting else ""
            return (f"{name(hand.position)}: {front} in front is a foul ({hand.foul}): "
                    f"returned to the player to set again")
        case HouseWayAsked(position=position):
            return (f"{name(position)} asks for the House Way: the seven cards stay in one "
                    f"pile, set by the dealer after the bank")
        case HouseWayShown(position=position, setting=setting, says=says):
            return (f"House Way shown to {position_name(position)}: "
                    f"{cards_text(setting.low)} | {cards_text(setting.high)} "
                    f"({glossary.house_way_words(says)}); not set")
        case Settled(slip=slip):
            t = slip.totals
            bonus = (f"; bonus: players net {money(slip.bonus.net, sign=True)}"
                     if slip.bonus is not None else "")
            if slip.progressive is not None:
                hits = slip.progressive.hits()
                bonus += (f"; progressive wagers {money(slip.progressive.wagers)}"
                          + "".join(f"; progressive HIT at {position_name(x.seat)}: {x.hand}"
                                    for x in hits))
            return (f"Settled: players net {money(t.players_net, sign=True)}, commission "
                    f"{money(t.commission)}, house net {money(t.house_net, sign=True)}"
                    + bonus)
    return str(record)


def rotation_lines(rotation: BankRotation, rules: RoundRules) -> list[str]:
    """The bank rotation as the pit reads it (the station's pit view and the floor)."""
    lines = []
    if not rules.banking.enabled:
        lines.append("This table plays no player banking: the dealer banks every round.")
    elif rotation.first_round:
        lines.append(f"Round {rotation.round_no}: the dealer banks the first round; the bank "
                     f"is offered to the players from the next.")
    else:
        order = rotation.offer_order(rules.table, rules.banking)
        lines.append(f"Round {rotation.round_no}: the bank is offered in turn: "
                     + " > ".join(position_name(p) for p in order) + ".")
    lines.append("Last round's banker: " + (f"seat {rotation.last_banker}"
                                              if rotation.last_banker is not None
                                              else "the dealer")
                 + ("" if rules.banking.consecutive or rotation.last_banker is None
                    else " (it may not bank two rounds in a row)") + ".")
    bets = ", ".join(f"seat {s} {money(c)}" for s, c in rotation.house_bets) or "none"
    lines.append(f"Wagered against the dealer in the last round with no player banker: "
                 f"{bets}.")
    if rules.dragon.enabled:
        lines.append("Last dragon taken by: " + (f"seat {rotation.last_dragon}"
                                                  if rotation.last_dragon is not None
                                                  else "no one yet") + ".")
    return lines
