"""Who may close the station's window (`MainWindow.close_guard`): a supervisor, as the
ledger checks them (`CloseGuard`); while the ledger is still opening, nobody but the system
(`OpeningGuard`). Kept apart from the pit's dialogs, which load only once they are asked for,
so the window paints before them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.ledger.people import Person

    from .pit import PitController
    from .supervisor import CloseDialog
    from .window import MainWindow

OPENING_CLOSE = ("The station is still opening its ledger. Once the table shows, a "
                 "supervisor can close it.")


class CloseGuard:
    """The window's close (the dealer's, the window manager's) asks for a supervisor: it is
    refused and the close dialog opens; a supervisor's close (`by`) lets it through. A stop
    the system asks for (SIGTERM, `forced`) closes without one."""

    def __init__(self, window: QWidget, pit: PitController) -> None:
        self.window = window
        self.pit = pit
        self.by: str | None = None  # the supervisor who closed the station
        self.forced = False
        self.dialog: CloseDialog | None = None

    def __call__(self) -> bool:
        """May the window close now? If not, the supervisor is asked for."""
        if self.by is not None or self.forced:
            return True
        self.ask()
        return False

    def ask(self) -> CloseDialog:
        from .supervisor import CloseDialog  # heavy: SQLAlchemy (app.ledger), when asked

        if self.dialog is None or not self.dialog.isVisible():
            self.dialog = CloseDialog(self.pit, self._closed, self.window)
            self.dialog.open()
        self.dialog.raise_()
        return self.dialog

    def _closed(self, person: Person) -> None:
        self.by = person.name
        self.window.close()


class OpeningGuard:
    """The window's close while the ledger opens: refused, as a supervisor closes the
    station and the ledger checks who they are; a stop the system asks for (`forced`)
    closes it."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.by: str | None = None
        self.forced = False

    def __call__(self) -> bool:
        if self.forced:
            return True
        self.window.panel.show_message(OPENING_CLOSE, "warn")
        return False
