#!/usr/bin/env bash
# Install (or update, or remove) the Pai Gow Poker dealer station on a Linux station. As root.
#
#   sudo installer/install.sh [--bundle DIR] [--shoe-usb-id VVVV:PPPP]   install or update
#   sudo installer/install.sh --uninstall [--purge]                      remove
#
#   --bundle DIR         the one-folder bundle installer/build.sh made (default: dist/paigow-dealer,
#                        or paigow-dealer/ next to this script in a release tarball)
#   --shoe-usb-id V:P    the USB vendor:product id of the shoe's USB-serial adapter, written into
#                        the udev rule (see 99-paigow-shoe.rules for `udevadm info`); an update
#                        without it keeps the ids of the installed rule
#   --prefix DIR         install under DIR as if it were / (a staging root, a test): files only;
#                        the user, udev and systemd steps are listed, not run
#   --dry-run            change nothing; list every step
#   --uninstall          remove the station, its service, udev rule, desktop entry and command;
#                        the site config (/etc/paigow) and the ledger (/var/lib/paigow) are kept
#   --purge              with --uninstall: remove /etc/paigow and the paigow user too (never the
#                        ledger: archive /var/lib/paigow and remove it by hand)
#
# What goes where (see docs/install.md):
#   /opt/paigow-station/                        the bundle (paigow-dealer + _internal/), INSTALL.md
#   /usr/local/bin/paigow-dealer                -> /opt/paigow-station/paigow-dealer
#   /usr/local/share/applications/paigow-dealer.desktop, .../icons/hicolor/scalable/apps/paigow-dealer.svg
#   /etc/udev/rules.d/99-paigow-shoe.rules      the shoe as /dev/paigow-shoe
#   /etc/systemd/system/paigow-dealer.service   full screen on the X display, restarted on failure
#   /etc/paigow/station.toml                    the table's config, from config/default.toml;
#                                               written only if absent, never overwritten
#   /etc/paigow/station.env                     the service's site settings; written only if absent
#   user paigow (groups dialout, lp), home /var/lib/paigow (the ledger)
set -euo pipefail

NAME=paigow-dealer
USER_NAME=paigow
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

prefix=/
dry_run=0
uninstall=0
purge=0
bundle=""
shoe_id=""

usage() { sed -n '2,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "install.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --bundle) [ $# -ge 2 ] || die "--bundle needs a directory"; bundle=$2; shift 2 ;;
    --bundle=*) bundle=${1#*=}; shift ;;
    --shoe-usb-id) [ $# -ge 2 ] || die "--shoe-usb-id needs VVVV:PPPP"; shoe_id=$2; shift 2 ;;
    --shoe-usb-id=*) shoe_id=${1#*=}; shift ;;
    --dry-run|-n) dry_run=1; shift ;;
    --uninstall) uninstall=1; shift ;;
    --purge) purge=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

[ "$purge" = 0 ] || [ "$uninstall" = 1 ] || die "--purge goes with --uninstall"
if [ -n "$shoe_id" ]; then
  [[ "$shoe_id" =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$ ]] ||
    die "--shoe-usb-id: '$shoe_id' is not VVVV:PPPP (4 hex digits each, as lsusb and udevadm info show them)"
  shoe_id=$(printf '%s' "$shoe_id" | tr 'A-F' 'a-f')
fi
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
prefix=${prefix%/}
system=0  # the real system: users, udev and systemd are ours to change
[ -n "$prefix" ] || system=1
if [ "$system" = 1 ] && [ "$dry_run" = 0 ] && [ "$(id -u)" != 0 ]; then
  die "run as root (sudo), or try --dry-run or --prefix DIR first"
fi

OPT=/opt/paigow-station
BIN=/usr/local/bin/$NAME
DESKTOP=/usr/local/share/applications/$NAME.desktop
ICON=/usr/local/share/icons/hicolor/scalable/apps/$NAME.svg
RULE=/etc/udev/rules.d/99-paigow-shoe.rules
UNIT=/etc/systemd/system/$NAME.service
ETC=/etc/paigow
CONFIG=$ETC/station.toml
ENVFILE=$ETC/station.env
HOME_DIR=/var/lib/paigow
STATE_DIR=$HOME_DIR/paigow-station  # the station's data directory (XDG_DATA_HOME in the unit)
IDENTITY=$STATE_DIR/station-id

