"""A rule card's settings as tables, built by the card itself: the House Way without
running the card.

Why a table keyed by ranks is exact: when no suit (the joker counted in every suit) holds
five of the seven cards, no five of them make a flush, and no row of a card reads suits
but through a flush (`Facts.flush_cards`, `suited_run`); so the card sets such a hand by
its ranks alone, and where it chooses among cards of one rank it chooses by deck order
(`HouseWay.facts`). So every flush-free rank pattern, 67,600 with the joker, is set once by
the card and kept as the two places of the hand that go in front, the row and the step:

    places: the seven cards sorted by rank (the joker above the aces), then deck order;
    entry:  place of one front card | the other's << 3 | row << 6 | step << 14

The hands that can make a flush (4.2% of all) are keyed by their shape (`shape_key`): the
ranks place by place and which places the flush suit holds, the joker counted in it. That is
finer than the ranks the flush suit holds: where a flush card shares its rank with off-suit
cards, its place among them in deck order decides which of them the card moves, so keying by
the flush ranks alone left about a third of the flush hands to the card. Every one of the
388,674 shapes is made real by one hand (`flush_shapes`) and set once by the card (about a
minute a card, built on request: `python -m app.core.house_way.tables --flush`, `make
bench`): `flush_entries`, the same entry format as the rank patterns'. For a simulation the
strengths of every flush class come from `flush_strengths` (strengths do not depend on
which of two cards of a rank goes where).

Tables are built on first use (a few seconds a card) and kept in the user's cache folder
($PAIGOW_CACHE_DIR, else $XDG_CACHE_HOME/paigow, else ~/.cache/paigow), named by a digest
of everything a setting depends on: this code, the card (a built-in card's module, or a
card file's own bytes), the hand rules and the format. A changed card or code is a new
name, so a stale table is never read; `tests/core/test_house_way_tables.py` rebuilds every
shipped card's table and compares each entry with the card.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ..cards import DECK, Card
from ..hands import DEFAULT_RULES, HandRules

if TYPE_CHECKING:
    from .engine import HouseWay, HouseWaySetting

FORMAT = "paigow-house-way-table/1"
PATTERNS = 67_600  # flush-free rank patterns: 49,205 of seven ranks + 18,395 of six + joker
JOKER_INDEX = 52
HERE = Path(__file__).resolve().parent
# Everything in the core a setting can depend on (a card's module is added per card).
_CODE = ("engine.py", "facts.py", "plays.py", "phrases.py", "steps.py", "card_file.py",
         "../hands.py", "../cards.py")  # this module: FORMAT names its encoding
_BUILTIN = {"standard": "standard.py", "delaware-park": "delaware_park.py",
            "trump-plaza": "trump_plaza.py", "fully-wild": "fully_wild.py"}

# Per card index: its place key (rank, the joker as 15, then deck order), its rank prime
# (the joker's too) and its suit as one count in a nibble (the joker counts in all four).
PLACE: tuple[int, ...] = tuple((15 if c.rank is None else int(c.rank)) << 6 | c.index
                               for c in DECK)
PRIME: tuple[int, ...] = tuple(c.bits & 0xFF for c in DECK)
SUIT: tuple[int, ...] = tuple(0x1111 if c.is_joker else 1 << 4 * (c.index // 13)
                              for c in DECK)
RANKBIT: tuple[int, ...] = tuple((c.bits >> 16) & 0x3FFF for c in DECK)
FIVE_OF_A_SUIT = 0x8888  # (suit nibbles + 3 in each) has a nibble's top bit at 5 or more
PLUS_THREE = 0x3333
SHIFT = 24  # packed strengths: front << SHIFT | back (every strength is below 1 << 24)


def flush_possible(suits: int) -> bool:
    """`suits` is the sum of SUIT over seven cards: some suit holds five (joker counted)."""
    return bool((suits + PLUS_THREE) & FIVE_OF_A_SUIT)


def flush_key(hand: Sequence[int], suits: int) -> int:
    """The flush table's key of a hand that can make a flush: minus (the ranks' prime
    product << 15 | the rank bits of the suit holding five, the joker's bit too)."""
    nibble = next(k for k in range(4) if ((suits >> (4 * k)) & 0xF) >= 5)
    bits = 0
    for i in hand:
        if i == JOKER_INDEX or (SUIT[i] >> (4 * nibble)) & 1:
            bits |= RANKBIT[i]
    return -(prod(PRIME[i] for i in hand) << 15 | bits)


