"""The shoe on a serial port: a thin pyserial opener and a reader that survives unplugging.

`ShoeReader.run()` is a blocking loop (call it from a QThread's `run`, or use `start()` for
a plain thread). It delivers events through a plain callback, or into `reader.events` (a
queue) when no callback is given; the callback runs on the reader's thread, so a Qt widget
should forward it through a signal. No Qt import here.

When the port goes away the reader reports `ShoeOffline` (the station shows "shoe offline"
and takes cards by hand), reopens the port with a growing pause, reports `ShoeOnline`, and
the parser's sequence numbers bring back what was dealt meanwhile: missing messages are
asked for with RESEND, delivered once each and in dealt order, or reported LOST.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

import serial

from .protocol import BAUDRATE, Check, ShoeEvent, ShoeParser

log = logging.getLogger(__name__)

BY_ID_DIR = "/dev/serial/by-id"
BAUDRATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
SUMMARY_INTERVAL = 1.0      # seconds: at most this often a noisy line is summed up


class ShoeConfigError(ValueError):
    """A `[shoe]` setting in the table config that cannot work."""


class ShoeLinkError(OSError):
    """The shoe's port cannot be opened or used; the text says what to do."""


@dataclass(frozen=True, slots=True)
class ShoeConfig:
    """The `[shoe]` table of the table config. Times are in seconds."""

    port: str                           # /dev/ttyUSB0, a /dev/serial/by-id name, or a URL
    baudrate: int = BAUDRATE
    read_timeout: float = 0.05          # one read waits at most this long
    write_timeout: float = 0.5
    heartbeat_timeout: float = 3.0      # this long without a byte: "shoe offline" (0: never)
    reconnect_min: float = 0.2          # first pause before reopening the port...
    reconnect_max: float = 2.0          # ...doubling up to this
    resend_delay: float = 0.1           # wait this long for a late message before RESEND
    resend_timeout: float = 0.5         # wait this long for the answer to a RESEND
    resend_tries: int = 3               # then the missing messages are reported LOST
    checksum: str = Check.CRC16.value   # "xor" only for an older shoe that sends 2 digits

    # TOML key -> field (the config's style is underscores; dashes are accepted too).
    KEYS = {"port": "port", "baud": "baudrate", "read_timeout": "read_timeout",
            "write_timeout": "write_timeout", "heartbeat_timeout": "heartbeat_timeout",
            "reconnect_min": "reconnect_min", "reconnect_max": "reconnect_max",
            "resend_delay": "resend_delay", "resend_timeout": "resend_timeout",
            "resend_tries": "resend_tries", "checksum": "checksum"}

    def __post_init__(self) -> None:
        if not isinstance(self.port, str) or not self.port.strip():
            raise ShoeConfigError("shoe.port: name the shoe's serial port, e.g. /dev/ttyUSB0 "
                                  "or a name from /dev/serial/by-id")
        if self.baudrate not in BAUDRATES:
            raise ShoeConfigError(f"shoe.baud: {self.baudrate!r} is not a serial speed; use one "
                                  f"of {', '.join(map(str, BAUDRATES))} (the shoe's default is "
                                  f"{BAUDRATE})")
        if self.checksum not in {c.value for c in Check}:
            raise ShoeConfigError(f"shoe.checksum: {self.checksum!r} is not a checksum; use "
                                  "\"crc16\" (the protocol's) or \"xor\" (an older shoe that "
                                  "sends two-digit checksums)")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("port", "baudrate", "checksum"):
                continue
            key = next(k for k, v in self.KEYS.items() if v == f.name)
            if f.name == "resend_tries":
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    raise ShoeConfigError(f"shoe.{key}: {value!r} must be a whole number, 1 or "
                                          "more")
                continue
            if not isinstance(value, int | float) or isinstance(value, bool) or value < 0 or (
                    value == 0 and f.name != "heartbeat_timeout"):
                raise ShoeConfigError(f"shoe.{key}: {value!r} must be a number of seconds above "
                                      "0" + (" (0 turns it off)" if f.name == "heartbeat_timeout"
                                             else ""))
        if self.reconnect_max < self.reconnect_min:
            raise ShoeConfigError("shoe.reconnect_max must be at least shoe.reconnect_min")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> ShoeConfig:
        """From the `[shoe]` table of a TOML config (keys like `baud`, `heartbeat_timeout`)."""
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            name = cls.KEYS.get(key.replace("-", "_"))
            if name is None:
                known = ", ".join(cls.KEYS)
                raise ShoeConfigError(f"shoe.{key}: not a shoe setting; the settings are {known}")
            kwargs[name] = value
        if "port" not in kwargs:
            raise ShoeConfigError("shoe.port is missing: name the shoe's serial port")
        return cls(**kwargs)


# ----------------------------------------------------------------------- the port


