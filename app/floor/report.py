"""The shift report, per table and per dealer: rounds, drop (wagers), win/loss, commission
taken, hold %, rounds with a player banker, fouls, voids, corrections; and the bonus apart
(its wagers, the bonus and envy paid, its hold, the payouts a supervisor approved). As a
page, CSV, PDF, and a chart drawn on the server (matplotlib, no JavaScript).

In the ledger's words (docs/ledger.md): drop is every wager put against the bank; win is
what the house won (the negative of what players and player bankers netted, commission
included); corrections count. Hold is win over drop.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from app.core.settlement import money
from app.ledger import anchors, reads
from app.ledger.chain import untrusted
from app.ledger.escape import csv_row
from app.ledger.models import BonusSettlementRow, HandRow, RoundRow, Shift

from . import bonus as bonus_mod
from .bonus import BonusTotals, slip_bonus

if TYPE_CHECKING:
    from fpdf import FPDF


def _bonus_rows(s: Session, round_ids: list[uuid.UUID]
                ) -> dict[uuid.UUID, list[BonusSettlementRow]]:
    """The rounds' bonus and envy rows, in the order paid; a row that is no record
    (chain.untrusted) is left out, as the settlements' totals leave theirs."""
    found: list[BonusSettlementRow] = []
    for start in range(0, len(round_ids), 500):
        found += s.scalars(select(BonusSettlementRow).where(
            BonusSettlementRow.round_id.in_(round_ids[start:start + 500]))
            .order_by(BonusSettlementRow.round_id, BonusSettlementRow.line_no))
    forged = untrusted(s.connection(), "bonus_settlements", [str(r.id) for r in found])
    out: dict[uuid.UUID, list[BonusSettlementRow]] = defaultdict(list)
    for r in found:
        if str(r.id) not in forged:
            out[r.round_id].append(r)
    return out


def _add_bonus(r: RoundRow, rows: list[BonusSettlementRow], to: tuple[Line, ...]) -> None:
    """A settled round's bonus: its rows, or a slip settled before them (most rounds have
    none: their slip is not parsed)."""
    kept = r.slip_json if r.slip_json and '"bonus"' in r.slip_json else None
    bonus = slip_bonus(json.loads(kept)) if kept else None
    for line in to:
        if rows:
            who = bonus.get("approved_by") if bonus is not None else None
            line.bonus.add_rows(rows, who if isinstance(who, str) else None)
        elif bonus is not None and "lines" in bonus:
            line.bonus.add(bonus)


@dataclass
class Line:
    name: str
    rounds: int = 0
    drop_cents: int = 0
    win_cents: int = 0
    commission_cents: int = 0
    player_banker_rounds: int = 0
    fouls: int = 0
    voids: int = 0
    corrections: int = 0
    bonus: BonusTotals = field(default_factory=BonusTotals)  # apart from the Pai Gow money

    @property
    def hold(self) -> str:
        if not self.drop_cents:
            return "-"
        return f"{100 * self.win_cents / self.drop_cents:.1f}%"

    def cells(self) -> list[str]:
        return [self.name, str(self.rounds), money(self.drop_cents),
                money(self.win_cents, sign=True), money(self.commission_cents), self.hold,
                str(self.player_banker_rounds), str(self.fouls), str(self.voids),
                str(self.corrections)]


# Column names begin with a capital, as the pit window's and the floor's other tables do.
HEADER = ["", "Rounds", "Drop", "Win/loss", "Commission", "Hold", "Player banker rounds",
          "Fouls", "Voids", "Corrections"]
BONUS_HEADER = [h[:1].upper() + h[1:] for h in bonus_mod.HEADER]