@dataclass(frozen=True, slots=True)
class Row:
    """A row of the card as the table names it: its id, words and section, and its steps
    (id, words) for a row that follows other steps."""

    id: str
    says: str
    section: str
    steps: tuple[tuple[str, str], ...]


class SettingTable:
    """One card's settings of every flush-free rank pattern under one set of hand rules."""

    __slots__ = ("way", "rules", "rows", "path", "_keys", "_entries", "_strengths",
                 "_entry_of", "_strength_of")

    def __init__(self, way: str, rules: HandRules, rows: Sequence[Row],
                 keys: Sequence[int], entries: Sequence[int], strengths: Sequence[int],
                 path: Path | None = None) -> None:
        self.way = way
        self.rules = rules
        self.rows = tuple(rows)
        self.path = path
        # Sorted (by `build`): one hand is found by bisection.
        self._keys = keys if isinstance(keys, array) else array("q", keys)
        self._entries = entries if isinstance(entries, array) else array("I", entries)
        self._strengths = strengths if isinstance(strengths, array) else array("q", strengths)
        self._entry_of: dict[int, int] | None = None
        self._strength_of: dict[int, int] | None = None

    @property
    def entries(self) -> dict[int, int]:
        """Rank-pattern key (the ranks' prime product) -> entry; made on first use (10-20
        ms: a command answering one hand finds it by `entry_of` instead)."""
        if self._entry_of is None:
            self._entry_of = dict(zip(self._keys, self._entries, strict=True))
        return self._entry_of

    def entry_of(self, key: int) -> int:
        """One pattern's entry, by bisection of the sorted keys (KeyError if none)."""
        at = bisect_left(self._keys, key)
        if at == len(self._keys) or self._keys[at] != key:
            raise KeyError(key)
        return self._entries[at]

    @property
    def strengths(self) -> dict[int, int]:
        """Rank-pattern key -> the setting's strengths, front << SHIFT | back (made on
        first use: answering hands needs only the entries)."""
        if self._strength_of is None:
            self._strength_of = dict(zip(self._keys, self._strengths, strict=True))
        return self._strength_of

    def entry(self, hand: Sequence[int]) -> tuple[list[int], int] | None:
        """(the hand's card indexes in place order, its entry), or None for a hand that can
        make a flush (the card sets it)."""
        if (sum(SUIT[i] for i in hand) + PLUS_THREE) & FIVE_OF_A_SUIT:
            return None
        placed = sorted(hand, key=PLACE.__getitem__)
        return placed, self.entries[prod(PRIME[i] for i in hand)]

    def front(self, hand: Sequence[int]) -> tuple[int, int] | None:
        """The two card indexes the card puts in front, or None for a possible flush."""
        found = self.entry(hand)
        if found is None:
            return None
        placed, e = found
        return placed[e & 7], placed[e >> 3 & 7]

    def row_of(self, e: int) -> tuple[Row, int]:
        """The row an entry names and its step (0: none, else 1 + the step's place)."""
        return self.rows[e >> 6 & 0xFF], e >> 14


# --- building -----------------------------------------------------------------------------

def patterns() -> Iterator[tuple[Card, ...]]:
    """One flush-free hand of every rank pattern: seven natural ranks (at most four of a
    rank), or six and the joker, spread over the suits so no suit holds five."""
    from ..analysis.classes import multisets, spread

    for jokers in (0, 1):
        for ranks in multisets(7 - jokers):
            yield spread(ranks) + ((DECK[JOKER_INDEX],) if jokers else ())


def _rows(card: HouseWay) -> list[Row]:
    return [Row(r.id, r.says, r.section, tuple((s.id, s.says) for s in r.steps))
            for r in card.rules]


