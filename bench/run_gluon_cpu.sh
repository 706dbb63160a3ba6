#!/usr/bin/env bash
# run_gluon_cpu.sh: the Landau and Coulomb gluon propagators (psq cut, MAX_N2, default 16)
# against one FACG preconditioning step on the same field in the same run, at the sizes given
# (default 16 32), SU(3), on this machine's CPU (OMP_NUM_THREADS, default all cores), REPS
# repetitions (default 5). Each size is one run of
#   bench_gluon_propagator L 3 MAX_N2 REPS FIX_TOLERANCE
# (FIX_TOLERANCE: FACG to this theta first, default 1e-10 at L <= 16, 0 = unfixed above: the
# times do not depend on it). Logs (date, machine, load, commit, the command and its output)
# go to $OUT (default bench/results/<date>-cpu-gluon-slab). With BEFORE=<an earlier gaugefix>
# also `gaugefix measure --gluon-propagator` (Landau and Coulomb, MAX_N2) of this build and of
# that binary, REPS times each, on a smooth 16^4 field fixed by this build (measure_cli.log).
# Usage: [BEFORE=...] bench/run_gluon_cpu.sh [SIZES...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH:-$root/build/bench/bench_gluon_propagator}
g=${GAUGEFIX:-$root/build/src/app/gaugefix}
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
  echo "commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- ':!bench/results' || echo ' (with local changes)')"
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
[ -z "${BEFORE:-}" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  for gauge in landau coulomb; do
    echo "# command: gaugefix fix --lattice 16,16,16,16 --generate smooth --gauge $gauge --algorithm facg --tolerance 1e-12"
    "$g" fix --lattice 16,16,16,16 --generate smooth --gauge "$gauge" --algorithm facg --tolerance 1e-12 \
      --output "$work/$gauge.nersc" 2>&1 | grep -E 'converged|fourier:'
    for name in after before; do
      bin=$g
      [ "$name" = before ] && bin=$BEFORE
      echo "# $name: $bin ($("$bin" --version | head -n 1))"
      echo "# command: gaugefix measure --input $gauge.nersc --gluon-propagator $name.csv --max-n2 $max_n2"
      for _ in $(seq "$reps"); do
        "$bin" measure --input "$work/$gauge.nersc" --gluon-propagator "$work/$gauge.$name.csv" \
          --max-n2 "$max_n2" 2>&1 | grep 'measured gluon'
      done
    done
    # transverse (Landau; the longitudinal part is ~0 in Landau gauge), spatial and temporal
    first=$([ "$gauge" = landau ] && echo 6 || echo 5)
    columns=$([ "$gauge" = landau ] && echo 7 || echo 6)
    difference=$(paste -d, <(grep -v '^#' "$work/$gauge.after.csv") <(grep -v '^#' "$work/$gauge.before.csv") |
      awk -F, -v f="$first" -v n="$columns" 'NR > 1 { for (i = f; i <= 6; ++i) {
        a = $i; b = $(i + n); s = (b < 0 ? -b : b); d = a - b; d = (d < 0 ? -d : d)
        if (s > 0 && d / s > m) m = d / s } } END { printf "%.2e", m }')
    echo "# largest relative difference after/before ($gauge, columns $first-6): $difference"
  done
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/measure_cli.log" 2>&1
tail -n 20 "$out/measure_cli.log"
