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
for it in 10 40; do
  cat > "$out/glu_input_$it" <<INPUT
MODE = GAUGE_FIXING
HEADER = NERSC
	DIM_0 = 16
	DIM_1 = 16
	DIM_2 = 16
	DIM_3 = 16
CONFNO = 0
RANDOM_TRANSFORM = NO
SEED = 0
GFTYPE = LANDAU
	GF_TUNE = 0.5
	ACCURACY = 14
	MAX_ITERS = $it
INPUT
done
for glu in "$@"; do
  name=$(basename "$(dirname "$(dirname "$glu")")")
  for rep in 1 2; do
    for it in 10 40; do
      log="$out/glu_${name}_${it}_rep$rep.log"
      OMP_NUM_THREADS=1 taskset -c 0 perf stat -x, -e task-clock -o "$log.stat" "$glu" -i "$out/glu_input_$it" -c "$config" > "$log" 2>&1
    done
    t10=$(grep task-clock "$out/glu_${name}_10_rep$rep.log.stat" | cut -d, -f1)
    t40=$(grep task-clock "$out/glu_${name}_40_rep$rep.log.stat" | cut -d, -f1)
    echo "$name rep $rep: task-clock 10 iterations $t10 ms, 40 iterations $t40 ms, per iteration $(echo "($t40 - $t10) / 30" | bc -l | cut -c1-6) ms"
  done
done
