"""installer/install.sh: every file lands where the station expects it, the systemd unit, udev
rule and desktop entry are valid and say what the station needs, the site's config is never
overwritten, an update swaps the bundle whole, and removal keeps the config and the ledger.

Every install here goes into a temporary root (`--prefix`) from a stand-in bundle (a program
and the shipped config: what install.sh reads of a bundle); nothing on this machine changes.
The real bundle is built and started in test_bundle.py.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLER = ROOT / "installer"
SCRIPT = INSTALLER / "install.sh"
DEFAULT_CONFIG = ROOT / "config" / "default.toml"

OPT = "opt/paigow-station"
PROGRAM = "/opt/paigow-station/paigow-dealer"
UNIT = "etc/systemd/system/paigow-dealer.service"
RULE = "etc/udev/rules.d/99-paigow-shoe.rules"
DESKTOP = "usr/local/share/applications/paigow-dealer.desktop"
ICON = "usr/local/share/icons/hicolor/scalable/apps/paigow-dealer.svg"
LINK = "usr/local/bin/paigow-dealer"
CONFIG = "etc/paigow/station.toml"
ENVFILE = "etc/paigow/station.env"
IDENTITY = "var/lib/paigow/paigow-station/station-id"

# Every file a station install leaves, with its mode.
EXPECTED = {
    f"{OPT}/paigow-dealer": 0o755,
    f"{OPT}/_internal/config/default.toml": 0o644,
    f"{OPT}/INSTALL.md": 0o644,
    DESKTOP: 0o644,
    ICON: 0o644,
    RULE: 0o644,
    UNIT: 0o644,
    CONFIG: 0o640,
    ENVFILE: 0o600,  # the service's secrets: root (systemd) reads it, nobody else
    IDENTITY: 0o600,  # the station's own UUID, beside its ledger
}


def make_bundle(where: Path, marker: str = "first build") -> Path:
    bundle = where / "paigow-dealer"
    (bundle / "_internal" / "config").mkdir(parents=True)
    program = bundle / "paigow-dealer"
    program.write_text(f"#!/bin/sh\necho '{marker}'\n")
    program.chmod(0o755)
    shutil.copy(DEFAULT_CONFIG, bundle / "_internal" / "config" / "default.toml")
    (bundle / "_internal" / marker.replace(" ", "-")).write_text(marker)
    return bundle


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return make_bundle(tmp_path / "build")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "root"


def install(root: Path, *args: str, bundle: Path | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
    cmd = ["bash", str(SCRIPT), "--prefix", str(root)]
    if bundle is not None:
        cmd += ["--bundle", str(bundle)]
    done = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=60)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir()}


def unit_file(text: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None,
                                     comment_prefixes=("#", ";"))
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(text)
    return unit


# --- where everything goes -------------------------------------------------------------------

def test_install_puts_every_file_where_the_station_expects_it(root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    installed = files_under(root)
    for path, mode in EXPECTED.items():
        assert path in installed, f"{path} not installed; installed: {sorted(installed)}"
        assert stat.S_IMODE((root / path).stat().st_mode) == mode, path
    link = root / LINK
    assert link.is_symlink() and os.readlink(link) == PROGRAM
    # Nothing outside the station's own places.
    places = (f"{OPT}/", "etc/paigow/", UNIT, RULE, DESKTOP, ICON, LINK, IDENTITY)
    assert {p for p in installed if not p.startswith(places)} == set()


def test_installed_bundle_is_the_built_one_whole(root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    built = {str(p.relative_to(bundle)) for p in bundle.rglob("*") if p.is_file()}
    there = {str(p.relative_to(root / OPT)) for p in (root / OPT).rglob("*") if p.is_file()}
    assert there == built | {"INSTALL.md"}
    ran = subprocess.run([str(root / OPT / "paigow-dealer")], capture_output=True, text=True)
    assert ran.stdout.strip() == "first build"
    assert (root / OPT / "INSTALL.md").read_text() == (ROOT / "docs" / "install.md").read_text()


def test_site_config_is_the_shipped_default_readable_by_the_station_only(
        root: Path, bundle: Path) -> None:
    out = install(root, bundle=bundle).stdout
    assert (root / CONFIG).read_text() == DEFAULT_CONFIG.read_text()
    assert stat.S_IMODE((root / CONFIG).stat().st_mode) & 0o007 == 0  # a supervisor PIN lives here
    assert f"chgrp paigow {root}/{CONFIG}" in out
    env = (root / ENVFILE).read_text()
    assert re.search(r"^DISPLAY=:0$", env, re.M)
    assert re.search(r"^PAIGOW_DEALER_ARGS=--shoe /dev/paigow-shoe$", env, re.M)


def test_second_install_never_overwrites_the_site_config(root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    site = '[table]\nname = "PG-7"\n'
    env = "DISPLAY=:1\nPAIGOW_DEALER_ARGS=--shoe /dev/ttyACM0\n"
    (root / CONFIG).write_text(site)
    (root / ENVFILE).write_text(env)
    out = install(root, bundle=bundle).stdout
    assert (root / CONFIG).read_text() == site
    assert (root / ENVFILE).read_text() == env
    assert "kept /etc/paigow/station.toml" in out and "kept /etc/paigow/station.env" in out


def test_update_swaps_the_bundle_whole_and_leaves_nothing_behind(
        root: Path, bundle: Path, tmp_path: Path) -> None:
    install(root, bundle=bundle)
    newer = make_bundle(tmp_path / "newer", marker="second build")
    out = install(root, bundle=newer).stdout
    assert out.startswith("Updating")
    assert not (root / OPT / "_internal" / "first-build").exists()
    assert (root / OPT / "_internal" / "second-build").exists()
    ran = subprocess.run([str(root / OPT / "paigow-dealer")], capture_output=True, text=True)
    assert ran.stdout.strip() == "second build"
    assert sorted(p.name for p in (root / "opt").iterdir()) == ["paigow-station"]


# --- the systemd unit --------------------------------------------------------------------------

def test_unit_is_valid_for_systemd(root: Path, bundle: Path, tmp_path: Path) -> None:
    install(root, bundle=bundle)
    text = (root / UNIT).read_text()
    unit = unit_file(text)
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    analyze = shutil.which("systemd-analyze")
    if analyze:
        # The same unit, its program where the temporary root holds it.
        copy = tmp_path / "verify" / "paigow-dealer.service"
        copy.parent.mkdir()
        copy.write_text(text.replace(PROGRAM, str(root / OPT / "paigow-dealer")))
        done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    # Without systemd-analyze (and with it): each key is one systemd knows in its section.
    known = {
        "Unit": {"Description", "Documentation", "After", "StartLimitIntervalSec"},
        "Service": {"Type", "User", "Group", "SupplementaryGroups", "Environment",
                    "EnvironmentFile", "WorkingDirectory", "StateDirectory",
                    "StateDirectoryMode", "ExecStart", "KillSignal", "TimeoutStopSec",
                    "Restart", "RestartSec", "RestartPreventExitStatus", "NoNewPrivileges",
                    "ProtectSystem", "ProtectHome", "PrivateTmp"},
        "Install": {"WantedBy"},
    }
    for section, keys in known.items():
        assert set(unit[section]) <= keys, set(unit[section]) - keys


def test_unit_starts_the_station_full_screen_on_x_and_restarts_it_on_failure(
        root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    text = (root / UNIT).read_text()
    service = unit_file(text)["Service"]
    command = shlex.split(service["ExecStart"])
    assert command[0] == PROGRAM
    assert "--fullscreen" in command
    assert command[command.index("--config") + 1] == "/etc/paigow/station.toml"
    assert "$PAIGOW_DEALER_ARGS" in command  # the site's arguments, from station.env
    environment = re.findall(r"^Environment=(.*)$", text, re.M)
    assert "DISPLAY=:0" in environment and "QT_QPA_PLATFORM=xcb" in environment
    assert service["EnvironmentFile"] == "-/etc/paigow/station.env"
    assert service["Restart"] == "always"  # a clean exit must not leave the table without it
    assert int(service["RestartSec"]) > 0
    assert service["RestartPreventExitStatus"] == "2"  # a bad config: fix it, do not loop
    assert unit_file(text)["Unit"]["StartLimitIntervalSec"] == "0"  # never gives up
    assert unit_file(text)["Install"]["WantedBy"] == "graphical.target"


def test_unit_runs_as_the_station_user_who_may_open_the_serial_ports(
        root: Path, bundle: Path) -> None:
    out = install(root, bundle=bundle).stdout
    service = unit_file((root / UNIT).read_text())["Service"]
    assert service["User"] == "paigow"
    assert "dialout" in service["SupplementaryGroups"].split()
    useradd = next(line for line in out.splitlines() if "useradd" in line)
    assert "--system" in useradd and "--groups dialout,lp" in useradd
    assert useradd.split("    (")[0].endswith(" paigow")
    assert "--home-dir /var/lib/paigow" in useradd


# --- the udev rule -----------------------------------------------------------------------------

UDEV_KEY = re.compile(r'^(?P<key>[A-Z]+(?:\{[A-Za-z0-9_]+\})?)\s*(?P<op>==|!=|\+=|-=|:=|=)\s*'
                      r'"(?P<value>[^"]*)"$')


def parse_rule(line: str) -> dict[str, tuple[str, str]]:
    """One udev rule line -> {key: (operator, value)}; fails on anything udev would refuse."""
    pairs = {}
    for part in line.split(","):
        m = UDEV_KEY.match(part.strip())
        assert m, f"not a udev key: {part.strip()!r} in {line!r}"
        pairs[m["key"]] = (m["op"], m["value"])
    return pairs


def assert_names_the_shoe(rule: dict[str, tuple[str, str]], vendor: str | None = None,
                          product: str | None = None) -> None:
    assert rule["SUBSYSTEM"] == ("==", "tty")
    op, vid = rule["ATTRS{idVendor}"]
    assert op == "==" and re.fullmatch(r"[0-9a-f]{4}", vid)
    op, pid = rule["ATTRS{idProduct}"]
    assert op == "==" and re.fullmatch(r"[0-9a-f]{4}", pid)
    if vendor:
        assert (vid, pid) == (vendor, product)
    assert rule["SYMLINK"] == ("+=", "paigow-shoe")
    assert rule["OWNER"] == ("=", "paigow")  # the station's user, not everyone in dialout
    assert rule["GROUP"] == ("=", "paigow")
    assert rule["MODE"] == ("=", "0600")


def test_udev_rule_names_the_shoe_by_its_usb_ids(root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    lines = (root / RULE).read_text().splitlines()
    active = [line for line in lines if line.strip() and not line.startswith("#")]
    assert len(active) == 1
    assert_names_the_shoe(parse_rule(active[0]))
    comments = "\n".join(line for line in lines if line.startswith("#"))
    assert "udevadm info" in comments and "idVendor" in comments  # how to find the ids
    example = [line.lstrip("# ") for line in lines if re.match(r"#\s+SUBSYSTEM==", line)]
    assert example, "a commented example rule"
    assert_names_the_shoe(parse_rule(example[0]))


def test_shoe_usb_id_is_written_into_the_rule_and_kept_by_an_update(
        root: Path, bundle: Path) -> None:
    install(root, "--shoe-usb-id", "1A86:7523", bundle=bundle)

    def active_rule() -> dict[str, tuple[str, str]]:
        text = (root / RULE).read_text()
        return parse_rule(next(line for line in text.splitlines()
                               if line.strip() and not line.startswith("#")))

    assert_names_the_shoe(active_rule(), "1a86", "7523")
    install(root, bundle=bundle)
    assert_names_the_shoe(active_rule(), "1a86", "7523")
    install(root, "--shoe-usb-id", "10c4:ea60", bundle=bundle)
    assert_names_the_shoe(active_rule(), "10c4", "ea60")


def test_a_shoe_usb_id_that_is_not_vendor_colon_product_is_refused(
        root: Path, bundle: Path) -> None:
    done = install(root, "--shoe-usb-id", "0403-6001", bundle=bundle, check=False)
    assert done.returncode != 0
    assert "'0403-6001' is not VVVV:PPPP" in done.stderr
    assert not root.exists()


# --- the desktop entry -------------------------------------------------------------------------

def test_desktop_entry_is_valid_and_starts_the_installed_station(
        root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    path = root / DESKTOP
    entry = unit_file(path.read_text())
    main = entry["Desktop Entry"]
    assert main["Type"] == "Application" and main["Name"] and main["Terminal"] == "false"
    for key in ("Exec", "TryExec"):
        assert shlex.split(main[key])[0] == PROGRAM
    assert "--fullscreen" in shlex.split(main["Exec"])
    assert (root / ICON).exists() and main["Icon"] == Path(ICON).stem
    assert main["Categories"].endswith(";") and main["Actions"].endswith(";")
    for action in main["Actions"].rstrip(";").split(";"):
        section = entry[f"Desktop Action {action}"]
        assert section["Name"] and shlex.split(section["Exec"])[0] == PROGRAM
    validate = shutil.which("desktop-file-validate")
    if validate:
        done = subprocess.run([validate, str(path)], capture_output=True, text=True)
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout


# --- dry run, refusals -------------------------------------------------------------------------

def test_dry_run_changes_nothing_and_lists_every_step(root: Path, bundle: Path) -> None:
    out = install(root, "--dry-run", bundle=bundle).stdout
    assert not root.exists()
    for path in EXPECTED:
        if path.startswith(f"{OPT}/"):
            continue  # the bundle is one copy
        assert path.rsplit("/", 1)[-1] in out, f"{path} not in the plan:\n{out}"
    for step in (f"cp -a --no-preserve=ownership {bundle}", f"ln -sfn {PROGRAM}", "useradd",
                 "udevadm control --reload-rules", "systemctl daemon-reload",
                 "systemctl enable paigow-dealer.service"):
        assert step in out, f"{step!r} not in the plan:\n{out}"


def test_real_install_needs_root(bundle: Path) -> None:
    cmd = ["bash", str(SCRIPT), "--bundle", str(bundle)]
    if os.geteuid() == 0:  # as an ordinary user, whoever runs the tests
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "run as root" in done.stderr
    assert done.stdout == ""


def test_install_without_a_bundle_says_to_build_it_first(root: Path, tmp_path: Path) -> None:
    empty = tmp_path / "not-a-bundle"
    empty.mkdir()
    done = install(root, bundle=empty, check=False)
    assert done.returncode == 1
    assert "not a bundle from installer/build.sh" in done.stderr
    assert not root.exists()


# --- removal -----------------------------------------------------------------------------------

def test_install_gives_the_station_an_identity_once_and_keeps_it(
        root: Path, bundle: Path) -> None:
    import uuid
    install(root, bundle=bundle)
    made = uuid.UUID((root / IDENTITY).read_text().strip())
    install(root, bundle=make_bundle(root.parent / "second", "second build"))
    assert uuid.UUID((root / IDENTITY).read_text().strip()) == made  # an update keeps it
    other = root.parent / "other-root"
    install(other, bundle=bundle)
    assert uuid.UUID((other / IDENTITY).read_text().strip()) != made  # another PC: its own


def test_a_station_that_ran_before_identities_keeps_its_journal_s_id(
        root: Path, bundle: Path) -> None:
    (root / "var/lib/paigow/paigow-station/journal").mkdir(parents=True)
    out = install(root, bundle=bundle).stdout
    assert not (root / IDENTITY).exists()
    assert "kept the identity of the station's journal" in out


def test_uninstall_removes_the_station_but_keeps_the_config_and_the_ledger(
        root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    ledger = root / "var/lib/paigow/paigow-station/ledger.sqlite"
    ledger.parent.mkdir(parents=True, exist_ok=True)
    ledger.write_bytes(b"rounds")
    out = install(root, "--uninstall").stdout
    assert files_under(root) == {CONFIG, ENVFILE, IDENTITY, str(ledger.relative_to(root))}
    assert not (root / OPT).exists()
    assert "systemctl disable --now paigow-dealer.service" in out
    assert "Kept /etc/paigow" in out


def test_purge_removes_the_site_config_and_user_but_never_the_ledger(
        root: Path, bundle: Path) -> None:
    install(root, bundle=bundle)
    ledger = root / "var/lib/paigow/paigow-station/ledger.sqlite"
    ledger.parent.mkdir(parents=True, exist_ok=True)
    ledger.write_bytes(b"rounds")
    out = install(root, "--uninstall", "--purge").stdout
    assert files_under(root) == {IDENTITY, str(ledger.relative_to(root))}
    assert "userdel paigow" in out
    assert "Kept /var/lib/paigow (the ledger)" in out


# --- the system libraries the window needs -------------------------------------------------

def bundle_lacking_a_library(where: Path) -> Path:
    """A stand-in bundle carrying the real X11 plugin, renamed (as tests/ui/test_qtlibs.py
    does) to need libpaigow-gone.so.1, a library no system has."""
    from app.ui.qtlibs import xcb_plugin

    bundle = make_bundle(where)
    real = xcb_plugin()
    assert real is not None
    qt = bundle / "_internal" / "PySide6" / "Qt"
    (qt / "plugins" / "platforms").mkdir(parents=True)
    data = real.read_bytes().replace(b"libxcb-keysyms.so.1\0", b"libpaigow-gone.so.1\0")
    (qt / "plugins" / "platforms" / "libqxcb.so").write_bytes(data)
    (qt / "lib").symlink_to(real.parents[2] / "lib")
    return bundle


def test_install_lists_the_packages_of_the_libraries_the_window_lacks(
        root: Path, tmp_path: Path) -> None:
    bundle = bundle_lacking_a_library(tmp_path / "build")
    for args in ((), ("--dry-run",)):
        out = install(root, *args, bundle=bundle).stdout
        assert ("apt-get install -y -qq --no-install-recommends libpaigow-gone1"
                in out), out
        assert "apt-get update -qq" in out


def test_install_finds_nothing_missing_when_the_system_has_every_library(
        root: Path, tmp_path: Path) -> None:
    bundle = bundle_lacking_a_library(tmp_path / "build")
    plugin = bundle / "_internal" / "PySide6" / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    plugin.write_bytes(plugin.read_bytes().replace(b"libpaigow-gone.so.1\0",
                                                   b"libxcb-keysyms.so.1\0"))
    out = install(root, bundle=bundle).stdout
    assert "window needs (Qt's X11 plugin, as ldd finds them):\n  all there\n" in out
    assert "apt-get" not in out
