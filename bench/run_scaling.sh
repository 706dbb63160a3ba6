#!/usr/bin/env bash
# run_scaling.sh: the weak- and strong-scaling tables of docs/scaling.md on one node with
# 1 GPU and each count of RANKS (default "2"; "2 4" on a node of 4), one rank per GPU, Landau
# overrelaxation, every precision, plus the overlap check (the halo messages switched off)
# and the staged path for comparison. Binaries in $BIN (.gpubin), shared libraries in
# .gpulibs, logs to $OUT. Also measures the streaming bandwidth once (bench_landau's first
# lines) as the limit the per-rank GB/s are quoted against.
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
ranks=${RANKS:-2}
echo "## weak scaling" >> "$log"
for lt in 32 48; do # 64^3x32 and 48^4 a GPU
  ls=$([ $lt = 32 ] && echo 64,64,64 || echo 48,48,48)
  for n in 1 $ranks; do run $n $ls,$((lt * n)) 100; done
done
echo "## strong scaling" >> "$log"
for lt in 128 256; do
  for n in 1 $ranks; do run $n 64,64,64,$lt $((3840 / lt)); done
done
cat "$log"
