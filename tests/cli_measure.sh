#!/bin/bash
# cli_measure.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE [MPIRUN]: gaugefix measure and
# gaugefix fix --measure (docs/measurements.md): the files and their record, bad options
# (exit status 1, the message names the option, nothing written), a batch whose restart does
# not measure again, the ghost propagator and the Faddeev-Popov eigenvalue (Landau gauge), the
# Abelian projection (maximally Abelian gauge), and (cases ranks, ghost_abelian_ranks) 2 ranks
# writing what one rank writes (the gluon propagators and the static potential also 4 ranks).
# Run by meson, one test per CASE.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
mpirun=${5:-}

# A Landau- and a Coulomb-fixed copy of $d/cfg (4^4).
"$g" fix --quiet --input "$d/cfg" --tolerance 1e-13 --output "$d/landau.nersc"
"$g" fix --quiet --input "$d/cfg" --tolerance 1e-13 --gauge coulomb --output "$d/coulomb.nersc"

# rows FILE: the number of data lines of a CSV (neither record nor header).
rows() { grep -cv '^#' "$1" | awk '{ print $1 - 1 }'; }
header() { grep -v '^#' "$1" | head -n 1; }

case $case in
measure_files)
  expect 0 -- "$g" measure --input "$d/landau.nersc" --gluon-propagator "$d/g.csv" --max-n2 2 \
    --static-potential "$d/p.h5" --max-t 2
  [ "$(header "$d/g.csv")" = "nx,ny,nz,nt,p2,transverse,longitudinal" ] || fail "header: $(header "$d/g.csv")"
  [ "$(rows "$d/g.csv")" -eq 33 ] || fail "$(rows "$d/g.csv") momenta with n^2 <= 2 on 4^4, not 33"
  for key in "input: $d/landau.nersc" "input_checksum: CHECKSUM=" "gauge: landau" \
    "gauge_fixing_gauge: landau" "gauge_fixing_converged: true" "program: gaugefix" "commit: "; do
    grep -q "^# $key" "$d/g.csv" || fail "no '# $key' in the record: $(grep '^#' "$d/g.csv")"
  done
  head -c 4 "$d/p.h5" | od -c | grep -q 'H   D   F' || fail "p.h5 is not HDF5"
  grep -q "measured gluon (33 rows) -> $d/g.csv" "$d/stdout" || fail "log: $(cat "$d/stdout")"
  grep -q "warning: --static-potential" "$d/stderr" || fail "no warning for a Landau field's potential"
  # the Coulomb field: equal-time propagators, the potential without a warning, a YAML config
  printf 'gluon-propagator: %s\nmax-n2: 1\nstatic-potential: %s\nmax-t: 2\n' "$d/c.csv" "$d/v.csv" > "$d/m.yaml"
  expect 0 -- "$g" measure --input "$d/coulomb.nersc" --config "$d/m.yaml"
  [ "$(header "$d/c.csv")" = "nx,ny,nz,p2,spatial,temporal" ] || fail "header: $(header "$d/c.csv")"
  [ "$(rows "$d/c.csv")" -eq 7 ] || fail "$(rows "$d/c.csv") spatial momenta with n^2 <= 1, not 7"
  [ "$(header "$d/v.csv")" = "r,t,correlator,potential" ] || fail "header: $(header "$d/v.csv")"
  [ "$(rows "$d/v.csv")" -eq 6 ] || fail "$(rows "$d/v.csv") rows for r = 0..2, T = 1..2, not 6"
  awk -F, '$1 == "0" && $2 == "1" { ok = ($3 - 192 < 1e-10 && 192 - $3 < 1e-10) } END { exit !ok }' "$d/v.csv" ||
    fail "C(0, 1) is not N_c V3 = 192: $(cat "$d/v.csv")"
  ! grep -q warning "$d/stderr" || fail "warning: $(cat "$d/stderr")"
  [ "$(temporaries)" -eq 0 ] || fail "temporary files left"
  ;;
