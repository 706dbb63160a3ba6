#!/usr/bin/env bash
# run_quda_ovr.sh: QUDA's Landau overrelaxation kernel against gaugefix's on the same GPU in one
# run (issue 27, target 1). 32^4 SU(3), omega 1.7 (QUDA: relaxation boost 1.7), for each storage
# in RECONS (default "12 18"; QUDA's --recon, gaugefix's --storage) and precision in PRECS
# (default "single double"). Each program first runs with its tuner on (QUDA's tune cache and
# gaugefix's kept in the scratch folder); then Nsight Compute times LAUNCHES launches of the
# tuned sweep kernel (`computeFix`, gaugefix's `SiteSweep`; each a half-sweep over one parity)
# after SKIP, with the GPU's own clocks and no cache flush (gpu__time_duration, nanoseconds).
# A launch moves 8 links of every site of one parity, read and written: 16 RECON reals a site
# of the parity. Writes $OUT/summary.txt (per storage and precision: each program's median
# launch, the fraction of the streaming bandwidth of `gaugefix tune` in the same run, and
# QUDA's over gaugefix's time), $OUT/quda_tunecache.tsv and $OUT/logs.tar.gz.
# QUDA: `gauge_alg_test`'s Landau_Overrelaxation test of the precision (lattice/quda, built for
# sm_90; QUDA_GAUGE_ALG the binary), 100 iterations on a field made by its own heatbath
# (QUDA_THERM steps of 1 heatbath + 4 overrelaxation, default 10); gaugefix fixes a field of
# `gaugefix generate` (beta 6.0, 20 sweeps). The kernels' times do not depend on the field.
# DETAIL=1 also profiles one launch of each kernel with every Nsight Compute section (`--set
# full`): $OUT/detail_<program>_<precision>_<storage>.txt (the details page) and .csv (the raw
# metrics), to set the two kernels' limiters side by side (instructions, occupancy, stalls, bytes).
# Environment: QUDA_GAUGE_ALG (default .gpubin/gauge_alg_test), RECONS, PRECS, SKIP (default
# 20), LAUNCHES (default 20), QUDA_THERM, DETAIL, OUT. Where QUDA_GAUGE_ALG is not an executable
# the QUDA steps are skipped (the summary says so) and gaugefix's launches are timed alone, to
# set beside QUDA's figures of an earlier run on the same kind of GPU.
# Binaries and libraries come packed (bench/packed_session.sh).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
quda=${QUDA_GAUGE_ALG:-$bin/gauge_alg_test}
skip=${SKIP:-20}
launches=${LAUNCHES:-20}
export QUDA_RESOURCE_PATH=$out/quda_tune
mkdir -p "$QUDA_RESOURCE_PATH"
summary=$out/summary.txt
lat=32,32,32,32
metrics=(--metrics gpu__time_duration.sum --clock-control none --cache-control none --print-units base --csv)

"$bin/gaugefix" generate --backend cuda --precision mixed --lattice $lat --beta 6.0 --thermalisation 20 \
  --configs 1 --or-sweeps 4 --start hot --quiet -o "$out/b6" > "$out/generate.log" 2>&1
echo "generate rc=$?" | tee -a "$summary"
echo "# command: gaugefix tune --backend cuda --lattice $lat --precision single --storage 12" > "$out/tune_stream.log"
"$bin/gaugefix" tune --backend cuda --lattice $lat --precision single --storage 12 >> "$out/tune_stream.log" 2>&1
stream=$(grep -m 1 'streaming bandwidth' "$out/tune_stream.log" | grep -o -E '[0-9]+(\.[0-9]+)? GB/s' | head -n 1 | cut -d' ' -f1)
echo "# streaming (gaugefix tune, same run): $stream GB/s" | tee -a "$summary"
[ -x "$quda" ] || echo "# QUDA: $quda is not an executable here: its steps skipped, gaugefix timed alone" | tee -a "$summary"

