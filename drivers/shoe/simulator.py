"""A shoe that speaks the station's protocol: the demo device and the tests' other end.

`ShoeDevice` is the shoe's side of the protocol (numbers each message, keeps the recent
ones to answer RESEND). `Simulator` deals rounds through a `Link` (a pseudo-terminal, a
serial port, or anything with open/close/read/write), with faults injected on request:

    checksum    the card's line is damaged on the way (a byte flipped): the station asks again
    drop        the card's line never arrives: the station sees the gap and asks again
    lose        the card's line never arrives and the shoe cannot send it again (a card the
                shoe lost): the station reports it lost, and the deal has a hole there
    duplicate   the card's line is sent twice
    garbage     stray bytes arrive just before the card
    split       the card's line arrives in two pieces, a moment apart
    swap        the card's line arrives after the next card's (out of order)
    unknown     a message type the station does not know comes before the card
    long        an over-long line comes before the card
    disconnect  the shoe is unplugged after the card, keeps dealing, and is plugged back in
"""

from __future__ import annotations

import os
import random
import secrets
import select
import threading
import time
import tty
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

from app.core.cards import DECK, Card, parse_cards

from .protocol import SEQ_MAX, Check, encode_line, seq_after

FAULTS = ("checksum", "drop", "lose", "duplicate", "garbage", "split", "swap", "unknown",
          "long", "disconnect", "truncate")
MODES = ("card", "hand")
ACTIONS = ("rng", "dice", "none")
GARBAGE = b"\x00\x7f~#\xff\x13 "
CARDS_PER_HAND = 7
HANDS = 7


class SimulatorError(ValueError):
    """A simulator option that cannot work; the text says what to give instead."""


# ------------------------------------------------------------------------ device


@dataclass
class ShoeDevice:
    """The shoe's half of the protocol."""

    model: str = "PAIGOW-SIM"
    firmware: str = "1.0"
    history: int = 1000
    check: Check = Check.CRC16                      # XOR: an older shoe's checks
    seq: int = 0                                    # last sequence number used (0: none)
    _sent: OrderedDict[int, bytes] = field(default_factory=OrderedDict, repr=False)
    _inbox: bytearray = field(default_factory=bytearray, repr=False)

    def message(self, kind: str, *fields: str) -> bytes:
        """The next numbered message, kept for resending."""
        self.seq = seq_after(self.seq) if self.seq else 1
        line = encode_line(kind, self.seq, *fields, check=self.check)
        self._sent[self.seq] = line
        self._sent.move_to_end(self.seq)
        while len(self._sent) > self.history:
            self._sent.popitem(last=False)
        return line

    def forget(self, seq: int) -> None:
        """Lose a message: it cannot be sent again."""
        self._sent.pop(seq, None)

    def hello(self) -> bytes:
        return encode_line("HELLO", self.seq, self.model, self.firmware, check=self.check)

    def beat(self) -> bytes:
        return encode_line("BEAT", self.seq, check=self.check)

    def answer(self, data: bytes) -> list[bytes]:
        """Lines to send again for the RESEND requests in data (partial lines wait)."""
        self._inbox += data
        out: list[bytes] = []
        while (nl := self._inbox.find(b"\n")) >= 0:
            line = bytes(self._inbox[:nl]).strip()
            del self._inbox[:nl + 1]
            start = line.rfind(b"$")
            star = line.rfind(b"*")
            if start < 0 or star < start:
                continue
            body = line[start + 1:star]
            try:
                kind, first, last = body.decode("ascii").split(",")
                tail = line[star + 1:]
                ok = (len(tail) == self.check.digits and int(tail, 16) == self.check.of(body)
                      and kind == "RESEND")
                first_seq, last_seq = int(first), int(last)
            except ValueError:
                continue
            if not ok:
                continue
            s = first_seq
            for _ in range(min((last_seq - first_seq) % SEQ_MAX + 1, self.history)):
                if s in self._sent:
                    out.append(self._sent[s])
                s = seq_after(s)
        return out


# ------------------------------------------------------------------------- links


class Link(Protocol):
    """Where the simulated shoe is plugged in."""

    name: str

    def open(self) -> None: ...
    def close(self) -> None: ...
    def write(self, data: bytes) -> None: ...
    def read(self, timeout: float) -> bytes: ...


