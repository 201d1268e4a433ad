"""Bonus pay tables and envy tables as data cards (TOML), checked when loaded.

A pay table:

    title = "Fortune Pai Gow bonus, 8,000 to 1"
    source = "where the table is published"
    # categories = ["five-aces", "royal-flush", ...]   # optional: the card's own, from the top
    [pays]                                            # what each pays, to 1 ("push": no win)
    natural-seven-card-straight-flush = 8000
    # one line a category, from the top down to
    straight = 2

An envy table has `kind = "envy"`, an optional `qualifying-wager = "$5"` (the least bonus
wager that wins envy; $5 when not written) and its `[pays]` in dollars: `five-aces = "$250"`.

The categories a card uses are its `categories` list, from the top, or, when it has none,
the Fortune bonus's (envy: its top seven, down to four of a kind). A hand counts once, in
the first of the card's categories it makes; a hand that makes none loses (pay table) or
pays no envy. `[pays]` must name each of the card's categories once: a category missing,
unknown, written twice, one below a category that every hand of it makes (it would never
pay), or a pay that is not a whole number 1 or more (or "push") is refused, every problem
naming the file, the line and what to write.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..settlement import MoneyError, parse_money
from .categories import FORTUNE_CATEGORIES, IMPLIES, Category
from .paytable import BonusCardError, EnvyCard, EnvyRow, PayCard, PayRow

PAY_KEYS = ("title", "source", "kind", "categories", "pays", "notes")
ENVY_KEYS = (*PAY_KEYS, "qualifying-wager")
DEFAULT_QUALIFYING = 500  # the envy's usual $5 bonus wager
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"']+)\s*=")
_HEADER = re.compile(r"^\s*\[([^\]]*)\]")
_WORDS = {c.value: c for c in Category}


class CardReader:
    """One card file's text: where each key is written, and every problem found."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.problems: list[str] = []

    def problem(self, line: int | None, what: str) -> None:
        at = f"{self.path} line {line}" if line else str(self.path)
        self.problems.append(f"{at}: {what}")

    def find(self, needle: str) -> int | None:
        return next((n for n, t in enumerate(self.lines, 1) if t.strip().startswith(needle)),
                    None)

    def pays_lines(self) -> list[tuple[str, int]]:
        """Each key written under [pays], with its line, in the file's order."""
        out: list[tuple[str, int]] = []
        inside = False
        for n, text in enumerate(self.lines, 1):
            header = _HEADER.match(text)
            if header:
                inside = header.group(1).strip() == "pays"
                continue
            key = _KEY.match(text)
            if inside and key:
                out.append((key.group(1).strip("\"'"), n))
        return out


