"""A rule card's table: the card's setting of every seven-card hand of the 53-card deck,
built by the card itself and kept, so the station, the command line and the analysis look a
hand up instead of reading the card's rows again.

Why far fewer entries than hands are enough. Places: the seven cards sorted by rank (the
joker above the aces), then deck order. A card reads suits only through a flush (the one
suit holding five, the joker counted in it) and otherwise picks among cards of one rank by
deck order (`HouseWay.facts`), so two hands alike place by place in rank and in which
places the flush suit holds are set alike place by place. A hand's key says just that:

    key = the product of its rank primes << 7 | the places the flush suit holds (a bit a
          place; 0 when no suit can make a flush)

There are 67,600 keys without a flush (the rank patterns) and 388,674 with one (the flush
shapes; `hands_of` makes one real hand of each). Each is set once by the card and kept
as an entry and the setting's strengths:

    entry:     place of one front card | the other's << 3 | row << 6 | step << 14
               (step 0: the row played itself, else 1 + the step's place)
    strengths: the front's strength << SHIFT | the back's, on the ranker's scale

A table is kept in the cache folder the program names (`use_cache_folder`: the user's cache,
app/cache.py), under a name that holds a sha256 of what a setting depends on: this
package's code, the hand ranking's, the card's own file and the hand rules. A changed card
is a new name; a file whose header does not match its name (damaged, or written by another
version) is built again, and said so. A card that leaves some hand unset has no table: its
build stops at the first such hand (HouseWayError names it), and the card sets hands itself.
"""

from __future__ import annotations

import json
import mmap
import os
import sys
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations, product
from math import prod
from pathlib import Path
from typing import TypeAlias

from ..cards import DECK, Card, CardError
from ..hands import DEFAULT_RULES, HandRules, Setting, ranker
from . import card_folders, hand_rules_for, house_way, use_site_cards
from .engine import HouseWay, HouseWayError, HouseWaySetting, Rule

FORMAT = "paigow-house-way-table/2"
JOKER_INDEX = 52
SHIFT = 24  # every strength is below 1 << 24
HERE = Path(__file__).resolve().parent
NOT_SETTING = ("table.py", "audit.py")  # modules of this package that set no hand

# Per card index: its place key (rank, the joker as 15, then deck order), its rank prime
# and its suit as a count in a nibble (the joker counts in all four).
PLACE: tuple[int, ...] = tuple((15 if c.rank is None else int(c.rank)) << 6 | c.index
                               for c in DECK)
