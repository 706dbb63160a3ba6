#!/bin/bash
# cli_rough_edges.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: what a new user meets first.
# transform refuses a g(x) made for another configuration (its recorded input checksum) unless
# --force; --output-bits is the one name of the output's bits (convert and transform warn on
# the old --precision 32|64); convert writes nersc-2row as fix does; tune's backend defaults to
# the build's; each subcommand's help shows config keys of its own; a misspelled option or
# config key gets "did you mean"; fix keeps errno when stdout is full; a clean end leaves no
# lock file (generate's, the journal's); ILDG files carry ildg-data-lfn (--lfn); summaries,
# history CSV and JSON write reals in their shortest form and name theta_max_slice so; the
# gauge-fixing record of every format names the algorithm; a batch stopped by SIGTERM says
# what finished and the command that goes on. One test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"

case $case in
transform_checksum)
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --check-interval 10 --output "$d/fixed" \
    --transform-output "$d/g.h5" --quiet > /dev/null
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 1 --seed 9 --quiet \
    -o "$d/other" > /dev/null
  expect 0 -- "$g" transform --transform "$d/g.h5" "$d/cfg" "$d/t.nersc" --quiet
  "$g" info --check landau --tolerance 1e-9 "$d/t.nersc" > /dev/null ||
    fail "the input transformed by its g(x) is not in Landau gauge"
  expect 1 "--transform '$d/g.h5' was made for the field with CHECKSUM=" "('$d/cfg')" \
    "input '$d/other.0000' has CHECKSUM=" "--force" -- \
    "$g" transform --transform "$d/g.h5" "$d/other.0000" "$d/t2.nersc"
  absent "$d/t2.nersc"
  expect 0 "applied anyway (--force)" -- \
    "$g" transform --transform "$d/g.h5" "$d/other.0000" "$d/t2.nersc" --force
  [ -f "$d/t2.nersc" ] || fail "--force wrote nothing"
  ;;
output_bits)
  for sub in fix convert transform; do
    "$g" "$sub" --help | grep -q -- "--output-bits INT:{32,64}" || fail "$sub --help has no --output-bits"
  done
  expect 0 -- "$g" convert "$d/cfg" "$d/c32.lime" --output-bits 32 --quiet
  "$g" info "$d/c32.lime" | grep -q "precision: 32-bit" || fail "--output-bits 32 wrote $("$g" info "$d/c32.lime" | grep precision)"
  expect 0 "--precision 32 is deprecated" "use --output-bits 32" -- \
    "$g" convert "$d/cfg" "$d/p32.lime" --precision 32 --quiet
  # the same file but for its name (the first line of info, and the ILDG logical file name)
  cmp -s <("$g" info "$d/c32.lime" | tail -n +2 | grep -v lfn) \
    <("$g" info "$d/p32.lime" | tail -n +2 | grep -v lfn) || fail "--precision 32 and --output-bits 32 differ"
  expect 1 "--precision 32 and --output-bits 64" -- \
    "$g" convert "$d/cfg" "$d/b.lime" --precision 32 --output-bits 64
  printf 'precision: 32\n' > "$d/old.yaml"
  expect 0 "--precision 32 is deprecated" -- "$g" convert --config "$d/old.yaml" "$d/cfg" "$d/y.lime"
  ;;
convert_nersc_2row)
  expect 0 -- "$g" convert "$d/cfg" "$d/two" --format nersc-2row --quiet
  expect 0 -- "$g" convert "$d/cfg" "$d/three" --format nersc --quiet
  grep -aq '^DATATYPE = 4D_SU3_GAUGE$' "$d/two" || fail "nersc-2row: $(grep -a DATATYPE "$d/two")"
  grep -aq '^DATATYPE = 4D_SU3_GAUGE_3x3$' "$d/three" || fail "nersc: $(grep -a DATATYPE "$d/three")"
  [ "$(stat -c %s "$d/two")" -lt "$(stat -c %s "$d/three")" ] || fail "two rows are not smaller"
  # fix's nersc is the full matrix too
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --check-interval 10 --output "$d/f3" \
    --output-format nersc --quiet > /dev/null
  grep -aq '^DATATYPE = 4D_SU3_GAUGE_3x3$' "$d/f3" || fail "fix nersc: $(grep -a DATATYPE "$d/f3")"
  expect 1 "--format" "nersc-3row" "nersc-2row" -- "$g" convert "$d/cfg" "$d/x" --format nersc-3row
  ;;