# median of the launches' nanoseconds in an ncu CSV (rows of gpu__time_duration.sum)
median_ns() {
  grep 'gpu__time_duration.sum' "$1" | awk -F'","' '{ v = $NF; gsub(/"/, "", v); gsub(/,/, "", v); print v }' |
    sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# every section of one launch (after SKIP) of kernel regex $2 in the command after it, as
# $out/detail_$1.txt and .csv
profile_detail() {
  local name=$1 kernel=$2
  shift 2
  ncu --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" --launch-count 1 --set full \
    -o "$out/detail_$name" "$@" > "$out/detail_$name.err" 2>&1
  echo "detail $name rc=$?" >> "$summary"
  echo "# command: ncu -k regex:$kernel --launch-skip $skip --launch-count 1 --set full $*" > "$out/detail_$name.txt"
  ncu -i "$out/detail_$name.ncu-rep" --page details >> "$out/detail_$name.txt" 2>&1
  ncu -i "$out/detail_$name.ncu-rep" --page raw --csv > "$out/detail_$name.csv" 2>&1
}

quda_args() { # precision, storage
  echo "--gtest_filter=*Landau_Overrelaxation/$1 --dim 32 32 32 32 --prec $1 --recon $2 --heatbath-beta 6.0" \
    "--heatbath-coldstart false --heatbath-num-steps ${QUDA_THERM:-10} --heatbath-num-hb-per-step 1" \
    "--heatbath-num-or-per-step 4 --gf-ovr-relaxation-boost 1.7 --gf-maxiter 100 --gf-tol 1e-30" \
    "--gf-verbosity-interval 50"
}

for recon in ${RECONS:-12 18}; do
  for prec in ${PRECS:-single double}; do
    name=${prec}_$recon
    size=4
    [ "$prec" = double ] && size=8
    bytes=$((16 * recon * size * 32 * 32 * 32 * 32 / 2))
    if [ -x "$quda" ]; then
      # QUDA: a tuning run, then Nsight Compute with its tune cache
      # shellcheck disable=SC2046
      "$quda" $(quda_args "$prec" "$recon") > "$out/quda_${name}_tune.log" 2>&1
      echo "quda $name tune run rc=$? $(grep -a -m 1 'Time:' "$out/quda_${name}_tune.log")" | tee -a "$summary"
      echo "# command: ncu -k regex:computeFix --launch-skip $skip --launch-count $launches gauge_alg_test $(quda_args "$prec" "$recon")" > "$out/ncu_quda_$name.csv"
      # shellcheck disable=SC2046
      ncu --kernel-name-base demangled -k regex:computeFix --launch-skip "$skip" --launch-count "$launches" "${metrics[@]}" \
        "$quda" $(quda_args "$prec" "$recon") >> "$out/ncu_quda_$name.csv" 2> "$out/ncu_quda_$name.err"
      echo "ncu quda $name rc=$?" >> "$summary"
    fi
    # gaugefix: a tuning run, then Nsight Compute with the cached choice
    fix=(fix --backend cuda --input "$out/b6.0000" --precision "$prec" --storage "$recon" --omega 1.7
      --max-iterations 60 --tolerance 1e-30 --quiet)
    "$bin/gaugefix" "${fix[@]}" > "$out/gaugefix_${name}_tune.log" 2>&1
    echo "# command: ncu -k regex:SiteSweep --launch-skip $skip --launch-count $launches gaugefix ${fix[*]} --tuning cached" > "$out/ncu_gaugefix_$name.csv"
    ncu --kernel-name-base demangled -k regex:SiteSweep --launch-skip "$skip" --launch-count "$launches" "${metrics[@]}" \
      "$bin/gaugefix" "${fix[@]}" --tuning cached >> "$out/ncu_gaugefix_$name.csv" 2> "$out/ncu_gaugefix_$name.err"
    echo "ncu gaugefix $name rc=$? (3: tolerance 1e-30 not reached, as meant)" >> "$summary"
    if [ "${DETAIL:-0}" = 1 ]; then
      # shellcheck disable=SC2046
      [ -x "$quda" ] && profile_detail "quda_$name" computeFix "$quda" $(quda_args "$prec" "$recon")
      profile_detail "gaugefix_$name" SiteSweep "$bin/gaugefix" "${fix[@]}" --tuning cached
    fi
    q=nan
    [ -x "$quda" ] && q=$(median_ns "$out/ncu_quda_$name.csv")
    g=$(median_ns "$out/ncu_gaugefix_$name.csv")
    awk -v n="$name" -v q="$q" -v g="$g" -v b="$bytes" -v s="$stream" 'BEGIN {
      if (q == "nan") printf "%s: QUDA not run, gaugefix %.1f us (%.3f of streaming)\n", n, g / 1e3, b / g / s
      else printf "%s: QUDA %.1f us (%.3f of streaming), gaugefix %.1f us (%.3f), QUDA/gaugefix %.3f\n",
        n, q / 1e3, b / q / s, g / 1e3, b / g / s, q / g }' | tee -a "$summary"
  done
done
cp "$QUDA_RESOURCE_PATH"/tunecache.tsv "$out/quda_tunecache.tsv" 2> /dev/null
rm -f "$out"/*.0000
cp "$summary" "$out/device.txt" "$dest/"
[ -f "$out/quda_tunecache.tsv" ] && cp "$out/quda_tunecache.tsv" "$dest/"
tar czf "$dest/logs.tar.gz" -C "$out" .