PRIME: tuple[int, ...] = tuple(c.bits & 0xFF for c in DECK)
SUIT: tuple[int, ...] = tuple(0x1111 if c.is_joker else 1 << 4 * (c.index // 13)
                              for c in DECK)
FIVE_OF_A_SUIT = 0x8888  # (suit nibbles + 3 in each) has a nibble's top bit at 5 or more
PLUS_THREE = 0x3333

Say = Callable[[str], None]


def hand_key(hand: Sequence[int]) -> int:
    """The key of seven card indexes (see the module's docstring)."""
    key = prod(map(PRIME.__getitem__, hand)) << 7
    suits = sum(map(SUIT.__getitem__, hand))
    if (suits + PLUS_THREE) & FIVE_OF_A_SUIT:
        key |= flush_places(sorted(hand, key=PLACE.__getitem__), suits)
    return key


def flush_places(placed: Sequence[int], suits: int) -> int:
    """The places the suit holding five (and the joker) take, a bit a place."""
    bit = 1 << 4 * next(k for k in range(4) if (suits >> 4 * k) & 0xF >= 5)
    return sum(1 << n for n, i in enumerate(placed) if SUIT[i] & bit)


Column: TypeAlias = "array[int] | memoryview"  # built here, or read where the file lies


class Table:
    """One card's settings of every hand under one set of hand rules, keys sorted."""

    def __init__(self, card: HouseWay, rules: HandRules, keys: Column, entries: Column,
                 strengths: Column) -> None:
        self.card = card
        self.rules = rules
        self.keys = keys
        self.entries = entries
        self.strengths = strengths

    def __len__(self) -> int:
        return len(self.keys)

    def at(self, key: int) -> int:
        """Where a key stands (every hand of the deck has one)."""
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError(f"the {self.card.name} table has no entry {key}")
        return i

    def entry(self, hand: Sequence[int]) -> tuple[list[int], int]:
        """Seven card indexes in place order, and their entry."""
        return sorted(hand, key=PLACE.__getitem__), self.entries[self.at(hand_key(hand))]

    def strength(self, hand: Sequence[int]) -> int:
        """The setting's strengths, front << SHIFT | back."""
        return self.strengths[self.at(hand_key(hand))]

    def set(self, cards: Sequence[Card]) -> HouseWaySetting:
        """What `card.set(cards, rules)` gives, looked up."""
        seven = tuple(cards)
        if len(seven) != 7 or len(set(seven)) != 7:
            raise CardError(f"the House Way sets 7 different cards, not {len(set(seven))}")
        placed, e = self.entry([c.index for c in seven])
        rule, step = self.row(e)
        front = (DECK[placed[e & 7]], DECK[placed[e >> 3 & 7]])
        return HouseWaySetting(Setting.from_front(seven, front), rule, self.card.name, step)

    def row(self, e: int) -> tuple[Rule, Rule | None]:
        """The row an entry names, and its step (None: the row played itself)."""
        rule = self.card.rules[e >> 6 & 0xFF]
        return rule, None if e >> 14 == 0 else rule.steps[(e >> 14) - 1]


# --- building -----------------------------------------------------------------------------

def patterns() -> list[tuple[int, tuple[int, ...]]]:
    """Every multiset of seven ranks, the joker its own: (jokers, the natural ranks'
    counts), each the start of one rank pattern and of its flush shapes."""
    from ..classes import multisets

    return [(jokers, ranks) for jokers in (0, 1) for ranks in multisets(7 - jokers)]


def hands_of(jokers: int, ranks: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """One hand of the rank pattern (spread so no suit holds five), then one of every
    flush shape of it: every set of its ranks the flush suit may hold (five with the
    joker), and for each rank the flush suit shares with other cards, the flush card's
    place among them in deck order."""
    from ..classes import spread

    yield (*(c.index for c in spread(ranks)), *(JOKER_INDEX,) * jokers)
    present = [r for r, c in enumerate(ranks) if c]
    for size in range(5 - jokers, len(present) + 1):
        for chosen in combinations(present, size):
            shared = [r for r in chosen if ranks[r] > 1]
            for at in product(*(range(ranks[r]) for r in shared)):
                yield _shape_hand(ranks, chosen, dict(zip(shared, at, strict=True)), jokers)


def _shape_hand(ranks: Sequence[int], chosen: Sequence[int], at: dict[int, int],
                jokers: int) -> tuple[int, ...]:
    """A hand of one shape: its flush suit the first that leaves room below and above it
    for every shared rank's off-suit cards (at most two off-suit cards in all, so one
    always does)."""
    flush = next(f for f in range(4)
                 if all(p <= f and ranks[r] - 1 - p <= 3 - f for r, p in at.items()))
    cards: list[int] = []
    for r, count in enumerate(ranks):
        if r in at:
            suits = [*range(flush)][:at[r]] + [flush] + [*range(flush + 1, 4)][:count - 1 - at[r]]
        elif r in chosen:
            suits = [flush]
        else:
            suits = [s for s in range(4) if s != flush][:count]
        cards.extend(s * 13 + r for s in suits)
    return (*cards, *(JOKER_INDEX,) * jokers)


def encode(card: HouseWay, rules: HandRules, hand: Sequence[int]) -> tuple[int, int]:
    """The card's setting of one hand as (entry, strengths); HouseWayError names a hand
    the card leaves unset (such a card has no table: it sets hands one by one)."""
    result = card.set([DECK[i] for i in hand], rules)
    placed = sorted(hand, key=PLACE.__getitem__)
    a, b = (placed.index(c.index) for c in result.low)
    row = card.rules.index(result.rule)
    step = 0 if result.step is None else 1 + result.rule.steps.index(result.step)
    r = ranker(hand_rules_for(card, rules))
    return a | b << 3 | row << 6 | step << 14, r.rank2(result.low) << SHIFT | r.rank5(result.high)


CHUNK = 2_000  # rank patterns a worker sets at a time (with their flush shapes)
_worker: tuple[HouseWay, HandRules] | None = None  # the card a build's worker sets hands by


def _start_worker(name: str, rules: HandRules, site: Sequence[str]) -> None:
    global _worker
    use_site_cards(site[0] if site else None)
    _worker = (house_way(name), rules)


def _set_patterns(chunk: Sequence[tuple[int, tuple[int, ...]]],
                  card: HouseWay | None = None, rules: HandRules = DEFAULT_RULES
                  ) -> list[tuple[int, int, int]]:
    """(key, entry, strengths) of every hand of these rank patterns."""
    if card is None:
        assert _worker is not None
        card, rules = _worker
    out = []
    for jokers, ranks in chunk:
        for hand in hands_of(jokers, ranks):
            out.append((hand_key(hand), *encode(card, rules, hand)))
    return out


def build(card: HouseWay, rules: HandRules = DEFAULT_RULES, workers: int | None = None
          ) -> Table:
    """Set one hand of every key by the card (a minute or two of one core): on every core
    this process may use when a worker can find the card by its name, else here."""
    groups = patterns()
    chunks = [groups[i:i + CHUNK] for i in range(0, len(groups), CHUNK)]
    k = workers or cores()
    name = _name_in_workers(card)
    if k > 1 and name is not None:
        # A fresh interpreter a worker (not a fork): safe from a program with threads.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        site = [str(f) for f in card_folders()[:-1]]
        pool = ProcessPoolExecutor(k, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker, initargs=(name, rules, site))
        try:
            parts = list(pool.map(_set_patterns, chunks))
        finally:  # a hand left unset stops the build: the other chunks are not set
            pool.shutdown(cancel_futures=True)
    else:
        parts = [_set_patterns(chunk, card, rules) for chunk in chunks]
    done = sorted(x for part in parts for x in part)
    return Table(card, rules, array("q", (x[0] for x in done)),
                 array("I", (x[1] for x in done)), array("q", (x[2] for x in done)))


def _name_in_workers(card: HouseWay) -> str | None:
    """The name a worker finds this very card by (a card file by its path), or None."""
    path = getattr(card, "path", None)
    name = str(path) if path is not None else card.name
    source = _source(card)
    try:
        same = source is not None and _source(house_way(name)) == source
    except (KeyError, HouseWayError):
        return None
    return name if same else None


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# --- keeping ------------------------------------------------------------------------------

_folder: list[Path | Callable[[], Path]] = []
_kept: dict[tuple[int, HandRules], Table] = {}
_broken: set[Path] = set()


def use_cache_folder(folder: str | Path | Callable[[], Path] | None) -> None:
    """Keep tables in this folder (the program's cache: app/cache.py, which gives a
    function: the folder is looked up when a table is first wanted), or nowhere (None:
    built tables live in this process only)."""
    _folder[:] = [] if folder is None else [folder if callable(folder) else Path(folder)]


def cache_folder() -> Path | None:
    """The folder tables are kept in (None: nowhere)."""
    if not _folder:
        return None
    folder = _folder[0]
    return folder() if callable(folder) else folder


@cache
def _code() -> bytes:
    """This package's code and the hand ranking's, which every setting depends on. This
    module and the audit are left out: they set no hand (FORMAT names how a table is
    written: change it with `encode`)."""
    import hashlib  # as in path_of

    h = hashlib.sha256(FORMAT.encode())
    for path in ([p for p in sorted(HERE.glob("*.py")) if p.name not in NOT_SETTING]
                 + [HERE.parent / n for n in ("hands.py", "cards.py", "classes.py")]):
        try:
            h.update(path.name.encode() + path.read_bytes())
        except OSError:  # a bundle without sources: its version stands for the code
            h.update(f"{path.name}: {sys.version}".encode())
    return h.digest()


def _source(card: HouseWay) -> bytes | None:
    """What a card's settings come from beside the code: a card file's bytes, a built-in
    card's name; None for a card made in this process (never kept on disk)."""
    path = getattr(card, "path", None)
    if path is not None:
        try:
            return b"file\n" + Path(path).read_bytes()
        except OSError:
            return None
    try:
        return card.name.encode() if house_way(card.name) is card else None
    except (KeyError, HouseWayError):
        return None


def path_of(card: HouseWay, rules: HandRules) -> Path | None:
    """Where the card's table under these rules is kept, or None (not kept on disk)."""
    source = _source(card)
    folder = cache_folder()
    if source is None or folder is None:
        return None
    import hashlib  # here: a command that sets one hand never loads OpenSSL for it

    h = hashlib.sha256(_code() + source + f"/{rules.joker}/{rules.wheel}".encode())
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in card.name)[:40]
    return folder / f"{safe}-{rules.joker}-{rules.wheel}-{h.hexdigest()[:24]}.table"


class BrokenTable(ValueError):
    """A kept table that cannot be read as this version writes it."""


def save(table: Table, path: Path) -> None:
    """Written whole or not at all: two processes building at once each rename a whole
    file of their own into place, and a reader never sees half of one."""
    header = {"format": FORMAT, "name": path.name, "card": table.card.name,
              "joker": table.rules.joker, "wheel": table.rules.wheel, "size": len(table)}
    head = json.dumps(header).encode()
    head += b" " * (-(len(head) + 1) % 8) + b"\n"  # the columns start on 8 bytes
    path.parent.mkdir(parents=True, exist_ok=True)
    stem = path.name.rsplit("-", 1)[0]
    for old in path.parent.glob(f"{stem}-*.table"):  # the card's tables of other versions
        if old != path:
            old.unlink(missing_ok=True)
    import tempfile  # here: only a build writes (its import costs a cold command time)

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".building-", suffix=".table")
    with os.fdopen(fd, "wb") as f:
        f.write(head)
        for part in (table.keys, table.strengths, table.entries):  # 8-byte columns first
            f.write(part.tobytes())
    os.replace(tmp, path)