tune_backend)
  if "$g" --version | grep -q '^CUDA: no$'; then want=cpu; else want=cuda; fi
  "$g" tune --help | grep -qF -- "--backend TEXT:{cpu,cuda}=$want" ||
    fail "tune --backend default: $("$g" tune --help | grep -- --backend)"
  ;;
help_footer)
  for sub in fix generate info convert transform tune; do
    "$g" "$sub" --help > "$d/help"
    footer=$(grep -A1 '^Options from a YAML file' "$d/help" | tr '\n' ' ')
    keys=$(echo "$footer" | grep -o '(e\.g\. [^)]*)' | sed 's/^(e\.g\. //; s/)$//' | tr ',' '\n' |
      sed 's/^ *//; s/:.*//')
    [ -n "$keys" ] || fail "$sub --help: no example keys: $footer"
    for key in $keys; do
      grep -q -- "--$key\b" "$d/help" || fail "$sub --help shows config key '$key' it does not have"
    done
  done
  "$g" convert --help | grep -A1 '^Options from a YAML file' | grep -q tolerance &&
    fail "convert --help shows the key tolerance"
  true
  ;;
did_you_mean)
  expect 1 "--tolerence" "did you mean --tolerance?" -- "$g" fix --tolerence 1e-3
  expect 1 "did you mean --tolerance?" -- "$g" fix --tolerence=1e-3
  expect 1 "did you mean --format?" -- "$g" convert "$d/cfg" "$d/x" --fromat ildg
  printf 'anneal_steps: 3\n' > "$d/typo.yaml"
  expect 1 "config file '$d/typo.yaml', key 'anneal_steps'" "did you mean anneal-steps?" -- \
    "$g" fix --config "$d/typo.yaml"
  expect 1 "--frobnicate" -- "$g" fix --frobnicate
  grep -q "did you mean" "$d/stderr" && fail "a suggestion for --frobnicate: $(cat "$d/stderr")"
  true
  ;;
fix_stdout_full)
  [ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 77; }
  expect 1 "standard output" "No space left on device" -- \
    sh -c '"$1" fix --input "$2" --tolerance 1e-10 --check-interval 10 -o "$3" > /dev/full' \
    sh "$g" "$d/cfg" "$d/out"
  grep -q "No such file" "$d/stderr" && fail "errno lost: $(cat "$d/stderr")"
  true
  ;;
lock_files)
  absent "$d/ens.lock" # cli_common.sh generated $d/ens.0000
  expect 0 -- "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 2 --quiet -o "$d/ens"
  [ -f "$d/ens.0001" ] || fail "the continued chain wrote no ens.0001"
  absent "$d/ens.lock"
  # a lock file a killed run left behind is taken and removed
  : > "$d/ens.lock"
  expect 0 -- "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 3 --quiet -o "$d/ens"
  absent "$d/ens.lock"
  # held by another process: refused, and left alone
  expect 1 "ens.lock" "held by another process" -- flock "$d/ens.lock" \
    "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 4 --quiet -o "$d/ens"
  mkdir "$d/out"
  expect 0 -- "$g" fix --input "$d/cfg" --output "$d/out/{name}.fixed" --journal "$d/out/j.yaml" \
    --tolerance 1e-10 --check-interval 10 --quiet
  [ -f "$d/out/cfg.fixed" ] || fail "the batch wrote nothing: $(ls "$d/out")"
  absent "$d/out/j.yaml.lock"
  ;;
ildg_lfn)
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --check-interval 10 -o "$d/f.lime" --quiet > /dev/null
  "$g" info "$d/f.lime" | grep -qx "  lfn: f.lime" || fail "fix: lfn: $("$g" info "$d/f.lime" | grep lfn)"
  expect 0 -- "$g" convert "$d/cfg" "$d/c.lime" --lfn lfn://ldg/gaugefix/test/cfg --quiet
  "$g" info --format json "$d/c.lime" | grep -q '"lfn": "lfn://ldg/gaugefix/test/cfg"' ||
    fail "convert --lfn: $("$g" info --format json "$d/c.lime" | grep lfn)"
  grep -aq "ildg-data-lfn" "$d/c.lime" || fail "no ildg-data-lfn record"
  expect 1 "--lfn" "only ILDG files hold a logical file name" -- \
    "$g" convert "$d/cfg" "$d/c.h5" --lfn lfn://x
  absent "$d/c.h5"
  expect 0 -- "$g" convert "$d/cfg" "$d/s.lime" --format scidac --quiet
  ! grep -aq "ildg-data-lfn" "$d/s.lime" || fail "a SciDAC file with an ildg-data-lfn record"
  ;;
