#!/usr/bin/env bash
# run_gpu_ranks.sh: one session on a node with 4 (or 8) GPUs (binaries packed as for
# run_tuning_suite.sh, bench/README.md): the multi-GPU checks and the production-scale tables.
#   tests     (TESTS=1, default) the GPU tests on one GPU; the multi-rank unit tests
#             (*Decomposition*, FourierRanks.*, TuningRanks.*, *GaugeFileRanks*), the ghost
#             CG's multi-rank GPU tests (GhostCgRanksOnGpu.*: peer halo, one GPU's G(p)) and every
#             subcommand with the default log (tests/cli_ranks_subcommands.sh, backend cuda)
#             on 2, 4 (and 8) GPUs (SHARE_GPUS=1: also rank counts up to RANKS_PER_GPU, default
#             2, times the GPUs, ranks sharing a GPU), each run limited so that a hang fails fast
#             (the multi-rank tests' lattices have L_t = 8 and a rank needs 2 time slices, so their
#             steps on 8 ranks, 8 GPUs or ranks sharing 4, fail with that refusal); GPU_FILTER and
#             RANKS_FILTER (gtest filters) narrow the one-GPU and the multi-rank tests,
#             SUBCOMMANDS=0 leaves out the subcommands; the checkpoint tests
#             (tests/cli_checkpoint.sh, backend cuda: every family on one GPU, and stopped and
#             resumed on 2 GPUs; the binary hold_temporary packed beside gaugefix);
#   generator (GEN=1) weak scaling of a sweep (1 heatbath + 4 overrelaxation) with
#             GEN_LOCAL (default 64,64,64,32) sites per GPU on 1, 2, 4 (and 8) GPUs, mixed and
#             double precision, GEN_SWEEPS sweeps (default 20): sweeps/s and t_1 / t_N;
#   facg      (FACG=1) a thermalised beta = 6.0 field of FACG_LATTICE (default 64,64,64,128)
#             made by the generator on every GPU of the node (THERM sweeps, default 100, mixed;
#             GEN_FIELD_LIMIT, default 240, the seconds it may take),
#             then FACG in double to theta < 2.5e-13 on 1, 2, 4 (and 8) GPUs: seconds,
#             iterations, transposing, the efficiency t_1 / (N t_N), and F, theta and
#             iterations equal on every count; PRECOND (single or double) passes
#             --preconditioner-precision to these fixes (default: none, the fix's own);
#             the field lives in FIELD_DIR (default /dev/shm: the node's memory is large);
#             FACG_STAGED=1 adds STAGED_ITERATIONS (default 100) iterations of the fix on
#             every GPU of the node with --exchange staged (the transposes through host memory
#             and MPI, as between nodes): seconds per iteration against the peer path's;
#             FACG_GPUS (default "1 2 4 8") the GPU counts of the fixes, FACG_LIMIT (default
#             200) the seconds each may take; each row gives the device memory per site of
#             rank 0 as the fix logs it (the fix's arrays, and all in use on the device);
#             BASELINE=TARBALL (a gaugefix binary of another commit, packed as gaugefix in
#             a .tar.xz) runs the same fixes with it on 1 and on every GPU of the node, on the
#             same field, for a comparison within one run.
#   memory    (MEMORY_LATTICE=Lx,Ly,Lz,Lt) a hot field of that lattice fixed in memory by FACG in
#             double on every GPU for MEMORY_ITERATIONS (default 20) iterations: whether it fits,
#             the device memory per site the fix logs, and seconds per iteration;
# Writes $OUT/tables.md and $OUT/logs.tar.gz; BUDGET (default 540 s) bounds the whole run. A
# failed step is reported as FAILED and the script exits 1.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
budget=${BUDGET:-540}
failed=()
tables="$out/tables.md"
: > "$tables"
mpi_base="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x GAUGEFIX_TUNE_CACHE -x GAUGEFIX_TEST_DATA"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
echo "# $gpus GPUs; $(nproc) cores" >> "$out/device.txt"

