"""What the floor's pages show, read from the ledger: the tiles, a table's page (who may
bank and why, the rotation, the last rounds with every hand), in the pit's words.

Plain reads over a SQLAlchemy session; no web framework here, so the tests and the load
test call them directly.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.banker import BankError
from app.core.round import Round, RoundError
from app.core.settlement import PositionDict, SlipDict, money
from app.core.table import DEALER, position_name
from app.ledger import slips
from app.ledger.codec import decode_rotation, decode_rules, replay
from app.ledger.models import Event, FloorAck, FloorAlert, RoundRow, StationStatus
from app.session import glossary, words

from .bonus import RoundBonus, round_bonus

RICH = 10**12  # chips enough for any bank: what is left are the reasons chips cannot fix

STATE_WORDS = {"idle": "no round yet", "betting": "betting", "dealing": "dealing",
               "setting": "setting hands", "settled": "settled"}


@dataclass(frozen=True)
class Tile:
    """One table on the floor page."""

    table: str
    station: str
    dom_id: str
    state: str
    state_words: str
    round_no: int | None
    banker: str
    action: str
    wagers: tuple[tuple[str, str], ...]
    dealer: str
    last_settled_at: str | None  # ISO: the browser counts the time since
    changed_at: str
    offline: bool
    devices: tuple[tuple[str, bool, str], ...]
    alerts: int


def device_words(name: str, words: str) -> str:
    """A device's state in words, named ("Printer: out of paper"), so that the tile says it
    without its colour. A station's own words may name the device already."""
    said = words.strip() or "no word from the station"
    if said.lower().startswith(name.lower()):
        return said
    return f"{name.capitalize()}: {said}"


# The table's rules as the pit says them (the slip and the config keep their own words).
_RULE_NAMES = {"house_way": "House Way", "joker": "Joker", "wheel": "A-2-3-4-5",
               "foul_penalty": "A fouled hand", "commission": "Commission",
               "wagers": "Wagers", "direction": "Action counted", "copies": "Ties (copies)",
               "asked_house_way": "House Way asked", "dragons_per_player":
               "Dragon hands a player may take"}
_RULE_VALUES = {("joker", "bug"): "a bug: an ace, or fills a straight or a flush",
                ("joker", "fully-wild"): "fully wild",
                ("wheel", "second"): "the second-highest straight",
                ("wheel", "lowest"): "the lowest straight",
                ("foul_penalty", "forfeit"): "forfeits",
                ("foul_penalty", "house-way"): "is set again by the House Way",
                ("foul_penalty", "resplit"): "is set again by the player",
                ("asked_house_way", "after-the-bank"): "after the bank's hand is opened",
                ("asked_house_way", "at-once"): "at once"}


def rule_words(key: str, value: str) -> tuple[str, str]:
    return (_RULE_NAMES.get(key, key.replace("_", " ").capitalize()),
            _RULE_VALUES.get((key, value), value))


def dom_id(table: str) -> str:
    return "tile-" + "".join(c if c.isalnum() else "-" for c in table)


def tiles(s: Session, at: datetime, offline_s: float) -> list[Tile]:
    """Every station's tile, by table name."""
    open_alerts = dict(s.execute(
        select(FloorAlert.table_name, func.count(FloorAlert.id))
        .outerjoin(FloorAck, FloorAck.alert_id == FloorAlert.id)
        .where(FloorAck.id.is_(None)).group_by(FloorAlert.table_name)).all())
    out = []
    for row in s.scalars(select(StationStatus).order_by(StationStatus.table_name,
                                                        StationStatus.name)):
        age = (at - row.heartbeat_at).total_seconds()
        offline = age > offline_s
        wagers = tuple((position_name(int(p)), money(c))
                       for p, c in json.loads(row.wagers).items())
        devices = tuple((name, bool(ok) and not offline,
                         device_words(name, words if not offline else
                                      f"unknown: no heartbeat for {int(age)} s"))
                        for name, (ok, words) in json.loads(row.devices).items())
        out.append(Tile(
            table=row.table_name, station=row.name, dom_id=dom_id(row.table_name),
            state="offline" if offline else row.state,
            state_words="OFFLINE" if offline else STATE_WORDS.get(row.state, row.state),
            round_no=row.round_no, banker=row.banker or "-",
            action=position_name(row.action_position) if row.action_position is not None
            else "-",
            wagers=wagers, dealer=row.dealer or "-",
            last_settled_at=row.last_settled_at.isoformat() if row.last_settled_at else None,
            changed_at=row.changed_at.isoformat(), offline=offline,
            devices=devices,
            alerts=open_alerts.get(row.table_name, 0)))
    return out


