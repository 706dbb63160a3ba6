#!/usr/bin/env bash
# The CPU runs behind the plaquette table of docs/generator.md: gaugefix generate from a cold
# start, plaquette after every sweep (1 heatbath + 2 overrelaxation sweeps), 18-real storage,
# double precision. One log per run, headed by date, machine and command; analyse.py reads them.
#   GAUGEFIX=build/src/app/gaugefix bash run.sh
set -uo pipefail
gaugefix=${GAUGEFIX:-gaugefix}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
run() { # name, group, lattice, beta, sweeps
  local log="$here/$1.log"
  local cmd=(generate --group "$2" --lattice "$3" --beta "$4" --start cold --thermalisation "$5"
             --configs 1 --or-sweeps 2 --storage 18 --seed 11 -o "$work/$1")
  {
    echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "# machine: $(hostname), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), OMP_NUM_THREADS=$OMP_NUM_THREADS"
    echo "# command: gaugefix ${cmd[*]}"
  } > "$log"
  "$gaugefix" "${cmd[@]}" >> "$log" 2>&1
}
run su3_b0.5_L4 su3 4,4,4,4 0.5 1100
run su3_b5.7_L4 su3 4,4,4,4 5.7 1100
run su3_b6.0_L4 su3 4,4,4,4 6.0 1100
run su2_b2.3_L4 su2 4,4,4,4 2.3 1100
run su2_b2.3_L8 su2 8,8,8,8 2.3 500
run su3_b5.7_L8 su3 8,8,8,8 5.7 500
run su3_b6.0_L8 su3 8,8,8,8 6.0 500
