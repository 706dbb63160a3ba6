#!/usr/bin/env bash
# run_generator_ranks.sh: the generator's sub-sweep variants on 1, 2 and 4 GPUs of one node,
# from packed binaries (.gpupack, bench/README.md): GeneratorDecomposition (unit_tests; tuned and
# split sub-sweeps on slabs against the whole lattice, bitwise) on 2 and 4 ranks, one GPU each;
# then `gaugefix generate --tuning on` of a 32^4 SU(3) ensemble in mixed and double precision on
# 1 GPU and on 2 and 4 GPUs (same seed; the tuner picks each kernel's variant on every count),
# with each run's sweep rate and whether the links of its file equal the 1-GPU file's bitwise
# (the headers differ in the time). Each step runs under `timeout` (LIMIT, default 150 s).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
lim=${LIMIT:-150}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
mpi="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GAUGEFIX_TUNE_CACHE"
links=$((32 * 32 * 32 * 32 * 4 * 9 * 16))
for n in 2 4; do
  [ "$n" -le "$gpus" ] || continue
  timeout "$lim" $mpi -np "$n" -x OMP_NUM_THREADS=2 "$bin/unit_tests" \
    --gtest_filter='GeneratorDecomposition.*' > "$out/decomposition_$n.log" 2>&1
  echo "GeneratorDecomposition on $n GPUs rc=$?" | tee -a "$out/device.txt"
done
for p in mixed double; do
  for n in 1 2 4; do
    [ "$n" -le "$gpus" ] || continue
    args="generate --backend cuda --lattice 32,32,32,32 --beta 6.0 --start hot --configs 1
      --storage 12 --seed 5 --precision $p --thermalisation 20 --or-sweeps 4 --tuning on"
    log="$out/gen_${p}_$n.log"
    echo "# command: mpirun -np $n gaugefix $args -o g_${p}_$n" > "$log"
    # shellcheck disable=SC2086
    timeout "$lim" $mpi -np "$n" "$bin/gaugefix" $args -o "$out/g_${p}_$n" >> "$log" 2>&1
    rc=$?
    same="-"
    if [ "$n" -gt 1 ]; then
      differ=$(cmp -l <(tail -c "$links" "$out/g_${p}_1.0000") <(tail -c "$links" "$out/g_${p}_$n.0000") | wc -l)
      same="link bytes differing from 1 GPU: $differ"
    fi
    echo "$p on $n GPUs rc=$rc: $(grep -h 'sweeps/s' "$log" | sed 's/.*; //'); $same" | tee -a "$out/device.txt"
  done
  rm -f "$out"/g_"$p"_*
done
tar -C "$out" -czf "$dest/generator_ranks_logs.tar.gz" .
cp "$out/device.txt" "$dest/device.txt"
