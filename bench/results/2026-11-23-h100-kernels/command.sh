#!/usr/bin/env bash
# run_tuning_suite.sh: one GPU session for the kernels and the tuner (docs/kernels.md):
# the GPU tests (every variant bitwise equal, CUDA against CPU), the engine-tuning tests,
# `gaugefix tune` per gauge and precision on 32^4 and 48^4 (tuning times, every candidate's
# GB/s and fraction of the streaming bandwidth of the same run), the default-table lines,
# a thermalised beta = 6.0 field and timed fixes of it to theta < 1e-12 (double) with the
# tuned kernels (and, with BEFORE set, with the binary of an earlier version), and one
# Nsight Compute check of the achieved DRAM bytes of the winning Landau kernel.
# Environment: LATTICES (default "32 48"; empty: no tuning runs), GAUGES (default
# "landau coulomb mag"), STORAGES (default "8 12 18"), FIX_PRECISIONS (default "double mixed single"),
# BEFORE (a gaugefix binary of an earlier version to time on the same field).
# Binaries and libraries come packed (bench/README.md): .gpupack/bin.tar.xz (into .gpubin)
# and .gpupack/libs.tar.xz (holding .gpulibs).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
"$bin/gpu_tests" --gtest_brief=1 > "$out/gpu_tests.log" 2>&1; echo "gpu_tests rc=$?" | tee -a "$out/device.txt"
"$bin/unit_tests" --gtest_brief=1 --gtest_filter='EngineTuning.*:GeneratorTuning.*' > "$out/engine_tuning.log" 2>&1
echo "engine_tuning rc=$?" | tee -a "$out/device.txt"
for l in ${LATTICES-32 48}; do
  for g in ${GAUGES:-landau coulomb mag}; do
    for p in single mixed double; do
      for s in ${STORAGES:-8 12 18}; do
        log="$out/tune_${g}_${p}_${s}_${l}.log"
        /usr/bin/time -f "# wall %e s" "$bin/gaugefix" tune --lattice $l,$l,$l,$l --gauge $g --precision $p \
          --storage $s --anneal --table > "$log" 2>&1
        echo "tune $g $p $s $l rc=$?" >> "$out/device.txt"
      done
    done
  done
done
"$bin/gaugefix" generate --backend cuda --precision mixed --lattice 32,32,32,32 --beta 6.0 \
  --thermalisation 300 --configs 1 --or-sweeps 4 --start hot --quiet -o "$out/b6_32" > "$out/generate.log" 2>&1
echo "generate rc=$?" | tee -a "$out/device.txt"
cfg="$out/b6_32.0000"
fix_precisions=${FIX_PRECISIONS:-double mixed single}
fixargs="--backend cuda --input $cfg --check-interval 100 --reproject-interval 100 --max-iterations 40000"
for p in $fix_precisions; do
  tol=1e-12; [ "$p" != double ] && tol=1e-10
  echo "# command: gaugefix fix $fixargs --precision $p --tolerance $tol" > "$out/fix_b6_32_$p.log"
  "$bin/gaugefix" fix $fixargs --precision $p --tolerance $tol --summary "$out/fix_b6_32_$p.yaml" >> "$out/fix_b6_32_$p.log" 2>&1
  echo "fix $p rc=$?" | tee -a "$out/device.txt"
done
if [ -n "${BEFORE:-}" ]; then
  echo "# command (earlier version): gaugefix fix $fixargs --precision double" > "$out/fix_b6_32_double_before.log"
  "$BEFORE" fix $fixargs --precision double >> "$out/fix_b6_32_double_before.log" 2>&1
  echo "fix before rc=$?" | tee -a "$out/device.txt"
fi
ncu --kernel-name-base demangled -k regex:SiteSweep --launch-skip 20 --launch-count 2 \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
  "$bin/gaugefix" fix --backend cuda --input "$cfg" --precision single --max-iterations 100 --tolerance 1e-30 --quiet \
  > "$out/ncu_landau_single.log" 2>&1 || tail -n 20 "$out/ncu_landau_single.log"
echo "ncu rc=$?" | tee -a "$out/device.txt"
# what limits the winner: occupancy, issue, stalls (one launch, full sections)
ncu --kernel-name-base demangled -k regex:SiteSweep --launch-skip 20 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats \
  --section LaunchStats --section MemoryWorkloadAnalysis \
  "$bin/gaugefix" fix --backend cuda --input "$cfg" --precision single --max-iterations 100 --tolerance 1e-30 --quiet \
  > "$out/ncu_landau_single_sections.log" 2>&1
echo "ncu sections rc=$?" | tee -a "$out/device.txt"
tar -C "$out" -czf "$dest/logs.tar.gz" --exclude='*.0000' .
grep -h "rc=" "$out/device.txt" | tr '\n' ' '; echo
tail -n 3 "$out/gpu_tests.log" "$out/engine_tuning.log"
grep -h "winner" "$out"/tune_landau_*_32.log | head -20
tail -n 2 "$out"/fix_b6_32_*.log
