"""Where the window's cards come from: the shoe as Qt signals.

- `DemoShoe`: the built-in simulated shuffle for `--demo` (and the tests' fixed decks): one
  card at a time from a shuffled 53-card deck when the controller asks for a deal.
- `SerialShoe`: the real reader (drivers/shoe/transport.py) on its own thread; its events
  are forwarded to the GUI thread through a queued signal.
- `NoShoe`: no shoe configured: always offline, the dealer enters cards by hand.

All three say whether the shoe is online; when it is not, the window takes cards by hand.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.core.cards import DECK, Card


class ShoeFeed(QObject):
    """What the controller listens to. `card_read` carries one card in dealt order."""

    card_read = Signal(object)
    leftovers_read = Signal(object)  # the cards not dealt (tuple), when the shoe reads them
    status_changed = Signal()
    fault = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.online = False
        self.status = "offline: no shoe"
        self.demo = False

    def start_deal(self) -> None:
        """Action is taken: a shoe that deals on request (the demo) starts dealing."""

    def stop_deal(self) -> None:
        """The deal is over or abandoned: stop sending this deal's cards."""

    def set_online(self, online: bool) -> None:
        """Take the shoe offline or back (the demo's switch); a real shoe ignores it."""

    def close(self) -> None:
        """The window closes."""

    def _say(self, online: bool, status: str) -> None:
        self.online, self.status = online, status
        self.status_changed.emit()


class NoShoe(ShoeFeed):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.status = "offline: no shoe configured - enter cards by hand (C)"


class DemoShoe(ShoeFeed):
    """A simulated shoe: each deal is a new shuffle (or the next of the given decks)."""

    def __init__(self, decks: Iterable[Sequence[Card]] | None = None, seed: int | None = None,
                 interval_ms: int = 25, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.demo = True
        self._decks = [tuple(d) for d in decks] if decks is not None else []
        self._rng: random.Random = (random.Random(seed) if seed is not None
                                    else secrets.SystemRandom())
        self._pending: list[Card] = []
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._next)
        self.deals = 0
        self._say(True, "online: demo shoe (simulated shuffle)")

    def next_deck(self) -> tuple[Card, ...]:
        if self._decks:
            return self._decks.pop(0)
        deck = list(DECK)
        self._rng.shuffle(deck)
        return tuple(deck)

    def start_deal(self) -> None:
        if not self.online:
            return
        self._pending = list(self.next_deck())
        self.deals += 1
        self._timer.start()

    def stop_deal(self) -> None:
        self._timer.stop()
        self._pending = []

    def set_online(self, online: bool) -> None:
        if online == self.online:
            return
        if not online:
            self.stop_deal()
            self._say(False, "offline: demo shoe unplugged - enter cards by hand (C)")
        else:
            self._say(True, "online: demo shoe (simulated shuffle)")

    def _next(self) -> None:
        if not self._pending:
            self._timer.stop()
            return
        self.card_read.emit(self._pending.pop(0))

    def close(self) -> None:
        self.stop_deal()


class SerialShoe(ShoeFeed):
    """The card-reading shoe on a serial port, read by drivers.shoe.transport.ShoeReader."""

    _event = Signal(object)

    def __init__(self, port: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        from drivers.shoe.transport import ShoeConfig, ShoeReader

        self.port = port
        self._event.connect(self._on_event, Qt.ConnectionType.QueuedConnection)
        self._say(False, f"offline: opening {port}...")
        self.reader = ShoeReader(ShoeConfig(port), on_event=self._event.emit)
        self.reader.start()

    def _on_event(self, event: object) -> None:
        from drivers.shoe.protocol import Burn, CardRead, DeviceError, Fault, HandDealt
        from drivers.shoe.transport import ShoeOffline, ShoeOnline

        match event:
            case CardRead(card=c):
                self.card_read.emit(c)
            case HandDealt(cards=cards):
                for c in cards:
                    self.card_read.emit(c)
            case Burn(cards=cards):
                self.leftovers_read.emit(tuple(cards))
            case ShoeOnline(port=port):
                self._say(True, f"online: {port}")
            case ShoeOffline(reason=reason):
                self._say(False, f"offline: {reason} - enter cards by hand (C)")
            case Fault() | DeviceError():
                self.fault.emit(f"Shoe: {event}")

    def close(self) -> None:
        self.reader.stop()
