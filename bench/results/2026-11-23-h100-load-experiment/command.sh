#!/usr/bin/env bash
# kernel experiment: orthonormalisation modes and streaming loads
set -uo pipefail
out=$(mktemp -d)
mkdir -p .gpubin
tar -xJf .gpupack/bin.tar.xz -C .gpubin && tar -xJf .gpupack/libs.tar.xz || exit 1
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
bin=.gpubin
{ echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; } | tee $out/device.txt
for mode in 0 1 2 3 4; do
  for p in single double; do
    GAUGEFIX_EXPERIMENT=$mode GAUGEFIX_TUNE_CACHE=$out/cache$mode "$bin/gaugefix" tune --lattice 32,32,32,32 --gauge landau --precision $p --storage 12 > $out/tune_m${mode}_$p.log 2>&1
    echo "mode $mode $p rc=$? $(grep -m1 winner $out/tune_m${mode}_$p.log)" | tee -a $out/device.txt
  done
done
for mode in 0 2; do
  GAUGEFIX_EXPERIMENT=$mode "$bin/bench_storage_drift" 16 10000 2000 cuda single,mixed,double 12 > $out/drift_m$mode.log 2>&1
  echo "drift $mode rc=$?" | tee -a $out/device.txt
done
for mode in 0 2; do
  GAUGEFIX_EXPERIMENT=$mode GAUGEFIX_TUNE_CACHE=$out/cache$mode ncu --kernel-name-base demangled -k regex:SiteSweep --launch-skip 20 --launch-count 1 \
    --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats --section SpeedOfLight \
    "$bin/gaugefix" fix --backend cuda --lattice 32,32,32,32 --generate smooth --precision single --storage 12 --max-iterations 40 --tolerance 1e-30 --quiet > $out/ncu_m$mode.log 2>&1
  echo "ncu $mode rc=$?" | tee -a $out/device.txt
done
tar -C $out -czf $OUT/logs.tar.gz .
cat $out/device.txt
