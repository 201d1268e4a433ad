"""A casino's own House Way as a rule-card file (TOML), in the vocabulary the Python cards use.

    title = "Our House Way"
    [ranks]                      # the card's own names for groups of ranks (optional)
    low = "2-6"
    [[section]]
    title = "One pair"
    when = ["not straight-or-flush"]          # every row of the section has this too
    [[section.row]]
    id = "OP-1"
    says = "One pair: pair back, the two highest other cards in front."
    when = ["one-pair"]
    play = "two-highest-singles"

A row has an `id`, the card's words (`says`), a condition (`when`: every line of the list
holds; a line is words joined by "or", each word may start with "not") and either a `play`
(a word naming the two cards that go in front; a list is tried in order, the first the
hand can take without a foul plays) or `follow` (ids of other rows of the card: "follow
the steps described for ..."; each is tried with its own condition, as the Python cards
carry them). The words are the names of the functions in facts.py, plays.py and phrases.py
(and the Trump Plaza card's general phrases), dashes for underscores: CONDITIONS and PLAYS
below are that table, so a word means exactly what it means in a Python card.

Two checks, so a station starts fast and a card's owner still learns everything:
- `load_card` (milliseconds, at every lookup): TOML syntax, keys, every word and its
  arguments, ids, what `follow` names. A problem is a `CardFileError` naming the file, the
  line, the row and what to write instead.
- `check_card` (about a minute on one core: every hand class of `app.core.classes`, i.e.
  all 154,143,080 hands; `paigow house-way --check FILE`): a row that never fires (unless
  the row says `unreachable = "why"`), a row marked unreachable that fires, a row whose play
  would foul a hand it is asked to set, a hand no row sets. The engine never plays a foul
  (a play that would foul is read as not meant for the hand, and the card reads on), so a
  station is safe without this check; what it catches is a card whose words would have the
  dealer foul, which the engine would silently pass by.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import RANK_CHARS, Card, cards_text
from ..hands import DEFAULT_RULES, HandRules, Setting, foul_reason
from . import phrases, plays, trump_plaza
from .engine import (
    CardFileError,
    Condition,
    HouseWay,
    HouseWayError,
    HouseWaySetting,
    Play,
    Rule,
    Section,
    _strongest_back,
)
from .facts import Facts, value

# --- the vocabulary: words -> the engine's own conditions and plays -----------------------
RankSet = frozenset[int]


@dataclass(frozen=True, slots=True)
class Word:
    """One word a card file may use. `takes` says what goes in its parentheses: "" nothing,
    "ranks" ranks or the card's rank groups ("K, A", "low", "2-6"), "rank" one rank,
    "places" places in the hand high to low (1-7), "count" a number, "pairs" tiers of two
    pairs, lower first ("low+medium")."""

    name: str
    means: str
    make: Callable[..., Any]
    takes: str = ""

    @property
    def usage(self) -> str:
        example = {"": "", "ranks": "(K, A)", "rank": "(K)", "places": "(2, 3)",
                   "count": "(2)", "pairs": "(low+low, low+medium)",
                   "rank-list": "(K, A)"}[self.takes]
        return self.name + example


def _count_of(attr: str) -> Callable[[int], Condition]:
    return lambda n: lambda f: len(getattr(f, attr)) == n


def _pairs_are(combos: Sequence[tuple[RankSet, RankSet]]) -> Condition:
    """Exactly two pairs (no set), the lower pair's rank in the first group and the higher
    pair's in the second, for one of `combos` (Trump Plaza's "low+medium")."""
    def test(f: Facts) -> bool:
        if not plays.two_pairs(f):
            return False
        higher, lower = f.pairs[0], f.pairs[1]
        return any(lower in lo and higher in hi for lo, hi in combos)
    return test


def _trips_of(ranks: RankSet) -> Condition:
    return lambda f: bool(f.trips) and f.trips[0] in ranks


def _has_pair(ranks: RankSet) -> Condition:
    return lambda f: any(r in ranks for r in f.pairs)


def _singles_are(ranks: Sequence[int]) -> Condition:
    """The singletons are exactly these ranks (the joker an ace)."""
    want = sorted(ranks)
    return lambda f: sorted(value(c) for c in f.singles) == want


def _highest_single_is(ranks: RankSet) -> Condition:
    return lambda f: phrases.highest_single_is(f, *ranks)


CONDITIONS: dict[str, Word] = {w.name: w for w in (
    # What the seven make (facts.py, phrases.py); groups count the joker as an ace.
    Word("no-pair", "seven different ranks (the joker an ace)", lambda: phrases.no_pair),
    Word("one-pair", "exactly one pair, no set", lambda: plays.one_pair),
    Word("two-pairs", "exactly two pairs, no set", lambda: plays.two_pairs),
    Word("three-pairs", "three pairs", lambda: plays.three_pairs),
    Word("one-trips", "one three of a kind and nothing else paired", lambda: plays.one_trips),
    Word("full-house", "one three of a kind, one pair and two singles",
         lambda: trump_plaza.full_house),
    Word("any-full-house", "a three of a kind with a pair or a second set",
         lambda: lambda f: f.full_house),
    Word("any-pair", "at least one pair", lambda: lambda f: bool(f.pairs)),
    Word("any-trips", "at least one three of a kind", lambda: lambda f: bool(f.trips)),
    Word("any-quads", "a four of a kind", lambda: lambda f: bool(f.quads)),
    Word("pairs", "exactly this many pairs", _count_of("pairs"), "count"),
    Word("trips", "exactly this many sets of three", _count_of("trips"), "count"),
    Word("quads", "exactly this many fours of a kind", _count_of("quads"), "count"),
    Word("five-aces", "four aces and the joker", lambda: phrases.five_aces),
    Word("with-joker", "the joker is among the seven", lambda: lambda f: f.joker is not None),
    Word("pair-uses-joker", "the pair of aces is an ace and the joker",
         lambda: lambda f: f.pair_uses_joker),
    Word("straight", "a straight among the seven (the joker may fill it)",
         lambda: lambda f: f.run is not None),
    Word("flush", "a flush among the seven (the joker may fill it)", lambda: lambda f: f.flush),
    Word("straight-flush", "a straight flush among the seven", lambda: lambda f: f.straight_flush),
    Word("royal", "a royal flush among the seven", lambda: lambda f: f.royal),
    Word("straight-or-flush", "a straight, a flush or a straight flush among the seven",
         lambda: phrases.straight_or_flush),
    Word("six-or-seven", "a sixth or seventh card extends the straight or the flush",
         lambda: phrases.six_or_seven),
    # Ranks named by the card.
    Word("pairs-are", "two pairs (no set) whose ranks, lower pair first, are in one of these "
         "tiers", _pairs_are, "pairs"),
    Word("quads-of", "a four of a kind of these ranks and three singles",
         trump_plaza.quads_of, "ranks"),
    Word("trips-of", "the (highest) three of a kind is of these ranks", _trips_of, "ranks"),
    Word("has-pair", "a pair of one of these ranks", _has_pair, "ranks"),
    Word("singles-are", "the singletons are exactly these ranks", _singles_are, "rank-list"),
    Word("highest-single-is", "the highest singleton is one of these ranks",
         _highest_single_is, "ranks"),
)}


def _nth_highest(places: Sequence[int]) -> Play:
    return lambda f: plays.nth_highest(f, *places)


def _pair_of(rank: int) -> Play:
    return lambda f: plays.pair_of(f, rank)


def _split_unless_in_front(ranks: RankSet) -> Play:
    return trump_plaza.split_unless_in_front(*sorted(ranks))


def _split_quads_unless(ranks: RankSet) -> Play:
    return trump_plaza.split_quads_unless(*sorted(ranks))


PLAYS: dict[str, Word] = {w.name: w for w in (
    Word("two-highest-singles", "the two highest singletons (the joker an ace)",
         lambda: plays.two_highest_singles),
    Word("two-highest-natural-singles", "the two highest singletons that are not the joker",
         lambda: phrases.two_highest_natural_singles),
    Word("nth-highest", "the cards at these places, the hand sorted high to low",
         _nth_highest, "places"),
    Word("lowest-pair", "the lowest pair", lambda: plays.lowest_pair),
    Word("highest-pair", "the highest pair", lambda: plays.highest_pair),
    Word("pair-of", "two cards of this rank, naturals first", _pair_of, "rank"),
    Word("two-from-trips", "two cards of the (highest) three of a kind",
         lambda: plays.two_from_trips),
    Word("one-from-trips-and-highest-single", "one card of the three of a kind and the "
         "highest singleton", lambda: plays.one_from_trips_and_highest_single),
    Word("joker-and-ace", "the joker and an ace", lambda: plays.joker_and_ace),
    Word("split-unless-in-front", "the lowest pair; but when the highest singleton is one "
         "of these ranks, it and the next singleton (both pairs stay back)",
         _split_unless_in_front, "ranks"),
    Word("split-quads-unless", "two of the four of a kind; but when the highest singleton "
         "is one of these ranks, it and the next singleton (the four stay back)",
         _split_quads_unless, "ranks"),
    Word("highest-front-keeping", "of every straight, flush or straight flush the seven "
         "make, the one that leaves the highest two cards in front",
         lambda: phrases.highest_front_keeping()),
    Word("pair-in-front-only-if-kept", "the highest pair, if the other five still make a "
         "straight or flush; else the straight or flush back with the highest two left",
         lambda: trump_plaza.pair_in_front_only_if_kept),
    Word("pair-of-trips-in-front", "two of the three of a kind, the straight or flush kept; "
         "else the straight or flush back with the highest two left",
         lambda: trump_plaza.pair_of_trips_in_front),
)}

TOP_KEYS = ("title", "source", "notes", "ranks", "section")
SECTION_KEYS = ("title", "when", "row")
ROW_KEYS = ("id", "says", "when", "play", "follow", "unreachable")

_TERM = re.compile(r"^(not\s+)?([A-Za-z0-9][A-Za-z0-9-]*)\s*(?:\((.*)\))?$")
_ROW_HEADER = re.compile(r"^\s*\[\[\s*section\s*\.\s*row\s*\]\]")
_SECTION_HEADER = re.compile(r"^\s*\[\[\s*section\s*\]\]")
_RANGE = re.compile(r"^([2-9TJQKA]|10)\s*-\s*([2-9TJQKA]|10)$")


@dataclass(frozen=True)
class FileCard(HouseWay):
    """A House Way read from a card file: the engine's card, plus where each row is written
    and which rows the card says never fire."""

    path: Path = Path()
    # Not compared (nor hashed): a card is a key of the analysis' caches, as a built-in is.
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)
    unreachable: Mapping[str, str] = field(default_factory=dict, compare=False)


# --- reading ------------------------------------------------------------------------------
class _Reader:
    """One pass over a card file's data, collecting every problem before giving up."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path  # as the problems name it
        self.text_lines = text.splitlines()
        self.problems: list[str] = []
        self.groups: dict[str, RankSet] = {}
        self.section_lines = [i + 1 for i, t in enumerate(self.text_lines)
                              if _SECTION_HEADER.match(t)]
        self.row_lines = [i + 1 for i, t in enumerate(self.text_lines) if _ROW_HEADER.match(t)]
        self.row_count = 0

    # Where things are written: the n-th [[section.row]] header is the n-th row read (TOML
    # keeps the order of an array of tables), so a problem can name its line.
    def where(self, line: int | None, row: str | None = None) -> str:
        at = f"{self.path} line {line}" if line else str(self.path)
        return f"{at} (row {row})" if row else at

    def line_of(self, start: int | None, needle: str) -> int | None:
        """The first line at or after `start` (within this row or section) naming `needle`."""
        if start is None:
            return None
        for n in range(start, len(self.text_lines) + 1):
            if n > start and (self.text_lines[n - 1].lstrip().startswith("[")):
                break
            if needle in self.text_lines[n - 1]:
                return n
        return start

    def find(self, needle: str) -> int | None:
        """The first line of the file naming `needle`."""
        return next((n for n, t in enumerate(self.text_lines, 1) if needle in t), None)

    def problem(self, line: int | None, row: str | None, what: str) -> None:
        self.problems.append(f"{self.where(line, row)}: {what}")

    # --- ranks --------------------------------------------------------------------------
    def rank(self, text: str) -> int | None:
        t = text.strip().upper()
        if t == "10":
            return 10
        if len(t) == 1 and t in RANK_CHARS:
            return RANK_CHARS.index(t) + 2
        return None

    def ranks(self, text: str) -> RankSet | None:
        t = text.strip()
        if t in self.groups:
            return self.groups[t]
        one = self.rank(t)
        if one is not None:
            return frozenset({one})
        m = _RANGE.match(t.upper())
        if m:
            lo, hi = self.rank(m.group(1)), self.rank(m.group(2))
            if lo is not None and hi is not None and lo <= hi:
                return frozenset(range(lo, hi + 1))
        return None

    def read_groups(self, data: object) -> None:
        if data is None:
            return
        line = self.find("[ranks]")
        if not isinstance(data, dict):
            self.problem(line, None, "[ranks] names groups of ranks, like low = \"2-6\": "
                         "write it as a table")
            return
        for name, spec in data.items():
            ranks = self.ranks(str(spec)) if isinstance(spec, str) else None
            if not re.fullmatch(r"[a-z][a-z0-9-]*", name) or ranks is None:
                self.problem(self.line_of(line, name), None,
                             f"ranks.{name} = {spec!r}: a group is a lower-case name and a "
                             "rank (2-9, T, J, Q, K, A) or a range like \"2-6\" or \"J-K\"")
                continue
            self.groups[name] = ranks

    # --- words --------------------------------------------------------------------------
    def args(self, word: Word, raw: str | None, line: int | None, row: str
             ) -> tuple[object, ...] | None:
        """The word's arguments as its maker takes them, or a problem and None."""
        parts = [] if raw is None or not raw.strip() else [a.strip() for a in raw.split(",")]
        groups = ", ".join(self.groups) or "none yet: add them under [ranks]"

        def bad(why: str) -> None:
            self.problem(line, row, f"{word.name}: {why}; write it like {word.usage}")

        if word.takes == "":
            if parts:
                bad("takes nothing in parentheses")
                return None
            return ()
        if not parts:
            bad("needs something in parentheses")
            return None
        if word.takes in ("ranks", "rank", "rank-list"):
            sets = [self.ranks(p) for p in parts]
            if any(s is None for s in sets):
                wrong = [p for p, s in zip(parts, sets, strict=True) if s is None]
                bad(f"{', '.join(map(repr, wrong))} is not a rank (2-9, T, J, Q, K, A), a "
                    f"range like 2-6, or a rank group of this card ({groups})")
                return None
            if word.takes == "rank":
                if len(parts) != 1 or len(sets[0] or ()) != 1:
                    bad("names one rank")
                    return None
                return (min(sets[0] or ()),)
            if word.takes == "rank-list":
                if all(len(s or ()) == 1 for s in sets):
                    return ([min(s or ()) for s in sets],)
                bad("names single ranks, one for each singleton")
                return None
            return (frozenset().union(*(s or frozenset() for s in sets)),)
        if word.takes in ("places", "count"):
            if not all(p.isdigit() for p in parts):
                bad("takes whole numbers")
                return None
            numbers = [int(p) for p in parts]
            if word.takes == "count":
                if len(numbers) == 1:
                    return (numbers[0],)
                bad("takes one number")
                return None
            if not all(1 <= n <= 7 for n in numbers) or len(numbers) != 2 \
                    or len(set(numbers)) != 2:
                bad("names two different places from 1 (the highest card) to 7")
                return None
            return (tuple(numbers),)
        # "pairs": tiers of the two pairs, lower pair first
        combos = []
        for p in parts:
            lo, plus, hi = p.partition("+")
            a, b = self.ranks(lo), self.ranks(hi)
            if not plus or a is None or b is None:
                bad(f"{p!r} is not two rank groups joined by '+', lower pair first (the "
                    f"groups of this card: {groups})")
                return None
            combos.append((a, b))
        return (tuple(combos),)

    def word(self, table: Mapping[str, Word], other: Mapping[str, Word], kind: str,
             text: str, line: int | None, row: str
             ) -> tuple[Word, tuple[object, ...]] | None:
        m = _TERM.match(text.strip())
        if m is None:
            self.problem(line, row, f"{text!r} is not a {kind} word: write a word, perhaps "
                         f"with parentheses, like {next(iter(table.values())).usage}")
            return None
        name, raw = m.group(2), m.group(3)
        found = table.get(name)
        if found is None:
            hint = difflib.get_close_matches(name, table, n=1)
            also = f" ({name!r} is a {'play' if kind == 'condition' else 'condition'}: " \
                   f"it goes in {'play' if kind == 'condition' else 'when'})" \
                if name in other else ""
            self.problem(self.line_of(line, name), row,
                         f"{name!r} is not a {kind} the House Way engine knows{also}. "
                         + (f"Did you mean {hint[0]!r}? " if hint else "")
                         + f"The {kind}s are: {', '.join(table)}. "
                         "Write one of them (docs/rules.md, \"Your own House Way\").")
            return None
        args = self.args(found, raw, self.line_of(line, name), row)
        return None if args is None else (found, args)

    def condition(self, data: object, line: int | None, row: str) -> Condition | None:
        """`when`: a line or a list of lines, every one must hold; a line is words joined
        by "or", each perhaps starting with "not"."""
        if data is None:
            return lambda f: True
        lines = [data] if isinstance(data, str) else data
        if not isinstance(lines, list) or not all(isinstance(t, str) for t in lines):
            self.problem(line, row, "when is a list of conditions in quotes, like "
                         "when = [\"not straight-or-flush\", \"one-pair\"]")
            return None
        terms: list[Condition] = []
        before = len(self.problems)
        for text in lines:
            alternatives: list[Condition] = []
            for part in re.split(r"\s+or\s+", text.strip()):
                found = self.word(CONDITIONS, PLAYS, "condition", part,
                                  self.line_of(line, part.strip() or "when"), row)
                if found is None:
                    continue
                word, args = found
                cond: Condition = word.make(*args)
                negate = part.strip().startswith("not ")
                alternatives.append((lambda c: lambda f: not c(f))(cond) if negate else cond)
            if len(alternatives) == 1:
                terms.append(alternatives[0])
            elif alternatives:
                terms.append((lambda alts: lambda f: any(a(f) for a in alts))(alternatives))
        if len(self.problems) > before:
            return None
        if len(terms) == 1:
            return terms[0]
        return phrases.both(*terms)

    def play(self, data: object, line: int | None, row: str) -> Play | None:
        choices = [data] if isinstance(data, str) else data
        if not isinstance(choices, list) or not choices \
                or not all(isinstance(t, str) for t in choices):
            self.problem(line, row, "play is a play word in quotes, or a list of them tried "
                         "in order, like play = \"two-highest-singles\"")
            return None
        made: list[Play] = []
        for text in choices:
            if text.strip().startswith("not "):
                self.problem(self.line_of(line, text), row,
                             f"{text!r}: 'not' belongs in when, a play names cards")
                continue
            found = self.word(PLAYS, CONDITIONS, "play", text, self.line_of(line, text), row)
            if found is not None:
                word, args = found
                made.append(word.make(*args))
        if len(made) != len(choices):
            return None
        return made[0] if len(made) == 1 else phrases.first_legal(*made)