def encode(card: HouseWay, hand: Sequence[Card], result: HouseWaySetting) -> int:
    """A setting as a table entry (see the module's docstring)."""
    placed = sorted(hand, key=lambda c: PLACE[c.index])
    a, b = (placed.index(c) for c in result.low)
    rows = card.rules
    row = next(n for n, r in enumerate(rows) if r is result.rule or r.id == result.rule.id)
    step = 0 if result.step is None else 1 + next(
        n for n, s in enumerate(result.rule.steps) if s.id == result.step.id)
    return a | b << 3 | row << 6 | step << 14


def build(card: HouseWay, rules: HandRules,
          progress: Callable[[int], None] | None = None) -> SettingTable:
    """Set every flush-free rank pattern by the card itself (a few seconds)."""
    from ..hands import ranker

    r = ranker(card_rules(card, rules))
    keys: list[int] = []
    entries: list[int] = []
    strengths: list[int] = []
    for n, hand in enumerate(patterns()):
        result = card.set(hand, rules)
        keys.append(prod(PRIME[c.index] for c in hand))
        entries.append(encode(card, hand, result))
        strengths.append(r.rank2(result.low) << SHIFT | r.rank5(result.high))
        if progress is not None and n % 5000 == 4999:
            progress(5000)
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return SettingTable(card.name, rules, _rows(card), array("q", (keys[i] for i in order)),
                        array("I", (entries[i] for i in order)),
                        array("q", (strengths[i] for i in order)))


def card_rules(card: HouseWay, rules: HandRules) -> HandRules:
    """The rules the card's settings are judged (ranked) under."""
    played_under = getattr(card, "played_under", None)
    return rules if played_under is None else cast(HandRules, played_under(rules))


# --- the cache ----------------------------------------------------------------------------

def cache_dir() -> Path:
    """Where tables are kept: $PAIGOW_CACHE_DIR, else the user's cache folder."""
    given = os.environ.get("PAIGOW_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paigow"


def _code_digest() -> bytes:
    h = hashlib.sha256(FORMAT.encode())
    for name in _CODE:
        try:
            h.update((HERE / name).read_bytes())
        except OSError:  # a bundle without sources: the version stands for the code
            h.update(f"{name}: {sys.version}".encode())
    return h.digest()


def card_source(name: str, card: HouseWay | None = None) -> bytes | None:
    """What a card's settings come from: a built-in card's module, a card file's bytes;
    None for any other card (its table is kept in this process only)."""
    path: Path | None = getattr(card, "path", None)
    if path is None and name in _BUILTIN and (card is None or card is _card(name)):
        path = HERE / _BUILTIN[name]
    if path is None:
        return None
    try:
        return f"{name}\n".encode() + Path(path).read_bytes()
    except OSError:
        return None


def table_path(name: str, rules: HandRules, source: bytes, kind: str = "patterns") -> Path:
    h = hashlib.sha256(_code_digest())
    h.update(source)
    h.update(f"{rules.joker}/{rules.wheel}/{kind}".encode())
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:40]
    return cache_dir() / f"{safe}-{rules.joker}-{rules.wheel}-{kind}-{h.hexdigest()[:20]}.tbl"


def save(table: SettingTable, path: Path) -> None:
    header = {"format": FORMAT, "way": table.way, "joker": table.rules.joker,
              "wheel": table.rules.wheel, "patterns": len(table._keys),
              "rows": [[r.id, r.says, r.section, [list(s) for s in r.steps]]
                       for r in table.rows]}
    keys = array("q", table._keys)
    entries = array("I", table._entries)
    strengths = array("q", table._strengths)
    _write(path, [json.dumps(header).encode() + b"\n", keys.tobytes(), entries.tobytes(),
                  strengths.tobytes()])