measure_bad_options)
  m=("$g" measure --input "$d/landau.nersc")
  expect 1 --max-n2 -- "${m[@]}" --gluon-propagator "$d/out.csv"
  expect 1 --max-t --static-potential -- "${m[@]}" --gluon-propagator "$d/out.csv" --max-n2 1 --max-t 2
  expect 1 --cylinder-width "--cut psq" -- "${m[@]}" --gluon-propagator "$d/out.csv" --max-n2 1 --cylinder-width 2
  expect 1 --cut sphere -- "${m[@]}" --gluon-propagator "$d/out.csv" --max-n2 1 --cut sphere
  expect 1 --max-n2 -- "${m[@]}" --gluon-propagator "$d/out.csv" --max-n2 -1
  expect 1 "nothing to measure" -- "${m[@]}"
  expect 1 --max-t "L_t = 4" -- "${m[@]}" --static-potential "$d/out.csv" --max-t 4
  expect 1 --gauge -- "${m[@]}" --gluon-propagator "$d/out.csv" --max-n2 1 --gauge mag
  absent "$d/out.csv"
  cp "$d/landau.nersc" "$d/landau.orig"
  expect 1 --gluon-propagator "$d/landau.nersc" -- "${m[@]}" --gluon-propagator "$d/landau.nersc" --max-n2 1
  same "$d/landau.nersc" "$d/landau.orig"
  expect 1 --static-potential --gluon-propagator -- "${m[@]}" --gluon-propagator "$d/o.csv" \
    --max-n2 1 --static-potential "$d/o.csv" --max-t 1
  absent "$d/o.csv"
  expect 1 "'$d/nosuch'" -- "$g" measure --input "$d/nosuch" --gluon-propagator "$d/out.csv" --max-n2 1
  absent "$d/out.csv"
  # fix: --measure and the outputs go together
  f=("$g" fix --input "$d/cfg" --tolerance 1e-10 --output "$d/out.nersc")
  expect 1 "--measure gluon" --gluon-propagator -- "${f[@]}" --measure gluon
  expect 1 --static-potential "--measure potential" -- "${f[@]}" --static-potential "$d/p.csv" --max-t 1
  expect 1 --measure ghost -- "${f[@]}" --measure ghost
  expect 1 --gluon-propagator "maximally Abelian" -- "${f[@]}" --gauge mag --measure gluon \
    --gluon-propagator "$d/g.csv" --max-n2 1
  absent "$d/out.nersc"
  ;;
fix_measure_batch)
  cp "$d/cfg" "$d/a.cfg"
  cp "$d/cfg" "$d/b.cfg"
  # run N: the batch with --max-n2 N
  run() {
    "$g" fix --input "$d/a.cfg" "$d/b.cfg" --gauge coulomb --tolerance 1e-12 --output "$d/{stem}.fixed" \
      --measure gluon,potential --gluon-propagator "$d/{stem}.gluon.csv" --max-n2 "$1" \
      --static-potential "$d/{stem}.pot.h5" --max-t 2 --journal "$d/journal.yaml"
  }
  expect 0 -- run 2
  for s in a b; do
    [ -s "$d/$s.gluon.csv" ] && [ -s "$d/$s.pot.h5" ] || fail "no measurement of $s"
    grep -q "^# gauge_fixing_gauge: coulomb" "$d/$s.gluon.csv" || fail "no gauge-fixing record in $s"
    grep -q "^# input: $d/$s.cfg" "$d/$s.gluon.csv" || fail "no input in $s"
  done
  [ "$(grep -c "measured gluon" "$d/stdout")" -eq 2 ] || fail "not 2 gluon measurements: $(cat "$d/stdout")"
  grep -q "gluon: $d/a.gluon.csv" "$d/journal.yaml" || fail "journal: $(cat "$d/journal.yaml")"
  grep -q "$d/b.pot.h5" "$d/journal.yaml" || fail "journal lacks b.pot.h5"
  # the Coulomb-gauge field measured alone gives the same file but for the command line
  expect 0 -- "$g" measure --input "$d/a.fixed" --gluon-propagator "$d/again.csv" --max-n2 2
  diff <(grep -v '^# command' "$d/a.gluon.csv" | grep -v '^# input') \
    <(grep -v '^# command' "$d/again.csv" | grep -v '^# input') > /dev/null ||
    fail "measure differs from fix --measure: $(diff "$d/a.gluon.csv" "$d/again.csv")"
  cp "$d/a.gluon.csv" "$d/a.keep"
  touch -d '2000-01-01' "$d/a.gluon.csv"
  before=$(stat -c %Y "$d/a.gluon.csv")
  # the restart: nothing fixed, nothing measured again
  expect 0 -- run 2
  [ "$(grep -c "skip" "$d/stdout")" -eq 2 ] || fail "restart did not skip both: $(cat "$d/stdout")"
  ! grep -q "measured" "$d/stdout" || fail "measured again: $(cat "$d/stdout")"
  [ "$(stat -c %Y "$d/a.gluon.csv")" = "$before" ] || fail "a.gluon.csv was rewritten"
  same "$d/a.gluon.csv" "$d/a.keep"
  # a measurement file that went missing is redone with its configuration
  rm "$d/b.pot.h5"
  expect 0 -- run 2
  grep -q "redo $d/b.cfg" "$d/stdout" || fail "b not redone: $(cat "$d/stdout")"
  [ -s "$d/b.pot.h5" ] || fail "b.pot.h5 not measured again"
  [ "$(grep -c "measured potential" "$d/stdout")" -eq 1 ] || fail "not one measurement: $(cat "$d/stdout")"
  # other measurement options: the journal refuses the restart
  expect 1 --max-n2 "$d/journal.yaml" -- run 3
  ;;
