#!/usr/bin/env bash
# c_api_example.sh FIX_FIELD: examples/fix_field.c (the C API, include/gaugefix/gaugefix_c.h,
# compiled by the C compiler) runs: converged, theta below the tolerance (also measured again),
# the plaquette unchanged by fixing, g(x) returned, and a misspelled option refused with
# GAUGEFIX_ERROR and a message naming the function and the option; a directory that does not
# exist makes the write fail with exit status 1 and a message naming the file.
set -euo pipefail
example=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() {
  echo "c_api_example: $*" >&2
  exit 1
}
"$example" "$d" > "$d/out" || fail "fix_field exited with $?: $(cat "$d/out")"
cat "$d/out"
grep -q '^converged: true$' "$d/out" || fail "not converged"
grep -q "^read $d/field.lime: 4x4x4x4, SU(3), 9216 complex numbers$" "$d/out" ||
  fail "the ILDG file was not read back"
grep -q '^g(x): 2304 complex numbers$' "$d/out" || fail "no g(x)"
awk -F': ' '/^theta( measured)?:/ { n++; if (!($2 + 0 < 1e-12)) bad = 1 }
            /^plaquette before:/ { p = $2 } /^plaquette after:/ { q = $2 }
            END { d = p - q; if (d < 0) d = -d; exit !(n == 2 && !bad && p > 0 && d < 1e-12) }' \
  "$d/out" || fail "theta or the plaquette out of bounds"
grep -q "^misspelled option: status 1: gaugefix_fix_options_set: unknown option 'tolerence'" \
  "$d/out" || fail "the misspelled option: $(grep misspelled "$d/out")"

status=0
"$example" "$d/no-such-dir" > /dev/null 2> "$d/err" || status=$?
[ "$status" = 1 ] || fail "exit status $status for a missing directory (expected 1)"
grep -q "^fix_field: write: gaugefix_write: .*$d/no-such-dir" "$d/err" || fail "message: $(cat "$d/err")"
echo "c_api_example: ok"
