"""`paigow house-way` from a pack: the card's tables made ready for answering text, kept in
the cache, read by this module alone (the standard library's os, sys, marshal, mmap and
struct: no app.core, no argparse, no numpy), so a stream of hands is answered at the speed
of the tables and one hand from a cold process in a blink.

What a pack holds (`make_pack`, written by the full command when a built-in card's tables
are kept; `tests/test_cli_house_way_fast.py` checks it answers byte for byte as the full
command does):
  - every rank pattern's entry (app/core/house_way/tables.py), found from the text at once:
    the hand's seven tokens, each translated (`bytes.translate`, the whole input at a time)
    into two bytes that sort in place order (rank, the joker above the aces, then deck
    order), sorted; the ranks of the sorted tokens number the pattern's slot in an array
    (`pattern_slot`), read where it lies in the mapped file;
  - every flush shape's entry (when the flush entries are kept), by the same ranks and the
    places the flush suit holds;
  - for each entry in use, the answer line as a `%` template of the seven tokens (the
    front's two, then the back's five, highest first) and the rule's words after them;
  - the size and modification time of every file the answers depend on (the card, the
    House Way's code, the tables, this module): a pack whose files changed is not read
    (as Python reads a .pyc), and the full command writes a new one.

A chunk of plainly typed hands ("AS KD TH 9C 5S 3D JK\\n": seven two-letter cards, single
spaces, any case) is answered here whole; a chunk with anything else (a mistake, `10H`, a
glyph, other spacing) goes to the full command's line-by-line answers, which say what is
wrong, and the answers stay in input order.
"""

from __future__ import annotations

import marshal
import mmap
import os
import sys
from bisect import bisect_left
from math import comb
from operator import getitem, itemgetter
from struct import Struct

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms here)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from app.core.hands import HandRules
    from app.core.house_way.tables import FlushEntries, SettingTable

PACK_FORMAT = "paigow-house-way-pack/4"
CHUNK = 1 << 20  # a read of a file; a pipe gives what it holds
HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.normpath(os.path.abspath(__file__))
APP = os.path.dirname(HERE)
SHIPPED_CONFIG = os.path.join(os.path.dirname(APP), "config", "default.toml")

# Each token byte's code: ranks 2..A, the joker's rank, suits S H D C (deck order), the
# joker's second byte: increasing, so sorted tokens are in place order; none of them a
# byte of whitespace or printable text, so a template's words pass the reverse untouched.
RANKS = b"23456789TJQKA"
SUITS = b"SHDC"
CODES = bytes([*range(0x01, 0x09), *range(0x0E, 0x19)])
JOKER_RANK, JOKER_SUIT = CODES[13], CODES[18]
SUIT_CODES = CODES[14:18]
JOKER = bytes([JOKER_RANK, JOKER_SUIT])
FORWARD = bytes.maketrans(RANKS + SUITS, CODES[:13] + SUIT_CODES)
BACK = bytes.maketrans(CODES, RANKS + b"J" + SUITS + b"K")
HAND = Struct("2sx" * 7)  # one line: seven tokens, each with the space (or newline) after
LINE = HAND.size  # 21
SEPARATORS = b" " * 6 + b"\n"
RANKS_OF, SUITS_OF = slice(0, None, 2), slice(1, None, 2)  # of sorted tokens, joined

# A pattern's place in the pack: its ranks (2..A, the joker: 0..13), sorted, x0 <= .. <= x6,
# are the combination x_i + i of 7 out of 20, numbered by sum C(x_i + i, i + 1): every
# pattern a number below C(20, 7), found with seven look-ups and no dict to read first.
_SYMBOL = {code: r for r, code in enumerate([*CODES[:13], JOKER_RANK])}
COLEX = tuple(tuple(comb(_SYMBOL[code] + i, i + 1) if code in _SYMBOL else 0
                    for code in range(JOKER_RANK + 1)) for i in range(7))
PATTERN_SLOTS = comb(20, 7)  # 77,520
NO_PATTERN = 0xFFFF  # a slot no pattern takes (none is asked for: past any id)


def pattern_slot(ranks: bytes) -> int:
    """Where a pattern (its sorted ranks' codes) stands in the pack."""
    return sum(map(getitem, COLEX, ranks))
