#!/bin/bash
# cli_checkpoint.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE [MPIRUN]: checkpoints of a fix
# (app/checkpoint.h, docs/checkpoints.md). A fix stopped at a checkpoint and continued by the
# same command ends bitwise equal to the uninterrupted fix: the same output file (cmp), and
# the same converged, F, theta and iterations in the summary. Stops come from
# --stop-after-iterations (the path of a signal: a checkpoint, then the end by SIGTERM, exit
# status 143), from a real SIGTERM, or from SIGKILL after --checkpoint-interval 0.
# - or_anneal, stochastic, facg, fasd, mag, coulomb_mixed, single_storage8, copies: each
#   algorithm family, precision and storage (facg_single_preconditioner: FACG's Z in float, and
#   a checkpoint of another preconditioner precision refused)
#   stopped twice (annealing: once in the annealing, once in the overrelaxation), resumed;
# - sigterm: SIGTERM in the middle of a fix: a checkpoint, one line naming it and the command,
#   exit status 143; resumed;
# - after_schedule: a signal after the last sweep (--signal-before-output) waits for the
#   outputs: the field and the summary written as without it, no checkpoint and no temporary
#   file left, one line saying what finished, exit status 143;
# - interval: --checkpoint-interval 0 leaves the result unchanged and no checkpoint behind; a
#   run killed by SIGKILL continues from its last checkpoint;
# - refused: a checkpoint of another tolerance, input or lattice is refused (exit status 1,
#   the checkpoint and the field named) and left in place;
# - journal: a batch stopped inside its first configuration: the journal names the
#   checkpoint, the same command continues inside the configuration;
# - ranks (MPIRUN): on 2 ranks, stopped and resumed, bitwise the one-rank result; a 2-rank
#   checkpoint is refused on one rank; a real SIGTERM to both ranks: they save, resumed.
# With CHECKPOINT_BACKEND=cuda every fix runs on the GPU (meson tests gpu_checkpoint_*).
# Run by meson, one test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
mpirun=${5:-}
# CHECKPOINT_BACKEND=cuda: every fix on the GPU (the GPU suite); else the CPU
fix=("$g" fix --backend "${CHECKPOINT_BACKEND:-cpu}")

# equal A B: the files are equal, byte for byte, but for the header's dates (NERSC
# GAUGE_FIXING_DATE, CREATION_DATE: when each was written)
equal() { cmp -s <(grep -av '_DATE = ' "$1") <(grep -av '_DATE = ' "$2"); }

# result SUMMARY: the lines of the result (converged, F, theta, iterations)
result() { grep -E '^ *(converged|functional|theta|theta_max_slice|iterations):' "$1"; }

# stopped COMMAND...: the command stops at a checkpoint as at SIGTERM
stopped() {
  local status=0
  "$@" > "$d/stop.log" 2>&1 || status=$?
  [ "$status" -eq 143 ] || fail "exit status $status, expected 143 (SIGTERM): $(cat "$d/stop.log")"
  grep -q "stopped at checkpoint .*run the same command again" "$d/stop.log" ||
    fail "no checkpoint line: $(cat "$d/stop.log")"
}

