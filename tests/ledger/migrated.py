"""A new SQLite ledger already at the newest schema, for a test: a copy of one this process
migrated once. Running every migration took 0.15 s of CPU a ledger (about 150 ledgers a run
in the ledger's and the window's tests); copying the file takes a millisecond. The
migrations themselves are tested in test_migrations.py, and every station process of the
fault suite and of test_processes.py still migrates its own new ledger."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

from app.ledger.database import make_engine, migrate


def migrated_sqlite(path: Path) -> str:
    """The URL of the SQLite ledger at `path`, made there at the newest schema when there is
    none yet (as a station's first start makes it; a station started again opens its own)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_template(), path)
        path.chmod(0o600)  # as the station makes its ledger file
    return f"sqlite:///{path}"


@cache
def _template() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="paigow-migrated-ledger-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "ledger.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # the last connection closed: the write-ahead log is in the file
    return path