def load(card: HouseWay, rules: HandRules, path: Path) -> Table:
    """The kept table, read where it lies in the file (a hand looked up reads a few pages
    of it); OSError when there is none, BrokenTable when it is not whole or not this card's
    under these rules as this version writes it."""
    with open(path, "rb") as f:
        try:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file
            raise BrokenTable("it is empty") from None
    end = data.find(b"\n") + 1
    try:
        header = json.loads(data[:end])
        n = header["size"]
        wanted = {"format": FORMAT, "name": path.name, "card": card.name,
                  "joker": rules.joker, "wheel": rules.wheel}
        if any(header.get(k) != v for k, v in wanted.items()) or not isinstance(n, int):
            raise BrokenTable("it was written by another version or for another card")
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise BrokenTable(str(err) if isinstance(err, BrokenTable) else
                          "its header cannot be read") from None
    if end % 8 or len(data) != end + 20 * n:
        raise BrokenTable("it is not whole")
    view = memoryview(data)
    keys, strengths, entries = end, end + 8 * n, end + 16 * n
    return Table(card, rules, view[keys:strengths].cast("q"), view[entries:].cast("I"),
                 view[strengths:entries].cast("q"))


def kept(card: HouseWay, rules: HandRules = DEFAULT_RULES) -> Table | None:
    """The card's table when this process has it or the cache folder holds it whole;
    None otherwise (nothing is built)."""
    found = _kept.get((id(card), rules))
    if found is not None and found.card is card:
        return found
    path = path_of(card, rules)
    if path is None or path in _broken:
        return None
    try:
        found = load(card, rules, path)
    except OSError:
        return None
    except BrokenTable:
        _broken.add(path)  # not read again on every hand: `table_of` builds it again
        return None
    _kept[id(card), rules] = found
    return found