# A token's card as one byte (rank * 4 + suit; the joker 52), made by adding two columns.
CARD_RANK = bytes(4 * ([*CODES[:13], JOKER_RANK].index(b) if b in CODES[:14] else 0)
                  for b in range(256))
CARD_SUIT = bytes(SUIT_CODES.index(b) if b in SUIT_CODES else 0 for b in range(256))


def _twice(text: bytes, n: int) -> bool:
    """Whether some line of `text` (n lines, in codes) holds a card twice: its seven
    cards as seven columns of bytes, each pair of columns XORed, a zero byte found by the
    carry trick over the whole integer (a line at a time would cost a microsecond each)."""
    cards = (int.from_bytes(text[0::3].translate(CARD_RANK), "little")
             + int.from_bytes(text[1::3].translate(CARD_SUIT), "little")
             ).to_bytes(7 * n, "little")
    columns = [int.from_bytes(cards[k::7], "little") for k in range(7)]
    ones = int.from_bytes(b"\x01" * n, "little")
    highs = ones << 7
    for i in range(7):
        for j in range(i + 1, 7):
            x = columns[i] ^ columns[j]  # every byte below 0x80: a card is below 53
            if (x - ones) & ~x & highs:
                return True
    return False


def cache_dir() -> str:
    """The tables' cache folder (as app/core/house_way/tables.cache_dir finds it)."""
    given = os.environ.get("PAIGOW_CACHE_DIR")
    if given:
        return given
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "paigow")


def pack_path(way: str, joker: str, wheel: str) -> str:
    return os.path.join(cache_dir(), f"answers-{way}-{joker}-{wheel}.pack")