# --- a table's page --------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    """May this seat bank now, and the core's reasons."""

    seat: int
    verdict: str  # "may bank", "may not bank", "banks"
    eligible: bool
    reasons: tuple[str, ...]
    cover: str  # what its chips must cover now


@dataclass(frozen=True)
class HandLine:
    number: int
    position: str
    role: str
    cards: str
    low: str
    high: str
    how: str  # who set it and the House Way rule that fired (its words)
    foul: str
    outcome: str
    wager: str
    commission: str
    net: str
    order: int | None


@dataclass(frozen=True)
class PastRound:
    id: str
    round_no: int
    status: str
    settled_at: str
    action: str
    bank: str
    totals: str
    hands: tuple[HandLine, ...]
    void_reason: str | None = None
    corrections: tuple[str, ...] = ()
    bonus: RoundBonus | None = None  # its bonus and envy lines (issue 26)


@dataclass
class TablePage:
    table: str
    heading: str
    standings: list[Standing] = field(default_factory=list)
    rotation: list[str] = field(default_factory=list)
    rules: list[tuple[str, str]] = field(default_factory=list)
    rounds: list[PastRound] = field(default_factory=list)
    bonus: list[str] = field(default_factory=list)  # the round in play's bonus wagers, hold


def table_names(s: Session) -> list[str]:
    names = set(s.scalars(select(StationStatus.table_name)))
    names |= set(s.scalars(select(RoundRow.table_name).distinct()))
    return sorted(names)


def current_game(s: Session, table: str) -> tuple[Round | None, bool]:
    """The round in play at the table rebuilt from the ledger's events (True), or the next
    round as it would open from the last settled one (False); None: no round yet."""
    last = s.scalar(select(RoundRow).where(RoundRow.table_name == table)
                    .order_by(RoundRow.started_at.desc()).limit(1))
    if last is None:
        return None, False
    rules = decode_rules(json.loads(last.config)["rules"])
    if last.status == "open":
        records = [json.loads(p) for p in s.scalars(
            select(Event.payload).where(Event.round_id == last.id, Event.seq > 0)
            .order_by(Event.seq))]
        return replay(rules, decode_rotation(json.loads(last.rotation)), records), True
    if last.status == "void":  # the next round begins from the same rotation
        return Round(rules, decode_rotation(json.loads(last.rotation))), False
    assert last.rotation_after is not None
    return Round(rules, decode_rotation(json.loads(last.rotation_after))), False


def standing(game: Round, seat: int) -> Standing:
    """The core's eligibility with chips enough, and with none: the reasons chips cannot
    fix, and what the chips must cover (seed 003's two conditions)."""
    if game.bank.player == seat:
        return Standing(seat, "banks", True,
                        (f"banks this round with {money(game.bank.stake or 0)}",), "")
    try:
        rich = game.eligibility(seat, RICH)
        poor = game.eligibility(seat, 0)
    except (BankError, RoundError) as e:
        return Standing(seat, "may not bank", False, (str(e),), "")
    reasons = (list(rich.failed) if not rich.eligible
               else [r for r in rich.met if r in poor.reasons])
    reasons.append(f"needs chips to cover {money(poor.cover)} of other wagers")
    return Standing(seat, "may bank" if rich.eligible else "may not bank", rich.eligible,
                    tuple(reasons), money(poor.cover))


def rotation_lines(game: Round) -> list[str]:
    return words.rotation_lines(game.rotation, game.rules)


def _how(line: PositionDict) -> str:
    set_by = line.get("set_by")
    if set_by is None:
        return "not set"
    set_by = str(set_by)
    how = {"player": "set by the player", "house-way": "set the House Way",
           "reset": "reset the House Way",
           "after-bank": "set the House Way after the bank"}.get(set_by, set_by)
    if line.get("house_way_rule"):  # the rule's id always with its words
        says = line.get("house_way_says")
        how += f", rule {line['house_way_rule']}" + (f": {says}" if says else "")
    return how


BONUS_RECORDS = ("bonus_held", "bonus_approved")


def bonus_records(s: Session, round_ids: Iterable[uuid.UUID]
                  ) -> dict[uuid.UUID, list[Mapping[str, object]]]:
    """Each round's hold for a supervisor and its approval, as the ledger's events keep
    them (a round with neither has none)."""
    out: defaultdict[uuid.UUID, list[Mapping[str, object]]] = defaultdict(list)
    for rid, payload in s.execute(
            select(Event.round_id, Event.payload).where(
                Event.round_id.in_(list(round_ids)), Event.kind.in_(BONUS_RECORDS))
            .order_by(Event.seq)):
        if rid is not None:
            out[rid].append(json.loads(payload))
    return dict(out)


