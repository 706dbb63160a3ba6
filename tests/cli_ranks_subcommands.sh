#!/bin/bash
# cli_ranks_subcommands.sh GAUGEFIX MPIRUN RANKS [BACKEND]: every subcommand on RANKS ranks with
# the default log (and generate and fix with -v), against the same command on one rank. Each
# multi-rank run is limited to 60 s, so that a rank left waiting in a collective (the class of
# defect where only rank 0 measures for its log) fails the test fast instead of hanging it.
# - generate: a progress line for every sweep, and the configurations bitwise one rank's;
# - fix: the progress lines, the result line (F, theta, iterations) and the data of the fixed
#   field and of g(x) bitwise one rank's;
# - info --check, convert (a round trip through HDF5), transform: the same as on one rank;
# - tune: ends and names the launches it used.
# BACKEND (cpu or cuda, default cpu) is that of generate, fix and tune; under meson on the CPU
# (oversubscribed), and on 2 and 4 GPUs from bench/run_gpu_ranks.sh.
set -euo pipefail
g=$1 mpirun=$2 ranks=$3 backend=${4:-cpu}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() {
  echo "FAIL (subcommands on $ranks ranks, $backend): $*" >&2
  exit 1
}
many() { timeout 60 "$mpirun" --oversubscribe -np "$ranks" "$g" "$@"; }
# same_field A B WHAT: the NERSC files A and B hold the same data (their headers hold dates)
same_field() { cmp -s <(sed '1,/^END_HEADER/d' "$1") <(sed '1,/^END_HEADER/d' "$2") || fail "$3: $1 and $2 differ"; }
# log_has FILE PATTERN WHAT: the log FILE has a line matching the extended regex PATTERN
log_has() { grep -Eq "$2" "$1" || fail "$3 not in the log: $(cat "$1")"; }

lattice=4,4,4,8
volume=512 # sites
prefix=" r0/$ranks "
mkdir -p "$d/one" "$d/many" "$d/verbose"

# generate: every sweep measured and printed, the fields bitwise one rank's
gen=(generate --backend "$backend" --lattice "$lattice" --beta 5.7 --start hot --thermalisation 3
  --separation 2 --configs 2 --or-sweeps 1 --measure-interval 1 --seed 7)
"$g" "${gen[@]}" -q -o "$d/one/e" > /dev/null
many "${gen[@]}" -o "$d/many/e" > "$d/gen.log" 2>&1 || fail "generate: exit status $?: $(cat "$d/gen.log")"
for s in 1 2 3 4 5; do
  log_has "$d/gen.log" "^[0-9T:.-]+Z$prefix +$s +0\.[0-9]+ +[0-9.]+ +[0-9.]+$" "sweep $s"
done
log_has "$d/gen.log" "$prefix# saved $d/many/e.0001: sweep 5" "the saved line"
many "${gen[@]}" -v -o "$d/verbose/e" > "$d/gen_v.log" 2>&1 || fail "generate -v: exit status $?"
log_has "$d/gen_v.log" "$prefix +5 " "sweep 5 (-v)"
for c in e.0000 e.0001; do
  same_field "$d/one/$c" "$d/many/$c" "generate, $c"
  same_field "$d/one/$c" "$d/verbose/$c" "generate -v, $c"
done
cfg=$d/one/e.0001

# fix: the progress lines, the same result and data as on one rank
fix=(fix --backend "$backend" --input "$cfg" --tolerance 1e-10 --check-interval 20)
"$g" "${fix[@]}" -o "$d/one/f" --transform-output "$d/one/g" > "$d/fix1.log" 2>&1
many "${fix[@]}" -o "$d/many/f" --transform-output "$d/many/g" > "$d/fix.log" 2>&1 ||
  fail "fix: exit status $?: $(cat "$d/fix.log")"
log_has "$d/fix.log" "$prefix +20 overrelaxation " "the progress line of iteration 20"
result() { grep -o 'converged: .*, theta = [0-9.e+-]*' "$1"; }
[ "$(result "$d/fix.log")" = "$(result "$d/fix1.log")" ] ||
  fail "fix: the result differs: $(result "$d/fix.log") against $(result "$d/fix1.log")"
same_field "$d/one/f" "$d/many/f" "fix, the fixed field"
cmp -s <(tail -c $((volume * 9 * 16)) "$d/one/g") <(tail -c $((volume * 9 * 16)) "$d/many/g") ||
  fail "fix: g(x) differs from one rank's" # its data: 3x3 complex doubles a site, at the end
many "${fix[@]}" -v -o "$d/verbose/f" > "$d/fix_v.log" 2>&1 || fail "fix -v: exit status $?"
same_field "$d/one/f" "$d/verbose/f" "fix -v, the fixed field"

# info --check, convert and transform: what one rank gives
"$g" info --check landau "$d/one/f" > "$d/info1"
many info --check landau "$d/one/f" > "$d/info" 2> "$d/info.err" || fail "info: $(cat "$d/info.err")"
cmp -s "$d/info1" "$d/info" || fail "info --check differs from one rank's"
many convert "$cfg" "$d/many/c.h5" > "$d/convert.log" 2>&1 || fail "convert: $(cat "$d/convert.log")"
"$g" convert -q "$d/many/c.h5" "$d/one/c.nersc" > /dev/null
"$g" convert -q "$cfg" "$d/one/direct.nersc" > /dev/null
same_field "$d/one/c.nersc" "$d/one/direct.nersc" "convert through HDF5 on $ranks ranks"
"$g" transform -q --transform "$d/one/g" "$cfg" "$d/one/t" > /dev/null
many transform --transform "$d/one/g" "$cfg" "$d/many/t" > "$d/transform.log" 2>&1 ||
  fail "transform: $(cat "$d/transform.log")"
same_field "$d/one/t" "$d/many/t" "transform"

# tune: ends on every rank and names its launches
many tune --backend "$backend" --lattice "$lattice" --tuning force > "$d/tune.log" 2>&1 ||
  fail "tune: exit status $?: $(cat "$d/tune.log")"
log_has "$d/tune.log" "^used " "a launch"
echo "ok: every subcommand on $ranks ranks ($backend)"
