"""`paigow` run through its own entry (`app.cli.main`) inside the test process, as the
command line would run it: its arguments, stdin, environment and folder, its exit code and
what it wrote on stdout and stderr (read at the file descriptors, so the output of a worker
process a command starts is caught too).

A new interpreter costs a command about 0.15 s of CPU to start and import the program
before it does anything; a test of what a command answers pays that once here, not once a
call. The tests of the process itself (a signal, a closed pipe, the interpreter's memory
limit, a module missing, a child's exit code) still start one.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Ran:
    """What `subprocess.run(..., capture_output=True, text=True)` would have given."""

    returncode: int
    stdout: str
    stderr: str


class Paigow:
    """`paigow(*args, stdin=..., env=..., cwd=...)`: the command's exit code and output."""

    def __init__(self, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                 tmp: Path) -> None:  # tmp: a folder of its own (stdin's files), not the test's
        self._capfd, self._monkeypatch, self._tmp = capfd, monkeypatch, tmp
        self._calls = 0

    def __call__(self, *args: str, stdin: str | bytes | None = None,
                 env: Mapping[str, str] | None = None, cwd: str | Path | None = None) -> Ran:
        from app.cli import main

        self._calls += 1
        given = self._tmp / f"stdin-{self._calls}"
        if isinstance(stdin, str):
            given.write_text(stdin, encoding="utf-8")
        else:
            given.write_bytes(stdin or b"")
        with self._monkeypatch.context() as m, given.open(encoding="utf-8") as lines:
            if env is not None:  # the whole environment, as subprocess's env= gives it
                for key in list(os.environ):
                    m.delenv(key)
                for key, value in env.items():
                    m.setenv(key, value)
            if cwd is not None:
                m.chdir(cwd)
            m.setattr(sys, "stdin", lines)  # a file, as a pipe or a redirect gives one
            m.setattr(sys, "argv", ["paigow", *args])
            self._capfd.readouterr()  # what the test printed before is not the command's
            try:
                code = main(list(args))
            except SystemExit as stop:  # argparse's usage errors, sys.exit(...)
                code = _exit_code(stop.code)
            except Exception:  # noqa: BLE001 - an interpreter prints it and exits 1
                sys.stderr.write(traceback.format_exc())
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            out, err = self._capfd.readouterr()
        return Ran(code, out, err)


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # sys.exit("text") prints the text and exits 1
    return 1


@pytest.fixture
def paigow(capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
           tmp_path_factory: pytest.TempPathFactory) -> Paigow:
    return Paigow(capfd, monkeypatch, tmp_path_factory.mktemp("stdin"))
