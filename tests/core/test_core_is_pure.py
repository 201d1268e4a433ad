"""The game core imports only the standard library (DESIGN.md): no Qt, database or serial."""

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "app" / "core"


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_core_modules_import_only_the_standard_library_and_the_core():
    files = sorted(CORE.rglob("*.py"))
    assert len(files) >= 8
    for path in files:
        outside = {r for r in imported_roots(path)
                   if r not in sys.stdlib_module_names and r not in ("app", "__future__")}
        assert not outside, f"{path.relative_to(CORE)} imports {outside}"


def test_core_does_not_import_ui_ledger_or_drivers():
    for path in sorted(CORE.rglob("*.py")):
        text = path.read_text()
        for banned in ("app.ui", "app.ledger", "drivers", "PySide6", "sqlalchemy", "serial",
                       "pydantic"):
            assert f"import {banned}" not in text and f"from {banned}" not in text, (
                f"{path.name} reaches {banned}")
