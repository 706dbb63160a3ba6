#!/bin/bash
# cli_options.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: the command line, YAML configs and
# the log (docs/logs.md). Every refused command exits with exactly status 1 and names the
# option, the config file and key, or the file; help shows defaults; every subcommand reads
# its options from YAML; every log line carries its time; -q, -v and --log-file do what they
# say; info prints JSON and YAML for scripts. Run by meson, one test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
fix=("$g" fix --lattice 4,4,4,4 --random-transform 3 --tolerance 1e-10 --check-interval 10)
stamp='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z '

# stamped FILE: every line of FILE starts with a time stamp.
stamped() {
  [ -s "$1" ] || fail "$1 is empty"
  ! grep -Evq "$stamp" "$1" || fail "a line without time stamp: $(grep -Ev "$stamp" "$1" | head -n 1)"
}

# config_refused NAME KEY TEXT: a fix with the config file $d/NAME (holding TEXT) exits 1 and
# names the file and KEY.
config_refused() {
  printf '%b' "$3" > "$d/$1"
  expect 1 "config file '$d/$1'" "key '$2'" -- "$g" fix --config "$d/$1"
  ! grep -q "internal error" "$d/stderr" || fail "internal error: $(cat "$d/stderr")"
}

case $case in
help_defaults)
  for sub in fix generate info convert transform tune measure; do
    "$g" "$sub" --help > "$d/help" || fail "$sub --help exit status $?"
    grep -q "^Usage: gaugefix $sub " "$d/help" || fail "$sub: usage line: $(head -n 2 "$d/help")"
    grep -q -- "--config FILE" "$d/help" || fail "$sub --help does not name --config"
    grep -q -- "--log-file" "$d/help" || fail "$sub --help has no --log-file"
  done
  "$g" fix --help > "$d/help"
  for default in "--tolerance FLOAT=1e-12" "--gauge TEXT:{landau,coulomb,mag}=landau" \
      "--max-iterations INT=20000" "--check-interval INT=100" "--omega FLOAT=1.7" \
      "--lattice INT=8,8,8,8" "--seed UINT=1" "--precision TEXT:{single,mixed,double}=double"; do
    grep -qF -- "$default" "$d/help" || fail "fix --help lacks '$default'"
  done
  "$g" generate --help | grep -qF -- "--separation INT=" || fail "generate --help: no default of --separation"
  "$g" tune --help | grep -qF -- "--lattice INT=32,32,32,32" || fail "tune --help: no default lattice"
  "$g" measure --help > "$d/help"
  for default in "--ghost-tolerance FLOAT=1e-10" "--ghost-max-iterations INT=1000" \
      "--eigen-tolerance FLOAT=1e-06" "--eigen-max-iterations INT=1000" \
      "--gauge TEXT:{landau,coulomb,mag}"; do
    grep -qF -- "$default" "$d/help" || fail "measure --help lacks '$default'"
  done
  "$g" fix --help | grep -qF -- "ghost, eigenvalue, abelian" || fail "fix --help: --measure names"
  "$g" --help | grep -q "^Usage: gaugefix \[OPTIONS\] SUBCOMMAND" || fail "the program's usage line"
  ;;
version)
  "$g" --version > "$d/version"
  grep -Eq '^gaugefix [0-9]+\.[0-9]+\.[0-9]+$' "$d/version" || fail "no version: $(cat "$d/version")"
  for key in commit build CUDA MPI HDF5 FFTW; do
    grep -Eq "^$key: [^ ]" "$d/version" || fail "--version has no $key: $(cat "$d/version")"
  done
  grep -q "^CUDA: no$" "$d/version" || fail "a CPU build must say CUDA: no"
  ;;