class SerialLike(Protocol):
    """What the reader needs of a pyserial port (real port, pty or `loop://`)."""

    @property
    def in_waiting(self) -> int: ...
    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


def resolve_port(name: str, by_id_dir: str = BY_ID_DIR) -> str:
    """A path or URL for the configured port: a path, a URL (loop://, socket://), or a
    (part of a) name under /dev/serial/by-id, which stays the same when the shoe is replugged.
    """
    name = name.strip()
    if "://" in name or name.startswith(("/", ".")):
        return name
    try:
        entries = sorted(os.listdir(by_id_dir))
    except OSError:
        entries = []
    if name in entries:
        return os.path.join(by_id_dir, name)
    matches = [e for e in entries if name.lower() in e.lower()]
    if len(matches) == 1:
        return os.path.join(by_id_dir, matches[0])
    if len(matches) > 1:
        raise ShoeLinkError(errno.EINVAL, f"{name!r} matches several devices in {by_id_dir} "
                            f"({', '.join(matches)}): give more of the name in shoe.port")
    if os.path.exists(os.path.join("/dev", name)):
        return os.path.join("/dev", name)
    seen = f" (connected now: {', '.join(entries)})" if entries else ""
    raise ShoeLinkError(errno.ENOENT, f"No shoe called {name!r} is connected{seen}: check the "
                        "cable and the power, or the port in the table config.")


def open_port(config: ShoeConfig) -> SerialLike:
    """Open the shoe's port as configured (8N1); raises ShoeLinkError with what to do."""
    target = resolve_port(config.port)
    kw: dict[str, Any] = dict(baudrate=config.baudrate, bytesize=serial.EIGHTBITS,
                              parity=serial.PARITY_NONE, stopbits=serial.STOPBITS_ONE,
                              timeout=config.read_timeout, write_timeout=config.write_timeout)
    try:
        port: SerialLike
        if "://" in target:
            port = serial.serial_for_url(target, **kw)
        else:
            port = serial.Serial(target, exclusive=True, **kw)
        return port
    except (serial.SerialException, OSError, ValueError) as e:
        raise ShoeLinkError(getattr(e, "errno", None) or errno.EIO,
                            describe_link_error(e, config.port)) from e


def describe_link_error(e: BaseException, port: str) -> str:
    """What went wrong with the shoe's port, said for the dealer."""
    if isinstance(e, ShoeLinkError):
        return e.strerror or str(e)
    code = getattr(e, "errno", None)
    text = str(e)
    if code == errno.ENOENT or "No such file" in text:
        return (f"No shoe at {port}: check that it is plugged in and switched on, or the port "
                "in the table config. Enter cards by hand meanwhile.")
    if code in (errno.EACCES, errno.EPERM) or "Permission denied" in text:
        return (f"The station may not open {port}: add its user to the dialout group (the "
                "installer's udev rule does this), then restart the station.")
    if code in (errno.EBUSY, errno.EAGAIN) or "lock" in text.lower():
        return f"{port} is in use by another program: close it, the station retries by itself."
    if code == errno.EIO or "returned no data" in text or "Input/output" in text:
        return (f"The shoe at {port} was unplugged or switched off: enter cards by hand; the "
                "station reconnects by itself.")
    return f"The shoe at {port} stopped answering ({text}); the station reconnects by itself."


# ------------------------------------------------------------------------ events


@dataclass(frozen=True, slots=True)
class ShoeOnline(ShoeEvent):
    """The shoe's port is open and bytes flow (again)."""

    port: str

    def __str__(self) -> str:
        return f"ONLINE {self.port}"


@dataclass(frozen=True, slots=True)
class ShoeOffline(ShoeEvent):
    """Shoe offline: take cards by hand; the reader keeps trying by itself."""

    port: str
    reason: str

    def __str__(self) -> str:
        return f"OFFLINE {self.port}: {self.reason}"


# ------------------------------------------------------------------------ reader


@dataclass
class _Resend:
    """When to ask the shoe for missing messages again, and when to give up."""

    unrequested_since: float | None = None
    requested_at: float | None = None
    tries: int = 0


