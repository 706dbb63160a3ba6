#include "backend/cuda_exec.cuh"
#include "fix/site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"
#include "fix/precision_types.h"
namespace gf {
template <class G, class Prec, int Lanes, UpdateFamily F>
void run(const SiteSweep<G, Prec, 3, Lanes, F, false>& f) { parallel_for(CudaExec{}, 1024, f); }
template void run<LandauGauge, SinglePrecision, 4, UpdateFamily::local>(const SiteSweep<LandauGauge, SinglePrecision, 3, 4, UpdateFamily::local, false>&);
template void run<LandauGauge, DoublePrecision, 4, UpdateFamily::local>(const SiteSweep<LandauGauge, DoublePrecision, 3, 4, UpdateFamily::local, false>&);
template void run<LandauGauge, MixedPrecision, 2, UpdateFamily::local>(const SiteSweep<LandauGauge, MixedPrecision, 3, 2, UpdateFamily::local, false>&);
template void run<MagGauge, DoublePrecision, 4, UpdateFamily::local>(const SiteSweep<MagGauge, DoublePrecision, 3, 4, UpdateFamily::local, false>&);
template void run<LandauGauge, SinglePrecision, 2, UpdateFamily::thermal>(const SiteSweep<LandauGauge, SinglePrecision, 3, 2, UpdateFamily::thermal, false>&);
}
