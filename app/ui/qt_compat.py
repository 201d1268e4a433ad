"""A guard against a reference-count bug in PySide6 6.12.0 on CPython 3.11.

PySide6/shiboken6 6.12.0 returns `None` from every C++ method returning void, and `True` or
`False` from a signal's `emit()`, without taking a reference to it. From CPython 3.12 on
these objects are immortal and nothing happens; on 3.11 each such call (`QPainter.save()`,
`setPen()`, `changed.emit()`, ...) takes one reference away, and after a few thousand calls
the interpreter aborts with "Fatal Python error: none_dealloc: deallocating None" (or
bool_dealloc). 6.11.x does not have the bug.

Until the project pins `pyside6-essentials!=6.12.0`, the window makes these three objects as
good as immortal on affected versions, as CPython 3.12 does for every program: their
reference counts are raised by 2**60, which no session's calls can use up. Nothing else is
touched.
"""

from __future__ import annotations

import ctypes
import sys

AFFECTED = ("6.12.0",)
_BOOST = 1 << 60
_done = False


def none_refcount_bug(shiboken_version: str, python: tuple[int, int]) -> bool:
    return python < (3, 12) and shiboken_version in AFFECTED


def guard_none_refcount() -> bool:
    """Apply the guard once if this PySide6 and Python need it; True when applied."""
    global _done
    if _done:
        return True
    try:
        import shiboken6
    except ImportError:  # pragma: no cover - PySide6 always brings shiboken6
        return False
    version = getattr(shiboken6, "__version__", "")
    if not none_refcount_bug(version, sys.version_info[:2]):
        return False
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        refcount.value += _BOOST
    _done = True
    return True