ensemble_stats)
  # scripts/ensemble_stats.py over three configurations: means as awk computes them, positive
  # jackknife errors, V from the averaged correlator, a plot; files that do not match refused
  py=${PYTHON:-python3}
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --separation 1 --configs 3 --quiet -o "$d/e" > /dev/null
  "$g" fix --quiet --input "$d"/e.000? --gauge coulomb --tolerance 1e-12 --measure gluon,potential \
    --gluon-propagator "$d/{name}.g.csv" --max-n2 2 --static-potential "$d/{name}.v.csv" --max-t 2 \
    --journal "$d/j.yaml"
  s="$root/scripts/ensemble_stats.py"
  "$py" "$s" "$d"/e.000?.g.csv -o "$d/g.mean.csv" --plot "$d/g.png" || fail "ensemble_stats.py failed"
  "$py" "$s" "$d"/e.000?.v.csv -o "$d/v.mean.csv" --plot "$d/v.png" || fail "ensemble_stats.py failed"
  [ "$(header "$d/g.mean.csv")" = "nx,ny,nz,p2,spatial,spatial_err,temporal,temporal_err" ] ||
    fail "header: $(header "$d/g.mean.csv")"
  [ "$(rows "$d/g.mean.csv")" -eq "$(rows "$d/e.0000.g.csv")" ] || fail "rows differ"
  grep -q "^# configurations: 3" "$d/g.mean.csv" || fail "no configuration count"
  # row 2: the mean of the three spatial values, and a positive error
  want=$(for f in "$d"/e.000?.g.csv; do grep -v '^#' "$f" | sed -n 3p | cut -d, -f5; done |
    awk '{ s += $1 } END { printf "%.15e", s / 3 }')
  got=$(grep -v '^#' "$d/g.mean.csv" | sed -n 3p | cut -d, -f5,6)
  awk -v w="$want" -v g="${got%,*}" -v e="${got#*,}" 'BEGIN { d = w - g; if (d < 0) d = -d; exit !(d <= 1e-12 * w && e > 0) }' ||
    fail "mean $got, expected $want with a positive error"
  # V(r, 1) = log(mean C(r, 1) / mean C(r, 2)), not the mean of V
  awk -F, '!/^#/ && NR > 1 && $2 == 1 { c1[$1] = $3 } !/^#/ && $2 == 2 { c2[$1] = $3 }
    END { for (r in c1) printf "%s %.17g\n", r, log(c1[r] / c2[r]) }' "$d/v.mean.csv" | sort > "$d/want"
  grep -v '^#' "$d/v.mean.csv" | awk -F, 'NR > 1 && $2 == 1 { print $1, $5 }' | sort > "$d/got"
  paste "$d/want" "$d/got" | awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > 1e-12) exit 1 }' ||
    fail "V is not the log of the averaged correlators: $(paste "$d/want" "$d/got")"
  for p in g v; do head -c 4 "$d/$p.png" | od -c | grep -q 'P   N   G' || fail "$p.png is not a PNG"; done
  ! "$py" "$s" "$d/e.0000.g.csv" "$d/e.0001.v.csv" -o "$d/x.csv" 2> "$d/err" || fail "mixed files accepted"
  grep -q "e.0001.v.csv" "$d/err" || fail "the mismatch does not name the file: $(cat "$d/err")"
  absent "$d/x.csv"
  ;;