allowed() { # seconds the next step may take: at most $1, or what is left of BUDGET
  local left=$((budget - SECONDS))
  [ $left -lt 10 ] && left=0
  echo $((left < $1 ? left : $1))
}
step() { # name, limit, log, command...: runs the command, records rc, FAILED where rc != 0
  local name=$1 t
  t=$(allowed "$2")
  local log=$3
  shift 3
  echo "# command: $*" > "$log"
  [ "$t" -eq 0 ] && { failed+=("$name (skipped: BUDGET spent)"); return 1; }
  timeout "$t" "$@" >> "$log" 2>&1
  local rc=$?
  echo "$name rc=$rc" | tee -a "$out/device.txt"
  [ $rc -eq 0 ] || { failed+=("$name"); echo "FAILED: $name"; tail -n 5 "$log"; }
  return $rc
}
mpi() { echo "$mpi_base -np $1 -x OMP_NUM_THREADS=$(($(nproc) / $1))"; } # mpirun for $1 ranks
field() { grep -m 1 "^ *$2:" "$1" | sed "s/^ *$2: *//"; } # a summary's first value of a key

if [ "${TESTS:-1}" = 1 ]; then
  step "gpu_tests" 240 "$out/gpu_tests.log" "$bin/gpu_tests" --gtest_brief=1 --gtest_filter="${GPU_FILTER:-*}"
  for n in 2 4 8; do
    where="$n GPUs"
    if [ "$gpus" -lt $n ]; then # SHARE_GPUS=1: up to RANKS_PER_GPU a GPU (node rank modulo GPUs)
      [ "${SHARE_GPUS:-0}" = 1 ] && [ $((${RANKS_PER_GPU:-2} * gpus)) -ge $n ] || continue
      where="$n ranks on $gpus GPUs"
    fi
    step "multi-rank unit tests on $where" 180 "$out/unit_tests_${n}gpu.log" $(mpi $n) "$bin/unit_tests" \
      --gtest_brief=1 --gtest_filter="${RANKS_FILTER:-*Decomposition*:FourierRanks.*:TuningRanks.*:*GaugeFileRanks*}"
    step "ghost CG's tests on $where" 120 "$out/ghost_cg_${n}gpu.log" $(mpi $n) "$bin/gpu_tests" \
      --gtest_brief=1 --gtest_filter='GhostCgRanksOnGpu.*'
    [ "${SUBCOMMANDS:-1}" = 1 ] || continue
    # mpirun as the test calls it: one rank per GPU, the library path and the tune cache passed on
    printf '#!/bin/sh\nexec %s "$@"\n' "$mpi_base" > "$out/mpirun"
    chmod +x "$out/mpirun"
    step "every subcommand on $where" 240 "$out/subcommands_${n}gpu.log" \
      bash tests/cli_ranks_subcommands.sh "$bin/gaugefix" "$out/mpirun" $n cuda
  done
  if [ -x "$bin/hold_temporary" ]; then
    for c in or_anneal facg fasd coulomb_mixed copies sigterm; do
      CHECKPOINT_BACKEND=cuda step "checkpoint $c on one GPU" 240 "$out/checkpoint_$c.log" \
        bash tests/cli_checkpoint.sh "$bin/gaugefix" "$bin/hold_temporary" "$PWD" $c
    done
    [ "$gpus" -ge 2 ] && CHECKPOINT_BACKEND=cuda step "checkpoint on 2 GPUs" 240 \
      "$out/checkpoint_ranks.log" bash tests/cli_checkpoint.sh "$bin/gaugefix" "$bin/hold_temporary" \
      "$PWD" ranks "$out/mpirun"
  fi
fi

if [ "${GEN:-1}" = 1 ]; then
  IFS=, read -r gx gy gz gt <<< "${GEN_LOCAL:-64,64,64,32}"
  sweeps=${GEN_SWEEPS:-20}
  { echo "## Generator, weak scaling: ${gx}x${gy}x${gz}x${gt} sites per GPU, 1 heatbath + 4 overrelaxation a sweep, $sweeps sweeps"
    echo "| precision | GPUs | lattice | sweeps/s (updates only) | efficiency t_1 / t_N |"
    echo "|---|---|---|---|---|"; } >> "$tables"
  for p in mixed double; do
    rate1=
    for n in 1 2 4 8; do
      [ "$gpus" -ge $n ] || continue
      lattice=$gx,$gy,$gz,$((gt * n))
      log="$out/generator_${p}_${n}gpu.log"
      step "generator $p on $n GPUs" 120 "$log" $(mpi $n) "$bin/gaugefix" generate --backend cuda \
        --precision $p --lattice $lattice --beta 6.0 --start hot --thermalisation $sweeps \
        --or-sweeps 4 --measure-interval 10 --seed 3 -o "$out/gen_${p}_$n" || continue
      rate=$(grep -o '[0-9.]* sweeps/s' "$log" | tail -n 1 | cut -d' ' -f1)
      [ -z "$rate1" ] && rate1=$rate
      eff=$(awk -v a="$rate" -v b="$rate1" 'BEGIN { printf "%.3f", a / b }')
      echo "| $p | $n | ${lattice//,/×} | $rate | $eff |" >> "$tables"
      rm -f "$out/gen_${p}_$n".0*
    done
  done
