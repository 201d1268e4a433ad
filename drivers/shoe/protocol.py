"""The station's shoe line protocol: a pure parser (bytes in, events out) and the encoder.

Wire format (see docs/shoe-protocol.md): 9600 8N1, ASCII lines ending CRLF,

    $<TYPE>,<seq>,<fields...>*<hhhh>

where hhhh is the CRC-16/CCITT-FALSE of every byte between `$` and `*`, in hex. An older
shoe may send the two-digit XOR of those bytes instead (as NMEA); the station reads that
form only when its `checksum` setting says "xor", because two flipped bits in the same
place cancel out of an XOR and deliver a wrong card. Every message
from the shoe except HELLO and BEAT takes the next sequence number (1-99999, then 1
again); HELLO and BEAT carry the number of the last message sent, so a silent loss is seen
within one heartbeat. The station asks for missing messages with `$RESEND,<from>,<to>`.

`ShoeParser` never raises on input: anything wrong on the line becomes a `Fault` event that
carries the raw bytes, and reading goes on. Damage is counted, and only the first few
faults of each interval are told one by one; the rest come as one `NoisyLine` summary
when the transport asks (`summary`), so a noisy cable cannot flood the dealer's window.
Garbage is dropped in bulk: the work is proportional to the bytes received.

It holds messages that arrive after a gap until the missing ones are resent (or given up
for lost), so cards are delivered once each and in the order they were dealt. It keeps no
clock: the transport decides when to ask for a resend (`request_resend`), when to stop
waiting (`give_up`) and when an interval of faults ends (`summary`).
"""

from __future__ import annotations

import binascii
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import Enum

from app.core.cards import Card, CardError, card

BAUDRATE = 9600
MAX_LINE = 200          # bytes from `$` to the checksum; longer lines are refused
SEQ_MAX = 99999         # sequence numbers run 1..SEQ_MAX, then start again at 1
_HALF = SEQ_MAX // 2    # a number up to this far ahead is newer, further is older
RESTART_WINDOW = 500    # a message this far behind is a restarted shoe, not a late copy
MAX_RESEND = 1000       # the most messages one RESEND asks for
_MEMORY = 2000          # how many lost sequence numbers are remembered
FAULT_BUDGET = 3        # line faults told one by one between two summaries; then counted
_HEX = frozenset(b"0123456789ABCDEFabcdef")

# Station -> shoe messages: echoed back by some half-duplex adapters, so ignored on input.
STATION_TYPES = frozenset({"RESEND"})


class Check(Enum):
    """How a line's check is made: CRC-16 (the protocol) or XOR (older shoes only)."""

    CRC16 = "crc16"     # CRC-16/CCITT-FALSE, 4 hex digits: catches every 1-3 bit error
    XOR = "xor"         # XOR of the bytes, 2 hex digits: two flips in one place cancel

    @property
    def digits(self) -> int:
        return 4 if self is Check.CRC16 else 2

    def of(self, body: bytes) -> int:
        """The check of the bytes between `$` and `*`."""
        if self is Check.CRC16:
            return binascii.crc_hqx(body, 0xFFFF)      # exactly CRC-16/CCITT-FALSE
        x = 0
        for b in body:
            x ^= b
        return x

    def text(self, value: int) -> str:
        return f"{value:0{self.digits}X}"


def checksum(body: bytes, check: Check = Check.CRC16) -> int:
    """The check of the bytes between `$` and `*` (CRC-16/CCITT-FALSE unless told XOR)."""
    return check.of(body)


def seq_after(seq: int, n: int = 1) -> int:
    """The sequence number n after seq (1..SEQ_MAX wrapping to 1)."""
    return (seq - 1 + n) % SEQ_MAX + 1


def seq_distance(old: int, new: int) -> int:
    """How many steps forward from old to new (0 when equal)."""
    return (new - old) % SEQ_MAX


def _newer(old: int, new: int) -> bool:
    return 0 < seq_distance(old, new) <= _HALF


# ---------------------------------------------------------------------------- events


