"""Settlement: every money rule of the game is in this module.

Money is integer cents everywhere, never float. A position wins when both of its hands beat
the banker's, loses when the banker wins both (copies go to the banker), and otherwise
pushes; a fouled hand that forfeits loses. Wins are paid even money less commission (5% by
default) rounded to the configured step (up to a quarter of the lowest chip, $0.25, by
default) and never more than the win.

When the house banks it covers every wager. When a player banks (seed 003) the dealer's hand
against the bank is settled first; then the bank pays winners and collects from losers in
order from action; when it is exhausted the remaining winning wagers are returned (push);
the banker pays commission on the net win. With co-banking the house and the player share
the bank half and half, and the dealer plays no hand against it.

The result is a `Slip`: frozen, listing every position in order from action, with a stable
`to_dict()` that the printer, the ledger and the window read (documented in README.md,
"Settling a round").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import NotRequired, TypedDict

from .cards import Card, cards_text
from .hands import HandRules, Setting, ranker
from .table import DEALER, Action, Direction, TableError, position_name

SLIP_SCHEMA = "paigow.slip/1"


class MoneyError(TableError):
    """Money text that is not an amount of dollars and cents."""


# --- money -------------------------------------------------------------------------------

_MONEY = re.compile(r"^\s*(-)?\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?\s*$")


def parse_money(text: object) -> int:
    """Cents from dollar text: `"25"`, `"25.00"`, `"$9.50"`, `"0.25"`.

    Only text is read: a bare number is refused because 25 could be dollars or cents.
    """
    if not isinstance(text, str):
        raise MoneyError(f"write money as dollars in quotes, like \"25.00\", not {text!r}")
    m = _MONEY.match(text)
    if m is None:
        raise MoneyError(f"{text!r} is not an amount of money: write dollars and cents, like "
                         f"\"25.00\" or \"$9.50\"")
    sign, dollars, cents = m.groups()
    value = int(dollars.replace(",", "")) * 100 + int((cents or "0").ljust(2, "0"))
    return -value if sign else value


def money(cents: int, sign: bool = False) -> str:
    """`$9.50`, `-$25.00`; with `sign`, `+$9.50` for a gain."""
    text = f"${abs(cents) // 100:,}.{abs(cents) % 100:02d}"
    if cents < 0:
        return "-" + text
    return ("+" + text) if sign and cents > 0 else text


_RATE = re.compile(r"^\s*(\d{1,2})(?:\.(\d{1,2}))?\s*%\s*$")


def parse_rate(text: object) -> int:
    """Basis points (hundredths of a percent) from `"5%"`, `"4.5%"`, `"5.25%"`."""
    m = _RATE.match(text) if isinstance(text, str) else None
    if m is None:
        raise MoneyError(f"{text!r} is not a rate: write a percentage like \"5%\" or \"4.5%\"")
    whole, frac = m.groups()
    return int(whole) * 100 + int((frac or "0").ljust(2, "0"))


def rate_text(basis_points: int) -> str:
    whole, frac = divmod(basis_points, 100)
    return f"{whole}%" if frac == 0 else f"{whole}.{frac:02d}".rstrip("0") + "%"


# --- commission ----------------------------------------------------------------------------

# The highest commission a table may take: a quarter of a win. Every casino's rate is a few
# percent; a rate above this is a typo ("50%" for "5%"), refused by the core and so by the
# config, which checks with `verify_rate`.
MAX_RATE_BP = 2_500


def verify_rate(basis_points: int) -> None:
    """A commission rate the table may take: 0% up to `MAX_RATE_BP`; else why not."""
    if basis_points < 0:
        raise MoneyError(f"a commission cannot be below 0% (not {basis_points} hundredths of "
                         f"a percent)")
    if basis_points > MAX_RATE_BP:
        raise MoneyError(f"a commission of {rate_text(basis_points)} is above "
                         f"{rate_text(MAX_RATE_BP)}: write the rate like \"5%\"")


def verify_step(cents: int) -> None:
    """A commission step of at least one cent; else why not."""
    if cents < 1:
        raise MoneyError(f"the commission step must be above $0.00 (at least one cent), not "
                         f"{money(cents)}")


class Rounding(Enum):
    """Which way the commission goes to the step."""

    UP = "up"
    DOWN = "down"
    NEAREST = "nearest"  # halves go up


@dataclass(frozen=True, slots=True)
class CommissionPolicy:
    """Commission on a win: `rate_bp` basis points, rounded to `step_cents` in a direction."""

    rate_bp: int = 500
    step_cents: int = 25
    rounding: Rounding = Rounding.UP

    def __post_init__(self) -> None:
        verify_rate(self.rate_bp)
        verify_step(self.step_cents)

    def on(self, win_cents: int) -> int:
        """The commission on a win of `win_cents`, rounded to the step, never above the win."""
        if win_cents <= 0:
            return 0
        steps = Fraction(win_cents * self.rate_bp, 10_000 * self.step_cents)
        match self.rounding:
            case Rounding.UP:
                n = -(-steps.numerator // steps.denominator)
            case Rounding.DOWN:
                n = steps.numerator // steps.denominator
            case Rounding.NEAREST:
                half_up = steps + Fraction(1, 2)
                n = half_up.numerator // half_up.denominator
        return min(n * self.step_cents, win_cents)

    def __str__(self) -> str:
        return (f"{rate_text(self.rate_bp)} rounded {self.rounding.value} to "
                f"{money(self.step_cents)}")


# --- hands as set --------------------------------------------------------------------------

class Role(Enum):
    """What a position's hand is this round."""

    BANK = "bank"  # the banker's hand (the house's, or a player banker's)
    PLAYER = "player"  # a seated player's hand against the bank
    DRAGON = "dragon"  # an empty position's hand played by a seated player
    DEALER = "dealer"  # the dealer's hand against a player banker, for the house
    MUCKED = "mucked"  # an unused hand


