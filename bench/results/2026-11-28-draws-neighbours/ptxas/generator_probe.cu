#include "backend/cuda_exec.cuh"
#include "gen/gen_functors.h"
namespace gf {
void run_d(const LinkSubSweep<double, double, 3>& f) { parallel_for(CudaExec{}, 1024, f); }
void run_m(const LinkSubSweep<float, double, 3>& f) { parallel_for(CudaExec{}, 1024, f); }
void run_s(const StapleSums<float, double, 3>& f) { parallel_for(CudaExec{}, 1024, f); }
}
