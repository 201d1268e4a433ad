"""The linked progressive on the floor (issue 27, docs/progressive.md): the meter strip every
page shows (pushed live by the hub), and the progressive page's reads: the meter, reserve
and seed, the gaming day's contributions per shift and table, the hits, the audit, and the
meter's history as a chart (app/floor/meter_chart.py).

Plain reads over a SQLAlchemy session, in the pit's words, like views.py.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import cast

from num2words import num2words as _num2words
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.bonus.categories import Category
from app.core.gaming_day import GamingDay
from app.core.progressive import ProgressiveCard
from app.core.settlement import money, rate_text
from app.ledger import LedgerError, progressive
from app.ledger.models import ProgressiveMeter, ProgressiveMove, RoundRow, Station

from .meter_chart import Point, meter_svg

HITS_SHOWN = 50
_number_words = cast(Callable[[int], str], _num2words)  # the library has no type hints


def dollars_in_words(cents: int) -> str:
    """An amount as a cheque writes it: 'ten thousand and two dollars and ten cents'."""
    whole, part = divmod(cents, 100)
    text = f"{_number_words(whole)} dollar{'' if whole == 1 else 's'}"
    if part:
        text += f" and {_number_words(part)} cent{'' if part == 1 else 's'}"
    return text


def card_of(name: str) -> ProgressiveCard | None:
    """The meter's card, when it is one this program has (its title, pays and shares)."""
    try:
        return progressive.card_named(name)
    except LedgerError:
        return None


def title_of(name: str) -> str:
    card = card_of(name)
    return card.title if card is not None else name


@dataclass(frozen=True)
class MeterStrip:
    """A meter as every page shows it: its name in words, the amount in figures and words."""

    name: str
    title: str
    amount: str
    words: str
    seq: int
    dom_id: str


def strips(s: Session) -> list[MeterStrip]:
    rows = s.execute(select(ProgressiveMeter.name, ProgressiveMeter.amount_cents,
                            ProgressiveMeter.seq).order_by(ProgressiveMeter.name)).all()
    return [MeterStrip(name, title_of(name), money(amount), dollars_in_words(amount), seq,
                       "meter-" + "".join(c if c.isalnum() else "-" for c in name))
            for name, amount, seq in rows]


# --- the progressive page --------------------------------------------------------------------

@dataclass(frozen=True)
class Share:
    """Contributions summed: per table, per shift and table, or a total."""

    shift: str
    table: str
    rounds: int
    wagers: int
    wagered: str
    to_meter: str
    to_reserve: str


@dataclass(frozen=True)
class HitLine:
    when: str
    table: str
    round_no: str
    seat: str
    hand: str
    from_meter: str
    by_house: str
    before: str
    after: str
    supervisor: str


@dataclass
class MeterPage:
    name: str
    title: str
    amount: str
    words: str
    reserve: str
    seed: str
    moves: int
    pays: list[tuple[str, str]] = field(default_factory=list)
    shares: str = ""  # where each wager goes, in words
    exact: bool = False
    audit_lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    by_table: list[Share] = field(default_factory=list)
    by_shift: list[Share] = field(default_factory=list)
    hits: list[HitLine] = field(default_factory=list)
    chart: str = ""  # inline SVG
    chart_words: str = ""


def _local(at: datetime, gd: GamingDay) -> datetime:
    return at.astimezone(gd.tz) if gd.tz is not None else at.astimezone()


def _share(shift: str, table: str, rounds: int, wagers: int, wagered: int, to_meter: int,
           to_reserve: int) -> Share:
    return Share(shift, table, rounds, wagers, money(wagered), money(to_meter),
                 money(to_reserve))


def _contributions(s: Session, name: str, gd: GamingDay, day: date
                   ) -> tuple[list[Share], list[Share]]:
    """The gaming day's contributions per table, and per shift and table (each shift with
    its total)."""
    by_table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    by_shift: list[Share] = []
    for n in range(1, gd.shift_count + 1):
        since, until = gd.shift_window(day, n)
        rows = s.execute(
            select(Station.table_name, func.count(), func.sum(ProgressiveMove.wagers),
                   func.sum(ProgressiveMove.amount_cents),
                   func.sum(ProgressiveMove.to_meter_cents),
                   func.sum(ProgressiveMove.to_reserve_cents))
            .join(Station, Station.id == ProgressiveMove.station_id)
            .where(ProgressiveMove.meter == name, ProgressiveMove.kind == progressive.CONTRIBUTION,
                   ProgressiveMove.at >= since, ProgressiveMove.at < until)
            .group_by(Station.table_name).order_by(Station.table_name)).all()
        words = gd.shift_words(n).capitalize()
        total = [0, 0, 0, 0, 0]
        for table, *sums in rows:
            values = [int(v or 0) for v in sums]
            by_shift.append(_share(words, table, *values))
            for i, v in enumerate(values):
                by_table[table][i] += v
                total[i] += v
        if rows:
            by_shift.append(_share(words, "All tables", *total))
    tables = [_share("", t, *v) for t, v in sorted(by_table.items())]
    if len(tables) > 1:
        tables.append(_share("", "All tables",
                             *(sum(v[i] for v in by_table.values()) for i in range(5))))
    return tables, by_shift


