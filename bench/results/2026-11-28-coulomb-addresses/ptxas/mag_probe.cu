#include "backend/cuda_exec.cuh"
#include "fix/site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"
#include "fix/precision_types.h"
namespace gf {
template <class G, class Prec, int Lanes, bool Rows>
void run(const SiteSweep<G, Prec, 3, Lanes, UpdateFamily::local, Rows>& f) {
  parallel_for(CudaExec{}, 1024, f);
}
#define INST(G, P, L, R) template void run<G, P, L, R>(const SiteSweep<G, P, 3, L, UpdateFamily::local, R>&);
INST(MagGauge, SinglePrecision, 4, true)
INST(MagGauge, MixedPrecision, 4, true)
INST(MagGauge, MixedPrecision, 2, true)
INST(MagGauge, DoublePrecision, 4, true)
INST(LandauGauge, MixedPrecision, 4, false)
INST(LandauGauge, DoublePrecision, 4, false)
}
