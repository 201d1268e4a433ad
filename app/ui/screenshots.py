"""Screenshots of the dealer's window at each stage of a round (`make screenshots`), at
every screen size a station has (1024x768 to 2560x1440), each size in its own folder.

    Xvfb :99 -screen 0 2560x1440x24 &  DISPLAY=:99 python -m app.ui.screenshots [OUT_DIR]

Plays rounds with fixed decks through the window's keys and commands (its dealer session), the cards
dealt by the demo shoe (the simulator on a pseudo-terminal, read by the real reader), every
round recorded in a ledger and every slip printed on a "file" printer (both in a temporary
directory), and saves a PNG after each step: the house banks (a dragon, a foul, the slip,
printed); the pit supervisor's view of who may bank, then a player banks and the bank runs
out; the printer unplugged and the ledger's database away, then both back; the pit's
history, advice and totals; a void refused for a wrong PIN (a person's own, checked by the
ledger); the Fortune bonus, its big payout approved in the pit, the felt and the slip with
its bonus and envy lines; the shoe unplugged and a card typed wrong. The PNGs go to
docs/screenshots/WIDTHxHEIGHT/ by default (docs/station.md shows them). After every stage
at every size app/ui/screencheck.py looks for a text cut or a widget off the screen, and
for words meant for developers; the walk lists what it found and exits 1
(tests/ui/test_screen_sizes.py runs the same walk off screen).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import QBuffer, QCoreApplication, QEventLoop, QIODevice, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QWidget

from app.core.bonus.table_bonus import TableBonus
from app.core.cards import DECK, Card, parse_cards
from app.core.progressive import progressive_card
from app.core.round import Phase, RoundRules
from app.core.table import CARDS_PER_HAND, Table
from app.ledger import Store
from app.session import DealerCommand, DealerSession
from app.session.procedure import dragon_suggestion
from app.station import Jobs, Ledger, Station

from . import screencheck, theme
from .pit import PitController, VouchedSupervisors
from .services import Printer, StationPrinter
from .shoe import DemoShoe, PtyDemoShoe, ShoeFeed
from .supervisor import ActionDialog
from .window import MainWindow
from .worker import Worker

SUPERVISOR, PIN = "Pat Lee", "482916"  # the screenshots' supervisor, in their ledger

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

# The Fortune bonus (issue 26): seat 1's five aces pay its $100 bonus 400 to 1 ($40,000:
# it waits for a supervisor), seat 2's four kings pay 25 to 1, seat 3's three queens 3 to 1,
# and seats 2 and 3 win envy for the others' hands (never for their own nor the dealer's).
BONUS_SHOWCASE: dict[int, str] = {
    1: "AS AH AD AC JK 2D 7C",
    2: "KS KH KD KC 5S 3H 7H",
    0: "2C 3D 4H 6S 8C 9D JH",
    3: "QS QH QD 9S 8S 6C 4C",
    4: "TS TH 9C 8D 5D 4S 2S",
    5: "JS JD TC 9H 6H 5C 3S",
    6: "QC JC TD 8H 7S 6D 5H",
}
BONUS_WAGERS = {1: ("25", "100"), 2: ("25", "5"), 3: ("10", "5")}  # seat: (wager, bonus)

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


PUMP_NAP_MS = 5


def pump(until: Callable[[], bool] | None = None, seconds: float = 5.0) -> None:
    """Let Qt run until `until()` holds (or for `seconds` when there is nothing to wait for),
    asleep between events: the shoe's cards and the worker's answers come as events, and a
    loop that only asked Qt again and again kept a core busy (the screen-size walk: 200,000
    turns; a test's station left waiting to be killed: a whole core) that the worker and
    the other tests needed."""
    end = time.monotonic() + seconds
    nap = QEventLoop()
    while time.monotonic() < end:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        if until is not None and until():
            return
        QTimer.singleShot(PUMP_NAP_MS, nap.quit)
        nap.exec()  # events that come meanwhile are handled at once
    if until is not None and not until():
        raise RuntimeError("the window did not reach the expected state in time")


SIZES: tuple[tuple[int, int], ...] = (
    (1024, 768), (1280, 800), (1366, 768), (1920, 1080), (2560, 1440))


def size_name(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def settle() -> None:
    """Let Qt lay out and paint what it was asked to (the events already posted, and those
    they post), without waiting for anything else."""
    for _ in range(8):  # a wrapped label's height is settled a layout pass after its width
        QCoreApplication.sendPostedEvents()
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents)


class Camera:
    """At each stage, the dealer's window at every screen size in turn: the windows shown
    over it (the pit's, a dialog) kept inside it as on a station's screen, a PNG of the
    whole screen into its size's folder (when `out` is given), and what
    app/ui/screencheck.py finds wrong with it, by size and stage."""

    def __init__(self, window: MainWindow, sizes: Sequence[tuple[int, int]],
                 out: Path | None = None) -> None:
        self.window = window
        self.sizes = tuple(sizes)
        self.by_scale = tuple(sorted(self.sizes, key=lambda size: theme.scale_for(*size)))
        self.out = out
        self.saved: list[Path] = []
        self.saved_stages: list[str] = []
        self.found: dict[tuple[int, int], dict[str, list[screencheck.Problem]]] = {
            size: {} for size in self.sizes}

    def __call__(self, name: str) -> None:
        window = self.window
        # The sizes of one scale side by side, and every other stage walks them backwards:
        # a restyle (60 ms of CPU) only where the scale changes.
        sizes = self.by_scale if len(self.saved_stages) % 2 == 0 else self.by_scale[::-1]
        self.saved_stages.append(name)
        for i, size in enumerate(sizes):
            window.rescale(theme.scale_for(*size))  # first: a larger style holds it larger
            settle()  # the layouts take the new style's sizes
            window.resize(*size)
            for top in screencheck.shown_windows(window)[1:]:
                fit_over(top, window)
            settle()
            if (window.width(), window.height()) != size:
                self.found[size].setdefault(name, []).append(screencheck.Problem(
                    "the window", f"is {window.width()}x{window.height()}, not "
                    f"{size_name(size)}: its contents need more room"))
            found = screencheck.problems(window, words=i == 0)
            if found:
                # A worker's answer can change a text in settle()'s last pass, its layout
                # still posted: what a dealer could see persists through one more pass.
                settle()
                found = screencheck.problems(window, words=i == 0)
            self.found[size].setdefault(name, []).extend(found)
            if self.out is not None:
                self.save(name, size)

    def save(self, name: str, size: tuple[int, int]) -> None:
        folder = self.out / size_name(size)  # type: ignore[operator]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        save_png(screen_image(self.window), path)
        self.saved.append(path)
        print(path)

    def report(self) -> list[str]:
        """Every problem found, one line each: size, stage, widget, what."""
        return [f"{size_name(size)} {stage}: {p}" for size, stages in self.found.items()
                for stage, found in stages.items() for p in found]


PNG_COLOURS = 128  # a screen of flat colours: a palette keeps each PNG small for the docs


def save_png(image: QImage, path: Path) -> None:
    """The image as a small palette PNG (Pillow, which the printer's driver brings), else as
    Qt writes it."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # The stubs say bytes for the format; PySide takes (only) a str.
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise RuntimeError(f"could not save {path}")
    data = bytes(buffer.data().data())
    try:
        from PIL import Image
    except ImportError:
        path.write_bytes(data)
        return
    with Image.open(io.BytesIO(data)) as im:
        small = im.convert("RGB").quantize(colors=PNG_COLOURS,
                                           method=Image.Quantize.MEDIANCUT,
                                           dither=Image.Dither.NONE)
        small.save(path, "PNG", optimize=True)


def fit_over(top: QWidget, window: QWidget) -> None:
    """A window shown over the dealer's (the pit's, a dialog) kept on the station's screen:
    no larger than the dealer's window, and over it."""
    w = min(top.width(), window.width())
    h = min(top.height(), window.height())
    if (w, h) != (top.width(), top.height()):
        top.resize(w, h)
    x = window.x() + (window.width() - top.width()) // 2
    y = window.y() + (window.height() - top.height()) // 2
    top.move(max(window.x(), x), max(window.y(), y))


def screen_image(window: QWidget) -> QImage:
    """The screen as the dealer sees it: the window, and the windows shown over it painted
    where they are (the same under Xvfb and off screen)."""
    image = window.grab().toImage()
    p = QPainter(image)
    for top in screencheck.shown_windows(window)[1:]:
        at = top.geometry().topLeft() - window.geometry().topLeft()
        p.drawPixmap(at, top.grab())
    p.end()
    return image


class Devices:
    """The screenshots' ledger and printer, in a temporary directory, and switches to take
    the printer's device and the ledger's database away and bring them back."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="paigow-screenshots-"))
        self.db = self.tmp / "db"
        self.db.mkdir()
        self.usb = self.tmp / "usb"
        self.usb.mkdir()
        store = Store(f"sqlite:///{self.db / 'ledger.sqlite'}", table="PG-1", station="pg1",
                      data_dir=self.tmp / "station", migrate_now=False, send_on_save=False)
        self.ledger = Ledger(store, send_every=0.1)
        self.ledger.open_shift("Kim")
        store.add_person(SUPERVISOR, "shift manager", PIN, by=None, first=True)
        from drivers.printer.config import PrinterConfig

        self.printer = Printer(PrinterConfig(kind="file", path=str(self.usb / "lp0"),
                                             queue_dir=str(self.tmp / "kept")))

    def away(self) -> None:
        """The printer unplugged (its device gone) and the database out of reach."""
        self.usb.rename(self.tmp / "usb-unplugged")
        self.db.rename(self.tmp / "db-away")
        self.ledger.store.engine.dispose()

    def back(self) -> None:
        (self.tmp / "usb-unplugged").rename(self.usb)
        (self.tmp / "db-away").rename(self.db)

    def close(self) -> None:
        self.ledger.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def play(out: Path | None = None, sizes: Sequence[tuple[int, int]] = SIZES,
         fast: bool = False) -> Camera:
    """The rounds as the slips number them: 1, the house banks (a dragon, a foul, the
    slip); 2, seat 3 banks and its bank runs out; 3, the printer and the database away; the
    pit, and round 4 voided; 4 again, the Fortune bonus; 5, the linked progressive; 6, the
    shoe unplugged and the cards typed by hand. Each stage at every size in
    `sizes`, saved under `out` (None: checked only). `fast`: the built-in demo feed in place
    of the simulator on a pseudo-terminal (the tests)."""
    deck = stacked_deck(SHOWCASE, 3)
    bank_deck = stacked_deck(BANK_SHOWCASE, 1)
    bonus_deck = stacked_deck(BONUS_SHOWCASE, 3)
    decks = [deck, bank_deck, deck, bonus_deck, bonus_deck]
    shoe: ShoeFeed = (DemoShoe(decks, interval_ms=0) if fast
                      else PtyDemoShoe(decks, card_delay=0.04, seed=7))
    numbers = iter([SHOWCASE_RNG, BANK_RNG] + [SHOWCASE_RNG] * 10)
    devices = Devices()
    window = MainWindow()
    jobs = Jobs()
    # the bonus on, as the table is shipped (config/default.toml): taken in round 4 only
    # (the voided round's number: a void leaves the rotation as it was, its number too);
    # the table on the linked progressive, its meter on the felt, its wagers in round 5
    rules = RoundRules(bonus=TableBonus(), progressive=progressive_card("linked-pai-gow"))
    station = Station(rules, ledger=devices.ledger,
                      supervisors=VouchedSupervisors(devices.ledger.store),
                      printer=StationPrinter(devices.printer), jobs=jobs,
                      writes=Worker(window, jobs=jobs), randbelow=lambda n: next(numbers))
    window.bind(station, shoe, printer=devices.printer, pit=PitController(window))
    window.move(0, 0)
    window.resize(*sizes[0])
    window.show()
    if out is None:  # checked, not photographed: what is checked is laid out, not painted
        window.setUpdatesEnabled(False)
    shoot = Camera(window, sizes, out)
    c = Dealer(window)
    try:
        pump(lambda: shoe.online)
        _round_one(window, c, shoot)
        _round_two(window, c, shoot)
        _devices_away(window, c, devices, shoot)
        _the_pit(window, c, shoot)
        _bonus_round(window, c, shoot)
        _progressive_round(window, c, shoot)
        _shoe_offline(window, c, shoot)
    finally:
        window.close()
        shoe.close()
        devices.close()
    return shoot


class Dealer:
    """The dealer at the window: keys, typed commands, clicks (the session's events)."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        assert window.session is not None
        self.s: DealerSession = window.session

    def key(self, key: str) -> None:
        self.window.press(key)

    def cmd(self, name: str, text: str = "") -> None:
        self.window.handle(DealerCommand(name, text))

    def select(self, position: int) -> None:
        self.window.select(position)

    def pick(self, position: int, text: str) -> None:
        self.window.pick(position, parse_cards(text)[0])

    def wagers(self, amounts: Sequence[tuple[int, str]]) -> None:
        for seat, dollars in amounts:
            self.select(seat)
            self.cmd("wager", dollars)

    def phase_is(self, phase: Phase) -> bool:
        return self.s.round is not None and self.s.round.phase is phase


def _round_one(window: MainWindow, c: Dealer, shoot: Camera) -> None:
    shoot("01-opened")
    c.key("N")
    c.wagers(((1, "25"), (2, "10"), (3, "50"), (5, "100"), (6, "15")))
    c.select(4)
    shoot("02-wagers")

    c.key("R")
    pump(lambda: len(c.s.deal.stream) >= 24)
    # The built-in feed (the tests') deals a card each turn of the event loop: held, no card
    # lands while a size is checked (a text changed mid-check was found cut, under load).
    # A shoe on a pseudo-terminal deals slower than the walk looks.
    demo = window.shoe if isinstance(window.shoe, DemoShoe) else None
    if demo is not None:
        demo.hold(True)
    shoot("03-dealing")
    if demo is not None:
        demo.hold(False)
    pump(lambda: c.phase_is(Phase.SETTING))
    shoot("04-dealt-dragon-offered")

    c.key("Q")  # seat 3 passes the dragon; seat 5 takes it for $40
    window.panel.fields["dragon"].setText(dragon_suggestion(c.s))
    shoot("05-dragon-offered-to-seat-5")
    c.cmd("dragon", "40")
    window.panel.fields["dragon"].clear()
    c.select(5)
    c.key("H")
    shoot("06-dragon-taken-house-way")

    c.pick(3, "KS")
    c.pick(3, "KD")
    shoot("07-front-picked-foul-preview")
    c.key("F")
    shoot("08-foul")

    c.select(1)
    c.pick(1, "7S")
    c.pick(1, "6C")
    c.key("F")
    c.select(2)
    c.key("H")
    c.select(6)
    c.key("H")
    shoot("09-all-set")

    c.key("S")
    shoot("10-settled-slip")
    c.key("P")
    pump(lambda: c.s.devices.slip_printed == "printed")
    shoot("11-slip-printed")


def _round_two(window: MainWindow, c: Dealer, shoot: Camera) -> None:
    c.key("N")
    shoot("12-bank-offered")
    pit = window.toggle_pit()
    assert pit is not None
    pit.tabs.setCurrentIndex(0)
    pit.check_seat.setCurrentIndex(2)  # seat 3, with $100 in chips
    pit.check_chips.setText("100")
    pit._check()
    shoot("13-pit-who-may-bank")
    window.toggle_pit()
    c.key("Q")
    c.key("Q")
    c.cmd("bank", "100")
    c.wagers(((1, "40"), (2, "20"), (5, "40")))
    c.wagers(((6, "5"),))  # the bank covers no more
    shoot("14-player-bank-covers-no-more")
    c.key("R")
    pump(lambda: c.phase_is(Phase.SETTING))
    c.key("Shift+Q")
    for position in (1, 2, 3, 5):
        c.select(position)
        c.key("H")
    shoot("15-player-bank-dealers-hand")
    c.key("S")
    shoot("16-player-bank-ran-out-slip")
    c.key("P")
    pump(lambda: c.s.devices.slip_printed == "printed")


def _devices_away(window: MainWindow, c: Dealer, devices: Devices, shoot: Camera) -> None:
    """Round 3: the printer is unplugged and the ledger's database goes away mid-round; play
    goes on, the slip is kept; both come back and the kept slip prints."""
    c.key("N")
    c.key("Shift+Q")
    c.wagers(((1, "25"), (3, "50"), (5, "100")))
    devices.away()
    c.key("R")
    pump(lambda: c.phase_is(Phase.SETTING))
    c.key("Shift+Q")
    for position in (3, 5, 1):
        c.select(position)
        c.key("H")
    c.key("S")
    c.key("P")
    # the meter is the same database: the felt says the progressive is closed as well (its
    # warning and the printer's race for the message: the walk shows both states settled)
    pump(lambda: c.s.devices.slip_printed == "kept" and window.banner.isVisible()
         and not c.s.play.progressive.online, seconds=20)
    shoot("17-printer-unplugged-database-away")
    devices.back()
    pump(lambda: devices.ledger.status().online and not devices.ledger.status().pending
         and devices.printer.kept_count == 1, seconds=40)
    window.poll_devices()
    pump(lambda: not window._polling)
    c.key("Shift+P")
    pump(lambda: c.s.devices.slip_printed == "printed")
    shoot("18-back-kept-slip-printed")


def _the_pit(window: MainWindow, c: Dealer, shoot: Camera) -> None:
    """The pit supervisor's view: history and a slip, advice on a hand, shift totals, and a
    void refused for a wrong PIN, then done with the right one."""
    shown = window.toggle_pit()
    assert shown is not None
    pit = shown  # narrowed for the closures below
    pit.tabs.setCurrentIndex(1)
    pit.refresh()
    pump(lambda: pit.pit.reading == 0)
    last = len(pit.shown) - 1  # the first round: newest first
    pit.rounds.selectRow(last)
    pump(lambda: pit.pit.reading == 0)
    shoot("19-pit-history-slip")
    assert pit.stored is not None
    rules = pit.pit.round_rules(pit.stored)
    advice = pit.open_advice(pit.pit.slip_hands(pit.stored, rules), rules, selected=3)
    shoot("20-pit-advice-seat-3")
    advice.accept()
    pit.tabs.setCurrentIndex(2)
    pit.refresh_totals()
    pump(lambda: pit.pit.reading == 0)
    shoot("21-pit-shift-totals")
    window.toggle_pit()

    c.key("N")
    c.key("Shift+Q")
    c.wagers(((2, "25"), (4, "30")))
    shown = window.toggle_pit()
    assert shown is not None
    pit = shown
    pit.tabs.setCurrentIndex(0)
    void = pit.open_void()
    void.form.by.setText(SUPERVISOR)
    void.form.secret.setText("123456")
    void.form.reason.setText("the table closes for a card change")
    void.ok.click()
    pump(lambda: not void.waiting)  # the ledger checks the person on the pit's worker
    shoot("22-pit-void-wrong-pin")
    void.form.secret.setText(PIN)
    void.ok.click()
    pump(lambda: not void.waiting)
    window.toggle_pit()
    shoot("23-round-void")


def _bonus_round(window: MainWindow, c: Dealer, shoot: Camera) -> None:
    """Round 4 again (the voided round's number), the Fortune bonus: three seats bet it;
    seat 1's five aces pay $40,000 and wait for a supervisor, who approves in the pit; the
    felt shows each seat's bonus and envy, and the slip its BONUS lines in the order
    paid."""
    c.key("N")
    c.key("Shift+Q")
    for seat, (wager, bonus) in BONUS_WAGERS.items():
        c.select(seat)
        c.cmd("wager", wager)
        c.select(seat)
        c.cmd("bonus", bonus)
    shoot("25-bonus-wagers")
    c.key("R")
    pump(lambda: c.phase_is(Phase.SETTING))
    c.key("Shift+Q")  # the dragon passed
    for position in (3, 1, 2):
        c.select(position)
        c.key("H")
    c.key("S")  # five aces: the payout waits, the pit's Approve bonus opens
    pit = window.supervisor
    assert pit is not None and isinstance(pit.dialog, ActionDialog)
    approve = pit.dialog
    approve.form.by.setText(SUPERVISOR)
    approve.form.secret.setText(PIN)
    shoot("26-bonus-waits-for-a-supervisor")
    approve.ok.click()
    pump(lambda: not approve.waiting)  # the ledger checks the person on the pit's worker
    pump(lambda: c.phase_is(Phase.SETTLED))
    if window.supervisor is not None and window.supervisor.isVisible():
        window.toggle_pit()
    shoot("27-bonus-settled-slip")
    c.key("P")
    pump(lambda: c.s.devices.slip_printed == "printed")


def _progressive_round(window: MainWindow, c: Dealer, shoot: Camera) -> None:
    """Round 5, the linked progressive: three seats bet it (J); seat 1's five aces take 10%
    of the meter and seat 2's four of a kind $75, after the pit supervisor's sign-in; the
    felt shows the meter, each seat's hit and the slip its progressive lines."""
    c.key("N")
    c.key("Shift+Q")
    for seat, (wager, _bonus) in BONUS_WAGERS.items():
        c.select(seat)
        c.cmd("wager", wager)
        c.select(seat)
        c.cmd("progressive")
    shoot("28-progressive-wagers")
    c.key("R")
    pump(lambda: c.phase_is(Phase.SETTING))
    c.key("Shift+Q")
    for position in (3, 1, 2):
        c.select(position)
        c.key("H")
    c.key("S")  # two hits: the pit's Pay progressive opens
    pit = window.supervisor
    assert pit is not None and isinstance(pit.dialog, ActionDialog)
    pay = pit.dialog
    pay.form.by.setText(SUPERVISOR)
    pay.form.secret.setText(PIN)
    shoot("29-progressive-hit-sign-in")
    pay.ok.click()
    pump(lambda: not pay.waiting)
    pump(lambda: c.s.play.progressive.waiting() is None)
    if window.supervisor is not None and window.supervisor.isVisible():
        window.toggle_pit()
    # the meter read again: back at its seed after the hit
    pump(lambda: window.felt.center.meter.text() == "Progressive $10,000.00")
    shoot("30-progressive-paid-slip")


def _shoe_offline(window: MainWindow, c: Dealer, shoot: Camera) -> None:
    c.key("N")
    c.key("Shift+Q")
    c.key("O")
    pump(lambda: window.shoe is not None and not window.shoe.online)
    c.wagers(((1, "25"),))
    c.key("R")
    c.cmd("cards", "KS KD 9C 7H 5S 3D")
    c.cmd("cards", "ZZ")
    shoot("24-shoe-offline-bad-card")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m app.ui.screenshots", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default=str(OUT))
    ap.add_argument("--size", action="append",
                    help="WIDTHxHEIGHT, as often as wanted (default: every size in SIZES)")
    args = ap.parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("QT_QPA_PLATFORM"):
        print("screenshots: no DISPLAY; start Xvfb (Xvfb :99 &) and set DISPLAY=:99, or set "
              "QT_QPA_PLATFORM=offscreen", file=sys.stderr)
        return 2
    sizes = []
    for text in args.size or [size_name(s) for s in SIZES]:
        w, _, h = text.partition("x")
        if not (w.isdigit() and h.isdigit()):
            print(f"screenshots: {text!r} is not a screen size; write it as WIDTHxHEIGHT, "
                  f"e.g. 1280x800", file=sys.stderr)
            return 2
        sizes.append((int(w), int(h)))
    _app = QApplication.instance() or QApplication(sys.argv[:1])
    shots = play(Path(args.out), sizes)
    found = shots.report()
    for line in found:
        print(f"screenshots: {line}", file=sys.stderr)
    if found:
        print(f"screenshots: {len(found)} problem(s) a dealer would see (above)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
