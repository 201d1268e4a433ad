"""What the window shows of the dealer session, part by part (no Qt here: plain values, like
present.py). The window asks only for the parts an event changed: one seat's state for a
card, the centre when the phase or action moved, the panel's lines every time.

The facts are the session's (its round, what the dealer picked and typed, the devices it
was told of); present.py and the session's words word them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.core.cards import Card
from app.core.round import DragonWager, RoundRules
from app.core.settlement import money
from app.core.table import DEALER, position_name
from app.session import DealerSession, glossary

from . import present
from .present import CenterState, Device, SeatState, SlipState


def house_way_name(rules: RoundRules) -> str:
    """The table's House Way card as the dealer reads its name (the one place the window
    reads `rules.house_way`)."""
    return rules.house_way.name


def seat(s: DealerSession, position: int, dealing: Mapping[int, Sequence[Card]],
         hide_bank: bool = True) -> SeatState:
    return present.seat_state(s.round, position, dealing=dealing, selected=s.keyboard.selected,
                              picked=s.keyboard.picks, preview=s.keyboard.preview,
                              preview_error=s.keyboard.preview_error, hide_bank=hide_bank,
                              bank_offer=s.bank_offered(), dragon_offer=s.dragon_offered(),
                              passed_over=s.play.passed_over)


def centre(s: DealerSession) -> CenterState:
    return present.center_state(s.round, s.table, s.deal.action_input, s.deal.device_action,
                                s.bank_offered())


@dataclass(frozen=True)
class PanelLines:
    """The side panel's words: the phase, what is selected, the fields' hints, the buttons'
    labels that change (the shuffler's action, co-banking on)."""

    phase: str
    selected: str
    cards_hint: str
    bank_hint: str
    dragon_hint: str
    labels: dict[str, str]


def panel(s: DealerSession) -> PanelLines:
    rnd = s.round
    phase = present.PHASE_WORDS[rnd.phase if rnd else None]
    title = f"Round {rnd.rotation.round_no}: {phase}" if rnd else phase
    selected = (f"Selected: {position_name(s.keyboard.selected)}" if s.keyboard.selected is not None
                else "Selected: none (1-6 seats, 7 dealer)")
    target = f"seat {s.keyboard.selected}:" if s.keyboard.selected not in (None, DEALER) else (
        "dealer:" if s.keyboard.selected == DEALER else "e.g.")
    labels: dict[str, str] = {}
    if s.deal.device_action is not None:
        labels["rng"] = f"{s.deal.device_name().capitalize()}'s action"
    if s.play.co_bank:
        labels["co_bank"] = "Co-bank: ON"
    bank_offer, dragon_offer = s.bank_offered(), s.dragon_offered()
    # The hints fit the fields of a 1024x768 screen: the field's label says what it takes.
    bank_hint = (f"seat {bank_offer}: e.g. 500" if rnd is not None
                 and bank_offer is not None else "e.g. 500")
    dragon_hint = "e.g. 25"
    if rnd is not None and dragon_offer is not None:
        main = money(rnd.wagers[dragon_offer])
        dragon_hint = (f"seat {dragon_offer}: {main}"
                       if s.rules.dragon.wager is DragonWager.EQUAL
                       else f"seat {dragon_offer}: up to {main}")
    return PanelLines(title, selected, f"{target} AS KD 10H", bank_hint, dragon_hint, labels)


def slip(s: DealerSession) -> SlipState | None:
    rnd = s.round
    return present.slip_state(rnd.slip) if rnd is not None and rnd.slip else None


def slip_printed(s: DealerSession, printer_attached: bool, printing: bool) -> str:
    """The slip's heading: printed, printing, kept or not printed."""
    if not printer_attached or s.round is None or s.round.slip is None:
        return ""
    if printing:
        return "printing..."
    return {"printed": "printed", "kept": "KEPT, P prints it"}.get(s.devices.slip_printed or "",
                                                                   "NOT PRINTED (P)")


def shoe_device(s: DealerSession) -> Device:
    d = s.devices
    state = "ok" if d.shoe_online else ("warn" if d.shoe_demo or d.shoe_short == "none"
                                        else "off")
    return Device(f"Shoe: {d.shoe_short}", state, f"Shoe {d.shoe_status}")


NO_PRINTER = Device("Printer: none", "warn",
                    "No slip printer at this station: read the slip on screen.")
OPENING_LEDGER = Device("Database: opening...", "warn",
                        "The station is opening its ledger; the table shows once it has.")
OPENING_MESSAGE = "Opening the ledger... The table shows in a moment."
OPENING_REFUSAL = "the ledger is opening: the table shows in a moment"
NO_LEDGER = Device("Database: not recording", "warn",
                   "This station keeps no ledger: rounds are not stored.")


def recording_device(shown: Device, pending: int, failed: str | None) -> Device:
    """The ledger's status as the worker last saw it, and the writes it has not confirmed:
    "recording..." until the journal has them on disk."""
    if failed is not None:
        return Device("Database: NOT RECORDED", "off",
                      f"The station's journal refused a change ({failed}). The round goes "
                      f"on and its records are written with the next change; call a "
                      f"supervisor.")
    if pending:
        return Device("Database: recording...", "ok",
                      f"{pending} change(s) being written to the station's journal.")
    return shown


def table_info(s: DealerSession) -> str:
    """The table's rules in the status bar: two lines, each whole at 1024x768, in the
    glossary's words (app/session/glossary.py)."""
    r = s.rules
    banking = "player banking" if r.banking.enabled else "no player banking"
    if r.banking.enabled and r.banking.co_banking:
        banking += " (co-bank)"
    dealer = ""
    if s.play.ledger is not None:
        dealer = f"Dealer {s.play.ledger.dealer or '(none: F3)'} - "
    return (f"{dealer}Table {r.table.name} - House Way {house_way_name(r)} - "
            f"{glossary.FOUL_SHORT[r.foul_penalty]} - {r.commission}\n"
            f"{money(r.limits.minimum)} to {money(r.limits.maximum)} - "
            f"{glossary.ACTION_SHORT[r.table.action_source]} - "
            f"{glossary.DEAL_SHORT[r.table.deal_mode]} - "
            f"{banking} - {glossary.dragon_short(r)}")


def table_rules(s: DealerSession) -> str:
    """The same rules as sentences (the status bar's tooltip, and its tap)."""
    r = s.rules
    banking = ("Players may bank" + (", and co-bank with the house" if r.banking.co_banking
                                      else "") if r.banking.enabled
               else "The dealer banks every round")
    return (f"Table {r.table.name}: wagers {money(r.limits.minimum)} to "
            f"{money(r.limits.maximum)}; House Way {house_way_name(r)}; "
            f"{glossary.FOUL[r.foul_penalty]}; commission {r.commission}; "
            f"{glossary.ACTION[r.table.action_source]}, {glossary.DEAL[r.table.deal_mode]}, "
            f"{glossary.DIRECTION[r.table.direction]}. {banking}. "
            f"{glossary.dragon_words(r)}.")
