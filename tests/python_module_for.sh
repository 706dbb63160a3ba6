#!/bin/bash
# python_module_for.sh BUILD SOURCE_ROOT PYTHON: scripts/python_module_for.sh builds the module
# of BUILD for PYTHON into a new folder (every source of python/, as the meson build compiles
# them), and that module imports from there and fixes a small field to the gauge condition.
set -euo pipefail
build=$1 root=$2 python=$3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
bash "$root/scripts/python_module_for.sh" "$build" "$python" "$d/module" > "$d/log" 2>&1 ||
  { echo "FAIL: python_module_for.sh: $(cat "$d/log")"; exit 1; }
PYTHONPATH=$d/module PYTHONDONTWRITEBYTECODE=1 "$python" - "$d/module" <<'PY'
import os
import sys

import gaugefix

folder = os.path.realpath(sys.argv[1])
assert os.path.realpath(gaugefix.__file__).startswith(folder), gaugefix.__file__
u = gaugefix.random_transform(gaugefix.generate((4, 4, 4, 4), beta=5.8, sweeps=2, seed=4), 7)[0]
fixed, g, r = gaugefix.fix(u, gauge="landau", tolerance=1e-12)
assert r.converged and r.theta < 1e-12, r
assert gaugefix.measure(fixed, gauge="landau").theta < 1e-12
print("ok: the module of", folder, "theta", r.theta)
PY
