#!/usr/bin/env bash
# run_scaling.sh: the weak- and strong-scaling tables of docs/scaling.md on one node with
# 1 and 2 GPUs (one rank per GPU), Landau overrelaxation, every precision, plus the overlap
# check (2 ranks with the halo messages switched off) and the staged path for comparison. Binaries in $BIN (.gpubin), shared
# libraries in .gpulibs, logs to $OUT. Also measures the streaming bandwidth once
# (bench_landau's first lines) as the limit the per-rank GB/s are quoted against.
set -uo pipefail
bin=${BIN:-.gpubin}
out=${OUT:-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
mpi="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS"
log="$out/scaling.log"
{
  echo "# run_scaling.sh  date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
  nvidia-smi topo -m | head -4
  "$bin/bench_landau" 32 200 cuda | head -3
  $mpi -np 2 "$bin/bench_exchange" 64
  $mpi -np 2 "$bin/bench_exchange" 48
} > "$log" 2>&1
run() { # ranks lattice sweeps [path]
  echo "# command: $mpi -np $1 $bin/bench_scaling $2 $3 cuda ${4:-auto}" >> "$log"
  $mpi -np "$1" "$bin/bench_scaling" "$2" "$3" cuda "${4:-auto}" >> "$log" 2>&1 || echo "FAILED rc=$?" >> "$log"
}
echo "## weak scaling" >> "$log"
run 1 64,64,64,32 100; run 2 64,64,64,64 100
run 1 48,48,48,48 100; run 2 48,48,48,96 100
echo "## strong scaling" >> "$log"
run 1 64,64,64,128 30; run 2 64,64,64,128 30
run 1 64,64,64,256 15; run 2 64,64,64,256 15
cat "$log"
