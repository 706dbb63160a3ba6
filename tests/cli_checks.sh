#!/bin/bash
# cli_checks.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: what gaugefix checks before it
# starts working, and what it records. Every refused fix must exit with exactly status 1,
# name the option (and file) in its message, print no progress line on stdout (only header
# lines, "<time> # ...": no sweep ran; the runs are not --quiet) and write nothing. info --check must agree with the fix
# summary, and the provenance must survive every format; info --check --tolerance exits 3
# where a file misses it; a missing file is named as one; a fix without --output warns that
# nothing is written. Run by meson, one test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
fix=("$g" fix --tolerance 1e-10 --check-interval 10)

# refused STATUS WORD... -- COMMAND...: expect, and no sweep ran (header lines only on stdout).
refused() {
  expect "$@"
  ! grep -Ev '^[0-9T:.-]+Z #' "$d/stdout" || fail "work started before the refusal: $(cat "$d/stdout")"
  same "$d/cfg" "$d/cfg.orig"
}

# field VALUE FILE: the value of "  KEY: VALUE" lines (gaugefix info), e.g. field format FILE.
field() { sed -n "s/^  $1: //p" "$2"; }

# close A B: |A - B| <= 1e-12.
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d <= 1e-12 && -d <= 1e-12) }' ||
  fail "$1 and $2 differ by more than 1e-12"; }

case $case in
exclusive_options)
  for o in "--lattice 4,4,4,4" "--generate hot" "--group su2"; do
    read -r name value <<< "$o"
    refused 1 "$name" --input -- "${fix[@]}" --input "$d/cfg" "$name" "$value" --output "$d/out"
    absent "$d/out"
  done
  refused 1 --output-format --output -- "${fix[@]}" --input "$d/cfg" --output-format hdf5
  refused 1 --output-bits --output -- "${fix[@]}" --input "$d/cfg" --output-bits 32
  refused 1 --transform-format --transform-output -- "${fix[@]}" --input "$d/cfg" \
    --transform-format hdf5 --output "$d/out"
  absent "$d/out"
  printf 'lattice: [4, 4, 4, 4]\n' > "$d/opts.yaml"
  refused 1 --lattice --input -- "${fix[@]}" --config "$d/opts.yaml" --input "$d/cfg"
  ;;
fourier_options)
  # --alpha: auto or a positive step, only with fasd / facg; no Fourier MAG; unknown algorithms
  for a in 0 -1 abc inf; do
    refused 1 --alpha -- "${fix[@]}" --input "$d/cfg" --algorithm facg "--alpha=$a" --output "$d/out"
  done
  refused 1 --alpha overrelaxation -- "${fix[@]}" --input "$d/cfg" --alpha 0.1 --output "$d/out"
  refused 1 "--algorithm fasd" MAG -- "${fix[@]}" --input "$d/cfg" --algorithm fasd --gauge mag --output "$d/out"
  refused 1 --algorithm fasd facg -- "${fix[@]}" --input "$d/cfg" --algorithm fourier --output "$d/out"
  absent "$d/out"
  # accepted: a fixed step, and the automatic one from a YAML file
  "${fix[@]}" --input "$d/cfg" --algorithm fasd --alpha 0.08 --output "$d/out" \
    --summary "$d/sum.yaml" > "$d/stdout"
  grep -q "Z converged" "$d/stdout" || fail "fasd --alpha 0.08 did not converge: $(cat "$d/stdout")"
  # the cost line and the summary name the transposes' path (one rank: local) and the
  # preconditioner's precision (auto: the fix's, double)
  grep -q "fourier: .* s transposing (path local, preconditioner double)" "$d/stdout" ||
    fail "no transpose path in the log: $(grep fourier: "$d/stdout")"
  grep -q "^ *transpose_path: local$" "$d/sum.yaml" || fail "no transpose_path in the summary"
  grep -q "^ *preconditioner_precision: double$" "$d/sum.yaml" ||
    fail "no preconditioner_precision in the summary"
  # --preconditioner-precision: single, double or auto; double only in a double or mixed fix
  refused 1 --preconditioner-precision mixed -- "${fix[@]}" --input "$d/cfg" --algorithm facg \
    --preconditioner-precision mixed --output "$d/out2"
  refused 1 "--preconditioner-precision double needs --precision double or mixed" -- \
    "${fix[@]}" --input "$d/cfg" --algorithm facg --precision single \
    --preconditioner-precision double --output "$d/out2"
  absent "$d/out2"
  printf 'algorithm: facg\nalpha: auto\npreconditioner-precision: single\n' > "$d/opts.yaml"
  "${fix[@]}" --config "$d/opts.yaml" --input "$d/cfg" --gauge coulomb > "$d/stdout"
  grep -q "Z converged: coulomb" "$d/stdout" || fail "facg from YAML did not converge: $(cat "$d/stdout")"
  grep -q "fourier: .*(path none, preconditioner single)" "$d/stdout" ||
    fail "the YAML key did not choose the single preconditioner: $(grep fourier: "$d/stdout")"
  ;;
