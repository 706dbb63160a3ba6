#!/usr/bin/env bash
# run_cpu_ab.sh: two gaugefix binaries A and B (before and after a change) timed against each
# other on the CPU backend (or, with BACKEND=cuda, on the GPU): one thermalised beta = 6.0
# SU(3) L^4 field (made by A: cold start, THERM sweeps of 1 heatbath + 4 overrelaxation, seed
# 11), fixed in Landau gauge to theta < TOLERANCE with --algorithm ALGORITHM and FIX_OPTIONS by
# A and B in turn, REPEATS times each, every binary with its own tuning cache (warmed by one
# untimed run first). On the CPU, CORES (a taskset list, default 0,1) and OMP_NUM_THREADS
# (default: as many as CORES names) emulate a small machine on a larger one. Writes
# $OUT/table.md (the seconds and iterations of every run, each binary's median) and
# $OUT/logs.tar.gz (commands, outputs, summaries, machine).
# Environment: A, B (paths to gaugefix), BACKEND (cpu or cuda, default cpu), L (default 16),
# ALGORITHM (default facg), FIX_OPTIONS (more options of fix, e.g. "--precision double"),
# TOLERANCE (default 1e-13), THERM (default 200), REPEATS (default 5), OUT (default out).
# Exits 1 when a run fails or A and B disagree on the iterations, F or theta of a fix (a change
# meant to keep the numbers).
set -uo pipefail
a=${A:?A: path of the first gaugefix}
b=${B:?B: path of the second gaugefix}
L=${L:-16}
algorithm=${ALGORITHM:-facg}
backend=${BACKEND:-cpu}
tolerance=${TOLERANCE:-1e-13}
read -r -a fix_options <<< "${FIX_OPTIONS:-}"
repeats=${REPEATS:-5}
cores=${CORES:-0,1}
threads=${OMP_NUM_THREADS:-$(echo "$cores" | tr ',' '\n' | wc -l)}
dest=${OUT:-out}
out=$(mktemp -d)
mkdir -p "$dest"
{ date -u '+# date: %Y-%m-%d %H:%M:%S UTC'
  lscpu | grep -E '^Model name'
  [ "$backend" = cuda ] && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "# backend $backend, cores $cores, OMP_NUM_THREADS=$threads, L=$L, $algorithm ${FIX_OPTIONS:-}, theta < $tolerance, $repeats runs each"
  echo "# A: $a"
  echo "# B: $b"; } > "$out/machine.txt"
field=$out/b6.0_L$L
"$a" generate --backend "$backend" --lattice "$L,$L,$L,$L" --beta 6.0 --start cold \
  --thermalisation "${THERM:-200}" --or-sweeps 4 --configs 1 --seed 11 --quiet -o "$field" \
  > "$out/generate.log" 2>&1 || { echo "FAILED: generate"; tail -n 5 "$out/generate.log"; exit 1; }

field_of() { grep -m 1 "^ *$2:" "$1" | sed "s/^ *$2: *//"; }

fix() { # binary label, run name: prints the summary's path
  local bin=$1 label=$2 name=$3
  local log="$out/$name.log" summary="$out/$name.yaml"
  local pin=(taskset -c "$cores")
  [ "$backend" = cuda ] && pin=()
  local cmd=("${pin[@]}" env OMP_NUM_THREADS="$threads" GAUGEFIX_TUNE_CACHE="$out/tune_$label"
    "$bin" fix --backend "$backend" --input "$field.0000" --algorithm "$algorithm"
    --tolerance "$tolerance" "${fix_options[@]}" --check-interval 50 --max-iterations 100000
    --quiet --summary "$summary")
  echo "# command: ${cmd[*]}" > "$log"
  "${cmd[@]}" >> "$log" 2>&1 || { echo "FAILED: $name" >&2; tail -n 5 "$log" >&2; return 1; }
  echo "$summary"
}

failed=0
fix "$a" A warm_A > /dev/null || failed=1
fix "$b" B warm_B > /dev/null || failed=1
{ echo "| run | binary | iterations | seconds | F | theta |"
  echo "|---|---|---|---|---|---|"; } > "$out/table.md"
declare -A seconds
for r in $(seq "$repeats"); do
  for label in A B; do
    bin=$a
    [ "$label" = B ] && bin=$b
    s=$(fix "$bin" "$label" "run${r}_$label") || { failed=1; continue; }
    echo "| $r | $label | $(field_of "$s" iterations) | $(field_of "$s" seconds) | $(field_of "$s" functional) | $(field_of "$s" theta) |" >> "$out/table.md"
    seconds[$label]+="$(field_of "$s" seconds) "
  done
  for key in iterations functional theta; do
    [ "$(field_of "$out/run${r}_A.yaml" $key)" = "$(field_of "$out/run${r}_B.yaml" $key)" ] ||
      { echo "A and B differ in $key (run $r)" | tee -a "$out/table.md"; failed=1; }
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
{ echo
  echo "median seconds: A $(echo "${seconds[A]:-}" | median), B $(echo "${seconds[B]:-}" | median)"; } >> "$out/table.md"
cp "$out/table.md" "$dest/table.md"
tar -C "$out" -czf "$dest/logs.tar.gz" --exclude='b6.0_*' --exclude='tune_*' .
cat "$dest/table.md"
exit $failed
