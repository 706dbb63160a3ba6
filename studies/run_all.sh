#!/usr/bin/env bash
# run_all.sh OUTDIR: every study of studies/ at its full size on one GPU (docs/studies.md), one
# folder each under OUTDIR (tables, figures where matplotlib exists, logs, histories), then
# OUTDIR/studies.tar.gz of all of it (the device tool returns at most 8 files) and
# OUTDIR/summary.md (the tables, the time each study took, the device).
# The binary: $GAUGEFIX if set; else in a GPU session the packed binaries (.gpupack/, unpacked
# by bench/packed_session.sh, which also sets the tune cache and writes device.txt); else
# build/src/app/gaugefix. OUTDIR defaults to $OUT. SMOKE=1 runs the smoke sizes on the CPU.
# Sizes and the expected time on one H100 (about 5 minutes in all) are in docs/studies.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || { echo "run_all.sh: error: no python3 (the studies are Python scripts)" >&2; exit 1; }
outdir=$(mkdir -p "${1:-${OUT:-out}}" && cd "${1:-${OUT:-out}}" && pwd)
device="cpu"
if [ -z "${GAUGEFIX:-}" ]; then
  if [ -f .gpupack/bin.tar.xz ]; then
    OUT=$outdir source "$here/../bench/packed_session.sh" # sets bin, out (scratch), device.txt
    export GAUGEFIX=$PWD/$bin/gaugefix
    cp "$out/device.txt" "$outdir/device.txt"
  else
    export GAUGEFIX=$here/../build/src/app/gaugefix
  fi
fi
command -v nvidia-smi > /dev/null && device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
size=() ; [ "${SMOKE:-0}" = 1 ] && size=(--smoke)
work=$(mktemp -d)
summary=$outdir/summary.md
{ echo "# studies: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $device, $GAUGEFIX ${size[*]}"; echo; } > "$summary"
status=0
for study in accuracy performance annealing_temperature cooling_mag global_maximum scaling; do
  extra=()
  [ "$study" = performance ] && extra=(--label "$device")
  t0=$(date +%s)
  python3 "$here/$study.py" "$work/$study" "${size[@]}" "${extra[@]}" > "$work/$study.out" 2>&1
  rc=$?
  t1=$(date +%s)
  mv "$work/$study.out" "$work/$study/stdout.txt" 2> /dev/null
  echo "$study: exit $rc, $((t1 - t0)) s" | tee -a "$outdir/times.txt"
  { echo "## $study (exit $rc, $((t1 - t0)) s)"; echo
    cat "$work/$study"/*.md 2> /dev/null | head -60; echo; } >> "$summary"
  [ $rc = 0 ] || status=1
done
rm -f "$work"/*/field_*.0000 "$work"/*/field_*.lock # the generated fields: large, remade by the scripts
tar -czf "$outdir/studies.tar.gz" -C "$work" .
rm -rf "$work"
echo "wrote $outdir/studies.tar.gz and $summary"
exit $status
