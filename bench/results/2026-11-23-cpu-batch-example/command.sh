#!/bin/bash
# The examples of docs/ensembles.md: a batch of three 4^3x8 configurations with three Gribov
# copies each, and four copies of the NERSC sample lat..400; CPU, one OpenMP thread.
# Run from the repository root after building (build/src/app/gaugefix); writes into $OUT.
set -euo pipefail
g=$PWD/build/src/app/gaugefix
OUT=${OUT:-$(mktemp -d)}
cd "$OUT"
export OMP_NUM_THREADS=1
"$g" generate --lattice 4,4,4,8 --beta 5.7 --thermalisation 2 --configs 3 --quiet -o e > /dev/null
mkdir -p out
"$g" fix --input 'e.000*' --output 'out/{stem}.{index}.fixed' --transform-output 'out/{name}.g' \
  --summary 'out/{name}.yaml' --tolerance 1e-10 --quiet --copies 3 --tuning off > batch.log
"$g" fix --input "$GAUGEFIX_SAMPLES/lat..400" --copies 4 --seed 1 --tolerance 1e-11 --check-interval 20 \
  --summary lat400.yaml --output lat400.fixed --quiet --tuning off > lat400.log
