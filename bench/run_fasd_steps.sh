#!/usr/bin/env bash
# run_fasd_steps.sh: FASD's step choice on the CPU: a thermalised beta = 6.0 SU(3) field
# (L^4, L = $L, default 16; hot start, $THERM sweeps of 1 heatbath + 4 overrelaxation, default
# 60), fixed to Landau gauge, theta < 2.5e-13, in double, by FASD with the automatic step, by
# FASD with Davies' fixed steps 0.08 and 0.12 (QUDA's scheme), and by FACG; with BEFORE=<an
# earlier gaugefix> also by that binary's automatic FASD. Iterations and gradients are
# independent of the machine's load; the seconds are not (one thread each, run one after the
# other). Usage: BIN=build/src/app/gaugefix [BEFORE=...] OUT=dir bash bench/run_fasd_steps.sh
set -uo pipefail
bin=${BIN:-build/src/app/gaugefix}
out=${OUT:-out}
L=${L:-16}
mkdir -p "$out"
export OMP_NUM_THREADS=1
{ echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "# host: $(hostname), $(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2)"
  echo "# gaugefix: $("$bin" --version | head -n 2 | tr '\n' ' ')"; } > "$out/README.txt"
"$bin" generate -q --lattice "$L,$L,$L,$L" --beta 6.0 --start hot --thermalisation "${THERM:-60}" \
  --or-sweeps 4 --seed 11 -o "$out/b6" > "$out/generate.log" 2>&1 || exit 1
run() { # name, binary, options of fix
  local name=$1 b=$2
  shift 2
  echo "# command: $b fix --input b6.0000 --tolerance 2.5e-13 --max-iterations 20000 $*" > "$out/$name.log"
  "$b" fix -q --input "$out/b6.0000" --tolerance 2.5e-13 --check-interval 1000 \
    --max-iterations 20000 "$@" >> "$out/$name.log" 2>&1
  printf '| %s | %s | %s | %s |\n' "$name" \
    "$(grep -o 'after [0-9]* iterations' "$out/$name.log" | cut -d' ' -f2)" \
    "$(grep -o '[0-9]* gradients' "$out/$name.log" | cut -d' ' -f1)" \
    "$(grep -o 'F = [0-9.]*' "$out/$name.log" | cut -d' ' -f3)" >> "$out/table.md"
}
{ echo "| run | iterations | gradients | F |"; echo "|---|---|---|---|"; } > "$out/table.md"
run fasd_auto "$bin" --algorithm fasd
[ -n "${BEFORE:-}" ] && run fasd_auto_before "$BEFORE" --algorithm fasd
run fasd_0.08 "$bin" --algorithm fasd --alpha 0.08
run fasd_0.12 "$bin" --algorithm fasd --alpha 0.12
run facg "$bin" --algorithm facg
rm -f "$out"/b6.0000 "$out"/b6.lock
cat "$out/table.md"
