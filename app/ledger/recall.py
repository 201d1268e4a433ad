"""Game recall (issue 15): any round, years later, shown whole from the ledger, and its
settlement recomputed from what was recorded.

Shown: every card dealt, in the order dealt; each hand's setting, who set it and the House
Way rule that made it (with the rule's own words); the payouts in order from action, and
any correction after them; who was banker, who dealt, and every supervisor who acted on the
round (voided, corrected, checked the bank).

Recomputed: the round's recorded records (cards, wagers, bank, action, settings) are played
again through the core under the rules stored with the round (never today's config), up to
the settlement, and the core settles it afresh. What it pays is compared with every place
the ledger keeps the money: the settlement rows, the slip as printed (its JSON), and the
round's totals. `Recall.match` is True when all agree; else `differences` names each, in
words ("position 5 (seat 5): the ledger pays +$95.00, the cards and rules give +$90.25").
A record that does not replay is a difference too.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core.round import Round
from app.core.settlement import Slip, money
from app.core.table import DEALER, position_name
from app.session import glossary

from . import progressive, slips
from .chain import untrusted
from .codec import CodecError, decode_rotation, decode_rules, encode_record, replay
from .errors import LedgerError
from .escape import shown
from .models import (
    BankDecision,
    BonusSettlementRow,
    Event,
    RoundRow,
    SettlementRow,
    Shift,
    SignIn,
    Station,
)
from .payloads import HandJson, RecordJson
from .reads import find_round

SUPERVISED = ("round_voided", "override", "misdeal_called", "correction")


@dataclass(frozen=True)
class Recall:
    round_id: str
    table: str
    round_no: int
    status: str
    lines: tuple[str, ...]  # the round, as the auditor reads it
    differences: tuple[str, ...] = field(default=())
    recomputed: bool = False  # the core settled it again (a settled round whose records replay)

    @property
    def match(self) -> bool:
        return not self.differences

    @property
    def verdict(self) -> str:
        if self.differences:
            return "MISMATCH: " + "; ".join(self.differences)
        if self.recomputed:
            return ("MATCH: settled again from the recorded cards under the recorded rules, "
                    "the round pays exactly what the ledger paid")
        return f"MATCH: the round is {self.status}; nothing was paid and nothing is recorded " \
               f"as paid"

    def text(self) -> str:
        # Each line is shown, not obeyed: names, reasons and cards come from stored rows,
        # which anyone who can write the database can fill with ESC sequences or line ends.
        return "\n".join(shown(line) for line in [*self.lines, "", self.verdict])

    def to_dict(self) -> dict[str, object]:
        return {"round_id": self.round_id, "table": self.table, "round_no": self.round_no,
                "status": self.status, "match": self.match,
                "differences": list(self.differences), "recomputed": self.recomputed,
                "lines": list(self.lines)}


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M:%S UTC") if at is not None else "-"


def _key(position: int, role: str) -> str:
    if role == "bank":
        return f"{position_name(position)} (player banker)"
    if role == "dragon":
        return f"{position_name(position)} (dragon)"
    if role == "dealer" or position == DEALER:
        return "dealer's hand (vs the player banker)"
    return position_name(position)


def recall(s: Session, ref: str, table: str | None = None) -> Recall:
    """The round `ref` (its number, with `table` when several tables have it, or its id)."""
    rnd = find_round(s, ref, table)
    events = list(s.scalars(select(Event).where(Event.round_id == rnd.id)
                            .order_by(Event.at, Event.seq)))
    # read as a station writes them: a record of another shape is named where it is shown
    records = [cast(RecordJson, _stored_object(rnd, e.payload, f"record {e.seq}")) for e in sorted(
        (e for e in events if e.seq is not None and e.seq > 0), key=lambda e: e.seq or 0)]
    rows = list(s.scalars(select(SettlementRow).where(SettlementRow.round_id == rnd.id)
                          .order_by(SettlementRow.position, SettlementRow.entry_no)))
    shift = s.get(Shift, rnd.shift_id) if rnd.shift_id is not None else None
    station = s.get(Station, rnd.station_id)
    decisions = list(s.scalars(select(BankDecision).where(BankDecision.round_id == rnd.id)))
    lines: list[str] = []
    diffs: list[str] = []
    say = lines.append

    # A round is named as the pit names it (table, date, round number) and a station by its
    # name: the round's id is the ledger's, and stays in its exports (to_dict).
    say(f"{glossary.round_name(rnd.table_name, rnd.round_no, rnd.started_at)} - "
        f"{rnd.status.upper()}")
    say(f"  recorded by the station named {station.name if station else '(unknown)'}; "
        f"started {_when(rnd.started_at)}; settled {_when(rnd.settled_at)}")
    try:
        stored = json.loads(rnd.config)
        rules = decode_rules(stored["rules"])
        rotation = decode_rotation(json.loads(rnd.rotation))
    except (RecursionError, ValueError, KeyError, TypeError, AttributeError, CodecError) as e:
        raise LedgerError(f"round {str(rnd.id)[:8]} has no rules stored with it that can be "
                          f"read ({e}): migrate the ledger (paigow ledger migrate)") from None
    way = getattr(rules.house_way, "name", str(rules.house_way))
    say(f"  rules as stored with the round: House Way {way}; commission {rules.commission}")
    game: Round | None = None
    try:
        game = replay(rules, rotation, [r for r in records if r.get("type") != "settled"])
    except LedgerError as e:
        diffs.append(f"the recorded records do not play again: {e}")
    # An event keeps what was done; the words the core gave it (the rule applied, a House
    # Way rule's text) are made again by the replay, which checked them against the rest.
    told = records if game is None else [encode_record(r) for r in game.log]

    # --- who ------------------------------------------------------------------------------
    say("")
    say("WHO")
    say(f"  dealer: {shift.dealer if shift else '(no shift recorded)'}")
    lines.extend(_shown("the bank", _banker, told, diffs))
    acted: list[tuple[datetime, str, str | None, str]] = [
        (e.at, e.kind, e.actor, e.payload) for e in events
             if (e.seq is None or e.seq == 0) and e.actor and e.kind != "round_begun"]
    for row in rows:
        if row.entry != "original":
            acted.append((row.at, f"{row.entry} at {_key(row.position, row.role)}", row.by,
                          json.dumps({"reason": row.reason})))
    for d in decisions:
        acted.append((d.at, "who may bank, checked", d.actor, "{}"))
    if not acted:
        say("  supervisors: none acted on this round")
    for at, kind, actor, payload in sorted(acted, key=lambda a: a[0]):
        why = _reason(payload)
        say(f"  {actor}: {kind.replace('_', ' ')} at {_when(at)}" + (f": {why}" if why else ""))

    # --- the cards, the settings -----------------------------------------------------------
    say("")
    say("CARDS DEALT, IN ORDER")
    lines.extend(_shown("the cards dealt", _cards, told, diffs))
    say("")
    say("SETTINGS (the two-card hand | the five-card hand)")
    lines.extend(_shown("the settings", _setting_lines, told, diffs))

    # --- the money -------------------------------------------------------------------------
    say("")
    say("PAYOUTS, IN ORDER FROM ACTION (as the ledger paid them)")
    originals = {(r.position, r.role): r for r in rows if r.entry == "original"}
    slip_data = (slips.whole(s, rnd, _stored_object(rnd, rnd.slip_json, "the slip"))
                 if rnd.slip_json else None)
    order = _slip_order(slip_data)
    for key in [*order, *sorted(k for k in originals if k not in order)]:
        paid = originals.get(key)
        if paid is not None:
            say(f"  {_key(*key)}: {paid.outcome} - wager {money(paid.wager_cents)}, "
                f"commission {money(paid.commission_cents)}, net "
                f"{money(paid.net_cents, sign=True)}")
    if not originals:
        say("  nothing was paid")
    lines.extend(_bonus_lines(slip_data, records))
    moved = progressive.round_moves(s, rnd.id)
    if moved:  # the linked progressive's rows of this round (docs/progressive.md)
        lines.extend(["", "PROGRESSIVE, AS THE METER TOOK AND PAID IT",
                      *progressive.moves_words(moved)])
    conn = s.connection()
    bonus_rows = slips.bonus_rows(s, rnd)
    for row_id, why in untrusted(conn, "bonus_settlements",
                                 [str(b.id) for b in bonus_rows]).items():
        b = next(b for b in bonus_rows if str(b.id) == row_id)
        diffs.append(f"{_bonus_key(b)} ({money(b.paid_cents, sign=True)}) is no record, it "
                     f"counts for nothing: {why}")
    forged = untrusted(conn, "settlements", [str(r.id) for r in rows])
    for row in rows:
        if row.entry != "original":
            void = " - NO RECORD: counts for nothing" if str(row.id) in forged else ""
            say(f"  {row.entry}: {_key(row.position, row.role)} "
                f"{money(row.net_cents, sign=True)} by {row.by}: {row.reason}{void}")
    for row in rows:
        if str(row.id) in forged:
            diffs.append(f"the {row.entry} at {_key(row.position, row.role)} "
                         f"({money(row.net_cents, sign=True)}) is no record, it counts for "
                         f"nothing: {forged[str(row.id)]}")
    for kind, found in (("round", untrusted(conn, "rounds", [str(rnd.id)])),
                        ("event", untrusted(conn, "events", [str(e.id) for e in events]))):
        diffs.extend(f"a {kind} row is no record: {why}" for why in found.values())
    diffs.extend(_approvals(s, events))

    recomputed = False
    if rnd.status == "settled":
        if game is not None:
            try:
                slip = game.settle()
                recomputed = True
                diffs.extend(_compare(slip, originals, slip_data, rnd, records))
                diffs.extend(_compare_bonus(slip, bonus_rows))
            except Exception as e:  # noqa: BLE001 - a round the core cannot settle is a finding
                diffs.append(f"the recorded round cannot be settled again under its rules: {e}")
    elif originals:
        diffs.append(f"the round is {rnd.status} but the ledger has money paid on it "
                     f"({len(originals)} settlement row(s))")
    return Recall(str(rnd.id), rnd.table_name, rnd.round_no, rnd.status, tuple(lines),
                  tuple(diffs), recomputed)


def _approvals(s: Session, events: Sequence[Event]) -> list[str]:
    """An approval counts only when the supervisor's right try it names is a record: a
    sign-in row signed by the station (or floor) that checked the secret."""
    named: dict[str, Event] = {}
    for e in events:
        try:
            sign_in = json.loads(e.payload).get("authorised", {}).get("sign_in")
        except (ValueError, AttributeError):
            continue  # a record of the wrong shape is said elsewhere
        if isinstance(sign_in, str):
            named[sign_in] = e
    if not named:
        return []
    forged = untrusted(s.connection(), "sign_ins", list(named))
    right = {str(i) for i in s.scalars(select(SignIn.id).where(
        SignIn.id.in_([uuid.UUID(i) for i in named if _is_uuid(i)]), SignIn.ok.is_(True)))}
    out = []
    for sign_in, e in named.items():
        why = forged.get(sign_in) or (None if sign_in in right else
                                      "it is not a right try of the secret")
        if why:
            out.append(f"the {e.kind.replace('_', ' ')} by {e.actor} names a supervisor's "
                       f"sign-in that is no record, so it was not authorised: {why}")
    return out


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def _reason(payload: str) -> str:
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return ""
    if not isinstance(data, dict):
        return ""
    return str(data.get("reason") or data.get("why") or "")


def _stored_object(rnd: RoundRow, text: str, what: str) -> dict[str, object]:
    """A JSON object the ledger stored with the round. A station only ever stores JSON
    objects, so one that cannot be read was written outside the stations: refused, saying
    which (the round cannot be recalled from it)."""
    try:
        data = json.loads(text)
    except RecursionError:  # json reads nested arrays and objects by recursing
        why = "its brackets nest deeper than any record"
    except json.JSONDecodeError as e:
        why = f"not JSON: {e.msg} at column {e.colno}"
    except ValueError:  # an integer past Python's 4,300 digits for reading one
        why = "it holds a number thousands of digits long"
    else:
        if isinstance(data, dict):
            return data
        why = "not a JSON object"
    raise LedgerError(f"round {str(rnd.id)[:8]}: {what} stored with it cannot be read ({why}): "
                      f"a station never stores that, so the ledger was changed outside the "
                      f"stations; keep this copy as it is, run `paigow ledger verify` and call "
                      f"the auditor")


# What a record of a shape no station writes raises when it is read as the station writes
# it (a key missing, a number where a list is, ...): the part it belongs to is then shown
# as unreadable, and named as a difference.
MISSHAPEN = (KeyError, TypeError, AttributeError, IndexError, ValueError)


def _shown(part: str, render: Callable[[Sequence[RecordJson]], list[str]],
           records: Sequence[RecordJson], diffs: list[str]) -> list[str]:
    try:
        return render(records)
    except MISSHAPEN:
        diffs.append(f"the records of {part} are not as a station writes them: they were "
                     f"changed outside the stations")
        return [f"  ({part}: the records are not as a station writes them and cannot be "
                f"shown; `paigow ledger export events` lists them as stored)"]


def _banker(records: Sequence[RecordJson]) -> list[str]:
    banker = next((r for r in records if r.get("type") == "bank_taken"), None)
    if banker is None or banker.get("player") is None:
        return ["  banker: the dealer (the house)"]
    chips = banker["chips_cents"]
    if chips is None:  # a player's bank always has them: a misshapen record (MISSHAPEN)
        raise TypeError("a player's bank without its chips")
    co = ", co-banked with the dealer" if banker.get("co_bank") else ""
    return [f"  banker: seat {banker['player']} with {money(chips)}{co}"
            + (f" ({banker['rule']})" if banker.get("rule") else "")]


def _cards(records: Sequence[RecordJson]) -> list[str]:
    out: list[str] = []
    say = out.append
    dealt = [r for r in records if r.get("type") == "dealt"]
    action = next((r for r in records if r.get("type") == "action_counted"), None)
    if action is not None:
        a = action["action"]
        dice = f" (dice {' '.join(map(str, a['dice']))})" if a.get("dice") else ""
        say(f"  action: {a.get('number')} by {a.get('source')}{dice} -> "
            f"{position_name(action['position'])}, dealt {action['direction']}")
    if not dealt:
        say("  no cards were dealt")
    for n, d in enumerate(dealt, 1):
        deal = d["deal"]
        if len(dealt) > 1:
            say(f"  deal {n}:")
        if deal["mode"] == "one-at-a-time":
            hands = [h.split() for h in deal["hands"]]
            seq = [hands[k % 7][k // 7] for k in range(49)]
            say(f"  one at a time, card by card: {' '.join(seq)}")
        for i, (position, hand) in enumerate(zip(deal["order"], deal["hands"], strict=False),
                                             1):
            say(f"  {i}. {position_name(position)}: {hand}")
        if deal.get("leftovers"):
            say(f"  left over: {deal['leftovers']}"
                + ("" if deal.get("leftovers_counted") else " (not read)"))
    for r in records:
        if r.get("type") == "misdealt":
            say(f"  MISDEAL: {'; '.join(r['problems'])} ({r['rule']})")
    return out


def _setting_lines(records: Sequence[RecordJson]) -> list[str]:
    out: list[str] = []
    settings = _settings(records)
    if not settings:
        out.append("  no hand was set")
    for position, h in settings.items():
        how = {"player": "set by the player", "house-way": "the House Way",
               "reset": "reset the House Way", "after-bank": "the House Way after the bank"
               }.get(h.get("set_by") or "", h.get("set_by") or "not set")
        rule = f", rule {h['rule']}: {h.get('rule_says') or ''}" if h.get("rule") else ""
        foul = f" - FOUL: {h['foul']}" + (" (forfeit)" if h.get("forfeit") else "") \
            if h.get("foul") else ""
        out.append(f"  {position_name(position)}: {h.get('low')} | {h.get('high')} - {how}"
                   f"{rule}{foul}")
    return out


def _bonus_lines(slip: Mapping[str, object] | None, records: Sequence[RecordJson]
                 ) -> list[str]:
    """The bonus and envy as the slip keeps them, in the order paid, and who approved a
    payout that waited (issue 26); nothing for a round with no bonus wager."""
    bonus = (slip or {}).get("bonus")
    if not isinstance(bonus, dict):
        return []
    out = ["", f"BONUS AND ENVY, IN THE ORDER PAID ({bonus.get('pay_card')}"
               + (f", envy {bonus.get('envy_card')}" if bonus.get("envy_card") else "") + ")"]
    for x in bonus.get("lines") or []:
        if isinstance(x, dict):
            out.append(f"  {x.get('text')}" + (f" [{x.get('note')}]" if x.get("note") else ""))
    for r in records:
        if r.get("type") == "bonus_held":
            out.append("  held for a supervisor (the floor was told): "
                       + "; ".join(str(x.get("text")) for x in r.get("lines", [])))
        elif r.get("type") == "bonus_approved":
            how: Mapping[str, object] = r.get("authorised") or {}
            out.append(f"  approved by {r.get('supervisor')}" + (
                f" ({how.get('by')}, sign-in {str(how['sign_in'])[:8]})" if how.get("sign_in")
                else f" ({how['by']})" if how.get("by") else ""))
    net = bonus.get("net_cents")
    if isinstance(net, int):
        out.append(f"  bonus wagers {money(int(str(bonus.get('wagers_cents', 0))))}; "
                   f"players net {money(net, sign=True)}, house net {money(-net, sign=True)}")
    return out


def _bonus_key(row: BonusSettlementRow) -> str:
    """A bonus row as the auditor finds it: its line, seat, kind and hand."""
    hand = (f" for the hand at {position_name(row.from_position)}"
            if row.from_position is not None else
            f" on the dragon hand at {position_name(row.position)}"
            if row.position != row.seat else "")
    return f"bonus line {row.line_no} ({position_name(row.seat)}'s {row.kind}{hand})"


def _compare_bonus(slip: Slip, rows: Sequence[BonusSettlementRow]) -> list[str]:
    """The bonus and envy rows (migration 0014) against the lines the core pays, line by
    line in the order paid. A round settled before has no rows: its slip is compared."""
    if not rows:
        return []
    want = slip.bonus.lines if slip.bonus is not None else ()
    out = []
    for no in range(1, max(len(want), len(rows)) + 1):
        row = rows[no - 1] if no <= len(rows) else None
        exp = want[no - 1] if no <= len(want) else None
        if row is None:
            assert exp is not None
            out.append(f"bonus line {no}: the ledger has no row; the cards and rules pay "
                       f"{exp.text}")
            continue
        got = (row.kind, row.seat, row.position, row.from_position, row.category,
               row.wager_cents, row.paid_cents)
        if exp is not None and got == (exp.kind, exp.seat, exp.position, exp.from_position,
                                       exp.category, exp.wager, exp.amount):
            continue
        paid = f"the ledger pays {row.category.replace('-', ' ')} " \
               f"{money(row.paid_cents, sign=True)} on a {money(row.wager_cents)} wager"
        out.append(f"{_bonus_key(row)}: {paid}; " + (
            f"the cards and rules pay {exp.text}" if exp is not None
            else "the cards and rules pay no such line"))
    return out


def _slip_order(slip: Mapping[str, object] | None) -> list[tuple[int, str]]:
    """The positions in the order the stored slip paid them; none when its lines are not
    as a station writes them (the comparison with the slip the core makes says so)."""
    lines = (slip or {}).get("positions", [])
    if not isinstance(lines, list) or not all(
            isinstance(ln, dict) and isinstance(ln.get("position"), int)
            and isinstance(ln.get("role"), str)
            and isinstance(ln.get("order"), int | None) for ln in lines):
        return []
    paid = sorted((ln for ln in lines if ln.get("outcome") is not None),
                  key=lambda ln: (ln.get("order") is None, ln.get("order") or 0))
    return [(ln["position"], ln["role"]) for ln in paid]


def _settings(records: Sequence[RecordJson]) -> dict[int, HandJson]:
    """Each position's last setting, in the order first set."""
    out: dict[int, HandJson] = {}
    for r in records:
        if r.get("type") in ("hand_set", "hand_returned"):
            out[r["hand"]["position"]] = r["hand"]
    return out


