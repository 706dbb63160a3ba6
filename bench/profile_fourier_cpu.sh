#!/usr/bin/env bash
# profile_fourier_cpu.sh: where a CPU FACG step spends its time. Runs `perf record` (cpu-clock,
# 4000 samples per second) on STEPS (default 40) steps of Landau FACG in double on one thread
# of a field (default $WORK/b6.0_L16.0000, made by run_fourier_glu.sh) and prints, per kernel
# (symbol), its share of the samples and its CPU time per site and per gradient evaluated
# ("point": one move and one gradient each). Extra arguments go to gaugefix fix.
# Usage: GAUGEFIX=path [FIELD=path] [STEPS=40] bench/profile_fourier_cpu.sh [options...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
g=${GAUGEFIX:-$root/build/src/app/gaugefix}
field=${FIELD:-${WORK:-/tmp/gaugefix-fields}/b6.0_L16.0000}
steps=${STEPS:-40}
data=$(mktemp /tmp/profile_fourier.XXXXXX)
trap 'rm -f "$data" "$data.log"' EXIT
echo "# $(date -u), $(uname -n), $g, field $field, $steps steps, options: $*"
OMP_NUM_THREADS=1 perf record -q -F 4000 -o "$data" "$g" fix --input "$field" --algorithm facg \
  --tolerance 1e-30 --max-iterations "$steps" --check-interval "$steps" "$@" > "$data.log" 2>&1
grep -E "^# fix:|facg  |fourier:" "$data.log" | cut -c26-
sites=$(grep -o "SU([23]) [0-9x]*" "$data.log" | head -1 | awk '{split($2, L, "x"); print L[1] * L[2] * L[3] * L[4]}')
points=$(grep -o "fourier: [0-9]* gradients" "$data.log" | awk '{print $2}')
echo "sites $sites, points $points"
perf report -i "$data" --no-children --sort symbol -n 2>/dev/null | grep -E "^ +[0-9]" | head -15 |
  awk -v V="$sites" -v P="$points" '{name=$4; for (i = 5; i <= NF; i++) name = name " " $i;
    printf "%6.1f%% %8.1f ns per site and point  %s\n", $1, $2 / 4000 / (V * P) * 1e9, substr(name, 1, 90)}'