@dataclass
class Report:
    since: datetime
    until: datetime
    words: str  # what it covers: "gaming day 2026-11-27, shift 2 (14:00-22:00)"
    tables: list[Line] = field(default_factory=list)
    dealers: list[Line] = field(default_factory=list)
    total: Line = field(default_factory=lambda: Line("all tables"))
    # each table's chain head when the report was made: an anchor outside the database
    # (app/ledger/anchors.py), checked with `paigow ledger verify --head CODE`
    heads: list[str] = field(default_factory=list)

    @property
    def has_bonus(self) -> bool:
        return self.total.bonus.rounds > 0


def build(engine: Engine, since: datetime, until: datetime, words: str = "") -> Report:
    """The report over rounds settled (or voided) in [since, until). Drop, win and
    commission are the ledger's own totals (app.ledger.reads.totals), corrections counted,
    so the floor and `paigow ledger totals` never disagree."""
    by_table: dict[str, Line] = {}
    by_dealer: dict[str, Line] = {}
    total = Line("all tables")

    def lines(table: str, dealer: str) -> tuple[Line, Line, Line]:
        t = by_table.setdefault(table, Line(table))
        d = by_dealer.setdefault(dealer, Line(dealer))
        return t, d, total

    def money_of(line: Line, table: str | None, shift: str | None) -> None:
        t = reads.totals(s, reads.Filters(table, shift, None, None, since, until, "settled"))
        line.drop_cents += t.drop_cents
        line.win_cents += t.win_cents
        line.commission_cents += t.commission_cents
        line.corrections += t.corrections

    with Session(engine) as s:
        dealers = {k: v for k, v in s.execute(select(Shift.id, Shift.dealer)).all()}
        rounds = list(s.scalars(select(RoundRow).where(
            ((RoundRow.settled_at >= since) & (RoundRow.settled_at < until))
            | ((RoundRow.status == "void") & (RoundRow.started_at >= since)
               & (RoundRow.started_at < until)))))
        bonus_by_round = _bonus_rows(s, [r.id for r in rounds if r.status == "settled"])
        where: dict[object, tuple[str, str]] = {}
        shifts_of: defaultdict[str, set[str]] = defaultdict(set)
        for r in rounds:
            key = (r.table_name, dealers.get(r.shift_id, "?"))
            where[r.id] = key
            shifts_of[key[1]].add(str(r.shift_id))
            for line in lines(*key):
                if r.status == "void":
                    line.voids += 1
                    continue
                line.rounds += 1
                line.player_banker_rounds += r.banker_seat is not None
            if r.status == "settled":
                _add_bonus(r, bonus_by_round.get(r.id, []), lines(*key))
        fouls: defaultdict[uuid.UUID, int] = defaultdict(int)
        for rid in s.scalars(select(HandRow.round_id).where(HandRow.round_id.in_(list(where)),
                                                             HandRow.foul.is_not(None))):
            fouls[rid] += 1
        for rid, n in fouls.items():
            for line in lines(*where[rid]):
                line.fouls += n
        for name, line in by_table.items():
            money_of(line, name, None)
        for name, line in by_dealer.items():
            for shift in sorted(shifts_of[name]):
                money_of(line, None, shift)
        money_of(total, None, None)
        now_heads = anchors.heads(s.connection())
    words = words or f"{since:%Y-%m-%d %H:%M} to {until:%Y-%m-%d %H:%M} UTC"
    return Report(since, until, words, sorted(by_table.values(), key=lambda x: x.name),
                  sorted(by_dealer.values(), key=lambda x: x.name), total,
                  [now_heads[t].code for t in sorted(by_table) if t in now_heads])


