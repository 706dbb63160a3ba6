#!/bin/bash
# cli_safety.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: one command-line safety check of
# gaugefix. Every refused command must exit with exactly status 1 (3: not converged), name the
# option or file in its message, and leave every existing file as it was (compared byte for
# byte). Run by meson, one test per CASE (tests/meson.build).
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
fix=("$g" fix --quiet --tolerance 1e-10 --check-interval 10)

case $case in
summary_is_input)
  expect 1 --summary --input "$d/cfg" -- "${fix[@]}" --input "$d/cfg" --summary "$d/cfg"
  same "$d/cfg" "$d/cfg.orig"
  ln -s cfg "$d/link"
  expect 1 --summary --input -- "${fix[@]}" --input "$d/cfg" --summary "$d/link"
  same "$d/cfg" "$d/cfg.orig"
  printf 'tolerance: 1e-10\n' > "$d/opts.yaml"
  cp "$d/opts.yaml" "$d/opts.orig"
  expect 1 --summary --config opts.yaml -- "${fix[@]}" --config "$d/opts.yaml" --input "$d/cfg" \
    --output "$d/out" --summary "$d/opts.yaml"
  same "$d/opts.yaml" "$d/opts.orig"
  absent "$d/out"
  ;;
outputs_are_one_file)
  cp "$d/cfg" "$d/fixed"
  expect 1 --transform-output --output "$d/fixed" -- "${fix[@]}" --input "$d/cfg" \
    --output "$d/fixed" --transform-output "$d/fixed"
  same "$d/fixed" "$d/cfg.orig"
  expect 1 --summary --output -- "${fix[@]}" --input "$d/cfg" --output "$d/fixed" \
    --summary "$d/./fixed"
  same "$d/fixed" "$d/cfg.orig"
  ln "$d/fixed" "$d/hard"
  expect 1 --transform-output --output -- "${fix[@]}" --input "$d/cfg" --output "$d/fixed" \
    --transform-output "$d/hard"
  same "$d/fixed" "$d/cfg.orig"
  ln "$d/cfg" "$d/hard-input"
  expect 1 --output --input "$d/cfg" -- "${fix[@]}" --input "$d/cfg" --output "$d/hard-input"
  same "$d/cfg" "$d/cfg.orig"
  # the not-converged name of one output is another output
  expect 1 --transform-output "fixed.unconverged" -- "${fix[@]}" --input "$d/cfg" \
    --output "$d/fixed" --transform-output "$d/fixed.unconverged"
  expect 1 output input -- "$g" convert "$d/cfg" "$d/hard-input" --format ildg
  same "$d/cfg" "$d/cfg.orig"
  ;;
non_regular_targets)
  mkfifo "$d/fifo"
  expect 1 --summary FIFO fifo -- "${fix[@]}" --input "$d/cfg" --summary "$d/fifo"
  [ -p "$d/fifo" ] || fail "the FIFO was replaced"
  mkdir "$d/dir"
  expect 1 --output directory -- "${fix[@]}" --input "$d/cfg" --output "$d/dir"
  [ -d "$d/dir" ] || fail "the directory was replaced"
  if mknod "$d/null" c 1 3 2> /dev/null; then
    expect 1 --summary "character device" -- "${fix[@]}" --input "$d/cfg" --summary "$d/null"
    [ -c "$d/null" ] || fail "the device node was replaced"
  fi
  expect 1 --output "does not exist" -- "${fix[@]}" --input "$d/cfg" --output "$d/no/such/dir/out"
  ;;
planted_symlink_not_followed)
  # links at names of the temporary-file pattern are neither followed nor removed
  echo victim > "$d/victim"
  for s in AAAAAA abcdef 000000; do ln -s victim "$d/.s.yaml.gaugefix-tmp.$s"; done
  expect 0 -- "${fix[@]}" --input "$d/cfg" --summary "$d/s.yaml"
  [ "$(cat "$d/victim")" = victim ] || fail "the victim file was changed"
  [ -f "$d/s.yaml" ] && [ ! -L "$d/s.yaml" ] || fail "s.yaml is not a regular file"
  grep -q "converged: true" "$d/s.yaml" || fail "s.yaml holds no summary"
  [ "$(find "$d" -maxdepth 1 -type l | wc -l)" -eq 3 ] || fail "a planted link was removed"
  ;;
