"""Action and the deal in progress: the shoe's events (cards, leftovers, a shuffle, a
device's action), cards typed by hand, and the deal handed to the round once it is whole.
"""

from __future__ import annotations

from app.core.cards import Card, CardError, cards_text, parse_cards
from app.core.round import Phase
from app.core.table import (
    CARDS_PER_HAND,
    DEALER,
    HANDS,
    DealMode,
    Misdeal,
    TableError,
    holes_in,
    place_of_seq,
    position_name,
)
from drivers.action import ActionInput, Origin, dice, draw_rng
from drivers.shoe.deal_order import WRAP

from . import present
from .availability import DEALER_ERRORS, DEALT, DECK_SIZE


class Feed:
    """Action, the shoe's events and the deal.

    Mixed into `DealerController` (app/ui/controller.py): it reads the controller's state
    and uses its plumbing (`_run`, `_do`, `_say`, `_done`).
    """

    # --- action -----------------------------------------------------------------------------

    def rng_action(self) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("action")
            device = self.device_action
            if device is not None:
                try:
                    self._action(device)
                except TableError as e:
                    self.device_action = None
                    raise TableError(f"The {self._device_name_of(device)}'s action "
                                     f"({device.action}) cannot be used: {e}. It is dropped: "
                                     f"take action again.") from None
                return
            self._action(draw_rng(self.randbelow))
        return self._run(step)

    def dice_action(self, text: str) -> bool:
        def step() -> None:
            self._need_round()
            self._verify("dice")
            self._action(dice(text))
        return self._run(step)

    def _action(self, inp: ActionInput) -> None:
        record = self._do("set_action", inp.action)
        self.action_input, self.device_action = inp, None
        self.manual = {}
        self.select(record.position, quiet=True)
        where = position_name(record.position)
        source = f" from the {inp.source}" if inp.origin is Origin.DEVICE else ""
        counted = f" counted from {position_name(record.bank)}" if record.bank != DEALER else ""
        if self.shoe.online:
            self._say(f"Action: {inp.action}{source} -> {where}{counted}. Deal: the cards "
                      f"appear as the shoe reads them.", "ok")
            self.shoe.start_deal()
        else:
            self._say(f"Action: {inp.action}{source} -> {where}{counted}. The shoe is offline: "
                      f"press C and type {where}'s seven cards, then each next position.",
                      "warn")
        if inp.origin is Origin.DEVICE:
            self._notes.append(f"Action {inp.action} sent by the {inp.source}")
        self._try_finish()

    def on_action_read(self, inp: ActionInput) -> None:
        """ACTION from a shuffler or dice shaker: the round's action, unless the dealer has
        already taken one. Before the wagers are in it waits, and R takes it."""
        rnd = self.round
        device = self._device_name_of(inp)
        sent = f"The {device} sent action {inp.action} ({inp.source})"
        if rnd is not None and rnd.action is not None and rnd.phase is not Phase.SETTLED:
            taken = self.action_input
            who = ("the dealer" if taken is None or taken.origin is not Origin.DEVICE
                   else f"the {taken.source}")
            self._say(f"{sent}, but this round's action is already {rnd.action.action} -> "
                      f"{position_name(rnd.action.position)}, taken by {who}: the "
                      f"{device}'s number is not used.", "warn")
            self._notes.append(f"{sent}: not used, action already taken")
            self._done()
            return
        self.device_action = inp
        if rnd is None or rnd.phase is Phase.SETTLED:
            self._say(f"{sent} for the next round: N opens it; it is taken as the action when "
                      f"the wagers are in (R).", "info")
            self._done()
            return
        if rnd.wagers and self.bank_offered() is None:
            try:
                self._action(inp)
            except DEALER_ERRORS as e:
                self.device_action = None
                self._say(f"{sent}: it cannot be used ({e}); take action by hand.", "error")
            self._done()
            return
        wait = ("the bank is answered and the wagers are in" if self.bank_offered() is not None
                else "the wagers are in")
        self._say(f"{sent}: it is this round's action. R takes it when {wait}.", "info")
        self._done()

    # --- the deal ---------------------------------------------------------------------------

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

    def deal_complete(self) -> bool:
        """The shoe read the 49 cards dealt and will not read the 4 left over (no BURN): the
        deal is taken as it is and the leftovers are worked out as the cards not dealt."""
        def step() -> None:
            self._verify("deal_done")
            self._try_finish(complete=True)
        return self._run(step)

    # --- the shoe ------------------------------------------------------------------------

    def dealing(self) -> dict[int, list[Card]]:
        """The cards each position has so far in this deal, read or typed."""
        out: dict[int, list[Card]] = {}
        rnd = self.round
        if rnd is not None and rnd.action is not None and rnd.phase is Phase.DEALING:
            for i, c in enumerate(self.stream[:DEALT]):
                p = rnd.table.position_of_card(rnd.action.position, i)
                if p is not None and c is not None:     # None: a card the shoe lost
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

    def on_card_at(self, c: Card, first_seq: int, seq: int) -> None:
        """A card the shoe numbered: it goes to its own place in the dealing order, counted
        from the deal's first card, so a card lost on the line leaves a hole there."""
        rnd = self.round
        if rnd is None or rnd.phase in (Phase.SETTING, Phase.SETTLED):
            self.on_card(c)
            return
        action = rnd.action.position if rnd.action is not None else DEALER
        try:
            index = place_of_seq(rnd.table, action, first_seq, seq, WRAP).index
        except TableError as e:
            self._say(f"The shoe read {c}, which is not in this deal ({e}): the card is not "
                      f"used.", "warn")
            self._done()
            return
        before = holes_in(i for i, held in enumerate(self.stream) if held is not None)
        self.stream.extend([None] * (index + 1 - len(self.stream)))
        if self.stream[index] is not None:
            self._say(f"The shoe read {c} for the place of {self.stream[index]}: the card is "
                      f"not used.", "warn")
            self._done()
            return
        self.stream[index] = c
        new = [i for i in holes_in(i for i, held in enumerate(self.stream) if held is not None)
               if i not in before]
        if new:
            self._say(self._hole_words(new), "warn")
        self._run(self._try_finish)

    def _hole_words(self, holes: list[int]) -> str:
        rnd = self.round
        assert rnd is not None
        where = [f"card {i + 1} of the deal" for i in holes]
        if rnd.action is not None:
            where = [f"{w} ({position_name(p)}'s hand)" if p is not None else f"{w} (left over)"
                     for w, p in zip(where, (rnd.table.position_of_card(rnd.action.position, i)
                                             for i in holes), strict=True)]
        return (f"The shoe lost {', '.join(where)}: the later cards are in their places. Type "
                f"the missing card for its position (C), or call a misdeal.")

    def on_leftovers(self, cards: tuple[Card, ...]) -> None:
        self.leftovers = cards
        self._run(self._try_finish)

    def on_shuffled(self) -> None:
        """A new deck: the cards read before it and a device's action for it are void."""
        rnd = self.round
        void = len(self.stream)
        self.stream, self.leftovers, self.device_action = [], None, None
        if rnd is not None and rnd.phase is Phase.DEALING and void:
            self._say(f"The shoe started a new shuffle: the {void} card(s) read are void; the "
                      f"deal starts again from the new deck.", "warn")
        self._done()

    def on_shoe_status(self) -> None:
        self._done()

    def on_shoe_fault(self, text: str) -> None:
        self._say(text, "warn")
        self._done()

    def _try_finish(self, complete: bool = False) -> None:
        """Hand the deal to the round as soon as it is whole (or the dealer says it is: the
        leftovers not read are worked out); a misdeal is shown."""
        rnd = self.round
        if rnd is None or rnd.phase is not Phase.DEALING:
            return
        read = [c for c in self.stream[:DECK_SIZE] if c is not None]
        whole = len(read) == len(self.stream[:DECK_SIZE])  # no card lost on the line
        try:
            if not self.manual and whole and (len(read) >= DECK_SIZE or (
                    len(read) >= DEALT and (self.leftovers is not None or complete))):
                cards = read
                rest: list[Card] | None = (list(self.leftovers) if self.leftovers is not None
                                           else cards[DEALT:] or None)
                if rnd.table.deal_mode is DealMode.STACKS:
                    stacks = [cards[i:i + CARDS_PER_HAND] for i in range(0, DEALT,
                                                                         CARDS_PER_HAND)]
                    self._do("deal_stacks", stacks, rest)
                else:
                    self._do("deal_one_at_a_time", cards[:DEALT] + (rest or []))
            elif self.manual:
                hands = self.dealing()
                if len(hands) < HANDS or any(len(h) < CARDS_PER_HAND for h in hands.values()):
                    return
                rest = self.stream[DEALT:DECK_SIZE]
                rest_read = ([c for c in rest if c is not None]
                             if len(rest) == DECK_SIZE - DEALT and None not in rest
                             else self.leftovers)
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
        assert rnd is not None and rnd.action is not None and rnd.deal is not None
        counted = "" if rnd.deal.leftovers_counted else (
            f" The 4 left over were not read: they are the cards not dealt, "
            f"{cards_text(rnd.deal.leftovers)}.")
        offered = self.dragon_offered()
        if offered is not None:
            self.select(offered, quiet=True)
            self._say(f"All seven hands are in, from {position_name(rnd.action.position)}."
                      f"{counted} {self._dragon_offer_words(offered)}", "ok")
            return
        self._say(f"All seven hands are in, from {position_name(rnd.action.position)}."
                  f"{counted} Set each hand: click the two front cards and F, or H for the "
                  f"House Way.", "ok")
        self._after_set()

    def _clear_deal(self) -> None:
        self.stream, self.manual, self.leftovers = [], {}, None
        self.picks, self.preview, self.preview_error = [], None, None
        self.fields["front"] = ""
