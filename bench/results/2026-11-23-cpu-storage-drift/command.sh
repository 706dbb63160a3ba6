#!/bin/bash
# bench_storage_drift on the CPU (2 OpenMP threads, shared machine), 8^4, 2000 sweeps,
# every precision and storage; writes drift.log and machine.txt here.
set -euo pipefail
here=$(dirname "$0")
{ date -u; uname -srm; lscpu | grep -E "Model name|^CPU\(s\)"; } > "$here/machine.txt"
OMP_NUM_THREADS=2 build/bench/bench_storage_drift 8 2000 200 cpu single,mixed,double 8,12,18 \
  > "$here/drift.log"
