#!/usr/bin/env bash
# run_startup.sh: the whole-process wall time of short gaugefix commands, two binaries A and B
# (before and after a change) in turn: `gaugefix --version`, `gaugefix info` of an 8^4 field
# and a Landau fix of a randomly transformed smooth 8^4 field with FACG
# (fix --lattice 8,8,8,8 --random-transform 3 --algorithm facg --tolerance 1e-12 -q).
# Each round runs every command once with A, then once with B (so that a change of the load
# touches both); REPEATS rounds (default 20) after one untimed warm-up round. The wall time is
# taken around the process (date +%s%N), user + system CPU time with /usr/bin/time.
# Environment: A, B (paths to gaugefix), REPEATS, OMP_NUM_THREADS (default 2). Prints a header
# (date, machine, load, the binaries and their --version), every run, then per command and
# binary the median, minimum and mean wall time and the median CPU time, in seconds.
set -euo pipefail
a=${A:?A: path of the first gaugefix}
b=${B:?B: path of the second gaugefix}
repeats=${REPEATS:-20}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} GAUGEFIX_TUNING=off
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "# run_startup.sh, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "# machine: $(hostname), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS"
echo "# load before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "# $repeats rounds, one untimed round first; A then B in each round"
for label in A B; do
  bin=$a
  [ "$label" = B ] && bin=$b
  echo "# $label: $bin"
  "$bin" --version | sed "s/^/#   /"
done
"$a" generate --lattice 8,8,8,8 --beta 6.0 --configs 1 -q -o "$out/field" > /dev/null

commands=(version info fix)
command_of() { # name: the arguments of that command
  case $1 in
  version) echo "--version" ;;
  info) echo "info $out/field.0000" ;;
  fix) echo "fix --lattice 8,8,8,8 --random-transform 3 --algorithm facg --tolerance 1e-12 -q" ;;
  esac
}
for name in "${commands[@]}"; do echo "# $name: gaugefix $(command_of "$name")"; done

echo "round command binary wall_s cpu_s"
for round in $(seq 0 "$repeats"); do
  for name in "${commands[@]}"; do
    for label in A B; do
      bin=$a
      [ "$label" = B ] && bin=$b
      # shellcheck disable=SC2046 # the command's words
      start=$(date +%s%N)
      /usr/bin/time -f "%U %S" -o "$out/cpu" "$bin" $(command_of "$name") > /dev/null 2> "$out/stderr" ||
        { echo "FAILED: $label $name: $(cat "$out/stderr")" >&2; exit 1; }
      end=$(date +%s%N)
      [ "$round" -eq 0 ] && continue
      cpu=$(awk '{printf "%.3f", $1 + $2}' "$out/cpu")
      wall=$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.4f", (e - s) / 1e9}')
      echo "$round $name $label $wall $cpu" | tee -a "$out/runs"
    done
  done
done
echo "# load after: $(cut -d ' ' -f 1-3 /proc/loadavg)"

# median COLUMN NAME LABEL: the median of that column of the runs of NAME with LABEL
median() {
  awk -v n="$2" -v l="$3" -v c="$1" '$2 == n && $3 == l {print $c}' "$out/runs" | sort -g |
    awk '{v[NR] = $1} END {printf "%.4f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
echo "command binary median_wall_s min_wall_s mean_wall_s median_cpu_s"
for name in "${commands[@]}"; do
  for label in A B; do
    stats=$(awk -v n="$name" -v l="$label" '$2 == n && $3 == l {s += $4; if (!k++ || $4 < m) m = $4}
      END {printf "%.4f %.4f", m, s / k}' "$out/runs")
    echo "$name $label $(median 4 "$name" "$label") $stats $(median 5 "$name" "$label")"
  done
done
