set -u
export LD_LIBRARY_PATH=$PWD/.gpulibs
mpi="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS"
export OMP_NUM_THREADS=8
{ date -u; nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader; } > $OUT/device.txt
$mpi -np 2 .gpubin/unit_tests --gtest_filter='*Decomposition*' > $OUT/decomposition_2gpu.log 2>&1; echo "decomp rc=$?" >> $OUT/device.txt
.gpubin/gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "gpu_tests rc=$?" >> $OUT/device.txt
bash bench/run_scaling.sh >/dev/null 2>&1; echo "scaling rc=$?" >> $OUT/device.txt
cat $OUT/device.txt; grep -E "PASSED|FAILED" $OUT/decomposition_2gpu.log | head; tail -3 $OUT/gpu_tests.log; cat $OUT/scaling.log