class ShoeEvent:
    """Base of everything a shoe reader delivers."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Hello(ShoeEvent):
    """The shoe introduces itself (at power-on and on every reconnect)."""

    seq: int            # the last sequence number the shoe has sent (0: none yet)
    model: str
    firmware: str

    def __str__(self) -> str:
        return f"HELLO {self.model} firmware {self.firmware}, last message {self.seq}"


@dataclass(frozen=True, slots=True)
class ShuffleStart(ShoeEvent):
    seq: int

    def __str__(self) -> str:
        return f"#{self.seq} SHUFFLE START"


@dataclass(frozen=True, slots=True)
class ShuffleEnd(ShoeEvent):
    seq: int
    count: int          # cards in the shuffled deck (53 with the joker)

    def __str__(self) -> str:
        return f"#{self.seq} SHUFFLE END {self.count} cards"


@dataclass(frozen=True, slots=True)
class CardRead(ShoeEvent):
    """One card read, in dealt order."""

    seq: int
    card: Card

    def __str__(self) -> str:
        return f"#{self.seq} CARD {self.card}"


@dataclass(frozen=True, slots=True)
class HandDealt(ShoeEvent):
    """A 7-card stack from a shuffler; stack 1 is dealt first (it goes to action)."""

    seq: int
    stack: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"#{self.seq} HAND {self.stack}: {' '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class Burn(ShoeEvent):
    """Cards burned or left over (the 4 cards not dealt)."""

    seq: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"#{self.seq} BURN {' '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class ActionRead(ShoeEvent):
    """Action sent by a shuffler or dice shaker: an RNG number 1-7 or three dice."""

    seq: int
    method: str                 # "RNG" or "DICE"
    values: tuple[int, ...]     # (n,) for RNG, (d1, d2, d3) for DICE

    @property
    def number(self) -> int:
        return sum(self.values)

    def __str__(self) -> str:
        return f"#{self.seq} ACTION {self.method} {' '.join(map(str, self.values))}"


@dataclass(frozen=True, slots=True)
class DeviceError(ShoeEvent):
    """The shoe reports a problem of its own (jam, misread, door open...)."""

    seq: int
    code: str
    text: str

    def __str__(self) -> str:
        return f"#{self.seq} ERROR {self.code}: {self.text}"


@dataclass(frozen=True, slots=True)
class Heartbeat(ShoeEvent):
    seq: int            # the last sequence number the shoe has sent

    def __str__(self) -> str:
        return f"BEAT last message {self.seq}"


@dataclass(frozen=True, slots=True)
class Recovered(ShoeEvent):
    """Missing messages were resent and delivered in order: nothing was lost."""

    first: int
    last: int
    count: int

    def __str__(self) -> str:
        return f"RECOVERED {self.count} message(s) {self.first}-{self.last}"


@dataclass(frozen=True, slots=True)
class NoisyLine(ShoeEvent):
    """A summary of the line's damage since the last one, when more was damaged than told."""

    messages: int       # damaged messages (bad check, cut off, over-long), told or not
    dropped: int        # bytes thrown away, stray bytes included
    seconds: float      # over how long

    def __str__(self) -> str:
        return (f"The shoe's line is noisy: {self.messages} damaged message(s) and "
                f"{self.dropped} byte(s) dropped in {self.seconds:.0f} s. Check the shoe's "
                "cable and plug; cards lost to the noise are asked for again.")


class FaultKind(Enum):
    NOISE = "noise"                 # stray bytes outside a message
    TOO_LONG = "too-long"           # a line longer than MAX_LINE
    MALFORMED = "malformed"         # not a well-formed message (or cut off)
    CHECKSUM = "checksum"           # damaged on the line
    UNKNOWN = "unknown"             # a message type the station does not know
    DUPLICATE = "duplicate"         # a sequence number already received: dropped
    OUT_OF_ORDER = "out-of-order"   # arrived after a later one (put back in order), or too late
    GAP = "gap"                     # messages missing: asked for again
    LOST = "lost"                   # messages that never came
    RESTART = "restart"             # the shoe's count started over


@dataclass(frozen=True, slots=True)
class Fault(ShoeEvent):
    """Something wrong on the line, said for the dealer; `raw` is what was received."""

    kind: FaultKind
    message: str
    raw: bytes = b""
    seq: int | None = None

    def __str__(self) -> str:
        where = f"#{self.seq} " if self.seq is not None else ""
        raw = f" {self.raw!r}" if self.raw else ""
        return f"{where}FAULT {self.kind.value}: {self.message}{raw}"


