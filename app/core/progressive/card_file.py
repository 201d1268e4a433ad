"""A linked progressive as a data card (TOML), checked when loaded (issue 27):

    title = "Linked Pai Gow progressive"
    source = "where the pay table is posted"
    kind = "progressive"
    wager = "$1"                # every progressive wager is this amount
    meter-share = "70%"         # of each wager, onto the meter
    reserve-share = "10%"       # of each wager, kept for the next seed; the rest the house's
    seed = "$10,000"            # where the meter starts, and never stays below
    reset = "seed"              # or "seed-and-reserve": the whole reserve on after a hit
    two-hits = "in-order"       # or "split": one round's hits of a category share it
    tables = ["PG-1", "PG-2"]   # the linked tables; leave it out to link every table
    # categories = [...]        # optional, from the top (four of a kind and up if left out)
    [pays]                      # a share of the meter, or a fixed amount the house pays
    natural-seven-card-straight-flush = "100%"
    five-aces = "10%"
    four-of-a-kind = "$75"

Every problem names the file, the line and what to write, all at once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypeVar

from ..bonus.card_file import (
    AMOUNT_EXAMPLE,
    CardReader,
    card_head,
    card_pays,
    read_amount,
    read_card,
)
from ..bonus.categories import FORTUNE_CATEGORIES
from .card import (
    WHOLE_METER_BP,
    ProgressiveCard,
    ProgressiveCardError,
    ProgressivePay,
    Reset,
    TwoHits,
)

KEYS = ("title", "source", "kind", "categories", "pays", "notes", "wager", "meter-share",
        "reserve-share", "seed", "reset", "two-hits", "tables")
_PERCENT = re.compile(r"^\s*(\d{1,3})(?:\.(\d{1,2}))?\s*%\s*$")
PAY_EXAMPLE = f"a share of the meter like \"10%\", or {AMOUNT_EXAMPLE}"


def load_progressive_card(path: str | Path, name: str | None = None) -> ProgressiveCard:
    """Read and check a progressive card; raises ProgressiveCardError with every problem."""
    p = Path(path)
    r, data = read_card(p, ProgressiveCardError)
    if data.get("kind") != "progressive":
        raise ProgressiveCardError([f"{p}: a progressive card says kind = \"progressive\" "
                                    "at the top: add it"])
    order, title, source = card_head(r, data, KEYS, FORTUNE_CATEGORIES[:7])
    wager = _money(r, data, "wager", "$1")
    seed = _money(r, data, "seed", None)
    meter_bp = _share(r, data, "meter-share")
    reserve_bp = _share(r, data, "reserve-share")
    if meter_bp + reserve_bp > WHOLE_METER_BP:
        r.problem(r.find("reserve-share"), "meter-share and reserve-share add up to more "
                  "than 100% of the wager: lower one of them")
    if meter_bp == 0:
        r.problem(r.find("meter-share"), "meter-share is 0%: a meter that never grows is no "
                  "progressive; write the share, like \"70%\"")
    reset = _choice(r, data, "reset", Reset, Reset.SEED)
    two_hits = _choice(r, data, "two-hits", TwoHits, TwoHits.IN_ORDER)
    tables = _tables(r, data.get("tables"))
    pays = card_pays(r, data, order, _pay, PAY_EXAMPLE)
    if r.problems:
        raise ProgressiveCardError(r.problems)
    return ProgressiveCard(name or p.stem, title, source, wager, meter_bp, reserve_bp, seed,
                           reset, two_hits, tables, order,
                           tuple(ProgressivePay(c, *p) for c, p in pays.items()))


def _money(r: CardReader, data: dict[str, object], key: str, default: str | None) -> int:
    if key not in data and default is None:
        r.problem(None, f"the card has no {key}: add {key} = \"$10,000\" (an amount)")
        return 0
    return read_amount(r, key, data.get(key, default), r.find(key)) or 0


def _share(r: CardReader, data: dict[str, object], key: str) -> int:
    raw = data.get(key, "0%")
    bp = _basis_points(raw)
    if bp is None or bp > WHOLE_METER_BP:
        r.problem(r.find(key), f"{key} = {raw!r}: write a share of the wager from \"0%\" to "
                  "\"100%\", like \"70%\"")
        return 0
    return bp


def _basis_points(raw: object) -> int | None:
    m = _PERCENT.match(raw) if isinstance(raw, str) else None
    if m is None:
        return None
    whole, frac = m.groups()
    return int(whole) * 100 + int((frac or "0").ljust(2, "0"))


E = TypeVar("E", Reset, TwoHits)


def _choice(r: CardReader, data: dict[str, object], key: str, kind: type[E], default: E
            ) -> E:
    raw = data.get(key, default.value)
    for choice in kind:
        if choice.value == raw:
            return choice
    r.problem(r.find(key), f"{key} = {raw!r}: write one of "
              f"{' or '.join(repr(c.value) for c in kind)}")
    return default


def _tables(r: CardReader, raw: object) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw or not all(isinstance(t, str) and t.strip()
                                                       for t in raw):
        r.problem(r.find("tables"), "tables is a list of table names in quotes, like "
                  "[\"PG-1\", \"PG-2\"]; leave it out to link every table")
        return ()
    if len(set(raw)) != len(raw):
        r.problem(r.find("tables"), "a table is written twice in tables: keep one")
    return tuple(raw)


Pay = tuple[int | None, int | None]  # (share of the meter, fixed amount): one, the other None


def _pay(r: CardReader, key: str, v: object, line: int | None) -> Pay | None:
    if isinstance(v, str) and "%" in v:
        bp = _basis_points(v)
        if bp is None or not 0 < bp <= WHOLE_METER_BP:
            r.problem(line, f"{key} = {v!r}: a share of the meter is above 0% and at most "
                      "\"100%\", like \"10%\"")
            return None
        return bp, None
    cents = read_amount(r, key, v, line)
    return None if cents is None else (None, cents)