empty_values)
  expect 1 --input -- "${fix[@]}" --input '' --output "$d/out"
  absent "$d/out"
  expect 1 --output -- "${fix[@]}" --input "$d/cfg" --output ''
  expect 1 --summary -- "${fix[@]}" --input "$d/cfg" --summary ''
  expect 1 --transform-output -- "${fix[@]}" --input "$d/cfg" --transform-output ''
  expect 1 --config -- "${fix[@]}" --config '' --input "$d/cfg"
  printf "input: ''\n" > "$d/opts.yaml"
  expect 1 --input -- "${fix[@]}" --config "$d/opts.yaml" --output "$d/out"
  absent "$d/out"
  expect 1 input -- "$g" convert '' "$d/out"
  expect 1 output -- "$g" convert "$d/cfg" ''
  expect 1 --output-prefix -- "$g" generate --lattice 4,4,4,4 --beta 5.7 -o ''
  expect 1 --start -- "$g" generate --beta 5.7 --start '' -o "$d/gen"
  absent "$d/gen.0000"
  ;;
generate_lock)
  cp "$d/ens.0000" "$d/ens.orig"
  expect 1 ens.lock "held by another process" -- flock "$d/ens.lock" "$g" generate \
    --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 3 --quiet -o "$d/ens"
  absent "$d/ens.0001"
  same "$d/ens.0000" "$d/ens.orig"
  expect 1 new.lock "held by another process" -- flock "$d/new.lock" "$g" generate \
    --lattice 4,4,4,4 --beta 6.0 --configs 1 --quiet -o "$d/new"
  absent "$d/new.0000"
  ;;
generate_resume_other_parameters)
  cp "$d/ens.0000" "$d/ens.orig"
  base=("$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 2 --quiet -o "$d/ens")
  expect 1 --precision "precision=double" -- "${base[@]}" --precision single
  expect 1 --storage "storage=12" -- "${base[@]}" --storage 18
  expect 1 --beta -- "$g" generate --lattice 4,4,4,4 --beta 6 --thermalisation 2 --configs 2 \
    --quiet -o "$d/ens"
  expect 1 --start -- "${base[@]}" --start hot
  absent "$d/ens.0001"
  same "$d/ens.0000" "$d/ens.orig"
  expect 1 --start --output-prefix -- "$g" generate --beta 5.7 --start "$d/ens.0000" --configs 1 \
    -o "$d/ens"
  same "$d/ens.0000" "$d/ens.orig"
  expect 0 -- "${base[@]}"
  [ -f "$d/ens.0001" ] || fail "the resumed run wrote no ens.0001"
  ;;
generate_prefix_directory)
  # a prefix naming a directory (or ending in /) would put hidden files in it (gen/.0000)
  mkdir "$d/gen"
  for prefix in "$d/gen/" "$d/gen" "$d/gen/." "$d/new/"; do
    expect 1 "--output-prefix '$prefix'" "names a directory" -- "$g" generate --lattice 4,4,4,4 \
      --beta 5.7 --thermalisation 1 --configs 1 --quiet -o "$prefix"
  done
  [ -z "$(ls -A "$d/gen")" ] || fail "files written in the directory: $(ls -A "$d/gen")"
  absent "$d/new"
  ;;
long_output_names)
  # file names of 228 to 255 bytes are legal (NAME_MAX): their temporary names must fit too
  long=$(printf 'x%.0s' $(seq 245))
  "${fix[@]}" --input "$d/cfg" --unconverged discard --output "$d/$long.nersc" \
    --transform-output "$d/${long}xxxxx.lime" --summary "$d/${long}x.yaml" > /dev/null
  # HDF5 (MPI-IO): a long name, and a long path to the temporary file of a shorter one
  "${fix[@]}" --input "$d/cfg" --unconverged discard --output "$d/${long}xxxxx.h5" \
    --transform-output "$d/${long:0:225}.h5" > /dev/null
  "$g" info "$d/$long.nersc" "$d/${long}xxxxx.lime" "$d/${long}xxxxx.h5" "$d/${long:0:225}.h5" \
    > /dev/null || fail "the outputs with long names are not complete"
  grep -q "^program: gaugefix" "$d/${long}x.yaml" || fail "no summary under a long name"
  [ "$(temporaries)" -eq 0 ] || fail "temporary files left: $(find "$d" -name '*gaugefix-tmp*')"
  # refused before any sweep: a name over NAME_MAX, and the not-converged name of
  # --unconverged mark (<output>.unconverged) where it would be one
  expect 1 --output "NAME_MAX" -- "${fix[@]}" --input "$d/cfg" --output "$d/${long}xxxxxxxxxxx"
  expect 1 "--output (not converged; --unconverged discard writes none)" "NAME_MAX" -- "${fix[@]}" --input "$d/cfg" \
    --output "$d/$long.nersc"
  [ -z "$(cat "$d/stdout")" ] || fail "work started before the refusal: $(cat "$d/stdout")"
  ;;
