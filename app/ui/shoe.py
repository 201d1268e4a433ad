"""Where the window's cards come from: the shoe as Qt signals.

- `SerialShoe`: the real reader (drivers/shoe/transport.py) on its own thread; its events
  are forwarded to the GUI thread through a queued signal.
- `PtyDemoShoe` (`paigow-dealer --demo`): the shoe simulator (drivers/shoe/simulator.py)
  dealing on a pseudo-terminal, read through the same `SerialShoe` path as a real shoe. It
  deals a round when action is taken; "unplugging" it closes the pseudo-terminal.
- `DemoShoe`: a built-in feed without a port, for the tests that want a fixed deck fast.
- `NoShoe`: no shoe configured: always offline, the dealer enters cards by hand.

All say whether the shoe is online; when it is not, the window takes cards by hand.
"""

from __future__ import annotations

import math
import os
import queue
import random
import secrets
import shutil
import tempfile
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from app.core.cards import DECK, Card

if TYPE_CHECKING:
    from drivers.shoe.transport import ShoeConfig  # pyserial: the shoe imports it when used


class ShoeFeed(QObject):
    """What the controller listens to. `card_read` carries one card in dealt order."""

    card_read = Signal(object)
    # (card, first_seq, seq): a card the shoe numbered, placed by its number in the deal
    # (app.core.table.place_of_seq), so a card lost on the line leaves a hole.
    card_at = Signal(object, int, int)
    leftovers_read = Signal(object)  # the cards not dealt (tuple), when the shoe reads them
    action_read = Signal(object)  # drivers.action.ActionInput sent by a shuffler or shaker
    shuffled = Signal()  # a new deck: what was read before belongs to the old one
    status_changed = Signal()
    fault = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.online = False
        self.status = "offline: no shoe"  # the whole story, for the status bar's tooltip
        self.short = "offline"  # one or two words for the status bar itself
        self.demo = False
        self.device: str | None = None  # the shoe's model, from its HELLO

    def start_deal(self) -> None:
        """Action is taken: a shoe that deals on request (the demo) starts dealing."""

    def stop_deal(self) -> None:
        """The deal is over or abandoned: stop sending this deal's cards."""

    def set_online(self, online: bool) -> None:
        """Take the shoe offline or back (the demo's switch); a real shoe ignores it."""

    def close(self) -> None:
        """The window closes."""

    def _say(self, online: bool, status: str, short: str | None = None) -> None:
        self.online, self.status = online, status
        self.short = short or ("online" if online else "offline")
        self.status_changed.emit()


class NoShoe(ShoeFeed):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.status = "offline: no shoe configured - enter cards by hand (C)"
        self.short = "none"


class DemoShoe(ShoeFeed):
    """A built-in feed: each deal is a new shuffle (or the next of the given decks), one card
    per timer tick, with no port and no protocol (the tests' fixed decks)."""

    def __init__(self, decks: Iterable[Sequence[Card]] | None = None, seed: int | None = None,
                 interval_ms: int = 25, leftovers: bool = True,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.demo = True
        self._decks = [tuple(d) for d in decks] if decks is not None else []
        self._rng: random.Random = (random.Random(seed) if seed is not None
                                    else secrets.SystemRandom())
        self._cards = 53 if leftovers else 49  # 49: a shoe that never reads the leftovers
        self._pending: list[Card] = []
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._next)
        self.deals = 0
        self._say(True, "online: built-in demo feed")

    def next_deck(self) -> tuple[Card, ...]:
        if self._decks:
            return self._decks.pop(0)
        deck = list(DECK)
        self._rng.shuffle(deck)
        return tuple(deck)

    def start_deal(self) -> None:
        if not self.online:
            return
        self._pending = list(self.next_deck())[:self._cards]
        self.deals += 1
        self._timer.start()

    def stop_deal(self) -> None:
        self._timer.stop()
        self._pending = []

    def hold(self, held: bool) -> None:
        """Stop handing out the deal's cards (True), or go on with them (False): the
        screenshot walk looks at the window mid-deal, with no card landing as it looks."""
        if held:
            self._timer.stop()
        elif self._pending:
            self._timer.start()

    def set_online(self, online: bool) -> None:
        if online == self.online:
            return
        if not online:
            self.stop_deal()
            self._say(False, "offline: demo feed unplugged - enter cards by hand (C)",
                      "unplugged")
        else:
            self._say(True, "online: built-in demo feed")

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

    def __init__(self, port: str, parent: QObject | None = None, *,
                 config: ShoeConfig | None = None,
                 resume: tuple[int | None, int | None] = (None, None)) -> None:
        """`resume`: after a restart mid-deal, the deal's first card's number and the last
        the station kept: the shoe is asked for everything after it."""
        super().__init__(parent)
        from drivers.shoe.deal_order import DealStart
        from drivers.shoe.transport import ShoeConfig, ShoeReader

        self.deal_start = DealStart(first_seq=resume[0])
        self.port = port
        self._event.connect(self._on_batch, Qt.ConnectionType.QueuedConnection)
        self._say(False, f"offline: opening {port}...")
        # One queued signal per read, not per event: a noisy line cannot flood the window.
        self.reader = ShoeReader(config or ShoeConfig(port), on_batch=self._event.emit,
                                 resume_after=resume[1])
        self.reader.start()

    def online_text(self) -> str:
        return f"online: {self.port}" + (f" ({self.device})" if self.device else "")

    def offline_text(self, reason: str) -> str:
        return f"offline: {reason} - enter cards by hand (C)"

    def offline_short(self) -> str:
        return "offline"

    def start_deal(self) -> None:
        self.deal_start.new_deal()

    def _on_batch(self, events: list[object]) -> None:
        for event in events:
            self._on_event(event)

    def _on_event(self, event: object) -> None:
        from drivers.action import ActionError, from_device
        from drivers.shoe.protocol import (
            ActionRead,
            Burn,
            CardRead,
            DeviceError,
            Fault,
            HandDealt,
            Hello,
            NoisyLine,
            ShuffleStart,
        )
        from drivers.shoe.transport import ShoeOffline, ShoeOnline

        numbered = self.deal_start.see(event)  # type: ignore[arg-type]
        match event:
            case CardRead(card=c, seq=seq):
                first = self.deal_start.first_seq
                self.card_at.emit(c, seq if first is None else first, seq)
            case HandDealt():
                for n in numbered:              # a stack's cards: placed by the stack
                    self.card_at.emit(n.card, 0, n.index)
            case Burn(cards=cards):
                self.leftovers_read.emit(tuple(cards))
            case ShuffleStart():
                self.shuffled.emit()
            case ActionRead():
                try:
                    self.action_read.emit(from_device(event, self.device))
                except ActionError as e:
                    self.fault.emit(str(e))
            case Hello(model=model):
                self.device = model
                if self.online:
                    self._say(True, self.online_text())
            case ShoeOnline():
                self._say(True, self.online_text())
            case ShoeOffline(reason=reason):
                self._say(False, self.offline_text(reason), self.offline_short())
            case NoisyLine():
                self.fault.emit(str(event))
            case Fault() | DeviceError():
                self.fault.emit(f"Shoe: {event}")

    def close(self) -> None:
        self.reader.stop()


