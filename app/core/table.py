"""The table: positions, action from an RNG or three dice, the order of the deal, the deck.

Positions are numbers. The dealer's place is position 0 (`DEALER`); the six seats are 1-6,
numbered clockwise from the dealer's left. Seven hands of seven cards are dealt, one to
every position, and four cards are left over.

Action (seed 004, DESIGN.md): the count starts with the bank's position as 1 (and 8, 15)
and goes round the table - clockwise unless the table counts counterclockwise - counting
every position whether it has a wager or not. The first hand dealt goes to action, then on
in the same direction; the hands are settled and paid in that order too.

The NO PLAY spot (seed 004, Cordova): "A 'NO PLAY' button follows the bank; no bet can be
placed there, and the spot is not counted for action." Since the bank is still counted as
1, 8 and 15 there, seven places are counted: the spot is a place on the layout besides the
seven hands, not one of them. So it is `NO_PLAY`, not a position: it is dealt no hand, is
never counted, takes no wager, and sits right after the bank in the table's direction.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from .cards import DECK, Card, card, cards_text

DEALER = 0
NO_PLAY = -1  # the NO PLAY spot's place on the layout: never a position that plays
SEATS = 6
HANDS = SEATS + 1
CARDS_PER_HAND = 7
LEFTOVERS = len(DECK) - HANDS * CARDS_PER_HAND  # 4
TABLE_NAME_MAX = 40  # the ledger keeps a table's name in 40 characters


class TableError(ValueError):
    """Something the table cannot do, said for the people at it: what is wrong, what to do."""


class Misdeal(TableError):
    """The cards dealt are not one whole deck in seven hands of seven: the round stops.

    Nothing is settled from a misdeal and the wagers stand for the new deal.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(
            "Misdeal: " + "; ".join(self.problems)
            + ". Nothing is settled and the wagers stand: gather the cards, shuffle and deal "
              "again.")


class Direction(Enum):
    """Which way action is counted, the cards are dealt and the hands are paid."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class DealMode(Enum):
    """How the deal reaches the station."""

    STACKS = "stacks"  # seven 7-card stacks (a shuffler's packets), the first to action
    ONE_AT_A_TIME = "one-at-a-time"  # one card at a time around the table from action


class ActionSource(Enum):
    """What finds action at this table."""

    RNG = "rng"  # a random number 1-7
    DICE = "dice"  # three dice from the cup, 3-18


NO_PLAY_RULE = "no bet can be placed there and it is not counted for action"


def position_name(position: int) -> str:
    """`dealer` or `seat 3`: how the slip and the errors name a position."""
    if position == NO_PLAY:
        return "the NO PLAY spot"
    return "dealer" if position == DEALER else f"seat {position}"


@dataclass(frozen=True, slots=True)
class Table:
    """The layout and the table's habits: its name, direction, how it deals, finds action."""

    name: str = "PG-1"
    seats: int = SEATS
    direction: Direction = Direction.CLOCKWISE
    deal_mode: DealMode = DealMode.STACKS
    action_source: ActionSource = ActionSource.RNG
    no_play: bool = False  # a NO PLAY spot follows the bank (seed 004)

    def __post_init__(self) -> None:
        if not 1 <= len(self.name.strip()) <= TABLE_NAME_MAX:
            raise TableError(f"a table's name is 1 to {TABLE_NAME_MAX} characters, not "
                             f"{len(self.name.strip())} ({self.name!r})")
        if self.seats != SEATS:
            raise TableError(f"a Pai Gow Poker table deals {HANDS} hands of {CARDS_PER_HAND} "
                             f"cards, to the bank and {SEATS} seats, not {self.seats} seats")

    @property
    def positions(self) -> tuple[int, ...]:
        """Every position clockwise from the dealer: 0, 1, ..., 6."""
        return tuple(range(self.seats + 1))

    def no_play_between(self, bank: int = DEALER) -> tuple[int, int] | None:
        """Where the NO PLAY spot lies: between the bank and the next position in the
        table's direction, as (the bank, that position); None when the table has none."""
        if not self.no_play:
            return None
        self.verify_position(bank, "the bank's position")
        return bank, self.step(bank)

    def no_play_refusal(self) -> str:
        """Why nothing is played on the NO PLAY spot, or that the table has none."""
        if self.no_play:
            return f"the NO PLAY spot follows the bank: {NO_PLAY_RULE}; use a seat"
        return f"this table has no NO PLAY spot: the dealer is 0 and the seats are 1-{self.seats}"

    def verify_position(self, position: int, what: str = "position") -> None:
        if position == NO_PLAY:
            raise TableError(self.no_play_refusal())
        if position not in self.positions:
            raise TableError(f"{what} {position} is not at this table: the dealer is 0 and the "
                             f"seats are 1-{self.seats}")

    def step(self, position: int, by: int = 1) -> int:
        """The position `by` places on from `position` in the table's direction."""
        return _step(self.seats + 1, self.direction, position, by)

    def around(self, start: int) -> tuple[int, ...]:
        """Every position once, starting with `start`, in the table's direction."""
        self.verify_position(start)
        return _around(self.seats + 1, self.direction, start)

    def count(self, number: int, bank: int = DEALER) -> int:
        """Where a count of `number` lands, the bank's position counting as 1 (and 8, 15).

        Only the seven positions are counted: the NO PLAY spot after the bank is not one."""
        self.verify_position(bank, "the bank's position")
        return self.step(bank, number - 1)

    def position_of_card(self, action: int, index: int) -> int | None:
        """The position the `index`-th card read (0-based) goes to, or None for a leftover.

        Stacks: seven cards to action, the next seven to the position after it, and so on;
        one at a time: one card to each position round the table from action, seven times
        round. Cards 49-52 are the four left over. So a card can be put in its place the
        moment the shoe reads it; `deal_stacks` and `deal_one_at_a_time` deal the same way.
        """
        if not 0 <= index < len(DECK):
            raise TableError(f"card {index + 1} of a deal: the deck has {len(DECK)} cards, "
                             f"counted from 1")
        return self.deal_order(action)[index]

    def deal_order(self, action: int) -> tuple[int | None, ...]:
        """Where every card of a deal goes, by its place in the dealing order (None: one of
        the four left over): `position_of_card` for the whole deck at once."""
        self.verify_position(action)
        return _deal_order(self.seats + 1, self.direction, self.deal_mode, action)


