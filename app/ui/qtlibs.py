"""The system libraries Qt's X11 window needs, checked before Qt loads (no Qt import here).

Qt's X11 platform plugin (libqxcb.so) loads a dozen xcb helper libraries that the PySide6
wheel does not carry. When one is missing, Qt aborts with "Could not load the Qt platform
plugin xcb" and may name a library that is there. `ldd` of the plugin names the ones that
are not, and Debian's package names follow from them.

    python -m app.ui.qtlibs            nothing when all are there; else one line naming the
                                       packages to install, exit 1
    python -m app.ui.qtlibs --install  as root with apt-get: install them; else the line
    python -m app.ui.qtlibs --warn     the line as a warning, exit 0 (tests run offscreen)

installer/install.sh does the same for a bundle (no Python there): keep its rule in step.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

PLUGIN = Path("Qt", "plugins", "platforms", "libqxcb.so")

# Libraries whose Debian package is not named by Debian's rule (package_of).
EXCEPTIONS = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libz.so.1": "zlib1g",
    "libGLdispatch.so.0": "libglvnd0",
    "libbrotlicommon.so.1": "libbrotli1",
    "libbrotlidec.so.1": "libbrotli1",
    "libm.so.6": "libc6",
    "libdl.so.2": "libc6",
    "libpthread.so.0": "libc6",
}


def package_of(soname: str) -> str:
    """The Debian package of a shared library: libfoo.so.N is in libfooN, and libfoo2.so.N
    (a name ending in a digit) in libfoo2-N; lower case, '_' as '-'."""
    if soname in EXCEPTIONS:
        return EXCEPTIONS[soname]
    name, _, version = soname.partition(".so")
    version = version.lstrip(".").split(".")[0]
    name = name.lower().replace("_", "-")
    if version and name[-1:].isdigit():
        return f"{name}-{version}"
    return name + version


def xcb_plugin() -> Path | None:
    """The X11 platform plugin of the PySide6 this program runs with (a bundle's too)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(next(iter(spec.submodule_search_locations))) / PLUGIN
    return plugin if plugin.exists() else None


def missing_libraries(plugin: Path | None = None) -> list[str]:
    """The libraries the plugin (default: xcb_plugin()) needs that this system lacks, as
    `ldd` names them; [] when all are there or it cannot tell (no plugin, no ldd)."""
    plugin = plugin or xcb_plugin()
    if plugin is None:
        return []
    # The Qt libraries beside the plugin (and a bundle's own) are found as Qt finds them.
    qt_lib = plugin.parents[2] / "lib"
    paths = [str(qt_lib), getattr(sys, "_MEIPASS", ""), os.environ.get("LD_LIBRARY_PATH", "")]
    env = dict(os.environ, LD_LIBRARY_PATH=":".join(p for p in paths if p))
    try:
        done = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, env=env,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = re.findall(r"^\s*(\S+)\s+=>\s+not found", done.stdout, re.M)
    return list(dict.fromkeys(found))


def missing_packages(plugin: Path | None = None) -> list[str]:
    """The Debian packages that hold the missing libraries, sorted."""
    return sorted({package_of(name) for name in missing_libraries(plugin)})


def install_line(packages: Sequence[str]) -> str:
    return "sudo apt-get install " + " ".join(packages)


def window_uses_x11(env: Mapping[str, str] = os.environ) -> bool:
    """Will Qt open the window on X11 (no other platform asked for, and a display)?"""
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip()
    return platform in ("", "xcb") and bool(env.get("DISPLAY"))


def no_display_message(env: Mapping[str, str] = os.environ) -> str | None:
    """Why no window can open here (no screen to open it on), or None. Qt's own message for
    this blames a missing library; the dealer needs to hear that there is no screen."""
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip()
    if platform or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("The station cannot open its window: there is no screen to open it on (no "
            "DISPLAY or WAYLAND_DISPLAY is set).\n"
            "Start it from the station's desktop session (or its kiosk service), or ask IT "
            "to check that the screen and its display server are running.")


def dealer_message(packages: Sequence[str]) -> str:
    """Why the station cannot open its window, for the dealer and whoever fixes it."""
    return (f"The station cannot open its window: this computer is missing system software "
            f"the screen needs ({', '.join(packages)}).\n"
            f"To fix it, someone with administrator rights runs:\n"
            f"    {install_line(packages)}\n"
            f"and then starts the station again. If you are not sure how, ask IT.")


def can_install() -> bool:
    return os.geteuid() == 0 and shutil.which("apt-get") is not None


def apt_install(packages: Sequence[str]) -> bool:
    """apt-get update once, then install the packages; True when it worked."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages]):
        if subprocess.run(cmd, env=env).returncode != 0:
            return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m app.ui.qtlibs", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--install", action="store_true",
                    help="install what is missing with apt-get (as root)")
    ap.add_argument("--warn", action="store_true",
                    help="say what is missing as a warning and exit 0")
    args = ap.parse_args(argv)
    packages = missing_packages()
    if packages and args.install and can_install():
        print(f"Installing what Qt's window needs: {' '.join(packages)}", flush=True)
        if apt_install(packages):
            packages = missing_packages()
    if not packages:
        return 0
    what = "warning" if args.warn else "error"
    print(f"{what}: the station's window needs these system packages: "
          f"{install_line(packages)}", file=sys.stderr)
    return 0 if args.warn else 1


if __name__ == "__main__":
    sys.exit(main())