storage_values)
  for v in 0 10 16; do
    refused 1 --storage -- "${fix[@]}" --input "$d/cfg" --storage "$v" --output "$d/out"
    refused 1 --storage -- "$g" tune --lattice 4,4,4,4 --storage "$v"
    expect 1 --storage -- "$g" generate --lattice 4,4,4,4 --beta 5.7 --configs 1 --storage "$v" \
      -o "$d/gen"
    absent "$d/gen.0000"
  done
  # auto (the default): 18 reals for fasd/facg on the cpu, 12 for the other algorithms
  for run in "facg 18" "fasd 18" "overrelaxation 12"; do
    read -r algorithm reals <<< "$run"
    "${fix[@]}" --input "$d/cfg" --algorithm "$algorithm" --max-iterations 1 --unconverged discard \
      > "$d/stdout" || true
    grep -q "$reals-real storage" "$d/stdout" ||
      fail "--storage auto with $algorithm is not $reals reals: $(grep storage "$d/stdout")"
  done
  "${fix[@]}" --input "$d/cfg" --algorithm facg --storage 12 --max-iterations 1 \
    --unconverged discard > "$d/stdout" || true
  grep -q "12-real storage" "$d/stdout" || fail "facg --storage 12 did not keep 12 reals"
  # SU(2) has no 8-parameter storage (--storage 12: 4 reals, 18: 8 reals)
  expect 1 --storage "SU(2)" -- "${fix[@]}" --generate hot --lattice 4,4,4,4 --group su2 \
    --storage 8 --output "$d/out"
  expect 1 --storage "SU(2)" -- "$g" generate --lattice 4,4,4,4 --group su2 --beta 2.3 \
    --configs 1 --storage 8 -o "$d/gen"
  absent "$d/out"
  absent "$d/gen.0000"
  ;;
output_extension)
  refused 1 --output out.h5 hdf5 --output-format nersc -- "${fix[@]}" --input "$d/cfg" \
    --output "$d/out.h5" --output-format nersc
  refused 1 --output out.lime "ildg or scidac" --output-format hdf5 -- "${fix[@]}" \
    --input "$d/cfg" --output "$d/out.lime" --output-format hdf5
  refused 1 --transform-output g.h5 --transform-format binary -- "${fix[@]}" --input "$d/cfg" \
    --output "$d/out" --transform-output "$d/g.h5" --transform-format binary
  absent "$d/out.h5"
  absent "$d/out.lime"
  absent "$d/out"
  expect 1 output out.h5 --format -- "$g" convert "$d/cfg" "$d/out.h5" --format nersc
  absent "$d/out.h5"
  # the extension chooses the format where none is asked for
  for pair in out.h5:hdf5 out.hdf5:hdf5 out.lime:ildg out.ildg:ildg out.scidac:scidac \
    out.nersc:nersc out.cfg:nersc; do
    expect 0 -- "${fix[@]}" --quiet --input "$d/cfg" --output "$d/${pair%%:*}"
    "$g" info "$d/${pair%%:*}" > "$d/info"
    [ "$(field format "$d/info")" = "${pair##*:}" ] || fail "${pair%%:*} is $(field format "$d/info")"
  done
  expect 0 -- "${fix[@]}" --quiet --input "$d/cfg" --output "$d/s.lime" --output-format scidac
  "$g" info "$d/s.lime" > "$d/info"
  [ "$(field format "$d/info")" = scidac ] || fail "s.lime is not SciDAC"
  expect 0 -- "${fix[@]}" --quiet --input "$d/cfg" --output "$d/m" --output-format milc
  "$g" info "$d/m" > "$d/info"
  [ "$(field precision "$d/info")" = "32-bit, links reunitarised on read" ] || fail "milc bits"
  expect 0 -- "${fix[@]}" --quiet --input "$d/cfg" --transform-output "$d/g.h5"
  head -c 4 "$d/g.h5" | grep -q HDF || fail "g.h5 is not an HDF5 file"
  ;;
