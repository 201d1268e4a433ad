"""A bonus or envy line as the slip, the ledger and the felt keep it (`BonusPayout`), with
its words made from its values: the round makes it from the line it settled, and the
ledger makes it again from the line's row (its kind, seat, hand, category, wager, amount)
and the pay card stored with the round. One maker, so both say the same words."""

from __future__ import annotations

from ..settlement import BonusPayout, money
from .categories import Category
from .paytable import PayCard
from .settle import BonusLine, EnvyLine, Line, bonus_text, envy_text


def payout(line: Line, wager: int) -> BonusPayout:
    """The line as the slip keeps it; `wager` is the bonus wager it rides on (an envy
    line's: the wager that qualified)."""
    if isinstance(line, BonusLine):
        return BonusPayout("bonus", line.seat, line.position, line.wager, line.category.value,
                           line.category.label, line.pays, line.amount, None, line.supervisor,
                           line.note, line.text())
    assert isinstance(line, EnvyLine)
    return BonusPayout("envy", line.seat, line.position, wager, line.category.value,
                       line.category.label, money(line.amount), line.amount,
                       line.from_position, line.supervisor, "", line.text())


def payout_again(*, kind: str, seat: int, position: int, wager: int, category: str,
                 amount: int, from_position: int | None, supervisor: bool, note: str,
                 pays: PayCard) -> BonusPayout:
    """The line from the values the ledger's row keeps. Raises ValueError for a kind or a
    category no card has (a row no station wrote)."""
    found = Category(category)
    if kind == "bonus":
        return BonusPayout("bonus", seat, position, wager, found.value, found.label,
                           pays.pays_text(found), amount, None, supervisor, note,
                           bonus_text(seat, position, wager, found, pays.pays_text(found),
                                      amount, note))
    if kind == "envy" and from_position is not None:
        return BonusPayout("envy", seat, position, wager, found.value, found.label,
                           money(amount), amount, from_position, supervisor, note,
                           envy_text(seat, found, from_position, amount))
    raise ValueError(f"a bonus line of kind {kind!r} (from {from_position}) is no line a "
                     f"station writes")
