#!/usr/bin/env bash
# run_fourier_gpu.sh: issue 12 on one GPU: iterations and seconds to theta < 2.5e-13 (double,
# Landau gauge; our theta is a quarter of QUDA's) of Fourier-accelerated conjugate gradient
# (facg) and steepest descent (fasd, automatic step) against overrelaxation (omega = 1.7), and
# facg in single and mixed precision to 2.5e-11, on thermalised beta = 6.0 SU(3) fields made by
# `gaugefix generate` (hot start, THERM sweeps of 1 heatbath + 4 overrelaxation, mixed
# precision). Writes $OUT/table.md (one row per run: iterations, seconds, F, theta, converged,
# gradients, seconds preconditioning and, of them, transposing, and the transposes' path, from
# each summary) and $OUT/logs.tar.gz (every command, output and summary; device.txt).
# Environment: SIZES (default "32 48"; an entry L is an L^4 lattice, Lx,Ly,Lz,Lt any other,
# e.g. 64,64,64,128), ONLY (default: every run; "facg": FACG in double alone, e.g. for strong
# scaling), THERM (default 200), LIMIT (seconds per run, default 240), BUDGET (seconds for
# the whole script, default 450: a run is cut at the budget and the ones after it are
# skipped, so that the logs always come back), RANKS (default 1; 2 or more first runs the
# FourierRanks.*OnGpu tests under mpirun, one GPU per rank, then adds facg in double on RANKS
# GPUs to every lattice, its F, theta and iterations against one GPU's, and its
# strong-scaling efficiency t_1 / (RANKS t_RANKS) to table.md), PRECOND (default auto: the
# fix's own; a list such as "double single") the --preconditioner-precision of FACG in double:
# its runs (one GPU, and RANKS GPUs against one GPU of the same PRECOND) once per entry, named
# facg (auto) or facg_precond_<entry>.
# Binaries and libraries come packed as for run_tuning_suite.sh (.gpupack, bench/README.md).
# A failed step is reported as FAILED (in table.md and on stdout) with its log's last lines, the
# fixes of a lattice whose field could not be made are skipped, and the script exits 1.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
limit=${LIMIT:-240}
budget=${BUDGET:-450}
failed=()
table="$out/table.md"
{ echo "| lattice | run | precision | tolerance | iterations | seconds | F | theta | converged | gradients | preconditioning s | of it transposing s | transpose path |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"; } > "$table"

# Seconds the next step may take: LIMIT, or what is left of BUDGET (0: skip it).
allowed() {
  local left=$((budget - SECONDS))
  [ $left -lt 10 ] && left=0
  echo $((left < limit ? left : limit))
}

fail() { # name, log, reason
  failed+=("$1")
  echo "FAILED: $1 ($3); last lines of $(basename "$2"):" | tee -a "$out/device.txt"
  tail -n 5 "$2" | tee -a "$out/device.txt"
}

field() { # key of a summary file: its first value
  grep -m 1 "^ *$2:" "$1" | sed "s/^ *$2: *//"
}

row() { # label, run, precision, tolerance, summary: a line of table.md
  local s=$5
  echo "| $1 | $2 | $3 | $4 | $(field "$s" iterations) | $(field "$s" seconds) | $(field "$s" functional) | $(field "$s" theta) | $(field "$s" converged) | $(field "$s" gradients) | $(field "$s" precondition_seconds) | $(field "$s" transpose_seconds) | $(field "$s" transpose_path) |" >> "$table"
}

run_fix() { # lattice, name, precision, tolerance, then the options of gaugefix fix
  local L=$1 name=$2 prec=$3 tol=$4
  shift 4
  local log="$out/fix_${L}_$name.log" summary="$out/fix_${L}_$name.yaml"
  echo "# command: gaugefix fix $* --precision $prec --tolerance $tol --summary fix_${L}_$name.yaml" > "$log"
  local t=$(allowed)
  [ "$t" -eq 0 ] && { fail "fix $L $name" "$log" "skipped: BUDGET spent"; return 1; }
  timeout "$t" "$bin/gaugefix" fix "$@" --precision "$prec" --tolerance "$tol" --summary "$summary" >> "$log" 2>&1
  local rc=$?
  echo "fix $L $name rc=$rc" | tee -a "$out/device.txt"
  if [ $rc -ne 0 ] || [ ! -s "$summary" ]; then
    fail "fix $L $name" "$log" "rc=$rc; 124: over $t s, 3: not converged"
    echo "| $label | $name | $prec | $tol | FAILED (rc=$rc) | | | | | | | | |" >> "$table"
    return 1
  fi
  row "$label" "$name" "$prec" "$tol" "$summary"
}