# resumes NAME STOPS -- OPTIONS...: the fix of $d/cfg with OPTIONS, uninterrupted and stopped
# after each number of iterations in STOPS (a comma-separated list) and continued, end alike:
# the field, g(x) where OPTIONS write it to $d/NAME.g, and the summary's result. Both runs
# write under the same names (g(x) records the command line), the first one's moved aside.
resumes() {
  local name=$1 stops=$2
  shift 3
  local run=("${fix[@]}" -i "$d/cfg" "$@" -o "$d/$name" --summary "$d/$name.yaml")
  "${run[@]}" --quiet
  mv "$d/$name" "$d/$name.whole"
  mv "$d/$name.yaml" "$d/$name.whole.yaml"
  [ ! -e "$d/$name.g" ] || mv "$d/$name.g" "$d/$name.whole.g"
  local s
  for s in ${stops//,/ }; do
    stopped "${run[@]}" --stop-after-iterations "$s" --quiet
    [ -f "$d/$name.checkpoint" ] || fail "$name: no checkpoint after $s more iterations"
    absent "$d/$name"
  done
  "${run[@]}" --quiet > "$d/resume.log"
  grep -q "resuming from checkpoint $d/$name.checkpoint" "$d/resume.log" ||
    fail "$name: not resumed: $(cat "$d/resume.log")"
  equal "$d/$name.whole" "$d/$name" || fail "$name: the resumed output differs"
  [ ! -e "$d/$name.whole.g" ] || cmp "$d/$name.whole.g" "$d/$name.g" ||
    fail "$name: the resumed g(x) differs"
  [ "$(result "$d/$name.whole.yaml")" = "$(result "$d/$name.yaml")" ] ||
    fail "$name: results differ: $(result "$d/$name.whole.yaml") / $(result "$d/$name.yaml")"
  absent "$d/$name.checkpoint"
}

# a fix long enough to be signalled in the middle: annealing steps of 4 sweeps, reported every 10
# steps, then overrelaxation. 1000 steps on the CPU; on a GPU 30000 (one H200 sweeps the 4^4 field
# 84 000 times a second: 1000 steps ended within the 0.05 s in which `started` looks for them)
anneal_steps=1000
[ "${CHECKPOINT_BACKEND:-cpu}" = cuda ] && anneal_steps=30000
long=(--anneal-steps "$anneal_steps" --micro-steps 3 --check-interval 10 --tolerance 1e-13 --seed 3)

# started LOG COMMAND...: COMMAND in the background (pid in $pid), once it reported an
# annealing check
started() {
  local log=$1
  shift
  "$@" > "$log" 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1200); do grep -q " anneal " "$log" && return; sleep 0.05; done
  fail "no progress line: $(cat "$log")"
}

case $case in
or_anneal)
  # 20 annealing steps of 3 sweeps: the first stop is in the annealing, the second after it
  resumes or_anneal 30,40 -- --anneal-steps 20 --micro-steps 2 --algorithm overrelaxation \
    --check-interval 5 --seed 7
  ;;
stochastic) resumes stochastic 15,25 -- --algorithm stochastic --seed 11 ;;
facg) resumes facg 4,7 -- --algorithm facg --check-interval 3 ;;
fasd) resumes fasd 4,5 -- --algorithm fasd ;;
facg_single_preconditioner)
  # Z in the transform's float slices, saved as stored
  resumes facg_sp 4,7 -- --algorithm facg --check-interval 3 --preconditioner-precision single
  grep -q "preconditioner_precision: single" "$d/facg_sp.yaml" || fail "summary: $(cat "$d/facg_sp.yaml")"
  # a checkpoint of another preconditioner precision is refused
  stopped "${fix[@]}" -i "$d/cfg" --algorithm facg --preconditioner-precision single -o "$d/out" \
    --stop-after-iterations 5 --quiet
  expect 1 "checkpoint '$d/out.checkpoint'" "preconditioner-precision" "'single'" "'double'" -- \
    "${fix[@]}" -i "$d/cfg" --algorithm facg --preconditioner-precision double -o "$d/out" --quiet
  expect 1 "checkpoint '$d/out.checkpoint'" "preconditioner-precision" -- \
    "${fix[@]}" -i "$d/cfg" --algorithm facg -o "$d/out" --quiet
  ;;
mag) resumes mag 10,30 -- --gauge mag --tolerance 1e-10 ;;
coulomb_mixed)
  # the single-precision links and the g(x) the Coulomb engine keeps, saved as stored
  resumes coulomb_mixed 10,15 -- --gauge coulomb --precision mixed --tolerance 1e-6 \
    --transform-output "$d/coulomb_mixed.g"
  ;;
single_storage8)
  # single-precision links in 8 reals, saved as stored
  resumes single_storage8 10,30 -- --precision single --storage 8 --tolerance 1e-5
  ;;
copies)
  # three Gribov copies: stops in the first and in a later copy, the best copy so far kept
  resumes copies 8,150 -- --copies 3 --transform-output "$d/copies.g" --tolerance 1e-10
  ;;