fi

if [ -n "${MEMORY_LATTICE:-}" ]; then # exit 3 (not converged) is the expected end
  its=${MEMORY_ITERATIONS:-20}
  log="$out/memory_${gpus}gpu.log"
  s="$out/memory_${gpus}gpu.yaml"
  echo "# command: $(mpi $gpus) gaugefix fix --backend cuda --generate hot --lattice $MEMORY_LATTICE --algorithm facg --precision double --max-iterations $its" > "$log"
  timeout "$(allowed 200)" $(mpi $gpus) "$bin/gaugefix" fix --backend cuda --generate hot \
    --lattice "$MEMORY_LATTICE" --algorithm facg --precision double --tolerance 2.5e-13 \
    --max-iterations "$its" --summary "$s" >> "$log" 2>&1
  rc=$?
  echo "memory ${MEMORY_LATTICE//,/x} on $gpus GPUs rc=$rc" | tee -a "$out/device.txt"
  if [ $rc -eq 3 ] && [ -s "$s" ]; then
    { echo "## ${MEMORY_LATTICE//,/×} (hot start) on $gpus GPUs: FACG double, $its iterations"
      echo "| GPUs | seconds | seconds per iteration | bytes a site: fix's arrays, device in use (rank 0) |"
      echo "|---|---|---|---|"
      echo "| $gpus | $(field "$s" seconds) | $(awk -v a="$(field "$s" seconds)" -v n="$(field "$s" iterations)" 'BEGIN { printf "%.4f", a / n }') | $(grep -m 1 -o '[0-9]* bytes a site; device memory in use [0-9.]* GB, [0-9]* bytes a site' "$log" | awk '{ print $1 ", " $(NF - 3) }') |"; } >> "$tables"
  else
    failed+=("memory ${MEMORY_LATTICE} on $gpus GPUs (rc=$rc)")
  fi
fi

