"""Settlement slips as a PDF for the shift report (fpdf2): one slip or a whole shift.

Each slip is a block that is never split across pages: the table, round and time, action
and the bank, a table of every position in order from action (hands low | high, who set
them and the House Way rule, against the bank, outcome, wager, commission, net), the notes
(fouls, the bank running out), the player banker's account and the totals. With more than
one slip the report ends with the shift's totals, round by round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from fpdf import FPDF
from fpdf.fonts import FontFace
from fpdf.recorder import FPDFRecorder

from app.core.settlement import bonus_groups, progressive_line_words

from .layout import (
    action_lines,
    bank_text,
    money,
    played,
    position_notes,
    read_slip,
    result_text,
    rule_rows,
    set_by_text,
    slip_time,
    versus_text,
)

if TYPE_CHECKING:
    from app.core.settlement import BonusDict, SlipDict

_Total = Literal["wagers_cents", "commission_cents", "players_net_cents", "banker_net_cents",
                 "house_net_cents"]

FONT = "Helvetica"
HEAD = FontFace(emphasis="BOLD", fill_color=(225, 225, 225))
_COLUMNS = (("Position", 32), ("Low", 14), ("High", 29), ("Set by", 29), ("vs bank", 16),
            ("Result", 19), ("Wager", 19), ("Comm.", 16), ("Net", 20))


class _Report(FPDF):
    report_title = "Pai Gow Poker - settlement slips"
    printed = ""

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, size=7)
        self.cell(0, 5, f"{self.report_title}   printed {self.printed}   page "
                        f"{self.page_no()}/{{nb}}", align="C")


def _when(s: SlipDict, time: datetime | None) -> str:
    t = time or slip_time(s)
    return t.strftime("%Y-%m-%d %H:%M:%S") if t else ""


def _slip(pdf: FPDF | FPDFRecorder, s: SlipDict, time: datetime | None) -> None:
    width = pdf.epw
    pdf.set_font(FONT, "B", 12)
    pdf.cell(width - 40, 7, f"Table {s['table']}  -  Round {s['round']}")
    pdf.set_font(FONT, size=9)
    pdf.cell(40, 7, _when(s, time), align="R", new_x="LMARGIN", new_y="NEXT")
    action = action_lines(s)
    pdf.multi_cell(width, 4.5, f"Action: {action[0]}, {action[1]}, {action[2]}.   "
                               f"Bank: {bank_text(s['bank'])}.   In order from action "
                               f"({s['action']['direction']}).",
                   new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    pdf.set_font(FONT, size=8)
    notes: list[str] = []
    with pdf.table(col_widths=[w for _, w in _COLUMNS], width=sum(w for _, w in _COLUMNS),
                   text_align=("LEFT", "LEFT", "LEFT", "LEFT", "LEFT", "LEFT", "RIGHT",
                               "RIGHT", "RIGHT"),
                   headings_style=HEAD, line_height=4.2, align="LEFT") as table:
        table.row([name for name, _ in _COLUMNS])
        for p in s["positions"]:
            name = p["name"]
            if not played(p):
                row = table.row()
                row.cell(name)
                row.cell(p["cards"], colspan=2)
                for text in ("not played", "", result_text(p), "", "", ""):
                    row.cell(text)
                continue
            money_cells = (["", "", ""] if p["role"] == "bank" else
                           [money(p["wager_cents"]), money(p["commission_cents"]),
                            money(p["net_cents"], sign=True)])
            table.row([name, p["low"] or "", p["high"] or "", set_by_text(p), versus_text(p),
                       result_text(p), *money_cells])
            notes += [f"{name}: {n}" for n in position_notes(p)]
    pdf.set_font(FONT, size=8)
    for note in notes:
        pdf.multi_cell(width, 4, note, new_x="LMARGIN", new_y="NEXT")
    b, t = s["bank"], s["totals"]
    pdf.ln(1)
    pdf.set_font(FONT, size=8.5)
    if b["player"] is not None:
        bank = [("bank at start", money(b["stake_cents"] or 0)),
                ("collected", money(b["collected_cents"])),
                ("paid", money(b["paid_cents"])),
                ("banker's commission", money(b["commission_cents"]))]
        if b["co_bank"]:
            bank.append(("house's half", money(b["house_share_cents"], sign=True)))
        who = f"seat {b['player']}" + (" with the house" if b["co_bank"] else "")
        ran_out = "   The bank ran out: later winners were returned." if b["exhausted"] else ""
        pdf.multi_cell(width, 4.5, f"**Player banker ({who}):** " + "   ".join(
            f"{label} {value}" for label, value in bank) + ran_out, markdown=True,
            new_x="LMARGIN", new_y="NEXT")
    rows: list[tuple[str, str]] = [("Wagers", money(t["wagers_cents"])),
             ("Commission", money(t["commission_cents"])),
             ("Players net", money(t["players_net_cents"], sign=True))]
    if b["player"] is not None:
        rows.append((f"Player banker (seat {b['player']}) net",
                     money(t["banker_net_cents"], sign=True)))
    rows.append(("House net", money(t["house_net_cents"], sign=True)))
    pdf.multi_cell(width, 4.5, "**Totals:** " + "   ".join(
        f"{label} {value}" for label, value in rows), markdown=True,
        new_x="LMARGIN", new_y="NEXT")
    bonus = s.get("bonus")
    if bonus is not None:
        _bonus(pdf, bonus, width)
    progressive = s.get("progressive")
    if progressive is not None:  # each seat's wager, a hit and what the meter paid
        pdf.ln(1)
        pdf.multi_cell(width, 4.5, f"**Progressive ({progressive['title']}):** wagers "
                                   f"{money(progressive['wagers_cents'])}", markdown=True,
                       new_x="LMARGIN", new_y="NEXT")
        for x in progressive["lines"]:
            pdf.multi_cell(width, 4.2, progressive_line_words(x), new_x="LMARGIN",
                           new_y="NEXT")
    left = s["leftovers"] + ("" if s["leftovers_counted"] else " (not read)")
    pdf.set_font(FONT, size=7.5)
    pdf.multi_cell(width, 4, f"Leftovers: {left}.   " + "   ".join(
        f"{label}: {value}." for label, value in rule_rows(s)), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)


_BONUS_COLUMNS = (("Bonus", 32), ("Seat net", 22), ("Each line, in the order paid", 120),
                  ("Paid", 20))


def _bonus(pdf: FPDF | FPDFRecorder, bonus: BonusDict, width: float) -> None:
    """The bonus and envy a seat at a time, in the order paid, in the core's words
    (`bonus_groups`, as the felt and the receipt show them); its money apart."""
    card = bonus["pay_card"] + (f", envy {bonus['envy_card']}" if bonus["envy_card"] else "")
    pdf.ln(1)
    pdf.multi_cell(width, 4.5, f"**Bonus ({card}):**", markdown=True, new_x="LMARGIN",
                   new_y="NEXT")
    pdf.set_font(FONT, size=8)
    with pdf.table(col_widths=[w for _, w in _BONUS_COLUMNS],
                   width=sum(w for _, w in _BONUS_COLUMNS),
                   text_align=("LEFT", "RIGHT", "LEFT", "RIGHT"), headings_style=HEAD,
                   line_height=4.2, align="LEFT") as table:
        table.row([name for name, _ in _BONUS_COLUMNS])
        for group in bonus_groups(bonus):
            for n, x in enumerate(group.lines):
                first = n == 0
                table.row([group.title if first else "",
                           money(group.net, sign=True) if first else "",
                           x.words + (f" ({x.approved})" if x.approved else ""),
                           money(x.amount, sign=True)])
    pdf.set_font(FONT, size=8.5)
    pdf.multi_cell(width, 4.5, f"**Bonus totals:** Bonus wagers {money(bonus['wagers_cents'])}"
                               f"   Bonus players net {money(bonus['net_cents'], sign=True)}"
                               f"   Bonus house net {money(-bonus['net_cents'], sign=True)}",
                   markdown=True, new_x="LMARGIN", new_y="NEXT")


def _summary(pdf: FPDF | FPDFRecorder, slips: Sequence[tuple[SlipDict, datetime | None]]) -> None:
    pdf.set_font(FONT, "B", 12)
    pdf.cell(0, 8, f"Shift totals: {len(slips)} rounds", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, size=8.5)
    keys: tuple[_Total, ...] = ("wagers_cents", "commission_cents", "players_net_cents",
                                "banker_net_cents", "house_net_cents")
    sums = dict.fromkeys(keys, 0)
    with pdf.table(col_widths=(22, 16, 38, 24, 22, 24, 24, 24), headings_style=HEAD,
                   text_align=("LEFT", "LEFT", "LEFT", "RIGHT", "RIGHT", "RIGHT", "RIGHT",
                               "RIGHT"), line_height=4.5, align="LEFT",
                   width=194) as table:
        table.row(["Table", "Round", "Time", "Wagers", "Commission", "Players net",
                   "Banker net", "House net"])
        for s, time in slips:
            t = s["totals"]
            for k in keys:
                sums[k] += t[k]
            table.row([s["table"], str(s["round"]), _when(s, time), money(t["wagers_cents"]),
                       money(t["commission_cents"]), money(t["players_net_cents"], True),
                       money(t["banker_net_cents"], True), money(t["house_net_cents"], True)])
        table.row(["Shift", "", "", money(sums["wagers_cents"]),
                   money(sums["commission_cents"]), money(sums["players_net_cents"], True),
                   money(sums["banker_net_cents"], True), money(sums["house_net_cents"], True)],
                  style=FontFace(emphasis="BOLD"))


def slips_pdf(slips: Iterable[object], *, times: Sequence[datetime | None] | None = None,
              title: str | None = None, now: datetime | None = None) -> bytes:
    """The slips (each a `Slip` or its `to_dict()` form) as a PDF, in the order given.

    `times[i]` is the time printed for slip i (default: its `settled_at`)."""
    checked = [read_slip(s) for s in slips]
    if not checked:
        raise ValueError("a shift report needs at least one slip")
    when = list(times) if times is not None else [None] * len(checked)
    if len(when) != len(checked):
        raise ValueError("give one time for each slip")
    pdf = _Report(format="A4")
    pdf.report_title = title or ("Pai Gow Poker - settlement slip" if len(checked) == 1
                                 else "Pai Gow Poker - shift report")
    printed = now or datetime.now().astimezone()
    pdf.printed = printed.strftime("%Y-%m-%d %H:%M")
    pdf.set_title(pdf.report_title)
    pdf.set_creator("paigow dealer station")
    pdf.set_creation_date(printed)
    pdf.set_margins(8, 10, 8)
    pdf.set_auto_page_break(True, margin=15)
    pdf.add_page()
    pdf.set_font(FONT, "B", 15)
    pdf.cell(0, 9, pdf.report_title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    for s, time in zip(checked, when, strict=True):
        with pdf.offset_rendering() as trial:
            _slip(trial, s, time)
        if trial.page_break_triggered:
            pdf.add_page()
        _slip(pdf, s, time)
    if len(checked) > 1:
        with pdf.offset_rendering() as trial:
            _summary(trial, list(zip(checked, when, strict=True)))
        if trial.page_break_triggered:
            pdf.add_page()
        _summary(pdf, list(zip(checked, when, strict=True)))
    return bytes(pdf.output())


def write_pdf(path: str | Path, slips: Iterable[object], *,
              times: Sequence[datetime | None] | None = None, title: str | None = None,
              now: datetime | None = None) -> Path:
    """Write the PDF of `slips` to `path` (see `slips_pdf`)."""
    out = Path(path)
    out.write_bytes(slips_pdf(slips, times=times, title=title, now=now))
    return out


def slip_file(folder: str | Path, slip: object, *, time: datetime | None = None,
              mark: str | None = None) -> Path:
    """Write one slip as its own PDF in `folder` (made if missing): Round-12.pdf, and
    Round-12-2.pdf for a second copy, never over an earlier one. `mark` (REPRINT, PRINTED
    LATE) goes in the title."""
    s = read_slip(slip)
    out = Path(folder).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    name = f"Round-{s['round']}"
    path, n = out / f"{name}.pdf", 1
    while path.exists():
        n += 1
        path = out / f"{name}-{n}.pdf"
    title = "Pai Gow Poker - settlement slip"
    if mark:
        title += " - " + " ".join(mark.split())
    data = slips_pdf([s], times=[time], title=title)
    with open(path, "xb") as f:  # "x": a slip written meanwhile is never overwritten
        f.write(data)
    return path