def forget() -> None:
    """Drop the tables this process holds: each is read again from the cache folder."""
    _kept.clear()
    _broken.clear()


def table_of(card: HouseWay, rules: HandRules = DEFAULT_RULES, say: Say | None = None
             ) -> Table:
    """The card's table: kept, else built now by the card (a minute or so; `say` is told
    why) and kept."""
    found = kept(card, rules)
    if found is not None:
        return found
    path = path_of(card, rules)
    why = "once"
    if path is not None:
        try:
            load(card, rules, path)
        except BrokenTable as err:
            why = f"again: the kept table {path} cannot be used, {err}"
        except OSError:
            pass
        _broken.discard(path)
    if say is not None:
        say(f"building the House Way table of the {card.name} card ({why}; a minute or so)")
    table = build(card, rules)
    if path is not None:
        try:
            save(table, path)
        except OSError as err:
            if say is not None:
                say(f"the table cannot be kept in {path.parent} ({err.strerror}): it is "
                    "built again next time")
    _kept[id(card), rules] = table
    return table


def house_way_setting(card: HouseWay, cards: Sequence[Card],
                      rules: HandRules = DEFAULT_RULES) -> HouseWaySetting:
    """A hand set where nobody can wait for a build (the station): by the card's table
    when it is kept, else by the card itself; the same setting either way."""
    table = kept(card, rules)
    return card.set(cards, rules) if table is None else table.set(cards)
