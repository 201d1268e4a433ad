"""Shared pieces for the printer tests: the settled slips, the fixed time, golden files,
and python-escpos Dummy printers that answer status queries or fail like a real one."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from escpos.constants import RT_STATUS_ONLINE, RT_STATUS_PAPER
from escpos.exceptions import Error as EscposError
from escpos.printer import Dummy

from drivers.printer.config import PrinterConfig

HERE = Path(__file__).parent
SLIPS = HERE / "slips"
GOLDEN = HERE / "golden"
# `paigow settle --json` of tests/rounds/*.json (and a high-limit round with big money), made
# at a table whose maximum wager is $1,000.00: `paigow settle --json --config F ROUND.json`
# with F holding `[wagers]` `maximum = "1000.00"` remakes each byte for byte.
NAMES = sorted(p.stem for p in SLIPS.glob("*.json"))
TIME = datetime(2025, 3, 14, 21, 7, 33, tzinfo=timezone(timedelta(hours=-7)))
LATER = TIME + timedelta(minutes=9)

# Status answers (DLE EOT n), as an Epson TM printer sends them.
ONLINE = b"\x12"        # bit 3 clear: online
OFFLINE = b"\x1a"       # bit 3 set: offline
PAPER_OK = b"\x12"
PAPER_LOW = b"\x1e"     # near-end sensor
PAPER_OUT = b"\x72"     # paper end sensor


def slip(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SLIPS / f"{name}.json").read_text())
    return data


def golden(name: str, actual: bytes) -> bytes:
    """The golden file's bytes; `PAIGOW_REGOLD=1` writes them first (review the diff). A test
    that only reads the file passes b"": it never writes (it emptied the file once)."""
    path = GOLDEN / name
    if os.environ.get("PAIGOW_REGOLD") == "1" and actual:
        path.write_bytes(actual)
    return path.read_bytes()


class StatusDummy(Dummy):
    """A Dummy printer that answers the status queries (and records what was printed)."""

    def __init__(self, online: bytes = ONLINE, paper: bytes | list[bytes] = PAPER_OK,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.online = online
        self.papers = list(paper) if isinstance(paper, list) else [paper]
        self.queries: list[bytes] = []
        self.closed = False

    def _raw(self, msg: bytes) -> None:
        if msg in (RT_STATUS_ONLINE, RT_STATUS_PAPER):
            self.queries.append(msg)
            return  # a real-time query: not part of the printed slip
        super()._raw(msg)

    def _read(self) -> bytes:
        if self.queries[-1] == RT_STATUS_ONLINE:
            return self.online
        return self.papers.pop(0) if len(self.papers) > 1 else self.papers[0]

    def close(self) -> None:
        self.closed = True


class SilentDummy(StatusDummy):
    """A printer that never answers a status query."""

    def _read(self) -> bytes:
        return b""


class FailingDummy(StatusDummy):
    """A printer that fails part-way through the slip with python-escpos's own error."""

    def __init__(self, after: int = 5, error: Exception | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.after = after
        self.error = error or EscposError("printer error: paper jam")

    def _raw(self, msg: bytes) -> None:
        if msg not in (RT_STATUS_ONLINE, RT_STATUS_PAPER):
            if self.after == 0:
                raise self.error
            self.after -= 1
        super()._raw(msg)


def config(tmp_path: Path, **kw: Any) -> PrinterConfig:
    """A file-printer config whose reprint queue is under tmp_path."""
    values: dict[str, Any] = {"kind": "file", "path": str(tmp_path / "lp0"),
                              "queue_dir": str(tmp_path / "queue")}
    values.update(kw)
    return PrinterConfig(**values)


def connect_to(printer: Dummy) -> Callable[[PrinterConfig], Dummy]:
    def connect(_: PrinterConfig) -> Dummy:
        return printer
    return connect
