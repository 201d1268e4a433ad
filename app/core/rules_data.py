"""The rules a round was played by, and the bank rotation, as structured data: what the
ledger stores with every round and a recorded session carries in its header, so a slip, a
reprint, the pit's advice and a replay use the round's own rules, not today's config.

    data = rules_to_data(rules)       # JSON-able; schema paigow.rules/1
    rules = rules_from_data(data)     # RulesDataError says what cannot be read
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast

from .banker import BankingRules, BankRotation, DealerWager
from .bonus.paytable import BonusError
from .bonus.table_bonus import table_bonus_from_data, table_bonus_to_data
from .hands import HandRules, JokerRule, WheelRule
from .house_way import HouseWay, house_way
from .progressive import progressive_from_data, progressive_to_data
from .round_rules import (
    AskedHouseWay,
    DragonOffer,
    DragonRules,
    DragonSetting,
    DragonWager,
    FoulPenalty,
    RoundRules,
    WagerLimits,
)
from .settlement import CommissionPolicy, Rounding
from .table import ActionSource, DealMode, Direction, Table

RULES_SCHEMA = "paigow.rules/1"
ROTATION_SCHEMA = "paigow.rotation/1"

Json = dict[str, object]


# The stored shape, as rules_to_data writes it.

class TableData(TypedDict):
    name: str
    seats: int
    direction: str
    deal_mode: str
    action_source: str
    no_play: NotRequired[bool]  # rounds stored before the NO PLAY spot lack it


class HandsData(TypedDict):
    joker: JokerRule
    wheel: WheelRule


class LimitsData(TypedDict):
    minimum_cents: int
    maximum_cents: int


class CommissionData(TypedDict):
    rate_bp: int
    step_cents: int
    rounding: str


class DragonData(TypedDict):
    enabled: bool
    wager: str
    setting: str
    offer: str
    per_round: int
    max_per_player: NotRequired[int]


class BankingData(TypedDict):
    enabled: bool
    consecutive: bool
    dealer_wager: str
    co_banking: bool


class RulesData(TypedDict):
    schema: str
    table: TableData
    hands: HandsData
    house_way: str
    foul_penalty: str
    asked_house_way: NotRequired[str]
    limits: LimitsData
    commission: CommissionData
    dragon: DragonData
    banking: BankingData
    bonus: NotRequired[Json]  # app.core.bonus.table_bonus; rounds with no bonus lack it
    progressive: NotRequired[Json]  # app.core.progressive.card_data; tables on none lack it


class RotationData(TypedDict):
    schema: str
    round_no: int
    first_round: bool
    last_banker: int | None
    house_bets: list[list[int]]  # [seat, cents]
    offer_from: int | None
    last_dragon: int | None


class RulesDataError(ValueError):
    """Stored rules or a stored rotation that cannot be read: what and why."""


def rules_to_data(rules: RoundRules) -> Json:
    """Every rule the round is played by: enough to play it again exactly."""
    t, c, d, b = rules.table, rules.commission, rules.dragon, rules.banking
    data: RulesData = {
        "schema": RULES_SCHEMA,
        "table": {"name": t.name, "seats": t.seats, "direction": t.direction.value,
                  "deal_mode": t.deal_mode.value, "action_source": t.action_source.value,
                  "no_play": t.no_play},
        "hands": {"joker": rules.hands.joker, "wheel": rules.hands.wheel},
        "house_way": rules.house_way.name,
        "foul_penalty": rules.foul_penalty.value,
        "asked_house_way": rules.asked_house_way.value,
        "limits": {"minimum_cents": rules.limits.minimum,
                   "maximum_cents": rules.limits.maximum},
        "commission": {"rate_bp": c.rate_bp, "step_cents": c.step_cents,
                       "rounding": c.rounding.value},
        "dragon": {"enabled": d.enabled, "wager": d.wager.value, "setting": d.setting.value,
                   "offer": d.offer.value, "per_round": d.per_round,
                   "max_per_player": d.max_per_player},
        "banking": {"enabled": b.enabled, "consecutive": b.consecutive,
                    "dealer_wager": b.dealer_wager.value, "co_banking": b.co_banking},
    }
    if rules.bonus is not None:
        data["bonus"] = table_bonus_to_data(rules.bonus)
    if rules.progressive is not None:
        data["progressive"] = progressive_to_data(rules.progressive)
    return dict(data)


def rules_from_data(stored: Mapping[str, object]) -> RoundRules:
    # Read as the shape it was written in: a value of another kind fails below, as a
    # KeyError, TypeError or ValueError, and is refused in words.
    data = cast(RulesData, stored)
    if data.get("schema") != RULES_SCHEMA:
        raise RulesDataError(f"the round's rules are {data.get('schema')!r}, not {RULES_SCHEMA}: "
                         f"this station cannot replay them")
    try:
        t, h, lim, c, d, b = (data["table"], data["hands"], data["limits"],
                              data["commission"], data["dragon"], data["banking"])
        return RoundRules(
            table=Table(t["name"], t["seats"], Direction(t["direction"]),
                        DealMode(t["deal_mode"]), ActionSource(t["action_source"]),
                        bool(t.get("no_play", False))),  # rounds stored before the spot
            hands=HandRules(joker=h["joker"], wheel=h["wheel"]),
            house_way=_card(data["house_way"]),
            foul_penalty=FoulPenalty(data["foul_penalty"]),
            # Rounds recorded before these rules were added were played by the defaults.
            asked_house_way=AskedHouseWay(data.get("asked_house_way", "at-once")),
            limits=WagerLimits(lim["minimum_cents"], lim["maximum_cents"]),
            commission=CommissionPolicy(c["rate_bp"], c["step_cents"], Rounding(c["rounding"])),
            dragon=DragonRules(d["enabled"], DragonWager(d["wager"]),
                               DragonSetting(d["setting"]), DragonOffer(d["offer"]),
                               d["per_round"], d.get("max_per_player", 1)),
            banking=BankingRules(b["enabled"], b["consecutive"], DealerWager(b["dealer_wager"]),
                                 b["co_banking"]),
            # A round stored before the bonus existed, or at a table with none, had none.
            bonus=table_bonus_from_data(data["bonus"]) if "bonus" in data else None,
            progressive=(progressive_from_data(data["progressive"]) if "progressive" in data
                         else None),
        )
    except RulesDataError:
        raise
    except BonusError as e:
        raise RulesDataError(str(e)) from None
    except (KeyError, TypeError, ValueError) as e:
        raise RulesDataError(f"the round's rules cannot be read: {e!r}") from None


def _card(name: object) -> HouseWay:
    """The rule card a stored round was played by, found by its name as the config's is."""
    try:
        return house_way(str(name))
    except KeyError as e:
        raise RulesDataError(f"the round was played by the House Way {name!r}, which this "
                             f"station does not have ({e.args[0]}): install that card to "
                             f"read the round") from None


def rotation_to_data(rotation: BankRotation) -> Json:
    data: RotationData = {
        "schema": ROTATION_SCHEMA,
        "round_no": rotation.round_no,
        "first_round": rotation.first_round,
        "last_banker": rotation.last_banker,
        "house_bets": [[seat, cents] for seat, cents in rotation.house_bets],
        "offer_from": rotation.offer_from,
        "last_dragon": rotation.last_dragon,
    }
    return dict(data)


def rotation_from_data(stored: Mapping[str, object]) -> BankRotation:
    data = cast(RotationData, stored)  # as rules_from_data: a misshapen value is refused
    if data.get("schema") != ROTATION_SCHEMA:
        raise RulesDataError(f"the bank rotation is {data.get('schema')!r}, not {ROTATION_SCHEMA}")
    try:
        return BankRotation(
            round_no=data["round_no"], first_round=data["first_round"],
            last_banker=data["last_banker"],
            house_bets=tuple((int(s), int(c)) for s, c in data["house_bets"]),
            offer_from=data["offer_from"], last_dragon=data["last_dragon"])
    except (KeyError, TypeError, ValueError) as e:
        raise RulesDataError(f"the bank rotation cannot be read: {e!r}") from None
