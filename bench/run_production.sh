#!/usr/bin/env bash
# run_production.sh: a production-scale Landau fix (issue 25: 96^3x192 and 128^4 on 4 GPUs) in
# steps that each fit one call of a limited length, on a node whose files persist between the
# calls (binaries packed as for run_gpu_ranks.sh, bench/README.md). Run it again with the same
# settings until it prints "done":
#   generate  (once) a thermalised beta = 6.0 field of LATTICE (default 128,128,128,128) by the
#             generator on every GPU (mixed precision, hot start, THERM sweeps of 1 heatbath + 4
#             overrelaxation, default 100, seed 11), NERSC, into FIELD_DIR (default
#             /dev/shm/gaugefix_production); skipped when the field is there;
#   fix       FACG in double to theta < 2.5e-13 on every GPU (PRECONDITIONER: the
#             --preconditioner-precision, default auto), the fixed field written to
#             OUTPUT_DIR/fixed (default FIELD_DIR; NERSC, --output-bits 32), with --checkpoint-interval
#             CHECKPOINT_INTERVAL where set (unset: a checkpoint only at the signal; 0 would save
#             one after every step, docs/checkpoints.md); SIGTERM comes LIMIT seconds
#             (default 450) after this script started, so the fix saves its checkpoint and
#             stops (mpirun waits up to 110 s for it, docs/checkpoints.md): LIMIT plus the
#             checkpoint's write (128^4: 144 GB, below) must end before the call's own limit
#             (600 s), or the save is cut and the previous checkpoint stays; the next run
#             resumes from the checkpoint, bitwise as if never stopped, until it converges.
# STEP=generate stops after the generation, STEP=fix starts with the fix (the field must be
# there); default both. A checkpoint of 128^4 in double (the links with their halos, Z and D:
# 36 GB a rank, 144 GB on 4 GPUs) and the fixed field (77 GB) need room beside the 155 GB input.
# Each run writes its logs and the summary to $OUT (fix_<n>.log numbered by the logs already
# there, fix.yaml; the device tool gives every call an empty $OUT) and appends to
# $OUT/status.txt the step reached. The field's files stay in FIELD_DIR; CLEAN=1 removes them
# after a converged fix.
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
limit=${LIMIT:-450}
lattice=${LATTICE:-128,128,128,128}
dir=${FIELD_DIR:-/dev/shm/gaugefix_production}
output_dir=${OUTPUT_DIR:-$dir}
step=${STEP:-both}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
mkdir -p "$dir" "$output_dir"
mpi=(mpirun --allow-run-as-root --bind-to none --mca odls_base_sigkill_timeout 110 -np "$gpus"
  -x OMP_NUM_THREADS=$(($(nproc) / gpus)) -x LD_LIBRARY_PATH -x GAUGEFIX_TUNE_CACHE)
status() { echo "$*" | tee -a "$dest/status.txt"; }
field="$dir/b6.0000"
if [ ! -f "$field" ] && [ "$step" != fix ]; then
  timeout -s TERM "$limit" "${mpi[@]}" "$bin/gaugefix" generate --backend cuda --precision mixed \
    --lattice "$lattice" --beta 6.0 --start hot --thermalisation "${THERM:-100}" --or-sweeps 4 \
    --measure-interval 10 --seed 11 -o "$dir/b6" >> "$dest/generate.log" 2>&1
  rc=$?
  [ -f "$field" ] || { status "generate: rc=$rc, no field (the generator starts over in the next run: raise LIMIT)"; exit 1; }
  status "generate: done in $SECONDS s ($(grep -m 1 -o '[0-9.]* sweeps/s' "$dest/generate.log"))"
fi
[ "$step" != generate ] || exit 0
[ -f "$field" ] || { status "fix: no field $field (run STEP=generate first)"; exit 1; }
left=$((limit - SECONDS))
[ "$left" -gt 60 ] || { status "fix: not started, $left s left (run again)"; exit 0; }
n=$(ls "$dest"/fix_*.log 2>/dev/null | wc -l)
log="$dest/fix_$n.log"
checkpoints=()
[ -z "${CHECKPOINT_INTERVAL:-}" ] || checkpoints=(--checkpoint-interval "$CHECKPOINT_INTERVAL")
timeout -s TERM "$left" "${mpi[@]}" "$bin/gaugefix" fix --backend cuda --input "$field" \
  --algorithm facg --precision double --tolerance 2.5e-13 --check-interval 100 \
  --reproject-interval 100 --max-iterations 20000 "${checkpoints[@]}" \
  --preconditioner-precision "${PRECONDITIONER:-auto}" -o "$output_dir/fixed" --output-bits 32 --summary "$dest/fix.yaml" > "$log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
  status "fix: done, $(grep -m 1 'converged:' "$log")"
  [ "${CLEAN:-0}" = 1 ] && rm -rf "$dir" "$output_dir"
  echo "done"
else
  status "fix: rc=$rc, $(grep -m 1 'stopped at checkpoint' "$log" || tail -n 1 "$log") (run again to continue)"
fi
tar -C "$out" -czf "$dest/logs.tar.gz" . 2>/dev/null
