#!/bin/bash
# studies_smoke.sh GAUGEFIX SOURCE_ROOT STUDY: runs studies/STUDY.py at its smoke size (the
# CPU, seconds) and checks what it wrote: the figure is a PNG, the table has the rows the
# study makes and values that make sense (per study below). $PYTHON: a python3 with matplotlib.
# Run by meson (tests/meson.build).
set -euo pipefail
PYTHON=${PYTHON:-python3}
g=$(realpath "$1") root=$2 study=$3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export OMP_NUM_THREADS=1 # small lattices: threads would only contend
"$PYTHON" "$root/studies/$study.py" "$d" --smoke --gaugefix "$g" > "$d/stdout" 2>&1 ||
  { cat "$d/stdout"; echo "FAIL ($study): the study exited with an error" >&2; exit 1; }
[ "$(head -c 4 "$d/$study.png" | tail -c 3)" = PNG ] || { echo "FAIL ($study): no $study.png" >&2; exit 1; }
[ -s "$d/$study.md" ] || { echo "FAIL ($study): no $study.md" >&2; exit 1; }
"$PYTHON" - "$d" "$study" << 'EOF' || { echo "FAIL ($study): the table is not sane (above)" >&2; exit 1; }
import csv, math, os, sys
d, study = sys.argv[1:3]
rows = list(csv.DictReader(open(os.path.join(d, study + ".csv"))))
num = lambda r, k: float(r[k])
if study == "accuracy":
    assert len(rows) == 8, len(rows)
    for r in rows:
        assert 0 < num(r, "F") <= 1 and num(r, "iterations") == 400, r
    dp = [r for r in rows if r["precision"] == "double" and r["storage"] == "18" and r["reproject"] == "0"][0]
    assert num(dp, "rel_dev_F") == 0, dp
    sp = [r for r in rows if r["precision"] == "single" and r["storage"] == "18" and r["reproject"] == "0"][0]
    assert 0 < num(sp, "det_dev_max") < 1e-4, sp          # single precision drifts, a little
    assert num(dp, "det_dev_max") < 1e-11, dp              # double far less
    assert num(sp, "rel_dev_F") < 1e-4, sp
    # the double-precision curve rises and is monotone to 1e-13 (overrelaxation never lowers
    # F; on the plateau the links' drift of ~1e-13 from SU(3) lowers it by ~1e-15 per check)
    h = list(csv.DictReader(open(os.path.join(d, "histories", "accuracy_double_s18_r0.csv"))))
    f = [float(r["functional"]) for r in h]
    assert all(b >= a - 1e-13 for a, b in zip(f, f[1:])) and f[-1] > f[0] + 1e-3, f
elif study == "performance":
    assert len(rows) == 6, len(rows)                       # Ns 4, Nt 4 and 8, three precisions
    assert {(r["Nt"], r["precision"]) for r in rows} == {(nt, p) for nt in ("4", "8") for p in ("single", "mixed", "double")}
    for r in rows:
        assert 1e3 < num(r, "site_updates_per_s") < 1e12 and num(r, "GB_per_s") > 0, r
elif study == "annealing_temperature":
    for gauge in ("landau", "mag"):
        rs = [r for r in rows if r["gauge"] == gauge]
        assert len(rs) == 20, (gauge, len(rs))              # 400 steps, a row every 20
        t = [num(r, "T") for r in rs]
        assert all(b < a for a, b in zip(t, t[1:])) and t[0] <= 6 and abs(t[-1] - 0.01) < 1e-12, t
        f = [num(r, "F") for r in rs]
        q = len(f) // 4                                     # F rises as T falls
        assert sum(f[-q:]) / q > sum(f[:q]) / q + 0.05, f
        assert num(rs[-1], "theta") < num(rs[0], "theta"), rs
elif study == "cooling_mag":
    assert [r["schedule"] for r in rows] == ["OR", "SA/SR/OR"], rows
    for r in rows:
        assert num(r, "copies") == 3 and 0 <= num(r, "converged") <= 3, r
        if num(r, "converged") > 0:
            assert 0 < num(r, "F_mean") <= num(r, "F_best") + 1e-12 and num(r, "iterations_mean") > 0, r
    assert sum(num(r, "converged") for r in rows) >= 1, rows
elif study == "global_maximum":
    assert len(rows) == 12, len(rows)                      # 3 schedules x 4 copies
    assert sorted({r["anneal_steps"] for r in rows}) == ["0", "100", "30"], rows
    dev = [num(r, "rel_dev") for r in rows]
    assert min(dev) == 0 and all(0 <= x < 0.5 for x in dev), dev
elif study == "scaling":
    measured = [r for r in rows if r["measured_ms"] != ""]
    assert len(measured) >= 12, len(measured)              # 1 and 2 GPUs, 4 lattices, 3 precisions
    for r in rows:
        assert 0.3 < num(r, "model_efficiency") <= 1, r
        if r["gpus"] == "1":
            assert num(r, "model_ms") == num(r, "measured_ms"), r
    for r in measured:
        assert 0.9 < num(r, "measured_efficiency") < 1.1, r   # the measured 2-GPU runs scale
else:
    sys.exit("unknown study " + study)
EOF