bad_command_lines)
  # the option named, exit status 1 (CLI11's own codes are mapped)
  expect 1 "--tolerance" "inf" -- "${fix[@]}" --tolerance inf
  expect 1 "--tolerance" "nan" -- "${fix[@]}" --tolerance nan
  expect 1 "--lattice" "4 extents" -- "$g" fix --lattice 4,4,4,4,4
  expect 1 "--lattice" "4 extents" -- "$g" generate --beta 6 --lattice 4,4,4 -o "$d/x"
  expect 1 "--anneal-steps" "-1" -- "${fix[@]}" --anneal-steps -1
  expect 1 "--sr-steps" "-5" -- "${fix[@]}" --sr-steps -5
  expect 1 "--seed" "-1" -- "${fix[@]}" --seed -1
  expect 1 "--random-transform" "-3" -- "$g" fix --random-transform -3
  expect 1 "--max-iterations" "abc" -- "${fix[@]}" --max-iterations abc
  expect 1 "--no-such-option" -- "$g" fix --no-such-option
  expect 1 "--omega" "[1, 2)" "2.0" -- "$g" fix --omega 2.0
  expect 1 "--omega" "[1, 2)" "0.5" -- "$g" fix --omega 0.5
  expect 1 "--omega" "nan" -- "$g" fix --omega nan
  expect 1 "--sr-probability" "[0, 1]" "1.5" -- "$g" fix --sr-steps 5 --sr-probability 1.5
  expect 1 "--sr-probability" "-0.1" -- "$g" fix --sr-probability -0.1
  expect 1 "--t-max" "-1" -- "$g" fix --t-max -1
  expect 1 "--t-min" "0" -- "$g" fix --t-min 0
  expect 1 "--t-min" "--t-max" -- "${fix[@]}" --anneal-steps 5 --t-min 2 --t-max 1
  expect 1 "--alpha" "-1" -- "$g" fix --algorithm fasd --alpha -1
  expect 1 "--alpha" "--algorithm" -- "${fix[@]}" --alpha 0.1
  expect 1 "--algorithm" "fourier" -- "$g" fix --algorithm fourier
  expect 1 "--copy-tolerance" "-1" -- "$g" fix --copy-tolerance -1
  expect 1 "--copies" "-2" -- "$g" fix --copies -2
  expect 1 "--check-interval" "-1" -- "$g" fix --check-interval -1
  expect 1 "--check-interval" -- "${fix[@]}" --check-interval 0
  expect 1 "--max-iterations" -- "${fix[@]}" --max-iterations 0
  expect 1 "--reproject-interval" "-1" -- "$g" fix --reproject-interval -1
  expect 1 "--micro-steps" "-1" -- "$g" fix --micro-steps -1
  expect 1 "--output-bits" "16" -- "$g" fix --output-bits 16
  expect 1 "--storage" "16" -- "$g" fix --storage 16
  expect 1 "--gauge" "axial" -- "$g" fix --gauge axial
  expect 1 "--lattice" "even" -- "$g" fix --lattice 4,4,4,5
  expect 1 "/nonexistent/cfg.nersc" -- "$g" fix --input /nonexistent/cfg.nersc
  expect 1 "--quiet" "--verbose" -- "${fix[@]}" -q -v
  expect 1 "subcommand" -- "$g"
  gen=("$g" generate --lattice 4,4,4,4 --beta 5.7 -o "$d/gen")
  expect 1 "--beta" -- "$g" generate --lattice 4,4,4,4 --beta -1 -o "$d/gen"
  expect 1 "--beta" -- "$g" generate --lattice 4,4,4,4 --beta 0 -o "$d/gen"
  expect 1 "--lattice" -- "$g" generate --lattice 4,4,4,5 --beta 6 -o "$d/gen"
  expect 1 "--lattice" -- "$g" generate --lattice 4,0,4,4 --beta 6 -o "$d/gen"
  expect 1 "--lattice" -- "$g" generate --beta 6 -o "$d/gen"
  expect 1 "--beta" "required" -- "$g" generate --lattice 4,4,4,4 -o "$d/gen"
  expect 1 "--configs" -- "${gen[@]}" --configs 0
  expect 1 "--separation" -- "${gen[@]}" --separation 0
  expect 1 "--or-sweeps" -- "${gen[@]}" --or-sweeps -1
  expect 1 "--seed" "-1" -- "${gen[@]}" --seed -1
  expect 1 "--thermalisation" "-1" -- "${gen[@]}" --thermalisation -1
  expect 1 "--measure-interval" -- "${gen[@]}" --measure-interval -1
  expect 1 "--beta" "finite" "inf" -- "$g" generate --lattice 4,4,4,4 --beta inf -o "$d/gen"
  expect 1 "--lattice" "4 extents" "got 5" -- "$g" generate --beta 6 --lattice 4,4,4,4,4 -o "$d/gen"
  expect 1 "--lattice" -- "$g" tune --lattice 4,4,4,5
  expect 1 "--lattice" "4 extents" "got 5" -- "$g" tune --lattice 4,4,4,4,4
  expect 1 "/nonexistent/start.nersc" -- "${gen[@]}" --start /nonexistent/start.nersc
  expect 1 "--precision" "quad" -- "${gen[@]}" --precision quad
  expect 1 "--backend" "tpu" -- "${gen[@]}" --backend tpu
  expect 1 "--group" "su4" -- "${gen[@]}" --group su4
  expect 1 "--storage" "16" -- "${gen[@]}" --storage 16
  expect 1 "--tuning" "always" -- "${gen[@]}" --tuning always
  expect 1 "/nonexistent" -- "$g" generate --lattice 4,4,4,4 --beta 6 -o /nonexistent/cfg
  expect 1 "/nonexistent/cfg.nersc" -- "$g" info /nonexistent/cfg.nersc
  expect 1 "files" "required" -- "$g" info
  expect 1 "--format" "xml" -- "$g" info --format xml "$d/cfg"
  expect 1 "/nonexistent/cfg.nersc" -- "$g" convert /nonexistent/cfg.nersc "$d/out.nersc"
  expect 1 "--precision" "16" -- "$g" convert "$d/cfg" "$d/out" --precision 16
  absent "$d/out"
  absent "$d/gen.0000"
  ;;
