#!/usr/bin/env bash
# profile_facg_gpu.sh: what each kernel of a FACG step costs on one GPU (issue 27 item 2: the
# step counted against its limit). A 32^4 beta = 6.0 field (hot start, THERM sweeps, mixed),
# FACG in double to theta < 2.5e-13 (the step's time and iterations), then Nsight Compute over
# ITERS iterations of the same fix with a warm tune cache: per launch the kernel, its time and
# the DRAM bytes it read and wrote (ncu_facg.csv), and the streaming bandwidth of the same GPU
# (gaugefix tune's stream line). Also the device memory of the fix at SIZE2 (default
# 64,64,64,64), sampled by nvidia-smi while it runs (memory.csv).
# Environment: L (default 32), THERM (default 50), ITERS (default 12).
# Binaries and libraries come packed as for run_tuning_suite.sh (.gpupack, bench/README.md).
set -uo pipefail
source "$(dirname "$0")/packed_session.sh"
L=${L:-32}
lat="$L,$L,$L,$L"
"$bin/gaugefix" generate --backend cuda --precision mixed --lattice "$lat" --beta 6.0 \
  --thermalisation "${THERM:-50}" --configs 1 --or-sweeps 4 --start hot --quiet -o "$out/b6" > "$out/generate.log" 2>&1
echo "generate rc=$?" | tee -a "$out/device.txt"
cfg="$out/b6.0000"
fix="fix --backend cuda --input $cfg --algorithm facg --precision double"
echo "# command: gaugefix $fix --tolerance 2.5e-13" > "$out/fix_facg.log"
"$bin/gaugefix" $fix --tolerance 2.5e-13 --summary "$out/fix_facg.yaml" >> "$out/fix_facg.log" 2>&1
echo "fix rc=$?" | tee -a "$out/device.txt"
echo "# command: ncu --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum gaugefix $fix --tolerance 1e-30 --max-iterations ${ITERS:-12}" > "$out/ncu_facg.csv"
ncu --kernel-name-base demangled --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  "$bin/gaugefix" $fix --tolerance 1e-30 --max-iterations "${ITERS:-12}" --quiet >> "$out/ncu_facg.csv" 2> "$out/ncu_facg.err"
echo "ncu rc=$?" | tee -a "$out/device.txt"
echo "# command: gaugefix tune --backend cuda --lattice $lat --precision double" > "$out/tune_stream.log"
"$bin/gaugefix" tune --backend cuda --lattice "$lat" --precision double --tuning force >> "$out/tune_stream.log" 2>&1
grep -i -m 2 "stream" "$out/tune_stream.log" | tee -a "$out/device.txt"
size2=${SIZE2:-64,64,64,64}
"$bin/gaugefix" generate --backend cuda --precision mixed --lattice "$size2" --beta 6.0 \
  --thermalisation 2 --configs 1 --start hot --quiet -o "$out/big" > "$out/generate_big.log" 2>&1
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 100 > "$out/memory.csv" &
smi=$!
echo "# command: gaugefix fix --backend cuda --input big --algorithm facg --precision double --max-iterations 30 ($size2)" > "$out/fix_big.log"
"$bin/gaugefix" fix --backend cuda --input "$out/big.0000" --algorithm facg --precision double \
  --max-iterations 30 --tolerance 1e-30 >> "$out/fix_big.log" 2>&1
echo "fix big rc=$?" | tee -a "$out/device.txt"
kill $smi
echo "# peak MiB used: $(sort -n "$out/memory.csv" | tail -n 1) (lattice $size2)" | tee -a "$out/device.txt"
tar -C "$out" -czf "$dest/logs.tar.gz" --exclude='b6.0000' --exclude='big.0000' .
tail -n 4 "$out/fix_facg.log"