say() { printf '%s\n' "$*"; }
shown() {  # the command as one would type it
  local arg line=""
  for arg in "$@"; do
    if [[ "$arg" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then line+=" $arg"
    else line+=" '${arg//\'/\'\\\'\'}'"
    fi
  done
  printf '%s' "${line# }"
}
# A change to a file under the prefix: shown, and done unless --dry-run.
run() {
  say "  $(shown "$@")"
  [ "$dry_run" = 1 ] || "$@"
}
# A change to the running system (users, udev, systemd): done only on the real system.
sys() {
  if [ "$dry_run" = 1 ]; then say "  $(shown "$@")"
  elif [ "$system" = 0 ]; then say "  $(shown "$@")    (not run: --prefix)"
  else say "  $(shown "$@")"; "$@"
  fi
}
# Is the station's service running now (real system only)?
active() { [ "$system" = 1 ] && command -v systemctl >/dev/null && systemctl is-active --quiet "$NAME.service"; }

put() {  # put SOURCE DEST MODE: copy a file into place (its directory made)
  run install -D -m "$3" "$1" "$prefix$2"
}

# The Debian package of a shared library: libfoo.so.N is in libfooN, libfoo2.so.N in
# libfoo2-N (lower case, '_' as '-'), but for a few. Keep in step with app/ui/qtlibs.py.
package_of() {
  case "$1" in
    libglib-2.0.so.0|libgthread-2.0.so.0|libgobject-2.0.so.0) echo libglib2.0-0 ;;
    libz.so.1) echo zlib1g ;;
    libGLdispatch.so.0) echo libglvnd0 ;;
    libbrotlicommon.so.1|libbrotlidec.so.1) echo libbrotli1 ;;
    libm.so.6|libdl.so.2|libpthread.so.0) echo libc6 ;;
    *) local name=${1%%.so*} version=""
       [[ "$1" != *.so.* ]] || { version=${1#*.so.}; version=${version%%.*}; }
       name=$(printf '%s' "$name" | tr 'A-Z_' 'a-z-')
       if [ -n "$version" ] && [[ "$name" =~ [0-9]$ ]]; then echo "$name-$version"
       else echo "$name$version"; fi ;;
  esac
}
# The packages of the libraries the bundle's X11 window plugin cannot find on this system.
missing_packages() {
  local internal=$1/_internal
  local plugin=$internal/PySide6/Qt/plugins/platforms/libqxcb.so
  [ -f "$plugin" ] && command -v ldd >/dev/null || return 0
  { LD_LIBRARY_PATH="$internal:$internal/PySide6/Qt/lib" ldd "$plugin" 2>/dev/null || true; } |
    awk '$2 == "=>" && $3 == "not" {print $1}' | sort -u |
    while read -r soname; do package_of "$soname"; done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# --- uninstall --------------------------------------------------------------------------

if [ "$uninstall" = 1 ]; then
  say "Removing the dealer station from ${prefix:-/}"
  if command -v systemctl >/dev/null || [ "$system" = 0 ]; then
    sys systemctl disable --now "$NAME.service"
  fi
  for f in "$UNIT" "$RULE" "$DESKTOP" "$ICON" "$BIN"; do
    if [ -e "$prefix$f" ] || [ -L "$prefix$f" ]; then run rm -f "$prefix$f"; fi
  done
  if [ -e "$prefix$OPT" ]; then run rm -rf "$prefix$OPT"; fi
  if command -v systemctl >/dev/null || [ "$system" = 0 ]; then sys systemctl daemon-reload; fi
  if command -v udevadm >/dev/null || [ "$system" = 0 ]; then sys udevadm control --reload-rules; fi
  if [ "$purge" = 1 ]; then
    if [ -e "$prefix$ETC" ]; then run rm -rf "$prefix$ETC"; fi
    if [ "$system" = 0 ] || getent passwd "$USER_NAME" >/dev/null; then sys userdel "$USER_NAME"; fi
    say "Kept $HOME_DIR (the ledger): archive it, then remove it by hand."
  else
    say "Kept $ETC (the site config) and $HOME_DIR (the ledger); --purge removes the config too."
  fi
  say "Done."
  exit 0
fi

# --- install or update ------------------------------------------------------------------

if [ -z "$bundle" ]; then
  for candidate in "$here/$NAME" "$repo/dist/$NAME"; do
    if [ -x "$candidate/$NAME" ]; then bundle=$candidate; break; fi
  done
  [ -n "$bundle" ] || die "no bundle: build it first with installer/build.sh (it makes" \
                          "dist/$NAME), or name it with --bundle DIR"
fi
bundle=$(cd "$bundle" 2>/dev/null && pwd) || die "--bundle: no such directory"
[ -x "$bundle/$NAME" ] || die "$bundle has no $NAME program: not a bundle from installer/build.sh"
default_config=""
for candidate in "$bundle/_internal/config/default.toml" "$repo/config/default.toml"; do
  if [ -f "$candidate" ]; then default_config=$candidate; break; fi
done
[ -n "$default_config" ] || die "$bundle has no config/default.toml: rebuild it with installer/build.sh"
guide=""
for candidate in "$here/INSTALL.md" "$repo/docs/install.md"; do
  if [ -f "$candidate" ]; then guide=$candidate; break; fi
done
for f in "$NAME.service" 99-paigow-shoe.rules "$NAME.desktop" "$NAME.svg"; do
  [ -f "$here/$f" ] || die "$here/$f is missing: use the installer folder of the same build"
done

updating=0
[ -e "$prefix$OPT/$NAME" ] && updating=1
if [ "$updating" = 1 ]; then what="Updating"; else what="Installing"; fi
say "$what the dealer station in ${prefix:-/} from $bundle"

say "The user that runs the station (serial ports: dialout; the slip printer: lp):"
if [ "$system" = 1 ] && getent passwd "$USER_NAME" >/dev/null; then
  sys usermod --append --groups dialout,lp "$USER_NAME"
else
  sys useradd --system --user-group --groups dialout,lp --home-dir "$HOME_DIR" --create-home \
      --shell /usr/sbin/nologin --comment "Pai Gow Poker dealer station" "$USER_NAME"
fi

say "The system libraries the station's window needs (Qt's X11 plugin, as ldd finds them):"
packages=$(missing_packages "$bundle")
if [ -z "$packages" ]; then
  say "  all there"
elif [ "$system" = 1 ] && [ "$dry_run" = 0 ] && ! command -v apt-get >/dev/null; then
  say "WARNING: the station's window needs these packages (Debian names): $packages"
else
  # shellcheck disable=SC2086  # one word per package
  { sys apt-get update -qq &&
    sys env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages
  } || say "WARNING: apt-get could not install them; the window needs: apt-get install $packages"
fi

say "The bundle, to $OPT (a new copy beside the old one, then swapped in):"
run mkdir -p "$prefix$(dirname "$OPT")"
run rm -rf "$prefix$OPT.new" "$prefix$OPT.old"
run cp -a --no-preserve=ownership "$bundle" "$prefix$OPT.new"
if [ -n "$guide" ]; then run install -m 0644 "$guide" "$prefix$OPT.new/INSTALL.md"; fi
if [ "$updating" = 1 ]; then run mv "$prefix$OPT" "$prefix$OPT.old"; fi
run mv "$prefix$OPT.new" "$prefix$OPT"
if [ "$updating" = 1 ]; then run rm -rf "$prefix$OPT.old"; fi
run mkdir -p "$prefix$(dirname "$BIN")"
run ln -sfn "$OPT/$NAME" "$prefix$BIN"

say "The desktop entry and its icon:"
put "$here/$NAME.desktop" "$DESKTOP" 0644
put "$here/$NAME.svg" "$ICON" 0644

say "The udev rule that names the shoe /dev/paigow-shoe:"
if [ -z "$shoe_id" ] && [ -f "$prefix$RULE" ]; then  # keep the site's ids on an update
  vendor=$(sed -n 's/^[^#]*ATTRS{idVendor}=="\([0-9a-fA-F]\{4\}\)".*/\1/p' "$prefix$RULE" | head -n1)
  product=$(sed -n 's/^[^#]*ATTRS{idProduct}=="\([0-9a-fA-F]\{4\}\)".*/\1/p' "$prefix$RULE" | head -n1)
  if [ -n "$vendor" ] && [ -n "$product" ]; then shoe_id="$vendor:$product"; fi
fi
rule_source="$here/99-paigow-shoe.rules"
if [ -n "$shoe_id" ]; then
  say "  (shoe adapter $shoe_id)"
  rule_source=$(mktemp)
  trap 'rm -f "$rule_source"' EXIT
  sed -e "/^[^#]/s/ATTRS{idVendor}==\"[0-9a-fA-F]*\"/ATTRS{idVendor}==\"${shoe_id%:*}\"/" \
      -e "/^[^#]/s/ATTRS{idProduct}==\"[0-9a-fA-F]*\"/ATTRS{idProduct}==\"${shoe_id#*:}\"/" \
      "$here/99-paigow-shoe.rules" > "$rule_source"
fi
put "$rule_source" "$RULE" 0644
if command -v udevadm >/dev/null || [ "$system" = 0 ]; then
  sys udevadm control --reload-rules
  sys udevadm trigger --subsystem-match=tty --action=add
fi

say "The site config (kept if present: it is the site's):"
if [ -e "$prefix$CONFIG" ]; then
  say "  kept $CONFIG"
else
  put "$default_config" "$CONFIG" 0640
  sys chgrp "$USER_NAME" "$prefix$CONFIG"
fi
if [ -e "$prefix$ENVFILE" ]; then
  say "  kept $ENVFILE"
else
  say "  write $ENVFILE"
  if [ "$dry_run" = 0 ]; then
    mkdir -p "$prefix$ETC"
    cat > "$prefix$ENVFILE" <<'EOT'
# The dealer station service's site settings (paigow-dealer.service reads this file; an
# update of the station keeps it). After a change: systemctl restart paigow-dealer
#
# The X display the station's screen is on. The paigow user must be allowed on it: in the
# station's X session run `xhost +SI:localuser:paigow` (e.g. from the display manager's
# setup script), or point XAUTHORITY at a key file the paigow user may read.
DISPLAY=:0
#XAUTHORITY=/var/lib/paigow/.Xauthority
#
# The station's arguments (see /opt/paigow-station/paigow-dealer --help); --fullscreen and
# --config /etc/paigow/station.toml are always given. /dev/paigow-shoe is the udev rule's name.
PAIGOW_DEALER_ARGS=--shoe /dev/paigow-shoe
EOT
    chmod 0600 "$prefix$ENVFILE"  # the service's secrets go here: root (systemd) reads it
  fi
fi

say "The station's identity (made once and kept; its name is only a label):"
# A UUID of this station's own, beside its ledger: two PCs sharing a host name stay two
# stations, and a PC cloned from this one is refused at start while this one runs. A station
# that ran before identities were made keeps the id its journal has (no file is written).
if [ -e "$prefix$IDENTITY" ]; then
  say "  kept $IDENTITY"
elif [ -d "$prefix$STATE_DIR/journal" ]; then
  say "  kept the identity of the station's journal in $STATE_DIR/journal"
else
  say "  write $IDENTITY"
  if [ "$dry_run" = 0 ]; then
    mkdir -p "$prefix$STATE_DIR"
    identity=$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)
    (umask 077 && printf '%s\n' "$identity" > "$prefix$IDENTITY")
  fi
  sys chown -R "$USER_NAME:$USER_NAME" "$prefix$HOME_DIR"
fi

say "The service that starts the station full screen and restarts it:"
put "$here/$NAME.service" "$UNIT" 0644
if command -v systemctl >/dev/null || [ "$system" = 0 ]; then
  sys systemctl daemon-reload
  sys systemctl enable "$NAME.service"
  if active; then
    sys systemctl restart "$NAME.service"
  elif [ "$updating" = 0 ]; then
    say "  start it with: systemctl start $NAME   (once the paigow user may use the X display)"
  fi
fi
if [ "$system" = 1 ] && [ "$dry_run" = 0 ]; then
  if command -v fc-list >/dev/null && [ -z "$(fc-list 'DejaVu Sans' 2>/dev/null)" ]; then
    say "WARNING: no DejaVu Sans font: the window falls back to another - apt-get install fonts-dejavu-core"
  fi
fi
say "Done. Site config: $CONFIG; service settings: $ENVFILE; logs: journalctl -u $NAME"