def load_card(path: str | Path, name: str | None = None) -> FileCard:
    """Read and check a card file (its words, keys and ids; not yet over every hand: see
    `check_card`). Raises `CardFileError` with every problem found."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CardFileError([f"{p}: there is no such card file: check the name and the "
                             "folder (config/house-ways/ or the site's house-ways/)"]) from None
    except (OSError, UnicodeDecodeError) as e:
        raise CardFileError([f"{p}: the card file cannot be read ({e}): check it is a text "
                             "file this station may read"]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CardFileError([f"{_display(p)}: not valid TOML ({e}): correct that line (strings in "
                             "double quotes, one key = value a line)"]) from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursing
        raise CardFileError([f"{_display(p)}: its brackets nest deeper than Python can read (a "
                             "card's rows nest two deep): check it is the card file"]) from None
    return _build(_Reader(_display(p), text), data, name or p.stem)


def _display(path: Path) -> Path:
    """The file as a person finds it: from the current folder when it is under it."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def _build(r: _Reader, data: dict[str, object], name: str) -> FileCard:
    for key in data:
        if key not in TOP_KEYS:
            r.problem(r.find(key), None, f"{key!r} is not a key of a card file; the "
                      f"keys are {', '.join(TOP_KEYS)}")
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        r.problem(None, None, "the card has no title: add title = \"...\" at the top")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        r.problem(r.find("notes"), None, "notes is a list of sentences in quotes")
        notes = []
    r.read_groups(data.get("ranks"))
    sections_data = data.get("section")
    if not isinstance(sections_data, list) or not sections_data:
        r.problem(None, None, "the card has no sections: add [[section]] with a title and "
                  "[[section.row]] rows under it")
        raise CardFileError(r.problems)

    # First every row's own condition and play; then sections and `follow`, which name rows.
    rows: dict[str, Rule] = {}
    lines: dict[str, int] = {}
    follows: dict[str, tuple[list[str], int | None]] = {}
    unreachable: dict[str, str] = {}
    layout: list[tuple[str, Condition | None, list[str]]] = []
    row_n = 0
    for s_n, sec in enumerate(sections_data):
        s_line = r.section_lines[s_n] if len(r.section_lines) == len(sections_data) else None
        if not isinstance(sec, dict):
            r.problem(s_line, None, "a [[section]] is a table with a title and rows")
            continue
        for key in sec:
            if key not in SECTION_KEYS:
                r.problem(r.line_of(s_line, key), None, f"{key!r} is not a key of a section; "
                          f"the keys are {', '.join(SECTION_KEYS)}")
        s_title = sec.get("title")
        if not isinstance(s_title, str) or not s_title.strip():
            r.problem(s_line, None, f"section {s_n + 1} has no title: add title = \"...\" "
                      "under its [[section]]")
            s_title = f"section {s_n + 1}"
        gate = r.condition(sec.get("when"), r.line_of(s_line, "when"), f"section {s_title!r}")
        row_list = sec.get("row")
        if not isinstance(row_list, list) or not row_list:
            r.problem(s_line, None, f"section {s_title!r} has no rows: add [[section.row]] "
                      "tables under it")
            row_list = []
        ids: list[str] = []
        for row in row_list:
            row_n += 1
            line = r.row_lines[row_n - 1] if len(r.row_lines) >= row_n else None
            rid = _read_row(r, row, line, rows, follows, unreachable)
            if rid is not None:
                ids.append(rid)
                if line is not None:
                    lines[rid] = line
        layout.append((s_title, gate, ids))

    steps: dict[str, tuple[Rule, ...]] = {}
    for rid, (targets, line) in follows.items():
        chosen = []
        for t in targets:
            if t not in rows:
                r.problem(r.line_of(line, t), rid, f"follow names {t!r}, which is not a row of "
                          f"this card; the rows are {', '.join(rows)}")
            elif t in follows or t == rid:
                r.problem(r.line_of(line, t), rid, f"follow names {t!r}, which itself follows "
                          "other rows: name the rows with a play instead")
            else:
                chosen.append(rows[t])
        steps[rid] = tuple(chosen)
    if r.problems:
        raise CardFileError(r.problems)

    sections = []
    for s_title, gate, ids in layout:
        built = [Rule(rows[i].id, rows[i].says, rows[i].when, rows[i].play, steps.get(i, ()))
                 for i in ids]
        sections.append(Section(s_title, *built, gate=gate or (lambda f: True)))
    source = f"{data['source']} (card file {r.path})" if isinstance(data.get("source"), str) \
        else f"card file {r.path}"
    return FileCard(name=name, title=str(title), source=source, sections=tuple(sections),
                    notes=tuple(notes), path=r.path, lines=lines, unreachable=unreachable)


