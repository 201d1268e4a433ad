"""What the ledger says when it cannot do something: what is wrong and what to do."""

from __future__ import annotations


class LedgerError(Exception):
    """The ledger cannot do that: the message says why and what to do."""


class LedgerUnavailable(LedgerError):
    """The database cannot be reached now (the station keeps what it writes and retries)."""


class RoundSettled(LedgerError):
    """A settled round cannot change: a correction is a new row that reverses."""


class NotAuthorised(LedgerError):
    """The person may not do that now: the message says why and what to do; never the
    secret."""
