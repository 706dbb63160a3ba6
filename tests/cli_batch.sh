#!/bin/bash
# cli_batch.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: many configurations in one
# `gaugefix fix` run (input lists, globs, output patterns, the journal and its restart) and
# Gribov copies. Refused commands exit 1 naming the option or file and write nothing; NERSC
# fields are compared byte for byte but for their DATE lines (CREATION_DATE and
# GAUGE_FIXING_DATE), g(x) files byte for byte. $MPIRUN (case gribov_ranks) runs 2 and 4 ranks.
# Run by meson, one test per CASE (tests/meson.build).
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
g=$(realpath "$g") # some cases run in other folders
export OMP_NUM_THREADS=1 # several small fixes: threads would only contend

# same_field A B: the fields are equal, header dates aside.
same_field() {
  cmp -s <(grep -av DATE "$1") <(grep -av DATE "$2") || fail "$1 and $2 differ"
}
# same_g A B: two g(x) files of a 4^3 x 8 SU(3) lattice hold the same g(x) (their record of
# the run, the command line included, aside: the data are the last V N^2 16 bytes).
same_g() {
  cmp -s <(tail -c $((512 * 9 * 16)) "$1") <(tail -c $((512 * 9 * 16)) "$2") || fail "$1 and $2 hold other g(x)"
}
# journal_core J: the journal without what varies from run to run (times, the files' CRC-32
# and sizes, which hold the date, and the launches).
journal_core() {
  grep -Ev '^ *(- )?(seconds|seconds_total|crc32|bytes|launches):' "$1"
}
# entries J: how many configurations the journal records.
entries() { grep -c '^  - index:' "$1" || true; }
# ensemble PREFIX N LATTICE: N configurations PREFIX.0000 ... of a quenched ensemble.
ensemble() {
  "$g" generate --lattice "$3" --beta 5.7 --thermalisation 2 --configs "$2" --quiet -o "$1" > /dev/null
}

case $case in
batch_equals_single)
  # three inputs in three formats, fixed in one run with two copies each, against three runs;
  # with overrelaxation and with Fourier-accelerated CG (its arrays kept by the engine)
  ensemble "$d/e" 3 4,4,4,8
  "$g" convert "$d/e.0001" "$d/a.lime" --format ildg > /dev/null
  "$g" convert "$d/e.0002" "$d/b.h5" --format hdf5 > /dev/null
  for alg in overrelaxation facg; do
    opts=(--tolerance 1e-11 --check-interval 10 --copies 2 --algorithm "$alg" --quiet)
    mkdir "$d/batch" "$d/single"
    expect 0 -- "$g" fix --input "$d/e.0000" "$d/a.lime" "$d/b.h5" --output "$d/batch/{seq}.{stem}.fixed" \
      --transform-output "$d/batch/{index}.g" --summary "$d/batch/{name}.yaml" "${opts[@]}"
    grep -q "Z # journal: $d/batch/gaugefix-journal.yaml" "$d/stdout" || fail "no default journal named"
    i=0
    for in in e.0000 a.lime b.h5; do
      seq=$("$g" info "$d/$in" | sed -n 's/.*sequence number \([0-9]*\).*/\1/p')
      [ -n "$seq" ] || fail "$in: no sequence number"
      expect 0 -- "$g" fix --input "$d/$in" --output "$d/single/$in.fixed" \
        --transform-output "$d/single/$in.g" "${opts[@]}"
      same_field "$d/batch/$seq.${in%.*}.fixed" "$d/single/$in.fixed"
      same_g "$d/batch/$i.g" "$d/single/$in.g"
      grep -q "converged: true" "$d/batch/$in.yaml" || fail "$in: summary"
      i=$((i + 1))
    done
    [ "$(entries "$d/batch/gaugefix-journal.yaml")" -eq 3 ] || fail "journal entries"
    rm -r "$d/batch" "$d/single"
  done
  ;;
