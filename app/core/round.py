"""One round at the table as a state machine: bets, the bank, action, the deal, the dragon,
the hands, and the settlement.

    BETTING --set_action--> DEALING --deal_...--> SETTING --settle--> SETTLED
                               |  ^                                     (slip)
                          misdeal  `--set_action (new action; the wagers stand)
                               v  |
                             MISDEAL

Every change is checked before it happens: `verify_x(...)` raises a `RoundError` that says
what is wrong and what to do, `can_x(...)` answers yes or no, and `x(...)` makes the change
and returns a frozen record of what happened and the rule that applied; `Round.log` keeps
them in order. The round takes cards and numbers from outside and never does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from .banker import BankError, BankRotation, DealerWager, Eligibility
from .bonus import BonusError, BonusHand, BonusLine, BonusSettlement, settle_bonuses
from .bonus.payout import payout
from .cards import Card, cards_text
from .hands import Setting, foul_reason
from .house_way.table import house_way_setting
from .records import *  # noqa: F403  (the records are part of this module's interface)
from .records import (
    RULE_ACTION,
    RULE_AFTER_BANK,
    RULE_ASKED_HOUSE_WAY,
    RULE_BANK_RESET,
    RULE_BONUS,
    RULE_BONUS_APPROVED,
    RULE_BONUS_HELD,
    RULE_DEAL,
    RULE_DEALER_FIRST,
    RULE_DEALER_TURN,
    RULE_DRAGON,
    RULE_DRAGON_BONUS,
    RULE_FOUL_FORFEIT,
    RULE_FOUL_RESET,
    RULE_FOUL_RESPLIT,
    RULE_HELP,
    RULE_HOUSE_WAY,
    RULE_MISDEAL,
    RULE_NO_BANKING,
    RULE_OWN_SETTING,
    RULE_PLAYER_BANK,
    RULE_PROGRESSIVE,
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
    Settled,
    WagerPlaced,
    WagerWithdrawn,
)
from .round_rules import *  # noqa: F403
from .round_rules import (
    AskedHouseWay,
    DragonOffer,
    DragonSetting,
    DragonWager,
    FoulPenalty,
    Phase,
    RoundError,
    RoundRules,
)
from .settlement import (
    Bank,
    BonusPayout,
    BonusResult,
    Hand,
    ProgressiveLine,
    ProgressiveResult,
    Role,
    SetBy,
    Slip,
    money,
    settle,
)
from .table import (
    DEALER,
    NO_PLAY,
    Action,
    ActionSource,
    Deal,
    DealMode,
    Misdeal,
    Table,
    TableError,
    deal_by_position,
    deal_one_at_a_time,
    deal_stacks,
    position_name,
)

# Refusals are read by the dealer: the table's settings in words, not as the config writes
# them ("rng", "one-at-a-time": the config's words, docs/configuration.md).
_ACTION_WORDS = {ActionSource.RNG: "the RNG", ActionSource.DICE: "the dice"}
_DEAL_WORDS = {DealMode.STACKS: "in stacks", DealMode.ONE_AT_A_TIME: "one card at a time"}


def _dragons(n: int) -> str:
    return "one dragon hand" if n == 1 else f"{n} dragon hands"


def _can(verify: Callable[[], None]) -> bool:
    try:
        verify()
    except TableError:
        return False
    return True


# --- the round -----------------------------------------------------------------------------

class Round:
    """One round. Build it with the table's rules and what the table remembers (rotation)."""

    def __init__(self, rules: RoundRules | None = None,
                 rotation: BankRotation | None = None) -> None:
        self.rules = rules or RoundRules()
        self.rotation = rotation or BankRotation()
        self.phase = Phase.BETTING
        self.log: list[Record] = []
        self._wagers: dict[int, int] = {}
        self._taken: BankTaken | None = None
        self._bank_passed: list[int] = []
        self._action: ActionCounted | None = None
        self._deal: Deal | None = None
        self._dragons: dict[int, tuple[int, int]] = {}  # position -> (seat, wager)
        self._dragon_passed: list[int] = []
        self._piles: set[int] = set()  # asked for the House Way: one pile until the bank
        self._hands: dict[int, Hand] = {}
        self._bonus: dict[int, int] = {}  # seat -> its bonus wager (issue 26)
        self._dragon_bonus: dict[int, int] = {}  # a taken dragon hand's position -> bonus
        self._bonus_held: BonusHeld | None = None
        self._bonus_approved: BonusApproved | None = None
        self._progressive: dict[int, int] = {}  # seat -> its progressive wager (issue 27)
        self.slip: Slip | None = None

    @property
    def table(self) -> Table:
        return self.rules.table

    # --- what the round knows --------------------------------------------------------------

    @property
    def wagers(self) -> dict[int, int]:
        """Each seat's main wager, in cents."""
        return dict(self._wagers)

    @property
    def bonus_wagers(self) -> dict[int, int]:
        """Each seat's bonus wager, in cents (a player-banker's is on the banking hand)."""
        return dict(self._bonus)

    @property
    def progressive_wagers(self) -> dict[int, int]:
        """Each seat's linked progressive wager, in cents (the card's amount)."""
        return dict(self._progressive)

    @property
    def dragon_bonus_wagers(self) -> dict[int, int]:
        """The bonus on each taken dragon hand, by its position (the taker's wager)."""
        return dict(self._dragon_bonus)

    @property
    def dragons(self) -> dict[int, tuple[int, int]]:
        """Dragon hands taken: position -> (seat, wager)."""
        return dict(self._dragons)

    @property
    def banker(self) -> int:
        """The bank's position: the dealer's place unless a player has taken the bank."""
        return self._taken.position if self._taken else DEALER

    @property
    def bank(self) -> Bank:
        t = self._taken
        if t is None or t.player is None:
            return Bank()
        return Bank(t.position, t.player, t.chips, t.co_bank, t.dealer_wager)

    @property
    def action(self) -> ActionCounted | None:
        return self._action

    @property
    def deal(self) -> Deal | None:
        return self._deal

    @property
    def hands(self) -> dict[int, Hand]:
        """Every position's hand once dealt: set or not, with its role."""
        return dict(self._hands)

    def _all_wagers(self) -> dict[int, int]:
        """Every wager a seat has at risk this round, main and dragon, per seat."""
        total = dict(self._wagers)
        for seat, cents in self._dragons.values():
            total[seat] = total.get(seat, 0) + cents
        return total

    def _require(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise RoundError(f"{self.phase.now}; that is done "
                             + " or ".join(p.when for p in phases))

    def _verify_seat(self, seat: int) -> None:
        if seat == NO_PLAY:
            raise RoundError(self.table.no_play_refusal())
        if seat == DEALER or seat not in self.table.positions:
            raise RoundError(f"{seat} is not a seat: the seats are 1-{self.table.seats}")

    def _verify_cover(self, seat: int, extra: int) -> None:
        """A player bank must cover every wager placed against it (half, co-banked)."""
        t = self._taken
        if t is None or t.player is None or t.chips is None or extra <= 0:
            return
        at_risk = sum(self._all_wagers().values())
        covers = t.chips * (2 if t.co_bank else 1)
        if at_risk + extra > covers:
            raise RoundError(f"the bank of seat {t.player} ({money(t.chips)}) cannot cover "
                             f"{money(extra)} more: it covers {money(max(covers - at_risk, 0))} "
                             f"more")

    # --- bets ------------------------------------------------------------------------------

    def verify_place_wager(self, seat: int, wager: int) -> None:
        self._require(Phase.BETTING)
        self._verify_seat(seat)
        if self._taken and self._taken.player == seat:
            raise RoundError(f"seat {seat} is the banker: a banker does not wager against the "
                             f"bank")
        lim = self.rules.limits
        if wager < lim.minimum:
            raise RoundError(f"{money(wager)} is under the table minimum of {money(lim.minimum)}")
        if wager > lim.maximum:
            raise RoundError(f"{money(wager)} is over the table maximum of {money(lim.maximum)}")
        self._verify_cover(seat, wager - self._wagers.get(seat, 0))

    def can_place_wager(self, seat: int, wager: int) -> bool:
        return _can(lambda: self.verify_place_wager(seat, wager))

    def place_wager(self, seat: int, wager: int) -> WagerPlaced:
        """A seat's main wager (a second call changes it while bets are open)."""
        self.verify_place_wager(seat, wager)
        self._wagers[seat] = wager
        lim = self.rules.limits
        record = WagerPlaced(seat, wager, f"within the table's {money(lim.minimum)} to "
                                          f"{money(lim.maximum)}")
        self.log.append(record)
        return record

    def verify_withdraw_wager(self, seat: int) -> None:
        self._require(Phase.BETTING)
        if seat not in self._wagers:
            raise RoundError(f"{position_name(seat)} has no wager to take back")

    def withdraw_wager(self, seat: int) -> WagerWithdrawn:
        self.verify_withdraw_wager(seat)
        record = WagerWithdrawn(seat, self._wagers.pop(seat))
        self.log.append(record)
        return record

    # --- the bonus wager (issue 26) -------------------------------------------------------

    def _has_pai_gow_wager(self, seat: int) -> bool:
        """A main wager, or the banking hand of a player-banker."""
        return seat in self._wagers or (self._taken is not None and self._taken.player == seat)

    def verify_place_bonus(self, seat: int, wager: int) -> None:
        self._require(Phase.BETTING)
        self._verify_seat(seat)
        bonus = self.rules.bonus
        if bonus is None:
            raise RoundError("this table takes no bonus wager")
        if wager < bonus.minimum:
            raise RoundError(f"{money(wager)} is under the bonus minimum of "
                             f"{money(bonus.minimum)}")
        if wager > bonus.maximum:
            raise RoundError(f"{money(wager)} is over the bonus maximum of "
                             f"{money(bonus.maximum)}")
        if bonus.requires_wager and not self._has_pai_gow_wager(seat):
            raise RoundError(f"seat {seat} has no Pai Gow wager: the bonus is taken only "
                             f"beside one (place the seat's wager first)")

    def can_place_bonus(self, seat: int, wager: int) -> bool:
        return _can(lambda: self.verify_place_bonus(seat, wager))

    def place_bonus(self, seat: int, wager: int) -> BonusPlaced:
        """A seat's bonus wager (a second call changes it while bets are open)."""
        self.verify_place_bonus(seat, wager)
        bonus = self.rules.bonus
        assert bonus is not None
        self._bonus[seat] = wager
        record = BonusPlaced(seat, wager, RULE_BONUS.format(least=money(bonus.minimum),
                                                            most=money(bonus.maximum)))
        self.log.append(record)
        return record

    def verify_withdraw_bonus(self, seat: int) -> None:
        self._require(Phase.BETTING)
        if seat not in self._bonus:
            raise RoundError(f"{position_name(seat)} has no bonus wager to take back")

    def withdraw_bonus(self, seat: int) -> BonusWithdrawn:
        self.verify_withdraw_bonus(seat)
        record = BonusWithdrawn(seat, self._bonus.pop(seat))
        self.log.append(record)
        return record

    def verify_place_dragon_bonus(self, position: int, wager: int) -> None:
        self._require(Phase.SETTING)
        self.table.verify_position(position)
        bonus = self.rules.bonus
        if bonus is None:
            raise RoundError("this table takes no bonus wager")
        if position not in self._dragons:
            raise RoundError(f"{position_name(position)}'s hand is not a dragon hand taken "
                             f"this round: a bonus now goes only on a dragon hand")
        if not bonus.rules.dragon_bonus:
            raise RoundError(f"the dragon hand at {position_name(position)} takes no bonus: "
                             f"the house does not allow a bonus on a dragon hand here")
        if self._any_set():
            raise RoundError("the dragon hand's bonus is placed before any hand is set")
        if wager < bonus.minimum:
            raise RoundError(f"{money(wager)} is under the bonus minimum of "
                             f"{money(bonus.minimum)}")
        if wager > bonus.maximum:
            raise RoundError(f"{money(wager)} is over the bonus maximum of "
                             f"{money(bonus.maximum)}")

    def can_place_dragon_bonus(self, position: int, wager: int) -> bool:
        return _can(lambda: self.verify_place_dragon_bonus(position, wager))

    def place_dragon_bonus(self, position: int, wager: int) -> DragonBonusPlaced:
        """The taker's bonus on a dragon hand (a second call changes it until a hand is
        set), where the house allows it (`BonusRules.dragon_bonus`)."""
        self.verify_place_dragon_bonus(position, wager)
        bonus = self.rules.bonus
        assert bonus is not None
        self._dragon_bonus[position] = wager
        record = DragonBonusPlaced(self._dragons[position][0], position, wager,
                                   RULE_DRAGON_BONUS.format(least=money(bonus.minimum),
                                                            most=money(bonus.maximum)))
        self.log.append(record)
        return record

    def verify_withdraw_dragon_bonus(self, position: int) -> None:
        self._require(Phase.SETTING)
        if position not in self._dragon_bonus:
            raise RoundError(f"the dragon hand at {position_name(position)} has no bonus to "
                             f"take back")
        if self._any_set():
            raise RoundError("the dragon hand's bonus is taken back before any hand is set")

    def can_withdraw_dragon_bonus(self, position: int) -> bool:
        return _can(lambda: self.verify_withdraw_dragon_bonus(position))

    def withdraw_dragon_bonus(self, position: int) -> DragonBonusWithdrawn:
        """The taker takes back the bonus on a dragon hand, while it could still be placed
        (before any hand is set), as a seat's bonus is taken back while the bets are open."""
        self.verify_withdraw_dragon_bonus(position)
        record = DragonBonusWithdrawn(self._dragons[position][0], position,
                                      self._dragon_bonus.pop(position))
        self.log.append(record)
        return record

    # --- the linked progressive wager (issue 27) ---------------------------------------------

    def verify_place_progressive(self, seat: int) -> None:
        self._require(Phase.BETTING)
        self._verify_seat(seat)
        card = self.rules.progressive
        if card is None:
            raise RoundError("this table is on no progressive")
        if seat in self._progressive:
            raise RoundError(f"{position_name(seat)} has its progressive wager: one a seat a "
                             f"round")
        if not self._has_pai_gow_wager(seat):
            raise RoundError(f"seat {seat} has no Pai Gow wager: the progressive is taken only "
                             f"beside one")

    def can_place_progressive(self, seat: int) -> bool:
        return _can(lambda: self.verify_place_progressive(seat))

    def place_progressive(self, seat: int) -> ProgressivePlaced:
        """A seat's progressive wager: the card's amount, once a round."""
        self.verify_place_progressive(seat)
        card = self.rules.progressive
        assert card is not None
        self._progressive[seat] = card.wager
        record = ProgressivePlaced(seat, card.wager, RULE_PROGRESSIVE.format(
            wager=money(card.wager)))
        self.log.append(record)
        return record

    def verify_withdraw_progressive(self, seat: int) -> None:
        self._require(Phase.BETTING)
        if seat not in self._progressive:
            raise RoundError(f"{position_name(seat)} has no progressive wager to take back")

    def withdraw_progressive(self, seat: int) -> ProgressiveWithdrawn:
        self.verify_withdraw_progressive(seat)
        record = ProgressiveWithdrawn(seat, self._progressive.pop(seat))
        self.log.append(record)
        return record

    def _progressive_result(self) -> ProgressiveResult | None:
        """The progressive wagers in the order from action, a seat's hit beside it when
        its own hand's seven cards make a hand the progressive's table pays."""
        card = self.rules.progressive
        if card is None or not self._progressive:
            return None
        assert self._deal is not None
        lines = []
        for p in self._deal.order:
            if p not in self._progressive:
                continue
            made = card.category(self._hands[p].cards, self.rules.hands.joker)
            pay = card.pay(made)
            lines.append(ProgressiveLine(p, self._progressive[p]) if pay is None else
                         ProgressiveLine(p, self._progressive[p], made.value, made.label,
                                         pay.text))
        return ProgressiveResult(card.name, card.title, tuple(lines))

    def progressive_paid(self, paid: ProgressiveResult) -> None:
        """The settled round's hits as the meter paid them (after the supervisor's sign-in:
        the ledger's answer). Only the slip changes; the ledger's hit rows are the record."""
        if self.slip is None or self.slip.progressive is None:
            raise RoundError("no progressive hit of this round waits to be paid")
        self.slip = replace(self.slip, progressive=paid)

    def _verify_progressive_beside_wagers(self) -> None:
        alone = [s for s in sorted(self._progressive) if not self._has_pai_gow_wager(s)]
        if alone:
            raise RoundError(", ".join(f"seat {s}" for s in alone) + " has a progressive "
                             "wager and no Pai Gow wager: place the Pai Gow wager or take "
                             "the progressive back")

    def _verify_bonus_beside_wagers(self) -> None:
        """Bets close with every bonus beside a Pai Gow wager, where the house requires one
        (a main wager taken back after the bonus was placed)."""
        self._verify_progressive_beside_wagers()
        bonus = self.rules.bonus
        if bonus is None or not bonus.requires_wager:
            return
        alone = [s for s in sorted(self._bonus) if not self._has_pai_gow_wager(s)]
        if alone:
            raise RoundError(", ".join(f"seat {s}" for s in alone) + " has a bonus wager and "
                             "no Pai Gow wager: place the Pai Gow wager or take the bonus "
                             "back")

    def _bonus_hands(self) -> list[BonusHand]:
        """Every played hand in order from action, as the bonus sees it."""
        assert self._deal is not None
        out = []
        for p in self._deal.order:
            hand = self._hands[p]
            seat = hand.player if hand.role is not Role.DEALER else None
            if hand.role is Role.PLAYER:
                seat = p
            wager = None
            if seat is not None and p == seat and hand.role in (Role.PLAYER, Role.BANK):
                wager = self._bonus.get(seat)
            elif hand.role is Role.DRAGON:
                wager = self._dragon_bonus.get(p)
            out.append(BonusHand(p, hand.role, hand.cards, seat, wager, hand.forfeit))
        return out

    def bonus_due(self) -> BonusSettlement | None:
        """The bonus and envy lines the cards pay, once dealt (None: no bonus wager). A
        fouled hand is one its foul forfeits; a reset hand plays, and collects."""
        bonus = self.rules.bonus
        if bonus is None or not (self._bonus or self._dragon_bonus) or self._deal is None:
            return None
        try:
            return settle_bonuses(self._bonus_hands(), bonus.pays, bonus.envy, bonus.rules,
                                  self.rules.hands.joker)
        except BonusError as e:
            raise RoundError(str(e)) from None

    def _payouts(self, due: BonusSettlement) -> tuple[BonusPayout, ...]:
        return tuple(payout(x, x.wager if isinstance(x, BonusLine) else
                            self._dragon_bonus.get(x.position) or self._bonus[x.seat])
                     for x in due.lines)

    def bonus_waiting(self) -> tuple[BonusPayout, ...]:
        """The payouts at or above the house's threshold that no supervisor approved yet."""
        if self._bonus_approved is not None or self.phase is not Phase.SETTING:
            return ()
        due = self.bonus_due()
        return tuple(x for x in self._payouts(due) if x.supervisor) if due else ()

    @property
    def bonus_held(self) -> BonusHeld | None:
        return self._bonus_held

    @property
    def bonus_approved(self) -> BonusApproved | None:
        return self._bonus_approved

    def _verify_hands_settle(self) -> None:
        self._require(Phase.SETTING)
        waiting = [p for p in self.pending()
                   if not self._set_by_dealer(self._hands[p]) and p not in self._piles]
        if waiting:
            raise RoundError("hands still to be set: " + ", ".join(
                self._label(p) for p in waiting) + ": enter the two front cards, or House Way")

    def verify_hold_bonus(self) -> None:
        self._verify_hands_settle()
        if not self.bonus_waiting():
            raise RoundError("no bonus payout waits for a supervisor")
        if self._bonus_held is not None:
            raise RoundError("the bonus payouts wait for a supervisor already")

    def hold_bonus(self) -> BonusHeld:
        """The payouts at or above the threshold wait for a supervisor (the floor is
        told): the round is settled once one approves them."""
        self.verify_hold_bonus()
        bonus = self.rules.bonus
        assert bonus is not None
        record = BonusHeld(self.bonus_waiting(),
                           RULE_BONUS_HELD.format(at=money(bonus.rules.supervisor_at)))
        self._bonus_held = record
        self.log.append(record)
        return record

    def verify_approve_bonus(self, supervisor: str) -> None:
        self._verify_hands_settle()
        if not supervisor.strip():
            raise RoundError("a bonus payout is approved by a named supervisor")
        if not self.bonus_waiting():
            raise RoundError("no bonus payout waits for a supervisor")

    def approve_bonus(self, supervisor: str) -> BonusApproved:
        """A supervisor approves the payouts that wait; the round may then be settled."""
        self.verify_approve_bonus(supervisor)
        bonus = self.rules.bonus
        assert bonus is not None
        record = BonusApproved(supervisor.strip(), self.bonus_waiting(),
                               RULE_BONUS_APPROVED.format(at=money(bonus.rules.supervisor_at)))
        self._bonus_approved = record
        self.log.append(record)
        return record

    # --- the bank --------------------------------------------------------------------------

    def offer_bank(self) -> int:
        """The position the bank is offered to now (DEALER when it has come round to the
        dealer); once a player has taken it, that player's seat."""
        if self._taken is not None:
            return self._taken.position
        for position in self.rotation.offer_order(self.table, self.rules.banking):
            if position not in self._bank_passed:
                return position
        return DEALER

    def eligibility(self, seat: int, chips: int, co_bank: bool = False) -> Eligibility:
        """May this seat bank with these chips, against the wagers on the table now."""
        self._verify_seat(seat)
        return self.rotation.eligibility(seat, chips, self._all_wagers(), self.rules.banking,
                                         self.table, co_bank)

    def verify_pass_bank(self, seat: int) -> None:
        self._require(Phase.BETTING)
        self._verify_seat(seat)
        if self._taken is not None:
            raise RoundError(f"{self._who_banks()} has the bank already")
        offered = self.offer_bank()
        if offered != seat:
            raise RoundError(f"the bank is offered to {position_name(offered)}, not seat {seat}")

    def can_pass_bank(self, seat: int) -> bool:
        return _can(lambda: self.verify_pass_bank(seat))

    def pass_bank(self, seat: int) -> BankPassed:
        """The seat offered the bank passes; the offer moves on."""
        self.verify_pass_bank(seat)
        self._bank_passed.append(seat)
        record = BankPassed(seat)
        self.log.append(record)
        return record

    def _who_banks(self) -> str:
        return "the dealer" if self.banker == DEALER else f"seat {self.banker}"

    def verify_take_bank(self, seat: int, chips: int, co_bank: bool = False) -> None:
        self._require(Phase.BETTING)
        self._verify_seat(seat)
        if self._taken is not None:
            raise RoundError(f"{self._who_banks()} has the bank already")
        verdict = self.eligibility(seat, chips, co_bank)
        if not verdict.eligible:
            raise BankError(str(verdict))
        offered = self.offer_bank()
        if offered != seat:
            whom = ("it has come round to the dealer" if offered == DEALER
                    else f"it is offered to seat {offered}, who accepts or passes first")
            raise BankError(f"the bank is not seat {seat}'s to take: {whom}")
        if seat in self._wagers:
            raise BankError(f"seat {seat} has a wager against the bank: take it back "
                            f"({money(self._wagers[seat])}) before banking")

    def can_take_bank(self, seat: int, chips: int, co_bank: bool = False) -> bool:
        return _can(lambda: self.verify_take_bank(seat, chips, co_bank))

    def take_bank(self, seat: int, chips: int, co_bank: bool = False) -> BankTaken:
        """The seat offered the bank accepts it, putting up `chips` (cents) as the bank."""
        self.verify_take_bank(seat, chips, co_bank)
        verdict = self.eligibility(seat, chips, co_bank)
        rules = self.rules.banking
        if co_bank:
            dealer_wager = 0
        elif rules.dealer_wager is DealerWager.LAST_BET:
            dealer_wager = self.rotation.house_bet(seat) or self.rules.limits.minimum
        else:
            dealer_wager = self.rules.limits.minimum
        record = BankTaken(seat, seat, chips, co_bank, dealer_wager, verdict,
                           RULE_PLAYER_BANK + ("; the house co-banks half" if co_bank else ""))
        self._taken = record
        self.log.append(record)
        return record

    # --- action ----------------------------------------------------------------------------

    def verify_set_action(self, action: Action) -> None:
        self._require(Phase.BETTING, Phase.MISDEAL)
        if not self._wagers:
            raise RoundError("there are no wagers on the table: place a wager before action")
        self._verify_bonus_beside_wagers()
        source = self.table.action_source
        if action.source is not source:
            raise RoundError(f"this table takes the action from {_ACTION_WORDS[source]} "
                             f"only, not from {_ACTION_WORDS[action.source]}")

    def can_set_action(self, action: Action) -> bool:
        return _can(lambda: self.verify_set_action(action))

    def set_action(self, action: Action) -> ActionCounted:
        """Close the bets (the dealer banks unless a player took the bank) and count action
        from the bank's position."""
        self.verify_set_action(action)
        if self._taken is None:
            if self.rotation.first_round:
                why = RULE_DEALER_FIRST
            elif not self.rules.banking.enabled:
                why = RULE_NO_BANKING
            else:
                why = RULE_DEALER_TURN
            self._taken = BankTaken(DEALER, None, None, False, 0, None, why)
            self.log.append(self._taken)
        bank = self.banker
        position = self.table.count(action.number, bank)
        direction = self.table.direction
        record = ActionCounted(action, bank, position, direction,
                               RULE_ACTION.format(direction=direction.value))
        self._action = record
        self._deal = None
        self.phase = Phase.DEALING
        self.log.append(record)
        return record

    # --- the deal --------------------------------------------------------------------------

    def _verify_deal(self, mode: DealMode | None) -> int:
        self._require(Phase.DEALING)
        assert self._action is not None
        configured = self.table.deal_mode
        if mode is not None and mode is not configured:
            raise RoundError(f"this table's deal is read {_DEAL_WORDS[configured]}, not "
                             f"{_DEAL_WORDS[mode]}; or enter the hands by position")
        return self._action.position

    def deal_stacks(self, stacks: Sequence[Sequence[Card]],
                    leftovers: Sequence[Card] | None = None) -> Dealt:
        """Seven 7-card stacks in the order dealt, the first to action; then the 4 left."""
        action = self._verify_deal(DealMode.STACKS)
        return self._dealt(lambda: deal_stacks(self.table, action, stacks, leftovers))

    def deal_one_at_a_time(self, cards: Sequence[Card]) -> Dealt:
        """The cards as they came out of the shoe, one at a time round from action."""
        action = self._verify_deal(DealMode.ONE_AT_A_TIME)
        return self._dealt(lambda: deal_one_at_a_time(self.table, action, cards))

    def deal_by_position(self, hands: Mapping[int, Sequence[Card]],
                         leftovers: Sequence[Card] | None = None) -> Dealt:
        """Each position's seven cards, entered by position."""
        action = self._verify_deal(None)
        return self._dealt(lambda: deal_by_position(self.table, action, hands, leftovers))

    def can_deal(self) -> bool:
        return self.phase is Phase.DEALING

    def _dealt(self, make: Callable[[], Deal]) -> Dealt:
        try:
            deal = make()
        except Misdeal as misdeal:
            self.phase = Phase.MISDEAL
            self.log.append(Misdealt(misdeal.problems, RULE_MISDEAL))
            raise
        self._deal = deal
        self._hands = {p: self._unset(p, deal.hand(p)) for p in deal.order}
        self.phase = Phase.SETTING
        record = Dealt(deal, RULE_DEAL.format(direction=self.table.direction.value))
        self.log.append(record)
        return record

    def _unset(self, position: int, cards: tuple[Card, ...]) -> Hand:
        bank = self.bank
        if position == self.banker:
            return Hand(position, Role.BANK, cards, bank.player)
        if position == DEALER:
            if bank.co_bank:
                return Hand(position, Role.MUCKED, cards)
            return Hand(position, Role.DEALER, cards, None, bank.dealer_wager)
        if position in self._wagers:
            return Hand(position, Role.PLAYER, cards, position, self._wagers[position])
        return Hand(position, Role.MUCKED, cards)

    # --- dragon hands ----------------------------------------------------------------------

    def _unused(self) -> tuple[int, ...]:
        assert self._deal is not None
        return tuple(p for p in self._deal.order
                     if p != DEALER and self._hands[p].role is Role.MUCKED)

    def dragon_hands(self) -> tuple[int, ...]:
        """Unused hands that may still be played as dragons, in order from action."""
        if (not self.rules.dragon.enabled or self._deal is None
                or len(self._dragons) >= self.rules.dragon.per_round):
            return ()
        return self._unused()

    def dragons_of(self, seat: int) -> int:
        """How many dragon hands the seat has taken this round."""
        return sum(1 for s, _ in self._dragons.values() if s == seat)

    def dragon_order(self) -> tuple[int, ...]:
        """The seated players the dragon is offered to, in turn (those still under the
        table's dragon hands per player)."""
        if self._deal is None:
            return ()
        most = self.rules.dragon.max_per_player
        start = self._deal.action
        last = self.rotation.last_dragon
        if self.rules.dragon.offer is DragonOffer.AFTER_LAST_TAKER and last is not None:
            start = self.table.step(last)
        return tuple(p for p in self.table.around(start)
                     if p in self._wagers and p != self.banker and self.dragons_of(p) < most
                     and self._dragon_covered(p))

    def dragon_most(self, seat: int) -> int:
        """The most the seat's dragon may wager: its main wager, and no more than a player
        bank still covers."""
        main = self._wagers.get(seat, 0)
        left = self.bank_covers_more()
        return main if left is None else min(main, left)

    def bank_covers_more(self) -> int | None:
        """What a player bank covers beyond the wagers against it now (None: the house
        banks, no limit)."""
        t = self._taken
        if t is None or t.player is None or t.chips is None:
            return None
        covers = t.chips * (2 if t.co_bank else 1)
        return max(covers - sum(self._all_wagers().values()), 0)

    def _dragon_covered(self, seat: int) -> bool:
        """The bank covers the least dragon wager this table takes from the seat."""
        least = (self._wagers.get(seat, 0) if self.rules.dragon.wager is DragonWager.EQUAL
                 else self.rules.limits.minimum)
        return self.dragon_most(seat) >= least

    def offer_dragon(self) -> int | None:
        """The seat the dragon hand is offered to now, or None if there is none to offer.
        Each seat is asked in turn; a seat that took one is asked again only after every
        other seat with fewer has been asked (a pass ends a seat's offers)."""
        if self.phase is not Phase.SETTING or not self.dragon_hands() or self._any_set():
            return None
        asked = [p for p in self.dragon_order() if p not in self._dragon_passed]
        if not asked:
            return None
        fewest = min(self.dragons_of(p) for p in asked)
        return next(p for p in asked if self.dragons_of(p) == fewest)

    def _any_set(self) -> bool:
        return bool(self._piles) or any(h.setting is not None for h in self._hands.values())

    def _verify_dragon_turn(self, seat: int) -> None:
        self._require(Phase.SETTING)
        self._verify_seat(seat)
        if not self.rules.dragon.enabled:
            raise RoundError("this table plays no dragon hands")
        if self._any_set():
            raise RoundError("the dragon hand is offered before any hand is set")
        if seat == self.banker:
            raise RoundError(f"seat {seat} is the banker: a player banker may not take a "
                             f"dragon hand")
        if seat not in self._wagers:
            raise RoundError(f"seat {seat} has no wager: the dragon is offered to seated "
                             f"players")
        self._verify_dragon_limits(seat)

    def _verify_dragon_limits(self, seat: int) -> None:
        """The table's limits first, each in its own words; then whether a hand is left."""
        rules, have = self.rules.dragon, self.dragons_of(seat)
        if have >= rules.max_per_player:
            raise RoundError(f"seat {seat} has {_dragons(have)} already: this table plays at "
                             f"most {_dragons(rules.max_per_player)} per player")
        if len(self._dragons) >= rules.per_round:
            raise RoundError(f"this table plays at most {_dragons(rules.per_round)} a round, "
                             f"and {'it is' if rules.per_round == 1 else 'they are'} taken")
        if not self._unused():
            raise RoundError("every hand is in play: there is no unused hand left to play as "
                             "a dragon")
        offered = self.offer_dragon()
        if offered != seat:
            whom = f"seat {offered}" if offered is not None else "no one"
            raise RoundError(f"the dragon is offered to {whom} now, not seat {seat}")

    def verify_pass_dragon(self, seat: int) -> None:
        self._verify_dragon_turn(seat)

    def pass_dragon(self, seat: int) -> DragonPassed:
        self.verify_pass_dragon(seat)
        self._dragon_passed.append(seat)
        record = DragonPassed(seat)
        self.log.append(record)
        return record

    def verify_take_dragon(self, seat: int, wager: int, position: int | None = None) -> None:
        self._verify_dragon_turn(seat)
        if position is not None and position not in self.dragon_hands():
            free = ", ".join(position_name(p) for p in self.dragon_hands())
            raise RoundError(f"{position_name(position)}'s hand is not an unused hand: the "
                             f"dragon may be {free}")
        main = self._wagers[seat]
        if self.rules.dragon.wager is DragonWager.EQUAL and wager != main:
            raise RoundError(f"the dragon's wager equals the main wager here: {money(main)}, "
                             f"not {money(wager)}")
        if wager > main:
            raise RoundError(f"the dragon's wager is at most seat {seat}'s main wager of "
                             f"{money(main)}, not {money(wager)}")
        if wager < self.rules.limits.minimum:
            raise RoundError(f"{money(wager)} is under the table minimum of "
                             f"{money(self.rules.limits.minimum)}")
        self._verify_cover(seat, wager)

    def can_take_dragon(self, seat: int, wager: int, position: int | None = None) -> bool:
        return _can(lambda: self.verify_take_dragon(seat, wager, position))

    def take_dragon(self, seat: int, wager: int, position: int | None = None) -> DragonTaken:
        """The seat offered the dragon takes it (the first unused hand from action unless a
        position is named) with `wager` cents on it."""
        self.verify_take_dragon(seat, wager, position)
        where = position if position is not None else self.dragon_hands()[0]
        self._dragons[where] = (seat, wager)
        old = self._hands[where]
        self._hands[where] = Hand(where, Role.DRAGON, old.cards, seat, wager)
        record = DragonTaken(seat, where, wager,
                             RULE_DRAGON.format(most=_dragons(self.rules.dragon.max_per_player)))
        self.log.append(record)
        return record

    # --- the hands -------------------------------------------------------------------------

    def _opened_by_dealer(self, hand: Hand) -> bool:
        """The dealer's own hands, opened after every other hand is set (seeds 003, 004)."""
        return hand.role is Role.DEALER or (hand.role is Role.BANK and hand.player is None)

    def _players_choice(self, hand: Hand) -> bool:
        """A hand its player sets, or asks the dealer to set the House Way."""
        return hand.role is Role.PLAYER or (
            hand.role is Role.DRAGON and self.rules.dragon.setting is DragonSetting.PLAYER)

    def _waits_for_bank(self, hand: Hand) -> bool:
        """A player's House Way hand at a table that sets it after the bank (seed 004), while
        the bank's hand is not yet set."""
        return (self.rules.asked_house_way is AskedHouseWay.AFTER_BANK
                and self._players_choice(hand) and self._hands[self.banker].setting is None)

    def pending(self) -> tuple[int, ...]:
        """Positions whose hands still wait to be set, in order from action."""
        if self._deal is None:
            return ()
        return tuple(p for p in self._deal.order
                     if self._hands[p].role is not Role.MUCKED and self._hands[p].setting is None)

    def piles(self) -> tuple[int, ...]:
        """Hands whose players asked for the House Way, their seven cards in one pile until
        the dealer sets them after the bank, in order from action."""
        return tuple(p for p in self.pending() if p in self._piles)

    def _verify_unset(self, position: int) -> Hand:
        self._require(Phase.SETTING)
        self.table.verify_position(position)
        hand = self._hands[position]
        name = position_name(position)
        if hand.role is Role.MUCKED:
            raise RoundError(f"{name}'s hand is unused: it is mucked")
        if hand.setting is not None:
            raise RoundError(f"{name}'s hand is set already: once set it is not touched again")
        return hand

    def verify_set_hand(self, position: int, front: Sequence[Card] | None = None) -> None:
        hand = self._verify_unset(position)
        name = position_name(position)
        if (front is not None and hand.role is Role.DRAGON
                and self.rules.dragon.setting is DragonSetting.HOUSE_WAY):
            raise RoundError("the dragon hand is set by the House Way at this table, not "
                             "by a player")
        if front is not None and position in self._piles:
            raise RoundError(f"{name} asked for the House Way: the seven cards are in one pile "
                             f"for the dealer to set after the bank")
        if front is None and self._waits_for_bank(hand):
            pile = ("its seven cards wait in one pile" if position in self._piles else
                    "leave its seven cards in one pile (the player asks for the House Way)")
            raise RoundError(f"at this table a hand played House Way is set after the bank "
                             f"hand is opened and set: {pile} until then")
        if self._opened_by_dealer(hand):
            waiting = [p for p in self.pending() if p != position and p not in self._piles
                       and not self._opened_by_dealer(self._hands[p])]
            if waiting:
                raise RoundError(
                    "the dealer's hand is opened after every other hand is set: waiting for "
                    + ", ".join(position_name(p) for p in waiting))
        if front is not None:
            if len(set(front)) != len(front):
                raise RoundError(f"a card is named twice in front: {cards_text(front)}")
            strays = [c for c in front if c not in hand.cards]
            if strays:
                raise RoundError(f"{cards_text(strays)} not dealt to {name}: the front is "
                                 f"two of {cards_text(hand.cards)}")

    def can_set_hand(self, position: int, front: Sequence[Card] | None = None) -> bool:
        return _can(lambda: self.verify_set_hand(position, front))

    def set_hand(self, position: int,
                 front: Sequence[Card] | None = None) -> HandSet | HandReturned:
        """Set a position's hand: `front` names the cards put in the two-card hand; None sets
        it the House Way. A foul is caught here with its reason: a player's forfeits, is
        reset, or goes back to the player to set again (`HandReturned`, nothing set), by the
        table's rule; a banker's or the dealer's is always reset."""
        self.verify_set_hand(position, front)
        hand = self._hands[position]
        if front is None:
            after_bank = (self.rules.asked_house_way is AskedHouseWay.AFTER_BANK
                          and self._players_choice(hand))
            new, rule = self._house_way(hand, SetBy.AFTER_BANK if after_bank
                                        else SetBy.HOUSE_WAY, None)
            if after_bank:
                rule = f"{RULE_AFTER_BANK}; {rule}"
        else:
            setting = Setting.from_front(hand.cards, front)
            reason = foul_reason(setting, hand.cards, self.rules.hands)
            if reason is None:
                new = replace(hand, setting=setting, set_by=SetBy.PLAYER)
                rule = RULE_OWN_SETTING
            elif hand.role in (Role.BANK, Role.DEALER):
                new, rule = self._house_way(hand, SetBy.RESET, reason)
                rule = f"{RULE_BANK_RESET}; {rule}"
            elif self.rules.foul_penalty is FoulPenalty.RESPLIT:
                returned = HandReturned(
                    replace(hand, setting=setting, set_by=SetBy.PLAYER, foul=reason),
                    f"{RULE_FOUL_RESPLIT}: {reason}")
                self.log.append(returned)
                return returned
            elif self.rules.foul_penalty is FoulPenalty.HOUSE_WAY:
                new, rule = self._house_way(hand, SetBy.RESET, reason)
                rule = f"{RULE_FOUL_RESET}; {rule}"
            else:
                new = replace(hand, setting=setting, set_by=SetBy.PLAYER, foul=reason,
                            forfeit=True)
                rule = f"{RULE_FOUL_FORFEIT}: {reason}"
        self._hands[position] = new
        record = HandSet(new, rule)
        self.log.append(record)
        return record

    def house_way(self, position: int) -> HandSet:
        """Set a position's hand the House Way (the player asked, or it is the dealer's)."""
        record = self.set_hand(position, None)
        assert isinstance(record, HandSet)  # a House Way setting is never a foul
        return record

    def _house_way(self, hand: Hand, how: SetBy, foul: str | None) -> tuple[Hand, str]:
        way = house_way_setting(self.rules.house_way, hand.cards, self.rules.hands)
        new = replace(hand, setting=way.setting, set_by=how, rule=way.rule.id,
                    rule_says=way.rule.says, foul=foul)
        return new, RULE_HOUSE_WAY.format(way=way.way, rule=way.rule.id, says=way.rule.says)

    # --- the House Way asked for, or shown --------------------------------------------------

    def verify_ask_house_way(self, position: int) -> None:
        hand = self._verify_unset(position)
        name = position_name(position)
        if self.rules.asked_house_way is AskedHouseWay.AT_ONCE:
            raise RoundError("at this table the dealer sets a hand played House Way at once, "
                             "not after the bank: set it the House Way now")
        if not self._players_choice(hand):
            raise RoundError(f"{self._label(position)} is not a player's hand to leave in one "
                             f"pile: only a player asks for the House Way after the bank")
        if position in self._piles:
            raise RoundError(f"{name} asked for the House Way already: its seven cards wait in "
                             f"one pile")

    def can_ask_house_way(self, position: int) -> bool:
        return _can(lambda: self.verify_ask_house_way(position))

    def ask_house_way(self, position: int) -> HouseWayAsked:
        """The player asks the dealer to set the hand the House Way after the bank (seed 004):
        the seven cards stay in one pile; the round refuses to set it before the bank's hand
        is set, and settling sets it right after the bank's."""
        self.verify_ask_house_way(position)
        self._piles.add(position)
        record = HouseWayAsked(position, RULE_ASKED_HOUSE_WAY)
        self.log.append(record)
        return record

    def verify_show_house_way(self, position: int) -> None:
        hand = self._verify_unset(position)
        if self._opened_by_dealer(hand):
            raise RoundError("the dealer's hand is opened after every other hand is set: the "
                             "house shows a player's hand, not its own")
        if not (self._players_choice(hand) or hand.role is Role.BANK):
            raise RoundError(f"{self._label(position)} is set the House Way by the dealer: "
                             f"there is nothing to decide")
        if position in self._piles:
            raise RoundError(f"{position_name(position)} asked for the House Way: the dealer "
                             f"sets it after the bank")

    def can_show_house_way(self, position: int) -> bool:
        return _can(lambda: self.verify_show_house_way(position))

    def show_house_way(self, position: int) -> HouseWayShown:
        """The player asks the house for help (seed 001): how the House Way would set the
        hand, and the rule that fires. Nothing is set; the player may set it another way."""
        self.verify_show_house_way(position)
        way = house_way_setting(self.rules.house_way, self._hands[position].cards,
                                self.rules.hands)
        record = HouseWayShown(position, way.setting, way.way, way.rule.id, way.rule.says,
                               RULE_HELP)
        self.log.append(record)
        return record

    # --- settlement ------------------------------------------------------------------------

    def verify_settle(self) -> None:
        self._verify_hands_settle()
        waiting = self.bonus_waiting()
        if waiting:
            lines = "; ".join(x.text for x in waiting)
            raise RoundError(f"{lines}: a supervisor approves "
                             f"{'this payout' if len(waiting) == 1 else 'these payouts'} "
                             f"before the round is settled and the slip printed")

    def _label(self, position: int) -> str:
        hand = self._hands[position]
        if hand.role is Role.BANK:
            return f"{position_name(position)} (the banker)"
        if hand.role is Role.DRAGON:
            return f"{position_name(position)} (the dragon of seat {hand.player})"
        return position_name(position)

    def _set_by_dealer(self, hand: Hand) -> bool:
        """Hands the dealer sets the House Way without anyone's choice."""
        return self._opened_by_dealer(hand) or (
            hand.role is Role.DRAGON and self.rules.dragon.setting is DragonSetting.HOUSE_WAY)

    def can_settle(self) -> bool:
        return _can(self.verify_settle)

    def settle(self) -> Slip:
        """Set the dealer's hands the House Way, compare every hand with the bank's, and pay
        in order from action. Returns the slip."""
        self.verify_settle()
        # The House Way dragons first, then the dealer's own hands (the bank opened), then
        # the hands left in one pile, after the bank.
        for p in self.pending():
            if not self._opened_by_dealer(self._hands[p]) and p not in self._piles:
                self.house_way(p)
        for p in self.pending():
            if p not in self._piles:
                self.house_way(p)
        for p in self.pending():
            self.house_way(p)
        assert self._deal is not None and self._action is not None
        slip = settle(
            table=self.table.name, round_no=self.rotation.round_no,
            action=self._action.action, direction=self.table.direction,
            order=self._deal.order, hands=self._hands, bank=self.bank,
            commission=self.rules.commission, rules=self.rules.hands,
            leftovers=self._deal.leftovers, leftovers_counted=self._deal.leftovers_counted,
            rule_summary=self.rules.summary() + self._bonus_summary())
        due = self.bonus_due()
        if due is not None:
            approved = self._bonus_approved.supervisor if self._bonus_approved else None
            slip = replace(slip, bonus=BonusResult(self._payouts(due), due.pay_card,
                                                   due.envy_card, self._bonus_total(),
                                                   approved))
        progressive = self._progressive_result()
        if progressive is not None:
            slip = replace(slip, progressive=progressive)
        self.slip = slip
        self.phase = Phase.SETTLED
        self.log.append(Settled(slip))
        return slip

    def _bonus_total(self) -> int:
        return sum(self._bonus.values()) + sum(self._dragon_bonus.values())

    def _bonus_summary(self) -> tuple[tuple[str, str], ...]:
        """The bonus among the slip's rules when a seat bet it (a slip without one reads as
        before the bonus existed)."""
        if self.rules.bonus is None or not (self._bonus or self._dragon_bonus):
            return ()
        return (("bonus", self.rules.bonus.summary()),)

    def next_rotation(self) -> BankRotation:
        """What the table remembers for the next round (a misdeal moves nothing on)."""
        if self.phase is not Phase.SETTLED:
            return self.rotation
        taken = [seat for seat, _ in self._dragons.values()]
        return self.rotation.after(self.table, banker=self.bank.player,
                                   main_wagers=self._wagers, dragon_takers=taken)

