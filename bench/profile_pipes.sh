#!/usr/bin/env bash
# profile_pipes.sh: the arithmetic each kernel that misses issue 27's targets executes, against the
# bytes it moves (docs/kernels.md, "Arithmetic against bytes"), on one GPU. Nsight Compute at the
# GPU's own clocks (--clock-control none) on launches of the tuned winners (--tuning cached after
# a tuning run): the generator's sub-sweeps at 32^4 (heatbath and overrelaxation, mixed and
# double, 12 reals: StapleSums and LinkSubSweep, whichever variant the tuner chose) and the
# fixing's Landau overrelaxation (12 reals, single and double). Metrics: duration, SM cycles and
# clock, DRAM bytes, the executed thread instructions of FP64 and FP32 adds, multiplies and FMAs,
# warp instructions issued (ncu_<name>.csv). bench/pipes_table.py turns them into the time each
# kernel needs at the FP64 (or FP32) pipes' peak and at the streaming rate of the same GPU
# (`gaugefix tune`'s stream line, tune_stream.log).
# Environment: THERM (default 20). Binaries and libraries come packed (bench/packed_session.sh).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
lat=32,32,32,32
"$bin/gaugefix" generate --backend cuda --precision mixed --lattice $lat --beta 6.0 \
  --thermalisation "${THERM:-20}" --configs 1 --start hot --quiet -o "$out/b6" > "$out/generate.log" 2>&1
echo "generate rc=$?" | tee -a "$out/device.txt"
cfg="$out/b6.0000"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,launch__registers_per_thread
metrics+=,device__attribute_multiprocessor_count
for op in dfma dadd dmul ffma fadd fmul; do
  metrics+=,sm__sass_thread_inst_executed_op_${op}_pred_on.sum
done

# name, kernel regex, launches to skip, launches, then the gaugefix command line
profile() {
  local name=$1 kernel=$2 skip=$3 count=$4
  shift 4
  "$bin/gaugefix" "$@" > "$out/tune_$name.log" 2>&1
  rm -f "$out"/g_*
  echo "# command: ncu --clock-control none -k regex:$kernel --launch-skip $skip --launch-count $count --metrics ... gaugefix $* --tuning cached" > "$out/ncu_$name.log"
  timeout 300 ncu --clock-control none --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" \
    --launch-count "$count" --metrics "$metrics" --csv "$bin/gaugefix" "$@" --tuning cached \
    > "$out/ncu_$name.csv" 2>> "$out/ncu_$name.log"
  echo "ncu $name rc=$?" | tee -a "$out/device.txt"
  rm -f "$out"/g_*
}

gen="generate --backend cuda --lattice $lat --beta 6.0 --start $cfg --configs 1 --storage 12 --quiet"
for p in mixed double; do
  profile gen_heatbath_$p 'StapleSums|LinkSubSweep' 16 4 $gen --precision $p --thermalisation 4 --or-sweeps 0 -o "$out/g_hb"
  profile gen_overrelax_$p 'StapleSums|LinkSubSweep' 16 4 $gen --precision $p --thermalisation 2 --or-sweeps 4 -o "$out/g_or"
done
fix="fix --backend cuda --input $cfg --storage 12 --max-iterations 40 --tolerance 1e-30 --quiet"
profile landau_single SiteSweep 20 2 $fix --precision single
profile landau_double SiteSweep 20 2 $fix --precision double
echo "# command: gaugefix tune --backend cuda --lattice $lat --precision single --storage 12" > "$out/tune_stream.log"
"$bin/gaugefix" tune --backend cuda --lattice $lat --precision single --storage 12 >> "$out/tune_stream.log" 2>&1
grep -h -i stream "$out/tune_stream.log" | head -3 | tee -a "$out/device.txt"
rm -f "$cfg" # the field (1.2 GB) does not come back
cp "$out"/ncu_*.csv "$out/device.txt" "$dest/" 2>/dev/null
tar czf "$dest/logs.tar.gz" -C "$out" .