inputs_and_patterns)
  ensemble "$d/e" 3 4,4,4,4
  mkdir "$d/out" "$d/x" "$d/y"
  short=(--tolerance 1e-10 --check-interval 10 --quiet)
  # a list: comments, blank lines, white space, no final newline
  printf '# the ensemble\n%s\n\n  %s  \n%s' "$d/e.0000" "$d/e.0001" "$d/e.0002" > "$d/list"
  expect 0 -- "$g" fix --input-list "$d/list" --output "$d/out/{name}.f" --journal "$d/out/j.yaml" "${short[@]}"
  for j in 0000 0001 0002; do [ -f "$d/out/e.$j.f" ] || fail "e.$j was not fixed"; done
  [ "$(entries "$d/out/j.yaml")" -eq 3 ] || fail "journal entries"
  # a quoted glob, expanded by gaugefix in sorted order
  expect 0 -- "$g" fix --input "$d/e.000[0-2]" --output "$d/out/g{index}.f" --journal "$d/out/k.yaml" \
    "${short[@]}"
  same_field "$d/out/g1.f" "$d/out/e.0001.f"
  # refused before anything is written
  expect 1 "--input '$d/none*'" "matches no file" -- "$g" fix --input "$d/none*" --output "$d/out/{stem}"
  expect 1 --output "names one file" -- "$g" fix --input "$d/e.0000" "$d/e.0001" --output "$d/out/one"
  expect 1 --summary "names one file" -- "$g" fix --input "$d/e.0000" "$d/e.0001" \
    --output "$d/out/{name}.x" --summary "$d/out/s.yaml"
  cp "$d/e.0000" "$d/x/cfg"
  cp "$d/e.0001" "$d/y/cfg"
  expect 1 --output "'$d/x/cfg'" "'$d/y/cfg'" "one file" -- "$g" fix --input "$d/x/cfg" "$d/y/cfg" \
    --output "$d/out/{name}.z"
  expect 1 --output "{nam}" "not a pattern" -- "$g" fix --input "$d/e.0000" --output "$d/out/{nam}"
  # a file without a sequence number (a sample of another program, tests/data)
  expect 1 "{seq}" lat.sample.l4444 "no sequence number" -- "$g" fix --input "$d/e.0000" \
    "$root/tests/data/lat.sample.l4444" --output "$d/out/{seq}.s"
  expect 1 "listed twice" -- "$g" fix --input "$d/e.0000" "$d/./e.0000" --output "$d/out/{index}.t"
  expect 1 --input --input-list -- "$g" fix --input "$d/e.0000" --input-list "$d/list" --output "$d/out/{name}.u"
  # an output name that is an input of the batch
  cp "$d/e.0001" "$d/x/e.0001.v"
  expect 1 --output "e.0001.v" "overwrite an input" -- "$g" fix --input "$d/e.0000" "$d/x/e.0001.v" \
    --output "$d/x/{stem}.v"
  same "$d/x/e.0001.v" "$d/e.0001"
  absent "$d/x/e.0000.v"
  [ -z "$(find "$d/out" -name '*.[stuvxz]' -o -name one -o -name '{*')" ] || fail "a refused run wrote: $(ls "$d/out")"
  # a missing input of a list
  printf '%s\n%s\n' "$d/e.0000" "$d/missing" > "$d/list2"
  expect 1 "$d/missing" -- "$g" fix --input-list "$d/list2" --output "$d/out/{name}.w"
  absent "$d/out/e.0000.w"
  # an input that cannot be read is recorded as failed, the others are fixed; fixed, it is redone
  mkdir "$d/f"
  head -c 20000 "$d/e.0001" > "$d/f/bad"
  expect 1 "f/bad" "truncated" "going on with the next" -- "$g" fix --input "$d/e.0000" "$d/f/bad" "$d/e.0002" \
    --output "$d/f/{index}.f" "${short[@]}"
  [ -f "$d/f/0.f" ] && [ -f "$d/f/2.f" ] || fail "the inputs after a bad one were not fixed"
  absent "$d/f/1.f"
  grep -q "^    state: failed" "$d/f/gaugefix-journal.yaml" || fail "no failed entry"
  cp "$d/e.0001" "$d/f/bad"
  expect 0 -- "$g" fix --input "$d/e.0000" "$d/f/bad" "$d/e.0002" --output "$d/f/{index}.f" "${short[@]}"
  [ "$(grep -c 'Z skip' "$d/stdout")" -eq 2 ] && [ -f "$d/f/1.f" ] || fail "the failed input was not redone alone"
  # the list in a --config file, replaced by the command line's
  printf 'input: [%s, %s]\ntolerance: 1e-10\nquiet: true\n' "$d/e.0000" "$d/e.0001" > "$d/opts.yaml"
  expect 0 -- "$g" fix --config "$d/opts.yaml" --output "$d/out/c{index}.f" --journal "$d/out/c.yaml"
  [ "$(entries "$d/out/c.yaml")" -eq 2 ] || fail "the config file's input list"
  expect 0 -- "$g" fix --config "$d/opts.yaml" --input "$d/e.0002" --output "$d/out/d{index}.f" \
    --summary "$d/out/d{index}.yaml"
  grep -Eq "^ *(- )?input: $d/e.0002$" "$d/out/d0.yaml" || fail "the command line's --input did not replace the list"
  absent "$d/out/d1.f"
  ;;
