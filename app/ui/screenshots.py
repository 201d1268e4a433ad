"""Screenshots of the dealer's window at each stage of a round (`make screenshots`).

    Xvfb :99 -screen 0 1920x1080x24 &  DISPLAY=:99 python -m app.ui.screenshots [OUT_DIR]

Plays three rounds with fixed decks through the controller (as the keys and clicks do), the
cards dealt by the demo shoe (the simulator on a pseudo-terminal, read by the real reader),
and saves a PNG of the window after each step: the house banks (a dragon, a foul, the slip);
a player banks and the bank runs out; the shoe unplugged and a card typed wrong. The PNGs
go to docs/screenshots/ by default.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop
from PySide6.QtWidgets import QApplication

from app.core.cards import DECK, Card, parse_cards
from app.core.round import Phase, RoundRules
from app.core.table import CARDS_PER_HAND, Table

from .controller import DealerController
from .shoe import PtyDemoShoe
from .window import MainWindow

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# A round that shows every stage: action falls on seat 3 (RNG 4), seat 4 has no wager,
# seat 3 holds a pair of Kings and nothing behind (Kings in front is a foul), seat 5 two
# pair (the House Way splits them), seat 6 the joker.
SHOWCASE: dict[int, str] = {
    3: "KS KD 9C 7H 5S 3D 2C",
    4: "AH QH JH TH 4C 8D 6S",
    5: "AS AD 8S 8H 4D 3S JC",
    6: "JK QS QC 6H 6D 2S 9D",
    0: "TS TD 7C 5C 4H 3H 2H",
    1: "KH QD JD 9S 8C 7S 6C",
    2: "AC KC 9H 5D 4S 3C 2D",
}
SHOWCASE_RNG = 3  # randbelow(7) -> 3: action number 4, which lands on seat 3

# Round 2: seat 3 banks with nothing; the dealer's hand and seats 1, 2 and 5 beat it, and
# with $100 the bank runs out. RNG 6, counted from seat 3, puts action on seat 1.
BANK_SHOWCASE: dict[int, str] = {
    3: "2C 3D 4H 6S 8C 9D JH",
    4: "2S 3S 4S 6H 8D 9C JD",
    6: "2H 3H 4D 6D 8H 9H JC",
    0: "AS AH KS QS 7D 5C TC",
    1: "AD AC KH QH 7C 5D TD",
    2: "KD KC QD JS 7H 5H TH",
    5: "QC JK TS 9S 5S 3C 2D",
}
BANK_RNG = 5  # randbelow(7) -> 5: action number 6, from seat 3: seat 1


def stacked_deck(hands: Mapping[int, str], action: int, table: Table | None = None
                 ) -> tuple[Card, ...]:
    """A 53-card deck that deals `hands` (position -> card text) in stacks from `action`."""
    t = table or Table()
    order = t.around(action)
    dealt: list[Card] = []
    for position in order:
        cards = parse_cards(hands[position], count=CARDS_PER_HAND)
        dealt.extend(cards)
    rest = [c for c in DECK if c not in set(dealt)]
    deck = tuple(dealt + rest)
    parse_cards([str(c) for c in deck], count=53)  # one whole deck, no card twice
    return deck


def pump(until: Callable[[], bool] | None = None, seconds: float = 5.0) -> None:
    """Let Qt run until `until()` holds (or for `seconds` when there is nothing to wait for)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        if until is not None and until():
            return
    if until is not None and not until():
        raise RuntimeError("the window did not reach the expected state in time")


def shoot(window: MainWindow, out: Path, name: str, saved: list[Path]) -> None:
    pump(seconds=0.15)
    path = out / f"{name}.png"
    if not window.grab().save(str(path)):
        raise RuntimeError(f"could not save {path}")
    saved.append(path)
    print(path)


def play(out: Path, size: tuple[int, int] = (1920, 1080)) -> list[Path]:
    """Three rounds: the house banks (a dragon, a foul, the slip); seat 3 banks and its bank
    runs out; the shoe unplugged and the cards typed by hand."""
    out.mkdir(parents=True, exist_ok=True)
    deck = stacked_deck(SHOWCASE, 3)
    bank_deck = stacked_deck(BANK_SHOWCASE, 1)
    shoe = PtyDemoShoe([deck, bank_deck], card_delay=0.04)
    numbers = iter([SHOWCASE_RNG, BANK_RNG] + [SHOWCASE_RNG] * 10)
    controller = DealerController(RoundRules(), shoe, randbelow=lambda n: next(numbers))
    window = MainWindow()
    window.bind(controller)
    window.resize(*size)
    window.show()
    saved: list[Path] = []
    c = controller
    try:
        pump(lambda: shoe.online)
        _round_one(window, c, out, saved, size)
        _round_two(window, c, out, saved)
        _round_three(window, c, out, saved)
    finally:
        window.close()
        shoe.close()
    return saved