def _read_row(r: _Reader, row: object, line: int | None, rows: dict[str, Rule],
              follows: dict[str, tuple[list[str], int | None]],
              unreachable: dict[str, str]) -> str | None:
    if not isinstance(row, dict):
        r.problem(line, None, "a [[section.row]] is a table with id, says, when and play")
        return None
    rid = row.get("id")
    if not isinstance(rid, str) or not rid.strip():
        r.problem(line, None, "this row has no id: add id = \"...\" (a short name, unique in "
                  "the card, that the station shows when the row sets a hand)")
        return None
    for key in row:
        if key not in ROW_KEYS:
            r.problem(r.line_of(line, key), rid, f"{key!r} is not a key of a row; the keys are "
                      f"{', '.join(ROW_KEYS)}")
    if rid in rows:
        r.problem(line, rid, f"the id {rid!r} is used by an earlier row: give each row its own")
    says = row.get("says")
    if not isinstance(says, str) or not says.strip():
        r.problem(line, rid, "this row has no words: add says = \"...\" (the card's own words "
                  "for the row, which the dealer reads)")
        says = ""
    when = r.condition(row.get("when"), r.line_of(line, "when"), rid)
    has_play, has_follow = "play" in row, "follow" in row
    play: Play | None = None
    if has_play == has_follow:
        r.problem(line, rid, "a row has a play (play = \"...\") or follows other rows (follow "
                  "= [\"id\", ...]), one of the two")
    elif has_play:
        play = r.play(row["play"], r.line_of(line, "play"), rid)
    else:
        targets = row["follow"]
        targets = [targets] if isinstance(targets, str) else targets
        if not isinstance(targets, list) or not targets \
                or not all(isinstance(t, str) for t in targets):
            r.problem(r.line_of(line, "follow"), rid, "follow is a list of row ids in quotes")
        else:
            follows[rid] = (targets, r.line_of(line, "follow"))
    if "unreachable" in row:
        why = row["unreachable"]
        if not isinstance(why, str) or not why.strip():
            r.problem(r.line_of(line, "unreachable"), rid, "unreachable says why the row "
                      "never fires, in quotes")
        else:
            unreachable[rid] = why
    rule = Rule(rid, says, when or (lambda f: True), play) if play is not None else \
        Rule(rid, says, when or (lambda f: True))
    rows.setdefault(rid, rule)
    return rid


