"""The controller's state turned into what the window shows: the ScreenState, the next step,
the status bar's devices and banner, the table's line, and the words the dealer's steps use
(the offers, the key that takes action). No Qt here: plain values, like present.py.
"""

from __future__ import annotations

from app.core.round import DragonWager, Phase, Round
from app.core.settlement import money
from app.core.table import CARDS_PER_HAND, ActionSource, position_name
from drivers.action import ActionInput

from . import present
from .availability import DEALT, DECK_SIZE
from .present import Device, ScreenState


class Screen:
    """What the window shows.

    Mixed into `DealerController` (app/ui/controller.py): it reads the controller's state
    and uses its plumbing (`_run`, `_do`, `_say`, `_done`).
    """

    def state(self) -> ScreenState:
        rnd = self.round
        dealing = self.dealing()
        bank_offer, dragon_offer = self.bank_offered(), self.dragon_offered()
        seats = {p: present.seat_state(rnd, p, dealing=dealing, selected=self.selected,
                                        picked=self.picks, preview=self.preview,
                                        preview_error=self.preview_error,
                                        hide_bank=self.hide_bank, bank_offer=bank_offer,
                                        dragon_offer=dragon_offer,
                                        passed_over=self._passed_over)
                 for p in self.table.positions}
        slip = present.slip_state(rnd.slip) if rnd is not None and rnd.slip else None
        phase = present.PHASE_WORDS[rnd.phase if rnd else None]
        title = f"Round {rnd.rotation.round_no}: {phase}" if rnd else phase
        selected = (f"Selected: {position_name(self.selected)}" if self.selected is not None
                    else "Selected: none (1-6 seats, 7 dealer)")
        manual = (f"cards for {position_name(self.selected)}" if self.selected is not None
                  else "cards")
        labels: dict[str, str] = {}
        if self.device_action is not None:
            labels["rng"] = f"{self._device_name().capitalize()}'s action"
        if self.co_bank:
            labels["co_bank"] = "Co-bank: ON"
        fields = dict(self.fields)
        if rnd is not None and bank_offer is not None:
            fields["bank_hint"] = f"seat {bank_offer}'s chips, e.g. 500"
        devices, banner = self.devices(), self.banner()
        self._shown_devices = (devices, banner)
        if rnd is not None and dragon_offer is not None:
            main = money(rnd.wagers[dragon_offer])
            fields["dragon_hint"] = (f"seat {dragon_offer}: {main}"
                                     if self.rules.dragon.wager is DragonWager.EQUAL
                                     else f"seat {dragon_offer}: up to {main}")
        return ScreenState(
            seats=seats,
            center=present.center_state(rnd, self.table, self.action_input,
                                        self.device_action, bank_offer),
            phase=title, next_step=self.next_step(), selected=selected,
            availability=self.availability(), message=self.message, level=self.level,
            log=tuple(self.log), slip=slip, devices=devices, banner=banner,
            slip_printed=self._slip_printed_words(),
            table_info=self.table_info(), manual_target=manual, fields=fields, labels=labels,
            co_bank=self.co_bank)

    def _slip_printed_words(self) -> str:
        printer = self.printer
        if printer is None or printer.none or self.round is None or self.round.slip is None:
            return ""
        if printer.busy is not None:
            return "printing..."
        return {"printed": "printed", "kept": "KEPT, P prints it"}.get(
            self.slip_printed or "", "NOT PRINTED (P)")

    def next_step(self) -> str:
        rnd = self.round
        if rnd is None:
            return "Next: N opens a round."
        match rnd.phase:
            case Phase.BETTING:
                offered = self.bank_offered()
                if offered is not None:
                    return (f"Next: the bank is offered to seat {offered}: B and the chips to "
                            f"take it, Q to pass (Shift+Q: every seat left passes).")
                if not rnd.wagers:
                    return "Next: select a seat (1-6), W, type the wager, Enter."
                return f"Next: more wagers, or action: {self._action_key(rnd)}."
            case Phase.DEALING:
                if self.shoe.online or (self.stream and not self.manual):
                    read = len(self.stream)
                    if read >= DEALT and self.leftovers is None:
                        return (f"Next: the {DEALT} cards dealt are read; waiting for the 4 "
                                f"left over (BURN) - E if this shoe does not read them.")
                    return f"Next: deal; the shoe has read {read} of {DECK_SIZE}."
                short = [position_name(p) for p in rnd.table.around(rnd.action.position)
                         if len(self.dealing().get(p, ())) < CARDS_PER_HAND] \
                    if rnd.action else []
                return "Next: shoe offline - C and type the cards of " + ", ".join(short) + "."
            case Phase.SETTING:
                offered = self.dragon_offered()
                if offered is not None:
                    return (f"Next: the dragon is offered to seat {offered}: G and Enter to "
                            f"take it, Q to pass (Shift+Q: no one takes it).")
                waiting = self._to_set()
                piles = rnd.piles()
                if rnd.can_settle():
                    return ("Next: S settles (the dealer's hand is set the House Way"
                            + (", then the hands in one pile" if piles else "") + ").")
                pile_words = (" In one pile, set after the bank: " + ", ".join(
                    position_name(p) for p in piles) + ".") if piles else ""
                return ("Next: set " + ", ".join(position_name(p) for p in waiting)
                        + ": click two front cards then F, or H for the House Way (A shows "
                          "it first)." + pile_words)
            case Phase.MISDEAL:
                return f"Next: misdeal - take action again: {self._action_key(rnd)}."
        if (self.printer is not None and not self.printer.none and rnd.slip is not None
                and self.slip_printed != "printed"):
            return "Next: P prints the slip; then N opens the next round."
        return "Next: N opens the next round."

    def devices(self) -> tuple[Device, ...]:
        """The status bar: a word or two each; the whole story in the tooltips."""
        state = "ok" if self.shoe.online else ("warn" if self.shoe.demo
                                               or self.shoe.short == "none" else "off")
        shoe = Device(f"Shoe: {self.shoe.short}", state, f"Shoe {self.shoe.status}")
        printer = self.printer.device() if self.printer is not None else Device(
            "Printer: none", "warn", "No slip printer at this station: read the slip on "
                                     "screen.")
        database = self.ledger.view().device if self.ledger is not None else Device(
            "Database: not recording", "warn", "This station keeps no ledger: rounds are "
                                               "not stored.")
        return (shoe, printer, database)

    def banner(self) -> str | None:
        """The ledger's banner while the database is away (or refused a record)."""
        return self.ledger.view().banner if self.ledger is not None else None

    def table_info(self) -> str:
        r = self.rules
        banking = "player banking" if r.banking.enabled else "no player banking"
        if r.banking.enabled and r.banking.co_banking:
            banking += " (co-bank)"
        dragon = (f"dragon {r.dragon.wager.value}, {r.dragon.setting.value}"
                  if r.dragon.enabled else "no dragon")
        dealer = ""
        if self.ledger is not None:
            dealer = f"Dealer {self.ledger.dealer or '(none: F3)'} - "
        return (f"{dealer}Table {r.table.name} - House Way {r.house_way.name} - foul "
                f"{r.foul_penalty.value} "
                f"- {r.commission} - {money(r.limits.minimum)} to {money(r.limits.maximum)} - "
                f"action {r.table.action_source.value} - {r.table.deal_mode.value} - {banking} "
                f"- {dragon}")

    def slip_text(self) -> str:
        rnd = self.round
        return rnd.slip.text() if rnd is not None and rnd.slip is not None else ""

    # --- the words of the dealer's steps ----------------------------------------------------

    def _bank_offer_words(self, seat: int) -> str:
        return (f"The bank is offered to seat {seat}: B and the chips on the table to take it "
                f"(they cover every wager against it), Q to pass.")

    def _dragon_offer_words(self, seat: int) -> str:
        rnd = self.round
        assert rnd is not None
        where = position_name(rnd.dragon_hands()[0])
        main = money(rnd.wagers[seat])
        if self.rules.dragon.wager is DragonWager.EQUAL:
            wager = f"its wager is the main wager, {main}"
        else:
            wager = f"a wager of {money(self.rules.limits.minimum)} up to the main {main}"
        return (f"The dragon ({where}'s unused hand) is offered to seat {seat}, {wager}: "
                f"G and Enter to take it, Q to pass.")

    @staticmethod
    def _seats_words(seats: list[int]) -> str:
        if len(seats) == 1:
            return f"Seat {seats[0]} passes"
        return "Seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]} pass"

    def _action_key(self, rnd: Round) -> str:
        if self.device_action is not None:
            return f"R (the {self._device_name()}'s {self.device_action.action})"
        return "R (RNG)" if rnd.table.action_source is ActionSource.RNG else "D (dice)"

    def _device_name(self) -> str:
        inp = self.device_action or self.action_input
        return self._device_name_of(inp) if inp is not None else "shuffler"

    @staticmethod
    def _device_name_of(inp: ActionInput) -> str:
        return "dice shaker" if inp.action.source is ActionSource.DICE else "shuffler"