MessageEvent = (Hello | ShuffleStart | ShuffleEnd | CardRead | HandDealt | Burn | ActionRead
                | DeviceError | Heartbeat)


# --------------------------------------------------------------------------- encoder


class EncodeError(ValueError):
    pass


def _field_ok(text: str) -> bool:
    return all(32 <= ord(ch) < 127 and ch not in ",*$" for ch in text)


def encode_line(kind: str, seq: int, *fields: str, check: Check = Check.CRC16) -> bytes:
    """One line on the wire: `$KIND,seq,fields*HHHH\\r\\n` (`*HH` for an XOR shoe)."""
    for f in (kind, *fields):
        if not _field_ok(f):
            raise EncodeError(f"{f!r} cannot go on the line: printable ASCII without , * $")
    body = ",".join((kind, str(seq), *fields)).encode("ascii")
    return b"$%s*%s\r\n" % (body, check.text(check.of(body)).encode())


def encode(event: MessageEvent, check: Check = Check.CRC16) -> bytes:
    """The line a shoe sends for this event (what the simulator writes)."""
    kind, seq, fields = _message(event)
    return encode_line(kind, seq, *fields, check=check)


def _message(event: MessageEvent) -> tuple[str, int, tuple[str, ...]]:
    match event:
        case Hello(seq, model, firmware):
            return "HELLO", seq, (model, firmware)
        case ShuffleStart(seq):
            return "SHUFFLE", seq, ("START",)
        case ShuffleEnd(seq, count):
            return "SHUFFLE", seq, ("END", str(count))
        case CardRead(seq, c):
            return "CARD", seq, (str(c),)
        case HandDealt(seq, stack, cards):
            return "HAND", seq, (str(stack), *map(str, cards))
        case Burn(seq, cards):
            return "BURN", seq, tuple(map(str, cards))
        case ActionRead(seq, method, values):
            return "ACTION", seq, (method, *map(str, values))
        case DeviceError(seq, code, text):
            return "ERROR", seq, (code, text)
        case Heartbeat(seq):
            return "BEAT", seq, ()
    raise EncodeError(f"{event!r} is not a shoe message")


def encode_resend(first: int, last: int, check: Check = Check.CRC16) -> bytes:
    """The station's request: send messages first..last again."""
    return encode_line("RESEND", first, str(last), check=check)


# ---------------------------------------------------------------------------- decoder


class _Bad(Exception):
    """A message whose fields are wrong (becomes a MALFORMED fault)."""


def _cards(tokens: list[str], what: str) -> tuple[Card, ...]:
    try:
        return tuple(card(t) for t in tokens)
    except CardError:
        bad = next(t for t in tokens if not _is_card(t))
        raise _Bad(f"{what} has {bad!r} where a card code belongs (AS, TH or 10H, JK)") from None


def _is_card(token: str) -> bool:
    try:
        card(token)
    except CardError:
        return False
    return True


def _int(text: str, what: str, lo: int, hi: int) -> int:
    if not text.isdigit() or not lo <= int(text) <= hi:
        raise _Bad(f"{what} must be a number {lo}-{hi}, got {text!r}")
    return int(text)


def _data_event(kind: str, seq: int, f: list[str]) -> ShoeEvent:
    """The event for a data message's fields (raises _Bad)."""
    if kind == "CARD":
        if len(f) != 1:
            raise _Bad(f"CARD carries one card, got {len(f)} fields")
        return CardRead(seq, _cards(f, "CARD")[0])
    if kind == "HAND":
        if len(f) != 8:
            raise _Bad(f"HAND carries a stack number and 7 cards, got {len(f)} fields")
        return HandDealt(seq, _int(f[0], "HAND stack", 1, 7), _cards(f[1:], "HAND"))
    if kind == "BURN":
        if not 1 <= len(f) <= 53:
            raise _Bad("BURN carries 1 to 53 cards")
        return Burn(seq, _cards(f, "BURN"))
    if kind == "SHUFFLE":
        if f == ["START"]:
            return ShuffleStart(seq)
        if len(f) == 2 and f[0] == "END":
            return ShuffleEnd(seq, _int(f[1], "SHUFFLE END card count", 1, 999))
        raise _Bad("SHUFFLE is START, or END with the card count")
    if kind == "ACTION":
        if len(f) == 2 and f[0] == "RNG":
            return ActionRead(seq, "RNG", (_int(f[1], "ACTION RNG", 1, 7),))
        if len(f) == 4 and f[0] == "DICE":
            return ActionRead(seq, "DICE", tuple(_int(d, "a die", 1, 6) for d in f[1:]))
        raise _Bad("ACTION is RNG with a number 1-7, or DICE with three dice 1-6")
    if kind == "ERROR":
        if not f or not f[0]:
            raise _Bad("ERROR carries a code and a text")
        return DeviceError(seq, f[0], ",".join(f[1:]))
    raise KeyError(kind)


