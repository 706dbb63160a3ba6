#!/usr/bin/env bash
# run_quda_heatbath.sh: QUDA's heatbath and overrelaxation sweeps against gaugefix generate's on
# the same GPU in one run (issue 27: the generator no slower than QUDA's heatbath). 32^4 SU(3),
# beta = 6.0, hot start, RECON-real links, double and single precision. QUDA: `heatbath_test`
# (lattice/quda, built for sm_90; QUDA_HEATBATH the binary), one hit of one kind per step, timed
# as the wall time of STEPS warm-up steps less that of none (the set-up, the random states and
# QUDA's tuning, done in a first run with its tune cache kept, cancel); a step is the sweep and
# QUDA's reunitarisation of the links. gaugefix: `gaugefix generate --thermalisation STEPS` and
# its "sweeps/s (updates only)" line, heatbath alone and 1 heatbath + 4 overrelaxation (the
# overrelaxation rate derived from the two). Also QUDA's profile of each STEPS run (profile_0.tsv
# in its resource path): its sweep kernels' and its reunitarisation's times a step as QUDA's
# tuner measured them (times taken while tuning, not in the run). Writes $OUT/summary.txt and
# $OUT/logs.tar.gz.
# Environment: QUDA_HEATBATH (default .gpubin/heatbath_test), STEPS (default 100; 1000 for
# figures: the set-up's time varies by 0.2-0.5 s between runs), RECON (default 18; QUDA's
# --recon and gaugefix's --storage), OUT.
# Binaries and libraries come packed (bench/packed_session.sh).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
quda=${QUDA_HEATBATH:-$bin/heatbath_test}
steps=${STEPS:-100}
recon=${RECON:-18}
export QUDA_RESOURCE_PATH=$out/quda_tune
mkdir -p "$QUDA_RESOURCE_PATH"
summary=$out/summary.txt
now() { date +%s.%N; }
quda_run() { # precision, heatbath hits, overrelaxation hits, warm-up steps, log
  "$quda" --dim 32 32 32 32 --prec "$1" --recon "$recon" --heatbath-beta 6.0 --heatbath-coldstart false \
    --heatbath-num-hb-per-step "$2" --heatbath-num-or-per-step "$3" --heatbath-warmup-steps "$4" \
    --heatbath-num-steps 0 > "$5" 2>&1
}
for prec in double single; do
  for kind in heatbath overrelaxation; do
    hb=1 or=0
    [ $kind = overrelaxation ] && hb=0 or=1
    quda_run $prec $hb $or 5 "$out/quda_${prec}_${kind}_tune.log" || echo "quda $prec $kind tune run failed" | tee -a "$summary"
    t0=$(now); quda_run $prec $hb $or 0 "$out/quda_${prec}_${kind}_0.log"; t1=$(now)
    quda_run $prec $hb $or "$steps" "$out/quda_${prec}_${kind}_$steps.log"; t2=$(now)
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$steps" -v what="QUDA $prec $kind" 'BEGIN {
      printf "%s: %.4f ms a sweep (%d steps: %.3f s, none: %.3f s)\n", what, (c - b - (b - a)) * 1000 / n, n, c - b, b - a
    }' | tee -a "$summary"
    # QUDA's own account of the run: its profile lists each kernel's tuned time and calls
    profile=$out/quda_${prec}_${kind}_profile.tsv
    cp "$QUDA_RESOURCE_PATH/profile_0.tsv" "$profile"
    awk -F'\t' -v n="$steps" -v what="QUDA $prec $kind" '$4 + 0 == n && !seen[$7 FS $8]++ {
        if ($7 ~ /GaugeHB/) sweep += $5; else if ($7 ~ /UnitarizeLinks/) unit += $5 }
      END { printf "%s, QUDA profile: sweep kernels %.4f ms a step, reunitarisation %.4f ms\n", what, sweep * 1000, unit * 1000 }' \
      "$profile" | tee -a "$summary"
  done
  for or in 0 4; do
    log=$out/gaugefix_${prec}_or$or.log
    "$bin/gaugefix" generate --backend cuda --lattice 32,32,32,32 --beta 6.0 --start hot --precision $prec \
      --storage "$recon" --thermalisation "$steps" --or-sweeps $or --configs 1 --tuning on -o "$out/g_${prec}_$or" > "$log" 2>&1
    rm -f "$out"/g_*
    echo "gaugefix $prec 1 heatbath + $or overrelaxation: $(grep -h 'sweeps/s' "$log" | sed 's/^.*configurations in //')" | tee -a "$summary"
  done
done
cp "$summary" "$out/device.txt" "$dest/"
tar czf "$dest/logs.tar.gz" -C "$out" --exclude=g_* .
