#!/bin/bash
# cli_history.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE: `gaugefix fix --history`
# (docs/history.md). The history's rows agree with the printed progress, its last row with the
# summary (F, theta, max_t theta_t, iterations); Coulomb's worst slice is >= theta; a batch
# and Gribov copies write one file per configuration and copy, listed in the summary; a bad
# history path is refused before any sweep; scripts/plot_history.py draws histories.
# $PYTHON: a python3 with matplotlib. Run by meson, one test per CASE (tests/meson.build).
set -euo pipefail
PYTHON=${PYTHON:-python3}
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"
export OMP_NUM_THREADS=1

# check HISTORY SUMMARY STDOUT: the columns, one row per progress line of STDOUT (iteration,
# phase, T to the 4 printed decimals, F to the 16, theta (Coulomb: max theta_t) to the 4 printed
# digits), then a final row equal to the summary's result.
check() {
  "$PYTHON" - "$@" << 'EOF' || fail "history $1 disagrees (see above)"
import csv, re, sys
hist, summary, stdout = sys.argv[1:4]
rows = list(csv.DictReader(open(hist)))
want = ("iteration,phase,temperature,functional,theta,theta_max_slice,det_deviation_mean,"
        "det_deviation_max,unitary_deviation_max,seconds").split(",")
assert list(rows[0].keys()) == want, rows[0].keys()
# progress lines (docs/logs.md): time, iter, phase, T, F, theta (Coulomb: max theta_t), ...
log = open(stdout).read().splitlines()
progress = [l.split() for l in log if re.match(r"^\S+Z +\d+ [a-z]", l)]
theta = "theta_max_slice" if any("max theta_t" in l for l in log) else "theta"
checks, final = rows[:-1], rows[-1]
assert len(checks) == len(progress) > 0, (len(checks), len(progress))
for r, p in zip(checks, progress):
    assert int(r["iteration"]) == int(p[1]) and r["phase"] == p[2], (r, p)
    assert p[3] == "-" or abs(float(r["temperature"]) - float(p[3])) <= 5e-5, (r, p)
    assert abs(float(r["functional"]) - float(p[4])) <= 1e-15, (r, p)
    assert abs(float(r[theta]) - float(p[5])) <= 1e-4 * float(p[5]) + 1e-300, (r, p)
    assert float(r["theta_max_slice"]) >= float(r["theta"]) * (1 - 1e-12), r
    assert 0 <= float(r["det_deviation_mean"]) <= float(r["det_deviation_max"]) < 1e-6, r
    assert 0 <= float(r["unitary_deviation_max"]) < 1e-6, r
s = {}
for l in open(summary):
    m = re.match(r"^ {4}(functional|theta|theta_max_slice|iterations): (\S+)$", l)
    if m:
        s[m.group(1)] = m.group(2)
assert final["phase"] == "final", final
assert int(final["iteration"]) == int(s["iterations"]), (final, s)
for k in ("functional", "theta", "theta_max_slice"):
    assert float(final[k]) == float(s[k]), (k, final[k], s[k])
EOF
}

case $case in
rows_match_progress_and_summary)
  # annealing, stochastic relaxation, overrelaxation with reprojection; then a Fourier phase
  "$g" fix --input "$d/cfg" --random-transform 3 --anneal-steps 20 --t-max 2 --t-min 0.1 \
    --micro-steps 1 --sr-steps 20 --check-interval 10 --reproject-interval 7 --tolerance 1e-12 \
    --history "$d/h.csv" --summary "$d/s.yaml" > "$d/out"
  check "$d/h.csv" "$d/s.yaml" "$d/out"
  # 20 annealing steps of 2 sweeps, a row every 10 steps, T falling to 0.1; then SR rows
  "$PYTHON" -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
a = [r for r in rows if r['phase'] == 'anneal']
assert [int(r['iteration']) for r in a] == [20, 40], a
assert 2 > float(a[0]['temperature']) > float(a[1]['temperature']), a
assert abs(float(a[1]['temperature']) - 0.1) < 1e-12, a
assert [int(r['iteration']) for r in rows if r['phase'] == 'stochastic'] == [50, 60], rows
assert all(float(r['temperature']) == 0 for r in rows if r['phase'] != 'anneal'), rows
" "$d/h.csv" || fail "the annealing and stochastic rows are not where the schedule puts them"
  grep -q "history: \[$d/h.csv\]" "$d/s.yaml" || fail "the summary does not name the history"
  "$g" fix --input "$d/cfg" --random-transform 3 --algorithm facg --check-interval 5 \
    --history "$d/f.csv" --summary "$d/f.yaml" > "$d/out"
  check "$d/f.csv" "$d/f.yaml" "$d/out"
  same "$d/cfg" "$d/cfg.orig"
  ;;
coulomb_worst_slice)
  "$g" fix --input "$d/cfg" --gauge coulomb --random-transform 5 --check-interval 20 \
    --history "$d/h.csv" --summary "$d/s.yaml" > "$d/out"
  check "$d/h.csv" "$d/s.yaml" "$d/out"
  # on a random start the slices differ: the worst is strictly above the mean somewhere
  "$PYTHON" -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert any(float(r['theta_max_slice']) > 1.01 * float(r['theta']) for r in rows), 'no slice above the mean'