config_every_subcommand)
  # each subcommand takes its options from YAML: lists, booleans, positional arguments
  printf 'lattice: [4, 4, 4, 4]\nbeta: 5.7\nthermalisation: 2\nconfigs: 1\nquiet: yes\noutput-prefix: %s\n' \
    "$d/ens2" > "$d/generate.yaml"
  "$g" generate --config "$d/generate.yaml" > "$d/stdout"
  [ -f "$d/ens2.0000" ] || fail "generate --config wrote no configuration"
  ! grep -q plaquette "$d/stdout" || fail "quiet: yes printed progress: $(cat "$d/stdout")"
  printf 'input: [%s]\noutput: %s\ngauge: coulomb\ntolerance: 1e-10\nquiet: on\n' "$d/cfg" "$d/fixed.lime" > "$d/fix.yaml"
  "$g" fix --config "$d/fix.yaml" > "$d/stdout"
  grep -q "converged: coulomb" "$d/stdout" || fail "fix --config: $(cat "$d/stdout")"
  printf 'files: [%s, %s]\ncheck: coulomb\nformat: yaml\n' "$d/cfg" "$d/fixed.lime" > "$d/info.yaml"
  "$g" info --config "$d/info.yaml" > "$d/stdout"
  [ "$(grep -c '^  check:' "$d/stdout")" -eq 2 ] || fail "info --config: $(cat "$d/stdout")"
  printf 'input: %s\noutput: %s\nformat: milc\n' "$d/cfg" "$d/cfg.milc" > "$d/convert.yaml"
  "$g" convert --config "$d/convert.yaml" > /dev/null
  "$g" info "$d/cfg.milc" | grep -q "format: milc" || fail "convert --config did not write MILC"
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --transform-output "$d/g.h5" --quiet > /dev/null
  printf 'transform: %s\ninput: %s\noutput: %s\n' "$d/g.h5" "$d/cfg" "$d/t.nersc" > "$d/transform.yaml"
  "$g" transform --config "$d/transform.yaml" > /dev/null
  [ -f "$d/t.nersc" ] || fail "transform --config wrote nothing"
  printf 'lattice: [4, 4, 4, 4]\nbackend: cpu\ngauge: coulomb\ntuning: force\n' > "$d/tune.yaml"
  GAUGEFIX_TUNE_CACHE="$d/cache" "$g" tune --config "$d/tune.yaml" > "$d/stdout"
  grep -q "^used measure.coulomb" "$d/stdout" || fail "tune --config: $(cat "$d/stdout")"
  # the command line wins over the file, a list is replaced, not extended
  printf 'lattice: [4, 4, 4, 6]\ngauge: mag\nquiet: true\n' > "$d/cl.yaml"
  "$g" fix --config "$d/cl.yaml" --lattice 4,4,4,8 --tolerance 1e-8 --summary "$d/s.yaml" > /dev/null
  grep -q "gauge: mag" "$d/s.yaml" && grep -Eq "lattice: \[4, 4, 4, 8\]" "$d/s.yaml" ||
    fail "config and command line: $(cat "$d/s.yaml")"
  ;;
