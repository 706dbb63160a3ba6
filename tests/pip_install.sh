#!/usr/bin/env bash
# pip_install.sh SOURCE WORK PYTHON...: the Python module as Python users install it
# (pyproject.toml, docs/api.md). With the first PYTHON that has venv, ensurepip, meson-python,
# numpy and pybind11 (else the test is skipped, naming what each lacks): a venv with the
# system's packages, `pip install --no-build-isolation .` of SOURCE (its meson build kept in
# WORK, so that a second run rebuilds only what changed), then the venv's interpreter imports
# gaugefix from the venv, fixes a small field to Landau gauge and checks theta and the
# plaquette. Then the failures: meson with -Dpython=enabled for an interpreter without numpy
# stops with a message naming numpy and the interpreter; with -Dpython=auto it warns and goes on.
set -euo pipefail
source=$1 work=$2
shift 2
fail() {
  echo "pip_install: $*" >&2
  exit 1
}
python=
for candidate in "$@"; do
  if ! command -v "$candidate" > /dev/null; then
    echo "pip_install: $candidate: not found"
    continue
  fi
  lacks=$("$candidate" -c '
import importlib.util
print(" ".join(m for m in ("venv", "ensurepip", "mesonpy", "numpy", "pybind11")
               if importlib.util.find_spec(m) is None))')
  if [ -z "$lacks" ]; then
    python=$(command -v "$candidate")
    break
  fi
  echo "pip_install: $candidate lacks the Python modules: $lacks"
done
if [ -z "$python" ]; then
  echo "pip_install: skipped: no interpreter with venv, meson-python, numpy and pybind11" \
    "(Debian: python3-venv python3-mesonpy python3-numpy python3-pybind11, scripts/install-deps.sh)"
  exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

"$python" -m venv --system-site-packages "$d/v"
if ! (cd "$source" && "$d/v/bin/pip" install --no-build-isolation --no-index -v \
  --config-settings builddir="$work" --config-settings setup-args=-Dcuda=disabled \
  --config-settings compile-args=-j2 .) > "$d/pip.log" 2>&1; then
  tail -40 "$d/pip.log" >&2
  fail "pip install failed"
fi
(cd "$d" && "$d/v/bin/python" - "$d/v") << 'PY' || fail "the installed module failed"
import sys
import numpy as np
import gaugefix

venv = sys.argv[1]
assert gaugefix.__file__.startswith(venv + "/"), f"gaugefix imported from {gaugefix.__file__}"
links = gaugefix.generate((4, 4, 4, 4), beta=6.0, sweeps=3, seed=5)
fixed, g, result = gaugefix.fix(links, gauge="landau", tolerance=1e-12)
theta = gaugefix.measure(fixed, gauge="landau").theta
before, after = gaugefix.plaquette(links), gaugefix.plaquette(fixed)
print(f"installed {gaugefix.__file__}: {result}, theta measured {theta}, "
      f"plaquette {before} -> {after}")
assert result.converged and theta < 1e-12
assert abs(before - after) < 1e-12 and 0 < before < 1
assert g.shape == (4, 4, 4, 4, 3, 3) and not np.array_equal(fixed, links)
PY
echo "pip_install: the module installed by pip fixes a field"

# An interpreter without numpy: a venv without the system's packages.
"$python" -m venv --without-pip "$d/bare"
printf "[binaries]\npython = '%s'\n" "$d/bare/bin/python3" > "$d/bare.ini"
status=0
meson setup "$d/enabled" "$source" --native-file "$d/bare.ini" -Dcuda=disabled \
  -Dpython=enabled -Dpython_wheel=true > "$d/enabled.log" 2>&1 || status=$?
[ "$status" != 0 ] || fail "-Dpython=enabled without numpy: meson setup succeeded"
grep -q "ERROR: .*the Python module (-Dpython=enabled) cannot be built: $d/bare/bin/python3 .*cannot import numpy" \
  "$d/enabled.log" || fail "-Dpython=enabled without numpy: $(tail -3 "$d/enabled.log")"
meson setup "$d/auto" "$source" --native-file "$d/bare.ini" -Dcuda=disabled -Dreader_fuzz=false \
  > "$d/auto.log" 2>&1 || fail "-Dpython=auto without numpy: $(tail -3 "$d/auto.log")"
grep -q "WARNING: the Python module is not built: $d/bare/bin/python3 .*cannot import numpy" \
  "$d/auto.log" || fail "-Dpython=auto without numpy gives no warning"
echo "pip_install: a missing numpy is named (python=enabled: error, auto: warning)"
