"""What happened in a round, one frozen record per change, with the rule that applied."""

from __future__ import annotations

from dataclasses import dataclass

from .banker import Eligibility
from .hands import Setting
from .settlement import BonusPayout, Hand, Slip
from .table import Action, Deal, Direction

# The dealer, the slip and the floor read these: the casino's words only (no rule's
# source, file or code word).
RULE_ACTION = ("the bank's position counts as 1, 8 and 15; every position counts, wager or "
               "not; counted {direction}")
RULE_DEAL = "the first hand dealt goes to action, then on {direction}; 4 cards left over"
RULE_MISDEAL = "a misdeal stops the round: nothing is settled and the wagers stand"
RULE_DEALER_FIRST = "the dealer banks the first round"
RULE_DEALER_TURN = "the dealer takes the bank in turn"
RULE_NO_BANKING = "the dealer banks: this table has no player banking"
RULE_PLAYER_BANK = ("a player who wagered against the dealer in the last round with no player "
                    "banker and covers every wager may bank")
RULE_FOUL_FORFEIT = "a player's fouled hand forfeits"
RULE_FOUL_RESET = "a player's fouled hand is reset the House Way (this table's rule)"
RULE_BANK_RESET = "a banker's or dealer's mis-set is always reset the House Way"
RULE_OWN_SETTING = "the player sets the hand; the dealer entered the two cards in front"
RULE_HOUSE_WAY = "set the House Way ({way}), rule {rule}: {says}"
RULE_DRAGON = ("an unused hand is offered to the seated players in turn; up to {most} per "
               "player, each its own wager, never to a player banker")
RULE_FOUL_RESPLIT = ("a player's fouled hand goes back to the player to set again: the round "
                     "waits until the five-card hand outranks the two-card hand")
RULE_ASKED_HOUSE_WAY = ("the player asked for the House Way: the seven cards stay in one pile "
                        "and the dealer sets them after the bank hand is opened and set")
RULE_AFTER_BANK = "set by the dealer the House Way after the bank, as the player asked"
RULE_BONUS = ("the bonus wager, beside the Pai Gow wager, within the bonus's own {least} to "
              "{most}; settled on the seven cards after the Pai Gow wagers")
RULE_DRAGON_BONUS = ("a bonus wager on a dragon hand, where the house allows it, within the "
                     "bonus's own {least} to {most}; placed when the hand is taken, before "
                     "any hand is set")
RULE_BONUS_HELD = ("a bonus or envy payout of {at} or more waits for a supervisor before the "
                   "round is settled and the slip printed; the floor is told")
RULE_BONUS_APPROVED = "a supervisor approved the bonus payouts of {at} or more"
RULE_PROGRESSIVE = ("the linked progressive wager, {wager} a seat a round beside a Pai Gow wager; "
                    "a share feeds the meter, paid on the seven cards by the progressive's "
                    "table after a supervisor's sign-in")
RULE_HELP = ("the player asked the house for help: the dealer shows how the House Way sets "
             "the hand; the hand is not set, the player may set it another way")


@dataclass(frozen=True, slots=True)
class WagerPlaced:
    seat: int
    wager: int
    rule: str


@dataclass(frozen=True, slots=True)
class WagerWithdrawn:
    seat: int
    wager: int


@dataclass(frozen=True, slots=True)
class BonusPlaced:
    """A seat's bonus wager (a player-banker's is on the banking hand)."""

    seat: int
    wager: int
    rule: str


@dataclass(frozen=True, slots=True)
class DragonBonusPlaced:
    """The bonus on a taken dragon hand, the taker's (where the house allows it)."""

    seat: int
    position: int
    wager: int
    rule: str


@dataclass(frozen=True, slots=True)
class BonusWithdrawn:
    seat: int
    wager: int


@dataclass(frozen=True, slots=True)
class DragonBonusWithdrawn:
    """The taker took back the bonus on a dragon hand, before any hand was set."""

    seat: int
    position: int
    wager: int


@dataclass(frozen=True, slots=True)
class ProgressivePlaced:
    """A seat's linked progressive wager: the card's amount, one a seat a round."""

    seat: int
    wager: int
    rule: str


@dataclass(frozen=True, slots=True)
class ProgressiveWithdrawn:
    seat: int
    wager: int


@dataclass(frozen=True, slots=True)
class BonusHeld:
    """The payouts that wait for a supervisor before the round settles."""

    lines: tuple[BonusPayout, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class BonusApproved:
    supervisor: str
    lines: tuple[BonusPayout, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class BankPassed:
    seat: int


@dataclass(frozen=True, slots=True)
class BankTaken:
    """Who banks this round. `player` is None when the dealer banks for the house."""

    position: int
    player: int | None
    chips: int | None
    co_bank: bool
    dealer_wager: int
    eligibility: Eligibility | None
    rule: str


@dataclass(frozen=True, slots=True)
class ActionCounted:
    action: Action
    bank: int
    position: int
    direction: Direction
    rule: str


@dataclass(frozen=True, slots=True)
class Dealt:
    deal: Deal
    rule: str


@dataclass(frozen=True, slots=True)
class Misdealt:
    problems: tuple[str, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class DragonPassed:
    seat: int


@dataclass(frozen=True, slots=True)
class DragonTaken:
    seat: int
    position: int
    wager: int
    rule: str


@dataclass(frozen=True, slots=True)
class HandSet:
    hand: Hand
    rule: str


@dataclass(frozen=True, slots=True)
class HandReturned:
    """A player's foul under the resplit rule: `hand` is the hand as the player tried to set
    it (its `foul` says why); the round keeps it unset for the player to set again."""

    hand: Hand
    rule: str


@dataclass(frozen=True, slots=True)
class HouseWayAsked:
    """The player asked for the House Way: the seven cards wait in one pile for the bank."""

    position: int
    rule: str


@dataclass(frozen=True, slots=True)
class HouseWayShown:
    """The house showed how the House Way sets a hand; nothing was set."""

    position: int
    setting: Setting
    way: str
    rule_id: str
    says: str
    rule: str


@dataclass(frozen=True, slots=True)
class Settled:
    slip: Slip


Record = (WagerPlaced | WagerWithdrawn | BankPassed | BankTaken | ActionCounted | Dealt
          | Misdealt | DragonPassed | DragonTaken | HandSet | HandReturned | HouseWayAsked
          | HouseWayShown | BonusPlaced | BonusWithdrawn | DragonBonusPlaced
          | DragonBonusWithdrawn | BonusHeld | BonusApproved | ProgressivePlaced
          | ProgressiveWithdrawn | Settled)