config_errors)
  config_refused nested 'lattice' 'lattice: [[4, 4], 4, 4]\n'
  config_refused map 'gauge' 'gauge: {name: landau}\n'
  config_refused twice 'gauge' 'gauge: landau\ngauge: coulomb\n'
  config_refused nested_config 'config' 'config: other.yaml\n'
  config_refused type 'max-iterations' 'max-iterations: many\n'
  config_refused real 'tolerance' 'tolerance: small\n'
  config_refused flag 'quiet' 'quiet: maybe\n'
  config_refused list 'gauge' 'gauge: [landau, coulomb]\n'
  config_refused unknown 'bogus' 'bogus: 1\n'
  config_refused empty 'gauge' 'gauge:\n'
  # a value out of range, and options that contradict each other: the option, file and key
  config_refused omega 'omega' 'omega: 2.0\n'
  grep -qF -- "--omega" "$d/stderr" || fail "the option is not named: $(cat "$d/stderr")"
  config_refused lattice5 'lattice' 'lattice: [4, 4, 4, 4, 4]\n'
  config_refused seed 'seed' 'seed: -1\n'
  config_refused inf 'tolerance' 'tolerance: .inf\n'
  config_refused anneal 't-min' 'anneal-steps: 5\nt-min: 2\nt-max: 1\n'
  grep -qF -- "--t-max" "$d/stderr" || fail "--t-max is not named: $(cat "$d/stderr")"
  printf 'a: [\n' > "$d/broken.yaml"
  expect 1 "config file '$d/broken.yaml'" "YAML" -- "$g" fix --config "$d/broken.yaml"
  printf -- '- gauge\n' > "$d/seq.yaml"
  expect 1 "config file '$d/seq.yaml'" "map" -- "$g" fix --config "$d/seq.yaml"
  mkdir "$d/dir.yaml"
  expect 1 "--config" "$d/dir.yaml" "directory" -- "$g" fix --config "$d/dir.yaml"
  expect 1 "--config" "$d/none.yaml" -- "$g" fix --config "$d/none.yaml"
  printf 'beta: -1\nlattice: [4, 4, 4, 4]\noutput-prefix: %s\n' "$d/gen" > "$d/gen.yaml"
  expect 1 "--beta" -- "$g" generate --config "$d/gen.yaml"
  ;;
config_booleans)
  for yes in yes Yes true on ON; do
    printf 'quiet: %s\n' "$yes" > "$d/q.yaml"
    "${fix[@]}" --config "$d/q.yaml" > "$d/stdout"
    ! grep -q overrelaxation "$d/stdout" || fail "quiet: $yes printed progress"
  done
  for no in no false off; do
    printf 'quiet: %s\n' "$no" > "$d/q.yaml"
    "${fix[@]}" --config "$d/q.yaml" > "$d/stdout"
    grep -q overrelaxation "$d/stdout" || fail "quiet: $no printed no progress"
  done
  ;;