DATA_TYPES = frozenset({"CARD", "HAND", "BURN", "SHUFFLE", "ACTION", "ERROR"})
STATUS_TYPES = frozenset({"HELLO", "BEAT"})


def _first(*found: int) -> int:
    """The first of some `find` results, or -1 when none found anything."""
    hits = [i for i in found if i >= 0]
    return min(hits) if hits else -1


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


@dataclass
class _Hole:
    first: int
    last: int
    requested: bool = False


@dataclass
class ShoeParser:
    """Bytes from the shoe in, events out; never raises on what the line brings.

    `last_seq` resumes after a message already delivered (e.g. the ledger's last card), so
    a restarted station asks the shoe for what it missed; 0 once the shoe has said (HELLO,0
    or BEAT,0) that it has sent nothing yet.
    """

    last_seq: int | None = None
    max_line: int = MAX_LINE
    check: Check = Check.CRC16
    fault_budget: int = FAULT_BUDGET
    _buf: bytearray = field(default_factory=bytearray, repr=False)
    _discarding: bool = field(default=False, repr=False)
    _known: int | None = field(default=None, repr=False)        # newest number known to exist
    _held: dict[int, list[ShoeEvent]] = field(default_factory=dict, repr=False)
    _holes: list[_Hole] = field(default_factory=list, repr=False)
    _lost: OrderedDict[int, None] = field(default_factory=OrderedDict, repr=False)
    _recovering: list[int] = field(default_factory=list, repr=False)  # requested and got
    _outbox: bytearray = field(default_factory=bytearray, repr=False)
    _told: int = field(default=0, repr=False)           # line faults told since the summary
    _damaged: int = field(default=0, repr=False)        # damaged messages since the summary
    _dropped: int = field(default=0, repr=False)        # bytes dropped since the summary
    _untold: bool = field(default=False, repr=False)    # some damage went untold

    def __post_init__(self) -> None:
        self._known = self.last_seq

    # ------------------------------------------------------------------ public

    def feed(self, data: bytes) -> list[ShoeEvent]:
        """Events for the bytes read; a partial line waits for the next read."""
        out: list[ShoeEvent] = []
        buf = self._buf
        buf += data
        pos, end = 0, len(buf)
        while pos < end:
            if self._discarding:                     # the tail of an over-long line
                stop = _first(buf.find(b"$", pos), buf.find(b"\n", pos))
                if stop < 0:
                    self._dropped += end - pos
                    pos = end
                    break
                self._dropped += stop - pos
                pos = stop
                self._discarding = False
            if self._told >= self.fault_budget:      # nothing more is told: bulk work
                stop = buf.rfind(b"\n", pos) + 1 or (buf.rfind(b"$", pos)
                                                      if end - pos > self.max_line + 1 else 0)
                if stop > pos:
                    self._quiet(bytes(buf[pos:stop]), out)
                    pos = stop
                    continue
            nl = buf.find(b"\n", pos)
            if nl >= 0:
                self._line(bytes(buf[pos:nl]), out)
                pos = nl + 1
                continue
            if end - pos <= self.max_line + 1:       # room for the sentence and its CR
                break
            cut = buf.rfind(b"$", pos)
            if cut > pos:                            # no newline, but a new message began
                self._line(bytes(buf[pos:cut]), out)
                pos = cut
                continue
            self._damage(out, FaultKind.TOO_LONG, self._too_long(),
                         bytes(buf[pos:pos + self.max_line]), end - pos)
            pos = end
            self._discarding = True
        del buf[:pos]
        return out

    def summary(self, seconds: float = 1.0) -> list[ShoeEvent]:
        """Close the interval (the transport calls this about once a second): a NoisyLine
        if some damage went untold, and faults are told one by one again."""
        out: list[ShoeEvent] = []
        if self._untold:
            out.append(NoisyLine(self._damaged, self._dropped, seconds))
        self._told = self._damaged = self._dropped = 0
        self._untold = False
        return out

    def link_lost(self) -> list[ShoeEvent]:
        """The port went away: a partial line is reported cut off; numbering is kept."""
        out: list[ShoeEvent] = []
        rest = bytes(self._buf).strip()
        self._buf.clear()
        self._discarding = False
        if rest:
            self._damage(out, FaultKind.MALFORMED,
                         "A message was cut off when the shoe went offline; it will be "
                         "asked for again.", rest[:self.max_line], len(rest))
        return out

    flush = link_lost

    @property
    def missing(self) -> tuple[int, int] | None:
        """The first range of sequence numbers known to be missing, if any."""
        return (self._holes[0].first, self._holes[0].last) if self._holes else None

    @property
    def unrequested(self) -> bool:
        return any(not h.requested for h in self._holes)

    def request_resend(self) -> list[ShoeEvent]:
        """Ask the shoe for every missing range (see `take_outgoing`); GAP faults for new ones."""
        out: list[ShoeEvent] = []
        for hole in self._holes:
            first, last = hole.first, hole.last
            if seq_distance(first, last) >= MAX_RESEND:
                last = seq_after(first, MAX_RESEND - 1)
            self._outbox += encode_resend(first, last, self.check)
            if not hole.requested:
                hole.requested = True
                n = seq_distance(hole.first, hole.last) + 1
                out.append(Fault(
                    FaultKind.GAP,
                    f"{n} message(s) from the shoe did not arrive ({_span(hole.first, hole.last)});"
                    " asked the shoe to send them again.",
                    seq=hole.first))
        return out

    def give_up(self) -> list[ShoeEvent]:
        """Stop waiting: the missing messages are lost; held messages are delivered."""
        out: list[ShoeEvent] = []
        while self._holes:
            hole = self._holes.pop(0)
            n = seq_distance(hole.first, hole.last) + 1
            out.append(Fault(
                FaultKind.LOST,
                f"{n} message(s) from the shoe never came ({_span(hole.first, hole.last)}): "
                "enter the missing cards by hand, or call a misdeal.",
                seq=hole.first))
            s = hole.first
            for _ in range(n):
                self._remember_lost(s)
                s = seq_after(s)
            if self.last_seq is None or _newer(self.last_seq, hole.last):
                self.last_seq = hole.last
            self._release(out)
        self._recovering.clear()
        return out

    def take_outgoing(self) -> bytes:
        """Bytes the station should write to the shoe (resend requests)."""
        data = bytes(self._outbox)
        self._outbox.clear()
        return data

    # ----------------------------------------------------------------- framing

    def _too_long(self) -> str:
        return (f"A line of more than {self.max_line} characters came from the shoe and was "
                "ignored: check that the port speed (baud) matches the shoe.")

    def _damage(self, out: list[ShoeEvent], kind: FaultKind, message: str, raw: bytes,
                size: int, seq: int | None = None) -> None:
        """Count damage on the line; tell it only while this interval's budget lasts."""
        self._dropped += size
        if kind is not FaultKind.NOISE:
            self._damaged += 1
        if self._told < self.fault_budget:
            self._told += 1
            out.append(Fault(kind, message, raw, seq))
        else:
            self._untold = True

    def _line(self, line: bytes, out: list[ShoeEvent]) -> None:
        line = line.rstrip(b"\r")
        d = line.find(b"$")
        noise = line if d < 0 else line[:d]
        if noise.strip():
            self._damage(out, FaultKind.NOISE,
                         "Stray bytes on the shoe line were ignored (line noise or a loose "
                         "cable).", noise[:self.max_line], len(noise))
        while d >= 0:
            if self._told >= self.fault_budget:      # nothing more is told: count in bulk
                self._quiet(line[d:], out)
                return
            nxt = line.find(b"$", d + 1)
            part = line[d + 1:nxt] if nxt >= 0 else line[d + 1:]
            self._sentence(b"$" + part.strip(), out)
            d = nxt

    def _quiet(self, region: bytes, out: list[ShoeEvent]) -> None:
        """Whole lines read once no more faults are told: only what has the shape of a
        message (`$`, up to a line of text, `*` and the check's hex digits, then the line's
        end or the next `$`) is looked at, found by one regular expression; every other `$`
        is a damaged message and every other byte is dropped, both counted without a look
        each."""
        shaped = re.compile(rb"\$[^$\n]{0,%d}\*[0-9A-Fa-f]{%d}[ \t\r]*(?![^$\n])"
                            % (self.max_line, self.check.digits))
        looked = used = 0
        for m in shaped.finditer(region):
            looked += 1
            used += m.end() - m.start()
            self._sentence(m.group().strip(), out)
        cut = region.count(b"$") - looked
        spare = len(region) - used - region.count(b"\n") - region.count(b"\r")
        if cut or spare > 0:
            self._damaged += cut
            self._dropped += max(spare, 0)
            self._untold = True

    def _sentence(self, raw: bytes, out: list[ShoeEvent]) -> None:
        if len(raw) > self.max_line:
            self._damage(out, FaultKind.TOO_LONG, self._too_long(), raw[:self.max_line],
                         len(raw))
            return
        star = raw.rfind(b"*")
        if star < 0:
            self._damage(out, FaultKind.MALFORMED,
                         "A message from the shoe was cut off or has no checksum; ignored.",
                         raw, len(raw))
            return
        body, tail = raw[1:star], raw[star + 1:]
        check = self.check
        if len(tail) != check.digits or not _HEX.issuperset(tail):
            other = Check.XOR if check is Check.CRC16 else Check.CRC16
            if len(tail) == other.digits and _HEX.issuperset(tail):
                why = (f"A message from the shoe ends in a {other.digits}-digit checksum, the "
                       f"{other.value.upper()} form, but this station reads the "
                       f"{check.value.upper()} form: set the shoe's checksum setting to match "
                       f"the shoe ({other.value!r}); ignored.")
            else:
                why = (f"A message from the shoe does not end in a {check.digits}-digit "
                       "checksum; ignored.")
            self._damage(out, FaultKind.MALFORMED, why, raw, len(raw))
            return
        given, want = int(tail, 16), check.of(body)
        if given != want:
            self._damage(out, FaultKind.CHECKSUM,
                         f"A message was damaged on the line (checksum {check.text(given)}, "
                         f"should be {check.text(want)}); it is ignored and will be asked for "
                         "again.", raw, len(raw))
            return
        if any(b < 32 or b > 126 for b in body):
            self._damage(out, FaultKind.MALFORMED,
                         "A message from the shoe has characters that are not plain ASCII; "
                         "ignored.", raw, len(raw))
            return
        fields = body.decode("ascii").split(",")
        kind = fields[0]
        if kind in STATION_TYPES:
            return                                   # our own request, echoed back
        if not (kind.isalpha() and kind.isupper()):
            out.append(Fault(FaultKind.MALFORMED,
                             f"A message from the shoe has {kind!r} where its type belongs "
                             "(capital letters, e.g. CARD); ignored.", raw))
            return
        if len(fields) < 2 or not fields[1].isdigit() or int(fields[1]) > SEQ_MAX:
            out.append(Fault(FaultKind.MALFORMED,
                             f"A {kind or 'blank'} message from the shoe has no valid sequence "
                             f"number (0-{SEQ_MAX}); ignored.", raw))
            return
        seq, rest = int(fields[1]), fields[2:]
        if kind in STATUS_TYPES:
            self._status(kind, seq, rest, raw, out)
            return
        if seq == 0:
            out.append(Fault(FaultKind.MALFORMED,
                             f"A {kind} message from the shoe has sequence number 0 (only HELLO "
                             "and BEAT may); ignored.", raw))
            return
        content: list[ShoeEvent]
        if kind in DATA_TYPES:
            try:
                content = [_data_event(kind, seq, rest)]
            except _Bad as why:
                content = [Fault(FaultKind.MALFORMED, f"Bad {kind} message from the shoe: {why}; "
                                 "ignored.", raw, seq)]
        else:
            content = [Fault(FaultKind.UNKNOWN,
                             f"The shoe sent a {kind!r} message the station does not know "
                             "(newer firmware?); ignored.", raw, seq)]
        self._data(seq, content, raw, out)

    # ------------------------------------------------------------- sequencing

    def _status(self, kind: str, seq: int, f: list[str], raw: bytes,
                out: list[ShoeEvent]) -> None:
        if kind == "HELLO":
            if len(f) != 2 or not all(f):
                out.append(Fault(FaultKind.MALFORMED,
                                 "HELLO carries the shoe's model and firmware; ignored.", raw))
                return
            event: ShoeEvent = Hello(seq, f[0], f[1])
        else:
            if f:
                out.append(Fault(FaultKind.MALFORMED, "BEAT carries no fields; ignored.", raw))
                return
            event = Heartbeat(seq)
        known = self._known
        if known is not None and seq != known and (seq == 0 or not _newer(known, seq)):
            self._restart(out, raw)         # the old count's losses are told before the new
            known = None
        out.append(event)
        if known is None:
            # The count starts from the shoe's word, 0 included: HELLO,0 says nothing is sent
            # yet, so a #2 first means #1 was missed and is asked for, not counted from #2.
            self.last_seq = self._known = seq
        elif seq != known:
            self._holes.append(_Hole(seq_after(known), seq))
            self._known = seq

    def _restart(self, out: list[ShoeEvent], raw: bytes) -> None:
        out.extend(self.give_up())
        out.append(Fault(FaultKind.RESTART,
                         "The shoe restarted and its message count began again: check this "
                         "round's cards against the table.", raw))

    def _data(self, seq: int, content: list[ShoeEvent], raw: bytes,
              out: list[ShoeEvent]) -> None:
        last = self.last_seq
        if last is None:
            self.last_seq = self._known = seq
            out.extend(content)
            return
        if seq == last or not _newer(last, seq):
            behind = seq_distance(seq, last)
            if seq in self._lost:
                out.append(Fault(FaultKind.OUT_OF_ORDER,
                                 f"Message {seq} came after it was reported lost; dropped (enter "
                                 "the card by hand if not done yet).", raw, seq))
            elif behind > RESTART_WINDOW:
                self._restart(out, raw)
                self.last_seq = self._known = seq
                out.extend(content)
            else:
                out.append(Fault(FaultKind.DUPLICATE,
                                 f"Message {seq} came twice; the copy was dropped.", raw, seq))
            return
        if seq in self._held:
            out.append(Fault(FaultKind.DUPLICATE,
                             f"Message {seq} came twice; the copy was dropped.", raw, seq))
            return
        known = self._known if self._known is not None else last
        if _newer(known, seq):                       # beyond anything known: maybe a new hole
            if seq != seq_after(known):
                self._holes.append(_Hole(seq_after(known), seq_after(seq, -1)))
            self._known = seq
            if seq == seq_after(last):
                self.last_seq = seq
                out.extend(content)
            else:
                self._held[seq] = content
            return
        # seq fills a hole
        hole = next((h for h in self._holes
                     if not _newer(h.last, seq) and not _newer(seq, h.first)), None)
        if hole is None:                             # cannot happen; never stop reading
            out.append(Fault(FaultKind.DUPLICATE,
                             f"Message {seq} came twice; the copy was dropped.", raw, seq))
            return
        if hole.requested:
            self._recovering.append(seq)
        else:
            out.append(Fault(FaultKind.OUT_OF_ORDER,
                             f"Message {seq} came after later ones; put back in dealt order.",
                             raw, seq))
        self._split_hole(hole, seq)
        self._held[seq] = content
        self._release(out)

    def _split_hole(self, hole: _Hole, seq: int) -> None:
        i = self._holes.index(hole)
        parts = []
        if seq != hole.first:
            parts.append(_Hole(hole.first, seq_after(seq, -1), hole.requested))
        if seq != hole.last:
            parts.append(_Hole(seq_after(seq), hole.last, hole.requested))
        self._holes[i:i + 1] = parts

    def _release(self, out: list[ShoeEvent]) -> None:
        """Deliver held messages that are next in line."""
        while self.last_seq is not None:
            nxt = seq_after(self.last_seq)
            content = self._held.pop(nxt, None)
            if content is None:
                break
            out.extend(content)
            self.last_seq = nxt
        if self._recovering and not self._holes:
            got = self._recovering
            out.append(Recovered(got[0], got[-1], len(got)))
            self._recovering = []

    def _remember_lost(self, seq: int) -> None:
        self._lost[seq] = None
        if len(self._lost) > _MEMORY:
            self._lost.popitem(last=False)
