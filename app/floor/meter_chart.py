"""The progressive meter's history as an inline SVG drawn on the server: a step line of the
meter after each move over the gaming day, hits marked. No JavaScript and no chart library;
the picture's coordinates are a 400 x 200 box the browser scales to the page, so its text
stays readable on a phone (390 px) and is not huge on a desktop (the page caps its width).

Thousands of moves a day are drawn as at most one column of the box each: the first, the
lowest, the highest and the last value that fell in it, so a hit's drop is never lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

W, H = 400, 200
LEFT, RIGHT, TOP, BOTTOM = 70, 12, 14, 34


@dataclass(frozen=True)
class Point:
    at: datetime
    cents: int  # the meter after the move
    hit: bool


def _dollars(cents: int) -> str:
    return f"${cents // 100:,}"


def meter_svg(points: Sequence[Point], since: datetime, until: datetime,
              clock: Callable[[datetime], str]) -> str:
    """The meter from `since` to `until` (points in the order of the moves; the first may
    be the meter as the period began)."""
    span = max((until - since).total_seconds(), 1.0)
    lowest = low = min(p.cents for p in points)
    highest = high = max(p.cents for p in points)
    if high == low:
        high, low = high + 100, max(0, low - 100)
    pad = (high - low) // 10
    low, high = max(0, low - pad), high + pad
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(at: datetime) -> int:
        t = min(max((at - since).total_seconds(), 0.0), span)
        return LEFT + round(t / span * plot_w)

    def y(cents: int) -> float:
        return round(TOP + (high - cents) / (high - low) * plot_h, 1)

    columns: dict[int, list[int]] = {}
    for p in points:
        columns.setdefault(x(p.at), []).append(p.cents)
    path: list[str] = []
    last: int | None = None
    for col in sorted(columns):
        values = columns[col]
        if last is not None:
            path.append(f"{col},{y(last)}")  # flat until this move
        for v in (values[0], min(values), max(values), values[-1]):
            path.append(f"{col},{y(v)}")
        last = values[-1]
    assert last is not None
    path.append(f"{x(until)},{y(last)}")
    hits = "".join(f'<circle cx="{x(p.at)}" cy="{y(p.cents)}" r="4" class="hit"/>'
                   for p in points if p.hit)
    label = f"The meter from {clock(since)} to {clock(until)}"
    return (
        f'<svg class="meter-chart" viewBox="0 0 {W} {H}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<title>{escape(label)}</title>'
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" class="plot"/>'
        # the labels name the highest and lowest the meter stood at, where they are (the
        # box has a margin: a label at its edge would name an amount the meter never was)
        f'<text x="{LEFT - 4}" y="{y(highest) + 5}" text-anchor="end">{_dollars(highest)}</text>'
        f'<text x="{LEFT - 4}" y="{y(lowest) + 5}" text-anchor="end">{_dollars(lowest)}</text>'
        f'<text x="{LEFT}" y="{H - 12}">{escape(clock(since))}</text>'
        f'<text x="{W - RIGHT}" y="{H - 12}" text-anchor="end">{escape(clock(until))}</text>'
        f'<polyline points="{" ".join(path)}" class="line"/>{hits}</svg>')