format_cannot_hold)
  refused 1 --output --output-format ildg "SU(2)" generated -- "${fix[@]}" --lattice 4,4,4,4 \
    --group su2 --output "$d/out" --output-format ildg
  refused 1 --output milc --output-bits 64 "single precision" -- "${fix[@]}" --input "$d/cfg" \
    --output "$d/out" --output-format milc --output-bits 64
  refused 1 --output openqcd --output-bits 32 "double precision" -- "${fix[@]}" \
    --input "$d/cfg" --output "$d/out" --output-format openqcd --output-bits 32
  refused 1 --output milc "SU(2)" -- "${fix[@]}" --generate smooth --group su2 \
    --lattice 4,4,4,4 --output "$d/out.milc"
  absent "$d/out"
  absent "$d/out.milc"
  ;;
output_directory)
  refused 1 --output "not a directory" -- "${fix[@]}" --input "$d/cfg" --output "$d/cfg/out"
  refused 1 --summary "does not exist" -- "${fix[@]}" --input "$d/cfg" --summary "$d/no/s.yaml"
  refused 1 --transform-output "does not exist" -- "${fix[@]}" --input "$d/cfg" \
    --transform-output "$d/no/g.bin"
  if [ "$(id -u)" -ne 0 ]; then # root may write anywhere
    mkdir "$d/ro"
    chmod a-w "$d/ro"
    refused 1 --output "not writable" -- "${fix[@]}" --input "$d/cfg" --output "$d/ro/out"
  fi
  ;;
repeated_options)
  cp "$d/cfg" "$d/other"
  refused 1 --input "'$d/cfg', '$d/other'" -- "${fix[@]}" --input "$d/cfg" --input "$d/other"
  refused 1 --output -- "${fix[@]}" --input "$d/cfg" -o "$d/a" --output="$d/b"
  refused 1 --input -- "${fix[@]}" --input="$d/cfg" -i"$d/other"
  absent "$d/a"
  absent "$d/b"
  printf 'input: %s\ninput: %s\n' "$d/cfg" "$d/other" > "$d/opts.yaml"
  refused 1 opts.yaml input "more than once" -- "${fix[@]}" --config "$d/opts.yaml"
  expect 1 --format -- "$g" convert "$d/cfg" "$d/out" --format nersc --format ildg
  absent "$d/out"
  # a --config value overridden on the command line, and a repeated flag, are fine
  printf 'input: %s\n' "$d/other" > "$d/opts.yaml"
  expect 0 -- "${fix[@]}" --quiet --quiet --config "$d/opts.yaml" --input "$d/cfg" \
    --summary "$d/s.yaml"
  grep -q "input: $d/cfg$" "$d/s.yaml" || fail "the command line did not override --config"
  ;;
info_check)
  for gauge in landau coulomb mag; do
    expect 0 -- "${fix[@]}" --quiet --tolerance 1e-12 --gauge "$gauge" --input "$d/cfg" \
      --output "$d/$gauge.nersc" --summary "$d/$gauge.yaml"
    "$g" info --check "$gauge" "$d/$gauge.nersc" > "$d/info"
    read -r f theta tmax <<< "$(field "check $gauge" "$d/info" |
      sed 's/F \([^,]*\), theta \([^,]*\), max theta_t \(.*\)/\1 \2 \3/')"
    close "$f" "$(sed -n 's/^ *functional: //p' "$d/$gauge.yaml")"
    close "$theta" "$(sed -n 's/^ *theta: //p' "$d/$gauge.yaml")"
    close "$tmax" "$(sed -n 's/^ *theta_max_slice: //p' "$d/$gauge.yaml")"
    field "gauge fixing" "$d/info" | grep -q "^$gauge, tolerance 1e-12, " ||
      fail "$gauge: no gauge fixing record: $(cat "$d/info")"
  done
  [ "$(field theta_t "$d/info" | wc -w)" -eq 0 ] || fail "theta_t printed for MAG"
  "$g" info --check coulomb "$d/coulomb.nersc" > "$d/info"
  [ "$(field theta_t "$d/info" | wc -w)" -eq 4 ] || fail "no theta_t of every slice"
  expect 1 --check -- "$g" info --check axial "$d/cfg"
  # the provenance: the input's ensemble and sequence number, and the record, in every format
  grep -aq "^ENSEMBLE_ID = ens$" "$d/landau.nersc" || fail "ENSEMBLE_ID not carried over"
  grep -aq "^SEQUENCE_NUMBER = 2$" "$d/landau.nersc" || fail "SEQUENCE_NUMBER not carried over"
  grep -aq "^GAUGE_FIXING = LANDAU$" "$d/landau.nersc" || fail "no GAUGE_FIXING"
  "$g" info "$d/landau.nersc" > "$d/info.nersc"
  for f in a.lime b.scidac c.h5 d.nersc; do
    from=${prev:-landau.nersc}
    "$g" convert "$d/$from" "$d/$f" > /dev/null
    "$g" info "$d/$f" > "$d/info.$f"
    for key in ensemble "gauge fixing"; do
      [ "$(field "$key" "$d/info.$f")" = "$(field "$key" "$d/info.nersc")" ] ||
        fail "$key changed from $from to $f: $(field "$key" "$d/info.$f")"
    done
    prev=$f
  done
  ;;