# --- the full check: every hand ------------------------------------------------------------
@dataclass
class Finding:
    """One problem found over all hands: which row, over how many hands, one example."""

    row: str
    what: str
    hands: int = 0
    example: tuple[Card, ...] = ()
    detail: str = ""


@dataclass
class CardCheck:
    """A card read over every hand class: hands per row and the problems found."""

    card: HouseWay
    reach: dict[str, int] = field(default_factory=dict)
    findings: dict[tuple[str, str], Finding] = field(default_factory=dict)
    hands: int = 0

    def note(self, row: str, what: str, weight: int, hand: Sequence[Card], detail: str = ""
             ) -> None:
        f = self.findings.setdefault((row, what), Finding(row, what))
        if not f.example:
            f.example, f.detail = tuple(hand), detail
        f.hands += weight

    @property
    def problems(self) -> list[str]:
        """Each problem as a sentence naming the row, for the card's owner."""
        where = self.card.path if isinstance(self.card, FileCard) else self.card.name
        lines = self.card.lines if isinstance(self.card, FileCard) else {}
        marked = self.card.unreachable if isinstance(self.card, FileCard) else {}
        out = []

        def at(row: str) -> str:
            return f"{where} line {lines[row]} (row {row})" if row in lines \
                else f"{where} (row {row})"

        for rule in self.card.rules:
            fired = self.reach.get(rule.id, 0)
            if fired == 0 and rule.id not in marked:
                out.append(f"{at(rule.id)}: the row never fires over all {self.hands:,} "
                           "hands (an earlier row takes every hand it names, or no hand is "
                           "like it): correct its condition, or keep it as the card's words "
                           "with unreachable = \"why\"")
            if fired and rule.id in marked:
                out.append(f"{at(rule.id)}: the row is marked unreachable but sets "
                           f"{fired:,} hands: remove unreachable, or correct the row")
        for f in self.findings.values():
            example = cards_text(f.example)
            if f.what == "foul":
                out.append(f"{at(f.row)}: its play would foul {f.hands:,} hands it is asked "
                           f"to set, e.g. {example} ({f.detail}); the station reads on to the "
                           "next row for those: make the condition exclude them, or give a "
                           "play that does not foul")
            elif f.what == "unset":
                out.append(f"{where}: no row sets {f.hands:,} hands, e.g. {example}: add a "
                           "row (a last row with no condition catches every hand)")
            else:
                out.append(f"{where}: differs from {f.row} on {f.hands:,} hands, e.g. "
                           f"{example}: {f.detail}")
        return out


