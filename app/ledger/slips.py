"""The slip as the ledger keeps it: once, as JSON, less what the round's other rows hold.

A settled round's slip (`paigow.slip/1`, `Slip.to_dict`) repeats what the ledger already
keeps in rows of its own: the table, round number, action, leftovers and totals are the
round's columns; the rules, in words, are the rules stored with the round (`config`);
each position's role, player, cards, setting, House Way rule and foul are its `hands` row;
its outcome and money are its original `settlements` row. Since migration 0013 the round's
`slip_json` keeps only the rest (`paigow.ledger-slip/1`): the bank's result, and each
settled position's front, back and order - plus any
value that the rows do not give exactly, so the slip read back is always the slip as
settled, key for key (`kept` checks that before it leaves anything out). The words of the
slip (`slip_text`) are rendered from it by the core, so they are not stored either; a round
stored before keeps its whole JSON and its words, read as they are.

Since migration 0014 the bonus and envy lines are rows of their own (`bonus_settlements`,
one a line in the order paid): the kept slip leaves out its `bonus` (but who approved a
payout that waited, which the round's `bonus_approved` event holds), and its words, the
pay text and the totals are made again from the rows and the pay card stored with the
round (`app.core.bonus.payout`). A round settled before keeps its lines in its slip.

Every row the slip is read from is chained, so the slip is as provable as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.bonus.payout import payout_again
from app.core.round import RoundRules
from app.core.settlement import (
    SLIP_SCHEMA,
    BankDict,
    BonusDict,
    PositionDict,
    Role,
    SlipDict,
    line_name,
)

from .codec import CodecError, decode_rules
from .models import BonusSettlementRow, HandRow, RoundRow, SettlementRow

KEPT = "paigow.ledger-slip/1"
"""The schema of a slip as the round's row keeps it (the slip less what rows hold)."""

SLIP_KEYS = ("schema", "table", "round", "action", "rules", "bank", "positions", "leftovers",
             "leftovers_counted", "totals", "bonus", "settled_at", "ledger_head")
POSITION_KEYS = tuple(PositionDict.__annotations__)
BANK_KEYS = tuple(BankDict.__annotations__)


def _rules(rnd: RoundRow) -> RoundRules | None:
    """The rules stored with the round; None when they are not as a station stores them
    (the slip then keeps its own words)."""
    try:
        return decode_rules(json.loads(rnd.config)["rules"])
    except (ValueError, KeyError, TypeError, RecursionError, CodecError):
        return None


def _rules_words(rnd: RoundRow, bet_bonus: bool) -> dict[str, object]:
    """The slip's rules, in words, from the rules stored with the round: the bonus among
    them when a seat bet it (as the round's slip names it)."""
    rules = _rules(rnd)
    if rules is None:
        return {}
    bonus = (("bonus", rules.bonus.summary()),) if bet_bonus and rules.bonus else ()
    return {"rules": dict(rules.summary() + bonus)}


def _bonus_part(s: Session, rnd: RoundRow) -> BonusDict | None:
    """The slip's `bonus` as the round's bonus rows (in the order paid) and its stored pay
    card make it, less who approved. None: the round was played with no bonus (its rows are
    not looked for), it has no rows (none bet, or settled before them), or its rows are
    not as a station writes them."""
    rules = _rules(rnd)
    bonus = rules.bonus if rules is not None else None
    rows = bonus_rows(s, rnd) if bonus is not None else []
    if bonus is None or not rows:
        return None
    try:
        lines = [payout_again(kind=r.kind, seat=r.seat, position=r.position,
                              wager=r.wager_cents, category=r.category, amount=r.paid_cents,
                              from_position=r.from_position, supervisor=r.supervisor,
                              note=r.note or "", pays=bonus.pays).to_dict() for r in rows]
    except ValueError:
        return None
    return {"pay_card": bonus.pays.name,
            "envy_card": bonus.envy.name if bonus.envy is not None else None,
            "wagers_cents": sum(r.wager_cents for r in rows if r.kind == "bonus"),
            "net_cents": sum(r.paid_cents for r in rows), "approved_by": None,
            "lines": lines}


def bonus_rows(s: Session, rnd: RoundRow) -> list[BonusSettlementRow]:
    """The round's bonus and envy lines, in the order paid (none before migration 0014)."""
    return list(s.scalars(select(BonusSettlementRow).where(
        BonusSettlementRow.round_id == rnd.id).order_by(BonusSettlementRow.line_no)))


def _round_part(rnd: RoundRow, bet_bonus: bool) -> dict[str, object]:
    """What the round's own columns say of its slip (`bet_bonus`: its bonus rows say a seat
    bet the bonus)."""
    return {
        **_rules_words(rnd, bet_bonus),
        "schema": SLIP_SCHEMA, "table": rnd.table_name, "round": rnd.round_no,
        "action": {"source": rnd.action_source, "number": rnd.action_number,
                   "dice": [int(d) for d in rnd.action_dice.split("+")]
                   if rnd.action_dice else None,
                   "drawn_by": rnd.action_drawn_by, "counted_from": rnd.counted_from,
                   "position": rnd.action_position, "direction": rnd.direction},
        "leftovers": rnd.leftovers, "leftovers_counted": rnd.leftovers_counted,
        "totals": {"wagers_cents": rnd.wagers_cents,
                   "players_net_cents": rnd.players_net_cents,
                   "commission_cents": rnd.commission_cents,
                   "banker_net_cents": rnd.banker_net_cents,
                   "house_net_cents": rnd.house_net_cents},
    }


