#!/usr/bin/env bash
# run_glu_compare.sh OUT CONFIG GLU_BINARY...: GLU's overrelaxation (configure
# --enable-OVERRELAXED_GF, its stochastic overrelaxation with probability GF_TUNE = 0.5) on
# one core (OMP_NUM_THREADS=1, taskset -c 0), Landau gauge, the NERSC file CONFIG (16^4),
# for the comparison in docs/kernels.md ("The CPU"). Each binary runs 10 and 40 iterations
# (ACCURACY 1e-14 is not reached), twice; the CPU time per iteration is the difference of the
# two runs' task-clock (perf stat) over 30, which leaves out reading the file and set-up.
# GLU's own timer (wall clock of the fixing) is in the logs too.
set -euo pipefail
out=$1 config=$2
shift 2
mkdir -p "$out"
# GLU's input: the example CONF/input_file of its source tree (the binary's ../CONF), with
# the lattice, the gauge, the tuning parameter and the iterations changed, written to a
# temporary folder (not kept: it is GLU's file).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for glu in "$@"; do
  name=$(basename "$(dirname "$(dirname "$glu")")")
  for it in 10 40; do
    sed -e 's/\(DIM_[0-3]\) = [0-9]*/\1 = 16/' -e 's/GFTYPE = .*/GFTYPE = LANDAU/' \
      -e 's/GF_TUNE = .*/GF_TUNE = 0.5/' -e 's/ACCURACY = .*/ACCURACY = 14/' \
      -e "s/MAX_ITERS = .*/MAX_ITERS = $it/" "$(dirname "$glu")/../CONF/input_file" > "$tmp/input_$it"
  done
  for rep in 1 2; do
    for it in 10 40; do
      log="$out/glu_${name}_${it}_rep$rep.log"
      echo "## OMP_NUM_THREADS=1 taskset -c 0 perf stat -e task-clock $glu -i input_$it -c $config" > "$log"
      grep -E "DIM_|GFTYPE|GF_TUNE|ACCURACY|MAX_ITERS|MODE|HEADER" "$tmp/input_$it" | sed 's/^/## input: /' >> "$log"
      OMP_NUM_THREADS=1 taskset -c 0 perf stat -x, -e task-clock -o "$log.stat" "$glu" -i "$tmp/input_$it" -c "$config" >> "$log" 2>&1
    done
    t10=$(grep task-clock "$out/glu_${name}_10_rep$rep.log.stat" | cut -d, -f1)
    t40=$(grep task-clock "$out/glu_${name}_40_rep$rep.log.stat" | cut -d, -f1)
    echo "$name rep $rep: task-clock 10 iterations $t10 ms, 40 iterations $t40 ms, per iteration $(echo "($t40 - $t10) / 30" | bc -l | cut -c1-6) ms"
  done
done