def walk(card: HouseWay, hand: Sequence[Card], rules: HandRules = DEFAULT_RULES
         ) -> tuple[HouseWaySetting | None, list[tuple[Rule, Rule, str]]]:
    """Set `hand` as `HouseWay.set` does, and also say which rows (and steps) on the way had
    a play that would foul it: (the setting or None, [(row, step, why)])."""
    facts = card.facts(tuple(hand), rules)
    fouled: list[tuple[Rule, Rule, str]] = []
    for section in card.sections:
        if not section.gate(facts):
            continue
        for rule in section.rules:
            if not rule.when(facts):
                continue
            for step in rule.steps or (rule,):
                if step is not rule and not step.when(facts):
                    continue
                front = _strongest_back(facts, step.play(facts))
                if front is None or len(set(front)) != 2:
                    continue
                setting = Setting.from_front(facts.cards, front)
                why = foul_reason(setting, facts.cards, facts.rules)
                if why is not None:
                    fouled.append((rule, step, why))
                    continue
                return HouseWaySetting(setting, rule, card.name,
                                       None if step is rule else step), fouled
    return None, fouled


def check_card(card: HouseWay, rules: HandRules = DEFAULT_RULES,
               classes: Iterable[tuple[tuple[Card, ...], int]] | None = None,
               same_as: HouseWay | None = None) -> CardCheck:
    """Read `card` over every hand class (all 154,143,080 hands unless `classes` is given);
    with `same_as`, also count the hands the two cards set differently (the setting or
    the row that sets it)."""
    from ..classes import hand_classes  # the exhaustive lists only when checking

    out = CardCheck(card)
    for hand, weight in (hand_classes() if classes is None else classes):
        out.hands += weight
        result, fouled = walk(card, hand, rules)
        for rule, step, why in fouled:
            out.note(rule.id if step is rule else f"{rule.id}/{step.id}", "foul", weight,
                     hand, why)
        if result is None:
            out.note("", "unset", weight, hand)
        else:
            out.reach[result.rule.id] = out.reach.get(result.rule.id, 0) + weight
            if result.step is not None:
                key = f"{result.rule.id}/{result.step.id}"
                out.reach[key] = out.reach.get(key, 0) + weight
        if same_as is not None:
            _compare(out, same_as, hand, weight, result, rules)
    return out


def _compare(out: CardCheck, other: HouseWay, hand: Sequence[Card], weight: int,
             mine: HouseWaySetting | None, rules: HandRules) -> None:
    try:
        theirs: HouseWaySetting | None = other.set(hand, rules)
    except HouseWayError:
        theirs = None

    def show(s: HouseWaySetting | None) -> str:
        if s is None:
            return "no row"
        step = f"/{s.step.id}" if s.step else ""
        return f"{cards_text(s.low)} in front by {s.rule.id}{step}"

    same = (mine is None and theirs is None) or (
        mine is not None and theirs is not None and set(mine.low) == set(theirs.low)
        and mine.rule.id == theirs.rule.id
        and (mine.step.id if mine.step else None) == (theirs.step.id if theirs.step else None))
    if not same:
        out.note(other.name, "differs", weight, hand, f"{show(mine)}, {other.name}: "
                 f"{show(theirs)}")


__all__ = ["CONDITIONS", "PLAYS", "CardCheck", "CardFileError", "FileCard", "Word",
           "check_card", "load_card", "walk"]
