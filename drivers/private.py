"""Files only the station's own user may read: 0600, in folders of 0700.

The station keeps secrets and records on its disk: the ledger's SQLite file (people's
secret hashes among its rows), the journal, its identity, the kept slips, the session file,
the floor's cookie secret. Whatever the umask (022 by default outside the installer, so
`make run` or a station started by hand made them 0644 in 0755 folders), every such file
the station creates is 0600 from the moment it exists, and every folder it creates for
them 0700. A file or folder that is there already is left as it is: the installer, or the
casino, chose its mode.

SQLite makes a database's -wal, -shm and -journal files with the mode of the database
file, so a new SQLite file is made here first, empty and 0600, and SQLite opens it after
(`private_file`): an empty file is a new database to SQLite.

This is the lowest layer both the drivers (the printer's kept slips) and the app (the
ledger, the window, the floor) may use; the core is the game alone and touches no file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Literal, overload

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(path: str | Path) -> Path:
    """The folder, made where missing with every missing folder above it, each 0700 (the
    mode set after mkdir too: a umask such as 0277 would take the owner's own rights)."""
    folder = Path(path)
    missing: list[Path] = []
    at = folder
    while not at.exists() and at != at.parent:
        missing.append(at)
        at = at.parent
    for made in reversed(missing):
        try:
            os.mkdir(made, FOLDER_MODE)
        except FileExistsError:  # made meanwhile (a second station sharing the folder)
            continue
        os.chmod(made, FOLDER_MODE)
    return folder


def private_file(path: str | Path) -> Path:
    """The file, made empty and 0600 where missing (its folders by `private_folder`), for a
    program that opens it next: SQLite then makes its -wal and -shm files 0600 too."""
    file = Path(path)
    private_folder(file.parent)
    try:
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return file
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return file


TextMode = Literal["w", "a", "x", "w+", "a+", "x+"]
BinaryMode = Literal["wb", "ab", "xb", "wb+", "ab+", "xb+"]


@overload
def open_private(path: str | Path, mode: TextMode = "w", *,
                 encoding: str | None = None) -> IO[str]: ...


@overload
def open_private(path: str | Path, mode: BinaryMode, *,
                 encoding: None = None) -> IO[bytes]: ...


def open_private(path: str | Path, mode: TextMode | BinaryMode = "w", *,
                 encoding: str | None = None) -> IO[str] | IO[bytes]:
    """`open(path, mode)` for writing ("w", "a", "x", with "b" for bytes), the file made
    0600 when it is new (its folders by `private_folder`). An existing file keeps its mode."""
    file = Path(path)
    private_folder(file.parent)
    kind = mode.replace("b", "").replace("+", "")
    flags = {"w": os.O_TRUNC, "a": os.O_APPEND, "x": os.O_EXCL}[kind]
    flags |= (os.O_RDWR if "+" in mode else os.O_WRONLY) | os.O_CREAT
    try:
        fd = os.open(file, flags | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        if kind == "x":
            raise
        fd = os.open(file, flags, FILE_MODE)
    else:
        os.fchmod(fd, FILE_MODE)
    try:
        return os.fdopen(fd, mode, encoding=encoding)
    except BaseException:
        os.close(fd)
        raise