stdout_full)
  [ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 77; }
  expect 1 "standard output" -- sh -c '"$1" info "$2" > /dev/full' sh "$g" "$d/cfg"
  expect 1 "standard output" -- sh -c '"$1" info --format json "$2" > /dev/full' sh "$g" "$d/cfg"
  expect 1 "standard output" -- sh -c '"$1" --version > /dev/full' sh "$g"
  expect 1 "standard output" -- sh -c '"$1" fix --help > /dev/full' sh "$g"
  expect 1 "standard output" -- sh -c '"$@" > /dev/full' sh "${fix[@]}"
  ;;
stdout_closed)
  # a reader that goes away costs the log, not the result: the fix finishes, writes its
  # outputs and the summary (which records the cut), exit status 0 (docs/logs.md)
  for reader in "head -2" true; do
    rm -f "$d/out" "$d/s.yaml"
    { got=0; "$g" fix --input "$d/cfg" --tolerance 1e-12 --check-interval 1 --output "$d/out" \
      --summary "$d/s.yaml" 2> "$d/stderr" || got=$?; echo $got > "$d/status"; } | $reader > "$d/read"
    [ "$(cat "$d/status")" -eq 0 ] ||
      fail "exit status $(cat "$d/status") with | $reader: $(cat "$d/stderr")"
    "$g" info "$d/out" > /dev/null || fail "no complete output with | $reader"
    grep -q "converged: true" "$d/s.yaml" || fail "no summary with | $reader"
    [ "$(temporaries)" -eq 0 ] || fail "temporary files left with | $reader"
  done
  # data for scripts: every file is still checked, and the status says they passed
  { got=0; "$g" info "$d/cfg" "$d/out" 2> "$d/stderr" || got=$?; echo $got > "$d/status"; } | true
  [ "$(cat "$d/status")" -eq 0 ] ||
    fail "exit status $(cat "$d/status") of info | true: $(cat "$d/stderr")"
  # true closed the pipe before the first line: the summary says the log was cut
  grep -qF "log_cut: [stdout]" "$d/s.yaml" || fail "the summary does not record the cut: $(cat "$d/s.yaml")"
  ;;