@dataclass
class ShoeReader:
    """Reads the shoe until stopped, through unplugs and reconnects.

    `on_event(event)` is called on the reader's thread for every event; `on_batch(events)`
    instead takes each read's events in one call (one hop to a GUI thread per read, not
    one per event); without either, events go to `events`. A noisy line cannot flood the
    listener: the parser tells a few faults per second and sums up the rest.
    `resume_after` is the last sequence number the station already holds (from the ledger
    after a restart), so what came after is asked for again.
    """

    config: ShoeConfig
    on_event: Callable[[ShoeEvent], None] | None = None
    on_batch: Callable[[list[ShoeEvent]], None] | None = None
    opener: Callable[[ShoeConfig], SerialLike] = open_port
    resume_after: int | None = None
    clock: Callable[[], float] = time.monotonic
    events: queue.Queue[ShoeEvent] = field(default_factory=queue.Queue)
    parser: ShoeParser = field(init=False)
    _stop: threading.Event = field(default_factory=threading.Event, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)
    _port: SerialLike | None = field(default=None, init=False)
    _online: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.parser = ShoeParser(last_seq=self.resume_after,
                                 check=Check(self.config.checksum))

    @property
    def online(self) -> bool:
        return self._online

    @property
    def last_seq(self) -> int | None:
        """The last message delivered in order (keep it to resume after a restart)."""
        return self.parser.last_seq

    def start(self) -> None:
        """Run the reader on a daemon thread of its own."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="shoe-reader", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop reading and close the port (safe from any thread)."""
        self._stop.set()
        port = self._port
        cancel = getattr(port, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except Exception:  # noqa: BLE001 - the port may be half closed already
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    # ------------------------------------------------------------------ loop

    def run(self) -> None:
        """The reading loop; returns when `stop()` is called."""
        cfg = self.config
        pause = cfg.reconnect_min
        offline_said = False
        while not self._stop.is_set():
            try:
                port = self.opener(cfg)
            except Exception as e:  # noqa: BLE001 - any failure to open is "offline, retry"
                if not offline_said:
                    self._emit(ShoeOffline(cfg.port, describe_link_error(e, cfg.port)))
                    offline_said = True
                self._stop.wait(pause)
                pause = min(pause * 2, cfg.reconnect_max)
                continue
            self._port = port
            pause = cfg.reconnect_min
            offline_said = False
            self._online = True
            self._emit(ShoeOnline(cfg.port))
            reason = None
            try:
                self._pump(port)
            except Exception as e:  # noqa: BLE001 - unplugged, I/O error: reconnect
                reason = describe_link_error(e, cfg.port)
            finally:
                self._port = None
                try:
                    port.close()
                except Exception:  # noqa: BLE001
                    pass
            for event in self.parser.link_lost():
                self._emit(event)
            self._online = False
            if self._stop.is_set():
                break
            self._emit(ShoeOffline(cfg.port, reason or "The shoe's port closed."))
            offline_said = True
            self._stop.wait(pause)

    def _pump(self, port: SerialLike) -> None:
        cfg, parser, clock = self.config, self.parser, self.clock
        last_rx = clock()
        silent = False
        resend = _Resend()
        summed = last_rx
        while not self._stop.is_set():
            data = port.read(1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(waiting)
            now = clock()
            batch: list[ShoeEvent] = []
            if data:
                last_rx = now
                if silent:
                    silent = False
                    self._online = True
                    batch.append(ShoeOnline(cfg.port))
                batch += parser.feed(data)
            elif cfg.heartbeat_timeout and not silent and now - last_rx > cfg.heartbeat_timeout:
                silent = True
                self._online = False
                batch.append(ShoeOffline(cfg.port, (
                    f"No word from the shoe for {cfg.heartbeat_timeout:g} s: check that it is "
                    "on and connected. Enter cards by hand meanwhile.")))
            batch += self._resend(now, resend)
            if now - summed >= SUMMARY_INTERVAL:
                batch += parser.summary(now - summed)
                summed = now
            self._deliver(batch)
            out = parser.take_outgoing()
            if out:
                port.write(out)

    def _resend(self, now: float, r: _Resend) -> list[ShoeEvent]:
        """Ask for missing messages after a short wait, again after a timeout, then give up."""
        cfg, parser = self.config, self.parser
        if parser.missing is None:
            r.unrequested_since = r.requested_at = None
            r.tries = 0
            return []
        if parser.unrequested:
            if r.unrequested_since is None:
                r.unrequested_since = now
            if now - r.unrequested_since < cfg.resend_delay:
                return []
            events = parser.request_resend()
            r.unrequested_since = None
            r.requested_at = now
            r.tries += 1
        else:
            if r.requested_at is None:          # asked on a link that went away: ask again
                r.requested_at = now - cfg.resend_timeout
            if now - r.requested_at < cfg.resend_timeout:
                return []
            if r.tries >= cfg.resend_tries:
                events = parser.give_up()
                r.requested_at = None
                r.tries = 0
            else:
                events = parser.request_resend()
                r.requested_at = now
                r.tries += 1
        return events

    def _deliver(self, events: list[ShoeEvent]) -> None:
        if not events:
            return
        if self.on_batch is None:
            for event in events:
                self._emit(event)
            return
        try:
            self.on_batch(events)
        except Exception:  # a bug in the listener must not stop the shoe
            log.exception("shoe event listener failed on %d events", len(events))

    def _emit(self, event: ShoeEvent) -> None:
        if self.on_batch is not None:
            self._deliver([event])
            return
        if self.on_event is None:
            self.events.put(event)
            return
        try:
            self.on_event(event)
        except Exception:  # a bug in the listener must not stop the shoe
            log.exception("shoe event listener failed on %s", event)
