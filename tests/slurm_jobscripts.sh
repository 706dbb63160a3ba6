#!/bin/bash
# slurm_jobscripts.sh GAUGEFIX SOURCE_ROOT CASE: submits the job scripts of jobscripts/ with sbatch
# to a real one-node SLURM cluster that it starts on localhost (slurm_cluster.sh) and stops at the
# end, on tiny CPU inputs (4^4 fields from gaugefix generate). Run by meson, one test per CASE:
#   array            fix-ensemble.slurm as an array job, two configurations per task: every
#                    output converged and equal to a direct gaugefix run, each task's journal
#                    records its slice; a task beyond the list fails naming the list;
#                    resubmitted, nothing runs again; a list with a repeated base name is
#                    refused by every task
#   cancel_resubmit  the array job cancelled (scancel) while it fixes, then submitted again:
#                    nothing lost, nothing fixed twice, what the journals recorded untouched, no
#                    temporary or unconverged files, every output equal to a direct run
#   two_ranks        fix-multi-gpu.slurm on 2 ranks (mpirun and srun inside the allocation, CPU
#                    backend): equal to a 1-rank direct run; resubmitted, nothing runs again; not
#                    converged, then resubmitted with a longer schedule; a list of two
# Skipped (exit status 77) when not root or SLURM and munge are not installed, unless
# GAUGEFIX_REQUIRE_SLURM=1 (set by CI), which makes that a failure.
set -euo pipefail
g=$(realpath "$1") root=$2 case=$3
# shellcheck source=tests/slurm_cluster.sh
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"
fail() {
  echo "FAIL (slurm $case): $*" >&2
  exit 1
}

why=$(slurm_cluster_missing)
if [ -n "$why" ]; then
  [ "${GAUGEFIX_REQUIRE_SLURM:-0}" != 1 ] || fail "GAUGEFIX_REQUIRE_SLURM=1, but $why"
  echo "SKIPPED: the real-SLURM test '$case' needs a one-node cluster: $why"
  exit 77
fi

d=$(mktemp -d)
cleanup() {
  slurm_cluster_stop
  rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
chmod 755 "$d"
mkdir "$d/cluster" "$d/log" "$d/direct"
slurm_cluster_start "$d/cluster"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # the jobs run as root

# submit SCRIPT SBATCH-OPTION... -- NAME=VALUE...: submits a script of jobscripts/ with the
# variables NAME=VALUE, GAUGEFIX and BACKEND=cpu, one CPU per rank; prints the job id
submit() {
  local script=$1 options=() vars=("GAUGEFIX=$g" BACKEND=cpu)
  shift
  while [ "$1" != -- ]; do
    options+=("$1")
    shift
  done
  shift
  vars+=("$@")
  local IFS=,
  sbatch --parsable --chdir="$d" --output="$d/log/%x-%A_%a.out" --cpus-per-task=1 \
    --export="ALL,${vars[*]}" "${options[@]}" "$root/jobscripts/$script"
}

# states ID: "TASK STATE EXITCODE" per job of ID, sorted (TASK: the array task, "-" for no array)
states() {
  scontrol -o show job "$1" | awk '{
    t = "-"
    for (i = 1; i <= NF; ++i) {
      split($i, kv, "=")
      if (kv[1] == "ArrayTaskId") t = kv[2]
      else if (kv[1] == "JobState") s = kv[2]
      else if (kv[1] == "ExitCode") e = kv[2]
    }
    print t, s, e
  }' | sort
}

# wait_done ID: waits (at most 240 s) until no job of ID is pending, running or completing
wait_done() {
  local end=$((SECONDS + 240))
  while states "$1" | grep -Eq ' (PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED)'; do
    [ "$SECONDS" -lt "$end" ] || fail "job $1 not finished after 240 s: $(states "$1")"
    sleep 0.2
  done
}

# log ID [TASK]: the output of job ID (array task TASK)
log() { cat "$d/log/"*"-$1_${2:-4294967294}.out"; }

