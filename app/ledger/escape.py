"""Text from the ledger made safe for where it goes out: a spreadsheet and a terminal.

Names and reasons in the ledger (a dealer, a table, a person, why a round was voided) are
typed by people and can be written by anyone who can write the database, so they are never
trusted to be plain words:

- `csv_cell`: a cell of an export (`paigow ledger export`, the floor's shift report). A text
  cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is one a spreadsheet
  would run as a formula (`=HYPERLINK(...)`, `=cmd|' /C calc'!A0`), so it is written with a
  single quote in front (the OWASP rule for CSV injection); the spreadsheet shows the text
  as typed. Only text is neutralised: an int or a Decimal is written as the number it is,
  so -2500 (a loss, in cents) is still a number a spreadsheet adds up (docs/ledger.md).
- `shown`: a name or a line for a terminal (`shown_lines`: several, their ends kept).
  Control characters (C0, DEL, C1: ESC starts the sequences that clear a screen, move the
  cursor or rewrite the title) are written as their escape, `\\x1b`, so a terminal shows
  them and obeys none. A line end inside a name is escaped too, so a name cannot make a
  line of its own (a false "MATCH").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

# OWASP, "CSV Injection": the characters a spreadsheet reads as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def csv_cell(value: object) -> object:
    """A value as an export's cell: numbers as numbers, everything else as text that no
    spreadsheet runs (None is an empty cell; a datetime is ISO 8601; a bool true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal | float):
        return value
    if value is None:
        return ""
    if isinstance(value, datetime | date):
        return value.isoformat()
    text = value if isinstance(value, str) else str(value)  # a UUID, say
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_row(values: Iterable[object]) -> list[object]:
    """Every cell of a row, as `csv_cell` writes it."""
    return [csv_cell(v) for v in values]


def shown(text: str) -> str:
    """`text` as one line a terminal shows and obeys nothing in: each control character
    (line ends included) written as its escape, e.g. ESC as \\x1b."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def shown_lines(text: str) -> str:
    """Several lines for a terminal: the line ends kept, every other control character
    escaped as `shown` does."""
    return "\n".join(shown(line) for line in text.split("\n"))
