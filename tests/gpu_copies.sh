#!/usr/bin/env bash
# gpu_copies.sh GAUGEFIX: Gribov copies on the CPU and on the GPU (the GPU suite). The GLU
# sample lat..400 (4^3 x 8) fixed with 4 copies from one seed on each backend: the same copy
# seeds bitwise, the same iterations (to one check interval), F of every copy equal to
# rounding, and the same best copy.
set -euo pipefail
g=$1
sample="$(dirname "${BASH_SOURCE[0]}")/data/lat..400" # tests/data/README.md
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() {
  echo "gpu_copies: $*" >&2
  exit 1
}
for backend in cpu cuda; do
  "$g" fix --backend "$backend" --input "$sample" --copies 4 --seed 1 --tolerance 1e-11 \
    --check-interval 20 --precision double --summary "$d/$backend.yaml" --output "$d/$backend.fixed" \
    --quiet > "$d/$backend.log" 2>&1 || fail "$backend: exit $?: $(cat "$d/$backend.log")"
done
field() { sed -n "s/^ *$1: //p" "$d/$2.yaml" | tail -n 1; }
[ "$(field seeds cpu)" = "$(field seeds cuda)" ] || fail "seeds: $(field seeds cpu) against $(field seeds cuda)"
[ "$(field best cpu)" = "$(field best cuda)" ] || fail "best copy: $(field best cpu) against $(field best cuda)"
awk -v a="$(field functional cpu)" -v b="$(field functional cuda)" \
  -v ia="$(field iterations cpu)" -v ib="$(field iterations cuda)" 'BEGIN {
  gsub(/[][,]/, " ", a); gsub(/[][,]/, " ", b); gsub(/[][,]/, " ", ia); gsub(/[][,]/, " ", ib)
  n = split(a, fa, " "); m = split(b, fb, " "); split(ia, na, " "); split(ib, nb, " ")
  if (n != 4 || m != 4) exit 1
  for (i = 1; i <= n; i++) {
    d = fa[i] - fb[i]; if (d < 0) d = -d
    if (d > 1e-12) exit 2
    k = na[i] - nb[i]; if (k < 0) k = -k
    if (k > 20) exit 3
  }
}' || fail "copies differ (status $?): cpu F $(field functional cpu) it $(field iterations cpu);" \
  "cuda F $(field functional cuda) it $(field iterations cuda)"
echo "gpu_copies: ok, F $(field functional cuda)"
