#!/usr/bin/env bash
# run_generator_variants.sh: the generator's sub-sweep launch variants on one GPU
# (gen/generator_impl.h: "site1", "split"), from packed binaries (.gpupack,
# bench/README.md). Runs the generator's GPU tests (unit_tests' GeneratorTuning: every variant
# gives the one kernel's bits; GeneratorDecomposition on 2 and 4 ranks) and the whole GPU suite
# (gpu_tests), then
# bench_generator at 32^4 for SU(3) in double, mixed and single with 12 reals, SU(3) double with
# 18 and mixed with 8, SU(2) double with 12 (bench_<...>.log), and, where the pack holds
# `gaugefix_old` (the build before the variants), `gaugefix generate --tuning on` of both builds
# on the same seed, each build with its own tune cache: the sweep rates, whether the files'
# links (the last 32^4 x 4 x 9 x 16 bytes: the headers differ in the version and time) differ,
# and whether the plaquettes printed after every sweep are the same (cmp_<...>.txt).
# Every program runs under `timeout` (LIMIT seconds, default 120), so that one that hangs is
# reported (rc 124) and the rest still run.
# Environment: SWEEPS (bench_generator's sweeps of each kind, default 10), THERM (generate's
# sweeps, default 40), LIMIT.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
lim=${LIMIT:-120}
timeout "$lim" "$bin/unit_tests" --gtest_filter='GeneratorTuning.*' > "$out/unit_generator.log" 2>&1
echo "unit_tests GeneratorTuning rc=$?" | tee -a "$out/device.txt"
timeout "$lim" "$bin/gpu_tests" > "$out/gpu_tests.log" 2>&1
echo "gpu_tests rc=$?: $(tail -n 1 "$out/gpu_tests.log")" | tee -a "$out/device.txt"
# the decomposition test (split sub-sweeps and tuned ones on slabs against the whole lattice) on
# 2 and 4 ranks sharing this GPU
for n in 2 4; do
  timeout "$lim" mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$n" -x LD_LIBRARY_PATH \
    -x OMP_NUM_THREADS=2 "$bin/unit_tests" --gtest_filter='GeneratorDecomposition.*' \
    > "$out/decomposition_$n.log" 2>&1
  echo "unit_tests GeneratorDecomposition on $n ranks rc=$?" | tee -a "$out/device.txt"
done
sweeps=${SWEEPS:-10}
for run in "3 double 12" "3 mixed 12" "3 single 12" "3 double 18" "3 mixed 8" "2 double 12"; do
  read -r nc p s <<< "$run"
  log="$out/bench_32_su${nc}_${p}_$s.log"
  echo "# command: bench_generator 32 $nc $p $s $sweeps" > "$log"
  timeout "$lim" "$bin/bench_generator" 32 "$nc" "$p" "$s" "$sweeps" >> "$log" 2>&1
  echo "bench_generator su$nc $p $s rc=$?" | tee -a "$out/device.txt"
done
if [ -x "$bin/gaugefix_old" ]; then
  for p in double mixed; do
    for o in 0 4; do
      for build in gaugefix gaugefix_old; do
        log="$out/gen_${build}_${p}_or$o.log"
        args="generate --backend cuda --lattice 32,32,32,32 --beta 6.0 --start hot --configs 1
          --storage 12 --seed 5 --precision $p --thermalisation ${THERM:-40} --or-sweeps $o --tuning on"
        echo "# command: $build $args -o g_${build}_${p}_$o" > "$log"
        # shellcheck disable=SC2086
        GAUGEFIX_TUNE_CACHE=$out/tunecache_$build timeout "$lim" "$bin/$build" $args -o "$out/g_${build}_${p}_$o" >> "$log" 2>&1
        echo "$build $p or-sweeps $o rc=$?: $(grep -h 'sweeps/s' "$log")" | tee -a "$out/device.txt"
      done
      a=$(ls "$out"/g_gaugefix_"${p}"_"$o".* | head -n 1)
      b=$(ls "$out"/g_gaugefix_old_"${p}"_"$o".* | head -n 1)
      links=$((32 * 32 * 32 * 32 * 4 * 9 * 16))
      differ=$(cmp -l <(tail -c "$links" "$a") <(tail -c "$links" "$b") | wc -l)
      history() { awk 'NF == 5 && $2 ~ /^[0-9]+$/ {print $2, $3, $4}' "$1"; } # sweep, plaquette, acceptance
      same_history=no
      cmp -s <(history "$out/gen_gaugefix_${p}_or$o.log") <(history "$out/gen_gaugefix_old_${p}_or$o.log") &&
        same_history=yes
      echo "$p or-sweeps $o: bytes of the links that differ: $differ; plaquette after every sweep the same: $same_history" |
        tee "$out/cmp_${p}_$o.txt" | tee -a "$out/device.txt"
      rm -f "$out"/g_*
    done
  done
fi
tar -C "$out" -czf "$dest/generator_variants_logs.tar.gz" .
cp "$out/device.txt" "$dest/device.txt"