if [ "${FACG:-1}" = 1 ]; then
  lattice=${FACG_LATTICE:-64,64,64,128}
  label=${lattice//,/×}
  precond=()
  [ -n "${PRECOND:-}" ] && precond=(--preconditioner-precision "$PRECOND") && label="$label, preconditioner $PRECOND"
  n_gen=$gpus
  field_dir=$(mktemp -d -p "${FIELD_DIR:-/dev/shm}")
  cfg="$field_dir/b6.0000"
  if step "generate $label on $n_gen GPUs" "${GEN_FIELD_LIMIT:-240}" "$out/generate_facg_field.log" $(mpi $n_gen) "$bin/gaugefix" \
    generate --backend cuda --precision mixed --lattice "$lattice" --beta 6.0 --start hot \
    --thermalisation "${THERM:-100}" --or-sweeps 4 --measure-interval 10 --seed 11 -o "$field_dir/b6"; then
    { echo; echo "## FACG, $label, double, theta < 2.5e-13 (field: $n_gen-GPU generator, ${THERM:-100} sweeps)"
      echo "| GPUs | iterations | seconds | F | theta | transposing s | transpose path | efficiency t_1 / (N t_N) | bytes a site: fix's arrays, device in use |"
      echo "|---|---|---|---|---|---|---|---|---|"; } >> "$tables"
    one=
    for run in ${FACG_GPUS:-1 2 4 8}; do
      n=$run
      [ "$gpus" -ge $n ] || continue
      s="$out/facg_${run}gpu.yaml"
      step "facg on $n GPUs" "${FACG_LIMIT:-200}" "$out/facg_${run}gpu.log" $(mpi $n) "$bin/gaugefix" fix --backend cuda \
        --input "$cfg" --algorithm facg --precision double --tolerance 2.5e-13 --check-interval 100 \
        --reproject-interval 100 --max-iterations 20000 "${precond[@]}" --summary "$s" || continue
      [ -z "$one" ] && one=$s
      eff=$(awk -v a="$(field "$one" seconds)" -v b="$(field "$s" seconds)" -v n=$n 'BEGIN { printf "%.3f", a / (n * b) }')
      mem=$(grep -m 1 -o '[0-9]* bytes a site; device memory in use [0-9.]* GB, [0-9]* bytes a site' "$out/facg_${run}gpu.log" |
        awk '{ print $1 ", " $(NF - 3) }')
      echo "| $run | $(field "$s" iterations) | $(field "$s" seconds) | $(field "$s" functional) | $(field "$s" theta) | $(field "$s" transpose_seconds) | $(field "$s" transpose_path) | $eff | $mem |" >> "$tables"
      for k in functional theta iterations; do
        [ "$(field "$one" $k)" = "$(field "$s" $k)" ] || failed+=("facg on $n GPUs: $k differs from one GPU's")
      done
    done
    if [ "${FACG_STAGED:-0}" = 1 ]; then # a rate: the fix stops unconverged (exit 3) by design
      its=${STAGED_ITERATIONS:-100}
      log="$out/facg_${gpus}gpu_staged.log"
      s="$out/facg_${gpus}gpu_staged.yaml"
      echo "# command: $(mpi $gpus) gaugefix fix ... --exchange staged --max-iterations $its" > "$log"
      timeout "$(allowed 200)" $(mpi $gpus) "$bin/gaugefix" fix --backend cuda --input "$cfg" \
        --algorithm facg --precision double --tolerance 2.5e-13 --max-iterations "$its" \
        --exchange staged "${precond[@]}" --summary "$s" >> "$log" 2>&1
      rc=$?
      echo "facg staged on $gpus GPUs rc=$rc" | tee -a "$out/device.txt"
      if [ $rc -eq 3 ] && [ -s "$s" ]; then
        { echo; echo "## FACG on $gpus GPUs through host memory (--exchange staged), $its iterations"
          echo "| GPUs | iterations | seconds | seconds per iteration | transposing s | transpose path |"
          echo "|---|---|---|---|---|---|"
          echo "| $gpus | $(field "$s" iterations) | $(field "$s" seconds) | $(awk -v a="$(field "$s" seconds)" -v n="$(field "$s" iterations)" 'BEGIN { printf "%.4f", a / n }') | $(field "$s" transpose_seconds) | $(field "$s" transpose_path) |"; } >> "$tables"
      else
        failed+=("facg staged on $gpus GPUs (rc=$rc)")
      fi
    fi
  fi
  if [ -n "${BASELINE:-}" ] && [ -f "$cfg" ]; then
    base=$(mktemp -d)
    tar -xJf "$BASELINE" -C "$base"
    { echo; echo "## The same fixes with the baseline binary ($BASELINE)"
      echo "| GPUs | iterations | seconds | F | theta | transposing s | transpose path |"
      echo "|---|---|---|---|---|---|---|"; } >> "$tables"
    for n in 1 $gpus; do
      s="$out/baseline_facg_${n}gpu.yaml"
      GAUGEFIX_TUNE_CACHE=$out/tunecache_baseline step "baseline facg on $n GPUs" 200 "$out/baseline_facg_${n}gpu.log" $(mpi $n) "$base/gaugefix" fix \
        --backend cuda --input "$cfg" --algorithm facg --precision double --tolerance 2.5e-13 \
        --check-interval 100 --reproject-interval 100 --max-iterations 20000 --summary "$s" || continue
      echo "| $n | $(field "$s" iterations) | $(field "$s" seconds) | $(field "$s" functional) | $(field "$s" theta) | $(field "$s" transpose_seconds) | $(field "$s" transpose_path) |" >> "$tables"
    done
    rm -rf "$base"
  fi
  rm -rf "$field_dir"
fi

cp "$tables" "$dest/tables.md"
tar -C "$out" --exclude='gen_*' -czf "$dest/logs.tar.gz" .
cat "$out/device.txt" "$tables"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "every step passed"
