#!/usr/bin/env bash
# Check a built bundle (default packaging/dist/simgui) without any Python: every
# command runs under `env -i` with PATH=/usr/bin:/bin (no venv, no pyenv shims),
# no PYTHONPATH/PYTHONHOME/VIRTUAL_ENV, HOME and the XDG directories in a fresh
# temporary folder (so numba's cache starts empty), SIMGUI_DB and SIMGUI_CONFIG
# there too, and QT_QPA_PLATFORM=offscreen.
#
#   packaging/check_bundle.sh [BUNDLE_DIR]
#   SIMGUI_CHECK_SECONDS=20 packaging/check_bundle.sh   # keep the window up at least 20 s
#
# Exit code 0 when every check passes; otherwise a line starting with
# "check_bundle.sh: FAILED:" says which, followed by the command's output.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bundle="$(cd "${1:-$here/dist/simgui}" 2>/dev/null && pwd)" \
    || { echo "check_bundle.sh: FAILED: no bundle at ${1:-$here/dist/simgui}; build it with packaging/build.sh" >&2; exit 1; }
exe="$bundle/simgui"
seconds="${SIMGUI_CHECK_SECONDS:-5}"  # the window runs at least this long, then until idle
timeout_cmd="${SIMGUI_CHECK_TIMEOUT:-600}"  # per command; the first one compiles the kernels

work="$(mktemp -d "${TMPDIR:-/tmp}/simgui-check.XXXXXX")"
gui_pid=""
cleanup() {
    if [ -n "$gui_pid" ] && kill -0 "$gui_pid" 2>/dev/null; then
        kill -KILL "$gui_pid" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT

say() { printf 'check_bundle.sh: %s\n' "$*"; }
fail() {
    printf 'check_bundle.sh: FAILED: %s\n' "$1" >&2
    shift
    for file in "$@"; do
        [ -s "$file" ] && { printf -- '--- %s\n' "$(basename "$file")" >&2; tail -n 40 "$file" >&2; }
    done
    exit 1
}

# seconds since a `date +%s%N` reading, with one decimal
seconds_since() {
    local tenths=$(( ($(date +%s%N) - $1) / 100000000 ))
    printf '%d.%d' $((tenths / 10)) $((tenths % 10))
}

[ -x "$exe" ] || fail "$exe is missing or not executable; build it with packaging/build.sh"

mkdir -p "$work/home" "$work/cache" "$work/config" "$work/data" "$work/runtime" "$work/tmp"
chmod 700 "$work/runtime"
# The clean environment every command of the bundle runs in: nothing from a venv or pyenv.
clean_env=(
    env -i
    HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 TMPDIR="$work/tmp"
    XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config"
    XDG_DATA_HOME="$work/home/.local/share" XDG_RUNTIME_DIR="$work/runtime"
    QT_QPA_PLATFORM=offscreen
    SIMGUI_DB="$work/simgui.sqlite3" SIMGUI_CONFIG="$work/settings.json"
)
run() { "${clean_env[@]}" "$@"; }
# what a Python on this machine could have leaked in, had the environment not been cleared
for name in PYTHONPATH PYTHONHOME VIRTUAL_ENV CONDA_PREFIX; do
    [ -n "${!name:-}" ] && say "(ignoring $name=${!name} of the calling environment)"
done
run /usr/bin/env | grep -Eq '^(PYTHON|VIRTUAL_ENV|CONDA)' && fail "the clean environment still holds Python variables"
case ":$(run /usr/bin/env | sed -n 's/^PATH=//p'):" in
    *venv*|*pyenv*|*conda*) fail "PATH of the clean environment contains a Python environment" ;;
esac

say "bundle $bundle ($(du -sh "$bundle" | cut -f1), $(find "$bundle" -type f | wc -l) files)"

# 1. --version and --help
run timeout "$timeout_cmd" "$exe" --version >"$work/version.out" 2>"$work/version.err" \
    || fail "'simgui --version' exited with status $?" "$work/version.out" "$work/version.err"
grep -Eq '^simgui [0-9]+\.[0-9]+' "$work/version.out" \
    || fail "'simgui --version' did not print 'simgui X.Y...'" "$work/version.out" "$work/version.err"
say "ok: --version: $(cat "$work/version.out")"

run timeout "$timeout_cmd" "$exe" --help >"$work/help.out" 2>"$work/help.err" \
    || fail "'simgui --help' exited with status $?" "$work/help.out" "$work/help.err"
for word in usage: scan inspect groups remove undo; do
    grep -q -- "$word" "$work/help.out" || fail "'simgui --help' does not mention '$word'" "$work/help.out"
done
say "ok: --help lists the commands"

# 2. inspect: the numba kernel computes a sum table; the first run compiles into the
# user cache directory (rthook_numba.py), the second loads from it
sample="$exe"
started=$(date +%s%N)
run timeout "$timeout_cmd" "$exe" inspect --json "$sample" >"$work/inspect.out" 2>"$work/inspect.err" \
    || fail "'simgui inspect --json $sample' exited with status $?" "$work/inspect.out" "$work/inspect.err"
first=$(seconds_since "$started")
grep -Eq '"sum_table": \[([0-9]+, ){15}[0-9]+\]' "$work/inspect.out" \
    || fail "'simgui inspect --json' printed no sum table of 16 counts" "$work/inspect.out" "$work/inspect.err"
grep -q '"content_hash": "[0-9a-f]\{32\}"' "$work/inspect.out" \
    || fail "'simgui inspect --json' printed no content hash" "$work/inspect.out"