ranks)
  [ -n "$mpirun" ] || fail "no mpirun given"
  for n in 1 2; do
    timeout 120 "$mpirun" -np $n --oversubscribe "$g" measure --input "$d/coulomb.nersc" \
      --gluon-propagator "$d/g$n.csv" --max-n2 3 --static-potential "$d/p$n.csv" --max-t 1 \
      > "$d/stdout" 2> "$d/stderr" || fail "$n ranks: $(cat "$d/stderr")"
  done
  for f in g p; do
    diff <(grep -v '^# command' "$d/${f}1.csv") <(grep -v '^# command' "$d/${f}2.csv") > /dev/null ||
      fail "2 ranks differ from 1: $(diff "$d/${f}1.csv" "$d/${f}2.csv" | head)"
  done
  # the static potential on the time slabs of 1, 2 and 4 ranks of 4^3 x 8, Wilson lines
  # around the whole lattice (--max-t 7)
  for n in 1 2 4; do
    timeout 120 "$mpirun" -np $n --oversubscribe "$g" measure --input "$root/tests/data/lat..400.coulomb" \
      --static-potential "$d/w$n.csv" --max-t 7 > "$d/stdout" 2> "$d/stderr" ||
      fail "$n ranks: $(cat "$d/stderr")"
  done
  [ "$(rows "$d/w1.csv")" -eq 21 ] || fail "$(rows "$d/w1.csv") rows for r = 0..2, T = 1..7, not 21"
  for n in 2 4; do
    diff <(grep -v '^# command' "$d/w1.csv") <(grep -v '^# command' "$d/w$n.csv") > /dev/null ||
      fail "$n ranks differ from 1: $(diff "$d/w1.csv" "$d/w$n.csv" | head)"
  done
  # both gluon propagators on the time slabs of 1, 2 and 4 ranks of 4^3 x 8 (every rank
  # transforms its slices; the slices' transforms are gathered), bitwise alike
  for gauge in landau coulomb; do
    for n in 1 2 4; do
      timeout 120 "$mpirun" -np $n --oversubscribe "$g" measure --input "$root/tests/data/lat..400.$gauge" \
        --gluon-propagator "$d/$gauge$n.csv" --max-n2 6 > "$d/stdout" 2> "$d/stderr" ||
        fail "$gauge, $n ranks: $(cat "$d/stderr")"
    done
    for n in 2 4; do
      diff <(grep -v '^# command' "$d/${gauge}1.csv") <(grep -v '^# command' "$d/$gauge$n.csv") > /dev/null ||
        fail "$gauge: $n ranks differ from 1: $(diff "$d/${gauge}1.csv" "$d/$gauge$n.csv" | head)"
    done
  done
  [ "$(rows "$d/landau1.csv")" -gt 100 ] || fail "$(rows "$d/landau1.csv") Landau rows with n^2 <= 6"
  # fix --measure on 2 ranks: the field and its measurement as on one rank
  for n in 1 2; do
    timeout 120 "$mpirun" -np $n --oversubscribe "$g" fix --quiet --input "$d/cfg" --tolerance 1e-12 \
      --output "$d/f$n.nersc" --measure gluon --gluon-propagator "$d/m$n.csv" --max-n2 2 \
      > "$d/stdout" 2> "$d/stderr" || fail "fix on $n ranks: $(cat "$d/stderr")"
  done
  diff <(grep -Ev '^# (command|gauge_fixing_date)' "$d/m1.csv") \
    <(grep -Ev '^# (command|gauge_fixing_date)' "$d/m2.csv") > /dev/null ||
    fail "fix --measure on 2 ranks differs: $(diff "$d/m1.csv" "$d/m2.csv" | head)"
  ;;
