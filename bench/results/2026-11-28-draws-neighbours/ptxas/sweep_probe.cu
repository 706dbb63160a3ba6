#include "backend/cuda_exec.cuh"
#include "fix/site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "fix/precision_types.h"
namespace gf {
template <class Prec, int Lanes>
void run(const SiteSweep<LandauGauge, Prec, 3, Lanes, UpdateFamily::local, true>& f) {
  parallel_for(CudaExec{}, 1024, f);
}
template void run<SinglePrecision, 4>(const SiteSweep<LandauGauge, SinglePrecision, 3, 4, UpdateFamily::local, true>&);
template void run<DoublePrecision, 4>(const SiteSweep<LandauGauge, DoublePrecision, 3, 4, UpdateFamily::local, true>&);
template void run<MixedPrecision, 4>(const SiteSweep<LandauGauge, MixedPrecision, 3, 4, UpdateFamily::local, true>&);
}
