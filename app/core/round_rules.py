"""The rules one round is played by (from the table config), and how it can go wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .banker import BankingRules
from .bonus.table_bonus import TableBonus
from .hands import DEFAULT_RULES, HandRules
from .house_way import HouseWay, house_way
from .progressive.card import ProgressiveCard
from .settlement import CommissionPolicy, money
from .table import SEATS, Table, TableError


class RoundError(TableError):
    """A change the round cannot make now: what is wrong and what to do."""


class Phase(Enum):
    BETTING = "betting"
    DEALING = "dealing"
    SETTING = "setting"
    SETTLED = "settled"
    MISDEAL = "misdeal"

    @property
    def now(self) -> str:
        """What the table is doing, in a dealer's words (a refusal says it)."""
        return _NOW[self]

    @property
    def when(self) -> str:
        """When a step of this phase is done, in a dealer's words."""
        return _WHEN[self]


_NOW = {Phase.BETTING: "wagers are still being taken", Phase.DEALING: "the cards are being dealt",
        Phase.SETTING: "the hands are being set", Phase.SETTLED: "this round is settled",
        Phase.MISDEAL: "this round was called a misdeal"}
_WHEN = {Phase.BETTING: "while wagers are taken", Phase.DEALING: "while the cards are dealt",
         Phase.SETTING: "once every hand is dealt, while hands are set",
         Phase.SETTLED: "once the round is settled", Phase.MISDEAL: "after a misdeal"}


class FoulPenalty(Enum):
    """What a player's foul costs: the hand (seed 001 physical, seed 004), a reset, or the
    hand goes back to the player to set again (seed 001 online)."""

    FORFEIT = "forfeit"
    HOUSE_WAY = "house-way"
    RESPLIT = "resplit"


class AskedHouseWay(Enum):
    """When the dealer sets the hand of a player who asks for the House Way (seed 004: "after
    the bank hand is opened", the seven cards left in one pile until then)."""

    AT_ONCE = "at-once"
    AFTER_BANK = "after-the-bank"


class DragonWager(Enum):
    EQUAL = "equal"  # the dragon's wager equals the player's main wager
    AT_MOST = "at-most"  # the table minimum up to the player's main wager


class DragonSetting(Enum):
    HOUSE_WAY = "house-way"  # the dealer sets the dragon hand the House Way
    PLAYER = "player"  # the player who took it sets it


class DragonOffer(Enum):
    """Where the offer of a dragon hand starts among the seated players."""

    AFTER_LAST_TAKER = "after-last-taker"  # on from the last player who took one
    FROM_ACTION = "from-action"  # the first seated player from action


# At most one dragon hand per empty seat: six when only the banker plays.
MAX_DRAGONS_PER_ROUND = SEATS


@dataclass(frozen=True, slots=True)
class DragonRules:
    enabled: bool = True
    wager: DragonWager = DragonWager.AT_MOST
    setting: DragonSetting = DragonSetting.HOUSE_WAY
    offer: DragonOffer = DragonOffer.AFTER_LAST_TAKER
    per_round: int = 1
    max_per_player: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.per_round <= MAX_DRAGONS_PER_ROUND:
            raise RoundError(f"dragon hands per round are 1 to {MAX_DRAGONS_PER_ROUND}, not "
                             f"{self.per_round}")
        if not 1 <= self.max_per_player <= self.per_round:
            raise RoundError(f"dragon hands per player are 1 up to the {self.per_round} a "
                             f"round, not {self.max_per_player}")


@dataclass(frozen=True, slots=True)
class WagerLimits:
    minimum: int = 500  # seed 002: "$5 minimum bet."
    maximum: int = 30_000  # seed 002: "$300 maximum bet."

    def __post_init__(self) -> None:
        if self.minimum <= 0:
            raise RoundError(f"the minimum wager must be above $0.00, not "
                             f"{money(self.minimum)}")
        if self.maximum < self.minimum:
            raise RoundError(f"the maximum {money(self.maximum)} is below the minimum "
                             f"{money(self.minimum)}")


def standard_house_way() -> HouseWay:
    """The House Way card a table plays by unless its config names another (seed 000)."""
    return house_way("standard")


@dataclass(frozen=True, slots=True)
class RoundRules:
    """Every rule a round is played by, as the table is configured.

    `house_way` is the rule card itself, found by name once (when the config loads, or a
    stored round's rules are read), so nothing downstream looks a name up again."""

    table: Table = field(default_factory=Table)
    hands: HandRules = DEFAULT_RULES
    house_way: HouseWay = field(default_factory=standard_house_way)
    foul_penalty: FoulPenalty = FoulPenalty.FORFEIT
    asked_house_way: AskedHouseWay = AskedHouseWay.AT_ONCE
    limits: WagerLimits = field(default_factory=WagerLimits)
    commission: CommissionPolicy = field(default_factory=CommissionPolicy)
    dragon: DragonRules = field(default_factory=DragonRules)
    banking: BankingRules = field(default_factory=BankingRules)
    # The table's bonus bet (issue 26); None: the table offers none, as every round recorded
    # before the bonus existed was played.
    bonus: TableBonus | None = None
    # The linked progressive this table is on (issue 27); None: none.
    progressive: ProgressiveCard | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.house_way, HouseWay):
            raise RoundError(f"the House Way is a rule card, not {self.house_way!r}: find it by "
                             f"name with house_way(name)")

    def summary(self) -> tuple[tuple[str, str], ...]:
        """The rules as (name, value) text, for the slip; the rules of seeds 001 and 004 this
        station added later only when they are not the default, so older slips read the same."""
        extra: tuple[tuple[str, str], ...] = ()
        if self.asked_house_way is not AskedHouseWay.AT_ONCE:
            extra += (("asked_house_way", self.asked_house_way.value),)
        if self.dragon.max_per_player > 1:
            extra += (("dragons_per_player", str(self.dragon.max_per_player)),)
        return (
            ("house_way", self.house_way.name),
            ("joker", self.hands.joker),
            ("wheel", self.hands.wheel),
            ("foul_penalty", self.foul_penalty.value),
            ("commission", str(self.commission)),
            ("wagers", f"{money(self.limits.minimum)} to {money(self.limits.maximum)}"),
            ("direction", self.table.direction.value),
            ("copies", "go to the banker"),
        ) + extra