ghost)
  # the unit field (a cold start, no sweep): G(p) = 1/p^2 to 1e-10, no constant mode
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --start cold --thermalisation 0 --configs 1 --quiet \
    -o "$d/unit" > /dev/null
  expect 0 -- "$g" measure --input "$d/unit.0000" --ghost-propagator "$d/unit.csv" --ghost-max-n2 2
  [ "$(header "$d/unit.csv")" = "nx,ny,nz,nt,p2,ghost,iterations,residual" ] ||
    fail "header: $(header "$d/unit.csv")"
  [ "$(rows "$d/unit.csv")" -eq 32 ] || fail "$(rows "$d/unit.csv") momenta with 0 < n^2 <= 2, not 32"
  grep -v '^#' "$d/unit.csv" | awk -F, 'NR > 1 { if ($1 == 0 && $2 == 0 && $3 == 0 && $4 == 0) exit 1
      d = $6 * $5 - 1; if (d < 0) d = -d; if (d > 1e-10 || $8 > 1e-10) exit 1; n++ } END { exit n != 32 }' ||
    fail "G(p) is not 1/p^2 on the unit field: $(cat "$d/unit.csv")"
  grep -q "measured ghost (32 rows) -> $d/unit.csv" "$d/stdout" || fail "log: $(cat "$d/stdout")"
  # a progress line per momentum, the last one of 32
  [ "$(grep -c 'ghost propagator: momentum [0-9]* of 32, n = ' "$d/stdout")" -eq 32 ] &&
    grep -q 'ghost propagator: momentum 32 of 32, .* 16 solves, ' "$d/stdout" ||
    fail "progress lines: $(cat "$d/stdout")"
  # --backend cuda: on a GPU the CPU's G(p) to 1e-12 relative; without one (or without CUDA)
  # exit status 1 and a message naming the backend
  if "$g" measure --input "$d/unit.0000" --ghost-propagator "$d/unit_gpu.csv" --ghost-max-n2 2 \
    --backend cuda > "$d/gpu_out" 2>&1; then
    paste -d, <(grep -v '^#' "$d/unit.csv") <(grep -v '^#' "$d/unit_gpu.csv") |
      awk -F, 'NR > 1 { d = $6 - $14; if (d < 0) d = -d; if (d > 1e-12 * $6) exit 1 }' ||
      fail "G(p) on the GPU differs from the CPU's: $(cat "$d/unit_gpu.csv")"
  else
    [ $? -eq 1 ] && grep -q "backend cuda requested" "$d/gpu_out" ||
      fail "--backend cuda without a GPU: $(cat "$d/gpu_out")"
  fi
  # the gluon propagator's other cuts: |n_mu| <= 1 (3^4 - 1 momenta), the same 1/p^2
  expect 0 -- "$g" measure --input "$d/unit.0000" --ghost-propagator "$d/cube.csv" --ghost-max-n2 1 \
    --ghost-cut hypercubic
  grep -v '^#' "$d/cube.csv" | awk -F, 'NR > 1 { if ($1 == 0 && $2 == 0 && $3 == 0 && $4 == 0) exit 1
      if ($1 * $1 > 1 || $2 * $2 > 1 || $3 * $3 > 1 || $4 * $4 > 1) exit 1
      d = $6 * $5 - 1; if (d < 0) d = -d; if (d > 1e-10) exit 1; n++ } END { exit n != 80 }' ||
    fail "not the 80 momenta of the hypercubic cut with G(p) = 1/p^2: $(cat "$d/cube.csv")"
  # the Landau-fixed sample: a positive lowest eigenvalue, the ghost propagator above 1/p^2
  sample="$root/tests/data/lat..400.landau"
  expect 0 -- "$g" measure --input "$sample" --lowest-eigenvalue "$d/e.csv" --ghost-propagator "$d/gh.h5" \
    --ghost-max-n2 1 --ghost-tolerance 1e-11
  [ "$(header "$d/e.csv")" = "eigenvalue,lanczos_steps,residual" ] || fail "header: $(header "$d/e.csv")"
  [ "$(rows "$d/e.csv")" -eq 1 ] || fail "not one row: $(cat "$d/e.csv")"
  grep -v '^#' "$d/e.csv" | awk -F, 'NR == 2 { ok = ($1 > 0 && $3 <= 1e-6 && $2 >= 1) } END { exit !ok }' ||
    fail "the lowest eigenvalue is not positive and converged: $(cat "$d/e.csv")"
  for key in "input: $sample" "gauge: landau" "gauge_fixing_gauge: landau"; do
    grep -q "^# $key" "$d/e.csv" || fail "no '# $key' in the record: $(grep '^#' "$d/e.csv")"
  done
  head -c 4 "$d/gh.h5" | od -c | grep -q 'H   D   F' || fail "gh.h5 is not HDF5"
  grep -q "measured eigenvalue (1 rows) -> $d/e.csv" "$d/stdout" || fail "log: $(cat "$d/stdout")"
  ! grep -q warning "$d/stderr" || fail "warning: $(cat "$d/stderr")"
  # fix --measure ghost,eigenvalue: the files of measure on the fixed field but for the command
  expect 0 -- "$g" fix --input "$d/cfg" --tolerance 1e-13 --output "$d/{stem}.fixed" \
    --measure ghost,eigenvalue --ghost-propagator "$d/{stem}.ghost.csv" --ghost-max-n2 1 \
    --lowest-eigenvalue "$d/{stem}.eig.csv" --journal "$d/journal.yaml"
  grep -q "ghost: $d/cfg.ghost.csv" "$d/journal.yaml" || fail "journal: $(cat "$d/journal.yaml")"
  grep -q "eigenvalue: $d/cfg.eig.csv" "$d/journal.yaml" || fail "journal: $(cat "$d/journal.yaml")"
  # the ghost options define the journal: a restart with others is refused
  expect 1 --ghost-max-n2 "$d/journal.yaml" -- "$g" fix --input "$d/cfg" --tolerance 1e-13 \
    --output "$d/{stem}.fixed" --measure ghost,eigenvalue --ghost-propagator "$d/{stem}.ghost.csv" \
    --ghost-max-n2 2 --lowest-eigenvalue "$d/{stem}.eig.csv" --journal "$d/journal.yaml"
  expect 1 --ghost-cut "$d/journal.yaml" -- "$g" fix --input "$d/cfg" --tolerance 1e-13 \
    --output "$d/{stem}.fixed" --measure ghost,eigenvalue --ghost-propagator "$d/{stem}.ghost.csv" \
    --ghost-max-n2 1 --ghost-cut hypercubic --lowest-eigenvalue "$d/{stem}.eig.csv" \
    --journal "$d/journal.yaml"
  printf 'ghost-propagator: %s\nghost-max-n2: 1\nlowest-eigenvalue: %s\n' "$d/again.csv" \
    "$d/again.eig.csv" > "$d/m.yaml"
  expect 0 -- "$g" measure --input "$d/cfg.fixed" --config "$d/m.yaml"
  diff <(grep -Ev '^# (command|input)' "$d/cfg.ghost.csv") <(grep -Ev '^# (command|input)' "$d/again.csv") \
    > /dev/null || fail "measure differs from fix --measure: $(diff "$d/cfg.ghost.csv" "$d/again.csv")"
  diff <(grep -Ev '^# (command|input)' "$d/cfg.eig.csv") <(grep -Ev '^# (command|input)' "$d/again.eig.csv") \
    > /dev/null || fail "measure differs from fix --measure: $(diff "$d/cfg.eig.csv" "$d/again.eig.csv")"
  [ "$(temporaries)" -eq 0 ] || fail "temporary files left"
  ;;