def read_card(path: Path, error: type[BonusCardError] = BonusCardError
              ) -> tuple[CardReader, dict[str, object]]:
    """The card's text and its TOML; `error` (with every problem) when either cannot be
    read, or a category is written twice under [pays]."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error([f"{path}: there is no such card file: check the name and the "
                              "folder"]) from None
    except (OSError, UnicodeDecodeError) as e:
        raise error([f"{path}: the card file cannot be read ({e}): check it is a "
                              "text file this station may read"]) from None
    r = CardReader(path, text)
    _duplicates(r)  # before tomllib, whose own message for them names no category
    if r.problems:
        raise error(r.problems)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error([f"{path}: not valid TOML ({e}): correct that line (one "
                              "category = pay a line, words in double quotes)"]) from None
    return r, data


def _duplicates(r: CardReader) -> None:
    first: dict[str, int] = {}
    for key, line in r.pays_lines():
        if key in first:
            r.problem(line, f"{key} is written twice (first on line {first[key]}): keep one")
        first.setdefault(key, line)


def load_pay_card(path: str | Path, name: str | None = None) -> PayCard:
    """Read and check a bonus pay table; raises BonusCardError with every problem."""
    p = Path(path)
    r, data = read_card(p)
    if data.get("kind", "bonus") != "bonus":
        raise BonusCardError([f"{p}: this is an {data.get('kind')} table, not a bonus pay "
                              "table: name it as the envy table"])
    order, title, source = card_head(r, data, PAY_KEYS, FORTUNE_CATEGORIES)
    pays = card_pays(r, data, order, _to_one, TO_ONE_EXAMPLE)
    rows = tuple(PayRow(c, v) for c, v in pays.items())
    if r.problems:
        raise BonusCardError(r.problems)
    return PayCard(name or p.stem, title, source, order, rows)


def load_envy_card(path: str | Path, name: str | None = None) -> EnvyCard:
    """Read and check an envy table; raises BonusCardError with every problem."""
    p = Path(path)
    r, data = read_card(p)
    if data.get("kind") != "envy":
        raise BonusCardError([f"{p}: an envy table says kind = \"envy\" at the top: add it "
                              "(or name this card as the bonus pay table)"])
    order, title, source = card_head(r, data, ENVY_KEYS, FORTUNE_CATEGORIES[:7])
    qualifying = DEFAULT_QUALIFYING
    if "qualifying-wager" in data:
        amount = read_amount(r, "qualifying-wager", data["qualifying-wager"],
                         r.find("qualifying-wager"))
        qualifying = amount if amount is not None else qualifying
    pays = card_pays(r, data, order, read_amount, AMOUNT_EXAMPLE)
    rows = tuple(EnvyRow(c, v) for c, v in pays.items())
    if r.problems:
        raise BonusCardError(r.problems)
    return EnvyCard(name or p.stem, title, source, order, rows, qualifying)


def card_head(r: CardReader, data: dict[str, object], keys: tuple[str, ...],
          default: tuple[Category, ...]) -> tuple[tuple[Category, ...], str, str]:
    for key in data:
        if key not in keys:
            r.problem(r.find(key), f"{key!r} is not a key of this card; the keys are "
                      f"{', '.join(keys)}")
    title, source = data.get("title"), data.get("source")
    if not isinstance(title, str) or not title.strip():
        r.problem(None, "the card has no title: add title = \"...\" at the top")
    if not isinstance(source, str) or not source.strip():
        r.problem(None, "the card names no source: add source = \"...\" (where the table is "
                  "posted or published)")
    order = card_categories(r, data.get("categories"), default)
    return order, str(title or ""), str(source or "")


def card_categories(r: CardReader, raw: object, default: tuple[Category, ...]
                ) -> tuple[Category, ...]:
    if raw is None:
        return default
    line = r.find("categories")
    if not isinstance(raw, list) or not raw or not all(isinstance(w, str) for w in raw):
        r.problem(line, "categories is a list of category names in quotes, from the top")
        return default
    order: list[Category] = []
    for word in raw:
        category = category_word(r, word, line)
        if category is None:
            continue
        if category in order:
            r.problem(line, f"{word} is written twice in categories: keep one")
        elif category is Category.NOTHING:
            r.problem(line, "nothing is what is left when no category is made: take it out")
        else:
            order.append(category)
    for i, above in enumerate(order):
        for below in order[:i]:
            if below in IMPLIES.get(above, ()):
                r.problem(line, f"{above.value} is below {below.value}, so it would never "
                          f"pay (every {above.label} is a {below.label}): move it above "
                          f"{below.value}")
    return tuple(order)


def category_word(r: CardReader, word: str, line: int | None) -> Category | None:
    category = _WORDS.get(word)
    if category is None:
        near = difflib.get_close_matches(word, _WORDS, n=1)
        hint = f"did you mean {near[0]}? " if near else ""
        r.problem(line, f"{word!r} is not a category: {hint}the categories are "
                  f"{', '.join(c.value for c in Category if c is not Category.NOTHING)}")
    return category


T = TypeVar("T")
Reading = Callable[[CardReader, str, object, int | None], T | None]


def card_pays(r: CardReader, data: dict[str, object], order: tuple[Category, ...],
              value: Reading[T], example: str) -> dict[Category, T]:
    """Each category's pay under [pays], read by `value`; every problem noted in `r`.
    `example` is what to write for a missing line."""
    raw = data.get("pays")
    header = r.find("[pays]")
    if not isinstance(raw, dict):
        r.problem(header, "the card has no [pays] table: add [pays] and one line a category, "
                  "like straight = 2")
        return {}
    lines = dict(r.pays_lines())
    found: dict[Category, T] = {}
    for key, v in raw.items():
        line = lines.get(key, header)
        if key == Category.NOTHING.value:
            r.problem(line, "nothing always loses: take the line out")
            continue
        category = category_word(r, key, line)
        if category is None:
            continue
        if category not in order:
            r.problem(line, f"{key} is not among this card's categories: add it to "
                      f"categories (where it ranks) or take the line out")
            continue
        parsed = value(r, key, v, line)
        if parsed is not None:
            found[category] = parsed
    for category in order:
        if category.value not in raw:
            r.problem(header, f"{category.value} is missing: add {category.value} = "
                      f"{example} under [pays]")
    return {c: found[c] for c in order if c in found}


TO_ONE_EXAMPLE = "what it pays to 1 (or \"push\")"
AMOUNT_EXAMPLE = "the amount, like \"$5.00\""


def _to_one(r: CardReader, key: str, v: object, line: int | None) -> int | None:
    if v == "push":
        return 0
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        r.problem(line, f"{key} = {v!r}: write what it pays to 1, a whole number 1 or more "
                  "(8000 for 8,000 to 1), or \"push\" when the wager only comes back")
        return None
    return v


def read_amount(r: CardReader, key: str, v: object, line: int | None) -> int | None:
    try:
        cents = parse_money(v)
    except MoneyError:
        r.problem(line, f"{key} = {v!r}: write dollars in quotes, like \"$5.00\" or "
                  "\"$5,000\"")
        return None
    if cents <= 0:
        r.problem(line, f"{key} = {v!r}: an amount is above $0.00")
        return None
    return cents
