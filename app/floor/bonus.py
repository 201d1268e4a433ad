"""The bonus and envy as the floor shows them (issue 26): a round's lines on the table's
page and the money on the shift report, read from what the ledger keeps. The amounts are
the round's `bonus_settlements` rows (every line in the order paid; migration 0014), or,
for a round settled before them, its slip's `bonus`; who approved the big ones is the
slip's; the hold for a supervisor is the round's `bonus_held` record, the approval its
`bonus_approved` record. The bonus is the house's money apart from the Pai Gow wagers: it
is never mixed into the drop, the win or the commission."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.core.settlement import money
from app.core.table import position_name
from app.ledger.models import BonusSettlementRow


@dataclass(frozen=True)
class BonusRow:
    """One bonus or envy line of a round, in the order paid."""

    seat: str
    kind: str  # "bonus" or "envy"
    hand: str  # the hand it pays on; envy: whose
    pays: str
    wager: str
    amount: str
    approved: str  # "approved by NAME" on a line that waited for a supervisor
    note: str


@dataclass(frozen=True)
class RoundBonus:
    """A settled round's bonus as the table's page shows it."""

    cards: str  # "fortune-8000, envy envy-5000"
    rows: tuple[BonusRow, ...]
    held: str  # "" or the payouts that waited for a supervisor, and who approved them
    totals: str


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _lines(bonus: Mapping[str, object]) -> list[Mapping[str, object]]:
    lines = bonus.get("lines")
    return [x for x in lines if isinstance(x, Mapping)] if isinstance(lines, list) else []


def slip_bonus(slip: Mapping[str, object] | None) -> Mapping[str, object] | None:
    """The slip's bonus, None for a round with no bonus wager (or one from before it)."""
    bonus = (slip or {}).get("bonus")
    return bonus if isinstance(bonus, Mapping) else None


def round_bonus(slip: Mapping[str, object] | None,
                records: Sequence[Mapping[str, object]]) -> RoundBonus | None:
    """The round's bonus lines, the payouts held for a supervisor (its records) and who
    approved them."""
    bonus = slip_bonus(slip)
    if bonus is None:
        return None
    approved_by = bonus.get("approved_by")
    rows = []
    for x in _lines(bonus):
        envy = x.get("kind") == "envy"
        src = x.get("from_position")
        hand = str(x.get("hand", "?")) + (f" at {position_name(_int(src))}" if envy else "")
        if not envy and x.get("position") != x.get("seat"):
            hand += f" (the dragon hand at {position_name(_int(x.get('position')))})"
        rows.append(BonusRow(
            seat=position_name(_int(x.get("seat"))), kind="envy" if envy else "bonus",
            hand=hand, pays=str(x.get("pays", "")),
            wager="" if envy else money(_int(x.get("wager_cents"))),
            amount=money(_int(x.get("amount_cents")), sign=True),
            approved=f"approved by {approved_by}" if x.get("supervisor") and approved_by
            else "", note=str(x.get("note") or "")))
    held = []
    for r in records:
        if r.get("type") == "bonus_held":
            held.append("held for a supervisor, the floor told: " + "; ".join(
                str(x.get("text")) for x in _lines(r)))
        elif r.get("type") == "bonus_approved":
            held.append(f"approved by {r.get('supervisor')}")
    cards = str(bonus.get("pay_card", "")) + (f", envy {bonus['envy_card']}"
                                              if bonus.get("envy_card") else "")
    net = _int(bonus.get("net_cents"))
    return RoundBonus(cards, tuple(rows), "; ".join(held),
                      f"bonus wagers {money(_int(bonus.get('wagers_cents')))}, players net "
                      f"{money(net, sign=True)}, house net {money(-net, sign=True)}")


@dataclass
class BonusTotals:
    """The bonus money over many rounds: a line of the shift report."""

    rounds: int = 0  # rounds settled with a bonus wager
    wagers_cents: int = 0
    paid_cents: int = 0  # the bonuses the players won
    envy_cents: int = 0  # the envy paid
    win_cents: int = 0  # what the house won on the bonus and the envy (its own net)
    approved: int = 0  # payouts that waited for a supervisor
    approvers: set[str] = field(default_factory=set)

    def add_rows(self, rows: Sequence[BonusSettlementRow], approved_by: str | None) -> None:
        """A round's bonus as its rows hold it (in the order paid)."""
        self.rounds += 1
        for r in rows:
            self.wagers_cents += r.wager_cents if r.kind == "bonus" else 0
            self.win_cents -= r.paid_cents
            if r.kind == "envy":
                self.envy_cents += max(r.paid_cents, 0)
            else:
                self.paid_cents += max(r.paid_cents, 0)
            self.approved += r.supervisor
        if approved_by:
            self.approvers.add(approved_by)

    def add(self, bonus: Mapping[str, object]) -> None:
        """A round's bonus as a slip settled before the rows keeps it."""
        self.rounds += 1
        self.wagers_cents += _int(bonus.get("wagers_cents"))
        self.win_cents -= _int(bonus.get("net_cents"))
        for x in _lines(bonus):
            won = max(_int(x.get("amount_cents")), 0)
            if x.get("kind") == "envy":
                self.envy_cents += won
            else:
                self.paid_cents += won
            self.approved += bool(x.get("supervisor"))
        who = bonus.get("approved_by")
        if isinstance(who, str) and who:
            self.approvers.add(who)

    @property
    def hold(self) -> str:
        if not self.wagers_cents:
            return "-"
        return f"{100 * self.win_cents / self.wagers_cents:.1f}%"

    def cells(self) -> list[str]:
        return [str(self.rounds), money(self.wagers_cents), money(self.paid_cents),
                money(self.envy_cents), money(self.win_cents, sign=True), self.hold,
                str(self.approved), ", ".join(sorted(self.approvers)) or "-"]


HEADER = ["bonus rounds", "bonus wagers", "bonus paid", "envy paid", "bonus win/loss",
          "bonus hold", "big payouts approved", "approved by"]