abelian)
  # a MAG-fixed field: integer, conserved currents (unconserved 0), densities in [0, 1]
  expect 0 -- "$g" fix --input "$d/cfg" --gauge mag --tolerance 1e-12 --output "$d/{stem}.mag" \
    --measure abelian --abelian "$d/{stem}.abelian.csv" --journal "$d/journal.yaml"
  f="$d/cfg.abelian.csv"
  [ "$(header "$f")" = "plaquette,polyakov_re,polyakov_im,polyakov_re_1,polyakov_im_1,polyakov_re_2,polyakov_im_2,polyakov_re_3,polyakov_im_3,density_1,density_2,density_3,unconserved" ] ||
    fail "header: $(header "$f")"
  [ "$(rows "$f")" -eq 1 ] || fail "not one row: $(cat "$f")"
  grep -v '^#' "$f" | awk -F, 'NR == 2 { ok = ($1 > 0 && $1 <= 1 && $13 == 0)
      for (i = 10; i <= 12; i++) if ($i < 0 || $i > 1) ok = 0 } END { exit !ok }' ||
    fail "not a conserved Abelian measurement: $(cat "$f")"
  grep -q "^# gauge: mag" "$f" || fail "no '# gauge: mag' in the record: $(grep '^#' "$f")"
  grep -q "^# gauge_fixing_gauge: mag" "$f" || fail "no gauge-fixing record: $(grep '^#' "$f")"
  grep -q "abelian: $f" "$d/journal.yaml" || fail "journal: $(cat "$d/journal.yaml")"
  grep -q "measured abelian (1 rows) -> $f" "$d/stdout" || fail "log: $(cat "$d/stdout")"
  # measure on the written field (its record says mag): the same file but for the command line
  expect 0 -- "$g" measure --input "$d/cfg.mag" --abelian "$d/again.csv"
  diff <(grep -Ev '^# (command|input)' "$f") <(grep -Ev '^# (command|input)' "$d/again.csv") > /dev/null ||
    fail "measure differs from fix --measure: $(diff "$f" "$d/again.csv")"
  # --gauge mag on a field without a record, HDF5
  expect 0 -- "$g" measure --input "$d/cfg" --gauge mag --abelian "$d/a.h5"
  head -c 4 "$d/a.h5" | od -c | grep -q 'H   D   F' || fail "a.h5 is not HDF5"
  [ "$(temporaries)" -eq 0 ] || fail "temporary files left"
  ;;
