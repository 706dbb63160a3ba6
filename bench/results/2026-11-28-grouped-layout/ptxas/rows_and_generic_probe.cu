#include "backend/cuda_exec.cuh"
#include "fix/site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "fix/precision_types.h"
namespace gf {
void run(const SiteSweep<LandauGauge, DoublePrecision, 3, 4, UpdateFamily::local, false>& f) { parallel_for(CudaExec{}, 1024, f); }
void run(const SiteSweep<LandauGauge, SinglePrecision, 3, 4, UpdateFamily::local, false>& f) { parallel_for(CudaExec{}, 1024, f); }
void run(const SiteSweep<LandauGauge, SinglePrecision, 3, 4, UpdateFamily::local, true>& f) { parallel_for(CudaExec{}, 1024, f); }
}