def _write(path: Path, parts: Sequence[bytes]) -> None:
    """Written whole or not at all: a reader never sees half a table."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # The same card's older tables (another code or card digest) are never read again.
        stem = path.name.rsplit("-", 1)[0]
        for old in path.parent.glob(f"{stem}-*.tbl"):
            digest = old.name[len(stem) + 1:-len(".tbl")]
            if old != path and len(digest) == 20 and "-" not in digest:  # not another kind
                old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".tbl")
        with os.fdopen(fd, "wb") as f:
            for part in parts:
                f.write(part)
        os.replace(tmp, path)
    except OSError:
        pass  # no cache folder we may write: the table lives in this process only


def load(path: Path) -> SettingTable | None:
    """A table from the cache, or None when there is none (or it cannot be read whole)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    end = data.find(b"\n")
    try:
        header = json.loads(data[:end])
        n = header["patterns"]
        keys, entries, strengths = array("q"), array("I"), array("q")
        at = end + 1
        for arr in (keys, entries, strengths):
            size = n * arr.itemsize
            arr.frombytes(data[at:at + size])
            at += size
        if header["format"] != FORMAT or at != len(data) or len(strengths) != n:
            return None
        rows = [Row(i, s, sec, tuple((a, b) for a, b in steps))
                for i, s, sec, steps in header["rows"]]
        return SettingTable(header["way"], HandRules(header["joker"], header["wheel"]), rows,
                            keys, entries, strengths, path)
    except (ValueError, KeyError, TypeError):
        return None


_loaded: dict[tuple[str, HandRules, bytes], SettingTable] = {}


def setting_table(way: str | HouseWay, rules: HandRules = DEFAULT_RULES,
                  progress: Callable[[int], None] | None = None) -> SettingTable:
    """The card's table under `rules`: from the cache, else built by the card (and kept).

    A built-in card named by name is not even imported when its table is cached."""
    name = way if isinstance(way, str) else way.name
    card = None if isinstance(way, str) and way in _BUILTIN else _card(way)
    source = card_source(name, card)
    key = (name, rules, source if source is not None else str(id(card)).encode())
    found = _loaded.get(key)
    if found is not None:
        return found
    path = None if source is None else table_path(name, rules, source)
    table = None if path is None else load(path)
    if table is None:
        table = build(card or _card(way), rules, progress)
        if path is not None:
            save(table, path)
            table.path = path
    _loaded[key] = table
    return table


def _card(way: str | HouseWay) -> HouseWay:
    from . import house_way

    return house_way(way) if isinstance(way, str) else way


# --- strengths of the hands that can make a flush (for simulations) ----------------------

@dataclass(frozen=True, slots=True)
class FlushStrengths:
    """The card's setting of every hand class that can make a flush (224,653 classes: the
    ranks and which of them the flush suit holds), as packed strengths front << SHIFT |
    back, by `flush_key`; keys sorted. Strengths only: which of two cards of one rank the
    card puts in front can differ with the suits, their strengths cannot."""

    keys: array[int]
    strengths: array[int]


def build_flush(card: HouseWay, rules: HandRules,
                progress: Callable[[int], None] | None = None) -> FlushStrengths:
    """Set one hand of every flush class by the card itself (about half a minute)."""
    from ..analysis.classes import hand_classes
    from ..hands import ranker

    r = ranker(card_rules(card, rules))
    found: dict[int, int] = {}
    n = 0
    for hand, _ in hand_classes():
        idx = [c.index for c in hand]
        suits = sum(SUIT[i] for i in idx)
        if not flush_possible(suits):
            continue
        result = card.set(hand, rules)
        found[flush_key(idx, suits)] = r.rank2(result.low) << SHIFT | r.rank5(result.high)
        n += 1
        if progress is not None and n % 5000 == 0:
            progress(5000)
    keys = sorted(found)
    return FlushStrengths(array("q", keys), array("q", (found[k] for k in keys)))


_flush_loaded: dict[tuple[str, HandRules, bytes], FlushStrengths] = {}