ghost_abelian_bad_options)
  m=("$g" measure --input "$d/landau.nersc")
  expect 1 --ghost-propagator coulomb -- "$g" measure --input "$d/coulomb.nersc" \
    --ghost-propagator "$d/out.csv" --ghost-max-n2 1
  expect 1 --lowest-eigenvalue coulomb -- "$g" measure --input "$d/coulomb.nersc" --lowest-eigenvalue "$d/out.csv"
  expect 1 --ghost-propagator "--gauge coulomb" -- "${m[@]}" --gauge coulomb --ghost-propagator "$d/out.csv" \
    --ghost-max-n2 1
  expect 1 --abelian mag -- "${m[@]}" --abelian "$d/out.csv"
  expect 1 --abelian "--gauge landau" -- "${m[@]}" --abelian "$d/out.csv" --gauge landau
  expect 1 --ghost-max-n2 -- "${m[@]}" --ghost-propagator "$d/out.csv"
  expect 1 --ghost-max-n2 -- "${m[@]}" --ghost-propagator "$d/out.csv" --ghost-max-n2 0
  expect 1 --ghost-max-n2 --ghost-propagator -- "${m[@]}" --lowest-eigenvalue "$d/out.csv" --ghost-max-n2 1
  expect 1 --ghost-tolerance -- "${m[@]}" --ghost-propagator "$d/out.csv" --ghost-max-n2 1 --ghost-tolerance 0
  expect 1 --ghost-cut --ghost-propagator -- "${m[@]}" --lowest-eigenvalue "$d/out.csv" --ghost-cut cylinder
  expect 1 --ghost-cut sphere -- "${m[@]}" --ghost-propagator "$d/out.csv" --ghost-max-n2 1 --ghost-cut sphere
  expect 1 --ghost-cylinder-width "--ghost-cut psq" -- "${m[@]}" --ghost-propagator "$d/out.csv" \
    --ghost-max-n2 1 --ghost-cylinder-width 2
  expect 1 --ghost-cylinder-width -- "${m[@]}" --ghost-propagator "$d/out.csv" --ghost-max-n2 1 \
    --ghost-cut cylinder --ghost-cylinder-width 0
  expect 1 --ghost-max-iterations -- "${m[@]}" --ghost-propagator "$d/out.csv" --ghost-max-n2 1 \
    --ghost-max-iterations 0
  expect 1 --eigen-tolerance --lowest-eigenvalue -- "${m[@]}" --abelian "$d/out.csv" --gauge mag \
    --eigen-tolerance 1e-6
  expect 1 --gluon-propagator "--gauge mag" -- "${m[@]}" --abelian "$d/out.csv" --gauge mag \
    --gluon-propagator "$d/g.csv" --max-n2 1
  absent "$d/out.csv"
  absent "$d/g.csv"
  # fix: the gauge of the run
  f=("$g" fix --input "$d/cfg" --tolerance 1e-10 --output "$d/out.nersc")
  expect 1 --ghost-propagator "--gauge coulomb" -- "${f[@]}" --gauge coulomb --measure ghost \
    --ghost-propagator "$d/out.csv" --ghost-max-n2 1
  expect 1 --lowest-eigenvalue "--gauge mag" -- "${f[@]}" --gauge mag --measure eigenvalue \
    --lowest-eigenvalue "$d/out.csv"
  expect 1 --abelian "--gauge landau" -- "${f[@]}" --measure abelian --abelian "$d/out.csv"
  expect 1 "--measure abelian" --abelian -- "${f[@]}" --gauge mag --measure abelian
  expect 1 --ghost-propagator "--measure ghost" -- "${f[@]}" --ghost-propagator "$d/out.csv" --ghost-max-n2 1
  absent "$d/out.csv"
  absent "$d/out.nersc"
  ;;
