"""`paigow-dealer`: the dealer station's window.

    paigow-dealer --demo              the shoe simulator on a pseudo-terminal, read as a
                                      real shoe is; it deals when action is taken
    paigow-dealer --shoe /dev/ttyUSB0 the card-reading shoe on a serial port
    paigow-dealer                     the shoe of the config's [shoe] port, or none: cards
                                      are entered by hand

The table's rules come from config/default.toml, then `--config FILE` (or PAIGOW_CONFIG),
then PAIGOW_<SECTION>__<KEY> variables; a bad config stops the station with the file, the
key and why.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from PySide6.QtWidgets import QApplication, QMessageBox

from app.core.cards import CardError, parse_cards
from app.settings import ConfigError, load_config

from .controller import DealerController
from .shoe import NoShoe, PtyDemoShoe, SerialShoe, ShoeFeed
from .window import MainWindow


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="paigow-dealer", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--demo", action="store_true",
                    help="deal from the shoe simulator over a pseudo-terminal (a new shuffle "
                         "every deal)")
    ap.add_argument("--config", help="the site's table config (TOML) over the shipped one")
    ap.add_argument("--shoe", metavar="PORT", help="the shoe's serial port (or pyserial URL)")
    ap.add_argument("--seed", type=int, help="demo: a seeded shuffle, the same every run")
    ap.add_argument("--deck", help="demo: deal this 53-card deck (card text) every round")
    ap.add_argument("--fullscreen", action="store_true", help="full screen (the station)")
    ap.add_argument("--size", metavar="WxH", help="a fixed window size, e.g. 1920x1080")
    return ap.parse_args(argv)


def make_shoe(args: argparse.Namespace, config: Any = None) -> ShoeFeed:
    if args.shoe:
        return SerialShoe(args.shoe)
    if args.demo:
        decks = None
        if args.deck:
            deck = parse_cards(args.deck, count=53)
            decks = [deck] * 1000
        return PtyDemoShoe(decks, seed=args.seed)
    shoe_config = getattr(config, "shoe_config", None)
    configured = shoe_config() if shoe_config is not None else None
    if configured is not None:
        return SerialShoe(configured.port, config=configured)
    return NoShoe()


def build(args: argparse.Namespace) -> tuple[MainWindow, DealerController]:
    config = load_config(args.config)
    controller = DealerController(config.round_rules(), make_shoe(args, config))
    window = MainWindow()
    window.bind(controller)
    return window, controller


def install_excepthook(window: MainWindow) -> None:
    """Anything unexpected is shown to the dealer as a sentence and kept for support."""

    def hook(kind: type[BaseException], error: BaseException,
             tb: TracebackType | None) -> None:
        traceback.print_exception(kind, error, tb, file=sys.stderr)
        c = window.controller
        if c is not None:
            c._say(f"The station hit a problem it did not expect ({error}). The round is kept; "
                   f"carry on or call the supervisor.", "error")
            c.changed.emit()

    sys.excepthook = hook


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    try:
        window, _ = build(args)
    except (ConfigError, CardError) as e:
        print(f"paigow-dealer: {e}", file=sys.stderr)
        if QApplication.platformName() not in ("offscreen", "minimal"):
            QMessageBox.critical(None, "The station cannot start", str(e))
        return 2
    install_excepthook(window)
    if args.size:
        w, _, h = args.size.lower().partition("x")
        window.resize(int(w), int(h))
        window.show()
    elif args.fullscreen:
        window.showFullScreen()
    else:
        window.showMaximized()
    window.felt.setFocus()
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
