"""The dealer session: the station's behaviour with no window (no Qt, no database, no port).

Events go in (a card from the shoe, action from a device, a dealer's or a supervisor's
command), each is checked with the round (`app.core.round`) and applied, and `Changes` come
out (which seats, the centre, the slip, the devices, the message, what was recorded and
printed). The ledger and the printer sit behind small ports (`ports.py`); every dealer
command is declared once in `commands.py`. The window, the tests and `paigow replay` drive
the same `DealerSession`, which composes its parts (`parts.py`: the round in play, the deal
coming in, the keyboard, the devices, the outbox); docs/session.md draws the whole.
"""

from .changes import Changes
from .commands import COMMANDS, Command, help_rows, keymap, next_line
from .events import (
    CardPicked,
    CardRead,
    DealerCommand,
    DeviceAction,
    Event,
    FrontTyped,
    HitsOwed,
    KeyPressed,
    LeftoversRead,
    MeterStatus,
    OwedHit,
    PaidHit,
    Printed,
    PrintJob,
    PrintOutcome,
    ProgressivePaid,
    ShoeFault,
    ShoeStatus,
    Shuffled,
    SupervisorCommand,
    event_from_dict,
    event_to_dict,
)
from .parts import Parts
from .ports import (
    LedgerPort,
    MemoryLedger,
    MemoryPrinter,
    MemorySupervisors,
    PortError,
    PrinterPort,
    Supervisor,
    SupervisorPort,
)
from .session import DealerSession

__all__ = [
    "COMMANDS", "CardPicked", "CardRead", "Changes", "Command", "DealerCommand",
    "DealerSession", "DeviceAction", "Event", "FrontTyped", "HitsOwed", "KeyPressed",
    "LedgerPort",
    "LeftoversRead", "MemoryLedger", "MemoryPrinter", "MeterStatus", "OwedHit", "PaidHit", "Parts",
    "PortError", "PrintJob", "PrintOutcome", "Printed", "PrinterPort", "ProgressivePaid",
    "ShoeFault", "ShoeStatus", "Shuffled", "Supervisor",
    "SupervisorCommand", "SupervisorPort", "MemorySupervisors",
    "event_from_dict", "event_to_dict", "help_rows", "keymap", "next_line",
]