def _round_one(window: MainWindow, c: DealerController, out: Path, saved: list[Path],
               size: tuple[int, int]) -> None:
    shoot(window, out, "01-opened", saved)
    if (window.width(), window.height()) != size:
        print(f"screenshots: the window is {window.width()}x{window.height()}, not "
              f"{size[0]}x{size[1]}", file=sys.stderr)
    c.new_round()
    for seat, dollars in ((1, "25"), (2, "10"), (3, "50"), (5, "100"), (6, "15")):
        c.select(seat)
        c.place_wager(dollars)
    c.select(4)
    shoot(window, out, "02-wagers", saved)

    c.rng_action()
    pump(lambda: len(c.stream) >= 24)
    shoot(window, out, "03-dealing", saved)
    assert c.round is not None
    pump(lambda: c.round is not None and c.round.phase is Phase.SETTING)
    shoot(window, out, "04-dealt-dragon-offered", saved)

    c.pass_offer()  # seat 3 passes the dragon; seat 5 takes it for $40
    window.panel.fields["dragon"].setText(c.dragon_suggestion())
    shoot(window, out, "05-dragon-offered-to-seat-5", saved)
    c.take_dragon("40")
    c.select(5)
    c.house_way()
    shoot(window, out, "06-dragon-taken-house-way", saved)

    c.pick_card(3, parse_cards("KS")[0])
    c.pick_card(3, parse_cards("KD")[0])
    shoot(window, out, "07-front-picked-foul-preview", saved)
    c.set_front()
    shoot(window, out, "08-foul", saved)

    c.select(1)
    c.pick_card(1, parse_cards("7S")[0])
    c.pick_card(1, parse_cards("6C")[0])
    c.set_front()
    c.select(2)
    c.house_way()
    c.select(6)
    c.house_way()
    shoot(window, out, "09-all-set", saved)

    c.settle()
    shoot(window, out, "10-settled-slip", saved)


def _round_two(window: MainWindow, c: DealerController, out: Path,
               saved: list[Path]) -> None:
    c.new_round()
    shoot(window, out, "11-bank-offered", saved)
    c.pass_offer()
    c.pass_offer()
    c.take_bank("100")
    for seat, dollars in ((1, "40"), (2, "20"), (5, "40")):
        c.select(seat)
        c.place_wager(dollars)
    c.select(6)
    c.place_wager("5")  # the bank covers no more
    shoot(window, out, "12-player-bank-covers-no-more", saved)
    c.rng_action()
    pump(lambda: c.round is not None and c.round.phase is Phase.SETTING)
    c.pass_all()
    rnd = c.round
    assert rnd is not None
    for position in (1, 2, 3, 5):
        c.select(position)
        c.house_way()
    shoot(window, out, "13-player-bank-dealers-hand", saved)
    c.settle()
    shoot(window, out, "14-player-bank-ran-out-slip", saved)


def _round_three(window: MainWindow, c: DealerController, out: Path,
                 saved: list[Path]) -> None:
    c.new_round()
    c.pass_all()
    c.toggle_shoe()
    pump(lambda: not c.shoe.online)
    c.select(1)
    c.place_wager("25")
    c.rng_action()
    c.enter_cards("KS KD 9C 7H 5S 3D")
    c.enter_cards("ZZ")
    shoot(window, out, "15-shoe-offline-bad-card", saved)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m app.ui.screenshots", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=str(OUT))
    ap.add_argument("--size", default="1920x1080")
    args = ap.parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("QT_QPA_PLATFORM"):
        print("screenshots: no DISPLAY; start Xvfb (Xvfb :99 &) and set DISPLAY=:99, or set "
              "QT_QPA_PLATFORM=offscreen", file=sys.stderr)
        return 2
    w, _, h = args.size.partition("x")
    _app = QApplication.instance() or QApplication(sys.argv[:1])
    play(Path(args.out), (int(w), int(h)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
