"""The people's clock held still by a test, and moved by it: a wait between tries runs out
without the test sleeping (and a slow machine does not run it out early)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from app.ledger import people
from app.ledger.models import now


class Clock:
    def __init__(self) -> None:
        self.at = now()

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


def held(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The people's clock (`app.ledger.people.now`), held at now."""
    clock = Clock()
    monkeypatch.setattr(people, "now", clock)
    return clock