def flush_strengths(way: str | HouseWay, rules: HandRules = DEFAULT_RULES,
                    progress: Callable[[int], None] | None = None) -> FlushStrengths:
    """The card's flush table under `rules`: from the cache, else built (and kept)."""
    name = way if isinstance(way, str) else way.name
    card = None if isinstance(way, str) and way in _BUILTIN else _card(way)
    source = card_source(name, card)
    key = (name, rules, source if source is not None else str(id(card)).encode())
    found = _flush_loaded.get(key)
    if found is not None:
        return found
    path = None if source is None else table_path(name, rules, source, "flush")
    if path is not None:
        try:
            data = path.read_bytes()
            half = len(data) // 2
            keys, strengths = array("q"), array("q")
            keys.frombytes(data[:half])
            strengths.frombytes(data[half:])
            if len(keys) == len(strengths) > 0:
                found = FlushStrengths(keys, strengths)
        except (OSError, ValueError):
            found = None
    if found is None:
        found = build_flush(card or _card(way), rules, progress)
        if path is not None:
            _write(path, [found.keys.tobytes(), found.strengths.tobytes()])
    _flush_loaded[key] = found
    return found


def kept(way: str | HouseWay, rules: HandRules = DEFAULT_RULES, kind: str = "patterns"
         ) -> bool:
    """Whether the card's table of that kind is in the cache (using it is quick then)."""
    name = way if isinstance(way, str) else way.name
    source = card_source(name, None if isinstance(way, str) and way in _BUILTIN
                         else _card(way))
    return source is not None and table_path(name, rules, source, kind).is_file()


# --- settings of the hands that can make a flush (for answering hands) --------------------

NO_ENTRY = 0xFFFFFFFF  # no flush shape of that key (none is missing): the card sets the hand
SHAPES = 388_674  # flush shapes of the 53-card deck (`flush_shapes`)


def flush_suit(suits: int) -> int:
    return next(k for k in range(4) if ((suits >> (4 * k)) & 0xF) >= 5)


def shape_key(placed: Sequence[int], suits: int) -> int:
    """The flush-shape key of a hand that can make a flush, its cards in place order
    (`PLACE`): the ranks' prime product << 7 | the places the flush suit holds (the joker
    counted in it), a bit a place.

    Why it is exact: the card reads suits only through the flush (the one suit that holds
    five) and otherwise picks among cards of one rank by deck order. Two hands of one key
    have the same ranks place by place and the flush suit in the same places, and within a
    rank their cards stand in the same deck order (places are deck order within a rank), so
    the card sets them alike place by place. (Keying by the ranks the flush suit holds alone
    is not enough: where a flush card shares its rank, whether it comes before or after the
    other cards of that rank in deck order decides which of them the card moves.)"""
    bit = 1 << 4 * flush_suit(suits)
    mask = 0
    for n, i in enumerate(placed):
        if i == JOKER_INDEX or SUIT[i] & bit:
            mask |= 1 << n
    return prod(PRIME[i] for i in placed) << 7 | mask


def flush_shapes() -> Iterator[tuple[int, tuple[Card, ...]]]:
    """(key, one hand of it) for every flush shape: every multiset of ranks, every set of
    them the flush suit may hold (five with the joker), and for each rank the flush suit
    shares with other cards, the flush card's place among them in deck order. Each hand is
    made real: a flush suit and off-suit suits that put the flush cards in those places."""
    from itertools import combinations, product

    from ..analysis.classes import multisets

    joker = DECK[JOKER_INDEX]
    for jokers in (0, 1):
        for ranks in multisets(7 - jokers):
            present = [r for r, c in enumerate(ranks) if c]
            for size in range(5 - jokers, len(present) + 1):
                for chosen in combinations(present, size):
                    shared = [r for r in chosen if ranks[r] > 1]
                    for at in product(*(range(ranks[r]) for r in shared)):
                        yield _shape_hand(ranks, chosen, dict(zip(shared, at, strict=True)),
                                          jokers, joker)