class PtyDemoShoe(SerialShoe):
    """The demo: the shoe simulator on a pseudo-terminal, read by the real reader.

    The simulator deals one round each time action is taken (`start_deal`): SHUFFLE, the
    cards one at a time (`card_delay` apart), BURN with the four left over, heartbeats
    between rounds, and it answers the reader's RESEND requests. `decks` are dealt in turn,
    then seeded (or `secrets`) shuffles. `set_online(False)` unplugs it: the pseudo-terminal
    closes, the reader reports the shoe offline and keeps trying; plugging it back makes a
    new one under the same name, as a replugged USB shoe does under /dev/serial/by-id.
    """

    def __init__(self, decks: Iterable[Sequence[Card]] | None = None, seed: int | None = None,
                 card_delay: float = 0.03, action: str = "none", mode: str = "card",
                 parent: QObject | None = None) -> None:
        from drivers.shoe.simulator import PtyLink, Simulator

        self._dir = tempfile.mkdtemp(prefix="paigow-demo-shoe-")
        self.link = PtyLink(os.path.join(self._dir, "shoe"))
        self.link.open()
        self.sim = Simulator(self.link, mode=mode, rounds=0, seed=seed, action=action,
                             card_delay=card_delay, heartbeat=1.0)
        self._decks = [tuple(d) for d in decks] if decks is not None else []
        # Deals asked for, and apart from them the dealer's plug / unplug: a deal ended or
        # dropped (stop_deal) never drops the unplugging asked with it.
        self._requests: queue.Queue[tuple[int, tuple[Card, ...] | None]] = queue.Queue()
        # Deals are numbered as asked; stop_deal drops every deal asked up to now, the one
        # being dealt included: the simulator stops before its next card.
        self._asked = 0
        self._dropped = 0
        self._dealing = 0
        self._switch: queue.Queue[bool] = queue.Queue()
        self._quit = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="demo-shoe", daemon=True)
        self.deals = 0
        super().__init__(str(self.link.link), parent)
        self.demo = True
        self._thread.start()

    def online_text(self) -> str:
        return f"online: demo shoe (simulator on {self.link.path})"

    def offline_text(self, reason: str) -> str:
        return "offline: demo shoe unplugged (O plugs it back) - enter cards by hand (C)"

    def offline_short(self) -> str:
        return "unplugged"

    # The simulator runs on its own thread; the GUI thread only queues requests for it.
    def _serve(self) -> None:
        sim = self.sim
        sim.tick = self._plugging  # between the cards of a deal too
        sim.abandon = lambda: self._dealing <= self._dropped
        sim.plug()
        while not self._quit.is_set():
            self._plugging()
            try:
                number, deck = self._requests.get_nowait()
            except queue.Empty:
                number, deck = 0, None
            if number > self._dropped:
                self._dealing = number
                sim.deal_now(deck)
            sim.idle(0.01)

    def _plugging(self) -> None:
        """The dealer's O, on the simulator's thread: unplugged at once (a deal under way
        goes on unheard, as a pulled cable's), or plugged back in."""
        while True:
            try:
                plug = self._switch.get_nowait()
            except queue.Empty:
                return
            if plug:
                self.sim.plug()
            else:
                self.sim.unplug(math.inf)  # out until the dealer plugs it back (O)

    def start_deal(self) -> None:
        if not self.online:
            return
        super().start_deal()
        self.deals += 1
        self._asked += 1
        self._requests.put((self._asked, self._decks.pop(0) if self._decks else None))

    def stop_deal(self) -> None:
        """The deal is over or abandoned: the deals asked and not begun are not dealt, and
        one under way stops before its next card."""
        self._dropped = self._asked

    def set_online(self, online: bool) -> None:
        self.stop_deal()
        self._switch.put(online)

    def close(self) -> None:
        self._quit.set()
        self.sim.stop()
        self._thread.join(3)
        super().close()
        if self.sim.plugged:
            self.link.close()
        self.link.remove_link()
        shutil.rmtree(self._dir, ignore_errors=True)