# direct OPTIONS INPUT OUTPUT: the command of the job scripts, run here on one rank
direct() {
  local opts=$1 in=$2 out=$3
  OMP_NUM_THREADS=1 "$g" fix --config "$opts" --backend cpu --input "$in" --output "$out" \
    --summary "${out%.fixed}.yaml" --unconverged mark > /dev/null
}

# same_field A B: two NERSC files hold the same links and header lines (apart from the dates)
same_field() {
  local a b
  a=$(grep -abo -m 1 '^END_HEADER$' "$1" | cut -d: -f1)
  b=$(grep -abo -m 1 '^END_HEADER$' "$2" | cut -d: -f1)
  [ -n "$a" ] && [ -n "$b" ] || fail "$1 or $2 is no NERSC file"
  cmp -s <(head -c "$a" "$1" | grep -v '_DATE = ') <(head -c "$b" "$2" | grep -v '_DATE = ') ||
    fail "$1 and $2: the headers differ"
  cmp -s <(tail -c +$((a + 12)) "$1") <(tail -c +$((b + 12)) "$2") || fail "$1 and $2: the links differ"
}

# same_result A B: two summaries report the same F, theta, iterations, and convergence
same_result() {
  local keys='^ +(functional|theta|theta_max_slice|iterations|converged):'
  cmp -s <(grep -E "$keys" "$1") <(grep -E "$keys" "$2") || fail "$1 and $2 report other results"
}

converged() { grep -Eq '^ +converged: true$' "$1" || fail "$1 does not say converged: true"; }

# journal_states JOURNAL: "INPUT STATE" for every configuration a gaugefix journal records
journal_states() {
  awk '/^  - index:/ { i = "" } /^    input: / { i = $2 } /^    state: / { sub(/^    state: /, ""); print i, $0 }' "$1"
}

# results: how many result lines of gaugefix fix (one per configuration fixed) stdin holds
# (the result follows the time stamp and, of several ranks, the rank, or a batch's label)
results() { grep -Ec '(Z | r[0-9]+/[0-9]+ |: )converged: [a-z]+ after [0-9]+ iterations' || true; }
no_leftovers() {
  local left
  left=$(find "$d/out" "$d/direct" -name '*gaugefix-tmp*' -o -name '*.unconverged')
  [ -z "$left" ] || fail "left behind: $left"
}

# ensemble N: N configurations e.0000 ... of a 4^4 ensemble under $d/ens
ensemble() {
  OMP_NUM_THREADS=1 "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs "$1" \
    --quiet -o "$d/ens/e" > /dev/null
}
mkdir "$d/ens" "$d/out"
printf 'tolerance: 1e-12\ncheck-interval: 10\nquiet: true\n' > "$d/fast.yaml"

case $case in
array)
  ensemble 5
  # a blank line, a CRLF line end and no final newline: five configurations
  printf '%s\n\n%s\r\n%s\n%s\n%s' "$d"/ens/e.000{0..4} > "$d/list"
  vars=("LIST=$d/list" "OUTDIR=$d/out" "OPTIONS=$d/fast.yaml" PER_TASK=2)
  job=$(submit fix-ensemble.slurm --array=0-3 -- "${vars[@]}")
  wait_done "$job"
  want="0 COMPLETED 0:0