def _stamp(paths: Sequence[str]) -> list[tuple[str, int, int]]:
    out = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append((path, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((path, -1, -1))  # absent (the flush entries not built yet)
    return out


def _fresh(stamp: Sequence[tuple[str, int, int]]) -> bool:
    return _stamp([p for p, _, _ in stamp]) == list(stamp)


# --- answering ---------------------------------------------------------------------------

class Pack:
    """A card's answers as a pack (see the module's docstring), read from the cache."""

    def __init__(self, header: dict[str, Any], data: mmap.mmap | bytes, base: int) -> None:
        self.way: str = header["way"]
        self.joker: str = header["joker"]
        self.wheel: str = header["wheel"]
        view = memoryview(data)
        at = {name: view[base + start:base + end] for name, (start, end) in header["at"].items()}
        self.patterns = at["patterns"].cast("H")  # pattern slot -> id
        self.flush_keys = at["flush_keys"].cast("q")
        self.flush_ids = at["flush_ids"].cast("H")
        self.flushes = bool(header["flushes"])
        # The suits of a sorted hand that can make a flush -> the places the flush suit
        # (and the joker) holds, a bit a place.
        self.flushy: dict[bytes, int] = header["flushy"]
        self.getters = [itemgetter(*order) for order in header["orders"]]
        self.templates = {False: header["text"], True: header["json"]}

    def flush_id(self, s: bytes) -> int:
        """The id of a hand that can make a flush (its sorted tokens joined), or -1."""
        if not self.flushes:
            return -1
        key = int.from_bytes(s[RANKS_OF], "big") << 7 | self.flushy[s[SUITS_OF]]
        at = bisect_left(self.flush_keys, key)
        if at == len(self.flush_keys) or self.flush_keys[at] != key:
            return -1
        return int(self.flush_ids[at])

    def answer(self, chunk: bytes, as_json: bool,
               by_card: Callable[[bytes], bytes | None] | None = None) -> bytes | None:
        """The answers to a chunk of whole lines, or None when some line is not a plainly
        typed hand of seven different cards (the full command answers the chunk then).
        `by_card`: the answer to a flush hand when no flush entries are kept."""
        n, odd = divmod(len(chunk), LINE)
        if odd or not n:
            return None
        text = chunk.upper()
        if (text[2::3] != SEPARATORS * n or text[0::3].translate(None, RANKS)
                or text[1::3].translate(None, SUITS + b"K")
                or text.count(b"JK") != text[1::3].count(b"K")):
            return None
        text = text.replace(b"JK", JOKER).translate(FORWARD)
        if _twice(text, n):
            return None  # a card twice in a line: the full command says which
        patterns, flushy = self.patterns, self.flushy
        getters, templates = self.getters, self.templates[as_json]
        out: list[bytes] = []
        put, join = out.append, b"".join
        try:
            for hand in HAND.iter_unpack(text):
                w = sorted(hand)
                s = join(w)
                if s[SUITS_OF] in flushy:
                    i = self.flush_id(s)
                    if i < 0:
                        found = None if by_card is None else by_card(
                            b" ".join(w).translate(BACK))
                        if found is None:
                            return None
                        # In codes, as the other answers are until the chunk's end: every
                        # byte it has outside the cards is one no card's code reads back.
                        put(found.translate(FORWARD))
                        continue
                else:
                    i = patterns[sum(map(getitem, COLEX, s[RANKS_OF]))]
                put(templates[i] % getters[i](w))
        except (KeyError, IndexError):  # no entry (none is missing): the full command
            return None
        return b"".join(out).translate(BACK)


def load(way: str, joker: str, wheel: str) -> Pack | None:
    """The pack of the card under these hand rules, or None when there is none or any file
    it depends on changed since it was made."""
    try:
        with open(pack_path(way, joker, wheel), "rb") as f:
            try:
                data: mmap.mmap | bytes = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                data = f.read()
    except OSError:
        return None
    return _read(data)


def _read(data: mmap.mmap | bytes) -> Pack | None:
    try:
        size = int.from_bytes(data[:8], "little")
        header = marshal.loads(data[8:8 + size])
        # A pack another checkout made (a cache shared by two) stamps that checkout's files,
        # which may be fresh while this one's code sets hands otherwise: not ours, not read.
        if header.get("format") != PACK_FORMAT or not _fresh(header["stamp"]) \
                or MODULE not in (path for path, _, _ in header["stamp"]):
            return None
        return Pack(header, data, _base(size))
    except (ValueError, EOFError, TypeError, KeyError, IndexError):
        return None


# --- the command -------------------------------------------------------------------------

def _options(argv: Sequence[str]) -> tuple[list[str], bool, str | None, str | None,
                                           str | None] | None:
    """(cards, --json, --way, --joker, --wheel) of a plain `house-way` command line, or None
    for anything else (help, --list, --check, a config, an abbreviation, ...: the full
    command's parser decides)."""
    if not argv or argv[0] != "house-way":
        return None
    cards: list[str] = []
    as_json = False
    values: dict[str, str | None] = {"--way": None, "--joker": None, "--wheel": None}
    runs = 0
    after_option = True
    it = iter(argv[1:])
    for arg in it:
        if arg == "--json":
            as_json, after_option = True, True
        elif arg in values:
            value = next(it, None)
            if value is None or value.startswith("-") or values[arg] is not None:
                return None
            values[arg], after_option = value, True
        elif arg.startswith("-"):
            return None
        else:
            if after_option:
                runs += 1
            cards.append(arg)
            after_option = False
    if runs > 1:  # cards before and after an option: argparse's call
        return None
    if values["--joker"] not in (None, "bug", "fully-wild") or \
            values["--wheel"] not in (None, "second", "lowest"):
        return None
    return cards, as_json, values["--way"], values["--joker"], values["--wheel"]


def shipped() -> tuple[str, str, str] | None:
    """The shipped table's card, joker and wheel as last read by the full command (the
    settings' reading of config/default.toml, kept beside the packs), if the file has not
    changed since; None when a site config or the environment may say otherwise."""
    if os.environ.get("PAIGOW_CONFIG") or any(
            k.startswith("PAIGOW_") and "__" in k for k in os.environ):
        return None
    try:
        with open(os.path.join(cache_dir(), "shipped-rules.marshal"), "rb") as f:
            stamp, found = marshal.load(f)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not _fresh(stamp) or stamp[0][0] != SHIPPED_CONFIG:  # another checkout's config
        return None
    way, joker, wheel = found
    return str(way), str(joker), str(wheel)


def keep_shipped(way: str, joker: str, wheel: str) -> None:
    _write(os.path.join(cache_dir(), "shipped-rules.marshal"),
           marshal.dumps((_stamp([SHIPPED_CONFIG]), (way, joker, wheel))))


def main(argv: Sequence[str]) -> int | None:
    """Answer the command from a pack; None when the full command must (no fresh pack, a
    command line it does not take, a person at a terminal)."""
    found = _options(argv)
    if found is None:
        return None
    cards, as_json, way, joker, wheel = found
    if way is None or joker is None or wheel is None:
        table = shipped()
        if table is None:
            return None
        way, joker, wheel = way or table[0], joker or table[1], wheel or table[2]
    if joker == "fully-wild" and way != "fully-wild":
        return None  # only the card written for a wild joker plays one: the full command says so
    if not cards and sys.stdin.isatty():
        return None
    pack = load(way, joker, wheel)
    if pack is None:
        return None
    return Stream(argv, pack, as_json).run(cards)


class Stream:
    """The answers written as they are found, in input order; a chunk the pack does not
    answer goes to the full command (set up on first need, counting lines on)."""

    def __init__(self, argv: Sequence[str], pack: Pack, as_json: bool) -> None:
        self.argv = list(argv)
        self.pack = pack
        self.as_json = as_json
        self.number = 0
        self.code = 0
        self._full: Any = None

    def full(self) -> Any:
        """The full command's answers (app/commands/answer.py), its lines counted on."""
        if self._full is None:
            from app.cli import build_parser

            from .house_way import answers_for

            args = build_parser("house_way").parse_args(self.argv)
            self._full = answers_for(args)
        return self._full

    def by_card(self, line: bytes) -> bytes | None:
        full = self.full()
        found = full.fast(line.decode()) if not isinstance(full, int) else None
        return None if found is None else found.encode()

    def run(self, cards: list[str]) -> int:
        out = sys.stdout.buffer
        if cards:
            self.chunk(" ".join(cards).encode() + b"\n", out, one=True)
            return self.code
        fd = sys.stdin.fileno()
        size = _size(fd)
        # (A file larger than a few hundred megabytes is streamed: it is read whole here.)
        k = workers(size // LINE) if self.pack.flushes and size < 1 << 28 else 1
        if k > 1:
            return self.in_parallel(fd, k, out)
        rest = b""
        while True:
            data = os.read(fd, CHUNK)
            if not data:
                break
            if rest:
                data = rest + data
            end = data.rfind(b"\n") + 1
            rest = data[end:]
            if end:
                self.chunk(data[:end], out)
        if rest.strip():
            self.chunk(rest, out)
        return self.code

    def in_parallel(self, fd: int, k: int, out: Any) -> int:
        """A large file of hands answered in k processes, each a contiguous part, written
        in input order; any part the pack does not answer whole (a mistake in it), and so
        the file, is answered a chunk at a time as a stream is."""
        parts = _parts(_read_all(fd), k)
        kept = []
        for part in parts[1:]:
            fd_out = _scratch()
            pid = os.fork()
            if pid == 0:  # a worker: its part's answers into its scratch file, or none
                code = 3
                try:
                    found = self.pack.answer(part, self.as_json)
                    if found is not None:
                        view = memoryview(found)
                        while view:
                            view = view[os.write(fd_out, view):]
                        code = 0
                finally:
                    os._exit(code)
            kept.append((pid, fd_out))
        first = self.pack.answer(parts[0], self.as_json)
        done = [os.waitpid(pid, 0)[1] == 0 for pid, _ in kept]
        if first is None or not all(done):
            for _, fd_out in kept:
                os.close(fd_out)
            for part in parts:
                for chunk in _pieces(part):
                    self.chunk(chunk, out)
            return self.code
        out.write(first)
        out.flush()
        for _, fd_out in kept:
            _copy(fd_out, out)
        self.number += sum(len(part) for part in parts) // LINE
        return self.code

    def chunk(self, data: bytes, out: Any, one: bool = False) -> None:
        answered = self.pack.answer(data, self.as_json,
                                    None if self.pack.flushes else self.by_card)
        if answered is not None:
            out.write(answered)
            out.flush()
            self.number += len(data) // LINE
            return
        full = self.full()
        if isinstance(full, int):  # the full command could not even start: it said why
            self.code = full
            return
        full.number = self.number
        if one:
            full.lines([data.decode("utf-8", "replace").strip()])
        else:
            full.chunk(data)
        self.number = full.number
        self.code = max(self.code, full.code)


# Files of at least this many hands are answered on every core (the pack is mapped, shared
# by the workers; a fork and a copy cost about 3 ms): 20,000 hands take 0.067-0.069 s on
# two cores where one core takes 0.092 s (this machine, one core free).
PARALLEL_FROM = 10_000


def workers(hands: int) -> int:
    """The processes a file of `hands` plainly typed hands is answered in."""
    if hands < PARALLEL_FROM:
        return 1
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _size(fd: int) -> int:
    """What is left to read of a regular file (0 for a pipe or a terminal)."""
    import stat

    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return 0
        return st.st_size - os.lseek(fd, 0, os.SEEK_CUR)
    except OSError:
        return 0


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        data = os.read(fd, 1 << 24)
        if not data:
            return b"".join(chunks)
        chunks.append(data)


def _parts(data: bytes, k: int) -> list[bytes]:
    """k contiguous parts of whole lines (the last may end without a newline)."""
    out, start = [], 0
    for n in range(1, k):
        end = data.find(b"\n", len(data) * n // k) + 1 or len(data)
        out.append(data[start:end])
        start = end
    out.append(data[start:])
    return [part for part in out if part]


def _pieces(data: bytes) -> list[bytes]:
    """Chunks of whole lines, about CHUNK bytes each, as a stream is read."""
    out, start = [], 0
    while start < len(data):
        end = data.find(b"\n", start + CHUNK) + 1 or len(data)
        out.append(data[start:end])
        start = end
    return out


def _scratch() -> int:
    """A file only this process and its workers see (in memory where the system has it)."""
    try:
        return os.memfd_create("paigow-answers")
    except (AttributeError, OSError):
        import tempfile

        return os.dup(tempfile.TemporaryFile().fileno())


def _copy(fd: int, out: Any) -> None:
    """A worker's answers onto `out` (by sendfile where `out` is a real file)."""
    size = os.lseek(fd, 0, os.SEEK_END)
    try:
        target = out.fileno()
        at = 0
        while at < size:
            at += os.sendfile(target, fd, at, size - at)
    except (AttributeError, OSError, ValueError):  # not a real file (a test's BytesIO)
        os.lseek(fd, 0, os.SEEK_SET)
        while True:
            data = os.read(fd, 1 << 24)
            if not data:
                break
            out.write(data)
        out.flush()
    os.close(fd)


# --- making a pack (by the full command; imports the tables) ------------------------------

def make_pack(way: str, rules: HandRules, table: SettingTable,
              flushes: FlushEntries | None) -> bytes | None:
    """The pack of a built-in card's tables (None when its words cannot be packed)."""
    from math import prod

    from app.core.cards import DECK
    from app.core.house_way import tables

    from .answer import _tails

    # The sorted ranks' codes of every pattern, by its prime product.
    code_of = [CODES[i % 13] if i != tables.JOKER_INDEX else JOKER_RANK
               for i in range(len(DECK))]
    ranks_of: dict[int, bytes] = {}
    for hand in tables.patterns():
        idx = [c.index for c in hand]
        ranks_of[prod(tables.PRIME[i] for i in idx)] = bytes(sorted(code_of[i] for i in idx))
    ids: dict[int, int] = {}  # entry -> id

    def id_of(entry: int) -> int:
        return ids.setdefault(entry, len(ids))

    pattern = {ranks_of[k]: id_of(e) for k, e in zip(table._keys, table._entries, strict=True)}
    flush: dict[int, int] = {}
    if flushes is not None:
        for k, e in zip(flushes.keys, flushes.entries, strict=True):
            flush[int.from_bytes(ranks_of[k >> 7], "big") << 7 | k & 0x7F] = id_of(e)
    if len(ids) >= NO_PATTERN:
        return None
    text_tails, json_tails = _tails(table, False), _tails(table, True)
    orders, text, as_json = [], [], []
    for entry in ids:  # in id order
        a, b = entry & 7, entry >> 3 & 7
        hi, lo = max(a, b), min(a, b)
        orders.append((hi, lo, *(p for p in range(6, -1, -1) if p not in (a, b))))
        tail = entry >> 6
        text.append(b"%s %s | %s %s %s %s %s" + _literal(text_tails[tail]))
        as_json.append(b'{"low": ["%s", "%s"], "high": ["%s", "%s", "%s", "%s", "%s"]'
                       + _literal(json_tails[tail]))
    if any(code in t for t in (*text, *as_json) for code in CODES):
        return None  # a byte of the words would be read back as a card's
    from array import array

    slots = array("H", [NO_PATTERN]) * PATTERN_SLOTS
    for ranks, i in pattern.items():
        slots[pattern_slot(ranks)] = i
    flush_keys = sorted(flush)

    parts = {
        "patterns": slots.tobytes(),
        "flush_keys": array("q", flush_keys).tobytes(),
        "flush_ids": array("H", (flush[k] for k in flush_keys)).tobytes(),
    }
    deps = [tables.__file__, *(os.path.join(os.path.dirname(tables.__file__), name)
                               for name in tables._CODE),
            os.path.join(HERE, "answer.py"), MODULE,
            str(table.path), str(tables.flush_entries_path(way, rules))]
    source = tables._BUILTIN.get(way)
    if source is not None:
        deps.append(os.path.join(os.path.dirname(tables.__file__), source))
    header = {"format": PACK_FORMAT, "way": way, "joker": rules.joker, "wheel": rules.wheel,
              "stamp": _stamp([os.path.normpath(p) for p in deps]),
              "flushes": flushes is not None, "flushy": _flushy(),
              "orders": orders,
              "text": text, "json": as_json, "at": {}}
    at: dict[str, tuple[int, int]] = {}
    start = 0
    for name, part in parts.items():  # from the end of the header, each on 8 bytes
        at[name] = (start, start + len(part))
        start += len(part) + (-len(part) % 8)
    header["at"] = at
    head = marshal.dumps(header)
    body = bytearray(len(head).to_bytes(8, "little") + head)
    base = _base(len(head))
    for name, part in parts.items():
        body.extend(b"\0" * (base + at[name][0] - len(body)))
        body.extend(part)
    return bytes(body)


def _base(size: int) -> int:
    """Where the parts start after a header of `size` bytes (on 8 bytes, for the arrays'
    memoryview casts)."""
    return (8 + size + 7) // 8 * 8


def _literal(tail: str) -> bytes:
    return tail.encode().replace(b"%", b"%%")


def _flushy() -> dict[bytes, int]:
    """Every sequence of seven suit codes (the joker's at most once) that can make a flush
    (some suit five times, the joker counted in it) -> the places of the flush suit and
    the joker, a bit a place (tables.shape_key's)."""
    from itertools import product

    out = {}
    for seq in product((*SUIT_CODES, JOKER_SUIT), repeat=7):
        jokers = seq.count(JOKER_SUIT)
        flush = [s for s in SUIT_CODES if seq.count(s) + jokers >= 5]
        if jokers <= 1 and flush:
            out[bytes(seq)] = sum(1 << n for n, c in enumerate(seq)
                                  if c == flush[0] or c == JOKER_SUIT)
    return out


def keep_pack(way: str, rules: HandRules, table: SettingTable) -> Pack | None:
    """The card's pack: the kept one, else made now (a few seconds, once) and kept; the
    flush entries go in when they are kept. None for a table not kept in the cache."""
    if table.path is None:
        return None
    found = load(way, rules.joker, rules.wheel)
    if found is not None:
        return found
    from app.core.house_way.tables import flush_entries

    data = make_pack(way, rules, table, flush_entries(way, rules))
    if data is None:
        return None
    _write(pack_path(way, rules.joker, rules.wheel), data)
    return _read(data)


def _write(path: str, data: bytes) -> None:
    """Written whole or not at all (a reader never sees half a pack)."""
    import tempfile

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass  # no cache folder we may write: the full command answers
