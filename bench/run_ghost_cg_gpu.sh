#!/usr/bin/env bash
# run_ghost_cg_gpu.sh: the ghost propagator's CG on one GPU (docs/measurements.md, "Ghost
# propagator"): bench_ghost_cg with backend cuda at 32^4 and 48^4, SU(3) and SU(2), then the
# lines that give the seconds per CG iteration and the fraction of the streaming rate measured
# in the same run (issue: >= 0.8 of the streaming bandwidth of the iteration's bytes).
# Environment: BENCH (default build-cuda/bench/bench_ghost_cg), SIZES (default "32 48"),
# COLOURS (default "3 2"), ITERATIONS (default 50), REPS (default 5), OUT (the logs' folder,
# default a new temporary one). Exits 1 if a run fails.
set -uo pipefail
bench=${BENCH:-build-cuda/bench/bench_ghost_cg}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
status=0
for l in ${SIZES:-32 48}; do
  for nc in ${COLOURS:-3 2}; do
    log="$out/ghost_cg_${l}_su${nc}.log"
    if ! "$bench" "$l" "$nc" "${ITERATIONS:-50}" "${REPS:-5}" cuda > "$log" 2>&1; then
      echo "FAILED: ${l}^4 SU(${nc}); last lines of $log:"
      tail -n 5 "$log"
      status=1
      continue
    fi
    echo "${l}^4 SU(${nc}): $(grep '^seconds per CG iteration' "$log")"
  done
done
echo "logs: $out"
exit $status