info_tolerance)
  # --tolerance with --check: exit status 3 where a file misses it, naming the file, theta and
  # the tolerance; both files are still described
  expect 0 -- "${fix[@]}" --quiet --tolerance 1e-12 --input "$d/cfg" --output "$d/fixed"
  expect 0 -- "$g" info --check landau --tolerance 1e-11 "$d/fixed"
  grep -q "^  tolerance: 1e-11, met$" "$d/stdout" || fail "no tolerance line: $(cat "$d/stdout")"
  expect 3 "$d/cfg" "--check landau" "is not below --tolerance 1e-11" -- \
    "$g" info --check landau --tolerance 1e-11 "$d/fixed" "$d/cfg"
  [ "$(grep -c "^  tolerance: 1e-11, " "$d/stdout")" -eq 2 ] || fail "a file not described"
  grep -q "^  tolerance: 1e-11, missed$" "$d/stdout" || fail "no missed line: $(cat "$d/stdout")"
  ! grep -qF "$d/fixed" "$d/stderr" || fail "the fixed file reported: $(cat "$d/stderr")"
  # Coulomb gauge: the largest theta_t is tested, as by gaugefix fix
  expect 3 "max theta_t" -- "$g" info --check coulomb --tolerance 1e-11 "$d/cfg"
  expect 3 -- "$g" info --check landau --tolerance 1e-11 --format json "$d/cfg"
  grep -q '"tolerance_met": false' "$d/stdout" || fail "json: $(cat "$d/stdout")"
  # an unreadable file is status 1 even where another misses the tolerance
  expect 1 -- "$g" info --check landau --tolerance 1e-11 "$d/cfg" "$d/nosuch"
  expect 1 --tolerance --check -- "$g" info --tolerance 1e-11 "$d/cfg"
  expect 1 --tolerance -- "$g" info --check landau --tolerance 0 "$d/cfg"
  "$g" info --help | grep -q -- "--tolerance" || fail "info --help does not name --tolerance"
  ;;
missing_file)
  # a file that does not exist is named as a file that cannot be opened, not as a g(x) file
  for check in "" landau; do
    expect 1 "file '$d/nosuch': cannot open: No such file or directory" -- \
      "$g" info ${check:+--check "$check"} "$d/nosuch"
    ! grep -q "transform file" "$d/stderr" || fail "info: $(cat "$d/stderr")"
  done
  expect 1 "'$d/nosuch'" -- "$g" convert "$d/nosuch" "$d/out.nersc"
  ! grep -q "transform file" "$d/stderr" || fail "convert: $(cat "$d/stderr")"
  absent "$d/out.nersc"
  ;;
fix_without_output)
  # a fix without --output works, exits 0, says that the field is not written, and writes nothing
  (cd "$d" && ls -A) > "$d/before"
  expect 0 "warning: no output requested" "--output" -- "${fix[@]}" --input "$d/cfg"
  grep -qi "converged" "$d/stdout" || fail "no fix ran: $(cat "$d/stdout")"
  (cd "$d" && ls -A | grep -Ev '^(stdout|stderr|before)$') | cmp -s - <(grep -Ev '^(stdout|stderr|before)$' "$d/before") ||
    fail "files written: $(cd "$d" && ls -A)"
  expect 0 -- "${fix[@]}" --quiet --input "$d/cfg" --output "$d/fixed"
  ! grep -q "no output requested" "$d/stderr" || fail "warning with --output"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $case"
