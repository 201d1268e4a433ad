"""The dealer's controller: every button, key and card read goes through here to the core.

The controller holds no rule of the game. It keeps the round (`app.core.round.Round`), asks
it what may be done (`verify_x` / `can_x`) for every button and tooltip, makes the change,
and words the result for the dealer. Errors a dealer can cause (a bad card, a wager under
the minimum, a foul) come back as the core's own sentences, shown on screen; nothing a
dealer does ends in a traceback.

A preview of a front the dealer has picked (is it a foul? what is the penalty?) is the
round's own answer: the round's changes so far are replayed on a shadow round and the set is
tried there.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.core.banker import BankRotation
from app.core.cards import Card, CardError, cards_text, parse_cards
from app.core.house_way import HouseWayError
from app.core.round import HandSet, Phase, Round, RoundRules
from app.core.settlement import MoneyError, Slip, money, parse_money
from app.core.table import (
    CARDS_PER_HAND,
    DEALER,
    HANDS,
    LEFTOVERS,
    Action,
    ActionSource,
    DealMode,
    Misdeal,
    Table,
    TableError,
    position_name,
)
from drivers.action import ActionError, parse_dice

from . import present
from .present import Device, ScreenState
from .shoe import ShoeFeed

DEALT = HANDS * CARDS_PER_HAND  # 49
DECK_SIZE = DEALT + LEFTOVERS  # 53
DEALER_ERRORS = (TableError, CardError, MoneyError, ActionError, HouseWayError)

ACTIONS = ("new", "wager", "withdraw", "rng", "dice", "cards", "house_way", "front", "settle",
           "print", "shoe")


def dealt_to(table: Table, action: int, index: int) -> int | None:
    """The position the `index`-th card read (0-based) goes to, or None for a leftover.

    Stacks: seven cards to action, seven to the next...; one at a time: one card to each
    position round the table from action (table.py's deal functions, card by card, so that a
    card can be shown the moment it is read).
    """
    if index >= DEALT:
        return None
    order = table.around(action)
    if table.deal_mode is DealMode.STACKS:
        return order[index // CARDS_PER_HAND]
    return order[index % HANDS]


class DealerController(QObject):
    changed = Signal()

    def __init__(self, rules: RoundRules | None = None, shoe: ShoeFeed | None = None, *,
                 rotation: BankRotation | None = None,
                 randbelow: Callable[[int], int] = secrets.randbelow,
                 hide_bank: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rules = rules or RoundRules()
        self.shoe = shoe or ShoeFeed()
        self.randbelow = randbelow
        self.hide_bank = hide_bank
        self.rotation = rotation or BankRotation()
        self.round: Round | None = None
        self._opened_with = self.rotation
        self._journal: list[tuple[str, tuple[Any, ...]]] = []
        self._logged = 0
        self.selected: int | None = None
        self.picks: list[Card] = []
        self.preview: HandSet | None = None
        self.preview_error: str | None = None
        self.stream: list[Card] = []
        self.manual: dict[int, list[Card]] = {}
        self.leftovers: tuple[Card, ...] | None = None
        self.message = "Press N to open a round."
        self.level = "info"
        self.log: list[str] = []
        self.fields: dict[str, str] = {}
        self.shoe.card_read.connect(self.on_card)
        self.shoe.leftovers_read.connect(self.on_leftovers)
        self.shoe.status_changed.connect(self.on_shoe_status)
        self.shoe.fault.connect(self.on_shoe_fault)

    # --- plumbing ----------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.rules.table

    def _say(self, text: str, level: str = "info") -> None:
        self.message, self.level = text, level

    def _done(self) -> None:
        if self.round is not None:
            for record in self.round.log[self._logged:]:
                self.log.append(present.record_text(record))
            self._logged = len(self.round.log)
        self.changed.emit()

    def _run(self, step: Callable[[], None]) -> bool:
        """Run a dealer's step; a mistake the dealer can make is shown, never raised."""
        try:
            step()
        except DEALER_ERRORS as e:
            self._say(str(e), "error")
            self._done()
            return False
        self._done()
        return True

    def _do(self, method: str, *args: Any) -> Any:
        """Change the round, remembering the change so that a shadow round can replay it."""
        assert self.round is not None
        try:
            result = getattr(self.round, method)(*args)
        except Misdeal:
            self._journal.append((method, args))
            raise
        self._journal.append((method, args))
        return result

    def _dry(self, method: str, *args: Any) -> Any:
        """What the round would answer to a change, without making it."""
        shadow = Round(self.rules, self._opened_with)
        for m, a in self._journal:
            try:
                getattr(shadow, m)(*a)
            except Misdeal:
                pass
        return getattr(shadow, method)(*args)

    def _need_round(self) -> Round:
        if self.round is None:
            raise TableError("no round is open: press N to open one")
        return self.round

    def _need_position(self, what: str = "seat") -> int:
        if self.selected is None:
            raise TableError(f"select a {what} first: keys 1-6 for the seats, 7 for the dealer")
        return self.selected

    # --- what may be done, and why not ---------------------------------------------------

    def why_not(self, action: str) -> str | None:
        try:
            self._verify(action)
        except DEALER_ERRORS as e:
            return str(e)
        return None

    def availability(self) -> dict[str, str | None]:
        return {a: self.why_not(a) for a in ACTIONS}

    def _verify(self, action: str) -> None:
        rnd = self.round
        if action == "new":
            if rnd is not None and rnd.phase is not Phase.SETTLED:
                raise TableError(f"round {rnd.rotation.round_no} is {rnd.phase.value}: settle "
                                 f"it (S) before opening the next")
            return
        if action == "shoe":
            if not self.shoe.demo:
                raise TableError("the shoe goes offline by itself when unplugged; this switch "
                                 "is for the demo shoe")
            return
        rnd = self._need_round()
        match action:
            case "wager":
                seat = self._need_position()
                rnd.verify_place_wager(seat, rnd.wagers.get(seat, rnd.rules.limits.minimum))
            case "withdraw":
                rnd.verify_withdraw_wager(self._need_position())
            case "rng":
                rnd.verify_set_action(Action.from_rng(1))
            case "dice":
                rnd.verify_set_action(Action.from_dice(1, 1, 1))
            case "cards":
                if rnd.phase is not Phase.DEALING:
                    raise TableError(f"cards are entered while the round is dealing, after "
                                     f"action; it is {rnd.phase.value}")
                if self.shoe.online:
                    raise TableError("the shoe is online and reads the cards: enter cards by "
                                     "hand only when it is offline")
                position = self._need_position("position")
                if len(self.dealing().get(position, ())) >= CARDS_PER_HAND:
                    raise TableError(f"{position_name(position)} has its seven cards: select "
                                     f"a position still short of cards")
            case "house_way":
                rnd.verify_set_hand(self._need_position("position"))
            case "front":
                position = self._need_position("position")
                hand = rnd.hands.get(position)
                rnd.verify_set_hand(position, hand.cards[:2] if hand else None)
            case "settle":
                rnd.verify_settle()
            case "print":
                if rnd.slip is None:
                    raise TableError("there is no slip yet: settle the round first (S)")
                raise TableError("no slip printer is connected to this station yet: read the "
                                 "slip on screen")

    def explain(self, action: str) -> None:
        """The dealer pressed the key of something not allowed now: say why."""
        reason = self.why_not(action)
        if reason is not None:
            self._say(reason, "warn")
        self._done()

    # --- the dealer's steps ----------------------------------------------------------------

    def new_round(self) -> bool:
        def step() -> None:
            self._verify("new")
            rotation = self.round.next_rotation() if self.round is not None else self.rotation
            self.round = Round(self.rules, rotation)
            self._opened_with = rotation
            self._journal, self._logged = [], 0
            self._clear_deal()
            self.log.append(f"--- round {rotation.round_no} opened ---")
            self.select(1, quiet=True)
            self._say(f"Round {rotation.round_no} is open: select a seat (1-6), press W, type "
                      f"the wager and Enter.", "ok")
        return self._run(step)

    def select(self, position: int, quiet: bool = False) -> bool:
        def step() -> None:
            self.table.verify_position(position)
            if position != self.selected:
                self.picks, self.preview, self.preview_error = [], None, None
                self.fields["front"] = ""
            self.selected = position
        if quiet:
            step()
            return True
        return self._run(step)

    def select_step(self, by: int) -> bool:
        start = self.selected if self.selected is not None else DEALER
        return self.select(self.table.step(start, by))

    def place_wager(self, text: str) -> bool:
        def step() -> None:
            rnd = self._need_round()
            seat = self._need_position()
            if not text.strip():
                raise MoneyError("type the wager in dollars (e.g. 25 or 25.50), then Enter")
            cents = parse_money(text)
            self._do("place_wager", seat, cents)
            nxt = self.table.step(seat)
            self.select(nxt if nxt != DEALER else self.table.step(nxt), quiet=True)
            self._say(f"{present.name(seat)} wagers {money(cents)}. Next seat selected; "
                      f"action with {self._action_key(rnd)} when the wagers are in.", "ok")
        return self._run(step)

    def _action_key(self, rnd: Round) -> str:
        return "R (RNG)" if rnd.table.action_source is ActionSource.RNG else "D (dice)"

    def withdraw_wager(self) -> bool:
        def step() -> None:
            self._need_round()
            seat = self._need_position()
            record = self._do("withdraw_wager", seat)
            self._say(f"{present.name(seat)} takes back {money(record.wager)}.", "ok")
        return self._run(step)

    def rng_action(self) -> bool:
        def step() -> None:
            self._need_round()
            self._action(Action.draw(self.randbelow))
        return self._run(step)

    def dice_action(self, text: str) -> bool:
        def step() -> None:
            self._need_round()
            rnd = self._need_round()
            rnd.verify_set_action(Action.from_dice(1, 1, 1))
            self._action(Action.from_dice(*parse_dice(text)))
        return self._run(step)

    def _action(self, action: Action) -> None:
        record = self._do("set_action", action)
        self.manual = {}
        self.select(record.position, quiet=True)
        where = position_name(record.position)
        if self.shoe.online:
            self._say(f"Action: {action} -> {where}. Deal: the cards appear as the shoe reads "
                      f"them.", "ok")
            self.shoe.start_deal()
        else:
            self._say(f"Action: {action} -> {where}. The shoe is offline: press C and type "
                      f"{where}'s seven cards, then each next position.", "warn")
        self._try_finish()

    def enter_cards(self, text: str) -> bool:
        def step() -> None:
            self._verify("cards")
            position = self._need_position("position")
            cards = parse_cards(text)
            if not cards:
                raise CardError("type the cards, e.g. AS KD 10H 7C 7D 2S JK, then Enter")
            have = self.dealing()
            for c in cards:
                for p, held in have.items():
                    if c in held:
                        raise CardError(f"{c} is already dealt to {position_name(p)}: each "
                                        f"card is in the deck once; check the card and type "
                                        f"it again")
            mine = have.get(position, [])
            if len(mine) + len(cards) > CARDS_PER_HAND:
                raise CardError(f"{position_name(position)} has {len(mine)} card(s) and a "
                                f"hand is {CARDS_PER_HAND}: {cards_text(cards)} is "
                                f"{len(cards)} too many by {len(mine) + len(cards) - 7}")
            self.manual.setdefault(position, []).extend(cards)
            self._say(f"{present.name(position)}: {cards_text(cards)}", "ok")
            if len(mine) + len(cards) == CARDS_PER_HAND:
                self._select_next_short(position)
            self._try_finish()
        return self._run(step)

    def _select_next_short(self, after: int) -> None:
        have = self.dealing()
        for p in self.table.around(self.table.step(after)):
            if len(have.get(p, ())) < CARDS_PER_HAND:
                self.select(p, quiet=True)
                return

    def house_way(self) -> bool:
        def step() -> None:
            self._need_round()
            position = self._need_position("position")
            record = self._do("house_way", position)
            hand = record.hand
            self._say(f"{present.name(position)} set the House Way, rule {hand.rule}: "
                      f"{hand.rule_says}", "ok")
            self._after_set()
        return self._run(step)

    def pick_card(self, position: int, card: Card) -> bool:
        def step() -> None:
            rnd = self._need_round()
            if rnd.phase is not Phase.SETTING:
                raise TableError(f"cards are picked for the front while hands are set; the "
                                 f"round is {rnd.phase.value}")
            if position != self.selected:
                self.select(position, quiet=True)
            rnd.verify_set_hand(position, [card])
            if card in self.picks:
                self.picks.remove(card)
            else:
                self.picks.append(card)
                if len(self.picks) > 2:
                    self.picks.pop(0)
            self.fields["front"] = cards_text(self.picks)
            self._update_preview(position)
        return self._run(step)

    def type_front(self, text: str) -> None:
        """The front field changed: pick the cards it names (and preview them)."""
        self.fields["front"] = text
        if self.round is None or self.selected is None or self.round.phase is not Phase.SETTING:
            return
        try:
            cards = list(parse_cards(text))
        except CardError as e:
            self.picks, self.preview, self.preview_error = [], None, str(e)
        else:
            self.picks = cards[:2]
            self._update_preview(self.selected)
        self._done()

    def _update_preview(self, position: int) -> None:
        self.preview, self.preview_error = None, None
        if len(self.picks) != 2:
            return
        try:
            self.preview = self._dry("set_hand", position, list(self.picks))
        except DEALER_ERRORS as e:
            self.preview_error = str(e)
        if self.preview is not None and self.preview.hand.foul:
            self._say(f"{present.name(position)}: if set, " + present.foul_words(
                self.preview.hand), "warn")
        elif self.preview is not None:
            self._say(f"{present.name(position)}: {cards_text(self.picks)} in front is legal; "
                      f"press F to set it.", "info")

    def set_front(self, text: str | None = None) -> bool:
        def step() -> None:
            self._need_round()
            position = self._need_position("position")
            if text is not None and text.strip():
                front = list(parse_cards(text, count=2))
            else:
                front = list(self.picks)
            if len(front) != 2:
                raise CardError("click the two cards the player put in front (or press F and "
                                "type them, e.g. KS 9H), then F")
            record = self._do("set_hand", position, front)
            hand = record.hand
            if hand.foul:
                self._say(f"{present.name(position)}: {present.foul_words(hand)}", "error")
            else:
                self._say(f"{present.name(position)}: {cards_text(hand.setting.low)} in front, "
                          f"{cards_text(hand.setting.high)} behind.", "ok")
            self._after_set()
        return self._run(step)

    def _after_set(self) -> None:
        self.picks, self.preview, self.preview_error = [], None, None
        self.fields["front"] = ""
        rnd = self.round
        assert rnd is not None
        for p in rnd.pending():
            if rnd.can_set_hand(p):
                self.select(p, quiet=True)
                return

    def settle(self) -> bool:
        def step() -> None:
            self._need_round()
            slip: Slip = self._do("settle")
            self.selected = None
            self.picks = []
            t = slip.totals
            self._say(f"Settled from {position_name(slip.action_position)}: players net "
                      f"{money(t.players_net, sign=True)}, commission {money(t.commission)}, "
                      f"house net {money(t.house_net, sign=True)}. N opens the next round.",
                      "ok")
        return self._run(step)

    def print_slip(self) -> bool:
        return self._run(lambda: self._verify("print"))

    def toggle_shoe(self) -> bool:
        def step() -> None:
            self._verify("shoe")
            self.shoe.set_online(not self.shoe.online)
            if self.shoe.online:
                self._say("The demo shoe is back online: it deals the next deal.", "info")
            else:
                self._say("The shoe is offline: cards are entered by hand (C).", "warn")
        return self._run(step)

    # --- the shoe ------------------------------------------------------------------------

    def dealing(self) -> dict[int, list[Card]]:
        """The cards each position has so far in this deal, read or typed."""
        out: dict[int, list[Card]] = {}
        rnd = self.round
        if rnd is not None and rnd.action is not None and rnd.phase is Phase.DEALING:
            for i, c in enumerate(self.stream):
                p = dealt_to(rnd.table, rnd.action.position, i)
                if p is not None:
                    out.setdefault(p, []).append(c)
        for p, cards in self.manual.items():
            out.setdefault(p, []).extend(cards)
        return out

    def on_card(self, c: Card) -> None:
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED):
            self._say(f"The shoe read {c} with no deal open: the card is not used.", "warn")
            self._done()
            return
        self.stream.append(c)
        self._run(self._try_finish)

    def on_leftovers(self, cards: tuple[Card, ...]) -> None:
        self.leftovers = cards
        self._run(self._try_finish)

    def on_shoe_status(self) -> None:
        self._done()

    def on_shoe_fault(self, text: str) -> None:
        self._say(text, "warn")
        self._done()

    def _try_finish(self) -> None:
        """Hand the deal to the round as soon as it is whole; a misdeal is shown."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.DEALING:
            return
        try:
            if not self.manual and (len(self.stream) >= DECK_SIZE or (
                    len(self.stream) == DEALT and self.leftovers is not None)):
                cards = self.stream[:DECK_SIZE]
                rest = self.leftovers if self.leftovers is not None else cards[DEALT:]
                if rnd.table.deal_mode is DealMode.STACKS:
                    stacks = [cards[i:i + CARDS_PER_HAND] for i in range(0, DEALT,
                                                                         CARDS_PER_HAND)]
                    self._do("deal_stacks", stacks, list(rest))
                else:
                    self._do("deal_one_at_a_time", cards[:DEALT] + list(rest))
            elif self.manual:
                hands = self.dealing()
                if len(hands) < HANDS or any(len(h) < CARDS_PER_HAND for h in hands.values()):
                    return
                rest_read = self.stream[DEALT:DECK_SIZE] if len(self.stream) >= DECK_SIZE \
                    else self.leftovers
                self._do("deal_by_position", hands, list(rest_read) if rest_read else None)
            else:
                return
        except Misdeal as misdeal:
            self.shoe.stop_deal()
            self._clear_deal()
            raise TableError(f"{misdeal} Take action again ({self._action_key(rnd)}).") \
                from None
        self.shoe.stop_deal()
        self._after_deal()

    def _after_deal(self) -> None:
        rnd = self.round
        assert rnd is not None and rnd.action is not None
        self._say(f"All seven hands are in, from {position_name(rnd.action.position)}. Set "
                  f"each hand: click the two front cards and F, or H for the House Way.", "ok")
        self._after_set()

    def _clear_deal(self) -> None:
        self.stream, self.manual, self.leftovers = [], {}, None
        self.picks, self.preview, self.preview_error = [], None, None
        self.fields["front"] = ""

    # --- the screen ----------------------------------------------------------------------

    def state(self) -> ScreenState:
        rnd = self.round
        dealing = self.dealing()
        seats = {p: present.seat_state(rnd, p, dealing=dealing, selected=self.selected,
                                        picked=self.picks, preview=self.preview,
                                        preview_error=self.preview_error,
                                        hide_bank=self.hide_bank)
                 for p in self.table.positions}
        slip = present.slip_state(rnd.slip) if rnd is not None and rnd.slip else None
        phase = present.PHASE_WORDS[rnd.phase if rnd else None]
        title = f"Round {rnd.rotation.round_no}: {phase}" if rnd else phase
        selected = (f"Selected: {position_name(self.selected)}" if self.selected is not None
                    else "Selected: none (1-6 seats, 7 dealer)")
        manual = (f"cards for {position_name(self.selected)}" if self.selected is not None
                  else "cards")
        return ScreenState(
            seats=seats, center=present.center_state(rnd, self.table), phase=title,
            next_step=self.next_step(), selected=selected, availability=self.availability(),
            message=self.message, level=self.level, log=tuple(self.log), slip=slip,
            devices=self.devices(), table_info=self.table_info(), manual_target=manual,
            fields=dict(self.fields))

    def next_step(self) -> str:
        rnd = self.round
        if rnd is None:
            return "Next: N opens a round."
        match rnd.phase:
            case Phase.BETTING:
                if not rnd.wagers:
                    return "Next: select a seat (1-6), W, type the wager, Enter."
                return f"Next: more wagers, or action: {self._action_key(rnd)}."
            case Phase.DEALING:
                if self.shoe.online:
                    return f"Next: deal; the shoe has read {len(self.stream)} of {DECK_SIZE}."
                short = [position_name(p) for p in rnd.table.around(rnd.action.position)
                         if len(self.dealing().get(p, ())) < CARDS_PER_HAND] \
                    if rnd.action else []
                return "Next: shoe offline - C and type the cards of " + ", ".join(short) + "."
            case Phase.SETTING:
                waiting = [p for p in rnd.pending() if rnd.can_set_hand(p)]
                if rnd.can_settle():
                    return "Next: S settles (the dealer's hand is set the House Way)."
                return ("Next: set " + ", ".join(position_name(p) for p in waiting)
                        + ": click two front cards then F, or H for the House Way.")
            case Phase.MISDEAL:
                return f"Next: misdeal - take action again: {self._action_key(rnd)}."
        return "Next: N opens the next round."

    def devices(self) -> tuple[Device, ...]:
        shoe = Device(f"Shoe: {self.shoe.status}",
                      "ok" if self.shoe.online else ("warn" if self.shoe.demo else "off"))
        printer = Device("Printer: none connected", "warn",
                         "the slip printer driver is not in the station yet")
        database = Device("Database: not recording", "warn",
                          "the ledger is not in the station yet: rounds are not stored")
        return (shoe, printer, database)

    def table_info(self) -> str:
        r = self.rules
        return (f"Table {r.table.name} - House Way {r.house_way} - foul: "
                f"{r.foul_penalty.value} - commission {r.commission} - wagers "
                f"{money(r.limits.minimum)} to {money(r.limits.maximum)} - action "
                f"{r.table.action_source.value} - deal {r.table.deal_mode.value}")

    def slip_text(self) -> str:
        rnd = self.round
        return rnd.slip.text() if rnd is not None and rnd.slip is not None else ""

    def close(self) -> None:
        self.shoe.close()

