#!/usr/bin/env bash
# run_ghost_ranks.sh: the ghost propagator's conjugate gradient on 1, 2 and 4 GPUs of one node
# (docs/measurements.md, "Ghost propagator"), binaries packed as for run_gpu_ranks.sh
# (bench/README.md; bench_ghost_cg packed beside gaugefix):
#   field     a beta = 6.0 field of LATTICE (default 48,48,48,48) made by gaugefix generate on
#             every GPU (mixed, hot start, THERM sweeps, default 50, seed 5) and fixed to Landau
#             gauge by FACG in double (theta < 1e-12) on every GPU, in FIELD_DIR (default
#             /dev/shm);
#   streaming bench_ghost_cg L 3 on one GPU: the streaming rate of this GPU in the same run
#             and the CG iteration's bytes per site (1152 for SU(3)), with its own kernel-only
#             fraction for comparison (needs a hypercubic LATTICE);
#   ranks     gaugefix measure --backend cuda --ghost-propagator --ghost-max-n2 MAX_N2
#             (default 1) --ghost-max-iterations MAX_ITERATIONS (default 60: every solve stops
#             there, for a time per iteration in a minute; the G(p) are then not converged, and
#             the log warns so; 0 takes measure's default) on each of GPUS (default "1 2 4")
#             under mpirun: the CG iterations
#             (the sum over the progress lines), the seconds of the whole measurement (its
#             "measured ghost" line: sources, solves and the reductions between ranks
#             included), the milliseconds per iteration, the efficiency t_1 / (N t_N) and the
#             fraction of N GPUs' streaming rate; every count's G(p) must equal one GPU's to
#             the last digit (the CSV rows compared), else FAILED.
# Writes $OUT/table.md and $OUT/logs.tar.gz. A failed step is FAILED and the script exits 1.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
lattice=${LATTICE:-48,48,48,48}
dir=$(mktemp -d -p "${FIELD_DIR:-/dev/shm}" gaugefix_ghost.XXXXXX) || exit 1
trap 'rm -rf "$dir"; tar -czf "$dest/logs.tar.gz" -C "$out" .' EXIT # also at a timeout's SIGTERM
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
mpi() { echo mpirun --allow-run-as-root --bind-to none -np "$1" -x OMP_NUM_THREADS=$(($(nproc) / gpus)) \
  -x LD_LIBRARY_PATH -x GAUGEFIX_TUNE_CACHE; }
failed=()
run() { # log, command...: the command's output into log (with the command), FAILED where rc != 0
  local log=$1
  shift
  echo "# command: $*" > "$log"
  "$@" >> "$log" 2>&1 || { failed+=("$(basename "$log" .log)"); echo "FAILED: $log"; tail -n 5 "$log"; return 1; }
}
run "$out/generate.log" $(mpi "$gpus") "$bin/gaugefix" generate --backend cuda --precision mixed \
  --lattice "$lattice" --beta 6.0 --start hot --thermalisation "${THERM:-50}" --or-sweeps 4 \
  --configs 1 --seed 5 -o "$dir/b6" &&
  run "$out/fix.log" $(mpi "$gpus") "$bin/gaugefix" fix --backend cuda --input "$dir/b6.0000" \
    --algorithm facg --precision double --tolerance 1e-12 -o "$dir/fixed" || exit 1
l=${lattice%%,*}
run "$out/bench_ghost_cg.log" "$bin/bench_ghost_cg" "$l" 3 50 5 cuda
streaming=$(sed -n 's/.*streaming in-place read+write (same run): \([0-9.]*\) GB\/s.*/\1/p' "$out/bench_ghost_cg.log")
bytes=$(sed -n 's/^bytes per site of a CG iteration \([0-9]*\);.*/\1/p' "$out/bench_ghost_cg.log")
max_its=()
[ "${MAX_ITERATIONS:-60}" = 0 ] || max_its=(--ghost-max-iterations "${MAX_ITERATIONS:-60}")
sites=$(echo "$lattice" | awk -F, '{ print $1 * $2 * $3 * $4 }')
{ echo "## Ghost CG of ${lattice//,/x} SU(3) on 1-$gpus GPUs, gaugefix measure --ghost-max-n2 ${MAX_N2:-1} ${max_its[*]}"
  cat "$out/device.txt"
  echo "streaming ${streaming} GB/s a GPU (bench_ghost_cg, same run), ${bytes} bytes a site an iteration;"
  echo "bench_ghost_cg on one GPU (the iterations alone): $(grep '^seconds per CG iteration' "$out/bench_ghost_cg.log")"
  echo
  echo "| GPUs | iterations | seconds | ms / iteration | efficiency | of N GPUs' streaming | G(p) as on 1 GPU |"
  echo "|---|---|---|---|---|---|---|"; } > "$out/table.md"
t1=
for n in ${GPUS:-1 2 4}; do
  [ "$n" -le "$gpus" ] || continue
  log="$out/measure_${n}gpu.log"
  csv="$dir/ghost_${n}gpu.csv"
  run "$log" $(mpi "$n") "$bin/gaugefix" measure --backend cuda --input "$dir/fixed" \
    --ghost-propagator "$csv" --ghost-max-n2 "${MAX_N2:-1}" "${max_its[@]}" || continue
  cp "$csv" "$out/"
  its=$(sed -n 's/.*ghost propagator: momentum .* solves, \([0-9]*\) iterations.*/\1/p' "$log" | awk '{ s += $1 } END { print s }')
  secs=$(sed -n 's/.*measured ghost .*, \([0-9.]*\) s$/\1/p' "$log")
  [ -n "$t1" ] || t1=$secs
  same=yes
  if [ "$n" != 1 ] && [ -f "$dir/ghost_1gpu.csv" ]; then
    cmp -s <(grep -v '^#' "$dir/ghost_1gpu.csv") <(grep -v '^#' "$csv") || { same=NO; failed+=("G(p) on $n GPUs differs from one GPU's"); }
  fi
  awk -v n="$n" -v i="$its" -v s="$secs" -v t1="$t1" -v b="$bytes" -v v="$sites" -v bw="$streaming" -v same="$same" \
    'BEGIN { ms = 1000 * s / i; printf "| %d | %d | %.3f | %.4f | %.3f | %.3f | %s |\n", n, i, s, ms, t1 / (n * s), b * v / (s / i) / 1e9 / (n * bw), same }' \
    >> "$out/table.md"
done
cp "$out/table.md" "$dest/table.md"
cat "$dest/table.md"
[ ${#failed[@]} -eq 0 ] || { printf 'FAILED: %s\n' "${failed[@]}"; exit 1; }