def _shape_hand(ranks: Sequence[int], chosen: Sequence[int], at: dict[int, int],
                jokers: int, joker: Card) -> tuple[int, tuple[Card, ...]]:
    """The hand of one shape: its flush suit the first that leaves room below and above
    it for every shared rank's off-suit cards (at most two off-suit cards in all, so one
    always does)."""
    flush = next(f for f in range(4)
                 if all(p <= f and ranks[r] - 1 - p <= 3 - f for r, p in at.items()))
    cards: list[Card] = []
    for r, count in enumerate(ranks):
        if not count:
            continue
        if r in at:
            below = list(range(flush))[:at[r]]
            above = list(range(flush + 1, 4))[:count - 1 - at[r]]
            suits = [*below, flush, *above]
        elif r in chosen:
            suits = [flush]
        else:
            suits = [s for s in range(4) if s != flush][:count]
        cards.extend(DECK[s * 13 + r] for s in suits)
    cards.extend([joker] * jokers)
    idx = [c.index for c in cards]
    placed = sorted(idx, key=PLACE.__getitem__)
    return shape_key(placed, sum(SUIT[i] for i in idx)), tuple(cards)


FLUSH_CHUNK = 20_000  # shapes a worker sets at a time
# The card, the rules and the shapes a forked worker sets (inherited, never pickled).
_BUILDING: tuple[HouseWay, HandRules, list[tuple[int, tuple[Card, ...]]]] | None = None


def build_flush_entries(card: HouseWay, rules: HandRules,
                        progress: Callable[[int], None] | None = None,
                        workers: int | None = None) -> dict[int, int]:
    """shape key -> entry (places in `PLACE` order, as the flush-free table's) of every
    flush shape, each set once by the card (about a minute of one core a card, shared by
    every core this process may use): built on request (`python -m
    app.core.house_way.tables --flush`, `make bench`, the tests)."""
    global _BUILDING
    shapes = list(flush_shapes())
    k = workers or _cores()
    chunks = [(i, min(i + FLUSH_CHUNK, len(shapes))) for i in range(0, len(shapes),
                                                                     FLUSH_CHUNK)]
    out: dict[int, int] = {}
    _BUILDING = (card, rules, shapes)
    pool = None
    if k > 1 and sys.platform == "linux":
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(k)
    try:
        parts: Iterator[list[tuple[int, int]]] = (
            map(_set_flush_chunk, chunks) if pool is None
            else pool.imap_unordered(_set_flush_chunk, chunks))
        for part in parts:
            out.update(part)
            if progress is not None:
                progress(len(part))
        return out
    finally:
        _BUILDING = None
        if pool is not None:
            pool.terminate()


def _set_flush_chunk(bounds: tuple[int, int]) -> list[tuple[int, int]]:
    assert _BUILDING is not None
    card, rules, shapes = _BUILDING
    return [(key, encode(card, hand, card.set(hand, rules)))
            for key, hand in shapes[bounds[0]:bounds[1]]]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class FlushEntries:
    """shape key -> entry, found by bisection of sorted keys: reading 388,674 entries into
    a dict would cost more than the few thousand hands of a run that look them up."""

    __slots__ = ("keys", "entries", "path")

    def __init__(self, keys: array[int], entries: array[int], path: Path | None = None
                 ) -> None:
        self.keys = keys
        self.entries = entries
        self.path = path

    def __len__(self) -> int:
        return len(self.keys)

    def get(self, key: int, default: int = NO_ENTRY) -> int:
        at = bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return default
        return self.entries[at]

    def values(self) -> array[int]:
        return self.entries


def flush_entries_path(way: str | HouseWay, rules: HandRules = DEFAULT_RULES) -> Path | None:
    name = way if isinstance(way, str) else way.name
    source = card_source(name, None if isinstance(way, str) and way in _BUILTIN
                         else _card(way))
    return None if source is None else table_path(name, rules, source, "flush-shapes")


def flush_entries(way: str | HouseWay, rules: HandRules = DEFAULT_RULES, *,
                  build: bool = False) -> FlushEntries | None:
    """The card's flush entries when kept (or built now with `build`), else None."""
    path = flush_entries_path(way, rules)
    if path is not None:
        try:
            data = path.read_bytes()
            n = len(data) // 12
            keys, entries = array("q"), array("I")
            keys.frombytes(data[:8 * n])
            entries.frombytes(data[8 * n:])
            if n and len(entries) == n:
                return FlushEntries(keys, entries, path)
        except (OSError, ValueError):
            pass
    if not build:
        return None
    found = build_flush_entries(_card(way), rules)
    order = sorted(found)
    table = FlushEntries(array("q", order), array("I", (found[k] for k in order)))
    if path is not None:
        _write(path, [table.keys.tobytes(), table.entries.tobytes()])
        table.path = path
    return table