kill_and_restart)
  # SIGKILL at several moments (in a fix, in a write, just after a configuration), restarted
  # with the same command until it ends: the outputs and the journal are those of a run that
  # was never stopped, and nothing unfinished ever has a final name.
  ensemble "$d/e" 4 6,6,6,8
  ls "$d"/e.000? > "$d/list"
  mkdir -p "$d/ref/out" "$d/run/out"
  batch=("$g" fix --input-list ../list --output 'out/{stem}.{index}.fixed' --transform-output 'out/{index}.g'
    --summary 'out/{index}.yaml' --journal out/journal.yaml --tolerance 1e-11 --check-interval 10
    --copies 2 --quiet)
  (cd "$d/ref" && "${batch[@]}" > log 2>&1) || fail "the uninterrupted run failed: $(cat "$d/ref/log")"
  check_finals() { # every file under a final name is the uninterrupted run's
    for f in $(find "$d/run/out" -maxdepth 1 \( -name '*.fixed' -o -name '*.g' -o -name '*.yaml' \)); do
      case $f in
      *.fixed) same_field "$f" "$d/ref/out/${f##*/}" ;;
      *.g) same "$f" "$d/ref/out/${f##*/}" ;;
      */journal.yaml) ;;
      *) grep -q "converged: true" "$f" || fail "$f: summary of an unfinished configuration" ;;
      esac
    done
    [ -z "$(find "$d/run/out" -name '*.unconverged')" ] || fail "an .unconverged file"
  }
  tmps() { compgen -G "$d/run/out/.*.gaugefix-tmp.*" > /dev/null; }
  kills=0 in_write=0 between=0 done=0
  for attempt in $(seq 40); do
    (cd "$d/run" && exec "${batch[@]}") > "$d/run/log" 2>&1 &
    pid=$!
    pids+=("$pid")
    mode=$((attempt % 3))
    before=$( [ -f "$d/run/out/journal.yaml" ] && entries "$d/run/out/journal.yaml" || echo 0)
    killed=0
    SECONDS=0
    while kill -0 "$pid" 2> /dev/null && [ "$SECONDS" -lt 60 ]; do
      if [ "$mode" -eq 0 ]; then # in a fix: after a delay that varies from attempt to attempt
        sleep "0.$((2 + attempt % 5))"
        kill -KILL "$pid" 2> /dev/null && killed=1
        break
      elif [ "$mode" -eq 1 ]; then # in a write: while a temporary file exists
        tmps || continue
        kill -STOP "$pid" 2> /dev/null || break
        if tmps; then
          kill -KILL "$pid"
          killed=1 in_write=$((in_write + 1))
          break
        fi
        kill -CONT "$pid"
      else # between configurations: as soon as the journal records one more
        now=$( [ -f "$d/run/out/journal.yaml" ] && entries "$d/run/out/journal.yaml" || echo 0)
        if [ "$now" -gt "$before" ]; then
          kill -KILL "$pid" 2> /dev/null && killed=1 between=$((between + 1))
          break
        fi
      fi
    done
    status=0
    wait "$pid" || status=$?
    if [ "$killed" -eq 1 ] && [ "$status" -eq 137 ]; then
      kills=$((kills + 1))
      check_finals
      continue
    fi
    [ "$status" -eq 0 ] || fail "attempt $attempt: exit status $status: $(cat "$d/run/log")"
    done=1
    break
  done
  [ "$done" -eq 1 ] || fail "the run did not complete in 40 attempts"
  [ "$in_write" -ge 1 ] && [ "$between" -ge 1 ] && [ "$kills" -ge 3 ] ||
    fail "too few kills: $kills ($in_write in a write, $between between configurations)"
  check_finals
  for f in "$d"/ref/out/*.fixed; do same_field "$f" "$d/run/out/${f##*/}"; done
  for f in "$d"/ref/out/*.g; do same "$f" "$d/run/out/${f##*/}"; done
  [ "$(find "$d/run/out" -name '*gaugefix-tmp*' | wc -l)" -eq 0 ] ||
    fail "temporary files left: $(find "$d/run/out" -name '*gaugefix-tmp*')"
  [ "$(ls "$d/run/out" | wc -l)" -eq "$(ls "$d/ref/out" | wc -l)" ] || fail "other files: $(ls "$d/run/out")"
  [ "$(entries "$d/run/out/journal.yaml")" -eq 4 ] || fail "journal entries"
  [ "$(grep -c '^    input: ' "$d/run/out/journal.yaml")" -eq "$(sort -u <(grep '^    input: ' "$d/run/out/journal.yaml") | wc -l)" ] ||
    fail "an input recorded twice"
  cmp <(journal_core "$d/ref/out/journal.yaml") <(journal_core "$d/run/out/journal.yaml") ||
    fail "the journal differs from the uninterrupted run's: $(diff <(journal_core "$d/ref/out/journal.yaml") <(journal_core "$d/run/out/journal.yaml"))"
  # once more: everything is finished, nothing runs
  (cd "$d/run" && "${batch[@]}") > "$d/run/log" 2>&1 || fail "the finished run failed again"
  [ "$(grep -c 'Z skip' "$d/run/log")" -eq 4 ] || fail "finished configurations were run again"
  echo "$kills kills ($in_write in a write, $between between configurations)"
  ;;