1 COMPLETED 0:0
2 COMPLETED 0:0
3 FAILED 1:0"
  [ "$(states "$job")" = "$want" ] || fail "task states: $(states "$job")"
  for t in 0 1 2; do
    first=$((2 * t)) last=$((2 * t + 1))
    [ "$t" -lt 2 ] || last=4
    log "$job" "$t" | grep -qxF "configurations $first-$last of the 5 in $d/list" ||
      fail "task $t: $(log "$job" "$t")"
    [ "$(log "$job" "$t" | results)" -eq $((last - first + 1)) ] || fail "task $t fixed others"
    want=$(for j in $(seq "$first" "$last"); do echo "$d/ens/e.000$j converged"; done)
    [ "$(journal_states "$d/out/journal.$t.yaml")" = "$want" ] || fail "journal of task $t"
  done
  log "$job" 3 | grep -q "array task 3 has no configurations: $d/list lists 5" ||
    fail "task 3: $(log "$job" 3)"
  for j in 0 1 2 3 4; do
    converged "$d/out/e.000$j.yaml"
    direct "$d/fast.yaml" "$d/ens/e.000$j" "$d/direct/e.000$j.fixed"
    same_field "$d/out/e.000$j.fixed" "$d/direct/e.000$j.fixed"
    same_result "$d/out/e.000$j.yaml" "$d/direct/e.000$j.yaml"
  done
  no_leftovers
  # submitted again: every configuration is finished, nothing runs, nothing changes
  stat -c '%n %i %Y %s' "$d"/out/e.* > "$d/before"
  job=$(submit fix-ensemble.slurm --array=0-2 -- "${vars[@]}")
  wait_done "$job"
  [ "$(states "$job" | grep -c ' COMPLETED 0:0$')" -eq 3 ] || fail "resubmitted: $(states "$job")"
  [ "$(for t in 0 1 2; do log "$job" "$t"; done | grep -c ' skip ')" -eq 5 ] ||
    fail "resubmitted: not every configuration was skipped"
  cmp -s "$d/before" <(stat -c '%n %i %Y %s' "$d"/out/e.*) || fail "resubmitted: outputs changed"
  # two inputs with one base name: every task refuses the list before anything runs
  mkdir "$d/a" "$d/b"
  cp "$d/ens/e.0000" "$d/a/cfg"
  cp "$d/ens/e.0001" "$d/b/cfg"
  printf '%s\n%s\n' "$d/a/cfg" "$d/b/cfg" > "$d/twins"
  job=$(submit fix-ensemble.slurm --array=0-1 -- "LIST=$d/twins" "OUTDIR=$d/out" "OPTIONS=$d/fast.yaml")
  wait_done "$job"
  [ "$(states "$job" | grep -c ' FAILED 1:0$')" -eq 2 ] || fail "repeated base name: $(states "$job")"
  log "$job" 1 | grep -q "same base name 'cfg'" || fail "repeated base name: $(log "$job" 1)"
  [ ! -e "$d/out/cfg.fixed" ] && [ ! -e "$d/out/cfg.yaml" ] || fail "a twin was fixed"
  ;;
