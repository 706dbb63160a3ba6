#!/usr/bin/env bash
# The main job on a default input made on the spot: Landau gauge on a smooth 8^4 SU(3)
# field moved to a random point of its gauge orbit, printing F and theta as it converges.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build ] || meson setup build -Dcuda=disabled
ninja -C build src/app/gaugefix
build/src/app/gaugefix fix --gauge landau --lattice 8,8,8,8 --group su3 --generate smooth \
  --random-transform 7 --precision double --tolerance 1e-13 --check-interval 25 \
  --summary build/demo-summary.yaml
