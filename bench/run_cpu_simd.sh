#!/usr/bin/env bash
# run_cpu_simd.sh OUT BEFORE PORTABLE NATIVE: the CPU sweep table of docs/kernels.md ("The
# CPU"): bench_cpu_sweep on a 16^4 SU(3) field, Landau overrelaxation, single, mixed and double
# precision, 12 and 18 reals, on one core (OMP_NUM_THREADS=1, taskset -c 0) and on two
# (taskset -c 0,1), 3 sweeps x 7 repetitions per variant (quote the minima: others use this
# machine). BEFORE: bench_cpu_sweep built against the code before the SIMD sweep (only its
# default, the scalar sweep); PORTABLE, NATIVE: build folders of this code without and with
# -Dcpu_arch=native. One log per thread count, precision and storage under OUT.
set -euo pipefail
out=$1 before=$2 portable=$3 native=$4
mkdir -p "$out"
{
  date -u
  lscpu
  g++ --version | head -1
  uptime
} > "$out/machine.txt"

v() { echo "variant=$1 block=$2 minb=0 carveout=-1 loads=cache"; }
for threads in 1 2; do
  cpus=$([ "$threads" = 1 ] && echo 0 || echo 0,1)
  variants=("$(v site1 0)" "$(v simd4 0)" "$(v simd8 0)" "$(v simd16 0)")
  [ "$threads" = 2 ] && variants+=("$(v site1 256)" "$(v simd8 256)" "$(v simd16 256)")
  for prec in single mixed double; do
    for storage in 12 18; do
      log="$out/sweep_${threads}t_${prec}_${storage}.log"
      run() { OMP_NUM_THREADS=$threads taskset -c "$cpus" "$1" 16 landau overrelaxation "$prec" "$storage" 3 7 "${@:2}"; }
      {
        echo "## command: OMP_NUM_THREADS=$threads taskset -c $cpus bench_cpu_sweep 16 landau overrelaxation $prec $storage 3 7 VARIANTS"
        echo "## before: $before (scalar sweep, portable build)"
        run "$before" default
        for build in "$portable" "$native"; do
          echo "## build: $build"
          run "$build/bench/bench_cpu_sweep" "${variants[@]}"
        done
        echo "## load after the run: $(uptime)"
      } > "$log" 2>&1
      echo "$log"
    done
  done
done
