#!/usr/bin/env bash
# Build simgui's one-folder Linux bundle: packaging/dist/simgui/ (run it as
# packaging/dist/simgui/simgui).  Needs Python >= 3.11 with venv and network
# access to PyPI; everything goes into packaging/build/ (venv, PyInstaller's
# work files) and packaging/dist/, nothing outside packaging/.
#
#   packaging/build.sh            # reuses packaging/build/venv if it is there
#   PYTHON=python3.12 packaging/build.sh
#   SIMGUI_FRESH_VENV=1 packaging/build.sh   # start from a new venv
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="$here/build"
dist="$here/dist"
venv="$build/venv"
python="${PYTHON:-python3}"

say() { printf 'build.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

command -v "$python" >/dev/null || die "no '$python' found (set PYTHON=/path/to/python3.11+)"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
    || die "simgui needs Python 3.11 or newer; '$python' is $("$python" -V 2>&1)"
"$python" -c 'import venv, ensurepip' 2>/dev/null \
    || die "Python's venv module is missing: on Debian/Ubuntu run 'sudo apt-get install python3-venv'"

started=$(date +%s)
mkdir -p "$build"
if [ "${SIMGUI_FRESH_VENV:-0}" = 1 ]; then
    rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
    say "creating $venv"
    "$python" -m venv "$venv"
fi
vpy="$venv/bin/python"

# Install simgui's [gui] dependencies from a copy of the project metadata and
# sources, so that pip/setuptools leave no build/ or *.egg-info in the source
# tree.  The bundle itself takes simgui from the source tree (see simgui.spec).
say "installing simgui[gui] and pyinstaller>=6 into $venv"
src="$build/src"
rm -rf "$src"
mkdir -p "$src"
cp "$root/pyproject.toml" "$root/README.md" "$src/"
(cd "$root" && tar --exclude=__pycache__ --exclude='*.nbi' --exclude='*.nbc' -cf - simgui) \
    | tar -xf - -C "$src"
"$vpy" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$vpy" -m pip install --quiet --disable-pip-version-check "$src[gui]" "pyinstaller>=6"
"$vpy" -m pip list --disable-pip-version-check 2>/dev/null \
    | grep -Ei '^(pyside6|shiboken6|pyqtgraph|numpy|numba|llvmlite|xxhash|platformdirs|send2trash|pyinstaller) ' \
    | sed 's/^/    /' >&2 || true

say "running PyInstaller"
rm -rf "$dist/simgui"
"$vpy" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$dist" --workpath "$build/work" "$here/simgui.spec"

[ -x "$dist/simgui/simgui" ] || die "PyInstaller finished but $dist/simgui/simgui is missing"

# Desktop integration travels with the bundle, so that the folder alone can be installed
# (see packaging/README.md): share/applications, share/icons/hicolor, share/metainfo.
res="$root/resources"
share="$dist/simgui/share"
if [ -f "$res/simgui.desktop" ]; then
    install -Dm644 "$res/simgui.desktop" "$share/applications/simgui.desktop"
else
    say "warning: $res/simgui.desktop is missing: the bundle has no desktop entry"
fi
if [ -d "$res/icons/hicolor" ]; then
    mkdir -p "$share/icons"
    cp -R "$res/icons/hicolor" "$share/icons/"
else
    say "warning: $res/icons/hicolor is missing: the bundle has no icons"
fi
for metainfo in "$res"/*.metainfo.xml; do
    [ -f "$metainfo" ] && install -Dm644 "$metainfo" "$share/metainfo/$(basename "$metainfo")"
done
elapsed=$(( $(date +%s) - started ))
size=$(du -sh "$dist/simgui" | cut -f1)
files=$(find "$dist/simgui" -type f | wc -l)
say "built $dist/simgui in ${elapsed}s: $size, $files files"
say "check it with: packaging/check_bundle.sh"
echo "$dist/simgui $size"
