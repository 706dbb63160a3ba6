#!/usr/bin/env bash
# run_gpu_suite.sh: what one GPU session runs, from binaries built on the development
# machine (see bench/README.md): the host tests, the GPU tests, the Landau overrelaxation
# benchmark on 32^4 and timed fixes to convergence per precision. Logs go to $OUT (or ./out).
set -uo pipefail
bin=${BIN:-.gpubin}
out=${OUT:-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
} > "$out/device.txt"
cat "$out/device.txt"
"$bin/unit_tests" --gtest_brief=1 > "$out/unit_tests.log" 2>&1; echo "unit_tests rc=$?" | tee -a "$out/device.txt"
"$bin/gpu_tests" --gtest_brief=1 > "$out/gpu_tests.log" 2>&1; echo "gpu_tests rc=$?" | tee -a "$out/device.txt"
"$bin/bench_landau" 32 1000 cuda > "$out/bench_landau_32.log" 2>&1; echo "bench rc=$?" | tee -a "$out/device.txt"
for p in double mixed single; do
  tol=1e-12; [ "$p" != double ] && tol=1e-10
  echo "# command: gaugefix fix --backend cuda --precision $p --lattice 32,32,32,32 --random-transform 5 --tolerance $tol --reproject-interval 100 --check-interval 100 --max-iterations 20000" > "$out/fix_32_$p.log"
  "$bin/gaugefix" fix --backend cuda --precision "$p" --lattice 32,32,32,32 --random-transform 5 \
    --tolerance "$tol" --reproject-interval 100 --check-interval 100 --max-iterations 20000 \
    --summary "$out/fix_32_$p.yaml" >> "$out/fix_32_$p.log" 2>&1
  echo "fix $p rc=$?" | tee -a "$out/device.txt"
  { echo "# summary:"; cat "$out/fix_32_$p.yaml"; } >> "$out/fix_32_$p.log" && rm -f "$out/fix_32_$p.yaml"
done
tail -n 3 "$out/unit_tests.log" "$out/gpu_tests.log"
cat "$out/bench_landau_32.log"
tail -n 2 "$out"/fix_32_*.log
