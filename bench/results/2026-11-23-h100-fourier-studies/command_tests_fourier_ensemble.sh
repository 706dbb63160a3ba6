#!/usr/bin/env bash
set -uo pipefail
cufft=$(find /usr/local /opt /usr/lib -name 'libcufft.so.12*' 2>/dev/null | head -1)
echo "cufft: $cufft"
export LD_LIBRARY_PATH=$(dirname "$cufft"):${LD_LIBRARY_PATH:-}
source bench/packed_session.sh
export LD_LIBRARY_PATH=$(dirname "$cufft"):$LD_LIBRARY_PATH
timeout 200 $bin/gpu_tests --gtest_brief=1 > $out/gpu_tests.log 2>&1; echo "gpu_tests rc=$?" | tee -a $out/device.txt
tail -n 3 $out/gpu_tests.log; grep "^\[  FAILED" $out/gpu_tests.log | head -20
GAUGEFIX_SAMPLES=.gpupack/samples timeout 60 bash tests/gpu_copies.sh $bin/gaugefix > $out/gpu_copies.log 2>&1; echo "gpu_copies rc=$?" | tee -a $out/device.txt
tar -C "$out" -czf "$dest/tests_logs.tar.gz" .
SIZES=32 BUDGET=230 LIMIT=120 bash bench/run_fourier_gpu.sh > $dest/fourier.txt 2>&1; echo "fourier rc=$?"; mv $dest/logs.tar.gz $dest/fourier_logs.tar.gz; cp $dest/table.md $dest/fourier_table.md 2>/dev/null; tail -n 15 $dest/fourier.txt
timeout 90 bash bench/run_ensemble_gpu.sh > $dest/ensemble.txt 2>&1; mv $dest/logs.tar.gz $dest/ensemble_logs.tar.gz; tail -n 3 $dest/ensemble.txt
