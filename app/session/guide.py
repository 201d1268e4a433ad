"""The "Next:" line: what the dealer does next, in a line, from the round and the deal."""

from __future__ import annotations

from app.core.round import Phase
from app.core.table import CARDS_PER_HAND, position_name

from .deal import DEALT, DECK_SIZE
from .parts import Parts
from .procedure import to_set


def next_line(p: Parts) -> str:
    """What the dealer does next, in a line."""
    rnd = p.round
    if rnd is None:
        return "Next: N opens a round."
    deal = p.deal
    match rnd.phase:
        case Phase.BETTING:
            if p.keyboard.same is not None:
                return ("Next: Enter sets last round's wagers; a seat's key leaves it out "
                        "first; Esc sets none.")
            offered = p.bank_offered()
            if offered is not None:
                return (f"Next: the bank is offered to seat {offered}: B and the chips to "
                        f"take it, Q to pass (Shift+Q: every seat left passes).")
            if not rnd.wagers and p.play.last_round:
                return ("Next: L and Enter: the same wagers as last round; or a seat (1-6), W, "
                        "the wager, Enter.")
            if not rnd.wagers:
                return "Next: select a seat (1-6), W, type the wager, Enter."
            return f"Next: more wagers, or action: {deal.action_key(rnd)}."
        case Phase.DEALING:
            if p.devices.shoe_online or (deal.stream and not deal.manual):
                read = len(deal.stream)
                if read >= DEALT and deal.leftovers is None:
                    return (f"Next: the {DEALT} cards dealt are read; waiting for the 4 left "
                            f"over (BURN) - E if this shoe does not read them.")
                return f"Next: deal; the shoe has read {read} of {DECK_SIZE}."
            dealing = p.dealing()
            short = [position_name(q) for q in rnd.table.around(rnd.action.position)
                     if len(dealing.get(q, ())) < CARDS_PER_HAND] if rnd.action else []
            return "Next: shoe offline - C and type the cards of " + ", ".join(short) + "."
        case Phase.SETTING:
            offered = p.dragon_offered()
            if offered is not None:
                return (f"Next: the dragon is offered to seat {offered}: G and Enter to take "
                        f"it, Q to pass (Shift+Q: no one takes it).")
            piles = rnd.piles()
            if rnd.can_settle():
                return ("Next: S settles (the dealer's hand is set the House Way"
                        + (", then the hands in one pile" if piles else "") + ").")
            pile_words = (" In one pile, set after the bank: " + ", ".join(
                position_name(q) for q in piles) + ".") if piles else ""
            return ("Next: set " + ", ".join(position_name(q) for q in to_set(p))
                    + ": click two front cards then F, or H for the House Way (A shows it "
                      "first)." + pile_words)
        case Phase.MISDEAL:
            return f"Next: misdeal - take action again: {deal.action_key(rnd)}."
    if (p.devices.printer_attached and rnd.slip is not None
            and p.devices.slip_printed != "printed"):
        return "Next: P prints the slip; then N opens the next round."
    return "Next: N opens the next round."