sigterm)
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/whole" --summary "$d/whole.yaml" --quiet
  set -m
  started "$d/run.log" "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/part" --summary "$d/part.yaml"
  kill -TERM "$pid"
  status=0
  wait "$pid" || status=$?
  set +m
  [ "$status" -eq 143 ] || fail "exit status $status after SIGTERM: $(cat "$d/run.log")"
  [ "$(grep -c "stopped at checkpoint $d/part.checkpoint" "$d/run.log")" -eq 1 ] ||
    fail "not one line naming the checkpoint: $(cat "$d/run.log")"
  grep -q "run the same command again: .*fix .*-i $d/cfg" "$d/run.log" ||
    fail "the line does not give the command: $(cat "$d/run.log")"
  [ -f "$d/part.checkpoint" ] || fail "no checkpoint after SIGTERM"
  [ "$(temporaries)" -eq 0 ] || fail "temporary files left"
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/part" --summary "$d/part.yaml" --quiet
  equal "$d/whole" "$d/part" || fail "the output after SIGTERM and resume differs"
  [ "$(result "$d/whole.yaml")" = "$(result "$d/part.yaml")" ] || fail "the results differ"
  absent "$d/part.checkpoint"
  ;;
after_schedule)
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/whole" --summary "$d/whole.yaml" --quiet
  status=0
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/late" --summary "$d/late.yaml" \
    --signal-before-output > "$d/run.log" 2>&1 || status=$?
  [ "$status" -eq 143 ] || fail "exit status $status after the signal: $(cat "$d/run.log")"
  equal "$d/whole" "$d/late" || fail "the field written after the signal differs"
  [ "$(result "$d/whole.yaml")" = "$(result "$d/late.yaml")" ] || fail "the results differ"
  absent "$d/late.checkpoint"
  [ "$(temporaries)" -eq 0 ] || fail "temporary files left"
  grep -q "stopped by a signal after 1 of 1 configuration(s) to do (1 converged" "$d/run.log" ||
    fail "no line saying what finished: $(cat "$d/run.log")"
  ;;
interval)
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/whole" --quiet
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/every" --checkpoint-interval 0 --quiet
  equal "$d/whole" "$d/every" || fail "checkpoints after every sweep changed the result"
  absent "$d/every.checkpoint"
  # killed without a chance to save: the last checkpoint is continued
  started "$d/run.log" "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/part" --checkpoint-interval 0
  kill -KILL "$pid"
  wait "$pid" || true
  [ -f "$d/part.checkpoint" ] || fail "no checkpoint after SIGKILL: $(cat "$d/run.log")"
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/part" --checkpoint-interval 0 > "$d/resume.log"
  grep -q "resuming from checkpoint" "$d/resume.log" || fail "not resumed"
  equal "$d/whole" "$d/part" || fail "the output resumed after SIGKILL differs"
  ;;
refused)
  stopped "${fix[@]}" -i "$d/cfg" --tolerance 1e-12 -o "$d/out" --stop-after-iterations 10 --quiet
  cp "$d/out.checkpoint" "$d/checkpoint.orig"
  expect 1 "checkpoint '$d/out.checkpoint'" "tolerance" "1e-12" "1e-11" -- \
    "${fix[@]}" -i "$d/cfg" --tolerance 1e-11 -o "$d/out" --quiet
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 3 --configs 1 --quiet -o "$d/other"
  expect 1 "checkpoint '$d/out.checkpoint'" "input" "$d/other.0000" -- \
    "${fix[@]}" -i "$d/other.0000" --tolerance 1e-12 -o "$d/out" --quiet
  # the same name and size, other content: the digest differs
  cp "$d/other.0000" "$d/cfg"
  expect 1 "checkpoint '$d/out.checkpoint'" "input digest" -- \
    "${fix[@]}" -i "$d/cfg" --tolerance 1e-12 -o "$d/out" --quiet
  expect 1 "checkpoint '$d/out.checkpoint'" "lattice" "4x4x4x4" "4x4x4x8" -- \
    "${fix[@]}" --lattice 4,4,4,8 --tolerance 1e-12 -o "$d/out" --quiet
  same "$d/out.checkpoint" "$d/checkpoint.orig"
  absent "$d/out"
  ;;