def _bank_part(rnd: RoundRow) -> dict[str, object]:
    out: dict[str, object] = {
        "who": "house" if rnd.banker_seat is None else f"seat {rnd.banker_seat}",
        "position": rnd.banker_position, "player": rnd.banker_seat, "co_bank": rnd.co_bank}
    if rnd.banker_seat is None:  # the house covers every wager: no stake, no banker's share
        out.update(stake_cents=None, commission_cents=0, net_cents=0, exhausted=False,
                   remaining_cents=None)
    return out


def _position_part(hand: HandRow | None, paid: SettlementRow | None) -> dict[str, object]:
    """What a position's hand row and original settlement row say of its line."""
    out: dict[str, object] = {}
    if hand is not None:
        try:
            role = Role(hand.role)
        except ValueError:
            role = None
        if role is not None:
            out["name"] = line_name(hand.position, role, hand.seat)
        out.update(role=hand.role, player=hand.seat, cards=hand.cards, low=hand.low,
                   high=hand.high, set_by=hand.set_by, house_way_rule=hand.rule_id,
                   house_way_says=hand.rule_says, foul=hand.foul)
    if paid is not None:
        out.update(outcome=paid.outcome, wager_cents=paid.wager_cents,
                   win_cents=paid.win_cents, commission_cents=paid.commission_cents,
                   net_cents=paid.net_cents, note=paid.reason or "")
    else:  # the bank's hand, an unused hand: nothing settled there
        out.update(front=None, back=None, outcome=None, wager_cents=0, win_cents=0,
                   commission_cents=0, net_cents=0, order=None)
    return out


@dataclass(frozen=True)
class _Rows:
    """What the round's rows say of its slip."""

    hands: dict[int, HandRow]
    paid: dict[int, SettlementRow]
    bonus: BonusDict | None


def _rows(s: Session, rnd: RoundRow) -> _Rows:
    hands = {h.position: h for h in s.scalars(select(HandRow)
                                              .where(HandRow.round_id == rnd.id))}
    # a line's money is its original row; a player banker's own result is the bank's
    paid = {r.position: r for r in s.scalars(select(SettlementRow).where(
        SettlementRow.round_id == rnd.id, SettlementRow.entry == "original",
        SettlementRow.role != Role.BANK.value))}
    return _Rows(hands, paid, _bonus_part(s, rnd))


def _beyond(full: Mapping[str, object], given: Mapping[str, object]) -> dict[str, object]:
    """The keys of `full` whose value `given` does not hold exactly."""
    return {k: v for k, v in full.items() if k not in given or given[k] != v}


def kept(s: Session, rnd: RoundRow, slip: SlipDict) -> dict[str, object]:
    """The slip as the round's row keeps it: what its rows (as they stand in this
    transaction) do not give. The whole slip when it is not one this station makes, or
    when reading it back would not give it exactly."""
    if slip.get("schema") != SLIP_SCHEMA:
        return dict(slip)
    rows = _rows(s, rnd)
    top = _beyond({k: v for k, v in slip.items() if k not in ("bank", "positions", "bonus")},
                  _round_part(rnd, rows.bonus is not None))
    lines = []
    for line in slip["positions"]:
        given = _position_part(rows.hands.get(line["position"]),
                               rows.paid.get(line["position"]))
        lines.append({"position": line["position"],
                      **_beyond({k: v for k, v in line.items() if k != "position"}, given)})
    out = {"schema": KEPT, **{k: v for k, v in top.items() if k != "schema"},
           "bank": _beyond(slip["bank"], _bank_part(rnd)), "positions": lines}
    if "bonus" in slip:  # the lines are rows; who approved is the slip's to keep
        bonus = _beyond(slip["bonus"], rows.bonus or {})
        if bonus:
            out["bonus"] = bonus
    return out if _whole(out, rnd, rows) == slip else dict(slip)


def _whole(stored: Mapping[str, object], rnd: RoundRow, rows: _Rows) -> dict[str, object]:
    """The slip from what the round's row keeps and its rows; a key neither holds is
    left out (a slip of another shape is then named by whoever compares it)."""
    given = {**_round_part(rnd, rows.bonus is not None), **stored, "schema": SLIP_SCHEMA}
    bank = {**_bank_part(rnd), **cast(Mapping[str, object], stored.get("bank", {}))}
    lines = []
    for line in cast(Sequence[Mapping[str, object]], stored.get("positions", [])):
        at = cast(int, line.get("position"))
        full = {**_position_part(rows.hands.get(at), rows.paid.get(at)), **line}
        lines.append({k: full[k] for k in POSITION_KEYS if k in full})
    given["bank"] = {k: bank[k] for k in BANK_KEYS if k in bank}
    given["positions"] = lines
    if rows.bonus is not None:
        given["bonus"] = {**rows.bonus, **cast(Mapping[str, object], stored.get("bonus", {}))}
    return {k: given[k] for k in SLIP_KEYS if k in given}


def whole(s: Session, rnd: RoundRow, stored: Mapping[str, object]) -> SlipDict:
    """The slip of a settled round from its stored JSON (read with json.loads): as kept
    whole before 0013, or made whole again from the round's rows."""
    if stored.get("schema") != KEPT:
        return cast(SlipDict, stored)
    try:
        return cast(SlipDict, _whole(stored, rnd, _rows(s, rnd)))
    except (AttributeError, TypeError):  # not as a station keeps it: compared as it is
        return cast(SlipDict, stored)