signal_removes_temporary)
  set -m # background jobs in their own process groups, SIGINT not ignored
  for sig in TERM INT HUP; do
    # with the signals' default actions: a signal ignored by whoever started the tests (nohup
    # ignores SIGHUP) stays ignored in gaugefix, as it should (io/signal_cleanup.cpp)
    env --default-signal=HUP,INT,TERM "$hold" "$d/out" > "$d/tmpname.$sig" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 200); do [ -s "$d/tmpname.$sig" ] && break; sleep 0.05; done
    tmp=$(cat "$d/tmpname.$sig")
    [ -f "$tmp" ] || fail "no temporary file $tmp while writing"
    case $(basename "$tmp") in .out.gaugefix-tmp.??????) ;; *) fail "temporary name $tmp" ;; esac
    kill -"$sig" "$pid"
    status=0
    wait "$pid" || status=$?
    [ "$status" -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit status $status"
    absent "$tmp"
    absent "$d/out"
  done
  # gaugefix generate writes a configuration after every sweep: it is stopped (SIGSTOP) at a
  # moment its temporary file exists, sent SIGTERM and continued (without job control, so that
  # wait reports the end of the process, not its stop)
  set +m
  for attempt in 1 2 3; do
    # its stderr to a file: a process left stopped must not hold the test's output open
    "$g" generate --lattice 4,4,4,4 --beta 5.7 --configs 100000 --quiet -o "$d/run" > /dev/null \
      2> "$d/generate.err" &
    pid=$!
    pids+=("$pid")
    caught=0
    SECONDS=0
    while [ "$caught" -eq 0 ] && [ "$SECONDS" -lt 60 ]; do
      compgen -G "$d/.run.*.gaugefix-tmp.*" > /dev/null || continue
      kill -STOP "$pid" 2> /dev/null ||
        fail "gaugefix generate ended before it was stopped: $(cat "$d/generate.err")"
      if compgen -G "$d/.run.*.gaugefix-tmp.*" > /dev/null; then caught=1; else kill -CONT "$pid"; fi
    done
    [ "$caught" -eq 1 ] || fail "no temporary file of gaugefix generate seen in 60 s"
    kill -TERM "$pid"
    kill -CONT "$pid"
    # a process that outlives SIGTERM by 30 s is a failure with its signal state, not a hang
    for _ in $(seq 300); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2> /dev/null; then
      grep -E "State|Threads|Sig(Pnd|Blk|Ign|Cgt)|ShdPnd" "/proc/$pid/status" >&2
      kill -KILL "$pid"
      fail "gaugefix generate still running 30 s after SIGTERM"
    fi
    status=0
    wait "$pid" || status=$?
    [ "$status" -eq 143 ] || fail "gaugefix generate: exit status $status after SIGTERM"
    [ "$(temporaries)" -eq 0 ] || fail "temporary files left: $(find "$d" -name '*gaugefix-tmp*')"
  done
  ;;
stale_temporary_removed)
  # a writer killed with SIGKILL leaves its temporary file; the next writer removes it
  "$hold" "$d/fixed" > "$d/tmpname" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 200); do [ -s "$d/tmpname" ] && break; sleep 0.05; done
  stale=$(cat "$d/tmpname")
  kill -KILL "$pid"
  wait "$pid" || true
  [ -f "$stale" ] || fail "SIGKILL removed $stale"
  # a temporary file of a live writer (it holds the lock) stays
  live="$d/.fixed.gaugefix-tmp.LIVE00"
  exec 9> "$live"
  flock -n 9 || fail "cannot lock $live"
  expect 0 "$stale" -- "${fix[@]}" --input "$d/cfg" --output "$d/fixed"
  absent "$stale"
  [ -f "$live" ] || fail "a live writer's temporary file was removed"
  [ -f "$d/fixed" ] || fail "no output"
  ;;
