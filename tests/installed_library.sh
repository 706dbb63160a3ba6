#!/usr/bin/env bash
# installed_library.sh BUILD SOURCE: libgaugefix as a user gets it. Installs the build into a
# temporary directory (meson install --destdir; the pkg-config file is relocatable), then
# checks what was installed (the one public header, the shared and static library, no
# internal symbol exported), builds examples/fix_field.cpp against the installed library with
# pkg-config alone, runs it and checks what it prints: converged, theta below the tolerance
# (also measured again), the plaquette unchanged by fixing; and that an error is reported as
# gaugefix::Error naming the file. examples/fix_field.c (the C API) built the same way with
# the C compiler converges.
set -euo pipefail
build=$1
source=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() {
  echo "installed_library: $*" >&2
  exit 1
}

meson install -C "$build" --destdir "$d/root" --no-rebuild > "$d/install.log"
pc=$(find "$d/root" -name gaugefix.pc)
[ -n "$pc" ] || fail "no gaugefix.pc installed"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir gaugefix)
includedir=$(pkg-config --variable=includedir gaugefix)
case "$libdir" in "$d"/*) ;; *) fail "pkg-config libdir $libdir is not inside the install" ;; esac

[ "$(cd "$includedir/gaugefix" && echo *)" = "device_memory.h gaugefix.h gaugefix_c.h options.h" ] ||
  fail "installed headers: $(ls "$includedir/gaugefix") (expected device_memory.h, gaugefix.h, gaugefix_c.h and options.h)"
[ -f "$libdir/libgaugefix.a" ] || fail "no static library in $libdir"
so=$(readlink -f "$libdir/libgaugefix.so")
[ -f "$so" ] || fail "no shared library in $libdir"
# internal code (namespace gf) stays inside the shared library
exported=$(nm -DC --defined-only "$so" | awk '{ $1 = ""; $2 = ""; print }' | sed 's/^ *//')
echo "$exported" | grep -q '^gaugefix::fix(' || fail "gaugefix::fix is not exported"
if echo "$exported" | grep '^gf::' > "$d/internal"; then
  fail "internal symbols exported: $(head -3 "$d/internal")"
fi

c++ -std=c++17 -o "$d/fix_field" "$source/examples/fix_field.cpp" \
  $(pkg-config --cflags --libs gaugefix) -Wl,-rpath,"$libdir"
mkdir "$d/run"
"$d/fix_field" "$d/run" > "$d/out" || fail "fix_field exited with $?: $(cat "$d/out")"
cat "$d/out"
grep -q '^converged: true$' "$d/out" || fail "not converged"
grep -q "^read $d/run/field.lime: ildg, SU(3), 64 bits$" "$d/out" || fail "the ILDG file was not read back"
awk -F': ' '/^theta( measured)?:/ { n++; if (!($2 + 0 < 1e-12)) bad = 1 }
            /^plaquette before:/ { p = $2 } /^plaquette after:/ { q = $2 }
            END { d = p - q; if (d < 0) d = -d; exit !(n == 2 && !bad && p > 0 && d < 1e-12) }' \
  "$d/out" || fail "theta or the plaquette out of bounds"

# an error: a gaugefix::Error naming the file, exit status 1
status=0
"$d/fix_field" "$d/no-such-dir" > /dev/null 2> "$d/err" || status=$?
[ "$status" = 1 ] || fail "exit status $status for a missing directory (expected 1)"
grep -q "fix_field: write: .*$d/no-such-dir" "$d/err" || fail "message: $(cat "$d/err")"
# the C API from C, with pkg-config alone (its output: tests/c_api_example.sh)
cc -std=c99 -o "$d/fix_field_c" "$source/examples/fix_field.c" \
  $(pkg-config --cflags --libs gaugefix) -Wl,-rpath,"$libdir"
mkdir "$d/run_c"
"$d/fix_field_c" "$d/run_c" > "$d/out_c" || fail "fix_field.c exited with $?: $(cat "$d/out_c")"
grep -q '^converged: true$' "$d/out_c" || fail "fix_field.c: not converged"
echo "installed_library: ok"
