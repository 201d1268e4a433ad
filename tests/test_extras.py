"""Each extra installs and runs on its own (issue 24, item 5: "the `floor` extra cannot be
installed on its own"; `pip install '.[floor]'` then failed at `paigow-floor` for want of
SQLAlchemy). Every third-party package a program can import, at the top of a module or
inside a function, is one its extra (with the base dependencies) installs: read from the
code's own import statements, followed through app/ and drivers/, and from pyproject.toml.
And numpy, the analysis's, is no dependency of the station or the floor."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from functools import cache
from importlib.metadata import PackageNotFoundError, packages_distributions, requires
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = ("app", "drivers")


def _file(module: str) -> Path | None:
    path = ROOT.joinpath(*module.split("."))
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.exists():
            return candidate
    return None


def _imports(path: Path, module: str) -> list[str]:
    """Every module the file imports, wherever the statement stands, but under `if
    TYPE_CHECKING:` (never run)."""
    found: list[str] = []
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.extend(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = package[:len(package) - child.level + 1] if child.level else []
                name = ".".join([*base, *([child.module] if child.module else [])])
                found.append(name)
                found.extend(f"{name}.{a.name}" for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


@cache
def reached(entry: str) -> dict[str, str]:
    """The third-party top-level packages `entry` can import: name -> a module of ours
    that imports it."""
    seen: set[str] = set()
    outside: dict[str, str] = {}
    todo = [entry]
    while todo:
        module = todo.pop()
        if module in seen or (path := _file(module)) is None:
            seen.add(module)
            continue
        seen.add(module)
        for name in _imports(path, module):
            parts = name.split(".")
            if parts[0] in OURS:
                todo.extend(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            elif parts[0] not in sys.stdlib_module_names and parts[0] != "__future__":
                outside.setdefault(parts[0], module)
    return outside


def _project() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {"": project["dependencies"], **project["optional-dependencies"]}


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower().replace("_", "-")
            for r in requirements}


@cache
def _installed() -> dict[str, list[str]]:
    return packages_distributions()


def _distributions(package: str) -> set[str]:
    return {d.lower().replace("_", "-") for d in _installed().get(package, [])}


def _with_their_own(names: set[str]) -> set[str]:
    """The distributions named and what they require in turn (not their own extras):
    what pip installs for them."""
    todo, out = list(names), set()
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out.add(name)
        try:
            wanted = requires(name) or []
        except PackageNotFoundError:
            continue
        todo.extend(_names([r for r in wanted if "extra ==" not in r]))
    return out


def _missing(entry: str, extra: str) -> dict[str, str]:
    given = _with_their_own(_names(_project()[""] + _project()[extra]))
    return {package: by for package, by in reached(entry).items()
            if not _distributions(package) & given}


def test_the_floor_extra_installs_every_package_the_floor_can_import() -> None:
    assert _missing("app.floor.main", "floor") == {}


def test_the_station_extra_installs_every_package_the_dealer_s_window_can_import() -> None:
    assert _missing("app.ui.main", "station") == {}


def test_numpy_is_the_analysis_extra_s_and_no_station_or_floor_module_imports_it() -> None:
    extras = _project()
    assert "numpy" in _names(extras["analysis"])
    assert "numpy" not in _names(extras[""] + extras["station"] + extras["floor"])
    assert "numpy" not in reached("app.ui.main")
    assert "numpy" not in reached("app.floor.main")