def _compare(slip: Slip, originals: Mapping[tuple[int, str], SettlementRow],
             stored: Mapping[str, object] | None, rnd: RoundRow,
             records: Sequence[RecordJson]) -> list[str]:
    """What the core pays against each place the ledger keeps it."""
    out: list[str] = []
    want: dict[tuple[int, str], tuple[str, int, int, int]] = {}
    for ln in slip.lines:
        if ln.outcome is not None:
            want[(ln.position, ln.role.value)] = (ln.outcome.value, ln.wager, ln.commission,
                                                  ln.net)
    if slip.bank.player is not None:
        want[(slip.bank.position, "bank")] = ("bank", 0, slip.bank.commission, slip.bank.net)
    for key in sorted(set(want) | set(originals)):
        row = originals.get(key)
        got = None if row is None else (row.outcome or "", row.wager_cents,
                                        row.commission_cents, row.net_cents)
        exp = want.get(key)
        if got == exp:
            continue
        if got is None:
            out.append(f"{_key(*key)}: the ledger has no payout; the cards and rules give "
                       f"{exp[0]} {money(exp[3], sign=True)}")  # type: ignore[index]
        elif exp is None:
            out.append(f"{_key(*key)}: the ledger pays {got[0]} {money(got[3], sign=True)}; "
                       f"the cards and rules pay nothing there")
        else:
            words = [f"{what} {a} in the ledger, {b} by the cards and rules"
                     for what, a, b in (
                         ("outcome", got[0], exp[0]),
                         ("wager", money(got[1]), money(exp[1])),
                         ("commission", money(got[2]), money(exp[2])),
                         ("net", money(got[3], sign=True), money(exp[3], sign=True)))
                     if a != b]
            out.append(f"{_key(*key)}: " + ", ".join(words))
    fresh = slip.to_dict()
    if stored is not None and stored != fresh:
        out.append("the slip as stored (slip_json) is not the slip the cards and rules make")
    settled = next((r for r in records if r.get("type") == "settled"), None)
    # a ledger written before migration 0012 keeps a copy of the slip in the event too
    if settled is not None and "slip" in settled and settled["slip"] != fresh:
        out.append("the settlement record in the events is not the slip the cards and rules "
                   "make")
    t = slip.totals
    for what, got_c, exp_c in (("wagers", rnd.wagers_cents, t.wagers),
                               ("players' net", rnd.players_net_cents, t.players_net),
                               ("commission", rnd.commission_cents, t.commission),
                               ("house net", rnd.house_net_cents, t.house_net)):
        if got_c is not None and got_c != exp_c:
            out.append(f"the round's {what} total is {money(got_c, sign=True)} in the ledger, "
                       f"{money(exp_c, sign=True)} by the cards and rules")
    return out
