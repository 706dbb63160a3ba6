#!/usr/bin/env bash
# profile_limiters.sh: what limits the kernels that miss issue 27's targets (docs/kernels.md,
# "Targets and what limits each kernel"), on one GPU. A 32^4 beta = 6.0 field (hot start,
# THERM sweeps, mixed); for each sweep below one run tunes its kernels (cache in the scratch
# folder), then Nsight Compute profiles one launch of the winner (`--tuning cached`) with the
# sections that tell bandwidth from latency from arithmetic: speed of light, occupancy,
# scheduler and warp-state statistics, compute and memory workload, instruction statistics,
# and the cycles a warp waits per issued instruction for each stall reason (ncu_<name>.log;
# `ncu_limiters_table.py --stalls`). The sweeps: Landau overrelaxation with 12 reals in single,
# mixed and double and with 18 reals in mixed, Coulomb and maximally Abelian overrelaxation with
# 12 reals in single, mixed and double and with 18 reals in mixed, the annealing heatbath
# (Landau, 12 reals, single), and the generator's heatbath and overrelaxation sub-sweeps
# (mixed, 12 reals). Also the generator's sweep rates (heatbath only and 1 + 4, mixed and
# double; gen_*.log) and the streaming bandwidth of the same GPU (`gaugefix tune`'s stream
# line, tune_stream.log), from which docs/kernels.md derives the generator's fraction of
# streaming.
# Environment: THERM (default 50), ONLY (a regular expression: profile only the sweeps whose
# names match, e.g. 'mixed_18').
# Binaries and libraries come packed as for run_tuning_suite.sh (.gpupack, bench/README.md).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
lat=32,32,32,32
"$bin/gaugefix" generate --backend cuda --precision mixed --lattice $lat --beta 6.0 \
  --thermalisation "${THERM:-50}" --configs 1 --or-sweeps 4 --start hot --quiet -o "$out/b6" > "$out/generate.log" 2>&1
echo "generate rc=$?" | tee -a "$out/device.txt"
cfg="$out/b6.0000"
sections="--section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats
  --section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
  --section InstructionStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"

# name, kernel regex, launches to skip, then the gaugefix command line
profile() {
  local name=$1 kernel=$2 skip=$3
  shift 3
  [[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && return
  "$bin/gaugefix" "$@" > "$out/tune_$name.log" 2>&1
  rm -f "$out"/g_* # the generator's output of the tuning run (no file is written over)
  echo "# command: ncu -k regex:$kernel --launch-skip $skip --launch-count 1 (sections) gaugefix $* --tuning cached" > "$out/ncu_$name.log"
  # shellcheck disable=SC2086
  ncu --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" --launch-count 1 $sections \
    "$bin/gaugefix" "$@" --tuning cached >> "$out/ncu_$name.log" 2>&1
  echo "ncu $name rc=$?" | tee -a "$out/device.txt" # a fix's 3: tolerance 1e-30 not reached, as meant
}

fix="fix --backend cuda --input $cfg --storage 12 --max-iterations 60 --tolerance 1e-30 --quiet"
fix18=${fix/--storage 12/--storage 18}
profile landau_single SiteSweep 20 $fix --precision single
profile landau_mixed SiteSweep 20 $fix --precision mixed
profile landau_double SiteSweep 20 $fix --precision double
profile landau_mixed_18 SiteSweep 20 $fix18 --precision mixed
for p in single mixed double; do
  profile coulomb_$p SiteSweep 20 $fix --precision $p --gauge coulomb
  profile mag_$p SiteSweep 20 $fix --precision $p --gauge mag
done
profile coulomb_mixed_18 SiteSweep 20 $fix18 --precision mixed --gauge coulomb
profile mag_mixed_18 SiteSweep 20 $fix18 --precision mixed --gauge mag
profile anneal_single 'SiteSweep.*UpdateFamily\)1' 4 $fix --precision single --anneal-steps 40
gen="generate --backend cuda --lattice $lat --beta 6.0 --start hot --configs 1 --storage 12 --quiet"
profile gen_heatbath LinkSubSweep 16 $gen --precision mixed --thermalisation 4 --or-sweeps 0 -o "$out/g_hb"
profile gen_overrelax LinkSubSweep 12 $gen --precision mixed --thermalisation 2 --or-sweeps 4 -o "$out/g_or"

for p in mixed double; do
  for o in 0 4; do
    log="$out/gen_${p}_or$o.log"
    echo "# command: gaugefix $gen --precision $p --thermalisation 50 --or-sweeps $o -o g_rate_$p$o" > "$log"
    "$bin/gaugefix" ${gen/--quiet/} --precision $p --thermalisation 50 --or-sweeps $o -o "$out/g_rate_$p$o" \
      --tuning on >> "$log" 2>&1
    echo "generate $p or-sweeps $o rc=$?: $(grep -h 'sweeps/s' "$log")" | tee -a "$out/device.txt"
  done
done
echo "# command: gaugefix tune --backend cuda --lattice $lat --precision single --storage 12" > "$out/tune_stream.log"
"$bin/gaugefix" tune --backend cuda --lattice $lat --precision single --storage 12 >> "$out/tune_stream.log" 2>&1
grep -i -m 2 "stream" "$out/tune_stream.log" | tee -a "$out/device.txt"
rm -f "$out"/*.0000
tar -C "$out" -czf "$dest/limiters_logs.tar.gz" .
cp "$out/device.txt" "$dest/device.txt"
