#!/usr/bin/env bash
# run_ensemble_gpu.sh: issue "production ensembles" on one GPU: 10 thermalised beta = 6.0
# 16^4 configurations (gaugefix generate), then one batch run fixing all of them to Landau
# gauge (theta < 1e-12, double) with 4 Gribov copies each, g(x) and summaries written, the
# journal kept. Prints configurations per hour and the time outside the sweeps (the wall
# time of the batch run minus the schedule seconds of every copy, from the journal).
# Binaries come packed as for run_tuning_suite.sh (.gpupack); logs go to $OUT/logs.tar.gz.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
mkdir -p "$out/ens" "$out/fixed"
gen="generate --backend cuda --lattice 16,16,16,16 --beta 6.0 --start hot --thermalisation 300 --separation 50 --configs 10 --or-sweeps 4 --seed 11 --quiet -o $out/ens/b6_16"
echo "# command: gaugefix $gen" > "$out/generate.log"
"$bin/gaugefix" $gen >> "$out/generate.log" 2>&1; echo "generate rc=$?" | tee -a "$out/device.txt"
ls "$out"/ens/b6_16.[0-9]* > "$out/list.txt"
fix="fix --backend cuda --input-list $out/list.txt --output $out/fixed/{name}.landau --transform-output $out/fixed/{name}.g.h5 --summary $out/fixed/{name}.yaml --journal $out/fixed/journal.yaml --copies 4 --tolerance 1e-12 --check-interval 100 --reproject-interval 100 --max-iterations 40000"
echo "# command: gaugefix $fix" > "$out/fix.log"
start=$(date +%s.%N)
"$bin/gaugefix" $fix >> "$out/fix.log" 2>&1; rc=$?
end=$(date +%s.%N)
echo "fix rc=$rc" | tee -a "$out/device.txt"
python3 - "$out/fixed/journal.yaml" "$start" "$end" <<'PY' | tee -a "$out/device.txt"
import re, sys
text = open(sys.argv[1]).read()
wall = float(sys.argv[3]) - float(sys.argv[2])
# every copy's schedule seconds: the "seconds: [...]" lists of the copy statistics
lists = re.findall(r"^\s*seconds: \[([^\]]*)\]", text, re.M)
sweeps = sum(float(x) for l in lists for x in l.split(",") if x.strip())
n = len(lists)
print(f"configurations {n}, wall {wall:.2f} s, {3600 * n / wall:.0f} configurations per hour, "
      f"schedules {sweeps:.2f} s, outside the schedules {wall - sweeps:.2f} s ({(wall - sweeps) / wall:.1%})")
PY
cp "$out/fixed/journal.yaml" "$out/journal.yaml"
rm -rf "$out/ens" "$out/fixed"/*.landau "$out/fixed"/*.g.h5
tar -C "$out" -czf "$dest/logs.tar.gz" .