# Kept: the window asks where each card of a deal goes at every look (150,000 times in 40
# rounds, about a twentieth of a round's profile when it was worked out each time).
@cache
def _deal_order(positions: int, direction: Direction, mode: DealMode,
                action: int) -> tuple[int | None, ...]:
    order = _around(positions, direction, action)
    dealt = positions * CARDS_PER_HAND
    if mode is DealMode.STACKS:
        return tuple(order[i // CARDS_PER_HAND] if i < dealt else None for i in range(len(DECK)))
    return tuple(order[i % positions] if i < dealt else None for i in range(len(DECK)))


@cache
def _around(positions: int, direction: Direction, start: int) -> tuple[int, ...]:
    return tuple(_step(positions, direction, start, i) for i in range(positions))


def _step(positions: int, direction: Direction, position: int, by: int) -> int:
    sign = 1 if direction is Direction.CLOCKWISE else -1
    return (position + sign * by) % positions


@dataclass(frozen=True, slots=True)
class Place:
    """Where one card of a deal goes: its place in the dealing order and its position."""

    index: int                  # 0-based in the dealing order; 49-52 are the leftovers
    position: int | None        # None: one of the four left over


def place_of_seq(table: Table, action: int, first_seq: int, seq: int,
                 wrap: int | None = None) -> Place:
    """The place of the card a shoe numbered `seq` in a deal whose first card is `first_seq`.

    The number, not the count of cards received, says where a card goes: a card lost on the
    line leaves a hole at its own place and every later card still lands where it was
    dealt. `wrap` is the shoe's highest number when its count starts again at 1 after it.
    """
    index = seq - first_seq if wrap is None else (seq - first_seq) % wrap
    if index < 0:
        raise TableError(f"card number {seq} comes before this deal's first card "
                         f"({first_seq}): it belongs to an earlier deal")
    return Place(index, table.position_of_card(action, index))


def holes_in(indexes: Iterable[int]) -> tuple[int, ...]:
    """The places in the dealing order before the last card read that have no card."""
    have = set(indexes)
    return tuple(i for i in range(max(have, default=-1)) if i not in have)


RNG_NUMBERS = range(1, HANDS + 1)
DIE_FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class Action:
    """The number that finds action, where it came from, and the dice if dice were thrown."""

    number: int
    source: ActionSource
    dice: tuple[int, ...] = ()
    drawn_by: str = "entered"  # "entered" (read off the RNG or the dice) or "secrets"

    def __post_init__(self) -> None:
        if self.source is ActionSource.RNG:
            if self.dice:
                raise TableError("an RNG number comes without dice")
            if self.number not in RNG_NUMBERS:
                raise TableError(f"the action number is 1 to {HANDS}, not {self.number}: "
                                 f"read the number again")
        else:
            if len(self.dice) != 3:
                raise TableError(f"action takes three dice, not {len(self.dice)}: enter all "
                                 f"three")
            for die in self.dice:
                if die not in DIE_FACES:
                    raise TableError(f"a die shows 1 to 6, not {die}: read the dice again")
            if self.number != sum(self.dice):
                raise TableError(f"the dice {self.dice_text} total {sum(self.dice)}, "
                                 f"not {self.number}")

    @classmethod
    def from_rng(cls, number: int) -> Action:
        """A 1-7 number read off the table's random number generator."""
        return cls(number, ActionSource.RNG)

    @classmethod
    def from_dice(cls, *dice: int) -> Action:
        """Three dice from the cup, entered or read; the count is their total (3-18)."""
        return cls(sum(dice), ActionSource.DICE, tuple(dice))

    @classmethod
    def draw(cls, randbelow: Callable[[int], int] = secrets.randbelow) -> Action:
        """A 1-7 number drawn by the station itself with `secrets` (a CSPRNG)."""
        return cls(randbelow(HANDS) + 1, ActionSource.RNG, drawn_by="secrets")

    @property
    def dice_text(self) -> str:
        return "+".join(str(d) for d in self.dice)

    def __str__(self) -> str:
        if self.source is ActionSource.DICE:
            return f"dice {self.dice_text} = {self.number}"
        how = " (drawn by the station)" if self.drawn_by == "secrets" else ""
        return f"RNG {self.number}{how}"


@dataclass(frozen=True, slots=True)
class Deal:
    """Seven hands, each with its position, in the order dealt (action first), and the rest.

    `leftovers_counted` is False when the four left-over cards were not read and were worked
    out as the cards missing from the hands.
    """

    order: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    leftovers: tuple[Card, ...]
    leftovers_counted: bool
    mode: str

    @property
    def action(self) -> int:
        return self.order[0]

    def hand(self, position: int) -> tuple[Card, ...]:
        return self.hands[self.order.index(position)]

    def by_position(self) -> dict[int, tuple[Card, ...]]:
        return dict(zip(self.order, self.hands, strict=True))


def _missing(seen: Iterable[Card]) -> list[Card]:
    have = set(seen)
    return [c for c in DECK if c not in have]


def check_deck(order: Sequence[int], hands: Sequence[Sequence[Card]],
               leftovers: Sequence[Card] | None) -> list[str]:
    """Every problem with a deal, in a dealer's words; empty when the deck is whole."""
    problems: list[str] = []
    if len(hands) != HANDS:
        problems.append(f"{len(hands)} hands were dealt, not {HANDS}")
    where: dict[Card, str] = {}
    for position, hand in zip(order, hands, strict=False):
        name = position_name(position)
        if len(hand) < CARDS_PER_HAND:
            problems.append(f"{name} has a short hand: {len(hand)} cards, not {CARDS_PER_HAND}")
        elif len(hand) > CARDS_PER_HAND:
            problems.append(f"{name} has {len(hand)} cards, not {CARDS_PER_HAND}")
        for c in hand:
            if c in where:
                problems.append(f"{c} is dealt twice, to {where[c]} and to {name}"
                                if where[c] != name else f"{c} is twice in {name}'s hand")
            else:
                where[c] = name
    if leftovers is not None:
        for c in leftovers:
            if c in where:
                problems.append(f"{c} is dealt to {where[c]} and also left over")
            else:
                where[c] = "the leftovers"
        if len(leftovers) != LEFTOVERS:
            problems.append(f"{len(leftovers)} cards are left over, not {LEFTOVERS}")
    if leftovers is not None:
        missing = _missing(where)
        if missing:
            problems.append("the deck is missing " + cards_text(missing))
    return problems


def make_deal(order: Sequence[int], hands: Sequence[Sequence[Card]],
              leftovers: Sequence[Card] | None, mode: str) -> Deal:
    """Check the deck and hold the deal; a Misdeal names every problem found."""
    problems = check_deck(order, hands, leftovers)
    if problems:
        raise Misdeal(problems)
    held = tuple(tuple(h) for h in hands)
    counted = leftovers is not None
    rest = tuple(leftovers) if leftovers is not None else tuple(
        _missing(c for h in held for c in h))
    return Deal(tuple(order), held, rest, counted, mode)


def deal_stacks(table: Table, action: int, stacks: Sequence[Sequence[Card]],
                leftovers: Sequence[Card] | None = None) -> Deal:
    """Seven 7-card stacks in the order they came out: the first goes to action."""
    return make_deal(table.around(action), stacks, leftovers, DealMode.STACKS.value)


def deal_one_at_a_time(table: Table, action: int, cards: Sequence[Card]) -> Deal:
    """Cards one at a time round the table from action; 49 (leftovers unread) or 53."""
    if len(cards) > len(DECK):
        raise Misdeal([f"{len(cards)} cards came out of the shoe: the deck has {len(DECK)}"])
    order = table.around(action)
    dealt = HANDS * CARDS_PER_HAND
    hands = [list(cards[i:dealt:HANDS]) for i in range(HANDS)]
    leftovers = list(cards[dealt:]) if len(cards) > dealt else None
    return make_deal(order, hands, leftovers, DealMode.ONE_AT_A_TIME.value)


def deal_by_position(table: Table, action: int, hands: Mapping[int, Sequence[Card]],
                     leftovers: Sequence[Card] | None = None) -> Deal:
    """Each position's seven cards entered by position (e.g. read back from the layout)."""
    order = table.around(action)
    problems = [f"no hand was entered for {position_name(p)}" for p in order if p not in hands]
    for p in hands:
        if p not in order:
            problems.append(f"a hand was entered for position {p}, which is not at this table")
    if problems:
        raise Misdeal(problems)
    return make_deal(order, [hands[p] for p in order], leftovers, "by-position")


def cards_from_text(tokens: Iterable[str]) -> tuple[Card, ...]:
    """Cards from tokens without the duplicate check, so that a misdeal can name them."""
    return tuple(card(t) for item in tokens for t in str(item).replace(",", " ").split())