def to_csv(rep: Report) -> str:
    """The report as CSV, each cell as the ledger's exports write it (`csv_cell`): a table or
    dealer named like a formula is text, and every amount (hold too) a number."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["by", "name", "rounds", "drop_cents", "win_cents", "commission_cents",
                "hold_percent", "player_banker_rounds", "fouls", "voids", "corrections",
                "bonus_rounds", "bonus_wagers_cents", "bonus_paid_cents", "envy_paid_cents",
                "bonus_win_cents", "bonus_hold_percent", "bonus_approved_payouts",
                "bonus_approved_by"])
    for by, rows in (("table", rep.tables), ("dealer", rep.dealers), ("total", [rep.total])):
        for x in rows:
            b = x.bonus
            w.writerow(csv_row([by, x.name, x.rounds, x.drop_cents, x.win_cents,
                                x.commission_cents, _percent(x.win_cents, x.drop_cents),
                                x.player_banker_rounds, x.fouls, x.voids, x.corrections,
                                b.rounds, b.wagers_cents, b.paid_cents, b.envy_cents,
                                b.win_cents, _percent(b.win_cents, b.wagers_cents),
                                b.approved, "; ".join(sorted(b.approvers))]))
    for code in rep.heads:
        w.writerow(csv_row(["ledger head", code]))
    return out.getvalue()


def _percent(win: int, drop: int) -> Decimal | None:
    # A Decimal, not text: a negative hold (the house lost) stays a number.
    return (Decimal(100 * win) / drop).quantize(Decimal("0.01")) if drop else None


def chart_png(rep: Report) -> bytes:
    """Drop and win per table, as a bar chart (drawn here: the browser runs no chart code)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3), dpi=90)
    ax = fig.add_subplot()
    names = [t.name for t in rep.tables] or ["(no rounds)"]
    drop = [t.drop_cents / 100 for t in rep.tables] or [0]
    win = [t.win_cents / 100 for t in rep.tables] or [0]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], drop, 0.4, label="drop", color="#4a6fa5")
    ax.bar([x + 0.2 for x in xs], win, 0.4, label="win/loss", color="#c0504d")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(list(xs), names)
    ax.set_ylabel("dollars")
    ax.set_title(f"Drop and win per table, {rep.words}")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def to_pdf(rep: Report) -> bytes:
    from fpdf import FPDF

    pdf = FPDF(orientation="L", format="A4")
    pdf.set_creator("paigow floor")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 9, f"Pai Gow Poker - shift report, {rep.words}",
             new_x="LMARGIN", new_y="NEXT")
    widths = (40, 18, 30, 30, 28, 18, 36, 16, 16, 24)
    for title, rows in (("Per table", [*rep.tables, rep.total]), ("Per dealer", rep.dealers)):
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "B", 8)
        for w, h in zip(widths, HEADER, strict=True):
            pdf.cell(w, 6, h, border=1)
        pdf.ln()
        pdf.set_font("Helvetica", "", 8)
        for x in rows:
            for w, c in zip(widths, x.cells(), strict=True):
                pdf.cell(w, 6, c, border=1)
            pdf.ln()
        pdf.ln(3)
    if rep.has_bonus:
        _pdf_bonus(pdf, rep)
    pdf.image(io.BytesIO(chart_png(rep)), w=180)
    if rep.heads:
        pdf.set_font("Helvetica", "", 8)
        pdf.cell(0, 6, "Ledger heads (paigow ledger verify --head CODE): "
                 + "; ".join(rep.heads), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _pdf_bonus(pdf: FPDF, rep: Report) -> None:
    """The bonus, per table and per dealer, in a table of its own (its money is not the
    Pai Gow drop's)."""
    widths = (40, 22, 26, 26, 26, 28, 20, 34, 34)
    for title, rows in (("Bonus and envy per table", [*rep.tables, rep.total]),
                        ("Bonus and envy per dealer", rep.dealers)):
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "B", 8)
        for w, h in zip(widths, ["", *BONUS_HEADER], strict=True):
            pdf.cell(w, 6, h, border=1)
        pdf.ln()
        pdf.set_font("Helvetica", "", 8)
        for x in rows:
            for w, c in zip(widths, [x.name, *x.bonus.cells()], strict=True):
                pdf.cell(w, 6, c, border=1)
            pdf.ln()
        pdf.ln(3)
