#include "backend/cuda_exec.cuh"
#include "fix/site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "fix/precision_types.h"
namespace gf {
template <class G, class Prec, int Lanes, bool Rows>
void run(const SiteSweep<G, Prec, 3, Lanes, UpdateFamily::local, Rows>& f) {
  parallel_for(CudaExec{}, 1024, f);
}
#define INST(G, P, L, R) template void run<G, P, L, R>(const SiteSweep<G, P, 3, L, UpdateFamily::local, R>&);
INST(CoulombGauge, SinglePrecision, 4, true)
INST(CoulombGauge, MixedPrecision, 4, true)
INST(CoulombGauge, DoublePrecision, 4, true)
INST(CoulombGauge, MixedPrecision, 4, false)
INST(CoulombGauge, SinglePrecision, 4, false)
INST(CoulombGauge, DoublePrecision, 4, false)
}
