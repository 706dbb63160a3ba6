#!/usr/bin/env bash
# run_generator.sh: the quenched generator on one GPU, from binaries built on the development
# machine (see bench/README.md; binaries in $BIN, default .gpubin). 32^4 SU(3), CUDA backend:
#   beta = 5.7 and 6.0 from a cold start, 300 sweeps of 1 heatbath + 4 overrelaxation sweeps,
#   in double precision, plaquette printed after every sweep (the thermalisation history);
#   heatbath-only sweeps (100 from a hot start) per precision, for the sweep rate.
# Each log ends with "sweeps/s" (update kernels only, synchronised). The configurations
# (600 MB each) go to a temporary folder that is removed; logs go to $OUT (or ./out).
set -uo pipefail
bin=${BIN:-.gpubin}
out=${OUT:-out}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.gpulibs:${LD_LIBRARY_PATH:-}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# host: $(hostname)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
} > "$out/generator_device.txt"
cat "$out/generator_device.txt"

run() { # name, then the options of gaugefix generate
  local name=$1
  shift
  echo "# command: gaugefix generate $*" > "$out/$name.log"
  "$bin/gaugefix" generate "$@" >> "$out/$name.log" 2>&1
  echo "$name rc=$?" | tee -a "$out/generator_device.txt"
}

for beta in 5.7 6.0; do
  run "gen_32_beta$beta" --backend cuda --precision double --lattice 32,32,32,32 --beta "$beta" \
    --start cold --thermalisation 300 --configs 1 --or-sweeps 4 --seed 1 -o "$work/beta$beta"
done
for p in double mixed single; do
  run "heatbath_32_$p" --backend cuda --precision "$p" --lattice 32,32,32,32 --beta 6.0 \
    --start hot --thermalisation 100 --configs 1 --or-sweeps 0 --measure-interval 20 \
    --seed 2 -o "$work/hb_$p"
done
for f in "$out"/gen_32_beta*.log; do
  echo "== $f"
  awk '!/^#/ && NF == 4 && $1 % 25 == 0' "$f"
  tail -n 2 "$f"
done
tail -n 1 "$out"/heatbath_32_*.log
