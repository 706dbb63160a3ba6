#!/usr/bin/env bash
# Builds gaugefix for the CPU and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build ] || meson setup build -Dcuda=disabled
meson test -C build --print-errorlogs