class PtyLink:
    """A pseudo-terminal: the station opens `path` (or the stable `link` symlink to it).

    Unplugging closes the pseudo-terminal, as pulling a USB shoe makes its port vanish;
    plugging in makes a new one and points the symlink at it (as /dev/serial/by-id does).
    """

    def __init__(self, link: str | None = None) -> None:
        self.link = link
        self.path = ""
        self.name = link or "pty"
        self._master: int | None = None
        self._slave: int | None = None

    def open(self) -> None:
        if self._master is not None:                 # already plugged in
            return
        master, slave = os.openpty()
        tty.setraw(slave)                   # no echo, no line editing, before anyone reads
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        if self.link:
            tmp = f"{self.link}.{os.getpid()}.tmp"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)
        self.name = self.link or self.path

    def close(self) -> None:
        # The symlink goes with the port, as /dev/serial/by-id's does: left pointing at a
        # freed /dev/pts/N, a station reconnecting could open the next program's terminal
        # of that number (seen with tests in parallel: another simulator's BEAT,0).
        if self.link and self.path and os.path.islink(self.link) \
                and os.readlink(self.link) == self.path:
            os.unlink(self.link)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def remove_link(self) -> None:
        if self.link and os.path.islink(self.link):
            os.unlink(self.link)

    def write(self, data: bytes) -> None:
        if self._master is None:
            return
        view = memoryview(data)
        deadline = time.monotonic() + 0.5
        while view:
            try:
                n = os.write(self._master, view)
            except BlockingIOError:             # nobody reads: the bytes go nowhere
                if time.monotonic() > deadline:
                    return
                select.select([], [self._master], [], 0.05)
                continue
            view = view[n:]

    def read(self, timeout: float) -> bytes:
        if self._master is None:
            time.sleep(timeout)
            return b""
        ready, _, _ = select.select([self._master], [], [], max(timeout, 0))
        if not ready:
            return b""
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            return b""


