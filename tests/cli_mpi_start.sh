#!/bin/bash
# cli_mpi_start.sh GAUGEFIX HOLD_TEMPORARY SOURCE_ROOT CASE [MPIRUN]: when gaugefix initialises
# MPI (comm/mpi_launch.h, docs/architecture.md "MPI start"). Run by meson, one test per CASE:
# - alone: a process that no launcher started makes no MPI call. Shown by an environment in
#   which a singleton MPI_Init fails (OPAL_PREFIX names an empty folder: Open MPI finds none of
#   its parts); GAUGEFIX_MPI=1 must then fail, else the check could not fail and proves nothing.
#   --help, --version, info, convert, transform, generate and a fix with both outputs succeed
#   in it, and --version says "MPI start: not initialised (one process)".
# - ranks: under mpirun, on 1 rank and on 2, every rank initialises MPI and --version says so.
set -euo pipefail
# shellcheck source=tests/cli_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh"

case $case in
alone)
  "$g" --version > "$d/version"
  grep -qx "MPI start: not initialised (one process)" "$d/version" ||
    fail "--version: $(cat "$d/version")"
  mkdir "$d/no-mpi"
  no_mpi=(env OPAL_PREFIX="$d/no-mpi")
  if GAUGEFIX_MPI=1 timeout 60 "${no_mpi[@]}" "$g" --version > /dev/null 2>&1; then
    fail "MPI_Init did not fail with OPAL_PREFIX=$d/no-mpi: this test cannot see MPI start"
  fi
  run() { timeout 60 "${no_mpi[@]}" "$g" "$@" > "$d/stdout" 2> "$d/stderr" || fail "$* ($(cat "$d/stderr"))"; }
  run --help
  run --version
  grep -qx "MPI start: not initialised (one process)" "$d/stdout" || fail "--version: $(cat "$d/stdout")"
  run info --check landau "$d/cfg"
  run convert "$d/cfg" "$d/cfg.h5" -q
  run fix -i "$d/cfg.h5" --algorithm facg --tolerance 1e-10 -q -o "$d/fixed.h5" \
    --transform-output "$d/g.h5"
  run transform "$d/cfg.h5" "$d/moved.lime" --transform "$d/g.h5" -q
  run generate --lattice 4,4,4,4 --beta 5.7 --configs 1 -q -o "$d/gen"
  run info "$d/fixed.h5" "$d/g.h5" "$d/moved.lime" "$d/gen.0000"
  ;;
ranks)
  mpirun=$5
  for n in 1 2; do
    timeout 60 "$mpirun" --oversubscribe -np "$n" "$g" --version > "$d/version" ||
      fail "mpirun -np $n gaugefix --version"
    grep -qx "MPI start: initialised (launcher: OMPI_COMM_WORLD_SIZE), $n rank(s)" "$d/version" ||
      fail "mpirun -np $n: $(cat "$d/version")"
  done
  ;;
*) fail "unknown case" ;;
esac