log_lines)
  # every line on stdout and stderr carries its time; the header names host, ranks, device,
  # build and input; progress lines have their columns
  expect 1 "--lattice" "given 2 times" -- "${fix[@]}" --input "$d/cfg" --lattice 4,4,4,4
  stamped "$d/stderr"
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --check-interval 10 --anneal-steps 20 \
    --sr-steps 10 --output "$d/fixed" > "$d/stdout"
  stamped "$d/stdout"
  for header in "# build: gaugefix " "(commit " "# rank 0 of 1: host $(hostname)" "device CPU: " \
      "# input: $d/cfg (" "# fix: landau gauge, SU(3) 4x4x4x4, double precision" "sweeps/s" "eta"; do
    grep -qF -- "$header" "$d/stdout" || fail "no '$header' in the log: $(cat "$d/stdout")"
  done
  grep -Eq "$stamp +[0-9]+ anneal +[0-9]\.[0-9]{4} +0\.[0-9]{16} +[0-9.]+e[-+][0-9]+ +[0-9.]+ +" "$d/stdout" ||
    fail "no annealing line with its temperature: $(cat "$d/stdout")"
  grep -Eq "$stamp +[0-9]+ stochastic[-a-z]* +- " "$d/stdout" ||
    fail "no stochastic relaxation line: $(cat "$d/stdout")"
  grep -Eq "${stamp}converged: landau after [0-9]+ iterations" "$d/stdout" || fail "no result line"
  # Coulomb gauge: the stopping quantity, labelled
  "${fix[@]}" --gauge coulomb > "$d/stdout"
  grep -q "max theta_t" "$d/stdout" || fail "Coulomb progress does not name max theta_t"
  grep -q "max theta_t = " "$d/stdout" || fail "Coulomb result does not give max theta_t"
  # -q: the result only; -v: details (tuning)
  "${fix[@]}" -q --tuning force > "$d/stdout"
  [ "$(wc -l < "$d/stdout")" -eq 1 ] && grep -q "converged: landau" "$d/stdout" ||
    fail "-q printed more than the result: $(cat "$d/stdout")"
  GAUGEFIX_TUNE_CACHE="$d/cache" "${fix[@]}" -v --tuning force > "$d/stdout"
  grep -Eq "${stamp}tuned sweep\." "$d/stdout" || fail "-v shows no tuning: $(cat "$d/stdout")"
  # --log-file: the log goes there, nothing to stdout; an output like any other
  "${fix[@]}" --log-file "$d/run.log" > "$d/stdout"
  [ ! -s "$d/stdout" ] || fail "--log-file: still on stdout: $(cat "$d/stdout")"
  stamped "$d/run.log"
  grep -q "converged: landau" "$d/run.log" && grep -q "overrelaxation" "$d/run.log" ||
    fail "the log file lacks progress or result: $(cat "$d/run.log")"
  expect 1 "--log-file" "$d/cfg" "--input" -- "$g" fix --input "$d/cfg" --log-file "$d/cfg"
  same "$d/cfg" "$d/cfg.orig"
  expect 1 "--log-file" "--output" -- "$g" fix --input "$d/cfg" --output "$d/o" --log-file "$d/o"
  expect 1 "--log-file" "directory" -- "${fix[@]}" --log-file "$d"
  expect 1 "--log-file" -- "$g" convert "$d/cfg" "$d/c.lime" --log-file "$d/cfg"
  same "$d/cfg" "$d/cfg.orig"
  absent "$d/c.lime"
  # not converged: exit status 3; errors go to stderr, and the log file holds them too
  got=0
  "$g" fix --lattice 4,4,4,4 --random-transform 3 --max-iterations 2 --check-interval 1 \
    --log-file "$d/short.log" 2> "$d/stderr" || got=$?
  [ "$got" -eq 3 ] || fail "not converged: exit status $got, expected 3"
  grep -q "error: the gauge condition" "$d/stderr" && grep -q "error: the gauge condition" "$d/short.log" ||
    fail "the error is not in stderr and the log file"
  ;;
info_formats)
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --output "$d/fixed.h5" --quiet
  "$g" info --format json --check landau "$d/cfg" "$d/fixed.h5" > "$d/info.json"
  python3 - "$d/info.json" "$d/cfg" << 'EOF' || fail "info --format json: $(cat "$d/info.json")"
import json, sys
files = json.load(open(sys.argv[1]))
assert [f["path"] for f in files][0] == sys.argv[2]
assert files[0]["format"] == "nersc" and files[1]["format"] == "hdf5", files
assert files[0]["lattice"] == [4, 4, 4, 4] and files[0]["group"] == "SU(3)"
assert 0 < files[0]["plaquette"] < 1
assert files[1]["gauge_fixing"]["gauge"] == "landau" and files[1]["gauge_fixing"]["converged"] is True
assert files[1]["check"]["theta"] < 1e-10 < files[0]["check"]["theta"]
assert files[0]["ensemble"]["sequence_number"] == 2
EOF
  "$g" info --format yaml "$d/fixed.h5" > "$d/info.yaml"
  head -n 1 "$d/info.yaml" | grep -q '^---$' || fail "info --format yaml: $(cat "$d/info.yaml")"
  grep -q "^- path: $d/fixed.h5$" "$d/info.yaml" && grep -q "^  lattice: \[4, 4, 4, 4\]$" "$d/info.yaml" &&
    grep -q "^    converged: true$" "$d/info.yaml" || fail "info --format yaml: $(cat "$d/info.yaml")"
  # a failed file: its entry has the error, the others are described, exit status 1
  got=0
  "$g" info --format json "$d/cfg" /nonexistent/x > "$d/info.json" 2> "$d/stderr" || got=$?
  [ "$got" -eq 1 ] || fail "exit status $got"
  python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); assert "error" in f[1] and "format" in f[0]' \
    "$d/info.json" || fail "the failed file's entry: $(cat "$d/info.json")"
  ;;
*)
  fail "unknown case"
  ;;
esac
