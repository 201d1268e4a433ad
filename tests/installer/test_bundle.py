"""The station bundle: installer/build.sh builds it (PyInstaller, installer/paigow-dealer.spec)
once per test session into a temporary directory, and these tests start it off screen
(QT_QPA_PLATFORM=offscreen) to the dealer's main window, stop it the way systemd and a
Ctrl-C do, start it the way the service does, and check what it carries and leaves out.

The bundle's entry (installer/paigow_dealer.py) prints one line on stderr once the main
window has been drawn; the tests wait for that line.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "installer" / "build.sh"
UNIT = ROOT / "installer" / "paigow-dealer.service"
DEFAULT_CONFIG = ROOT / "config" / "default.toml"
SHOWN = "paigow-dealer: main window shown: "
TITLE = "Pai Gow Poker - dealer station"
SCREEN = """{"screens": [{"name": "station", "x": 0, "y": 0, "width": 1920, "height": 1080,
             "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}"""
pytestmark = pytest.mark.proof  # the bundle is built once (PyInstaller, minutes)
BUDGET_MB = 175  # measured 151 MB with the ledger (PostgreSQL client) and the slip printer


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build once per session, from scratch: no PyInstaller cache from an earlier run."""
    tmp = tmp_path_factory.mktemp("bundle")
    env = dict(os.environ, PYTHON=sys.executable,
               PYINSTALLER_CONFIG_DIR=str(tmp / "pyinstaller-cache"))
    done = subprocess.run(["bash", str(BUILD), "--dist", str(tmp / "dist"),
                           "--work", str(tmp / "work")],
                          capture_output=True, text=True, env=env, timeout=1200)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-8000:]
    assert "built in" in done.stdout
    return tmp / "dist" / "paigow-dealer"


class Station:
    """The bundle's program running off screen, its stderr read line by line."""

    def __init__(self, bundle: Path, args: list[str], home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PAIGOW_", "PYTHON", "VIRTUAL_ENV", "QT_"))}
        screen = home / "screen.json"  # a station's 1920x1080 screen, not offscreen's 800x800
        screen.write_text(SCREEN)
        env.update(QT_QPA_PLATFORM=f"offscreen:configfile={screen}", HOME=str(home),
                   XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
                   XDG_CACHE_HOME=str(home / "cache"))
        self.process = subprocess.Popen([str(bundle / "paigow-dealer"), *args], cwd=home,
                                        env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []
        self.stdout: list[str] = []
        self._threads = [threading.Thread(target=self._read, args=(self.process.stderr, True),
                                          daemon=True),
                         threading.Thread(target=self._read, args=(self.process.stdout, False),
                                          daemon=True)]
        for t in self._threads:
            t.start()

    def _read(self, stream: object, is_stderr: bool) -> None:
        assert stream is not None
        for line in stream:  # type: ignore[attr-defined]
            (self.stderr if is_stderr else self.stdout).append(line)
            if is_stderr:
                self.lines.put(line)
        if is_stderr:
            self.lines.put(None)

    def output(self) -> str:
        return "".join(self.stdout) + "".join(self.stderr)

    def wait_for_window(self, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=end - time.monotonic())
            except queue.Empty:
                break
            if line is None:
                self.process.wait(timeout=10)
                pytest.fail(f"the station ended (exit {self.process.returncode}) before its "
                            f"main window was shown:\n{self.output()}")
            if line.startswith(SHOWN):
                return line.strip()
        pytest.fail(f"no main window within {timeout} s:\n{self.output()}")

    def wait(self, timeout: float = 30) -> int:
        code = self.process.wait(timeout=timeout)
        for t in self._threads:
            t.join(timeout=5)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def start(bundle: Path, tmp_path: Path) -> Iterator[object]:
    started: list[Station] = []

    def _start(*args: str, supervised: bool = False) -> Station:
        home = tmp_path / f"home{len(started)}"
        if supervised:  # a station on a table has its supervisors in the ledger
            from app.ledger import Store

            data = home / "data" / "paigow-station"
            with Store(f"sqlite:///{data / 'ledger.sqlite'}", data_dir=data) as store:
                store.add_person("Ana Ruiz", "shift manager", "ana-knows-77", by=None,
                                 first=True)
        station = Station(bundle, list(args), home)
        started.append(station)
        return station

    yield _start
    for station in started:
        station.kill()


# --- it starts, and stops when told to -----------------------------------------------------

@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=lambda s: s.name)
def test_bundle_starts_offscreen_to_the_main_window_and_exits_cleanly_when_told_to(
        start: object, stop: signal.Signals) -> None:
    station = start("--demo")  # type: ignore[operator]
    shown = station.wait_for_window()
    assert f'"{TITLE}" on offscreen' in shown
    assert re.search(r", \d+x\d+,", shown)
    station.process.send_signal(stop)
    assert station.wait() == 0, station.output()
    assert "Traceback" not in station.output()


def service_args(site: Path, shoe: str) -> list[str]:
    """The unit's ExecStart arguments with its default PAIGOW_DEALER_ARGS, the site config
    at `site` and the shoe at `shoe` (for /etc/paigow/station.toml and /dev/paigow-shoe)."""
    text = UNIT.read_text()
    exec_start = re.search(r"^ExecStart=(.*)$", text, re.M)
    default_args = re.search(r'^Environment="PAIGOW_DEALER_ARGS=(.*)"$', text, re.M)
    assert exec_start and default_args
    shutil.copy(DEFAULT_CONFIG, site)
    args = []
    for word in shlex.split(exec_start.group(1))[1:]:
        if word == "$PAIGOW_DEALER_ARGS":
            args += [shoe if w == "/dev/paigow-shoe" else w
                     for w in shlex.split(default_args.group(1))]
        else:
            args.append(str(site) if word == "/etc/paigow/station.toml" else word)
    assert "--fullscreen" in args and shoe in args
    return args


def test_bundle_starts_as_the_service_starts_it_full_screen(
        start: object, tmp_path: Path) -> None:
    """The unit's command line on a 1920x1080 screen, the shoe plugged in (a pseudo-terminal
    that sends nothing yet): the station fills the screen, and `systemctl stop` ends it."""
    master, slave = os.openpty()
    try:
        station = start(*service_args(tmp_path / "station.toml",  # type: ignore[operator]
                                      os.ttyname(slave)), supervised=True)
        shown = station.wait_for_window()
        assert f'"{TITLE}" on offscreen, 1920x1080, full screen' in shown
        station.process.send_signal(signal.SIGTERM)
        assert station.wait() == 0, station.output()
    finally:
        os.close(master)
        os.close(slave)
    assert "Traceback" not in station.output()


def test_bundle_comes_up_with_the_shoe_unplugged(start: object, tmp_path: Path) -> None:
    """A station starts before its shoe is plugged in: the window comes up (cards by hand)
    and stops cleanly."""
    unplugged = str(tmp_path / "no-shoe-here")
    station = start(*service_args(tmp_path / "station.toml", unplugged),  # type: ignore[operator]
                    supervised=True)
    assert f'"{TITLE}"' in station.wait_for_window()
    station.process.send_signal(signal.SIGTERM)
    assert station.wait() == 0, station.output()
    assert "Traceback" not in station.output()


def test_bundle_refuses_a_bad_site_config_with_exit_2_and_says_why(
        start: object, tmp_path: Path) -> None:
    """Exit 2 is what the unit does not restart (RestartPreventExitStatus=2). The window is
    shown before the config is read (off its thread, with the ledger): the refusal follows
    its line, and nothing more does."""
    site = tmp_path / "station.toml"
    site.write_text('[commission]\nrate = "50%"\n')
    station = start("--config", str(site))  # type: ignore[operator]
    assert station.wait() == 2
    out = station.output()
    assert "station.toml: commission.rate:" in out and "25%" in out
    assert "Traceback" not in out
    said = [ln for ln in out.splitlines() if ln.startswith("paigow-dealer: ")]
    assert "commission.rate" in said[-1] and all(SHOWN in ln for ln in said[:-1])


def test_bundle_help_needs_no_display(bundle: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([str(bundle / "paigow-dealer"), "--help"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--fullscreen" in done.stdout and "--shoe" in done.stdout


# --- what it carries -----------------------------------------------------------------------

def test_bundle_carries_the_files_the_station_reads_at_run_time(bundle: Path) -> None:
    internal = bundle / "_internal"
    assert (internal / "config" / "default.toml").read_text() == DEFAULT_CONFIG.read_text()
    for card in sorted((ROOT / "config" / "house-ways").glob("*.toml")):  # House Way files
        assert (internal / "config" / "house-ways" / card.name).read_text() == card.read_text()
    for folder in sorted((ROOT / "app").rglob("migrations")):  # Alembic reads them by path
        if folder.is_dir() and "__pycache__" not in folder.parts:
            scripts = {str(p.relative_to(ROOT)) for p in folder.rglob("*")
                       if p.is_file() and "__pycache__" not in p.parts}
            carried = {str(p.relative_to(internal)) for p in (internal / folder.relative_to(
                ROOT)).rglob("*") if p.is_file()}
            assert scripts <= carried, scripts - carried
    if (internal / "escpos").exists():  # the slip printer's library reads its printer profiles
        assert (internal / "escpos" / "capabilities.json").exists()


def test_bundle_leaves_out_the_qt_modules_and_packages_the_station_does_not_use(
        bundle: Path) -> None:
    internal = bundle / "_internal"
    names = [str(p.relative_to(internal)) for p in internal.rglob("*")]
    unused = re.compile(r"Qt6?(WebEngine|Qml|Quick|3D|Multimedia|Charts|DataVisualization|"
                        r"Graphs|Pdf|Network|Sql|Test|Designer|Help|WaylandClient|EglFS)"
                        r"|/(hypothesis|numpy|mypy|matplotlib|pytest|_pytest|tkinter)(/|$)")
    assert [n for n in names if unused.search("/" + n)] == []
    qt = internal / "PySide6" / "Qt"
    assert not (qt / "translations").exists()
    plugins = {str(p.relative_to(qt / "plugins")) for p in (qt / "plugins").rglob("*.so")}
    platforms = {p for p in plugins if p.startswith("platforms/")}
    assert platforms == {"platforms/libqxcb.so", "platforms/libqoffscreen.so",
                         "platforms/libqminimal.so"}
    assert not [p for p in plugins if p.startswith(("wayland", "egldevice", "generic/",
                                                    "platformthemes/", "tls/",
                                                    "networkinformation/"))]


def test_every_bundled_library_finds_the_libraries_it_needs(bundle: Path) -> None:
    """No library left out that a kept one needs (what the spec prunes is never needed)."""
    internal = bundle / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=f"{internal}:{internal / 'PySide6' / 'Qt' / 'lib'}")
    missing = {}
    elves = [bundle / "paigow-dealer"] + [p for p in internal.rglob("*.so*")
                                          if p.is_file() and not p.is_symlink()]
    assert len(elves) > 50
    for path in elves:
        done = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env)
        lost = [line.split()[0] for line in done.stdout.splitlines() if "not found" in line]
        if lost:
            missing[str(path.relative_to(bundle))] = lost
    assert missing == {}
    dangling = [str(p) for p in internal.rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []


def test_bundle_stays_under_its_size_budget(bundle: Path) -> None:
    sizes: dict[str, int] = {}
    for p in bundle.rglob("*"):
        if p.is_file() and not p.is_symlink():
            top = p.relative_to(bundle).parts[:2]
            sizes["/".join(top)] = sizes.get("/".join(top), 0) + p.stat().st_size
    total = sum(sizes.values()) / 1e6
    largest = sorted(sizes.items(), key=lambda kv: -kv[1])[:8]
    assert total < BUDGET_MB, f"{total:.1f} MB; largest: " + ", ".join(
        f"{name} {size / 1e6:.1f} MB" for name, size in largest)