def _hits(s: Session, name: str, gd: GamingDay) -> list[HitLine]:
    rows = s.execute(
        select(ProgressiveMove, Station.table_name, RoundRow.round_no)
        .join(Station, Station.id == ProgressiveMove.station_id)
        .join(RoundRow, RoundRow.id == ProgressiveMove.round_id, isouter=True)
        .where(ProgressiveMove.meter == name, ProgressiveMove.kind == progressive.HIT)
        .order_by(ProgressiveMove.meter_seq.desc()).limit(HITS_SHOWN)).all()
    out = []
    for m, table, round_no in rows:
        try:
            hand = Category(m.category).label if m.category else "-"
        except ValueError:
            hand = str(m.category)
        out.append(HitLine(
            when=f"{_local(m.at, gd):%Y-%m-%d %H:%M:%S}", table=table,
            round_no=str(round_no) if round_no is not None else "-",
            seat=f"seat {m.seat}" if m.seat is not None else "-", hand=hand[:1].upper() + hand[1:],
            from_meter=money(-m.to_meter_cents), by_house=money(m.house_paid_cents),
            before=money(m.meter_before_cents), after=money(m.meter_after_cents),
            supervisor=m.by or "-"))
    return out


def _history(s: Session, name: str, gd: GamingDay, since: datetime, until: datetime
             ) -> tuple[str, str]:
    """The meter over the gaming day as an inline SVG, and the same in a sentence."""
    start = s.execute(
        select(ProgressiveMove.meter_after_cents, ProgressiveMove.at)
        .where(ProgressiveMove.meter == name, ProgressiveMove.at < since)
        .order_by(ProgressiveMove.meter_seq.desc()).limit(1)).first()
    rows = s.execute(
        select(ProgressiveMove.at, ProgressiveMove.meter_after_cents, ProgressiveMove.kind)
        .where(ProgressiveMove.meter == name, ProgressiveMove.at >= since,
               ProgressiveMove.at < until)
        .order_by(ProgressiveMove.meter_seq)).all()
    points = [Point(since, start[0], False)] if start is not None else []
    points += [Point(at, amount, kind == progressive.HIT) for at, amount, kind in rows]
    if not points:
        return "", "No moves of the meter this gaming day."
    # from the day's start, or from the meter's first move when it opened that day (a meter
    # opened at 15:00 would otherwise be a line squeezed against the right edge)
    begin = points[0].at
    end = min(until, max(datetime.now(since.tzinfo), points[-1].at))
    # a span of minutes (a meter opened a moment ago) is told to the second
    clock = "%H:%M" if (end - begin).total_seconds() >= 3600 else "%H:%M:%S"
    svg = meter_svg(points, begin, end, lambda t: _local(t, gd).strftime(clock))
    hits = sum(p.hit for p in points)
    low, high = min(p.cents for p in points), max(p.cents for p in points)
    words = (f"From {money(points[0].cents)} at {_local(points[0].at, gd).strftime(clock)} "
             f"to {money(points[-1].cents)} at {_local(points[-1].at, gd).strftime(clock)}; lowest "
             f"{money(low)}, highest {money(high)}; {hits} hit{'s' if hits != 1 else ''}.")
    return svg, words


def _sums(t: progressive.Sums) -> list[str]:
    """The audit's sums in the pit's words (`paigow progressive audit` prints them for the
    auditor, in the ledger's)."""
    wagers = f"{t.wagers} wager{'' if t.wagers == 1 else 's'}"
    return [f"Seed {money(t.seed)} + contributions {money(t.contributions)} ({wagers}) "
            f"- hits {money(t.hits)} + from the reserve {money(t.reserve_moves)} + put "
            f"up by the house {money(t.house_seeds)} = {money(t.meter)}",
            f"Reserve: {money(t.to_reserve)} in - {money(t.reserve_moves)} put onto the "
            f"meter = {money(t.reserve)}. Fixed amounts paid by the house: "
            f"{money(t.fixed_paid)}."]


def meter_page(s: Session, name: str, gd: GamingDay, day: date) -> MeterPage | None:
    """Everything the progressive page says about one meter on the gaming day `day`."""
    reading = progressive.meter(s, name)
    if reading is None:
        return None
    card = card_of(name)
    found = progressive.audit(s, name, card)
    page = MeterPage(name=name, title=title_of(name), amount=money(reading.amount),
                     words=dollars_in_words(reading.amount), reserve=money(reading.reserve),
                     seed=money(reading.seed), moves=reading.seq, exact=found.exact,
                     audit_lines=_sums(found.sums), problems=found.problems)
    if card is not None:
        page.pays = [(p.category.label[:1].upper() + p.category.label[1:], p.text)
                     for p in card.pays]
        page.shares = (f"Each {money(card.wager)} wager puts {rate_text(card.meter_bp)} of "
                       f"it on the meter and {rate_text(card.reserve_bp)} into the reserve "
                       f"(the next seed); the rest is the house's.")
    page.by_table, page.by_shift = _contributions(s, name, gd, day)
    page.hits = _hits(s, name, gd)
    since, until = gd.window(day)
    page.chart, page.chart_words = _history(s, name, gd, since, until)
    return page