cached=$(find "$work/cache/simgui/numba" -name '*.nbi' 2>/dev/null | wc -l)
[ "$cached" -gt 0 ] \
    || fail "numba wrote no cache index under \$XDG_CACHE_HOME/simgui/numba (NUMBA_CACHE_DIR not set by rthook_numba?)" "$work/inspect.err"
started=$(date +%s%N)
run timeout "$timeout_cmd" "$exe" inspect --json "$sample" >"$work/inspect2.out" 2>"$work/inspect2.err" \
    || fail "second 'simgui inspect --json' exited with status $?" "$work/inspect2.err"
second=$(seconds_since "$started")
cmp -s "$work/inspect.out" "$work/inspect2.out" || fail "two runs of 'simgui inspect' disagree" "$work/inspect.out" "$work/inspect2.out"
say "ok: inspect --json: $(grep -o '"sum_table": \[[^]]*\]' "$work/inspect.out")"
say "ok: numba cache: $cached index files in \$XDG_CACHE_HOME/simgui/numba; first run $first s (compiles), second $second s (cached)"

# 3. scan and groups: an identical copy and an edited copy are found
original="$bundle/_internal/simgui/cli.py"  # simgui's sources ship in the bundle (numba needs them)
[ -f "$original" ] || fail "simgui's sources are not in the bundle ($original is missing): numba's cache=True needs them"
cp "$original" "$work/data/original.py"
cp "$original" "$work/data/copy.py"
sed '10s/.*/# an edited line/' "$original" >"$work/data/edited.py"
run timeout "$timeout_cmd" "$exe" scan "$work/data" >"$work/scan.out" 2>"$work/scan.err" \
    || fail "'simgui scan' exited with status $?" "$work/scan.out" "$work/scan.err"
run timeout "$timeout_cmd" "$exe" groups --format json >"$work/groups.out" 2>"$work/groups.err" \
    || fail "'simgui groups' exited with status $?" "$work/groups.out" "$work/groups.err"
for name in original.py copy.py edited.py; do
    grep -q "\"path\": \"$work/data/$name\"" "$work/groups.out" \
        || fail "'simgui groups' did not group $name with the others" "$work/groups.out" "$work/groups.err"
done
grep -q '"identical": false' "$work/groups.out" || fail "'simgui groups' found no similar (edited) file" "$work/groups.out"
say "ok: scan + groups: an identical and an edited copy grouped"

# 4. the window: starts offscreen, loads the folder scanned above (compiling the kernels the
# command line did not need), settles, and is still running
printf '{"folders": ["%s"]}\n' "$work/data" >"$work/settings.json"
# a simple command in the background: env, then the bundle, replace the forked shell, so $!
# is the window's process itself
"${clean_env[@]}" "$exe" >"$work/gui.out" 2>"$work/gui.err" &
gui_pid=$!
sleep 1
if kill -0 "$gui_pid" 2>/dev/null; then
    running="$(readlink -f "/proc/$gui_pid/exe" 2>/dev/null)"
    [ "$running" = "$(readlink -f "$exe")" ] \
        || fail "process $gui_pid runs '$running', not $exe: cannot watch the window"
fi
cpu_ticks() { awk '{print $14 + $15}' "/proc/$gui_pid/stat" 2>/dev/null; }
waited=0 idle=0 last=-1
while [ "$waited" -lt "$timeout_cmd" ]; do
    sleep 1
    waited=$((waited + 1))
    kill -0 "$gui_pid" 2>/dev/null || {
        wait "$gui_pid"; status=$?; gui_pid=""
        fail "the window exited after ${waited} s (status $status)" "$work/gui.out" "$work/gui.err"
    }
    now=$(cpu_ticks)
    # settled: under 0.05 s of CPU a second, three seconds running, after the minimum time
    if [ "$last" -ge 0 ] && [ $((now - last)) -lt 5 ]; then idle=$((idle + 1)); else idle=0; fi
    last=$now
    [ "$waited" -ge "$seconds" ] && [ "$idle" -ge 3 ] && break
done
[ "$idle" -ge 3 ] || fail "the window was still busy after ${waited} s" "$work/gui.err"
# the bundle's own Python runs the window, and no Python from outside the bundle is loaded
grep -qF " $bundle/_internal/libpython3" "/proc/$gui_pid/maps" \
    || fail "the window process has not loaded the bundle's libpython"
outside=$(grep -Eio '/[^ ]*(python|site-packages)[^ ]*' "/proc/$gui_pid/maps" 2>/dev/null | sort -u \
    | grep -v "^$bundle/" || true)
[ -z "$outside" ] || fail "the window process maps Python files from outside the bundle: $outside"
kill -TERM "$gui_pid" 2>/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$gui_pid" 2>/dev/null || break; sleep 0.5; done
kill -KILL "$gui_pid" 2>/dev/null
wait "$gui_pid" 2>/dev/null
gui_pid=""
if grep -Eq 'Traceback|Error|failed|could not' "$work/gui.err"; then
    fail "the window reported an error on stderr" "$work/gui.err"
fi
cached=$(find "$work/cache/simgui/numba" -name '*.nbi' | wc -l)
say "ok: the window started offscreen, loaded the scanned folder and settled after ${waited} s (numba cache now $cached index files), no errors on stderr; stopped it"
say "ok: no Python outside the bundle was used (clean environment; only the bundle's libpython mapped)"
say "all checks passed"