shortest_numbers)
  "$g" fix --input "$d/cfg" --tolerance 1e-10 --check-interval 10 --random-transform 2 -o "$d/f" \
    --summary "$d/s.yaml" --history "$d/h.csv" --quiet > /dev/null
  "$g" info --format json --check coulomb "$d/f" > "$d/info.json" || true
  grep -q '"theta_max_slice":' "$d/info.json" || fail "info JSON: no theta_max_slice: $(cat "$d/info.json")"
  ! grep -q 'max_theta_t' "$d/info.json" || fail "info JSON still says max_theta_t"
  # every real as Python's repr, the shortest that reads back, writes it (the history's
  # seconds have 6 decimals, docs/history.md)
  python3 - "$d/s.yaml" "$d/info.json" "$d/h.csv" << 'PY' || fail "a number not in its shortest form"
import csv, re, sys
numbers = []
for path in sys.argv[1:3]:
    # unquoted numbers, and those of the ensemble label (beta=5.7); not the values a file stores
    numbers += re.findall(r"(?<![\w.:\"-])-?\d+\.\d+(?:e[-+]?\d+)?", open(path).read())
rows = list(csv.reader(open(sys.argv[3])))
numbers += [x for row in rows[1:] for x in row[2:9]]
bad = [x for x in numbers if len(x.lstrip("-")) > len(repr(float(x)).lstrip("-"))]
print(f"{len(numbers)} numbers; longer than needed: {bad}")
sys.exit(1 if bad or len(numbers) < 10 else 0)
PY
  ;;
algorithm_record)
  for out in f.nersc f.lime f.h5; do
    "$g" fix --input "$d/cfg" --algorithm relaxation --tolerance 1e-8 --check-interval 10 \
      -o "$d/$out" --quiet > /dev/null
    "$g" info --format json "$d/$out" | grep -q '"algorithm": "relaxation"' ||
      fail "$out: no algorithm in the record: $("$g" info --format json "$d/$out" | grep -A12 gauge_fixing)"
    "$g" info "$d/$out" | grep -q "gauge fixing: landau, .* converged, relaxation, double precision" ||
      fail "$out: info: $("$g" info "$d/$out" | grep 'gauge fixing')"
  done
  grep -aq '^GAUGE_FIXING_ALGORITHM = RELAXATION$' "$d/f.nersc" || fail "NERSC header: no GAUGE_FIXING_ALGORITHM"
  # convert keeps the record
  expect 0 -- "$g" convert "$d/f.lime" "$d/c.h5" --quiet
  "$g" info --format json "$d/c.h5" | grep -q '"algorithm": "relaxation"' || fail "convert lost the algorithm"
  ;;
batch_sigterm)
  "$g" generate --lattice 8,8,8,8 --beta 5.7 --thermalisation 2 --configs 3 --quiet -o "$d/e" > /dev/null
  mkdir "$d/out"
  run=("$g" fix --input "$d/e.000*" --output "$d/out/{name}.fixed" --journal "$d/out/j.yaml"
    --tolerance 1e-13 --check-interval 10 --quiet)
  "${run[@]}" > "$d/first.log" 2> "$d/first.err" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1200); do
    grep -q "state: converged" "$d/out/j.yaml" 2> /dev/null && break
    sleep 0.05
  done
  sleep 0.2
  kill -0 "$pid" 2> /dev/null || fail "the batch ended before the test could stop it"
  kill -TERM "$pid"
  status=0
  wait "$pid" || status=$?
  [ "$status" = 143 ] || fail "exit status $status after SIGTERM (expected 143): $(cat "$d/first.err")"
  grep -qF "# stopped by a signal after 1 of 3 configuration(s) to do (1 converged, 0 not converged, 0 failed; the journal $d/out/j.yaml records them); to go on, run the same command again (it skips what the journal records as converged): " \
    "$d/first.err" || fail "no note of what finished: $(cat "$d/first.err")"
  grep -qF -- "fix --input $d/e.000* --output $d/out/{name}.fixed" "$d/first.err" ||
    fail "the note lacks the command: $(cat "$d/first.err")"
  [ "$(temporaries)" = 0 ] || fail "temporary files left"
  # the command it names goes on from there
  expect 0 -- "${run[@]}"
  grep -q "skip $d/e.0000: finished and converged (journal)" "$d/stdout" ||
    fail "the second run did not skip the first configuration: $(cat "$d/stdout")"
  [ "$(grep -c "state: converged" "$d/out/j.yaml")" = 3 ] || fail "journal: $(cat "$d/out/j.yaml")"
  absent "$d/out/j.yaml.lock"
  ;;
*)
  fail "unknown case"
  ;;
esac
