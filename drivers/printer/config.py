"""The `[printer]` table of the table config, checked key by key.

`PrinterConfig.check(key, value, kind)` says what is wrong with one key (or None), so the
table config (app/settings.py) refuses a bad value with the file, the key and why, and this
driver refuses the same values when it is built by hand. No escpos import here, except to
check a printer profile's name when a printer is in use.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeGuard

from ..escpos_cache import capabilities_folder

KINDS = ("none", "file", "serial", "network", "pdf")
COLUMNS = (42, 48)
BAUDRATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
APP_NAME = "paigow-station"  # as the ledger (app/ledger/paths.py): its data beside it
QUEUE_FOLDER = "reprint-queue"


class PrinterConfigError(ValueError):
    """A `[printer]` setting that cannot work; the text names the key and why."""


def default_queue_dir() -> Path:
    """Where kept slips wait when `queue_dir` is empty: the user's data directory."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME, appauthor=False) / QUEUE_FOLDER


@dataclass(frozen=True, slots=True)
class PrinterConfig:
    """How the station reaches its receipt printer. Times are in seconds."""

    kind: str = "none"          # "none", "file" (a device file), "serial", "network" or
                                # "pdf" (each slip a PDF file in the folder `path`)
    path: str = "/dev/usb/lp0"  # the device file, for kind = "file"; the folder, for "pdf"
    port: str = ""              # the serial port, for kind = "serial"
    baud: int = 9600            # the serial speed; the printer's DIP switches must match
    host: str = ""              # the printer's address, for kind = "network"
    tcp_port: int = 9100        # the printer's raw TCP port (9100 on nearly every printer)
    timeout: float = 5.0        # how long to wait for the printer before giving up
    columns: int = 42           # characters per line: 42 or 48, as the paper and font give
    profile: str = "default"    # the python-escpos printer profile (e.g. "TM-T88V")
    check_status: bool = True   # ask the printer for paper and online status first
    queue_dir: str = ""         # kept slips; empty: the user's data directory

    def __post_init__(self) -> None:
        for f in fields(self):
            why = self.check(f.name, getattr(self, f.name), self.kind)
            if why is not None:
                raise PrinterConfigError(f"printer.{f.name}: {why}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> PrinterConfig:
        """From the `[printer]` table of a TOML config (dashes in keys are read as `_`)."""
        names = {f.name for f in fields(cls)}
        kwargs: dict[str, Any] = {}  # each checked by __post_init__, in words
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in names:
                raise PrinterConfigError(f"printer.{key}: not a printer setting; the settings "
                                         f"are {', '.join(f.name for f in fields(cls))}")
            kwargs[name] = value
        return cls(**kwargs)

    @staticmethod
    def check(key: str, value: object, kind: str = "none") -> str | None:
        """Why `value` cannot be `printer.<key>` at a table whose printer is `kind`."""
        match key:
            case "kind":
                if value not in KINDS:
                    return (f"{value!r} is not a kind of printer; use one of "
                            + ", ".join(f'"{k}"' for k in KINDS))
            case "path" | "port" | "host" | "queue_dir" | "profile":
                if not isinstance(value, str):
                    return f"write it as text in quotes, not {value!r}"
                if kind == "pdf" and key == "path":
                    if not value.strip() or value.startswith("/dev/"):
                        return ('kind is "pdf": name the folder the slips are written to, '
                                'e.g. /var/lib/paigow/slips')
                    return None
                needed = {"path": "file", "port": "serial", "host": "network"}.get(key)
                if needed == kind and not value.strip():
                    return {
                        "path": 'kind is "file": name the printer\'s device file, e.g. '
                                '/dev/usb/lp0',
                        "port": 'kind is "serial": name the printer\'s serial port, e.g. '
                                '/dev/ttyUSB1 or a name under /dev/serial/by-id',
                        "host": 'kind is "network": give the printer\'s address, e.g. '
                                '192.168.1.50 (printed on its self-test slip)',
                    }[key]
                if key == "profile" and kind not in ("none", "pdf"):
                    return _unknown_profile(value)
            case "baud":
                if not _whole(value) or value not in BAUDRATES:
                    return (f"{value!r} is not a serial speed; use one of "
                            f"{', '.join(map(str, BAUDRATES))} (as the printer is set)")
            case "tcp_port":
                if not _whole(value) or not 1 <= value <= 65535:
                    return f"{value!r} is not a TCP port (1-65535); printers listen on 9100"
            case "timeout":
                if (not isinstance(value, int | float) or isinstance(value, bool)
                        or not 0 < value <= 60):
                    return f"{value!r} must be a number of seconds above 0, at most 60"
            case "columns":
                if not _whole(value) or value not in COLUMNS:
                    return (f"{value!r}: receipt paper here is 42 or 48 characters wide "
                            f"(80 mm paper: 48 in font A, or 42 on narrower print heads)")
            case "check_status":
                if not isinstance(value, bool):
                    return f"write true or false, not {value!r}"
        return None

    @property
    def queue_path(self) -> Path:
        """The directory of kept slips."""
        return Path(self.queue_dir).expanduser() if self.queue_dir.strip() \
            else default_queue_dir()

    @property
    def where(self) -> str:
        """The printer as the dealer's messages name it."""
        match self.kind:
            case "file":
                return self.path
            case "pdf":
                return f"PDF files in {self.path}"
            case "serial":
                return self.port
            case "network":
                return f"{self.host}:{self.tcp_port}"
        return "no printer"


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def load_escpos() -> None:
    """Import python-escpos without the root logging handler its import installs (its
    capabilities kept in the program's cache: keep_capabilities_in)."""
    capabilities_folder()
    root = logging.getLogger()
    before = list(root.handlers)
    import escpos.capabilities  # noqa: F401  (calls logging.basicConfig() on import)
    import escpos.printer  # noqa: F401

    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)


def _unknown_profile(name: str) -> str | None:
    load_escpos()
    from escpos import capabilities

    profiles = capabilities.CAPABILITIES["profiles"]
    if name in profiles:
        return None
    close = sorted(p for p in profiles if name.lower()[:4] in p.lower())[:8]
    hint = f" (perhaps {', '.join(close)})" if close else ""
    return (f"python-escpos has no printer profile {name!r}{hint}; use \"default\" or the "
            f"printer's model as python-escpos names it")
