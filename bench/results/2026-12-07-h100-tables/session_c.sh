#!/usr/bin/env bash
# session c (2026-12-07, one H100): the GPU suite with the re-tuned H100 rows, fixes with the
# default launches (--tuning off) against tuned ones (--tuning on), and the multi-rank paths on
# ranks sharing the GPU.
set -uo pipefail
O=$OUT
mkdir -p $O/defaults $O/ranks
(
  OUT=$O/defaults
  source bench/packed_session.sh
  "$bin/gpu_tests" --gtest_brief=1 > "$out/gpu_tests.log" 2>&1; echo "gpu_tests rc=$? $(tail -n 1 "$out/gpu_tests.log")" | tee -a "$out/device.txt"
  "$bin/gaugefix" generate --backend cuda --precision mixed --lattice 32,32,32,32 --beta 6.0 \
    --thermalisation 50 --configs 1 --or-sweeps 4 --start hot --quiet -o "$out/b6" > "$out/generate.log" 2>&1
  echo "generate rc=$?" | tee -a "$out/device.txt"
  for round in 1 2; do
    for g in landau coulomb mag; do
      for p in single mixed double; do
        for t in off on; do
          log="$out/fix_${g}_${p}_tuning_${t}_$round.log"
          echo "# command: gaugefix fix --backend cuda --input b6.0000 --gauge $g --precision $p --storage 12 --max-iterations 2000 --tolerance 1e-30 --tuning $t" > "$log"
          "$bin/gaugefix" fix --backend cuda --input "$out/b6.0000" --gauge $g --precision $p --storage 12 \
            --max-iterations 2000 --tolerance 1e-30 --tuning $t >> "$log" 2>&1
          echo "fix $g $p tuning $t round $round rc=$?: $(grep -h -m 1 'not converged\|converged' "$log")" >> "$out/device.txt"
        done
      done
    done
  done
  rm -f "$out"/*.0000
  cp "$out/device.txt" "$dest/device.txt"
  tar -C "$out" -czf "$dest/logs.tar.gz" .
)
OUT=$O/ranks SHARE_GPUS=1 RANKS_PER_GPU=4 TESTS=1 GEN=0 FACG=0 GPU_FILTER='GpuMatchesCpu.*' BUDGET=420 \
  bash bench/run_gpu_ranks.sh > $O/ranks/stdout.txt 2>&1
echo "ranks rc=$?"