journal)
  cp "$d/cfg" "$d/a"
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 3 --configs 1 --quiet -o "$d/b"
  opts=(-i "$d/a" "$d/b.0000" --algorithm facg --tolerance 1e-12)
  "${fix[@]}" "${opts[@]}" -o "$d/whole.{index}" --journal "$d/whole.yaml" --quiet
  stopped "${fix[@]}" "${opts[@]}" -o "$d/part.{index}" --journal "$d/part.yaml" \
    --stop-after-iterations 6 --quiet
  grep -q "state: interrupted" "$d/part.yaml" || fail "journal: $(cat "$d/part.yaml")"
  grep -q "checkpoint: $d/part.0.checkpoint" "$d/part.yaml" || fail "journal: $(cat "$d/part.yaml")"
  "${fix[@]}" "${opts[@]}" -o "$d/part.{index}" --journal "$d/part.yaml" > "$d/resume.log"
  grep -q "redo $d/a: interrupted at its checkpoint $d/part.0.checkpoint" "$d/resume.log" ||
    fail "not redone from the checkpoint: $(cat "$d/resume.log")"
  grep -q "resuming from checkpoint $d/part.0.checkpoint" "$d/resume.log" || fail "not resumed"
  equal "$d/whole.0" "$d/part.0" || fail "the resumed configuration differs"
  equal "$d/whole.1" "$d/part.1" || fail "the next configuration differs"
  absent "$d/part.0.checkpoint"
  ;;
ranks)
  mpi=(timeout 120 "$mpirun" --oversubscribe -np 2)
  run=("${fix[@]}" -i "$d/cfg" --algorithm facg --tolerance 1e-12 --transform-output "$d/part.g"
    -o "$d/part")
  "${run[@]}" --quiet
  mv "$d/part" "$d/one"
  mv "$d/part.g" "$d/one.g"
  "${mpi[@]}" "${run[@]}" --quiet
  mv "$d/part" "$d/two"
  mv "$d/part.g" "$d/two.g"
  status=0
  "${mpi[@]}" "${run[@]}" --stop-after-iterations 5 > "$d/stop.log" 2>&1 || status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "exit status $status: $(cat "$d/stop.log")"
  grep -q "stopped at checkpoint $d/part.checkpoint" "$d/stop.log" || fail "$(cat "$d/stop.log")"
  [ -f "$d/part.checkpoint" ] && [ -f "$d/part.checkpoint.rank1" ] || fail "checkpoint files"
  expect 1 "checkpoint '$d/part.checkpoint'" "ranks" -- "${run[@]}" --quiet
  "${mpi[@]}" "${run[@]}" --quiet > "$d/resume.log"
  grep -q "resuming from checkpoint" "$d/resume.log" || fail "not resumed: $(cat "$d/resume.log")"
  equal "$d/two" "$d/part" || fail "the resumed 2-rank output differs"
  cmp "$d/two.g" "$d/part.g" || fail "the resumed 2-rank g(x) differs"
  equal "$d/one" "$d/part" || fail "the 2-rank output differs from the one-rank one"
  cmp "$d/one.g" "$d/part.g" || fail "the 2-rank g(x) differs from the one-rank one"
  absent "$d/part.checkpoint"
  absent "$d/part.checkpoint.rank1"
  # a real SIGTERM to both ranks, as srun and SLURM deliver it to every task: they save
  # together (sent to the ranks, not to mpirun, which kills them 1 s after passing it on:
  # odls_base_sigkill_timeout, which the job script raises; a checkpoint written under load
  # can take longer)
  "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/long" --quiet
  mv "$d/long" "$d/long.one"
  started "$d/run.log" "${mpi[@]}" "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/long"
  ranks=$(pgrep -P "$(pgrep -P "$pid")") || fail "no ranks under mpirun"
  # shellcheck disable=SC2086
  kill -TERM $ranks
  wait "$pid" || true
  # (mpirun may stop forwarding the ranks' output before their last line: not checked here)
  [ -f "$d/long.checkpoint" ] && [ -f "$d/long.checkpoint.rank1" ] ||
    fail "no checkpoint files after SIGTERM: $(cat "$d/run.log")"
  "${mpi[@]}" "${fix[@]}" -i "$d/cfg" "${long[@]}" -o "$d/long" --quiet > "$d/resume.log"
  grep -q "resuming from checkpoint $d/long.checkpoint" "$d/resume.log" ||
    fail "not resumed: $(cat "$d/resume.log")"
  equal "$d/long.one" "$d/long" || fail "2 ranks after SIGTERM and resume: the output differs"
  absent "$d/long.checkpoint"
  ;;
*) fail "unknown case" ;;
esac
