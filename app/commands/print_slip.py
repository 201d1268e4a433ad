"""`paigow print-slip`: print a settlement slip on the table's receipt printer, show it as
text, or write the shift report PDF; reprint the slips kept while the printer was down.

    paigow settle --json < round.json | paigow print-slip          # the printer
    paigow settle --json < round.json | paigow print-slip --text   # the text, 42 columns
    paigow print-slip --pdf shift.pdf slips/*.json                 # the shift report
    paigow print-slip --reprint                                    # the kept slips

The slip is JSON in the form `paigow settle --json` prints (schema paigow.slip/1); a file
or stdin may hold one slip, a list of slips or several slips one after another. The printer
is the table config's `[printer]` (docs/printer.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime

from app.settings import ConfigError, load_config
from drivers.printer.config import PrinterConfig
from drivers.printer.layout import SlipError, read_slip, slip_json, slip_lines, slip_time
from drivers.printer.printer import SlipPrinter

NAME = "print-slip"
HELP = ("print a settlement slip (paigow settle --json) on the receipt printer, as text or "
        "as a PDF; reprint kept slips")

EXIT_BAD_INPUT = 2
EXIT_PRINTER = 4  # the printer could not print: the slip is kept for reprint


class _Refused(Exception):
    pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("slips", nargs="*", metavar="SLIP.json",
                        help="slips as `paigow settle --json` prints them (default: stdin)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--text", action="store_true",
                     help="show the slip as it prints, on stdout, instead of printing it")
    out.add_argument("--pdf", metavar="OUT.pdf",
                     help="write the slips as a PDF (the shift report) instead of printing")
    out.add_argument("--reprint", action="store_true",
                     help="print the slips kept while the printer could not print")
    out.add_argument("--kept", action="store_true",
                     help="list the slips kept for reprint")
    parser.add_argument("--columns", type=int, choices=(42, 48),
                        help="characters per line (default: the config's printer.columns)")
    parser.add_argument("--duplicate", action="store_true",
                        help="the slip was printed before (a reprint from the ledger): mark "
                             "it REPRINT")
    parser.add_argument("--config", metavar="FILE",
                        help="the site's table config over config/default.toml "
                             "(default: $PAIGOW_CONFIG)")


def _say(text: str) -> None:
    print(f"paigow print-slip: {text}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config).printer_config()
    except ConfigError as e:
        for problem in e.problems:
            _say(str(problem))
        return EXIT_BAD_INPUT
    if args.columns:
        config = PrinterConfig.from_mapping({**_fields(config), "columns": args.columns})
    printer = SlipPrinter(config)
    if args.reprint or args.kept:
        if args.slips:
            _say("--reprint and --kept take no slips: they work on the kept ones")
            return EXIT_BAD_INPUT
        return _kept(printer) if args.kept else _reprint(printer)
    try:
        slips = _read_slips(args.slips)
    except _Refused as e:
        _say(str(e))
        return EXIT_BAD_INPUT
    now = datetime.now().astimezone().replace(microsecond=0)
    if args.text:
        mark = f"REPRINT {now:%Y-%m-%d %H:%M}" if args.duplicate else None
        texts = ["\n".join(slip_lines(s, config.columns, time=slip_time(s) or now, mark=mark))
                 for _, s in slips]
        print("\n\n".join(texts))
        return 0
    if args.pdf:
        from drivers.printer.pdf import write_pdf

        try:
            path = write_pdf(args.pdf, [s for _, s in slips],
                             times=[slip_time(s) or now for _, s in slips], now=now)
        except OSError as e:
            _say(f"cannot write {args.pdf}: {e.strerror}")
            return EXIT_BAD_INPUT
        print(f"wrote {path} ({len(slips)} slip{'s' if len(slips) > 1 else ''})")
        return 0
    if config.kind == "none":
        print("\n\n".join("\n".join(slip_lines(s, config.columns, time=slip_time(s) or now))
                          for _, s in slips))
        _say('no slip printer is set up ([printer] kind = "none" in the table config): the '
             'slip is shown here instead (docs/printer.md)')
        return 0
    code = 0
    for _, slip in slips:
        result = printer.print_slip(slip, duplicate=args.duplicate)
        if result.printed:
            print(f"printed table {result.table} round {result.round}")
        else:
            code = EXIT_PRINTER
        if result.message:
            _say(result.message)
    return code


def _fields(config: PrinterConfig) -> dict[str, object]:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}


def _kept(printer: SlipPrinter) -> int:
    kept = printer.kept()
    for k in kept:
        print(k.describe())
    for path in printer.queue.set_aside:
        _say(f"a kept slip cannot be read and was set aside as {path}: reprint that round "
             f"from the ledger")
    if not kept:
        print(f"no slips are kept ({printer.queue.directory})")
    return 0


def _reprint(printer: SlipPrinter) -> int:
    result = printer.reprint_kept()
    for k in result.printed:
        print(f"printed table {k.table} round {k.round} (kept {k.kept_at:%Y-%m-%d %H:%M})")
    _say(result.message)
    return EXIT_PRINTER if result.problem is not None else 0


def _read_slips(paths: list[str]) -> list[tuple[str, dict[str, object]]]:
    """Every slip in the files (or stdin): (where it came from, the checked slip)."""
    out: list[tuple[str, dict[str, object]]] = []
    for path in paths or ["-"]:
        source = "<stdin>" if path == "-" else path
        values = _json_values(_text(path, source), source)
        if not values:
            raise _Refused(f"{source}: no slip: pipe `paigow settle --json` into this, or "
                           f"name a slip file")
        items = [v for value in values for v in (value if isinstance(value, list) else [value])]
        for i, item in enumerate(items):
            where = source if len(items) == 1 else f"{source}: slip {i + 1}"
            if isinstance(item, dict) and "misdeal" in item:
                if len(items) == 1:
                    raise _Refused(f"{where}: the round was a misdeal: nothing was settled, "
                                   f"so there is no slip to print")
                _say(f"{where}: a misdeal, not a slip: left out")
                continue
            out.append((where, _slip(item, where)))
    if not out:
        raise _Refused("no slips to print")
    return out


# A shift's slips are a few megabytes; reading stops past this, so `print-slip /dev/zero`
# or a wrong file ends with a sentence instead of filling the memory.
MAX_INPUT = 64_000_000


def _text(path: str, source: str) -> str:
    try:
        if path == "-":
            text = sys.stdin.read(MAX_INPUT + 1)
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read(MAX_INPUT + 1)
    except OSError as e:
        raise _Refused(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise _Refused(f"{source} is not UTF-8 text: give a slip as `paigow settle --json` "
                       f"prints it") from None
    if len(text) > MAX_INPUT:
        raise _Refused(f"{source} is over {MAX_INPUT:,} characters: not slips; check the "
                       f"file name")
    return str(text)


def _json_values(text: str, source: str) -> list[object]:
    """One JSON value, or several one after another (as a loop of `paigow settle --json`)."""
    decoder = json.JSONDecoder()
    values: list[object] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return values
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as e:
            raise _Refused(f"{source}: not JSON: {e.msg} at line {e.lineno} column {e.colno}"
                           ) from None
        except RecursionError:  # json reads nested arrays and objects by recursing
            raise _Refused(f"{source}: its brackets nest deeper than any slip does: give a "
                           f"slip as `paigow settle --json` prints it") from None
        except ValueError:  # an integer past Python's 4,300 digits for reading one
            raise _Refused(f"{source}: it holds a number thousands of digits long: give a "
                           f"slip as `paigow settle --json` prints it") from None
        values.append(value)


def _slip(value: object, where: str) -> dict[str, object]:
    if isinstance(value, dict) and "error" in value and "schema" not in value:
        raise _Refused(f"{where}: `paigow settle` refused the round, so there is no slip: "
                       f"fix the round description and settle it again")
    try:
        read_slip(value)
    except SlipError as e:
        raise _Refused(f"{where}: {e}") from None
    return slip_json(value)  # as given: the printer folds it to ASCII itself
