# 2 x NVIDIA H200 (one host), 2026-11-23, the session's final binaries (.gpupack as in bench/README.md)
export LD_LIBRARY_PATH=$PWD/.gpulibs OMP_NUM_THREADS=8
mpi="mpirun --allow-run-as-root --bind-to none -np 2 -x LD_LIBRARY_PATH -x OMP_NUM_THREADS"
$mpi .gpubin/unit_tests --gtest_brief=1 --gtest_filter='*Decomposition*' > decomposition_2gpu.log
for n in 1 2; do
  mpirun --allow-run-as-root --bind-to none -np $n -x LD_LIBRARY_PATH -x OMP_NUM_THREADS .gpubin/gaugefix fix \
    --backend cuda --gauge coulomb --lattice 32,32,32,32 --random-transform 5 --precision double \
    --tolerance 1e-12 --check-interval 100 --summary coulomb_${n}gpu.yaml > coulomb_${n}gpu.log
done