unconverged_then_rerun)
  ensemble "$d/e" 4 4,4,4,8
  mkdir "$d/out"
  run=("$g" fix --input "$d/e.000*" --output "$d/out/{name}.fixed" --transform-output "$d/out/{name}.g"
    --journal "$d/out/j.yaml" --tolerance 1e-11 --check-interval 10 --quiet)
  expect 3 "not reached" "run the same command again" -- "${run[@]}" --max-iterations 150
  converged=$(grep -c '^    state: converged' "$d/out/j.yaml" || true)
  [ "$converged" -ge 1 ] && [ "$converged" -lt 4 ] || fail "$converged of 4 converged: the test needs some of each"
  for j in 0000 0001 0002 0003; do
    if [ -f "$d/out/e.$j.fixed" ]; then
      [ -f "$d/out/e.$j.g" ] && absent "$d/out/e.$j.fixed.unconverged"
    else
      [ -f "$d/out/e.$j.fixed.unconverged" ] && [ -f "$d/out/e.$j.g.unconverged" ] || fail "e.$j: no marked files"
      absent "$d/out/e.$j.g"
    fi
  done
  [ "$(ls "$d"/out/*.fixed | wc -l)" -eq "$converged" ] || fail "a final name for an unconverged field"
  for f in "$d"/out/*.fixed; do cp "$f" "$f.first"; done
  expect 0 -- "${run[@]}" --max-iterations 2000
  [ "$(grep -c 'Z skip' "$d/stdout")" -eq "$converged" ] || fail "not exactly the unconverged ones were redone"
  [ "$(grep -c 'Z redo .*recorded as not converged' "$d/stdout")" -eq $((4 - converged)) ] || fail "redo lines"
  for f in "$d"/out/*.first; do same "$f" "${f%.first}"; done
  [ -z "$(find "$d/out" -name '*.unconverged')" ] || fail ".unconverged files left"
  [ "$(grep -c '^    state: converged' "$d/out/j.yaml")" -eq 4 ] || fail "journal states"
  [ "$(entries "$d/out/j.yaml")" -eq 4 ] || fail "journal entries"
  # --unconverged discard: nothing written for them
  rm -r "$d/out"
  mkdir "$d/out"
  expect 3 -- "${run[@]}" --max-iterations 150 --unconverged discard
  [ "$(ls "$d"/out/*.fixed | wc -l)" -eq "$converged" ] && [ -z "$(find "$d/out" -name '*.unconverged')" ] ||
    fail "discard: $(ls "$d/out")"
  ;;
restart_refused)
  ensemble "$d/e" 2 4,4,4,4
  mkdir "$d/out"
  run=("$g" fix --input "$d/e.0000" "$d/e.0001" --output "$d/out/{name}.fixed" --journal "$d/out/j.yaml"
    --tolerance 1e-10 --check-interval 10 --quiet)
  expect 0 -- "${run[@]}"
  cp "$d/out/j.yaml" "$d/j.orig"
  cp "$d/out/e.0000.fixed" "$d/f.orig"
  for change in "--tolerance 1e-11:--tolerance" "--gauge coulomb:--gauge" "--precision single:--precision" \
    "--copies 2:--copies" "--seed 5:--seed" "--anneal-steps 3:--anneal-steps" "--storage 18:--storage" \
    "--output-format hdf5:--output-format"; do
    # shellcheck disable=SC2086
    expect 1 "j.yaml" "other options" "${change#*:}" -- "${run[@]}" ${change%%:*}
    same "$d/out/j.yaml" "$d/j.orig"
    same "$d/out/e.0000.fixed" "$d/f.orig"
  done
  # --max-iterations, the backend's tuning, --quiet are not options of the result: allowed
  expect 0 -- "${run[@]}" --max-iterations 5000 --tuning off
  [ "$(grep -c 'Z skip' "$d/stdout")" -eq 2 ] || fail "a restart with --max-iterations redid finished work"
  # a file that is not a journal
  echo "not: a journal" > "$d/out/bad.yaml"
  expect 1 bad.yaml "not a gaugefix journal" -- "$g" fix --input "$d/e.0000" "$d/e.0001" \
    --output "$d/out/{name}.g2" --journal "$d/out/bad.yaml"
  # a finished output changed after the journal recorded it is redone
  printf x >> "$d/out/e.0001.fixed"
  expect 0 -- "${run[@]}"
  grep -q "Z redo $d/e.0001: .*e.0001.fixed' is not the file recorded" "$d/stdout" || fail "no redo: $(cat "$d/stdout")"
  same_field "$d/out/e.0001.fixed" "$d/out/e.0001.fixed" # readable, complete
  "$g" info "$d/out/e.0001.fixed" > /dev/null || fail "the redone output does not read"
  ;;
concurrent_journal)
  ensemble "$d/e" 3 8,8,8,8
  mkdir "$d/out"
  run=("$g" fix --input "$d/e.000*" --output "$d/out/{name}.fixed" --journal "$d/out/j.yaml"
    --tolerance 1e-13 --check-interval 10 --quiet)
  # the lock held by another process
  expect 1 j.yaml.lock "held by another process" -- flock "$d/out/j.yaml.lock" "${run[@]}"
  absent "$d/out/e.0000.fixed"
  # a second run while the first one works
  "${run[@]}" > "$d/first.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 200); do grep -q 'Z # journal' "$d/first.log" && break; sleep 0.05; done
  kill -0 "$pid" 2> /dev/null || fail "the first run ended too soon to test"
  expect 1 j.yaml.lock "held by another process" -- "${run[@]}"
  wait "$pid" || fail "the first run failed: $(cat "$d/first.log")"
  absent "$d/out/j.yaml.lock" # removed at the clean end
  [ "$(entries "$d/out/j.yaml")" -eq 3 ] || fail "journal entries"
  expect 0 -- "${run[@]}"
  [ "$(grep -c 'Z skip' "$d/stdout")" -eq 3 ] || fail "the lock's holder left unfinished work"
  ;;
gribov_sample)
  # the NERSC sample lat..400 (4^3 x 8, written by GLU) has two known Landau maxima; copies
  # from random starts reach both, and the best is the larger
  sample="$root/tests/data/lat..400"
  expect 0 -- "$g" fix --input "$sample" --copies 4 --seed 1 --tolerance 1e-11 --check-interval 20 \
    --summary "$d/s.yaml" --output "$d/fixed" --quiet
  fs=$(sed -n 's/^ *functional: \[\(.*\)\]$/\1/p' "$d/s.yaml" | tr -d ,)
  best=$(sed -n 's/^ *best: //p' "$d/s.yaml")
  reached=$(sed -n 's/^ *reached_best: //p' "$d/s.yaml")
  awk -v fs="$fs" -v best="$best" -v reached="$reached" 'BEGIN {
    n = split(fs, f, " "); hi = 0; lo = 0; top = 0;
    for (i = 1; i <= n; i++) {
      if (f[i] - 0.78020811674 < 1e-9 && 0.78020811674 - f[i] < 1e-9) { hi++; if (f[i] > f[best + 1] + 1e-15) exit 1 }
      else if (f[i] - 0.77988347371 < 1e-9 && 0.77988347371 - f[i] < 1e-9) lo++;
      else exit 2;
      if (f[best + 1] - f[i] <= 1e-8) top++;
    }
    if (hi < 1 || lo < 1) exit 3;
    if (f[best + 1] < 0.7802) exit 4;
    if (top != reached) exit 5;
  }' || fail "copies $fs (best $best, reached $reached): status $?"
  written=$(grep -a "^GAUGE_FIXING_FUNCTIONAL = " "$d/fixed" | sed 's/.* = //')
  awk -v w="$written" -v fs="$fs" -v best="$best" 'BEGIN { split(fs, f, " "); exit !(w == f[best + 1]) }' ||
    fail "the written field (F = $written) is not the best copy"
  ;;
gribov_ranks)
  # copies on 1, 2 and 4 ranks, and twice on 1: the same seeds, F and files
  sample="$root/tests/data/lat..400"
  for r in one again two four; do
    mkdir "$d/$r"
    launcher=()
    [ "$r" = two ] && launcher=("$MPIRUN" -np 2 --oversubscribe)
    [ "$r" = four ] && launcher=("$MPIRUN" -np 4 --oversubscribe)
    (cd "$d/$r" && "${launcher[@]}" "$g" fix --input "$sample" --copies 3 --keep-copies --seed 7 \
      --tolerance 1e-11 --check-interval 20 --output fixed --transform-output g.bin --summary s.yaml \
      --journal j.yaml --quiet) > "$d/$r.log" 2>&1 || fail "$r: $(cat "$d/$r.log")"
  done
  # (the Polyakov loop before and after, a product over the ranks' slabs, rounds otherwise)
  core() { journal_core "$1" | grep -Ev '^ *(ranks|polyakov_before|polyakov_after):'; }
  for r in again two four; do
    cmp <(core "$d/one/j.yaml") <(core "$d/$r/j.yaml") ||
      fail "$r: the journal differs: $(diff <(journal_core "$d/one/j.yaml") <(journal_core "$d/$r/j.yaml"))"
    for f in fixed fixed.copy0 fixed.copy1 fixed.copy2; do same_field "$d/one/$f" "$d/$r/$f"; done
    for f in g.bin g.copy0.bin g.copy1.bin g.copy2.bin; do same "$d/one/$f" "$d/$r/$f"; done
  done
  grep -q '^ *seeds: \[0, [1-9][0-9]*, [1-9][0-9]*\]$' "$d/one/s.yaml" || fail "copy seeds: $(grep seeds "$d/one/s.yaml")"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $case"
