"""The hands after the deal: the dragon offered and taken, each hand set (the House Way, or
the two front cards the player picked, previewed on a shadow round first).
"""

from __future__ import annotations

from app.core.cards import Card, CardError, cards_text, parse_cards
from app.core.round import DragonSetting, HandReturned, Phase
from app.core.settlement import MoneyError, Role, money, parse_money
from app.core.table import TableError, position_name

from . import present
from .availability import DEALER_ERRORS


class Hands:
    """The dragon and setting the hands.

    Mixed into `DealerController` (app/ui/controller.py): it reads the controller's state
    and uses its plumbing (`_run`, `_do`, `_say`, `_done`).
    """

    # --- the dragon -------------------------------------------------------------------------

    def dragon_suggestion(self) -> str:
        """The wager to put in the dragon field: the main wager of the seat offered."""
        rnd, seat = self.round, self.dragon_offered()
        if rnd is None or seat is None:
            return ""
        return f"{rnd.wagers[seat] / 100:.2f}"

    def take_dragon(self, text: str) -> bool:
        def step() -> None:
            self._need_round()
            self._verify("dragon")
            seat = self.dragon_offered()
            assert seat is not None
            if not text.strip():
                raise MoneyError(f"type seat {seat}'s dragon wager in dollars, then Enter")
            record = self._do("take_dragon", seat, parse_money(text))
            how = ("it is set the House Way at settlement"
                   if self.rules.dragon.setting is DragonSetting.HOUSE_WAY
                   else "the player sets it")
            self._after_dragon(f"Seat {seat} takes {position_name(record.position)}'s hand as "
                               f"a dragon for {money(record.wager)}: {how}.")
        return self._run(step)

    def _after_dragon(self, said: str) -> None:
        nxt = self.dragon_offered()
        if nxt is not None:
            self.select(nxt, quiet=True)
            self._say(f"{said} {self._dragon_offer_words(nxt)}", "ok")
            return
        self._after_set()
        self._say(f"{said} The dragon offer is over; the unused hands are mucked. Set each "
                  f"hand: click the two front cards and F, or H for the House Way.", "ok")

    # --- setting the hands ------------------------------------------------------------------

    def house_way(self) -> bool:
        def step() -> None:
            rnd = self._need_round()
            self._verify_no_offer_open("the hands are set")
            position = self._need_position("position")
            if not rnd.can_set_hand(position) and rnd.can_ask_house_way(position):
                self._do("ask_house_way", position)
                self._say(f"{present.name(position)} asks for the House Way: leave the seven "
                          f"cards in one pile; the dealer sets them the House Way after the "
                          f"bank hand is opened and set.", "ok")
                self._after_set()
                return
            record = self._do("house_way", position)
            hand = record.hand
            self._say(f"{present.name(position)} set the House Way, rule {hand.rule}: "
                      f"{hand.rule_says}", "ok")
            self._after_set()
        return self._run(step)

    def show_house_way(self) -> bool:
        """The player asks the house for help: show the House Way, set nothing."""
        def step() -> None:
            self._need_round()
            self._verify("help")
            position = self._need_position("position")
            shown = self._do("show_house_way", position)
            self._say(f"House Way for {present.name(position)}: "
                      f"{cards_text(shown.setting.low)} in front, "
                      f"{cards_text(shown.setting.high)} behind (rule {shown.rule_id}: "
                      f"{shown.says}). Not set: the player sets it (F), or H for the House "
                      f"Way.", "info")
        return self._run(step)

    def pick_card(self, position: int, card: Card) -> bool:
        def step() -> None:
            rnd = self._need_round()
            if rnd.phase is not Phase.SETTING:
                raise TableError(f"cards are picked for the front while hands are set; the "
                                 f"round is {rnd.phase.value}")
            self._verify_no_offer_open("the hands are set")
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
                self.preview.hand) + present.returned_words(self.preview), "warn")
        elif self.preview is not None:
            self._say(f"{present.name(position)}: {cards_text(self.picks)} in front is legal; "
                      f"press F to set it.", "info")

    def set_front(self, text: str | None = None) -> bool:
        def step() -> None:
            self._need_round()
            self._verify_no_offer_open("the hands are set")
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
            if isinstance(record, HandReturned):
                self.picks, self.preview, self.preview_error = [], None, None
                self.fields["front"] = ""
                self._say(f"{present.name(position)}: {present.foul_words(hand)}"
                          f"{present.returned_words(record)}: the round waits for it.", "error")
                return
            if hand.foul:
                self._say(f"{present.name(position)}: {present.foul_words(hand)}", "error")
            else:
                self._say(f"{present.name(position)}: {cards_text(hand.setting.low)} in front, "
                          f"{cards_text(hand.setting.high)} behind.", "ok")
            self._after_set()
        return self._run(step)

    def _to_set(self) -> list[int]:
        """Positions whose hands the dealer may set now, in order from action; a dragon
        the House Way sets at settlement is not waited for."""
        rnd = self.round
        if rnd is None:
            return []
        house_way = self.rules.dragon.setting is DragonSetting.HOUSE_WAY
        return [p for p in rnd.pending() if rnd.can_set_hand(p)
                and not (house_way and rnd.hands[p].role is Role.DRAGON)]

    def _after_set(self) -> None:
        self.picks, self.preview, self.preview_error = [], None, None
        self.fields["front"] = ""
        waiting = self._to_set()
        if waiting:
            self.select(waiting[0], quiet=True)