class SetBy(Enum):
    """Who set a hand."""

    PLAYER = "player"  # the player (or the player banker) set it; the dealer entered the front
    HOUSE_WAY = "house-way"  # set the House Way: asked for, or the dealer's or a dragon hand
    RESET = "reset"  # a foul reset the House Way
    AFTER_BANK = "after-bank"  # the player asked: the dealer set it the House Way, after the bank


@dataclass(frozen=True, slots=True)
class Hand:
    """One position's seven cards and, unless mucked, how they were set.

    `player` is the seat whose money rides on the hand (a dragon's is the seat that took it);
    `foul` is why the hand as first set was a foul; `forfeit` says that foul loses.
    """

    position: int
    role: Role
    cards: tuple[Card, ...]
    player: int | None = None
    wager: int = 0
    setting: Setting | None = None
    set_by: SetBy | None = None
    rule: str | None = None  # the House Way rule id that set it
    rule_says: str | None = None
    foul: str | None = None
    forfeit: bool = False


# --- outcomes ------------------------------------------------------------------------------

class Versus(Enum):
    """One hand against the banker's: a copy goes to the banker."""

    WIN = "win"
    LOSE = "lose"
    COPY = "copy"


class Outcome(Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    RETURNED = "returned"  # won, but the player bank was exhausted: the wager is returned


@dataclass(frozen=True, slots=True)
class Comparison:
    front: Versus | None
    back: Versus | None
    outcome: Outcome
    rule: str


def _versus(mine: int, theirs: int) -> Versus:
    if mine > theirs:
        return Versus.WIN
    return Versus.COPY if mine == theirs else Versus.LOSE


def compare(hand: Hand, bank: Setting, rules: HandRules) -> Comparison:
    """A hand against the banker's: win both to win, lose both (copies included) to lose."""
    if hand.forfeit:
        return Comparison(None, None, Outcome.LOSE, f"a fouled hand forfeits ({hand.foul})")
    assert hand.setting is not None
    r = ranker(rules)
    front = _versus(r.rank2(hand.setting.low), r.rank2(bank.low))
    back = _versus(r.rank5(hand.setting.high), r.rank5(bank.high))
    if front is Versus.WIN and back is Versus.WIN:
        return Comparison(front, back, Outcome.WIN, "both hands beat the banker's")
    if front is not Versus.WIN and back is not Versus.WIN:
        copy = " (copies go to the banker)" if Versus.COPY in (front, back) else ""
        return Comparison(front, back, Outcome.LOSE, "the banker wins both hands" + copy)
    copy = "; a copy goes to the banker" if Versus.COPY in (front, back) else ""
    return Comparison(front, back, Outcome.PUSH, "each side wins one hand" + copy)


# --- the slip ------------------------------------------------------------------------------
# The slip as JSON (schema paigow.slip/1, README.md "Settling a round"): what `Slip.to_dict`
# writes, and what the printer, the ledger and the floor read.

class PositionDict(TypedDict):
    position: int
    name: str
    role: str
    player: int | None
    cards: str
    low: str | None
    high: str | None
    set_by: str | None
    house_way_rule: str | None
    house_way_says: NotRequired[str | None]  # slips kept before it was written lack it
    foul: str | None
    front: str | None
    back: str | None
    outcome: str | None
    wager_cents: int
    win_cents: int
    commission_cents: int
    net_cents: int
    order: NotRequired[int | None]
    note: str


class BankDict(TypedDict):
    who: str
    position: int
    player: int | None
    co_bank: bool
    stake_cents: int | None
    collected_cents: int
    paid_cents: int
    gross_cents: int
    commission_cents: int
    net_cents: int
    house_share_cents: int
    exhausted: bool
    remaining_cents: int | None


class TotalsDict(TypedDict):
    wagers_cents: int
    players_net_cents: int
    commission_cents: int
    banker_net_cents: int
    house_net_cents: int


class ActionDict(TypedDict):
    source: str
    number: int
    dice: list[int] | None
    drawn_by: str
    counted_from: int
    position: int
    direction: str


class BonusLineDict(TypedDict):
    kind: str
    seat: int
    position: int
    wager_cents: int
    category: str
    hand: str
    pays: str
    amount_cents: int
    from_position: int | None
    supervisor: bool
    note: str
    text: str


class BonusDict(TypedDict):
    pay_card: str
    envy_card: str | None
    wagers_cents: int
    net_cents: int
    approved_by: str | None
    lines: list[BonusLineDict]


class ProgressiveLineDict(TypedDict):
    seat: int
    wager_cents: int
    category: str | None
    hand: str | None
    pays: str | None
    paid_cents: int | None
    from_meter_cents: int
    fixed_cents: int
    by: str | None


class ProgressiveDict(TypedDict):
    card: str
    title: str
    wagers_cents: int
    lines: list[ProgressiveLineDict]


class SlipDict(TypedDict):
    schema: str
    table: str
    round: int
    action: ActionDict
    rules: dict[str, str]
    bank: BankDict
    positions: list[PositionDict]
    leftovers: str
    leftovers_counted: bool
    totals: TotalsDict
    bonus: NotRequired[BonusDict]  # only a round with a bonus wager (issue 26)
    progressive: NotRequired[ProgressiveDict]  # only a round with a progressive wager
    settled_at: NotRequired[str]  # an ISO time the ledger adds
    ledger_head: NotRequired[str]  # the ledger's chain head as the station last saw it


def line_name(position: int, role: Role, player: int | None) -> str:
    """How the slip names a position's line: `seat 4 (dragon, seat 3)`, `dealer (bank)`."""
    if role is Role.DRAGON:
        return f"{position_name(position)} (dragon, seat {player})"
    if role is Role.BANK:
        return f"{position_name(position)} (bank)"
    if role is Role.DEALER:
        return "dealer (vs the bank)"
    return position_name(position)


@dataclass(frozen=True, slots=True)
class Line:
    """One position on the slip, with its hands and its money (cents; net is the player's)."""

    position: int
    role: Role
    player: int | None
    cards: tuple[Card, ...]
    setting: Setting | None
    set_by: SetBy | None
    rule: str | None
    rule_says: str | None
    foul: str | None
    front: Versus | None
    back: Versus | None
    outcome: Outcome | None
    wager: int
    win: int  # what the bank paid the hand (0 unless it won)
    commission: int
    net: int  # + what the hand won after commission, - what it lost
    order: int | None  # when it was settled: 1 first; None for the bank and mucked hands
    note: str

    @property
    def name(self) -> str:
        return line_name(self.position, self.role, self.player)

    def to_dict(self) -> PositionDict:
        return {
            "position": self.position,
            "name": self.name,
            "role": self.role.value,
            "player": self.player,
            "cards": cards_text(self.cards),
            "low": cards_text(self.setting.low) if self.setting else None,
            "high": cards_text(self.setting.high) if self.setting else None,
            "set_by": self.set_by.value if self.set_by else None,
            "house_way_rule": self.rule,
            "house_way_says": self.rule_says,
            "foul": self.foul,
            "front": self.front.value if self.front else None,
            "back": self.back.value if self.back else None,
            "outcome": self.outcome.value if self.outcome else None,
            "wager_cents": self.wager,
            "win_cents": self.win,
            "commission_cents": self.commission,
            "net_cents": self.net,
            "order": self.order,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Bank:
    """Who banks and with what. `player` is None when the house banks."""

    position: int = DEALER
    player: int | None = None
    stake: int | None = None  # a player banker's chips on the table (None: the house covers)
    co_bank: bool = False  # the house covers half of the player's bank
    dealer_wager: int = 0  # the house's wager on the dealer's hand against a player banker

    @property
    def is_house(self) -> bool:
        return self.player is None

    @property
    def who(self) -> str:
        return "house" if self.player is None else f"seat {self.player}"


@dataclass(frozen=True, slots=True)
class BankResult:
    """What the bank did: collected from losers, paid to winners, and the banker's net."""

    who: str
    position: int
    player: int | None
    co_bank: bool
    stake: int | None  # the bank at the start: a player's chips (doubled when co-banked)
    collected: int
    paid: int
    gross: int  # collected - paid, the dealer's hand included
    commission: int  # the player banker's commission on the net win
    net: int  # the player banker's share after commission (0 when the house banks)
    house_share: int  # the house's share of the bank's result (all of it when the house banks)
    exhausted: bool
    remaining: int | None

    def to_dict(self) -> BankDict:
        return {
            "who": self.who,
            "position": self.position,
            "player": self.player,
            "co_bank": self.co_bank,
            "stake_cents": self.stake,
            "collected_cents": self.collected,
            "paid_cents": self.paid,
            "gross_cents": self.gross,
            "commission_cents": self.commission,
            "net_cents": self.net,
            "house_share_cents": self.house_share,
            "exhausted": self.exhausted,
            "remaining_cents": self.remaining,
        }


@dataclass(frozen=True, slots=True)
class Totals:
    """Money for the round: what the players (not the banker) netted, what the house did.

    Conservation: `players_net + banker_net + house_net == 0`.
    """

    wagers: int  # every wager against the bank, the dealer's hand included
    players_net: int  # the seated players (not a player banker), after commission
    commission: int  # all commission the house collected, the banker's included
    banker_net: int  # the player banker's net (0 when the house banks)
    house_net: int  # the house: its bank or share, the dealer's hand, and commission

    def to_dict(self) -> TotalsDict:
        return {
            "wagers_cents": self.wagers,
            "players_net_cents": self.players_net,
            "commission_cents": self.commission,
            "banker_net_cents": self.banker_net,
            "house_net_cents": self.house_net,
        }


@dataclass(frozen=True, slots=True)
class BonusPayout:
    """A bonus or envy line as the slip, the ledger and the felt keep it: plain values, in
    the order paid (app.core.bonus settles them; this module only carries them)."""

    kind: str  # "bonus" or "envy"
    seat: int
    position: int  # the hand whose bonus wager it is
    wager: int
    category: str  # the card's word, e.g. "five-aces"
    hand: str  # the dealer's words, e.g. "Five aces"
    pays: str  # "400 to 1", "push", "loses"; envy: "$250.00"
    amount: int  # + won, 0 push, - lost
    from_position: int | None  # envy: the other player's hand
    supervisor: bool  # at or above the house's threshold: a supervisor approved it
    note: str
    text: str  # the line in a dealer's words

    def to_dict(self) -> BonusLineDict:
        return {"kind": self.kind, "seat": self.seat, "position": self.position,
                "wager_cents": self.wager, "category": self.category, "hand": self.hand,
                "pays": self.pays, "amount_cents": self.amount,
                "from_position": self.from_position, "supervisor": self.supervisor,
                "note": self.note, "text": self.text}


@dataclass(frozen=True, slots=True)
class BonusResult:
    """The round's bonus: every line in the order paid, the cards, who approved the lines
    that waited for a supervisor. Paid by the house, apart from the Pai Gow money."""

    lines: tuple[BonusPayout, ...]
    pay_card: str
    envy_card: str | None
    wagers: int  # every bonus wager
    approved_by: str | None = None

    @property
    def net(self) -> int:
        """What the players netted on the bonus and the envy (the house's is its negative)."""
        return sum(x.amount for x in self.lines)

    def seat_net(self, seat: int) -> int:
        return sum(x.amount for x in self.lines if x.seat == seat)

    def to_dict(self) -> BonusDict:
        return {"pay_card": self.pay_card, "envy_card": self.envy_card,
                "wagers_cents": self.wagers, "net_cents": self.net,
                "approved_by": self.approved_by, "lines": [x.to_dict() for x in self.lines]}


@dataclass(frozen=True, slots=True)
class ProgressiveLine:
    """A seat's linked progressive wager on the slip, and its hit if its seven cards made
    a hand the progressive pays (issue 27). A hit is paid from the meter after the round is
    settled, once a supervisor has signed in: `paid` is None until then."""

    seat: int
    wager: int
    category: str | None = None  # the card's word of the hand that hit, e.g. "five-aces"
    hand: str | None = None  # the dealer's words, e.g. "five aces"
    pays: str | None = None  # "10% of the meter" or "$75.00"
    paid: int | None = None  # what the hit paid: the meter's share and any fixed amount
    from_meter: int = 0
    fixed: int = 0  # a fixed amount, paid by the house
    by: str | None = None  # the supervisor who signed in for it

    @property
    def hit(self) -> bool:
        return self.category is not None

    def to_dict(self) -> ProgressiveLineDict:
        return {"seat": self.seat, "wager_cents": self.wager, "category": self.category,
                "hand": self.hand, "pays": self.pays, "paid_cents": self.paid,
                "from_meter_cents": self.from_meter, "fixed_cents": self.fixed,
                "by": self.by}


@dataclass(frozen=True, slots=True)
class ProgressiveResult:
    """The round's progressive wagers in the order from action, each seat's hit beside
    it. The wagers go to the meter with the settlement; a hit is paid after it."""

    card: str
    title: str
    lines: tuple[ProgressiveLine, ...]

    @property
    def wagers(self) -> int:
        return sum(x.wager for x in self.lines)

    def hits(self) -> tuple[ProgressiveLine, ...]:
        return tuple(x for x in self.lines if x.hit)

    def waiting(self) -> tuple[ProgressiveLine, ...]:
        """The hits not yet paid."""
        return tuple(x for x in self.lines if x.hit and x.paid is None)

    def to_dict(self) -> ProgressiveDict:
        return {"card": self.card, "title": self.title, "wagers_cents": self.wagers,
                "lines": [x.to_dict() for x in self.lines]}


def progressive_line_words(x: ProgressiveLineDict) -> str:
    """A seat's progressive line as the felt, the printed slip and `slip_text` say it."""
    words = f"{position_name(x['seat'])} progressive {money(x['wager_cents'])}"
    if x["category"] is None:
        return words
    words += f": HIT {x['hand']} ({x['pays']})"
    if x["paid_cents"] is None:
        return words + " - waiting to be paid"
    return words + f" - paid {money(x['paid_cents'])}" + (f", signed in by {x['by']}"
                                                           if x["by"] else "")


@dataclass(frozen=True, slots=True)
class Slip:
    """The settlement slip of one round. Positions are listed in order from action."""

    table: str
    round: int
    action: Action
    action_position: int
    direction: Direction
    rules: tuple[tuple[str, str], ...]  # (name, value) of every rule that shaped the round
    lines: tuple[Line, ...]
    bank: BankResult
    leftovers: tuple[Card, ...]
    leftovers_counted: bool
    totals: Totals
    bonus: BonusResult | None = None  # a round with no bonus wager has none
    progressive: ProgressiveResult | None = None  # a round with no progressive wager

    def line(self, position: int) -> Line:
        for line in self.lines:
            if line.position == position:
                return line
        raise KeyError(position)

    def net_of(self, seat: int) -> int:
        """What a seat netted over all its hands (a player banker's bank included)."""
        total = sum(line.net for line in self.lines
                    if line.player == seat and line.role in (Role.PLAYER, Role.DRAGON))
        return total + (self.bank.net if self.bank.player == seat else 0)

    def to_dict(self) -> SlipDict:
        out = self._to_dict()
        if self.bonus is not None:  # a slip without one reads as it always did
            out["bonus"] = self.bonus.to_dict()
        if self.progressive is not None:
            out["progressive"] = self.progressive.to_dict()
        return out

    def _to_dict(self) -> SlipDict:
        return {
            "schema": SLIP_SCHEMA,
            "table": self.table,
            "round": self.round,
            "action": {
                "source": self.action.source.value,
                "number": self.action.number,
                "dice": list(self.action.dice) or None,
                "drawn_by": self.action.drawn_by,
                "counted_from": self.bank.position,
                "position": self.action_position,
                "direction": self.direction.value,
            },
            "rules": dict(self.rules),
            "bank": self.bank.to_dict(),
            "positions": [line.to_dict() for line in self.lines],
            "leftovers": cards_text(self.leftovers),
            "leftovers_counted": self.leftovers_counted,
            "totals": self.totals.to_dict(),
        }

    def text(self) -> str:
        """The slip as a dealer reads it, one position a line, in order from action."""
        return slip_text(self.to_dict())


def _action_words(a: ActionDict) -> str:
    """`Action.__str__` from the slip's JSON."""
    if a["source"] == "dice":
        return f"dice {'+'.join(str(d) for d in a['dice'] or ())} = {a['number']}"
    return f"RNG {a['number']}" + (" (drawn by the station)" if a["drawn_by"] == "secrets"
                                   else "")


@dataclass(frozen=True, slots=True)
class BonusLineWords:
    """A bonus or envy line within its seat's group: what it is on, what it paid."""

    words: str  # "bonus $5.00: four of a kind, 25 to 1", "envy: five aces at seat 3"
    amount: int
    approved: str  # "approved by NAME" on a line that waited for a supervisor, else ""


@dataclass(frozen=True, slots=True)
class BonusSeatWords:
    """A seat's bonus and envy lines, as the felt, the printed slip, the PDF and the slip's
    words group them."""

    seat: int
    title: str  # "seat 3 bonus", as the slip names its lines
    net: int
    lines: tuple[BonusLineWords, ...]


def bonus_line_words(x: BonusLineDict) -> str:
    """A line without its seat (its group names the seat): the wager and the hand it rides
    on and what the card pays, or the other player's hand an envy line is paid for."""
    if x["kind"] == "envy":
        return f"envy: {x['hand']} at {position_name(x['from_position'] or 0)}"
    dragon = (f" on the dragon hand at {position_name(x['position'])}"
              if x["position"] != x["seat"] else "")
    return (f"bonus {money(x['wager_cents'])}{dragon}: {x['hand']}, {x['pays']}"
            + (f" ({x['note']})" if x["note"] else ""))


def bonus_groups(bonus: BonusDict) -> tuple[BonusSeatWords, ...]:
    """The bonus and envy lines a seat at a time: the seats in the order they were first
    paid, each seat's lines in the order paid. The one maker of these words: the felt, the
    printed slip (ESC/POS and PDF) and `slip_text` all show them so."""
    out = []
    for seat in dict.fromkeys(x["seat"] for x in bonus["lines"]):
        mine = [x for x in bonus["lines"] if x["seat"] == seat]
        lines = tuple(BonusLineWords(bonus_line_words(x), x["amount_cents"],
                                     f"approved by {bonus['approved_by']}"
                                     if x["supervisor"] and bonus["approved_by"] else "")
                      for x in mine)
        out.append(BonusSeatWords(seat, f"{position_name(seat)} bonus",
                                  sum(x["amount_cents"] for x in mine), lines))
    return tuple(out)


def slip_text(slip: SlipDict) -> str:
    """The slip as a dealer reads it, from its JSON: one position a line, in order from
    action. The one way a slip becomes these words, so the ledger keeps the JSON only and
    renders the words from it (`Slip.text` is this)."""
    a = slip["action"]
    out = [f"Table {slip['table']}  round {slip['round']}  action: {_action_words(a)} -> "
           f"{position_name(a['position'])} ({a['direction']})",
           f"Bank: {slip['bank']['who']}" + (" (co-banked with the house)"
                                             if slip["bank"]["co_bank"] else "")]
    for line in slip["positions"]:
        low, high = line["low"], line["high"]
        hands = (f"{low:<6} | {high:<15}" if low is not None and high is not None
                 else f"{line['cards']:<24}")
        how = SET_BY_WORDS[SetBy(line["set_by"])] if line["set_by"] else ""
        if line["foul"]:
            how += " FOUL"
        words = _rule_words(line["house_way_rule"], line.get("house_way_says"))
        if line["outcome"] is None:
            result = "BANK" if line["role"] == Role.BANK.value else "mucked"
            out.append(f"   {line['name']:<24} {hands}  {how:<18} {result}" + words)
            continue
        money_part = (f"wager {money(line['wager_cents'])}  net "
                      f"{money(line['net_cents'], sign=True)}"
                      + (f" (commission {money(line['commission_cents'])})"
                         if line["commission_cents"] else ""))
        out.append(f"{line.get('order'):>2} {line['name']:<24} {hands}  {how:<18} "
                   f"{line['outcome'].upper():<8} "
                   f"{money_part}" + (f"  [{line['note']}]" if line["note"] else "") + words)
    b, t = slip["bank"], slip["totals"]
    if b["player"] is not None:
        out.append(f"Banker seat {b['player']}: collected {money(b['collected_cents'])}, paid "
                   f"{money(b['paid_cents'])}, commission {money(b['commission_cents'])}, net "
                   f"{money(b['net_cents'], sign=True)}" + (" - the bank ran out"
                                                            if b["exhausted"] else ""))
    out.append(f"Players net {money(t['players_net_cents'], sign=True)}   commission "
               f"{money(t['commission_cents'])}   house net "
               f"{money(t['house_net_cents'], sign=True)}"
               + (f"   banker net {money(t['banker_net_cents'], sign=True)}"
                  if b["player"] is not None else ""))
    bonus = slip.get("bonus")
    if bonus is not None:
        out.append(f"Bonus ({bonus['pay_card']}" + (f", envy {bonus['envy_card']}"
                                                    if bonus["envy_card"] else "") + "):")
        for group in bonus_groups(bonus):
            out.append(f"   {group.title} {money(group.net, sign=True)}")
            out.extend(f"      {x.words}: {money(x.amount, sign=True)}"
                       + (f" - {x.approved}" if x.approved else "") for x in group.lines)
        out.append(f"Bonus wagers {money(bonus['wagers_cents'])}   players net "
                   f"{money(bonus['net_cents'], sign=True)}   house net "
                   f"{money(-bonus['net_cents'], sign=True)}")
    progressive = slip.get("progressive")
    if progressive is not None:
        out.append(f"Progressive ({progressive['title']}): wagers "
                   f"{money(progressive['wagers_cents'])}")
        out.extend(f"   {progressive_line_words(x)}" for x in progressive["lines"])
    out.append(f"Leftovers: {slip['leftovers']}"
               + ("" if slip["leftovers_counted"] else " (not read: the cards not dealt)"))
    return "\n".join(out)


SET_BY_WORDS = {SetBy.PLAYER: "by the player", SetBy.HOUSE_WAY: "House Way",
                SetBy.RESET: "reset House Way", SetBy.AFTER_BANK: "House Way, after"}


def rule_words(line: Line) -> str:
    """The House Way rule that set the hand: its id with its words, as the card says it."""
    return _rule_words(line.rule, line.rule_says)


def _rule_words(rule: str | None, says: str | None) -> str:
    if not rule:
        return ""
    return f"  (House Way {rule}" + (f": {says})" if says else ")")


# --- settling ------------------------------------------------------------------------------

EXHAUSTED = "the bank is exhausted: the winning wager is returned"


def _half_to_player(amount: int) -> int:
    """The co-banking player's half of the bank's result; an odd cent stays with the house."""
    return amount // 2 if amount >= 0 else -((-amount) // 2)


def settle(*, table: str, round_no: int, action: Action, direction: Direction,
           order: Sequence[int], hands: Mapping[int, Hand], bank: Bank,
           commission: CommissionPolicy, rules: HandRules,
           leftovers: Sequence[Card], leftovers_counted: bool,
           rule_summary: Sequence[tuple[str, str]] = ()) -> Slip:
    """Settle a round whose hands are all set. `order` is every position from action."""
    bank_hand = hands[bank.position]
    if bank_hand.setting is None:
        raise TableError(f"the bank's hand ({position_name(bank.position)}) is not set")
    for h in hands.values():
        if h.role in (Role.PLAYER, Role.DRAGON, Role.DEALER) and h.setting is None:
            raise TableError(f"{position_name(h.position)} has not set its hand")
    covered = bank.is_house
    initial = (bank.stake or 0) * (2 if bank.co_bank else 1)
    remaining = initial
    collected = paid = 0
    dealer_result = 0  # the house's result on its dealer's hand against a player banker
    exhausted = False
    settled: dict[int, Line] = {}
    settle_order = [p for p in order if hands[p].role is Role.DEALER]
    settle_order += [p for p in order if hands[p].role in (Role.PLAYER, Role.DRAGON)]
    for n, position in enumerate(settle_order, start=1):
        hand = hands[position]
        cmp = compare(hand, bank_hand.setting, rules)
        outcome, win, comm, net, note = cmp.outcome, 0, 0, 0, cmp.rule
        if outcome is Outcome.LOSE:
            net = -hand.wager
            collected += hand.wager
            remaining += hand.wager
        elif outcome is Outcome.WIN:
            win = hand.wager if covered else min(hand.wager, remaining)
            if win == 0:
                outcome, note, exhausted = Outcome.RETURNED, EXHAUSTED, True
            else:
                if win < hand.wager:
                    exhausted = True
                    note = (f"the bank ran out: paid {money(win)} of {money(hand.wager)}, "
                            f"the rest is returned")
                paid += win
                remaining -= win
                # The house takes no commission from itself on the dealer's hand.
                comm = 0 if hand.role is Role.DEALER else commission.on(win)
                net = win - comm
        if hand.role is Role.DEALER:
            dealer_result = net
        settled[position] = Line(
            position, hand.role, hand.player, hand.cards, hand.setting, hand.set_by, hand.rule,
            hand.rule_says, hand.foul, cmp.front, cmp.back, outcome, hand.wager, win, comm, net,
            n, note)
    gross = collected - paid
    players_commission = sum(line.commission for line in settled.values())
    if bank.is_house:
        banker_commission, banker_net, house_share = 0, 0, gross
    else:
        player_share = _half_to_player(gross) if bank.co_bank else gross
        banker_commission = commission.on(player_share)
        banker_net = player_share - banker_commission
        house_share = gross - player_share
    lines = []
    for position in order:
        hand = hands[position]
        if position in settled:
            lines.append(settled[position])
            continue
        note = ("the bank" if hand.role is Role.BANK else "unused: mucked")
        lines.append(Line(position, hand.role, hand.player, hand.cards, hand.setting,
                          hand.set_by, hand.rule, hand.rule_says, hand.foul, None, None, None,
                          0, 0, 0, 0, None, note))
    bank_result = BankResult(
        bank.who, bank.position, bank.player, bank.co_bank,
        None if bank.is_house else initial, collected, paid, gross,
        banker_commission, banker_net, house_share, exhausted,
        None if bank.is_house else remaining)
    players = [line for line in settled.values() if line.role is not Role.DEALER]
    commission_total = players_commission + banker_commission
    totals = Totals(
        wagers=sum(line.wager for line in settled.values()),
        players_net=sum(line.net for line in players),
        commission=commission_total,
        banker_net=banker_net,
        house_net=house_share + commission_total + dealer_result)
    return Slip(table, round_no, action, order[0], direction, tuple(rule_summary), tuple(lines),
                bank_result, tuple(leftovers), leftovers_counted, totals)

