#!/usr/bin/env bash
# python_module_for.sh BUILD PYTHON OUTDIR: the Python module of a configured build (its
# libgaugefix.so) for another interpreter, e.g. a GPU node's Python 3.12 where the build's is
# Debian's 3.11. Compiles python/*.cpp against PYTHON's headers (pybind11 from the build
# machine, header-only), links them against BUILD/libgaugefix.so and puts the module and the
# library (found through the module's rpath $ORIGIN) into OUTDIR: PYTHONPATH=OUTDIR then
# imports it (the library's own dependencies still have to be found by the loader).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BUILD PYTHON OUTDIR" >&2; exit 1; }
build=$1 python=$2 outdir=$3
root=$(cd "$(dirname "$0")/.." && pwd)
ninja -C "$build" "$(basename "$(readlink -f "$build/libgaugefix.so")")" > /dev/null
fail() {
  echo "$0: $*" >&2
  exit 1
}
include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])') ||
  fail "$python does not run"
suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
[ -f "$include/Python.h" ] || fail "$python has no C headers ($include/Python.h; Debian: python3-dev)"
"$python" -c 'import numpy' 2> /dev/null ||
  fail "$python cannot import numpy, which the module imports (pip install numpy)"
# pybind11 is header-only: PYBIND11_INCLUDE (its include folder) where set, else from PYTHON's
# packages, else from the system's python3. A numpy 2 needs pybind11 2.12 or later (the module
# refuses to import otherwise).
pybind=${PYBIND11_INCLUDE:-}
for p in "$python" python3 /usr/bin/python3; do
  [ -n "$pybind" ] && break
  pybind=$("$p" -c 'import pybind11; print(pybind11.get_include())' 2> /dev/null) || pybind=
done
[ -n "$pybind" ] || fail "pybind11 not found (Debian: python3-pybind11; pip install pybind11)"
[ -f "$pybind/pybind11/pybind11.h" ] || fail "no pybind11/pybind11.h in '$pybind' (PYBIND11_INCLUDE)"
defines=()
grep -q 'GAUGEFIX_HAVE_CUDA' "$build/build.ninja" && defines+=(-DGAUGEFIX_HAVE_CUDA)
mkdir -p "$outdir"
objects=()
for source in "$root"/python/*.cpp; do # every source of the module (python/meson.build)
  object=$outdir/$(basename "$source" .cpp).o
  g++ -c "$source" -o "$object" -I"$root/include" -I"$root/python" \
    -I"$pybind" -I"$include" "${defines[@]}" -std=c++20 -O2 -fPIC -fvisibility=hidden -DNDEBUG
  objects+=("$object")
done
soname=$(objdump -p "$build/libgaugefix.so" | awk '/SONAME/ {print $2}')
cp -L "$build/libgaugefix.so" "$outdir/$soname"
g++ -shared -o "$outdir/gaugefix$suffix" "${objects[@]}" "$outdir/$soname" -Wl,-rpath,'$ORIGIN'
rm -f "${objects[@]}"
echo "$outdir/gaugefix$suffix"