def live_bonus(game: Round) -> list[str]:
    """The round in play's bonus wagers and a payout that waits for a supervisor."""
    out = []
    wagers = [f"{position_name(seat)} {money(c)}" for seat, c in sorted(game.bonus_wagers.items())]
    wagers += [f"the dragon hand at {position_name(p)} {money(c)}"
               for p, c in sorted(game.dragon_bonus_wagers.items())]
    if wagers:
        out.append("Bonus wagers this round: " + ", ".join(wagers))
    held = game.bonus_held
    if held is not None and game.bonus_approved is None and game.slip is None:
        out.append("A bonus payout waits for a supervisor's approval: "
                   + "; ".join(x.text for x in held.lines))
    return out


def past_round(s: Session, row: RoundRow, corrections: tuple[str, ...] = (),
               records: Sequence[Mapping[str, object]] = ()) -> PastRound:
    """The round as the pit reads it; `records`: its bonus hold and approval
    (`bonus_records`)."""
    action = (f"{row.action_source.upper() if row.action_source else ''} {row.action_number}"
              f" -> {position_name(row.action_position)}"
              if row.action_position is not None else "-")
    hands: list[HandLine] = []
    bank = "house" if row.banker_seat is None else f"seat {row.banker_seat}"
    totals = ""
    bonus = None
    if row.slip_json:
        slip: SlipDict = slips.whole(s, row, json.loads(row.slip_json))
        bonus = round_bonus(slip, records)
        lines = [p for p in slip["positions"] if p["role"] != "mucked"]
        # in order from action: the order the slip settled them, the bank last
        lines.sort(key=lambda p: (p["order"] is None, p["order"] or 0))
        for p in lines:
            hands.append(HandLine(
                number=p["position"], position=p["name"], role=p["role"], cards=p["cards"],
                low=p["low"] or "",
                high=p["high"] or "", how=_how(p), foul=p["foul"] or "",
                outcome=p["outcome"] or "", wager=money(p["wager_cents"]) if
                p["wager_cents"] else "", commission=money(p["commission_cents"]) if
                p["commission_cents"] else "", net=money(p["net_cents"], sign=True)
                if p["outcome"] else "", order=p["order"]))
        t = slip["totals"]
        totals = (f"wagers {money(t['wagers_cents'])}, players net "
                  f"{money(t['players_net_cents'], sign=True)}, commission "
                  f"{money(t['commission_cents'])}, house net "
                  f"{money(t['house_net_cents'], sign=True)}")
    return PastRound(id=str(row.id), round_no=row.round_no, status=row.status,
                     settled_at=row.settled_at.strftime("%H:%M:%S") if row.settled_at
                     else row.started_at.strftime("%H:%M:%S"),
                     action=action, bank=bank, totals=totals, hands=tuple(hands),
                     void_reason=row.void_reason, corrections=corrections, bonus=bonus)


def table_page(s: Session, table: str, rounds: int = 8) -> TablePage | None:
    from app.ledger.reads import corrections

    if table not in table_names(s):
        return None
    game, live = current_game(s, table)
    page = TablePage(table, "")
    if game is None:
        page.heading = f"{table}: no round yet. The dealer banks the first round."
        return page
    no = game.rotation.round_no
    if live:
        page.heading = (f"Round {no} in play, {glossary.PHASE[game.phase]}. Who may bank this "
                        f"round, seat by seat:")
    else:
        page.heading = f"No round in play. Round {no} opens next: who may bank in it:"
    page.standings = [standing(game, seat) for seat in game.rules.table.positions
                      if seat != DEALER]
    page.rotation = rotation_lines(game)
    page.rules = [rule_words(k, v) for k, v in game.rules.summary()]
    bonus = game.rules.bonus
    if bonus is not None:
        page.rules.append(("Bonus", f"{bonus.summary()}; a payout of "
                                    f"{money(bonus.rules.supervisor_at)} or more waits for a "
                                    f"supervisor"))
    if live:
        page.bonus = live_bonus(game)
    rows = list(s.scalars(select(RoundRow).where(RoundRow.table_name == table)
                          .order_by(RoundRow.started_at.desc()).limit(rounds)))
    held = bonus_records(s, [r.id for r in rows])
    for row in rows:
        fixes = tuple(c.text() for c in corrections(s, row))
        page.rounds.append(past_round(s, row, fixes, held.get(row.id, [])))
    return page


def round_row(s: Session, round_id: str) -> RoundRow | None:
    try:
        rid = uuid.UUID(round_id)
    except ValueError:
        return None
    return s.get(RoundRow, rid)
