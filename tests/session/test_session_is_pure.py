"""The dealer session imports the standard library, the core, the drivers' pure parts and
pydantic only (DESIGN.md: the session never imports Qt); the window, the tests and replay
share it. pydantic is a base dependency: it checks a recorded session's JSON."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SESSION = Path(__file__).resolve().parents[2] / "app" / "session"
ALLOWED = ("app.core", "app.session", "drivers.action", "drivers.shoe.protocol", "pydantic",
           "typing_extensions", "annotated_types")


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_session_imports_only_the_standard_library_the_core_pure_drivers_and_pydantic():
    files = sorted(SESSION.rglob("*.py"))
    assert len(files) >= 8
    for path in files:
        outside = {n for n in imported(path)
                   if n.split(".")[0] not in sys.stdlib_module_names and n != "__future__"
                   and not n.startswith(ALLOWED)}
        assert not outside, f"{path.name} imports {outside}"


def test_the_pure_drivers_the_session_uses_import_nothing_else():
    drivers = SESSION.parents[1] / "drivers"
    for path in (drivers / "action.py", drivers / "shoe" / "protocol.py"):
        outside = {n for n in imported(path)
                   if n.split(".")[0] not in sys.stdlib_module_names and n != "__future__"
                   and not n.startswith(("app.core", "drivers"))}
        assert not outside, f"{path.name} imports {outside}"
    for package in (drivers / "__init__.py", drivers / "shoe" / "__init__.py"):
        assert imported(package) == set(), f"{package} imports on the way in"
