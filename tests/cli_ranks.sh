#!/bin/bash
# cli_ranks.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE MPIRUN RANK_FAILURE: failures of runs on
# several ranks (World::abort_all, docs/logs.md). Each must end with exit status 1 (never a
# hang: every run is limited to 60 s) and one error line, whichever ranks failed:
# - mpmd: ranks started with different command lines (mpirun -n 1 gaugefix fix A : -n 1
#   gaugefix fix B) stop with an error naming both command lines;
# - error_once: an error every rank meets (a bad option, a missing file) is printed once;
# - rank_failure: an error of rank 1 alone is printed by rank 1, and with a log file it is
#   appended to rank 0's log file;
# - log_file: a fix on 2 ranks with --log-file: one file, rank 0's lines, nothing on stdout.
# Run by meson, one test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
mpirun=$5 rank_failure=$6
mpi=("$mpirun" --oversubscribe)
error_line='^[0-9T:.-]+Z r[0-9]+/[0-9]+ error: '

# errors_once FILE WORD...: FILE holds exactly one error line, and it holds every WORD.
errors_once() {
  local file=$1 n
  shift
  n=$(grep -Ec "$error_line" "$file" || true)
  [ "$n" -eq 1 ] || fail "$n error lines, expected 1: $(cat "$file")"
  for w in "$@"; do
    grep -E "$error_line" "$file" | grep -qF -- "$w" || fail "'$w' not in the error: $(cat "$file")"
  done
}

case $case in
mpmd)
  expect 1 "different command lines" "rank 0: gaugefix fix --lattice 4,4,4,4" \
    "rank 1: gaugefix fix --lattice 4,4,4,8" -- timeout 60 "${mpi[@]}" \
    -np 1 "$g" fix --lattice 4,4,4,4 --random-transform 3 --quiet : \
    -np 1 "$g" fix --lattice 4,4,4,8 --random-transform 3 --quiet
  errors_once "$d/stderr" "every rank must run the same gaugefix command"
  # the same subcommand and options, different files: the same check
  expect 1 "different command lines" -- timeout 60 "${mpi[@]}" \
    -np 1 "$g" info "$d/cfg" : -np 1 "$g" info "$d/cfg.orig"
  ;;
error_once)
  expect 1 "--omega" "[1, 2)" -- timeout 60 "${mpi[@]}" -np 3 "$g" fix --omega 3
  errors_once "$d/stderr" "--omega"
  expect 1 "'/nonexistent/cfg'" -- timeout 60 "${mpi[@]}" -np 2 "$g" fix --input /nonexistent/cfg
  errors_once "$d/stderr" "/nonexistent/cfg"
  printf 'omega: 2.5\n' > "$d/bad.yaml"
  expect 1 "--omega" "config file '$d/bad.yaml'" "key 'omega'" -- timeout 60 "${mpi[@]}" -np 2 \
    "$g" fix --config "$d/bad.yaml"
  errors_once "$d/stderr" "key 'omega'"
  ;;
rank_failure)
  expect 1 "rank 1 fails on purpose" -- timeout 60 "${mpi[@]}" -np 3 "$rank_failure"
  errors_once "$d/stderr" " r1/3 error: rank_failure: rank 1 fails on purpose"
  expect 1 "rank 1 fails on purpose" -- timeout 60 "${mpi[@]}" -np 3 "$rank_failure" "$d/run.log"
  errors_once "$d/stderr" " r1/3 error: "
  grep -q " r0/3 rank_failure: started on 3 ranks" "$d/run.log" || fail "rank 0's line: $(cat "$d/run.log")"
  errors_once "$d/run.log" " r1/3 error: rank_failure: rank 1 fails on purpose"
  [ "$(grep -c . "$d/run.log")" -eq 2 ] || fail "the log file: $(cat "$d/run.log")"
  ;;
log_file)
  timeout 120 "${mpi[@]}" -np 2 "$g" fix --input "$d/cfg" --tolerance 1e-10 --check-interval 10 \
    --log-file "$d/fix.log" > "$d/stdout" 2> "$d/stderr" || fail "exit status $?: $(cat "$d/stderr")"
  [ ! -s "$d/stdout" ] || fail "stdout with --log-file: $(cat "$d/stdout")"
  grep -q " r0/2 converged: landau" "$d/fix.log" || fail "no result in the log: $(cat "$d/fix.log")"
  grep -q " r0/2 # rank 1 of 2: host " "$d/fix.log" || fail "no line of rank 1's set-up: $(cat "$d/fix.log")"
  ! grep -q " r1/2 " "$d/fix.log" || fail "rank 1 wrote into the log file: $(cat "$d/fix.log")"
  # a failure after the log file is open (a damaged input): the error is in the file too
  cp "$d/cfg" "$d/bad"
  printf x | dd of="$d/bad" bs=1 seek=$(($(wc -c < "$d/cfg") - 1)) conv=notrunc 2> /dev/null
  expect 1 "'$d/bad'" CHECKSUM -- timeout 60 "${mpi[@]}" -np 2 "$g" fix --input "$d/bad" \
    --log-file "$d/fail.log"
  errors_once "$d/stderr" "'$d/bad'"
  errors_once "$d/fail.log" "'$d/bad'" CHECKSUM
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $case"
