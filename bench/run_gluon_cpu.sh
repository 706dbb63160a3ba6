#!/usr/bin/env bash
# run_gluon_cpu.sh: the Landau and Coulomb gluon propagators (psq cut, MAX_N2, default 16)
# against one FACG preconditioning step on the same field in the same run, at the sizes given
# (default 16 32), SU(3), on this machine's CPU (OMP_NUM_THREADS, default all cores), REPS
# repetitions (default 5). Each size is one run of
#   bench_gluon_propagator L 3 MAX_N2 REPS FIX_TOLERANCE
# (FIX_TOLERANCE: FACG to this theta first, default 1e-10 at L <= 16, 0 = unfixed above: the
# times do not depend on it). Logs (date, machine, load, commit, the command and its output)
# go to $OUT (default bench/results/<date>-cpu-gluon-slab).
# Usage: bench/run_gluon_cpu.sh [SIZES...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH:-$root/build/bench/bench_gluon_propagator}
out=${OUT:-$root/bench/results/$(date -u +%Y-%m-%d)-cpu-gluon-slab}
max_n2=${MAX_N2:-16}
reps=${REPS:-5}
sizes=("$@")
[ $# -eq 0 ] && sizes=(16 32)
mkdir -p "$out"
{
  date -u
  uname -srm
  lscpu | grep -E '^(CPU\(s\)|Model name)'
  echo "OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
  echo "commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (with local changes)')"
} > "$out/machine.txt"
for L in "${sizes[@]}"; do
  tolerance=${FIX_TOLERANCE:-$([ "$L" -le 16 ] && echo 1e-10 || echo 0)}
  command="bench_gluon_propagator $L 3 $max_n2 $reps $tolerance"
  {
    echo "# command: $command"
    echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    "$bench" "$L" 3 "$max_n2" "$reps" "$tolerance"
    echo "# rc $?, load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  } > "$out/gluon_$L.log" 2>&1
  tail -n 8 "$out/gluon_$L.log"
done
