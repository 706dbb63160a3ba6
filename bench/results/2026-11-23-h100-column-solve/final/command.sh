#!/usr/bin/env bash
set -uo pipefail
source bench/packed_session.sh
for b in gaugefix; do echo "== $b"; cuobjdump --dump-resource-usage $bin/$b | c++filt | grep -A1 "SiteSweep<LinearGauge<1>" | grep -E "Function|REG" | sed 's/.*SiteSweep<LinearGauge<1>, PrecisionTypes<\([a-z, ]*\)>, 3, \([1248]\), (UpdateFamily)\([01]\)>.*/prec=\1 lanes=\2 family=\3/; s/.*\(REG:[0-9]*\).*\(LOCAL:[0-9]*\).*/\1 \2/' | paste - - | sort | uniq | head -60; done > $out/resources.txt 2>&1
$bin/gpu_tests --gtest_brief=1 > $out/gpu_tests.log 2>&1; echo "gpu_tests rc=$?" | tee -a $out/device.txt
for b in gaugefix gaugefix-base; do for p in single mixed double; do for s in 12 18; do
  $bin/$b tune --lattice 32,32,32,32 --gauge landau --precision $p --storage $s --table > $out/tune_${b}_landau_${p}_${s}_32.log 2>&1; echo "tune $b $p $s rc=$?" >> $out/device.txt
done; done; done
GAUGEFIX_SAMPLES=.gpupack/samples bash tests/gpu_copies.sh $bin/gaugefix > $out/gpu_copies.log 2>&1; echo "gpu_copies rc=$?" | tee -a $out/device.txt
tar -C "$out" -czf "$dest/call4_logs.tar.gz" .
head -c 3000 $out/resources.txt; tail -n 3 $out/gpu_tests.log; grep "^\[  FAILED" $out/gpu_tests.log | head
for f in $out/tune_*.log; do echo "$(basename $f): $(grep -m1 '<- winner' $f)"; done
for g in coulomb mag; do for p in single double; do $bin/gaugefix tune --lattice 32,32,32,32 --gauge $g --precision $p --storage 12 --table > $out/tune_gaugefix_${g}_${p}_12_32.log 2>&1; done; done
tar -C "$out" -czf "$dest/call4_logs.tar.gz" .
for f in $out/tune_gaugefix_[cm]*.log; do echo "$(basename $f): $(grep -m1 '<- winner' $f)"; done