ranks=${RANKS:-1}
if [ "$ranks" -gt 1 ]; then # the distributed transpose first: fixes on RANKS GPUs against one, bitwise
  threads=$(($(nproc) / ranks)) # the node's cores, shared by the ranks
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  where="$ranks GPUs"
  [ "$gpus" -lt "$ranks" ] && where="$ranks ranks on $gpus GPU(s)" # a check of the messages only
  mpi="mpirun --allow-run-as-root --bind-to none -np $ranks -x LD_LIBRARY_PATH -x GAUGEFIX_TUNE_CACHE -x OMP_NUM_THREADS=$threads"
  log="$out/fourier_ranks_tests.log"
  echo "# command: $mpi unit_tests --gtest_filter='FourierRanks.*OnGpu'" > "$log"
  timeout "$(allowed)" $mpi "$bin/unit_tests" --gtest_filter='FourierRanks.*OnGpu' >> "$log" 2>&1
  rc=$?
  echo "FourierRanks.*OnGpu on $ranks ranks rc=$rc" | tee -a "$out/device.txt"
  [ $rc -ne 0 ] && fail "FourierRanks.*OnGpu on $ranks ranks" "$log" "rc=$rc"
fi

for L in ${SIZES:-32 48}; do
  if [[ $L == *,* ]]; then
    lattice=$L label=${L//,/×}
    L=${L//,/x}
  else
    lattice=$L,$L,$L,$L label=${L}⁴
  fi
  gen="generate --backend cuda --precision mixed --lattice $lattice --beta 6.0 --start hot --thermalisation ${THERM:-200} --or-sweeps 4 --configs 1 --seed 11 --measure-interval 50 --quiet -o $out/b6_$L"
  echo "# command: gaugefix $gen" > "$out/generate_$L.log"
  t=$(allowed)
  rc=124
  [ "$t" -gt 0 ] && { timeout "$t" "$bin/gaugefix" $gen >> "$out/generate_$L.log" 2>&1; rc=$?; }
  echo "generate $L rc=$rc" | tee -a "$out/device.txt"
  cfg="$out/b6_$L.0000"
  if [ $rc -ne 0 ] || [ ! -s "$cfg" ]; then
    fail "generate $L" "$out/generate_$L.log" "rc=$rc; its fixes skipped"
    continue
  fi
  common="--backend cuda --input $cfg --check-interval 100 --reproject-interval 100"
  for pc in ${PRECOND:-auto}; do
    precond=() name=facg
    [ "$pc" = auto ] || { precond=(--preconditioner-precision "$pc"); name=facg_precond_$pc; }
    run_fix "$L" $name double 2.5e-13 $common --algorithm facg --max-iterations 20000 "${precond[@]}"
  done
  if [ "${ONLY:-}" != facg ]; then
    run_fix "$L" fasd double 2.5e-13 $common --algorithm fasd --max-iterations 20000
    run_fix "$L" or_1.7 double 2.5e-13 $common --algorithm overrelaxation --omega 1.7 --max-iterations 100000
    run_fix "$L" facg_single single 2.5e-11 $common --algorithm facg --max-iterations 20000
    run_fix "$L" facg_mixed mixed 2.5e-11 $common --algorithm facg --max-iterations 20000
  fi
  for pc in ${PRECOND:-auto}; do
    [ "$ranks" -gt 1 ] || break
    precond=() name=facg
    [ "$pc" = auto ] || { precond=(--preconditioner-precision "$pc"); name=facg_precond_$pc; }
    log="$out/fix_${L}_${name}_${ranks}ranks.log" summary="$out/fix_${L}_${name}_${ranks}ranks.yaml"
    echo "# command: $mpi gaugefix fix $common --algorithm facg ${precond[*]} --precision double --tolerance 2.5e-13" > "$log"
    t=$(allowed)
    rc=124
    [ "$t" -gt 0 ] && { timeout "$t" $mpi "$bin/gaugefix" fix $common --algorithm facg --max-iterations 20000 \
      "${precond[@]}" --precision double --tolerance 2.5e-13 --summary "$summary" >> "$log" 2>&1; rc=$?; }
    echo "fix $L $name on $ranks ranks rc=$rc" | tee -a "$out/device.txt"
    if [ $rc -ne 0 ] || [ ! -s "$summary" ]; then
      fail "fix $L $name on $ranks ranks" "$log" "rc=$rc"
    else
      row "$label" "$name, $where" double 2.5e-13 "$summary"
      one="$out/fix_${L}_${name}.yaml"
      if [ -s "$one" ]; then # against one GPU: the same numbers, and the efficiency
        if [ "$(field "$one" functional)" != "$(field "$summary" functional)" ] ||
           [ "$(field "$one" theta)" != "$(field "$summary" theta)" ] ||
           [ "$(field "$one" iterations)" != "$(field "$summary" iterations)" ]; then
          fail "$name on $ranks ranks equals 1 rank" "$summary" "F, theta or iterations differ from one GPU's"
        fi
        [ "$gpus" -ge "$ranks" ] && awk -v l="$label" -v r="$name" -v n="$ranks" -v t1="$(field "$one" seconds)" -v tn="$(field "$summary" seconds)" \
          'BEGIN { printf "strong scaling of %s on %s, 1 -> %d GPUs: %.3f s -> %.3f s, efficiency %.2f\n", r, l, n, t1, tn, t1 / (n * tn) }' |
          tee -a "$out/device.txt" >> "$out/scaling.txt"
      fi
    fi
  done
  rm -f "$cfg"
done

[ -s "$out/scaling.txt" ] && { echo; cat "$out/scaling.txt"; } >> "$table"
cp "$table" "$dest/table.md"
tar -C "$out" -czf "$dest/logs.tar.gz" .
cat "$table"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED steps: ${failed[*]}"
  exit 1
fi
echo "every step passed"
