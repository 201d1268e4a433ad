"""The casino's gaming day and its shifts, as the shift report counts them.

A gaming day is not a calendar day: it starts at a fixed local time (06:00 by default), so
the night's play after midnight belongs to the day that began the evening before. The day
is cut into shifts at fixed local times. Both come from the config's `[floor]` section
(app/settings.py checks them as it loads); local means the floor's time zone, the
machine's own unless `time_zone` names one. Daylight saving is the zone's: a gaming day
is 23 or 25 hours long on the nights the clocks change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_CLOCK = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def clock(text: str) -> time:
    """"06:00" as a time of day; anything else refused with how to write it."""
    found = _CLOCK.match(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{text!r} is not a time of day: write it as HH:MM on a 24-hour "
                         f"clock, in quotes (e.g. \"06:00\")")
    return time(int(found.group(1)), int(found.group(2)))


def zone(name: str) -> tzinfo | None:
    """The named time zone ("America/Chicago"); None for the machine's own ("")."""
    if not name.strip():
        return None
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not a time zone this machine knows: write one such "
                         f"as \"America/Chicago\", or leave it empty for the machine's "
                         f"own") from None


def _minutes_after(start: time, t: time) -> int:
    return (t.hour * 60 + t.minute - start.hour * 60 - start.minute) % (24 * 60)


@dataclass(frozen=True)
class GamingDay:
    """When the gaming day starts and where its shifts change, in the floor's local time."""

    starts: time = time(6, 0)
    shift_changes: tuple[time, ...] = (time(14, 0), time(22, 0))
    tz: tzinfo | None = None  # None: the machine's own

    def __post_init__(self) -> None:
        after = [_minutes_after(self.starts, t) for t in self.shift_changes]
        if any(m == 0 for m in after):
            raise ValueError("a shift change falls on the gaming day's start: the first "
                             "shift starts with the day, so list only the later changes")
        if after != sorted(after) or len(set(after)) != len(after):
            raise ValueError("write the shift changes in the order they come after the "
                             "gaming day's start, each once (e.g. [\"14:00\", \"22:00\"] "
                             "for a day starting at 06:00)")

    @classmethod
    def of(cls, starts: str, shift_changes: list[str] | tuple[str, ...],
           time_zone: str = "") -> GamingDay:
        return cls(clock(starts), tuple(clock(t) for t in shift_changes), zone(time_zone))

    def _at(self, day: date, t: time) -> datetime:
        """`t` on the gaming day `day` (a time before the day's start is the next morning),
        in UTC."""
        when = datetime.combine(day, t)
        if _minutes_after(time(0, 0), t) < _minutes_after(time(0, 0), self.starts):
            when += timedelta(days=1)
        local = when.replace(tzinfo=self.tz) if self.tz is not None else when.astimezone()
        return local.astimezone(UTC)

    def window(self, day: date) -> tuple[datetime, datetime]:
        """The gaming day `day` from its start to the next one's, in UTC."""
        return self._at(day, self.starts), self._at(day + timedelta(days=1), self.starts)

    @property
    def shift_count(self) -> int:
        return len(self.shift_changes) + 1

    def shift_window(self, day: date, shift: int) -> tuple[datetime, datetime]:
        """Shift `shift` (1 is the first of the day) of the gaming day `day`, in UTC."""
        bounds = [self.starts, *self.shift_changes]
        since = self._at(day, bounds[shift - 1])
        until = self._at(day, bounds[shift]) if shift < len(bounds) else self.window(day)[1]
        return since, until

    def shift_words(self, shift: int) -> str:
        bounds = [self.starts, *self.shift_changes, self.starts]
        return f"shift {shift} ({bounds[shift - 1]:%H:%M}-{bounds[shift]:%H:%M})"

    def day_of(self, at: datetime) -> date:
        """The gaming day that `at` falls in."""
        local = at.astimezone(self.tz) if self.tz is not None else at.astimezone()
        start = datetime.combine(local.date(), self.starts)
        return local.date() - timedelta(days=1) if local.replace(tzinfo=None) < start \
            else local.date()

    def zone_words(self) -> str:
        return str(self.tz) if self.tz is not None else "this machine's time"