ghost_abelian_ranks)
  [ -n "$mpirun" ] || fail "no mpirun given"
  "$g" fix --quiet --input "$d/cfg" --gauge mag --tolerance 1e-12 --output "$d/mag.nersc"
  for n in 1 2; do
    timeout 120 "$mpirun" -np $n --oversubscribe "$g" measure --input "$root/tests/data/lat..400.landau" \
      --ghost-propagator "$d/g$n.csv" --ghost-max-n2 1 --lowest-eigenvalue "$d/e$n.csv" \
      > "$d/stdout" 2> "$d/stderr" || fail "$n ranks: $(cat "$d/stderr")"
    timeout 120 "$mpirun" -np $n --oversubscribe "$g" measure --input "$d/mag.nersc" --abelian "$d/a$n.csv" \
      > "$d/stdout" 2> "$d/stderr" || fail "$n ranks: $(cat "$d/stderr")"
  done
  for f in g e a; do
    [ "$(rows "$d/${f}1.csv")" -ge 1 ] || fail "${f}1.csv has no rows"
    diff <(grep -v '^# command' "$d/${f}1.csv") <(grep -v '^# command' "$d/${f}2.csv") > /dev/null ||
      fail "2 ranks differ from 1: $(diff "$d/${f}1.csv" "$d/${f}2.csv" | head)"
  done
  # fix --gauge mag --measure abelian on 2 ranks: the measurement as on one rank
  for n in 1 2; do
    timeout 120 "$mpirun" -np $n --oversubscribe "$g" fix --quiet --input "$d/cfg" --gauge mag \
      --tolerance 1e-12 --output "$d/f$n.nersc" --measure abelian --abelian "$d/m$n.csv" \
      > "$d/stdout" 2> "$d/stderr" || fail "fix on $n ranks: $(cat "$d/stderr")"
  done
  diff <(grep -Ev '^# (command|gauge_fixing_date)' "$d/m1.csv") \
    <(grep -Ev '^# (command|gauge_fixing_date)' "$d/m2.csv") > /dev/null ||
    fail "fix --measure abelian on 2 ranks differs: $(diff "$d/m1.csv" "$d/m2.csv" | head)"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "ok: $case"
