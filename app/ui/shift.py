"""The ledger's side of the table: the dealer's shift opened (F3), a round a stopped station
left in play taken back, a round voided by a supervisor.
"""

from __future__ import annotations

from app.core.round import ActionCounted, Phase
from app.core.table import ActionSource, TableError
from app.ledger import Recording
from drivers.action import ActionInput, Origin


def action_input_of(counted: ActionCounted) -> ActionInput:
    """Where a recorded action came from (a round taken back from the ledger)."""
    action = counted.action
    if action.drawn_by == "device":
        return ActionInput(action, Origin.DEVICE)
    if action.source is ActionSource.DICE:
        return ActionInput(action, Origin.DEALER)
    return ActionInput(action, Origin.STATION_RNG)


class Shift:
    """The shift, a round taken back, a round voided.

    Mixed into `DealerController` (app/ui/controller.py): it reads the controller's state
    and uses its plumbing (`_run`, `_do`, `_say`, `_done`).
    """

    def open_shift(self, dealer: str) -> bool:
        """F3: the dealer at the table (a new shift in the ledger)."""
        def step() -> None:
            if self.ledger is None:
                raise TableError("this station keeps no ledger: there is no shift to open")
            name = self.ledger.open_shift(dealer)
            self._notes.append(f"Shift opened: dealer {name}")
            more = " Press N to open a round." if self.round is None or \
                self.round.phase is Phase.SETTLED else ""
            self._say(f"{name}'s shift is open: every round is recorded under it.{more}", "ok")
        return self._run(step)

    def resume(self, rec: Recording) -> None:
        """The round a stopped station had in play, as the ledger rebuilt it: every wager,
        the bank, action, the cards and the settings are back; the dealer carries on."""
        game = rec.game
        self.round, self.recording = game, rec
        self.slip_printed = None
        self._opened_with = game.rotation
        self._logged, self._passed_over, self.co_bank = 0, {}, False
        self.action_input = action_input_of(game.action) if game.action is not None else None
        self.device_action = None
        self._clear_deal()
        self.log.append(f"--- round {game.rotation.round_no} taken back from the ledger ---")
        resumed = (f"Round {game.rotation.round_no} is taken back as it was when the station "
                   f"stopped: every wager, card and setting is as recorded.")
        match game.phase:
            case Phase.BETTING:
                self._pass_over_bank()
                offered = self.bank_offered()
                self.select(offered or 1, quiet=True)
                self._say(f"{resumed} {self.next_step().removeprefix('Next: ')}", "warn")
            case Phase.DEALING:
                assert game.action is not None
                self.select(game.action.position, quiet=True)
                if self.shoe.online and self.shoe.demo:
                    self.shoe.start_deal()
                    how = "the demo shoe deals again."
                elif self.shoe.online:
                    how = ("the cards read before it stopped are not kept: run the seven hands "
                           "through the shoe again, or a supervisor voids the round (F2).")
                else:
                    how = "type each position's seven cards (C)."
                self._say(f"{resumed} The deal was under way: {how}", "warn")
            case Phase.SETTING:
                offered = self.dragon_offered()
                if offered is not None:
                    self.select(offered, quiet=True)
                else:
                    self._after_set()
                self._say(f"{resumed} {self.next_step().removeprefix('Next: ')}", "warn")
            case _:
                self._say(f"{resumed} {self.next_step().removeprefix('Next: ')}", "warn")
        self._done()

    def void_round(self, reason: str, by: str) -> bool:
        """The supervisor voids the round in play (after the PIN): it stays in the ledger as
        void, with who and why; the next round starts from the same rotation."""
        def step() -> None:
            rnd = self._need_round()
            if rnd.phase is Phase.SETTLED:
                raise TableError(f"round {rnd.rotation.round_no} is settled: it cannot be "
                                 f"voided; correct a settlement instead")
            if not reason.strip() or not by.strip():
                raise TableError("a void says why and who voids the round")
            if self.recording is not None:
                self.recording.void(reason.strip(), by=by.strip())
            self.shoe.stop_deal()
            self._clear_deal()
            self.rotation = self._opened_with
            self.round, self.recording, self.selected = None, None, None
            self.action_input, self.device_action, self.co_bank = None, None, False
            self.log.append(f"--- round {rnd.rotation.round_no} VOID by {by.strip()}: "
                            f"{reason.strip()} ---")
            self._say(f"Round {rnd.rotation.round_no} is void ({by.strip()}: {reason.strip()}). "
                      f"The wagers go back to the players. N opens a new round.", "warn")
        return self._run(step)