unconverged_then_rerun)
  out=("--output" "$d/fixed" "--transform-output" "$d/g.bin" "--summary" "$d/s.yaml")
  short=("$g" fix --quiet --tolerance 1e-10 --max-iterations 2 --check-interval 1)
  expect 3 "not reached" "fixed.unconverged" -- "${short[@]}" --input "$d/cfg" "${out[@]}"
  absent "$d/fixed"
  absent "$d/g.bin"
  [ -f "$d/fixed.unconverged" ] && [ -f "$d/g.bin.unconverged" ] || fail "no .unconverged files"
  grep -q "converged: false" "$d/s.yaml" || fail "summary does not say converged: false"
  grep -Eq "^ +output: $d/fixed.unconverged$" "$d/s.yaml" || fail "summary names another output"
  rm "$d/fixed.unconverged" "$d/g.bin.unconverged"
  expect 3 "not written" -- "${short[@]}" --input "$d/cfg" "${out[@]}" --unconverged discard
  absent "$d/fixed"
  absent "$d/fixed.unconverged"
  absent "$d/g.bin.unconverged"
  grep -q "converged: false" "$d/s.yaml" || fail "summary does not say converged: false"
  grep -q 'output: ""' "$d/s.yaml" || fail "summary names an output that was discarded"
  expect 3 -- "${short[@]}" --input "$d/cfg" "${out[@]}"
  expect 0 -- "${fix[@]}" --input "$d/cfg" "${out[@]}"
  [ -f "$d/fixed" ] && [ -f "$d/g.bin" ] || fail "the converged rerun wrote no final files"
  absent "$d/fixed.unconverged"
  absent "$d/g.bin.unconverged"
  grep -q "converged: true" "$d/s.yaml" || fail "summary does not say converged: true"
  grep -Eq "^ +output: $d/fixed$" "$d/s.yaml" || fail "summary names another output"
  ;;
slurm_ensemble)
  script="$root/jobscripts/fix-ensemble.slurm"
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 3 --quiet -o "$d/e" > /dev/null
  printf '%s\n\n%s\n%s' "$d/e.0000" "$d/e.0001" "$d/e.0002" > "$d/list" # no final newline
  # the same gauge-defining options (the journal refuses others), fewer sweeps
  printf 'tolerance: 1e-10\ncheck-interval: 10\nmax-iterations: 2\nquiet: true\n' > "$d/short.yaml"
  printf 'tolerance: 1e-10\ncheck-interval: 10\nquiet: true\n' > "$d/long.yaml"
  run() { LIST="$d/list" OUTDIR="$d/out" OPTIONS="$1" GAUGEFIX="$g" BACKEND=cpu bash "$script"; }
  expect 3 "NOT CONVERGED" -- run "$d/short.yaml"
  for j in 0000 0001 0002; do
    absent "$d/out/e.$j.fixed"
    [ -f "$d/out/e.$j.fixed.unconverged" ] || fail "e.$j was not run"
  done
  expect 0 -- run "$d/long.yaml"
  for j in 0000 0001 0002; do
    [ -f "$d/out/e.$j.fixed" ] || fail "e.$j was not completed"
    absent "$d/out/e.$j.fixed.unconverged"
    grep -q "converged: true" "$d/out/e.$j.yaml" || fail "e.$j: summary"
  done
  cp "$d/out/e.0001.fixed" "$d/e1.done"
  expect 0 -- run "$d/short.yaml" # every configuration is finished: nothing runs
  [ "$(grep -c 'Z skip' "$d/stdout")" -eq 3 ] || fail "finished configurations were run again"
  same "$d/out/e.0001.fixed" "$d/e1.done"
  # a finished output whose summary says it did not converge is redone, and only that one
  sed -i 's/converged: true/converged: false/' "$d/out/e.0002.yaml"
  expect 0 -- run "$d/long.yaml"
  [ "$(grep -c 'Z skip' "$d/stdout")" -eq 2 ] || fail "not exactly e.0002 was redone"
  grep -q "converged: true" "$d/out/e.0002.yaml" || fail "e.0002 was not redone"
  # two inputs with one base name are refused before anything runs
  mkdir "$d/a" "$d/b"
  cp "$d/e.0000" "$d/a/cfg"
  cp "$d/e.0001" "$d/b/cfg"
  printf '%s\n%s\n' "$d/a/cfg" "$d/b/cfg" > "$d/list"
  expect 1 "same base name 'cfg'" -- run "$d/long.yaml"
  absent "$d/out/cfg.fixed"
  absent "$d/out/cfg.yaml"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $case"
