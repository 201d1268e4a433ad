"""Player banker: the rotation of the bank and who may take it (seed 003).

The bank is offered in rotation round the table; each player may accept or pass, and the
offer moves on; when it reaches the dealer's place, the dealer takes the bank. The dealer
banks the first round, and no player banks two rounds in a row unless the table allows it.

A player may bank only if (seed 003):
  1. they placed a wager against the dealer during the last round with no player banker, and
  2. they have chips on the table to cover every wager placed by the other players this
     round (half of it when the house co-banks).

`BankRotation` is what the table remembers between rounds; `eligibility()` answers for the
pit supervisor's screen with every reason. `bank_offer_order()` is the one place the turn of
the bank is worked out, always in the table's own direction (clockwise or counterclockwise).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from .settlement import money
from .table import DEALER, Table, TableError, position_name


class BankError(TableError):
    """The bank cannot go to that player, or not now: the reason and what to do."""


class DealerWager(Enum):
    """What the house wagers on the dealer's hand against a player banker."""

    LAST_BET = "last-bet"  # what the banker last bet against the house (seed 003 practice)
    MINIMUM = "minimum"  # the table minimum


@dataclass(frozen=True, slots=True)
class BankingRules:
    enabled: bool = True
    consecutive: bool = False  # may a player bank two rounds in a row
    dealer_wager: DealerWager = DealerWager.LAST_BET
    co_banking: bool = False  # may the house cover half of a player's bank


@dataclass(frozen=True, slots=True)
class Eligibility:
    """May this seat bank this round, and why (or why not), for the supervisor's screen.

    `reasons` are every condition checked, met or not, in the order checked (the ledger
    keeps them all); `failed` are those not met. A refusal is said with the failed ones
    only: "may not bank: wagered $25.00..." read like a pass."""

    seat: int
    eligible: bool
    reasons: tuple[str, ...]
    chips: int  # the seat's chips on the table, in cents
    cover: int  # what the bank must cover, in cents
    failed: tuple[str, ...] = ()

    @property
    def met(self) -> tuple[str, ...]:
        return tuple(r for r in self.reasons if r not in self.failed)

    @property
    def reason(self) -> str:
        """Why: what failed when it may not bank, what was met when it may."""
        return "; ".join(self.failed if not self.eligible else self.met)

    def __str__(self) -> str:
        verdict = "may bank" if self.eligible else "may not bank"
        return f"{position_name(self.seat)} {verdict}: {self.reason}"


def bank_offer_order(table: Table, last_bank: int | None = None,
                     start: int | None = None) -> tuple[int, ...]:
    """Who is offered the bank, in turn, ending with the dealer (who takes it in turn).

    The offer starts at the position after the last bank (`last_bank`, None for the dealer)
    in the table's direction, or at `start` when the pit has said where it starts. Every
    part of the station that asks who banks next asks this, so that a counterclockwise table
    turns its bank counterclockwise everywhere.
    """
    first = start if start is not None else table.step(
        DEALER if last_bank is None else last_bank)
    order = []
    for position in table.around(first):
        order.append(position)
        if position == DEALER:
            break
    return tuple(order)


@dataclass(frozen=True, slots=True)
class BankRotation:
    """What the table remembers between rounds for the bank and the dragon.

    `house_bets` are the main wagers of the last round with no player banker, seat -> cents;
    `last_banker` is the seat that banked the last round (None when the dealer did);
    `offer_from` is where the next offer of the bank starts when the pit has said so, and None
    (the usual) for "the position after the last bank, in the table's direction" - worked out
    with the table by `bank_offer_order`, never stored with a direction guessed;
    `last_dragon` the seat that last took a dragon hand.
    """

    round_no: int = 1
    first_round: bool = True
    last_banker: int | None = None
    house_bets: tuple[tuple[int, int], ...] = ()
    offer_from: int | None = None
    last_dragon: int | None = None

    @classmethod
    def resume(cls, *, round_no: int = 2, house_bets: Mapping[int, int] | None = None,
               last_banker: int | None = None, offer_from: int | None = None,
               last_dragon: int | None = None) -> BankRotation:
        """The rotation part-way through a session (e.g. read back from the ledger). With no
        `offer_from`, the offer goes on from the last bank in the table's direction."""
        return cls(round_no, False, last_banker, tuple(sorted((house_bets or {}).items())),
                   offer_from, last_dragon)

    def house_bet(self, seat: int) -> int | None:
        """What the seat wagered against the dealer in the last round with no player banker."""
        return dict(self.house_bets).get(seat)

    def offer_order(self, table: Table, rules: BankingRules) -> tuple[int, ...]:
        """Who is offered the bank this round, in turn, ending with the dealer."""
        if self.first_round or not rules.enabled:
            return (DEALER,)
        return bank_offer_order(table, self.last_banker, self.offer_from)

    def eligibility(self, seat: int, chips: int, wagers: Mapping[int, int],
                    rules: BankingRules, table: Table | None = None,
                    co_bank: bool = False) -> Eligibility:
        """May `seat` bank with `chips` on the table, when `wagers` (cents per seat: every
        wager this round, main and dragon) are placed. Every reason is given."""
        t = table or Table()
        why: list[str] = []
        failed: list[str] = []

        def fails(reason: str) -> None:
            why.append(reason)
            failed.append(reason)

        if seat == DEALER or seat not in t.positions:
            raise BankError(f"{seat} is not a seat: the seats are 1-{t.seats}")
        if not rules.enabled:
            fails("this table does not allow player banking")
        if co_bank and not rules.co_banking:
            fails("this table does not co-bank")
        if self.first_round:
            fails("the dealer banks the first round")
        bet = self.house_bet(seat)
        if bet is None:
            fails("placed no wager against the dealer in the last round with no player "
                  "banker")
        else:
            why.append(f"wagered {money(bet)} against the dealer in the last round with no "
                       f"player banker")
        if self.last_banker == seat and not rules.consecutive:
            fails("banked the last round: no player banks two rounds in a row")
        total = sum(cents for s, cents in wagers.items() if s != seat)
        cover = -(-total // 2) if co_bank else total
        half = " (half, co-banked with the house)" if co_bank else ""
        if chips < cover:
            fails(f"has {money(chips)} in chips, short of the {money(cover)}{half} needed to "
                  f"cover the other wagers")
        else:
            why.append(f"has {money(chips)} in chips to cover {money(cover)}{half} of other "
                       f"wagers")
        return Eligibility(seat, not failed, tuple(why), chips, cover, tuple(failed))

    def after(self, table: Table, *, banker: int | None, main_wagers: Mapping[int, int],
              dragon_takers: Iterable[int] = ()) -> BankRotation:
        """The rotation for the next round, once this one is settled.

        `banker` is the seat that banked (None: the dealer); `main_wagers` the seats' main
        wagers this round; `dragon_takers` the seats that took a dragon, in the order taken.
        """
        if banker is not None:
            table.verify_position(banker, "the banker's seat")
        takers = list(dragon_takers)
        bets = self.house_bets if banker is not None else tuple(sorted(main_wagers.items()))
        return BankRotation(
            round_no=self.round_no + 1,
            first_round=False,
            last_banker=banker,
            house_bets=bets,
            offer_from=None,  # on from this round's bank, in the table's direction
            last_dragon=takers[-1] if takers else self.last_dragon,
        )