class SerialLink:
    """A real serial port (or a pyserial URL such as loop://) the simulator writes to."""

    def __init__(self, port: str, baudrate: int = 9600, *, opened: object | None = None) -> None:
        self.name = port
        self.baudrate = baudrate
        self._given = opened
        self._port: object | None = None

    def open(self) -> None:
        import serial

        if self._given is not None:
            self._port = self._given
            return
        try:
            self._port = serial.serial_for_url(self.name, baudrate=self.baudrate, timeout=0,
                                               write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as e:
            raise SimulatorError(f"Cannot open {self.name} ({e}): check the port name and "
                                 "that no other program holds it.") from e

    def close(self) -> None:
        port, self._port = self._port, None
        if port is not None and self._given is None:
            port.close()  # type: ignore[attr-defined]

    def write(self, data: bytes) -> None:
        if self._port is not None:
            self._port.write(data)  # type: ignore[attr-defined]
            self._port.flush()  # type: ignore[attr-defined]

    def read(self, timeout: float) -> bytes:
        port = self._port
        if port is None or self._given is not None:     # a shared loop:// reads itself
            time.sleep(max(timeout, 0))
            return b""
        deadline = time.monotonic() + timeout
        while True:
            waiting = port.in_waiting  # type: ignore[attr-defined]
            if waiting:
                return port.read(waiting)  # type: ignore[attr-defined,no-any-return]
            left = deadline - time.monotonic()
            if left <= 0:
                return b""
            time.sleep(min(left, 0.01))


# ----------------------------------------------------------------------- faults


@dataclass(frozen=True, slots=True)
class Injection:
    """A fault at the Nth card (CARD mode) or stack (HAND mode) of every round; None: random."""

    kind: str
    at: int | None = None

    @classmethod
    def parse(cls, text: str) -> Injection:
        kind, _, at = text.strip().lower().partition("@")
        if kind not in FAULTS:
            raise SimulatorError(f"{text!r}: faults are {', '.join(FAULTS)}, optionally with "
                                 "@N for the Nth card of the round (e.g. checksum@5)")
        if at and (not at.isdigit() or not 1 <= int(at) <= HANDS * CARDS_PER_HAND):
            raise SimulatorError(f"{text!r}: the card after @ is a number 1-49")
        return cls(kind, int(at) if at else None)

    def __str__(self) -> str:
        return self.kind + (f"@{self.at}" if self.at else "")


def fixed_deck(text: str) -> tuple[Card, ...]:
    """A deck in dealing order from card text: all 53 cards, each once."""
    try:
        return parse_cards(text, count=len(DECK))
    except ValueError as e:
        raise SimulatorError(f"--deck: {e}. Give all 53 cards (52 and JK) in dealing order.") \
            from None


# --------------------------------------------------------------------- simulator


@dataclass
class Simulator:
    """Deals rounds on a link, answers RESEND, sends heartbeats, injects faults."""

    link: Link
    device: ShoeDevice = field(default_factory=ShoeDevice)
    mode: str = "card"
    rounds: int = 1                     # 0: until stopped
    deck: Sequence[Card] | None = None  # the same fixed deck every round
    seed: int | None = None             # else a seeded shuffle; else `secrets`
    action: str = "rng"
    shuffle: bool = True                # False: a shoe that reads cards only (no SHUFFLE)
    card_delay: float = 0.0
    round_pause: float = 0.0
    heartbeat: float = 1.0              # seconds between heartbeats when idle (0: none)
    inject: Iterable[Injection] = ()
    unplug_seconds: float = 1.0
    linger: float = 0.0                 # after the last round, keep answering this long
    record: BinaryIO | None = None      # every byte written also goes here
    on_status: Callable[[str], None] = lambda text: None
    # Called as the shoe passes time (between cards too): a shoe driven from outside is
    # unplugged or plugged in at once there, not after the deal under way.
    tick: Callable[[], None] = lambda: None
    # Asked before each card of a deal: True stops the deal there, the rest unsent (the
    # station abandoned it: a misdeal, the deal typed by hand), and no BURN follows.
    abandon: Callable[[], bool] = lambda: False
    clock: Callable[[], float] = time.monotonic
    _rng: random.Random = field(init=False, repr=False)
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _connected: bool = field(default=False, repr=False)
    _replug_at: float = field(default=0.0, repr=False)
    _last_write: float = field(default=0.0, repr=False)
    _swapped: bytes | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise SimulatorError(f"mode {self.mode!r}: use card (CARD by CARD) or hand (HAND "
                                 "stacks)")
        if self.action not in ACTIONS:
            raise SimulatorError(f"action {self.action!r}: use rng, dice or none")
        self.inject = tuple(self.inject)
        self._rng = (random.Random(self.seed) if self.seed is not None
                     else secrets.SystemRandom())

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> int:
        """Deal the rounds; returns how many were dealt."""
        dealt = 0
        try:
            self.plug()
            while not self._stop.is_set() and (self.rounds == 0 or dealt < self.rounds):
                self.deal_round()
                dealt += 1
                self.on_status(f"round {dealt} dealt (last message {self.device.seq})")
                self.idle(self.round_pause)
            if not self._connected:             # still unplugged: come back to be read
                self.idle(max(self._replug_at - self.clock(), 0))
            self.idle(self.linger)
        finally:
            if self._connected:
                self.link.close()
                self._connected = False
        return dealt

    # A shoe driven from outside (the station's demo shoe) instead of by `run`: plug it in,
    # deal a round whenever asked, pass the time in between, unplug and plug it back.

    @property
    def plugged(self) -> bool:
        """Whether the shoe is plugged in (its link open)."""
        return self._connected

    def plug(self) -> None:
        """Plug the shoe in (open the link) and say HELLO; nothing if it is plugged in."""
        if self._connected:
            return
        self.link.open()
        self._connected = True
        self.on_status(f"shoe plugged in on {self.link.name}")
        self._send(self.device.hello())

    def unplug(self, seconds: float | None = None) -> None:
        """Pull the cable (close the link). `idle` plugs it back after `seconds` (default
        `unplug_seconds`; `math.inf`: only `plug` does); nothing if it is unplugged."""
        if not self._connected:
            return
        away = self.unplug_seconds if seconds is None else seconds
        self.link.close()
        self._connected = False
        self._replug_at = self.clock() + away
        self.on_status(f"shoe unplugged for {away:g} s (it keeps dealing)")

    def deal_now(self, deck: Sequence[Card] | None = None) -> bool:
        """Deal one round now: `deck` in its order, else the next deck (fixed or shuffled).
        Returns False, dealing nothing, when the shoe is unplugged."""
        if not self._connected:
            return False
        self.deal_round(deck)
        return True

    def idle(self, seconds: float) -> None:
        """Pass time as a shoe does: answer RESEND, beat when quiet, come back if unplugged
        (once its time is up), until `seconds` have passed or `stop()` is called."""
        self._idle(seconds)

    def next_deck(self) -> tuple[Card, ...]:
        if self.deck is not None:
            return tuple(self.deck)
        cards = list(DECK)
        self._rng.shuffle(cards)
        return tuple(cards)

    def deal_round(self, deck: Sequence[Card] | None = None) -> None:
        """Deal one round: `deck` in its order, else the next deck (fixed or shuffled)."""
        deck = tuple(deck) if deck is not None else self.next_deck()
        dealt = HANDS * CARDS_PER_HAND
        units = dealt if self.mode == "card" else HANDS
        faults: dict[int, set[str]] = {}
        for inj in self.inject:
            at = inj.at if inj.at is not None else self._rng.randint(1, units)
            faults.setdefault(min(at, units), set()).add(inj.kind)
        if self.shuffle:
            self._send(self.device.message("SHUFFLE", "START"))
            self._send(self.device.message("SHUFFLE", "END", str(len(deck))))
        if self.action == "rng":
            self._send(self.device.message("ACTION", "RNG", str(self._rng.randint(1, 7))))
        elif self.action == "dice":
            dice = (str(self._rng.randint(1, 6)) for _ in range(3))
            self._send(self.device.message("ACTION", "DICE", *dice))
        if self.mode == "card":
            for i, c in enumerate(deck[:dealt], 1):
                self._idle(self.card_delay)
                if self.abandon():
                    return
                self._deal(("CARD", str(c)), faults.get(i, set()))
        else:
            for stack in range(1, HANDS + 1):
                cards = deck[(stack - 1) * CARDS_PER_HAND:stack * CARDS_PER_HAND]
                self._idle(self.card_delay)
                if self.abandon():
                    return
                self._deal(("HAND", str(stack), *map(str, cards)), faults.get(stack, set()))
        self._idle(self.card_delay)
        if self.abandon():
            return
        self._release_swapped()
        self._send(self.device.message("BURN", *map(str, deck[dealt:])))
        if self.heartbeat:
            self._send(self.device.beat())

    # --------------------------------------------------------------- private

    def _deal(self, msg: tuple[str, ...], kinds: set[str]) -> None:
        if "unknown" in kinds:
            self._send(self.device.message("TEMP", "41.5C"))
        if "long" in kinds:
            self._send(b"$" + b"LONG," * 60 + b"*00\r\n")
        if "garbage" in kinds:
            self._send(GARBAGE)
        line = self.device.message(*msg)
        if "lose" in kinds:
            self.device.forget(self.device.seq)
        if "drop" in kinds or "lose" in kinds:
            pass
        elif "swap" in kinds:
            self._swapped = line
            return
        elif "checksum" in kinds:
            star = line.rindex(b"*")
            self._send(line[:star - 1] + bytes([line[star - 1] ^ 0x01]) + line[star:])
        elif "truncate" in kinds:  # cut off mid-message (a glitch, a buffer overrun)
            self._send(line[:len(line) // 2] + b"\r\n")
        elif "split" in kinds:
            self._send(line[:7])
            self._idle(0.02)
            self._send(line[7:])
        else:
            self._send(line)
        self._release_swapped()
        if "duplicate" in kinds:
            self._send(line)
        if "disconnect" in kinds:
            self.unplug()

    def _release_swapped(self) -> None:
        if self._swapped is not None:
            line, self._swapped = self._swapped, None
            self._send(line)

    def _send(self, data: bytes) -> None:
        if not self._connected:
            return                          # unplugged: dealt, but nobody hears it
        self.link.write(data)
        if self.record is not None:
            self.record.write(data)
        self._last_write = self.clock()


    def _service(self, timeout: float) -> None:
        """Answer RESEND requests arriving within timeout."""
        data = self.link.read(timeout)
        if data:
            for line in self.device.answer(data):
                self._send(line)

    def _idle(self, seconds: float) -> None:
        """Pass time as a shoe does: answer requests, beat when quiet, come back if unplugged."""
        deadline = self.clock() + max(seconds, 0)
        while True:
            self.tick()
            now = self.clock()
            if not self._connected and now >= self._replug_at and not self._stop.is_set():
                self.plug()
            if self._connected:
                if self.heartbeat and now - self._last_write >= self.heartbeat:
                    self._send(self.device.beat())
                self._service(0)
            now = self.clock()
            if now >= deadline or self._stop.is_set():
                return
            wait = min(deadline - now, 0.05)
            if self._connected:
                if self.heartbeat:
                    wait = min(wait, max(self._last_write + self.heartbeat - now, 0))
                self._service(wait)
            else:
                self._stop.wait(min(wait, max(self._replug_at - now, 0)))