cancel_resubmit)
  ensemble 6
  printf '%s\n' "$d"/ens/e.000{0..5} > "$d/list"
  # a schedule with simulated annealing: each configuration takes a while (about 2 s on one
  # core; 400 steps, 0.4 s, let a task finish all three of its configurations before the other
  # had started), so the job is cancelled in the middle of its work
  printf 'tolerance: 1e-12\ncheck-interval: 10\nanneal-steps: 3000\nquiet: true\n' > "$d/slow.yaml"
  vars=("LIST=$d/list" "OUTDIR=$d/out" "OPTIONS=$d/slow.yaml" PER_TASK=3)
  job=$(submit fix-ensemble.slurm --array=0-1 -- "${vars[@]}")
  # cancelled once both tasks are at work and one configuration is finished
  SECONDS=0
  at_work() { log "$job" "$1" 2> /dev/null | grep -q '^configurations '; }
  until compgen -G "$d/out/*.fixed" > /dev/null && at_work 0 && at_work 1; do
    [ "$SECONDS" -lt 240 ] || fail "no output after 240 s: $(states "$job")"
    sleep 0.05
  done
  scancel "$job"
  wait_done "$job"
  [ "$(states "$job" | grep -c ' CANCELLED ')" -eq 2 ] || fail "cancelled job: $(states "$job")"
  # the script ended only after gaugefix had removed its temporary files
  for t in 0 1; do
    log "$job" "$t" | grep -q '^stopped by SIGTERM' || fail "task $t: $(log "$job" "$t")"
  done
  [ -z "$(find "$d/out" -name '*gaugefix-tmp*')" ] || fail "temporary files after the cancel"
  # finished: what the journals record as converged (an output written just before the cancel
  # but not yet recorded is not finished: it is done again)
  done_before=()
  for j in 0 1 2 3 4 5; do
    if cat "$d"/out/journal.*.yaml 2> /dev/null | journal_states /dev/stdin | grep -qxF "$d/ens/e.000$j converged"; then
      converged "$d/out/e.000$j.yaml"
      done_before+=("$j")
    fi
  done
  [ "${#done_before[@]}" -lt 6 ] || fail "every configuration was finished before scancel took effect"
  echo "finished before the cancel: ${done_before[*]}"
  for j in "${done_before[@]}"; do stat -c '%n %i %Y %s' "$d/out/e.000$j".{fixed,yaml}; done > "$d/before"
  job=$(submit fix-ensemble.slurm --array=0-1 -- "${vars[@]}")
  wait_done "$job"
  [ "$(states "$job")" = $'0 COMPLETED 0:0\n1 COMPLETED 0:0' ] || fail "resubmitted: $(states "$job")"
  logs=$(log "$job" 0; log "$job" 1)
  for j in 0 1 2 3 4 5; do
    if [[ " ${done_before[*]} " == *" $j "* ]]; then
      grep -qF " skip $d/ens/e.000$j: finished and converged (journal)" <<< "$logs" ||
        fail "e.000$j, finished before the cancel, was not skipped"
    else
      [ "$(grep -F "] $d/ens/e.000$j: " <<< "$logs" | results)" -eq 1 ] ||
        fail "e.000$j was not fixed once after the cancel: $logs"
    fi
  done
  [ "$(results <<< "$logs")" -eq $((6 - ${#done_before[@]})) ] || fail "fixed twice: $logs"
  # the outputs finished before the cancel are the same files, untouched
  while read -r name inode mtime size; do
    [ "$(stat -c '%n %i %Y %s' "$name")" = "$name $inode $mtime $size" ] || fail "$name was rewritten"
  done < "$d/before"
  for j in 0 1 2 3 4 5; do
    converged "$d/out/e.000$j.yaml"
    direct "$d/slow.yaml" "$d/ens/e.000$j" "$d/direct/e.000$j.fixed"
    same_field "$d/out/e.000$j.fixed" "$d/direct/e.000$j.fixed"
    same_result "$d/out/e.000$j.yaml" "$d/direct/e.000$j.yaml"
  done
  for t in 0 1; do
    want=$(for j in $((3 * t)) $((3 * t + 1)) $((3 * t + 2)); do echo "$d/ens/e.000$j converged"; done)
    [ "$(journal_states "$d/out/journal.$t.yaml")" = "$want" ] || fail "journal of task $t"
  done
  want=$(printf '%s\n' e.000{0..5}.{fixed,yaml} journal.{0,1}.yaml | sort) # no lock left
  [ "$(ls -A "$d/out" | sort)" = "$want" ] || fail "other files: $(ls -A "$d/out")"
  no_leftovers
  ;;
two_ranks)
  command -v mpirun > /dev/null || fail "mpirun not found (Debian: openmpi-bin)"
  ensemble 2
  # the same gauge-defining options as fast.yaml (a journal refuses others), fewer sweeps
  printf 'tolerance: 1e-12\ncheck-interval: 10\nmax-iterations: 3\nquiet: true\n' > "$d/short.yaml"
  for j in 0 1; do direct "$d/fast.yaml" "$d/ens/e.000$j" "$d/direct/e.000$j.fixed"; done
  converged "$d/direct/e.0000.yaml"
  for launcher in mpirun srun; do
    out=$d/out/$launcher.fixed
    vars=("INPUT=$d/ens/e.0000" "OUTPUT=$out" "OPTIONS=$d/fast.yaml" "LAUNCHER=$launcher")
    job=$(submit fix-multi-gpu.slurm -- "${vars[@]}")
    wait_done "$job"
    [ "$(states "$job")" = "- COMPLETED 0:0" ] || fail "$launcher: $(states "$job"): $(log "$job")"
    log "$job" | grep -qxF "fixing $d/ens/e.0000 on 2 rank(s) of 1 node(s) with $launcher" ||
      fail "$launcher: $(log "$job")"
    grep -Eq '^ +ranks: 2$' "$out.yaml" || fail "$launcher: the summary does not say 2 ranks"
    same_field "$out" "$d/direct/e.0000.fixed"
    same_result "$out.yaml" "$d/direct/e.0000.yaml"
  done
  # the last job submitted again: nothing runs, nothing changes
  stat -c '%n %i %Y %s' "$out" "$out.yaml" > "$d/before"
  job=$(submit fix-multi-gpu.slurm -- "${vars[@]}")
  wait_done "$job"
  [ "$(states "$job")" = "- COMPLETED 0:0" ] || fail "resubmitted: $(states "$job"): $(log "$job")"
  log "$job" | grep -qF " skip $d/ens/e.0000: finished and converged (journal)" ||
    fail "resubmitted: $(log "$job")"
  cmp -s "$d/before" <(stat -c '%n %i %Y %s' "$out" "$out.yaml") || fail "resubmitted: output changed"
  # not converged on 2 ranks: exit status 3, the field only under its .unconverged name; then
  # the same job with a longer schedule. Through srun: mpirun would end the same way but hold
  # the allocation 220 s after a non-zero status (docs/checkpoints.md)
  out=$d/out/short.fixed
  vars=("INPUT=$d/ens/e.0000" "OUTPUT=$out" LAUNCHER=srun)
  job=$(submit fix-multi-gpu.slurm -- "${vars[@]}" "OPTIONS=$d/short.yaml")
  wait_done "$job"
  [ "$(states "$job")" = "- FAILED 3:0" ] || fail "short schedule: $(states "$job"): $(log "$job")"
  log "$job" | grep -q "NOT CONVERGED: $d/ens/e.0000" || fail "short schedule: $(log "$job")"
  [ ! -e "$out" ] && [ -f "$out.unconverged" ] || fail "short schedule: $(ls "$d/out")"
  grep -Eq '^ +converged: false$' "$out.yaml" || fail "short schedule: summary"
  job=$(submit fix-multi-gpu.slurm -- "${vars[@]}" "OPTIONS=$d/fast.yaml")
  wait_done "$job"
  [ "$(states "$job")" = "- COMPLETED 0:0" ] || fail "longer schedule: $(states "$job"): $(log "$job")"
  same_field "$out" "$d/direct/e.0000.fixed"
  same_result "$out.yaml" "$d/direct/e.0000.yaml"
  # a list, every configuration on both ranks, one after another
  printf '# two configurations\n%s\n%s\n' "$d/ens/e.0000" "$d/ens/e.0001" > "$d/list"
  job=$(submit fix-multi-gpu.slurm -- "LIST=$d/list" "OUTDIR=$d/out/list" "OPTIONS=$d/fast.yaml" LAUNCHER=mpirun)
  wait_done "$job"
  [ "$(states "$job")" = "- COMPLETED 0:0" ] || fail "list: $(states "$job"): $(log "$job")"
  for j in 0 1; do
    same_field "$d/out/list/e.000$j.fixed" "$d/direct/e.000$j.fixed"
    same_result "$d/out/list/e.000$j.yaml" "$d/direct/e.000$j.yaml"
  done
  [ "$(journal_states "$d/out/list/journal.yaml")" = "$d/ens/e.0000 converged
$d/ens/e.0001 converged" ] || fail "list: journal"
  no_leftovers
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: slurm $case"