# --- the House Way by table ---------------------------------------------------------------

class TableWay:
    """A card answered by its tables where they answer, else by the card: the same
    `HouseWaySetting` as `card.set` (tests/core/test_house_way_tables.py). `flushes`: the
    flush entries to use (default: the card's when kept; without them the card sets the
    hands that can make a flush)."""

    def __init__(self, way: str | HouseWay, rules: HandRules = DEFAULT_RULES,
                 flushes: FlushEntries | None = None) -> None:
        self.card = _card(way)
        self.rules = rules
        self.table = setting_table(self.card, rules)
        self.flushes = flushes if flushes is not None else flush_entries(self.card, rules)

    def set(self, cards: Sequence[Card]) -> HouseWaySetting:
        from ..cards import CardError
        from ..hands import Setting
        from .engine import HouseWaySetting

        seven = tuple(cards)
        hand = [c.index for c in seven]
        if len(hand) != 7 or len(set(hand)) != 7:
            raise CardError(f"the House Way sets 7 different cards, not {len(set(hand))}")
        suits = sum(SUIT[i] for i in hand)
        placed = sorted(hand, key=PLACE.__getitem__)
        if flush_possible(suits):
            e = NO_ENTRY if self.flushes is None else self.flushes.get(shape_key(placed, suits))
            if e == NO_ENTRY:
                return self.card.set(seven, self.rules)
        else:
            e = self.table.entries[prod(PRIME[i] for i in hand)]
        rule = self.card.rules[e >> 6 & 0xFF]
        step = None if e >> 14 == 0 else rule.steps[(e >> 14) - 1]
        front = (DECK[placed[e & 7]], DECK[placed[e >> 3 & 7]])
        return HouseWaySetting(Setting.from_front(seven, front), rule, self.card.name, step)


def shape_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The hand `flush_shapes` makes for the shape of `cards` (a hand that can make a
    flush): the one whose setting the flush entries keep for every hand of that shape."""
    idx = [c.index for c in cards]
    bit = 1 << 4 * flush_suit(sum(SUIT[i] for i in idx))
    ranks = [0] * 13
    chosen: list[int] = []
    for i in idx:
        if i != JOKER_INDEX:
            ranks[i % 13] += 1
            if SUIT[i] & bit:
                chosen.append(i % 13)
    at = {}
    for r in chosen:
        if ranks[r] > 1:
            flush_card = next(i for i in idx if i % 13 == r and i != JOKER_INDEX
                              and SUIT[i] & bit)
            at[r] = sum(1 for i in idx if i != JOKER_INDEX and i % 13 == r and i < flush_card)
    jokers = sum(1 for i in idx if i == JOKER_INDEX)
    return _shape_hand(ranks, sorted(chosen), at, jokers, DECK[JOKER_INDEX])[1]


def main() -> None:
    """`python -m app.core.house_way.tables [--flush [CARD ...]]`: build the shipped cards'
    tables now (at install) rather than on their first use; `--flush` also the flush
    entries that let `paigow house-way` answer the hands that can make a flush without the
    card (of the cards named, else of every card; about half a minute a card on two
    cores)."""
    from . import WAYS

    args = sys.argv[1:]
    flush = set(args[args.index("--flush") + 1:] or WAYS) if "--flush" in args else set()
    for name in WAYS:
        table = setting_table(name)
        print(f"House Way table of {name}: {len(table.entries):,} rank patterns "
              f"({table.path or 'not kept: no cache folder may be written'})", flush=True)
        if name in flush:
            kept = flush_entries(name, build=True)
            assert kept is not None
            print(f"  and {len(kept):,} flush shapes ({kept.path or 'not kept'})", flush=True)


if __name__ == "__main__":
    main()
