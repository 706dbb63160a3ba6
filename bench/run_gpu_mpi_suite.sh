#!/usr/bin/env bash
# run_gpu_mpi_suite.sh: one session on a node with 2 GPUs: the GPU tests, the decomposition
# tests on 2 GPUs (2 ranks against the whole lattice on one GPU), a 2-rank gauge fix with
# parallel HDF5 output and g(x), the generator runs (run_generator.sh) and the scaling
# tables (run_scaling.sh). Binaries in .gpubin, libraries in .gpulibs, logs to $OUT.
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=8
mpi="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS"
s="$out/suite.log"
{ date -u '+# date: %Y-%m-%d %H:%M:%S UTC'; nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader; } > "$s"
.gpubin/gpu_tests --gtest_brief=1 > "$out/gpu_tests.log" 2>&1; echo "gpu_tests rc=$?" >> "$s"
$mpi -np 2 .gpubin/unit_tests --gtest_filter='*Decomposition*' > "$out/decomposition_2gpu.log" 2>&1
echo "decomposition on 2 GPUs rc=$?" >> "$s"
fix="fix --backend cuda --precision double --lattice 32,32,32,64 --random-transform 5 --tolerance 1e-12 --check-interval 100 --max-iterations 20000"
{ echo "# command: $mpi -np 2 gaugefix $fix --output fixed2.h5 --output-format hdf5 --transform-output g2.bin"
  $mpi -np 2 .gpubin/gaugefix $fix --output /tmp/fixed2.h5 --output-format hdf5 --transform-output /tmp/g2.bin
  echo "rc=$?"
  echo "# command: gaugefix $fix --output fixed1.h5 --output-format hdf5 --transform-output g1.bin (1 GPU)"
  .gpubin/gaugefix $fix --output /tmp/fixed1.h5 --output-format hdf5 --transform-output /tmp/g1.bin
  echo "rc=$?"
  echo "# g(x) data, 2 GPUs against 1 GPU (last 32^3*64*9*16 bytes):"
  cmp <(tail -c 301989888 /tmp/g1.bin) <(tail -c 301989888 /tmp/g2.bin) && echo "identical"
  .gpubin/gaugefix info /tmp/fixed2.h5
} > "$out/fix_2gpu.log" 2>&1
echo "fix on 2 GPUs: see fix_2gpu.log" >> "$s"
BIN=.gpubin bash bench/run_generator.sh > /dev/null 2>&1; echo "generator rc=$?" >> "$s"
BIN=.gpubin bash bench/run_scaling.sh > /dev/null 2>&1; echo "scaling rc=$?" >> "$s"
cat "$s"; tail -2 "$out/gpu_tests.log"; grep -E "PASSED|FAILED" "$out/decomposition_2gpu.log"; grep -E "converged|identical|rc=" "$out/fix_2gpu.log"; grep -E "ranks" "$out/scaling.log"
