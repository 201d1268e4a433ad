#!/usr/bin/env bash
# Build the dealer station's one-folder bundle with PyInstaller (installer/paigow-dealer.spec).
#
#   installer/build.sh                  -> dist/paigow-dealer/ (run dist/paigow-dealer/paigow-dealer)
#   installer/build.sh --tarball        -> also dist/paigow-station-<version>-linux-<arch>.tar.gz,
#                                          the bundle with install.sh and its files, for a station
#   installer/build.sh --dist DIR --work DIR   build elsewhere (the tests build in a temp dir)
#   installer/build.sh --locked         build from installer/station.lock: a venv of its own in
#                                       the work folder with exactly the locked versions, each
#                                       checked by its hash (a release build; `make lock` renews it)
#
# Uses the project's .venv (make test or make run creates it; `pip install -e '.[station,installer]'`
# otherwise), or the Python named by $PYTHON. Build on the same Linux release as the stations:
# the bundle carries the build machine's copies of the X11/xcb and fontconfig libraries.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
dist="$root/dist"
work="$root/build/pyinstaller"
tarball=0
locked=0

usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dist) dist=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --tarball) tarball=1; shift ;;
    --locked) locked=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

python=${PYTHON:-$root/.venv/bin/python}
if [ "$locked" = 1 ]; then
  venv="$work/venv"
  rm -rf "$venv"
  python3.11 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --require-hashes -r "$here/station.lock"
  "$venv/bin/python" -m pip install --quiet --no-deps "$root"
  python="$venv/bin/python"
fi
if ! "$python" -c 'import PyInstaller, PySide6' 2>/dev/null; then
  echo "build.sh: $python has no PyInstaller or PySide6: run 'make test' (or" \
       "pip install -e '.[station,installer]') first, or set PYTHON" >&2
  exit 1
fi

start=$(date +%s.%N)
(cd "$root" && "$python" -m PyInstaller --noconfirm --log-level WARN \
   --distpath "$dist" --workpath "$work" "$here/paigow-dealer.spec")
end=$(date +%s.%N)

bundle="$dist/paigow-dealer"
[ -x "$bundle/paigow-dealer" ] || { echo "build.sh: no $bundle/paigow-dealer after the build" >&2; exit 1; }
size=$(du -sb "$bundle" | cut -f1)
awk -v b="$bundle" -v n="$(find "$bundle" -type f | wc -l)" -v size="$size" -v s="$start" -v e="$end" \
  'BEGIN { printf "build.sh: %s: %d files, %.1f MB, built in %.1f s\n", b, n, size / 1e6, e - s }'

if [ "$tarball" = 1 ]; then
  version=$("$python" -c 'import tomllib,sys; print(tomllib.load(open(sys.argv[1],"rb"))["project"]["version"])' \
            "$root/pyproject.toml")
  name="paigow-station-$version-linux-$(uname -m)"
  stage="$work/$name"
  rm -rf "$stage"
  mkdir -p "$stage"
  cp -a "$bundle" "$stage/paigow-dealer"
  cp "$here/install.sh" "$here/paigow-dealer.service" "$here/99-paigow-shoe.rules" \
     "$here/paigow-dealer.desktop" "$here/paigow-dealer.svg" "$stage/"
  cp "$root/docs/install.md" "$stage/INSTALL.md"
  tar -C "$work" -czf "$dist/$name.tar.gz" "$name"
  echo "build.sh: $dist/$name.tar.gz (on the station: tar xzf it, then sudo ./$name/install.sh)"
fi
