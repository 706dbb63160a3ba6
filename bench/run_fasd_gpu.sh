#!/usr/bin/env bash
# run_fasd_gpu.sh: FASD's step choice on one GPU (binaries packed as for run_tuning_suite.sh,
# bench/README.md): a thermalised beta = 6.0 SU(3) field of L^4 (L = $L, default 32; hot start,
# THERM sweeps of 1 heatbath + 4 overrelaxation, default 200, mixed precision), fixed to Landau
# gauge, theta < 2.5e-13 (our theta is a quarter of QUDA's), in double, by FASD with the
# automatic step and with the fixed steps ALPHAS (default "0.05 0.08 0.1": Davies' and QUDA's
# scheme, 0.08 its default), and by FACG. Writes $OUT/table.md (iterations, gradients, seconds,
# F, theta from each summary) and $OUT/logs.tar.gz.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
L=${L:-32}
table="$out/table.md"
field() { grep -m 1 "^ *$2:" "$1" | sed "s/^ *$2: *//"; }
"$bin/gaugefix" generate --backend cuda --precision mixed --lattice "$L,$L,$L,$L" --beta 6.0 \
  --start hot --thermalisation "${THERM:-200}" --or-sweeps 4 --seed 11 --measure-interval 50 \
  --quiet -o "$out/b6" > "$out/generate.log" 2>&1 || { cat "$out/generate.log"; exit 1; }
{ echo "## FASD and FACG on one GPU, ${L}⁴ beta = 6.0, double, theta < 2.5e-13"
  echo "| run | iterations | gradients | seconds | F | theta |"
  echo "|---|---|---|---|---|---|"; } > "$table"
run() { # name, options of gaugefix fix
  local name=$1
  shift
  local s="$out/$name.yaml"
  echo "# command: gaugefix fix --backend cuda --input b6.0000 --precision double --tolerance 2.5e-13 --check-interval 100 --max-iterations 20000 $*" > "$out/$name.log"
  timeout 120 "$bin/gaugefix" fix --backend cuda --input "$out/b6.0000" --precision double \
    --tolerance 2.5e-13 --check-interval 100 --max-iterations 20000 --summary "$s" "$@" \
    >> "$out/$name.log" 2>&1
  echo "$name rc=$?" >> "$out/device.txt"
  echo "| $name | $(field "$s" iterations) | $(field "$s" gradients) | $(field "$s" seconds) | $(field "$s" functional) | $(field "$s" theta) |" >> "$table"
}
run fasd_auto --algorithm fasd
for a in ${ALPHAS:-0.05 0.08 0.1}; do
  run "fasd_$a" --algorithm fasd --alpha "$a"
done
run facg --algorithm facg
rm -f "$out/b6.0000"
cp "$table" "$dest/table.md"
tar -C "$out" -czf "$dest/logs.tar.gz" .
cat "$out/device.txt" "$table"
