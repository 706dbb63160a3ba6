#!/usr/bin/env bash
# run_fourier_cpu.sh: iterations and seconds to theta < 1e-13 (double, Landau gauge) of
# Fourier-accelerated steepest descent (fasd) and conjugate gradient (facg) against
# overrelaxation (omega = 1.7), on thermalised beta = 6.0 SU(3) fields of 8^4 and 16^4 made
# by gaugefix generate (cold start, THERM sweeps of 1 heatbath + 4 overrelaxation), on this
# machine's CPU (OMP_NUM_THREADS, default all cores). Also Coulomb gauge with facg and
# overrelaxation, and facg in single / mixed precision to 1e-11 (tolerance scaled as in the
# issue). Logs (machine, command, full output, summaries) go to $OUT (default
# bench/results/<date>-cpu-fourier); the fields to $WORK (kept, default $OUT/fields).
# Usage: bench/run_fourier_cpu.sh [SIZES...]   (default: 8 16)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
g=${GAUGEFIX:-$root/build/src/app/gaugefix}
out=${OUT:-$root/bench/results/$(date -u +%Y-%m-%d)-cpu-fourier}
work=${WORK:-$out/fields}
sizes=("${@:-8 16}")
[ $# -eq 0 ] && sizes=(8 16)
mkdir -p "$out" "$work"
{
  date -u
  uname -srm
  lscpu | grep -E '^(CPU\(s\)|Model name)'
  echo "OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}"
  git -C "$root" rev-parse --short HEAD
} > "$out/machine.txt"

run() { # name, then the options of gaugefix fix
  local name=$1
  shift
  echo "# command: gaugefix fix $*" > "$out/$name.log"
  "$g" fix "$@" --summary "$out/$name.yaml" >> "$out/$name.log" 2>&1
  echo "$name rc=$? $(tail -n 1 "$out/$name.log")" | tee -a "$out/table.txt"
}

for L in "${sizes[@]}"; do
  therm=${THERM:-200}
  field=$work/b6.0_L$L
  if [ ! -e "$field.0000" ]; then
    echo "# command: gaugefix generate --lattice $L,$L,$L,$L --beta 6.0 --start cold --thermalisation $therm --or-sweeps 4 --configs 1 --seed 11 --measure-interval 20" \
      > "$out/generate_L$L.log"
    "$g" generate --lattice "$L,$L,$L,$L" --beta 6.0 --start cold --thermalisation "$therm" --or-sweeps 4 \
      --configs 1 --seed 11 --measure-interval 20 -o "$field" >> "$out/generate_L$L.log" 2>&1
  fi
  common=(--input "$field.0000" --tolerance 1e-13 --check-interval 50 --max-iterations 100000)
  run "L${L}_landau_facg" "${common[@]}" --algorithm facg
  run "L${L}_landau_facg_storage18" "${common[@]}" --algorithm facg --storage 18
  run "L${L}_landau_fasd" "${common[@]}" --algorithm fasd
  run "L${L}_landau_fasd_alpha0.08" "${common[@]}" --algorithm fasd --alpha 0.08
  run "L${L}_coulomb_facg" "${common[@]}" --algorithm facg --gauge coulomb
  for p in single mixed; do
    run "L${L}_landau_facg_$p" --input "$field.0000" --tolerance 1e-11 --check-interval 50 \
      --max-iterations 100000 --algorithm facg --precision "$p"
  done
  if [ -z "${SKIP_OR:-}" ]; then
    run "L${L}_landau_or" "${common[@]}" --algorithm overrelaxation --omega 1.7
    run "L${L}_coulomb_or" "${common[@]}" --algorithm overrelaxation --omega 1.7 --gauge coulomb
  fi
done