" "$d/h.csv" || fail "theta_max_slice never exceeds theta"
  ;;
batch_and_copies)
  "$g" generate --lattice 4,4,4,4 --beta 5.7 --thermalisation 2 --configs 2 --quiet -o "$d/e" > /dev/null
  mkdir "$d/out1" "$d/out2"
  "$g" fix --input "$d/e.0000" "$d/e.0001" --copies 2 --tolerance 1e-10 \
    --history "$d/out1/{name}.{copy}.csv" --summary "$d/out1/{name}.yaml" > "$d/out"
  for n in 0000 0001; do
    for c in 0 1; do
      [ -s "$d/out1/e.$n.$c.csv" ] || fail "no history e.$n.$c.csv"
      tail -1 "$d/out1/e.$n.$c.csv" | grep -q ',final,' || fail "e.$n.$c.csv has no final row"
    done
    grep -q "history: \[$d/out1/e.$n.0.csv, $d/out1/e.$n.1.csv\]" "$d/out1/e.$n.yaml" ||
      fail "the summary of e.$n does not list both copies' histories"
  done
  # the copies' final F are the summary's copies.functional
  "$PYTHON" -c "
import csv, re, sys
d = sys.argv[1]
f = [float(list(csv.DictReader(open(f'{d}/e.0001.{c}.csv')))[-1]['functional']) for c in (0, 1)]
line = [l for l in open(f'{d}/e.0001.yaml') if l.strip().startswith('functional: [')][0]
s = [float(x) for x in re.findall(r'[-0-9.e+]+', line.split('[')[1])]
assert f == s, (f, s)
" "$d/out1" || fail "the histories' final F are not the copies' F"
  grep -q "path: $d/out1/e.0000.1.csv" "$d/out1/gaugefix-journal.yaml" ||
    fail "the journal does not record the histories"
  # without {copy}: <stem>.copy<c>.<extension>
  "$g" fix --input "$d/e.0000" "$d/e.0001" --copies 2 --tolerance 1e-10 --journal "$d/j2.yaml" \
    --history "$d/out2/{stem}{index}.csv" --quiet > /dev/null
  for i in 0 1; do
    for c in 0 1; do [ -s "$d/out2/e$i.copy$c.csv" ] || fail "no history e$i.copy$c.csv"; done
  done
  [ "$(find "$d/out2" -type f | wc -l)" = 4 ] || fail "other files in out2: $(ls "$d/out2")"
  ;;
bad_paths_refused)
  # each refused before anything is read or swept: exit 1, the option named, no progress line
  refused() {
    expect 1 "$@"
    if grep -q overrelaxation "$d/stdout"; then fail "a sweep ran before the refusal: $*"; fi
  }
  refused --history "input" -- "$g" fix --input "$d/cfg" --history "$d/cfg"
  refused --history --summary -- "$g" fix --input "$d/cfg" --history "$d/x.csv" --summary "$d/x.csv"
  refused --history "$d/no/such/dir" -- "$g" fix --input "$d/cfg" --history "$d/no/such/dir/h.csv"
  refused "{copy}" --output -- "$g" fix --input "$d/cfg" --output "$d/f{copy}.nersc"
  refused --history "{copy}" -- "$g" fix --input "$d/cfg" --history "$d/h{copies}.csv"
  cp "$d/cfg" "$d/cfg2"
  refused --history -- "$g" fix --input "$d/cfg" "$d/cfg2" --history "$d/one.csv"
  refused --history --output -- "$g" fix --input "$d/cfg" --copies 2 --keep-copies \
    --output "$d/f.nersc" --history "$d/f.copy{copy}.nersc"
  refused --history -- "$g" fix --input "$d/cfg" --history ''
  mkdir "$d/adir"
  refused --history -- "$g" fix --input "$d/cfg" --history "$d/adir"
  same "$d/cfg" "$d/cfg.orig"
  [ "$(temporaries)" = 0 ] || fail "temporary files left"
  absent "$d/x.csv"
  ;;
plot)
  "$g" fix --input "$d/cfg" --random-transform 3 --check-interval 10 --history "$d/a.csv" --quiet
  "$g" fix --input "$d/cfg" --random-transform 4 --precision single --check-interval 10 \
    --tolerance 1e-6 --history "$d/b.csv" --quiet
  "$PYTHON" "$root/scripts/plot_history.py" "$d/a.csv" "$d/b.csv" -o "$d/p.png" > /dev/null
  [ "$(head -c 4 "$d/p.png" | tail -c 3)" = PNG ] || fail "plot_history.py wrote no PNG"
  "$PYTHON" "$root/scripts/plot_history.py" "$d/a.csv" > /dev/null
  [ -s "$d/a.png" ] || fail "plot_history.py without -o wrote no a.png"
  printf 'a,b\n1,2\n' > "$d/other.csv"
  expect 1 "not a gaugefix history" -- "$PYTHON" "$root/scripts/plot_history.py" "$d/other.csv"
  ;;
*)
  fail "unknown case"
  ;;
esac
