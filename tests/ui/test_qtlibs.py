"""The system libraries Qt's X11 window needs (app/ui/qtlibs.py): found by `ldd` of the
platform plugin, named by their Debian packages, and a station that lacks one says so in
words before Qt can abort with its misleading message.

A missing library is simulated for real: a copy of the installed X11 plugin whose need for
libxcb-keysyms.so.1 is renamed (same length, in its table of names) to libpaigow-gone.so.1,
a library no machine has, so `ldd` reports it "not found" as it reported libxcb-keysyms on a
machine without libxcb-keysyms1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ui import main as station
from app.ui import qtlibs

REAL, GONE = b"libxcb-keysyms.so.1\0", b"libpaigow-gone.so.1\0"


@pytest.fixture
def plugin_missing_a_library(tmp_path: Path) -> Path:
    """The real plugin, needing one library that is nowhere; its Qt libraries beside it."""
    real = qtlibs.xcb_plugin()
    assert real is not None
    data = real.read_bytes()
    assert data.count(REAL) == 1 and len(REAL) == len(GONE)
    plugin = tmp_path / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    plugin.parent.mkdir(parents=True)
    plugin.write_bytes(data.replace(REAL, GONE))
    (tmp_path / "Qt" / "lib").symlink_to(real.parents[2] / "lib")  # its RUNPATH
    return plugin


def test_a_library_the_plugin_cannot_find_is_named_with_its_debian_package(
        plugin_missing_a_library: Path) -> None:
    assert qtlibs.missing_libraries(plugin_missing_a_library) == ["libpaigow-gone.so.1"]
    assert qtlibs.missing_packages(plugin_missing_a_library) == ["libpaigow-gone1"]


def test_the_station_refuses_to_start_and_says_what_to_install_when_a_library_is_missing(
        plugin_missing_a_library: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(qtlibs, "xcb_plugin", lambda: plugin_missing_a_library)
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setenv("DISPLAY", ":0")
    code = station.main(["--demo", "--data-dir", str(tmp_path / "data")])
    said = capsys.readouterr().err
    assert code == 2  # the service does not restart it (RestartPreventExitStatus=2)
    assert "cannot open its window" in said
    assert "sudo apt-get install libpaigow-gone1\n" in said
    assert "ask IT" in said
    assert "Could not load the Qt platform plugin" not in said
    assert not (tmp_path / "data").exists()  # stopped before the ledger was opened


def test_the_check_runs_only_when_the_window_goes_to_an_x_display() -> None:
    assert qtlibs.window_uses_x11({"DISPLAY": ":0"})
    assert qtlibs.window_uses_x11({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"})
    assert not qtlibs.window_uses_x11({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"})
    assert not qtlibs.window_uses_x11({"QT_QPA_PLATFORM": "offscreen:configfile=s.json"})
    assert not qtlibs.window_uses_x11({})


def test_the_libraries_qt_s_x11_plugin_loads_map_to_their_debian_packages() -> None:
    """The packages a fresh Debian 12 machine lacked, and the rest the plugin loads."""
    expected = {
        "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-keysyms.so.1": "libxcb-keysyms1",
        "libxcb-cursor.so.0": "libxcb-cursor0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
        "libxcb-image.so.0": "libxcb-image0", "libxcb-render-util.so.0": "libxcb-render-util0",
        "libxcb-shape.so.0": "libxcb-shape0", "libxcb-randr.so.0": "libxcb-randr0",
        "libxcb-xkb.so.1": "libxcb-xkb1", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
        "libfontconfig.so.1": "libfontconfig1", "libdbus-1.so.3": "libdbus-1-3",
        "libX11-xcb.so.1": "libx11-xcb1", "libX11.so.6": "libx11-6",
        "libglib-2.0.so.0": "libglib2.0-0", "libz.so.1": "zlib1g",
        "libgcc_s.so.1": "libgcc-s1", "libxcb-util.so.1": "libxcb-util1",
    }
    assert {name: qtlibs.package_of(name) for name in expected} == expected


def test_the_installed_pyside6_finds_every_library_its_x11_window_needs() -> None:
    """On a machine `make test` or `make run` has prepared, nothing is missing."""
    plugin = qtlibs.xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    assert qtlibs.missing_packages() == [], qtlibs.install_line(qtlibs.missing_packages())


def test_the_command_names_the_packages_in_one_line_and_fails(
        plugin_missing_a_library: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(qtlibs, "xcb_plugin", lambda: plugin_missing_a_library)
    monkeypatch.setattr(qtlibs, "can_install", lambda: False)
    assert qtlibs.main(["--install"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: the station's window needs these system packages: "
                   "sudo apt-get install libpaigow-gone1"]
    assert qtlibs.main(["--warn"]) == 0
    assert capsys.readouterr().err.startswith("warning: ")


def test_a_station_with_no_screen_says_so_instead_of_qt_s_abort(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert station.main(["--demo"]) == 2
    err = capsys.readouterr().err
    assert "no screen to open it on" in err and "DISPLAY" in err


def test_a_platform_or_a_display_means_there_is_a_screen() -> None:
    assert qtlibs.no_display_message({"DISPLAY": ":0"}) is None
    assert qtlibs.no_display_message({"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert qtlibs.no_display_message({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert qtlibs.no_display_message({}) is not None


@pytest.mark.parametrize("text", ["abc", "1280", "1280x", "x800", "12x8", "1280x800x2",
                                  "-1280x800", "１２８０x800", "99999x800"])
def test_a_window_size_that_is_not_width_x_height_is_refused_with_an_example(
        text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        station.parse_args([f"--size={text}"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "is not a window size" in err and "1280x800" in err and "Traceback" not in err


def test_a_window_size_is_read_as_width_and_height() -> None:
    assert station.parse_args(["--size", "1024X768"]).size == (1024, 768)
